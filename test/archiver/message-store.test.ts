// The archiver's index of L1-to-L2 messages (MessageStore, as `ChainStore.messages`): lookups by
// leaf, idempotent re-adds, forgetting the messages of reorged L1 blocks (a property test against
// a plain map model), persistence across a reopen, and the checkpoint of a message index.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ChainStore } from '../../src/archiver/chain-store.js';
import {
  checkpointOfMessageIndex,
  type KnownMessage,
  MessageStore,
} from '../../src/archiver/message-store.js';
import { FR_MODULUS } from '../../src/core/field.js';
import type { MessageSentEvent } from '../../src/l1/rollup-client.js';
import { openEnvironment } from '../../src/store/environment.js';
import { openTestChainStore, openTestWorldState, type TestWorldState } from '../helpers/test-chain.js';

/** A MessageSent event as the inbox emits it (the checkpoint follows from the index). */
const event = (leaf: bigint, index: bigint, l1BlockNumber: bigint): MessageSentEvent => ({
  checkpointNumber: checkpointOfMessageIndex(index),
  index,
  leaf,
  l1BlockNumber,
});

let world: TestWorldState;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  world = await openTestWorldState('cairn-message-store-ws-');
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  await world.close();
});

/** The messages of a new chain store. */
function newStore(): MessageStore {
  const chain = openTestChainStore(world.genesis, { prefix: 'cairn-message-store-' });
  cleanups.push(chain.close);
  return chain.store.messages;
}

describe('MessageStore: add and get', () => {
  test('a message is found by its leaf with its index and L1 block; unknown leaves are not', () => {
    const messages = newStore();
    assert.equal(messages.get(0x1234n), undefined);
    messages.add([event(0xaan, 1024n, 100n), event(0xbbn, 1025n, 100n), event(0xccn, 2048n, 101n)]);
    assert.deepEqual(messages.get(0xaan), { index: 1024n, l1BlockNumber: 100n } satisfies KnownMessage);
    assert.deepEqual(messages.get(0xbbn), { index: 1025n, l1BlockNumber: 100n });
    assert.deepEqual(messages.get(0xccn), { index: 2048n, l1BlockNumber: 101n });
    assert.equal(messages.get(0xddn), undefined);
    assert.equal(messages.get(0n), undefined);
    // No events: nothing changes.
    messages.add([]);
    assert.deepEqual(messages.get(0xaan), { index: 1024n, l1BlockNumber: 100n });
  });

  test('full-width leaves, indexes and L1 block numbers round-trip', () => {
    const messages = newStore();
    const leaf = FR_MODULUS - 1n;
    const index = 2n ** 64n - 1n;
    const l1 = 2n ** 63n + 5n;
    messages.add([event(leaf, index, l1), event(1n, 0n, 0n)]);
    assert.deepEqual(messages.get(leaf), { index, l1BlockNumber: l1 });
    assert.deepEqual(messages.get(1n), { index: 0n, l1BlockNumber: 0n });
  });

  test('adding the same events again (L1 blocks read twice) changes nothing', () => {
    const messages = newStore();
    const events = [event(0x10n, 1024n, 7n), event(0x11n, 1025n, 8n)];
    messages.add(events);
    messages.add(events);
    messages.add([events[1]!, events[0]!, events[1]!]);
    assert.deepEqual(messages.get(0x10n), { index: 1024n, l1BlockNumber: 7n });
    assert.deepEqual(messages.get(0x11n), { index: 1025n, l1BlockNumber: 8n });
    // Each message is counted once when its block goes.
    assert.equal(messages.removeAfterL1Block(6n), 2);
    assert.equal(messages.get(0x10n), undefined);
    assert.equal(messages.get(0x11n), undefined);
  });
});

