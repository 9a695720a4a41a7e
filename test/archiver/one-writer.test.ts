// The archiver is the one writer of the chain store and the world state: no other file of src/
// calls a method that moves either (commit, roll back, reset, add or unwind blocks and
// checkpoints, set tips or the L1 sync point). Checked with the type checker over src/, so a call
// is found whatever the variable is called; the planted file shows the check can fail.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/** Methods that move the chain or the world state, by the class that has them. */
const WRITERS: Record<string, ReadonlySet<string>> = {
  WorldState: new Set(['commit', 'rollbackTo', 'reset']),
  ChainStore: new Set([
    'initialize',
    'addProposedBlock',
    'addCheckpoint',
    'setProvenCheckpoint',
    'setFinalizedCheckpoint',
    'restoreProofTips',
    'setL1SyncPoint',
    'unwindBlocksAfter',
    'unwindCheckpointsAfter',
    'rewind',
  ]),
};

const WRITER_NAMES = new Set(Object.values(WRITERS).flatMap((methods) => [...methods]));

/** Where those calls belong: the writer itself, and the two stores' own code. */
const ALLOWED = ['src/archiver/archiver.ts', 'src/archiver/chain-store.ts', 'src/world-state/'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Every call of a writing method of WorldState or ChainStore in `files`, as `file: Class.method`.
 * Imports are not followed (noResolve): the program is src/ itself, whose files resolve each
 * other, so the check costs seconds instead of the half minute the packages' types add.
 */
function writerCalls(files: string[]): string[] {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    noResolve: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`not compiled: ${file}`);
    const visit = (node: ts.Node): void => {
      // The type checker is asked only about calls of a writing method's name: it checks lazily,
      // so typing every call's receiver in src/ would cost most of the run.
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        WRITER_NAMES.has(node.expression.name.text)
      ) {
        const method = node.expression.name.text;
        const owner = checker.getTypeAtLocation(node.expression.expression).getSymbol()?.getName();
        if (owner !== undefined && WRITERS[owner]?.has(method))
          found.push(`${relative(root, file).split('\\').join('/')}: ${owner}.${method}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** A file outside src/ that rolls the world state back under another name, to show the check fails. */
function plant(dir: string): string {
  const planted = join(dir, 'planted.ts');
  const worldState = JSON.stringify(join(root, 'src', 'world-state', 'world-state.js'));
  writeFileSync(
    planted,
    `import type { WorldState } from ${worldState};\n` +
      'export async function sneak(trees: WorldState): Promise<void> {\n' +
      '  await trees.rollbackTo(0);\n}\n',
  );
  return planted;
}

describe('one writer of the chain and the world state', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-one-writer-'));
  let calls: string[];
  let planted: string;
  before(() => {
    planted = plant(dir);
    calls = writerCalls([...sourceFiles(join(root, 'src')), planted]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('only the archiver (and the stores themselves) move the chain store and the world state', () => {
    const inSrc = calls.filter((c) => c.startsWith('src/'));
    // The check sees the archiver's own calls: it is looking at the right thing.
    assert.ok(inSrc.some((c) => c.startsWith('src/archiver/archiver.ts: WorldState.commit')));
    assert.ok(inSrc.some((c) => c.startsWith('src/archiver/archiver.ts: ChainStore.addCheckpoint')));
    assert.deepEqual(
      inSrc.filter((c) => !ALLOWED.some((a) => c.startsWith(a))),
      [],
    );
  });

  test('a planted call from another part is found, whatever its variable is called', () => {
    const name = relative(root, planted).split('\\').join('/');
    assert.deepEqual(
      calls.filter((c) => c.startsWith(name)),
      [`${name}: WorldState.rollbackTo`],
    );
  });
});
