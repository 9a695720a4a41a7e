// The layer check (scripts/check-layers.mjs) on small fixture trees: the table is read from the
// `## Layers` section of docs/architecture.md, lower layers may not import higher or same-layer
// folders through any import form, packages are ignored, and the table and src/ must agree.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers, type LayerCheck } from '../../scripts/check-layers.mjs';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'check-layers.mjs');
const base = mkdtempSync(join(tmpdir(), 'cairn-check-layers-test-'));
after(() => rmSync(base, { recursive: true, force: true }));
let trees = 0;

const TABLE = `# Architecture

Some prose before the table.

## Layers

| Layer | Folder | What it holds |
|---|---|---|
| 0 | \`src/core/\` | types, no I/O |
| 1 | \`src/store/\` | storage |
| 1 | \`src/rpc/\` | transport |
| 2 | \`src/node/\` | composition root |

## Something else

| 9 | \`src/ignored/\` | a table in another section is not read |
`;

/** A clean tree: every import goes down the table. */
const CLEAN: Record<string, string> = {
  'src/core/types.ts':
    "export type Hash = string;\nimport { z } from 'zod';\nexport const schema = z.string();\n",
  'src/core/hash.ts': "import type { Hash } from './types.js';\nexport const h = (x: Hash) => x;\n",
  'src/store/env.ts':
    "import { h } from '../core/hash.js';\nimport { readFileSync } from 'node:fs';\nexport { h };\n",
  'src/rpc/server.ts': "import type { Hash } from '../core/types.js';\nexport type Id = Hash;\n",
  'src/node/node.ts':
    "import { h } from '../core/hash.js';\nimport '../store/env.js';\nimport type { Id } from '../rpc/server.js';\n",
};