describe('MessageStore: removeAfterL1Block', () => {
  test('forgets the messages of later L1 blocks only, and returns how many', () => {
    const messages = newStore();
    messages.add([
      event(0x1n, 1024n, 10n),
      event(0x2n, 1025n, 11n),
      event(0x3n, 1026n, 11n),
      event(0x4n, 1027n, 12n),
      event(0x5n, 2048n, 20n),
    ]);
    assert.equal(messages.removeAfterL1Block(20n), 0);
    assert.equal(messages.removeAfterL1Block(100n), 0);
    assert.equal(messages.removeAfterL1Block(11n), 2);
    assert.deepEqual(messages.get(0x1n), { index: 1024n, l1BlockNumber: 10n });
    assert.deepEqual(messages.get(0x2n), { index: 1025n, l1BlockNumber: 11n });
    assert.deepEqual(messages.get(0x3n), { index: 1026n, l1BlockNumber: 11n });
    assert.equal(messages.get(0x4n), undefined);
    assert.equal(messages.get(0x5n), undefined);
    // Again: nothing left after block 11.
    assert.equal(messages.removeAfterL1Block(11n), 0);
    // A message re-sent in another L1 block after the reorg is found there.
    messages.add([event(0x4n, 1027n, 13n)]);
    assert.deepEqual(messages.get(0x4n), { index: 1027n, l1BlockNumber: 13n });
    assert.equal(messages.removeAfterL1Block(9n), 4);
    for (const leaf of [0x1n, 0x2n, 0x3n, 0x4n]) assert.equal(messages.get(leaf), undefined);
  });

  test('property: matches a map model over random adds and cuts', () => {
    // One store for every run (opening one takes long): run r keeps to its own band of L1 blocks
    // (above every earlier run's) and its own leaves, so earlier runs' messages are out of reach.
    const messages = newStore();
    let run = 0;
    // A pool of distinct messages, each in a fixed L1 block (the band's blocks 0..15, index
    // increasing with the block as the inbox assigns them).
    const pool = fc
      .uniqueArray(fc.bigInt({ min: 0n, max: 2n ** 120n }), { minLength: 1, maxLength: 24 })
      .chain((leaves) =>
        fc
          .array(fc.bigInt({ min: 0n, max: 15n }), { minLength: leaves.length, maxLength: leaves.length })
          .map((blocks) => ({ leaves, blocks: [...blocks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) })),
      );
    type Op = { kind: 'add'; picks: number[] } | { kind: 'cut'; after: bigint };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), picks: fc.array(fc.nat(), { maxLength: 12 }) }),
      fc.record({ kind: fc.constant('cut' as const), after: fc.bigInt({ min: -1n, max: 17n }) }),
    );
    fc.assert(
      fc.property(pool, fc.array(op, { minLength: 1, maxLength: 12 }), ({ leaves, blocks }, ops) => {
        run++;
        const band = BigInt(run) * 100n;
        const events = leaves.map((leaf, i) =>
          event((BigInt(run) << 128n) + leaf, 1024n + BigInt(i), band + blocks[i]!),
        );
        const model = new Map<bigint, KnownMessage>();
        for (const e of events) assert.equal(messages.get(e.leaf), undefined);
        for (const o of ops) {
          if (o.kind === 'add') {
            const batch = o.picks.map((p) => events[p % events.length]!);
            messages.add(batch);
            for (const e of batch) model.set(e.leaf, { index: e.index, l1BlockNumber: e.l1BlockNumber });
          } else {
            const cut = band + o.after;
            const doomed = [...model].filter(([, m]) => m.l1BlockNumber > cut).map(([leaf]) => leaf);
            for (const leaf of doomed) model.delete(leaf);
            assert.equal(messages.removeAfterL1Block(cut), doomed.length);
          }
          for (const e of events) assert.deepEqual(messages.get(e.leaf), model.get(e.leaf));
        }
      }),
      { numRuns: 100 },
    );
  });

  test('a cut after L1 block -1 forgets everything', () => {
    const messages = newStore();
    messages.add([event(0x1n, 1024n, 0n), event(0x2n, 1025n, 3n)]);
    assert.equal(messages.removeAfterL1Block(-1n), 2);
    assert.equal(messages.get(0x1n), undefined);
    assert.equal(messages.get(0x2n), undefined);
  });
});

describe('MessageStore: persistence', () => {
  test('messages and removals survive closing and reopening the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-message-store-reopen-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const env1 = openEnvironment(dir, 'archiver');
    const store1 = new ChainStore(env1);
    store1.initialize(world.genesis);
    store1.messages.add([event(0x21n, 1024n, 5n), event(0x22n, 1025n, 6n), event(0x23n, 2048n, 7n)]);
    assert.equal(store1.messages.removeAfterL1Block(6n), 1);
    await env1.close();

    const env2 = openEnvironment(dir, 'archiver');
    const store2 = new ChainStore(env2);
    store2.initialize(world.genesis);
    assert.deepEqual(store2.messages.get(0x21n), { index: 1024n, l1BlockNumber: 5n });
    assert.deepEqual(store2.messages.get(0x22n), { index: 1025n, l1BlockNumber: 6n });
    assert.equal(store2.messages.get(0x23n), undefined);
    // The by-L1-block index came back too: a later cut still finds the messages.
    assert.equal(store2.messages.removeAfterL1Block(5n), 1);
    assert.equal(store2.messages.get(0x22n), undefined);
    await env2.close();

    const env3 = openEnvironment(dir, 'archiver');
    const messages3 = new MessageStore(env3);
    assert.deepEqual(messages3.get(0x21n), { index: 1024n, l1BlockNumber: 5n });
    assert.equal(messages3.get(0x22n), undefined);
    await env3.close();
  });
});

describe('checkpointOfMessageIndex', () => {
  test('inbox group n holds indexes (n - 1)·1024 … n·1024 - 1', () => {
    assert.equal(checkpointOfMessageIndex(0n), 1);
    assert.equal(checkpointOfMessageIndex(1n), 1);
    assert.equal(checkpointOfMessageIndex(1023n), 1);
    assert.equal(checkpointOfMessageIndex(1024n), 2);
    assert.equal(checkpointOfMessageIndex(2047n), 2);
    assert.equal(checkpointOfMessageIndex(2048n), 3);
    assert.equal(checkpointOfMessageIndex(1024n * 1000n + 5n), 1001);
  });

  test('property: the checkpoint n satisfies (n - 1)·1024 <= index < n·1024', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 40n }), (index) => {
        const n = BigInt(checkpointOfMessageIndex(index));
        return (n - 1n) * 1024n <= index && index < n * 1024n;
      }),
    );
  });
});
