// Runs docs/contracts.md as a new user would, and checks every output it shows. The document's
// fenced blocks drive it:
//   ```console — set-up from a fresh clone (git clone, npm install): already done here, not run;
//   ```sh starting with `npm start` — the node: started the same way (same flags, plus free ports);
//   ```sh — commands, run in order by bash in the repository, each block seeing the exports of
//            the blocks before it and CAIRN_RPC_URL pointing at the node;
//   ```text right after a ```sh block — what that block prints (stdout and stderr; npm's own
//            warnings aside), line by line, where `…` stands for any text.
// Needs the npm artifacts (CAIRN_SKIP_ARTIFACTS=1 skips it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';

interface Block {
  lang: string;
  body: string;
  line: number;
}

function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    out.push({ lang: open[1]!, body: body.join('\n'), line: start + 1 });
  }
  return out;
}

/** A line of expected output as a pattern: `…` matches anything, the rest literally. */
const linePattern = (line: string) =>
  new RegExp(
    `^${line
      .split('…')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

const DOC = join(REPO_ROOT, 'docs', 'contracts.md');

describe('docs/contracts.md, run as written', {
  skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
}, () => {
  const doc = blocks(readFileSync(DOC, 'utf8'));
  let node: CairnProcess;

  before(async () => {
    const start = doc.find((b) => b.lang === 'sh' && b.body.startsWith('npm start'));
    assert.ok(start, 'the tutorial starts a node with npm start');
    const flags = start.body
      .replace(/^npm start\s*(--\s*)?/, '')
      .split(/\s+/)
      .filter(Boolean);
    node = await startCairn(flags.filter((f) => f !== '--ephemeral'));
  });
  after(async () => {
    await node?.stop();
  });

  test('every command block prints what the document shows', { timeout: 600_000 }, () => {
    const exports: string[] = [];
    let checked = 0;
    for (let i = 0; i < doc.length; i++) {
      const block = doc[i]!;
      if (block.lang !== 'sh' || block.body.startsWith('npm start')) continue;
      const script = ['exec 2>&1', 'set -u', ...exports, block.body].join('\n');
      const run = spawnSync('bash', ['-c', script], {
        cwd: REPO_ROOT,
        env: { ...process.env, CAIRN_RPC_URL: node.publicUrl },
        encoding: 'utf8',
        timeout: 300_000,
      });
      exports.push(...block.body.split('\n').filter((l) => l.startsWith('export ')));
      const expected = doc[i + 1]?.lang === 'text' ? doc[i + 1]! : undefined;
      if (expected === undefined) {
        assert.equal(run.status, 0, `block at line ${block.line} failed:\n${run.stdout}${run.stderr}`);
        continue;
      }
      const printed = run.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('npm warn'));
      const want = expected.body.split('\n');
      assert.equal(
        printed.length,
        want.length,
        `block at line ${block.line}: ${printed.length} lines printed, the document shows ${want.length}:\n${printed.join('\n')}`,
      );
      want.forEach((w, k) => {
        assert.match(printed[k]!, linePattern(w), `block at line ${block.line}, output line ${k + 1}`);
      });
      checked++;
    }
    assert.ok(checked >= 10, `${checked} outputs checked`);
  });
});