/** Writes a fixture tree (docs/architecture.md plus `files`) and returns its root. */
function tree(files: Record<string, string>, doc: string | null = TABLE): string {
  const root = join(base, `t${trees++}`);
  const all = doc === null ? files : { 'docs/architecture.md': doc, ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The clean tree with `extra` files added or replaced, checked. */
function check(extra: Record<string, string>, doc?: string | null): LayerCheck {
  return checkLayers({ root: tree({ ...CLEAN, ...extra }, doc) });
}

const messages = (result: LayerCheck) => result.violations.map((v) => v.message);

describe('checkLayers', () => {
  test('a clean tree passes and counts its files and relative imports into src/', () => {
    const result = check({});
    assert.deepEqual(result.violations, []);
    assert.deepEqual(result.errors, []);
    assert.equal(result.files, 5);
    // hash→types, env→hash, server→types, node→hash, node→env, node→server; zod and node:fs are not counted.
    assert.equal(result.imports, 6);
  });

  test('a lower layer importing a higher one is reported with both files and both layers', () => {
    const result = check({
      'src/core/hash.ts': "import type { Hash } from './types.js';\nimport { x } from '../node/node.js';\n",
    });
    assert.deepEqual(messages(result), [
      'src/core/hash.ts imports src/node/node.ts: core (layer 0) may not import node (layer 2)',
    ]);
    assert.deepEqual(result.errors, []);
    const [v] = result.violations;
    assert.deepEqual(
      {
        file: v!.file,
        target: v!.target,
        from: v!.from,
        fromLayer: v!.fromLayer,
        to: v!.to,
        toLayer: v!.toLayer,
      },
      {
        file: 'src/core/hash.ts',
        target: 'src/node/node.ts',
        from: 'core',
        fromLayer: 0,
        to: 'node',
        toLayer: 2,
      },
    );
  });

  test('importing another folder of the same layer is a violation', () => {
    const result = check({ 'src/store/env.ts': "import { s } from '../rpc/server.js';\n" });
    assert.deepEqual(messages(result), [
      'src/store/env.ts imports src/rpc/server.ts: store (layer 1) may not import rpc (layer 1)',
    ]);
  });

  test('import type, export ... from, export * from and await import() are all caught', () => {
    const result = check({
      // Two imports of one file (a type and a value) give one line.
      'src/core/a.ts': "import type { Id } from '../rpc/server.js';\nimport { s } from '../rpc/server.js';\n",
      'src/core/b.ts': "export { n } from '../node/node.js';\n",
      'src/core/c.ts': "export * from '../store/env.js';\n",
      'src/core/d.ts': "export async function load() {\n  return await import('../node/node.js');\n}\n",
      'src/core/e.ts': "import { type Id } from '../rpc/server.js';\nexport type { Id };\n",
    });
    assert.deepEqual(messages(result), [
      'src/core/a.ts imports src/rpc/server.ts: core (layer 0) may not import rpc (layer 1)',
      'src/core/b.ts imports src/node/node.ts: core (layer 0) may not import node (layer 2)',
      'src/core/c.ts imports src/store/env.ts: core (layer 0) may not import store (layer 1)',
      'src/core/d.ts imports src/node/node.ts: core (layer 0) may not import node (layer 2)',
      'src/core/e.ts imports src/rpc/server.ts: core (layer 0) may not import rpc (layer 1)',
    ]);
  });

  test('JavaScript files under src/ are checked too, require() included', () => {
    const result = check({
      'src/core/legacy.cjs': "const env = require('../store/env.js');\nmodule.exports = env;\n",
    });
    assert.deepEqual(messages(result), [
      'src/core/legacy.cjs imports src/store/env.ts: core (layer 0) may not import store (layer 1)',
    ]);
  });

  test('files in subfolders belong to their top folder, and imports within a folder are fine', () => {
    const result = check({
      'src/core/hash/poseidon.ts':
        "import { h } from '../hash.js';\nimport { s } from '../../store/env.js';\n",
    });
    assert.deepEqual(messages(result), [
      'src/core/hash/poseidon.ts imports src/store/env.ts: core (layer 0) may not import store (layer 1)',
    ]);
  });

  test('package specifiers are ignored', () => {
    const result = check({
      'src/core/pkg.ts': [
        "import { createPublicClient } from 'viem';",
        "import { readFileSync } from 'node:fs';",
        "import node from '@scope/node';",
        '',
      ].join('\n'),
    });
    assert.deepEqual(result.violations, []);
    assert.deepEqual(result.errors, []);
    // Not even counted: the clean tree's 6 imports are all that was checked.
    assert.equal(result.imports, 6);
  });

  test('a relative import that leaves src/ (a build script, a test helper, a file at the root) is a violation', () => {
    const result = check({
      'src/node/artifacts.ts': [
        "import { ensureArtifacts } from '../../scripts/fetch-artifacts.mjs';",
        "import { helper } from '../../test/helpers/node.js';",
        "import pkg from '../../package.json' with { type: 'json' };",
        '',
      ].join('\n'),
    });
    const outside =
      'outside src/: what the node runs must live in src/ (a package, or a folder of the layer table)';
    assert.deepEqual(messages(result), [
      `src/node/artifacts.ts imports scripts/fetch-artifacts.mjs, ${outside}`,
      `src/node/artifacts.ts imports test/helpers/node.js, ${outside}`,
      `src/node/artifacts.ts imports package.json, ${outside}`,
    ]);
  });

  test('an import cycle inside a folder is a violation, named once by its files; one-way imports are fine', () => {
    const result = check({
      // core: types -> hash -> types (two files); store: a -> b -> c -> a (three), c -> env one way.
      'src/core/types.ts': "import { h } from './hash.js';\nexport type Hash = string;\n",
      'src/store/a.ts': "import { b } from './b.js';\nexport const a = 1;\n",
      'src/store/b.ts': "import { c } from './c.js';\nexport const b = 1;\n",
      'src/store/c.ts':
        "import type { a } from './a.js';\nimport { h } from './env.js';\nexport const c = 1;\n",
    });
    const hint =
      '(within a folder, imports go one way too: move what both need into one of them or a third file)';
    assert.deepEqual(messages(result), [
      `import cycle inside src/core/: src/core/hash.ts -> src/core/types.ts -> src/core/hash.ts ${hint}`,
      `import cycle inside src/store/: src/store/a.ts -> src/store/b.ts -> src/store/c.ts -> src/store/a.ts ${hint}`,
    ]);
    assert.deepEqual(result.violations[1]!.cycle, ['src/store/a.ts', 'src/store/b.ts', 'src/store/c.ts']);
  });

  test('a src folder missing from the table is reported, and so is a table folder that does not exist', () => {
    const result = check({ 'src/extra/thing.ts': 'export const x = 1;\n' });
    assert.deepEqual(result.errors, ['src/extra/ is not in the layer table of docs/architecture.md']);

    const missing = checkLayers({
      root: tree(Object.fromEntries(Object.entries(CLEAN).filter(([path]) => !path.startsWith('src/rpc/')))),
    });
    assert.deepEqual(missing.errors, [
      'src/rpc/ is in the layer table of docs/architecture.md but does not exist',
    ]);
  });

  test('an import into a src folder that is neither in the table nor on disk is an error', () => {
    const result = check({ 'src/node/boot.ts': "import { x } from '../gone/x.js';\n" });
    assert.deepEqual(result.errors, [
      'src/node/boot.ts imports src/gone/x.js, which is in no folder of the layer table of docs/architecture.md',
    ]);
  });

  test('a file directly in src/ is reported unless the table lists it', () => {
    const result = check({ 'src/index.ts': "export * from './node/node.js';\n" });
    assert.deepEqual(result.errors, [
      'src/index.ts is directly in src/, which is not allowed unless it is in the layer table of docs/architecture.md',
    ]);

    const listed = TABLE.replace(
      '| composition root |\n',
      '| composition root |\n| 3 | `src/index.ts` | entry |\n',
    );
    assert.deepEqual(check({ 'src/index.ts': "export * from './node/node.js';\n" }, listed).errors, []);
  });

  test('a missing doc, a missing Layers section or a section without table rows is a clear error', () => {
    assert.deepEqual(check({}, null).errors, ['docs/architecture.md not found']);

    const noSection = check({}, TABLE.replace('## Layers', '## Layering'));
    assert.deepEqual(noSection.errors, ['docs/architecture.md has no "## Layers" section']);
    assert.equal(noSection.files, 0);

    // The Layers heading inside a code fence does not count.
    const fenced = check({}, `\`\`\`md\n## Layers\n\`\`\`\n${TABLE.replace('## Layers', '## Layering')}`);
    assert.deepEqual(fenced.errors, ['docs/architecture.md has no "## Layers" section']);

    const noRows = check({}, '## Layers\n\nThe table moved.\n\n## Next\n');
    assert.deepEqual(noRows.errors, [
      'the "## Layers" section of docs/architecture.md has no table rows like "| 0 | `src/core/` | ... |"',
    ]);
  });

  test('a malformed row or a folder listed twice is a clear error', () => {
    const badCell = check({}, TABLE.replace('`src/rpc/`', 'src/rpc'));
    assert.deepEqual(badCell.errors, [
      'docs/architecture.md line 11: the second cell must be a folder written as `src/NAME/` (or a file directly in src/, `src/NAME.ts`), got "src/rpc"',
    ]);
    const twice = check({}, TABLE.replace('`src/rpc/`', '`src/store/`'));
    assert.deepEqual(twice.errors, ['docs/architecture.md line 11: src/store/ is listed twice']);
  });
});

describe('check-layers CLI', () => {
  const run = (root: string) => spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });

  test('exits 0 with a one-line summary on a clean tree', () => {
    const result = run(tree(CLEAN));
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'layers: 5 files, 6 imports checked, no violation\n');
  });

  test('exits 1 and prints each violation and error, then a summary', () => {
    const result = run(
      tree({
        ...CLEAN,
        'src/core/hash.ts': "import '../node/node.js';\n",
        'src/extra/x.ts': 'export {};\n',
      }),
    );
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    const lines = result.stderr.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 2), [
      'error: src/extra/ is not in the layer table of docs/architecture.md',
      'src/core/hash.ts imports src/node/node.ts: core (layer 0) may not import node (layer 2)',
    ]);
    assert.match(lines[2]!, /^layers: 1 violation, 1 error \(/);
  });

  test('exits 2 on an unknown option', () => {
    const result = spawnSync(process.execPath, [script, '--bogus'], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /usage: node scripts\/check-layers\.mjs \[--root DIR\]/);
  });
});
