// The start banner in both log formats: rows for a terminal (the README shows them), one readable
// line in JSON logs (whose readers get the facts as fields), and the style chosen as the logger
// chooses its format. After a restart on the embedded L1 it says that chain time was resumed and
// how long the node was stopped.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type BannerFacts, bannerStyleFor, setBannerStyle, startBanner } from '../../src/cli/banner.js';
import { devAccounts } from '../../src/execution/dev-accounts.js';
import { createLogger, formatDuration, type LogFormat } from '../../src/node/logger.js';

const facts: BannerFacts = {
  version: '0.1.0',
  public: { url: 'http://127.0.0.1:8080', bound: '0.0.0.0:8080' },
  admin: { url: 'http://127.0.0.1:8880', bound: '127.0.0.1:8880' },
  l1: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337, embedded: true, rollup: '0xDc64' },
  rollupVersion: 1,
  dataDir: { path: '/home/me/.cairn', ephemeral: false },
  slotDuration: 8,
  epochDuration: 4,
  clock: 'realtime',
  accounts: devAccounts(10),
  testAccounts: true,
};

test('the block: the README shows the same rows, in the same order', () => {
  const { text } = startBanner(facts, 'block');
  const labels = (t: string) =>
    [...t.matchAll(/^ {2}(\S[^:]*?)(?: {2}|:$)/gm)].map((m) => m[1]).filter((l) => !l?.startsWith('('));
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const shown = /```text\n[^\n]* is ready\n([\s\S]*?)```/.exec(readme);
  assert.ok(shown, 'the README shows the start banner');
  assert.ok(labels(text).length >= 6);
  assert.deepEqual(labels(shown[1]!), labels(text));
});

test('the line: one sentence with where to reach the node, the rest in the fields', () => {
  const { text, fields } = startBanner(
    { ...facts, l1: { ...facts.l1, resumed: { l1Block: 34n, downSeconds: 95 } } },
    'line',
  );
  assert.equal(
    text,
    'cairn 0.1.0 is ready: public JSON-RPC http://127.0.0.1:8080, admin JSON-RPC http://127.0.0.1:8880, ' +
      'L1 http://127.0.0.1:8545 (embedded anvil, chain id 31337), data /home/me/.cairn, realtime clock, ' +
      'L1 time resumed after its block 34 (stopped for 1 min 35 s), ' +
      '10 dev accounts with 1,000,000 FJ each (addresses in facts.devAccounts)',
  );
  assert.equal((fields.devAccounts as string[]).length, 10);
  assert.equal(fields.public, 'http://127.0.0.1:8080');
});

test('the style set for the process is the banner default', (t) => {
  t.after(() => setBannerStyle('block'));
  assert.match(startBanner(facts).text, /\n/);
  setBannerStyle('line');
  assert.doesNotMatch(startBanner(facts).text, /\n/);
});

test('the style follows the format the logger writes: rows for pretty lines, one line for JSON', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-banner-style-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const format of ['pretty', 'json', 'auto'] as LogFormat[]) {
    for (const isTTY of [true, false]) {
      // The pretty writer writes to the stream, the JSON one to its file descriptor.
      const file = join(dir, `${format}-${isTTY}.log`);
      const fd = openSync(file, 'w');
      let written = '';
      const out = {
        isTTY,
        fd,
        on: () => out,
        write: (text: string) => {
          written += text;
          return true;
        },
      } as unknown as NodeJS.WriteStream;
      createLogger('info', format, out).info('hello');
      closeSync(fd);
      const json = readFileSync(file, 'utf8').startsWith('{');
      assert.equal(json, written === '', `${format}, tty ${isTTY}: one output`);
      assert.equal(bannerStyleFor(format, { isTTY }), json ? 'line' : 'block', `${format}, tty ${isTTY}`);
    }
  }
});

test('a first start says nothing of resuming', () => {
  const { text, fields } = startBanner(facts, 'block');
  assert.doesNotMatch(text, /resumed/);
  assert.equal(fields.downSeconds, undefined);
});

test('a restart says where L1 time resumed and for how long the node was stopped', () => {
  const { text, fields } = startBanner(
    { ...facts, l1: { ...facts.l1, resumed: { l1Block: 34n, downSeconds: 95 } } },
    'block',
  );
  assert.match(
    text,
    /\n {2}resumed +L1 time resumed after its block 34: the node was stopped for 1 min 35 s, and chain time waited\n?/,
  );
  assert.equal(fields.downSeconds, 95);
  assert.equal(fields.resumedAfterL1Block, 34);
});

test('durations in words', () => {
  assert.equal(formatDuration(0), '0 s');
  assert.equal(formatDuration(59.6), '1 min 0 s');
  assert.equal(formatDuration(95), '1 min 35 s');
  assert.equal(formatDuration(7300), '2 h 1 min');
  assert.equal(formatDuration(90_000), '1 d 1 h');
});
