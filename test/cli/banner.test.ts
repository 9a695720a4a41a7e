// The start banner: after a restart on the embedded L1 it says that chain time was resumed and how
// long the node was stopped, as text and as fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type BannerFacts, startBanner } from '../../src/cli/banner.js';
import { formatDuration } from '../../src/node/logger.js';

const facts: BannerFacts = {
  version: '0.1.0',
  public: { url: 'http://127.0.0.1:8080', bound: '0.0.0.0:8080' },
  admin: { url: 'http://127.0.0.1:8880', bound: '127.0.0.1:8880' },
  l1: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337, embedded: true, rollup: '0xDc64' },
  rollupVersion: 1,
  dataDir: { path: '/tmp/d', ephemeral: false },
  slotDuration: 8,
  epochDuration: 4,
  clock: 'realtime',
  accounts: [],
};

test('a first start says nothing of resuming', () => {
  const { text, fields } = startBanner(facts);
  assert.doesNotMatch(text, /resumed/);
  assert.equal(fields.downSeconds, undefined);
});

test('a restart says where L1 time resumed and for how long the node was stopped', () => {
  const { text, fields } = startBanner({
    ...facts,
    l1: { ...facts.l1, resumed: { l1Block: 34n, downSeconds: 95 } },
  });
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
