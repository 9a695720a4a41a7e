// LogQueries on a small hand-built chain (blocks built on a real world state, stored in a
// ChainStore whose log index the queries read):
//
//   block 1  tx A  private [TAG1 1, TAG2 2]   public [C1 TAG1 3, C2 TAG1 4]  class [C1 TAG3]
//            tx B  private [TAG1 5]           public [C1 TAG2 6]
//   block 2  tx C  private [MANY 0, TAG1 7, MANY 1, MANY 2]  public [C1 TAG1 8, C1 MANY 9]  class [C2 TAG1]
//   block 3  (no txs)
//   block 4  tx D  private 12 × [MANY 100+i];  tx E  private 10 × [MANY 200+i]
//   block 5  tx F, G, H  public 400 × [C3 BULK i] each
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import {
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  type L2Block,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  type PrivateLog,
  type TxEffect,
} from '../../src/core/block.js';
import { NodeError, refused } from '../../src/core/errors.js';
import type { Fr } from '../../src/core/field.js';
import type { BlockRef } from '../../src/queries/chain.js';
import {
  LOG_FILTER_PAGE,
  LOGS_PER_TAG_PAGE,
  type LogId,
  LogQueries,
  type LogResult,
} from '../../src/queries/logs.js';
import {
  classLog,
  emptyTxEffect,
  nextBlock,
  openTestChainStore,
  openTestWorldState,
  privateLog,
  publicLog,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';

const TAG1 = 0x7a1n;
const TAG2 = 0x7a2n;
const TAG3 = 0x7a3n;
const MANY = 0x7aan;
const BULK = 0x7bbn;
const UNKNOWN_TAG = 0x7ffn;
const C1 = 0xc1n;
const C2 = 0xc2n;
const C3 = 0xc3n;
const UNKNOWN_TX = 0xdeadn;
const BULK_PER_TX = 400;

const A = emptyTxEffect(0xa1n, {
  noteHashes: [0x1001n, 0x1002n],
  nullifiers: [0xabc0001n],
  privateLogs: [privateLog([TAG1, 1n]), privateLog([TAG2, 2n])],
  publicLogs: [publicLog(C1, [TAG1, 3n]), publicLog(C2, [TAG1, 4n])],
  contractClassLogs: [classLog(C1, [TAG3, 30n])],
});
const B = emptyTxEffect(0xa2n, {
  nullifiers: [0xabc0002n],
  privateLogs: [privateLog([TAG1, 5n])],
  publicLogs: [publicLog(C1, [TAG2, 6n])],
});
const C = emptyTxEffect(0xa3n, {
  noteHashes: [0x1003n],
  nullifiers: [0xabc0003n, 0xabc0004n],
  privateLogs: [
    privateLog([MANY, 0n]),
    privateLog([TAG1, 7n]),
    privateLog([MANY, 1n]),
    privateLog([MANY, 2n]),
  ],
  publicLogs: [publicLog(C1, [TAG1, 8n]), publicLog(C1, [MANY, 9n])],
  contractClassLogs: [classLog(C2, [TAG1, 31n])],
});
const D = emptyTxEffect(0xa4n, {
  privateLogs: Array.from({ length: 12 }, (_, i) => privateLog([MANY, BigInt(100 + i)])),
});
const E = emptyTxEffect(0xa5n, {
  privateLogs: Array.from({ length: 10 }, (_, i) => privateLog([MANY, BigInt(200 + i)])),
});
const bulk = (txHash: Fr) =>
  emptyTxEffect(txHash, {
    publicLogs: Array.from({ length: BULK_PER_TX }, (_, i) => publicLog(C3, [BULK, BigInt(i)])),
  });
const F = bulk(0xa6n);
const G = bulk(0xa7n);
const H = bulk(0xa8n);

let world: TestWorldState;
let archiver: TestChainStore;
let chain: ChainStore;
let q: LogQueries;
/** The chain, genesis first. */
const blocks: L2Block[] = [];
/** The note hash tree's size at genesis: block 1's first tx starts there. */
let genesisNoteHashes: number;

/** Resolves block numbers the chain has; anything else is refused. */
const resolve = (ref: BlockRef): number => {
  if (ref.kind === 'number' && ref.number <= chain.latestBlockNumber) return ref.number;
  throw refused(`block ${JSON.stringify(ref)} is not in the chain`);
};

/** Adds the next block (all in checkpoint 1) at 1000 + 12 s per block. */
async function addBlock(txEffects: TxEffect[]): Promise<void> {
  const { ws } = world;
  const block = await nextBlock(ws, txEffects, { timestamp: 1000n + BigInt(ws.latestBlockNumber + 1) * 12n });
  chain.addProposedBlock(block);
  blocks.push(block);
}

before(async () => {
  world = await openTestWorldState('cairn-log-queries-ws-');
  const { genesis } = world;
  archiver = openTestChainStore(genesis, { prefix: 'cairn-log-queries-' });
  chain = archiver.store;
  blocks.push(genesis);
  genesisNoteHashes = genesis.header.state.partial.noteHashTree.nextAvailableLeafIndex;
  await addBlock([A, B]);
  await addBlock([C]);
  await addBlock([]);
  await addBlock([D, E]);
  await addBlock([F, G, H]);
  q = new LogQueries(chain, resolve);
});

after(async () => {
  await archiver.close();
  await world.close();
});

// ---- expected values ---------------------------------------------------------------------------

/** Where each tx is: its block and index. */
const at = new Map<Fr, { block: number; txIndex: number }>([
  [A.txHash, { block: 1, txIndex: 0 }],
  [B.txHash, { block: 1, txIndex: 1 }],
  [C.txHash, { block: 2, txIndex: 0 }],
  [D.txHash, { block: 4, txIndex: 0 }],
  [E.txHash, { block: 4, txIndex: 1 }],
  [F.txHash, { block: 5, txIndex: 0 }],
  [G.txHash, { block: 5, txIndex: 1 }],
  [H.txHash, { block: 5, txIndex: 2 }],
]);

/** The LogResult of a tx's log; `logIndex` counts the tx's private logs first, then its public logs. */
function result(tx: TxEffect, kind: 'private' | 'public', indexInKind: number): LogResult {
  const { block, txIndex } = at.get(tx.txHash)!;
  const b = blocks[block]!;
  const logData =
    kind === 'private'
      ? tx.privateLogs[indexInKind]!.fields.slice(0, tx.privateLogs[indexInKind]!.emittedLength)
      : tx.publicLogs[indexInKind]!.fields;
  return {
    logData,
    blockNumber: block,
    blockHash: b.hash,
    blockTimestamp: 1000n + BigInt(block) * 12n,
    txHash: tx.txHash,
    txIndexWithinBlock: txIndex,
    logIndexWithinTx: kind === 'private' ? indexInKind : tx.privateLogs.length + indexInKind,
  };
}

/** The LogId of a tx's public or class log (its index among the tx's logs of that kind). */
function id(tx: TxEffect, logIndex: number): LogId {
  const { block, txIndex } = at.get(tx.txHash)!;
  return { blockNumber: block, blockHash: blocks[block]!.hash, txHash: tx.txHash, txIndex, logIndex };
}
const pub = (tx: TxEffect, i: number) => ({ id: id(tx, i), log: tx.publicLogs[i]! });
const cls = (tx: TxEffect, i: number) => ({ id: id(tx, i), log: tx.contractClassLogs[i]! });

const cursorOf = (r: LogResult) => ({
  blockNumber: r.blockNumber,
  txIndex: r.txIndexWithinBlock,
  logIndex: r.logIndexWithinTx,
});

const invalidParams = (e: unknown) => {
  assert.ok(e instanceof NodeError, `expected a NodeError, got ${e}`);
  assert.equal(e.kind, 'invalid-params');
  return true;
};

// ---- tests -------------------------------------------------------------------------------------

describe('LogQueries: tag queries', () => {
  test('one array per tag, in input order, an empty array for an unknown tag; chain order within a tag', () => {
    const logs = q.privateLogsByTags({ tags: [{ tag: TAG2 }, { tag: UNKNOWN_TAG }, { tag: TAG1 }] });
    assert.deepEqual(logs, [
      [result(A, 'private', 1)],
      [],
      [result(A, 'private', 0), result(B, 'private', 0), result(C, 'private', 1)],
    ]);
    // The same tag twice answers twice.
    assert.deepEqual(q.privateLogsByTags({ tags: [{ tag: TAG2 }, { tag: TAG2 }] }), [
      [result(A, 'private', 1)],
      [result(A, 'private', 1)],
    ]);
  });

  test('private tag queries return private logs only, even when public logs share the tag', () => {
    const [logs] = q.privateLogsByTags({ tags: [{ tag: TAG1 }] });
    assert.equal(logs!.length, 3);
    assert.ok(logs!.every((r) => r.logData[1] === 1n || r.logData[1] === 5n || r.logData[1] === 7n));
  });

  test(`a page holds ${LOGS_PER_TAG_PAGE} logs per tag; afterLog resumes with the rest, no gaps or duplicates`, () => {
    const all = [
      result(C, 'private', 0),
      result(C, 'private', 2),
      result(C, 'private', 3),
      ...D.privateLogs.map((_, i) => result(D, 'private', i)),
      ...E.privateLogs.map((_, i) => result(E, 'private', i)),
    ];
    assert.equal(all.length, 25);
    const [first] = q.privateLogsByTags({ tags: [{ tag: MANY }] });
    assert.equal(first!.length, LOGS_PER_TAG_PAGE);
    assert.deepEqual(first, all.slice(0, LOGS_PER_TAG_PAGE));
    const afterLog = cursorOf(first![first!.length - 1]!);
    assert.deepEqual(afterLog, { blockNumber: 4, txIndex: 1, logIndex: 4 });
    // The cursor of one tag leaves the other tags alone.
    const [second, tag1] = q.privateLogsByTags({ tags: [{ tag: MANY, afterLog }, { tag: TAG1 }] });
    assert.deepEqual(second, all.slice(LOGS_PER_TAG_PAGE));
    assert.equal(tag1!.length, 3);
    const [third] = q.privateLogsByTags({ tags: [{ tag: MANY, afterLog: cursorOf(second![4]!) }] });
    assert.deepEqual(third, []);
    const seen = [...first!, ...second!].map(
      (r) => `${r.blockNumber}-${r.txIndexWithinBlock}-${r.logIndexWithinTx}`,
    );
    assert.equal(new Set(seen).size, 25);
  });

  test("a query's afterLog applies to every tag; with a tag's own, the later of the two counts", () => {
    const afterA = { blockNumber: 1, txIndex: 0, logIndex: 0 };
    const [tag1, many] = q.privateLogsByTags({ tags: [{ tag: TAG1 }, { tag: MANY }], afterLog: afterA });
    assert.deepEqual(tag1, [result(B, 'private', 0), result(C, 'private', 1)]);
    assert.deepEqual(many, q.privateLogsByTags({ tags: [{ tag: MANY, afterLog: afterA }] })[0]);
    const afterB = { blockNumber: 2, txIndex: 0, logIndex: 0 };
    const [tagLater, queryLater] = q.privateLogsByTags({
      tags: [
        { tag: TAG1, afterLog: afterB },
        { tag: TAG1, afterLog: { blockNumber: 0, txIndex: 0, logIndex: 0 } },
      ],
      afterLog: afterA,
    });
    assert.deepEqual(tagLater, [result(C, 'private', 1)]);
    assert.deepEqual(queryLater, [result(B, 'private', 0), result(C, 'private', 1)]);
  });

  test('afterLog is strictly after: a cursor at a log excludes it, one between logs excludes nothing after', () => {
    const [fromA] = q.privateLogsByTags({
      tags: [{ tag: TAG1, afterLog: { blockNumber: 1, txIndex: 0, logIndex: 0 } }],
    });
    assert.deepEqual(fromA, [result(B, 'private', 0), result(C, 'private', 1)]);
    const [fromGap] = q.privateLogsByTags({
      tags: [{ tag: TAG1, afterLog: { blockNumber: 1, txIndex: 0, logIndex: 9 } }],
    });
    assert.deepEqual(fromGap, [result(B, 'private', 0), result(C, 'private', 1)]);
    const [none] = q.privateLogsByTags({
      tags: [{ tag: TAG1, afterLog: { blockNumber: 2, txIndex: 0, logIndex: 1 } }],
    });
    assert.deepEqual(none, []);
  });

  test('fromBlock is inclusive and toBlock exclusive', () => {
    const tag1 = (bounds: { fromBlock?: number; toBlock?: number }) =>
      q.privateLogsByTags({ tags: [{ tag: TAG1 }], ...bounds })[0];
    assert.deepEqual(tag1({ fromBlock: 2 }), [result(C, 'private', 1)]);
    assert.deepEqual(tag1({ fromBlock: 1, toBlock: 2 }), [result(A, 'private', 0), result(B, 'private', 0)]);
    assert.deepEqual(tag1({ toBlock: 3 }), [
      result(A, 'private', 0),
      result(B, 'private', 0),
      result(C, 'private', 1),
    ]);
    assert.deepEqual(tag1({ toBlock: 1 }), []);
    assert.deepEqual(tag1({ fromBlock: 2, toBlock: 2 }), []);
    assert.deepEqual(tag1({ fromBlock: 3, toBlock: 2 }), []);
    assert.deepEqual(tag1({ fromBlock: 0 }), tag1({}));
    assert.deepEqual(tag1({ fromBlock: 6 }), []);
  });

  test("txHash keeps one tx's logs; an unknown tx gives an empty array per tag", () => {
    assert.deepEqual(q.privateLogsByTags({ tags: [{ tag: TAG1 }], txHash: B.txHash }), [
      [result(B, 'private', 0)],
    ]);
    assert.deepEqual(q.privateLogsByTags({ tags: [{ tag: MANY }, { tag: TAG1 }], txHash: C.txHash }), [
      [result(C, 'private', 0), result(C, 'private', 2), result(C, 'private', 3)],
      [result(C, 'private', 1)],
    ]);
    assert.deepEqual(q.privateLogsByTags({ tags: [{ tag: TAG1 }, { tag: MANY }], txHash: UNKNOWN_TX }), [
      [],
      [],
    ]);
    assert.deepEqual(q.publicLogsByTags({ tags: [{ tag: TAG1 }], contractAddress: C1, txHash: C.txHash }), [
      [result(C, 'public', 0)],
    ]);
  });

  test('txHash with fromBlock or toBlock is invalid params', () => {
    assert.throws(
      () => q.privateLogsByTags({ tags: [{ tag: TAG1 }], txHash: A.txHash, fromBlock: 1 }),
      invalidParams,
    );
    assert.throws(
      () => q.privateLogsByTags({ tags: [{ tag: TAG1 }], txHash: A.txHash, toBlock: 2 }),
      invalidParams,
    );
    assert.throws(
      () =>
        q.publicLogsByTags({ tags: [{ tag: TAG1 }], contractAddress: C1, txHash: A.txHash, fromBlock: 1 }),
      invalidParams,
    );
  });

  test('referenceBlock bounds the results to blocks up to it; a block the chain lacks is refused', () => {
    const tag1 = (referenceBlock: BlockRef, more: { toBlock?: number; txHash?: Fr } = {}) =>
      q.privateLogsByTags({ tags: [{ tag: TAG1 }], referenceBlock, ...more })[0];
    const ref = (number: number): BlockRef => ({ kind: 'number', number });
    assert.deepEqual(tag1(ref(1)), [result(A, 'private', 0), result(B, 'private', 0)]);
    assert.deepEqual(tag1(ref(2)), [
      result(A, 'private', 0),
      result(B, 'private', 0),
      result(C, 'private', 1),
    ]);
    assert.deepEqual(tag1(ref(0)), []);
    // The lower of referenceBlock + 1 and toBlock bounds the range.
    assert.deepEqual(tag1(ref(2), { toBlock: 2 }), [result(A, 'private', 0), result(B, 'private', 0)]);
    assert.deepEqual(tag1(ref(1), { toBlock: 5 }), [result(A, 'private', 0), result(B, 'private', 0)]);
    // A tx after the reference block is out of range.
    assert.deepEqual(tag1(ref(1), { txHash: C.txHash }), []);
    assert.throws(
      () => tag1(ref(99)),
      (e: unknown) => e instanceof NodeError && e.kind === 'refused',
    );
  });

  test("includeEffects adds the tx's note hashes and nullifiers; without it they are absent", () => {
    const [plain] = q.privateLogsByTags({ tags: [{ tag: TAG1 }] });
    for (const r of plain!) {
      assert.ok(!('noteHashes' in r), 'no noteHashes without includeEffects');
      assert.ok(!('nullifiers' in r), 'no nullifiers without includeEffects');
    }
    const [off] = q.privateLogsByTags({ tags: [{ tag: TAG1 }], includeEffects: false });
    assert.deepEqual(off, plain);
    const [withEffects] = q.privateLogsByTags({ tags: [{ tag: TAG1 }], includeEffects: true });
    assert.deepEqual(withEffects, [
      { ...result(A, 'private', 0), noteHashes: A.noteHashes, nullifiers: A.nullifiers },
      { ...result(B, 'private', 0), noteHashes: [], nullifiers: B.nullifiers },
      { ...result(C, 'private', 1), noteHashes: C.noteHashes, nullifiers: C.nullifiers },
    ]);
    const [publicWithEffects] = q.publicLogsByTags({
      tags: [{ tag: TAG2 }],
      contractAddress: C1,
      includeEffects: true,
    });
    assert.deepEqual(publicWithEffects, [
      { ...result(B, 'public', 0), noteHashes: [], nullifiers: B.nullifiers },
    ]);
  });

  test("public tag queries return the given contract's public logs only; logIndexWithinTx counts private logs first", () => {
    assert.deepEqual(
      q.publicLogsByTags({ tags: [{ tag: TAG1 }, { tag: TAG2 }, { tag: TAG3 }], contractAddress: C1 }),
      [[result(A, 'public', 0), result(C, 'public', 0)], [result(B, 'public', 0)], []],
    );
    assert.equal(result(A, 'public', 0).logIndexWithinTx, 2);
    assert.equal(result(C, 'public', 0).logIndexWithinTx, 4);
    assert.deepEqual(q.publicLogsByTags({ tags: [{ tag: TAG1 }], contractAddress: C2 }), [
      [result(A, 'public', 1)],
    ]);
    assert.deepEqual(q.publicLogsByTags({ tags: [{ tag: TAG1 }], contractAddress: 0xcfn }), [[]]);
    // fromBlock / toBlock / afterLog apply to public queries too.
    assert.deepEqual(q.publicLogsByTags({ tags: [{ tag: TAG1 }], contractAddress: C1, fromBlock: 2 }), [
      [result(C, 'public', 0)],
    ]);
    assert.deepEqual(
      q.publicLogsByTags({
        tags: [{ tag: TAG1, afterLog: { blockNumber: 1, txIndex: 0, logIndex: 2 } }],
        contractAddress: C1,
      }),
      [[result(C, 'public', 0)]],
    );
  });

  test('public tag queries page too', () => {
    const [first] = q.publicLogsByTags({ tags: [{ tag: BULK }], contractAddress: C3 });
    assert.deepEqual(
      first,
      Array.from({ length: LOGS_PER_TAG_PAGE }, (_, i) => result(F, 'public', i)),
    );
    const [second] = q.publicLogsByTags({
      tags: [{ tag: BULK, afterLog: cursorOf(first![LOGS_PER_TAG_PAGE - 1]!) }],
      contractAddress: C3,
    });
    assert.deepEqual(
      second,
      Array.from({ length: LOGS_PER_TAG_PAGE }, (_, i) => result(F, 'public', LOGS_PER_TAG_PAGE + i)),
    );
  });
});

describe('LogQueries: logsByTags (TxScopedL2Log)', () => {
  test('both kinds in chain order, with dataStartIndexForTx, logIndexInTx within its kind, isFromPublic', () => {
    const block1 = { blockNumber: 1, blockHash: blocks[1]!.hash, blockTimestamp: 1012n };
    const block2 = { blockNumber: 2, blockHash: blocks[2]!.hash, blockTimestamp: 1024n };
    const start = genesisNoteHashes;
    assert.deepEqual(q.logsByTags([TAG1, UNKNOWN_TAG], 10), [
      [
        {
          txHash: A.txHash,
          dataStartIndexForTx: start,
          logIndexInTx: 0,
          ...block1,
          isFromPublic: false,
          log: A.privateLogs[0],
        },
        {
          txHash: A.txHash,
          dataStartIndexForTx: start,
          logIndexInTx: 0,
          ...block1,
          isFromPublic: true,
          log: A.publicLogs[0],
        },
        {
          txHash: A.txHash,
          dataStartIndexForTx: start,
          logIndexInTx: 1,
          ...block1,
          isFromPublic: true,
          log: A.publicLogs[1],
        },
        {
          txHash: B.txHash,
          dataStartIndexForTx: start + 64,
          logIndexInTx: 0,
          ...block1,
          isFromPublic: false,
          log: B.privateLogs[0],
        },
        // Block 2 starts after block 1's two txs of 64 note hash slots each.
        {
          txHash: C.txHash,
          dataStartIndexForTx: start + 128,
          logIndexInTx: 1,
          ...block2,
          isFromPublic: false,
          log: C.privateLogs[1],
        },
        {
          txHash: C.txHash,
          dataStartIndexForTx: start + 128,
          logIndexInTx: 0,
          ...block2,
          isFromPublic: true,
          log: C.publicLogs[0],
        },
      ],
      [],
    ]);
  });

  test('a private log comes back padded to 16 fields with its emittedLength', () => {
    const found = q.logsByTags([TAG2], 1)[0]![0]!;
    assert.equal(found.isFromPublic, false);
    const log = found.log as PrivateLog;
    assert.equal(log.fields.length, PRIVATE_LOG_SIZE_IN_FIELDS);
    assert.deepEqual(log, { fields: [TAG2, 2n, ...Array(14).fill(0n)], emittedLength: 2 });
  });

  test("logsPerTag bounds each tag's list", () => {
    const [tag1, many] = q.logsByTags([TAG1, MANY], 2);
    assert.deepEqual(
      tag1!.map((l) => [l.txHash, l.isFromPublic, l.logIndexInTx]),
      [
        [A.txHash, false, 0],
        [A.txHash, true, 0],
      ],
    );
    assert.deepEqual(
      many!.map((l) => l.log.fields[1]),
      [0n, 1n],
    );
  });

  test('dataStartIndexForTx of a later block counts every earlier tx', () => {
    const [bulkLogs] = q.logsByTags([BULK], 1);
    // Blocks 1, 2 and 4 hold 2 + 1 + 2 txs before block 5.
    assert.equal(bulkLogs![0]!.dataStartIndexForTx, genesisNoteHashes + 5 * 64);
    assert.equal(
      bulkLogs![0]!.dataStartIndexForTx,
      blocks[4]!.header.state.partial.noteHashTree.nextAvailableLeafIndex,
    );
  });
});

describe('LogQueries: privateLogs(from, limit)', () => {
  test('the private logs of the block range, flattened in chain order', () => {
    assert.deepEqual(q.privateLogs(1, 2), [...A.privateLogs, ...B.privateLogs, ...C.privateLogs]);
    assert.deepEqual(q.privateLogs(2, 1), C.privateLogs);
    assert.deepEqual(q.privateLogs(1, 1), [...A.privateLogs, ...B.privateLogs]);
    assert.deepEqual(q.privateLogs(3, 1), []);
    assert.deepEqual(q.privateLogs(3, 2), [...D.privateLogs, ...E.privateLogs]);
    assert.deepEqual(q.privateLogs(1, 1000), [
      ...A.privateLogs,
      ...B.privateLogs,
      ...C.privateLogs,
      ...D.privateLogs,
      ...E.privateLogs,
    ]);
    assert.deepEqual(q.privateLogs(5, 10), []);
    assert.deepEqual(q.privateLogs(6, 10), []);
  });
});

describe('LogQueries: publicLogs and contractClassLogs (LogFilter)', () => {
  const notBulk = { toBlock: 5 };

  test('no filter but the block range: every public log in order', () => {
    assert.deepEqual(q.publicLogs(notBulk), {
      logs: [pub(A, 0), pub(A, 1), pub(B, 0), pub(C, 0), pub(C, 1)],
      maxLogsHit: false,
    });
  });

  test('contractAddress', () => {
    assert.deepEqual(q.publicLogs({ contractAddress: C1 }), {
      logs: [pub(A, 0), pub(B, 0), pub(C, 0), pub(C, 1)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ contractAddress: C2 }), { logs: [pub(A, 1)], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ contractAddress: 0xcfn }), { logs: [], maxLogsHit: false });
  });

  test('tag (the first field), alone and with contractAddress', () => {
    assert.deepEqual(q.publicLogs({ tag: TAG1 }), {
      logs: [pub(A, 0), pub(A, 1), pub(C, 0)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ tag: TAG1, contractAddress: C1 }), {
      logs: [pub(A, 0), pub(C, 0)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ tag: UNKNOWN_TAG }), { logs: [], maxLogsHit: false });
  });

  test('txHash', () => {
    assert.deepEqual(q.publicLogs({ txHash: A.txHash }), { logs: [pub(A, 0), pub(A, 1)], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ txHash: C.txHash, tag: MANY }), { logs: [pub(C, 1)], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ txHash: D.txHash }), { logs: [], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ txHash: UNKNOWN_TX }), { logs: [], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ txHash: C.txHash, toBlock: 2 }), { logs: [], maxLogsHit: false });
  });

  test('afterLog is strictly after', () => {
    assert.deepEqual(q.publicLogs({ ...notBulk, afterLog: { blockNumber: 1, txIndex: 0, logIndex: 0 } }), {
      logs: [pub(A, 1), pub(B, 0), pub(C, 0), pub(C, 1)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ ...notBulk, afterLog: { blockNumber: 1, txIndex: 1, logIndex: 0 } }), {
      logs: [pub(C, 0), pub(C, 1)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ ...notBulk, afterLog: { blockNumber: 2, txIndex: 0, logIndex: 1 } }), {
      logs: [],
      maxLogsHit: false,
    });
    // A cursor before the range's start leaves the range as it is.
    assert.deepEqual(
      q.publicLogs({ fromBlock: 2, toBlock: 3, afterLog: { blockNumber: 1, txIndex: 1, logIndex: 0 } }),
      {
        logs: [pub(C, 0), pub(C, 1)],
        maxLogsHit: false,
      },
    );
  });

  test('fromBlock is inclusive, toBlock exclusive', () => {
    assert.deepEqual(q.publicLogs({ fromBlock: 2, toBlock: 3 }), {
      logs: [pub(C, 0), pub(C, 1)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ fromBlock: 1, toBlock: 2 }), {
      logs: [pub(A, 0), pub(A, 1), pub(B, 0)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.publicLogs({ fromBlock: 3, toBlock: 5 }), { logs: [], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ fromBlock: 2, toBlock: 2 }), { logs: [], maxLogsHit: false });
    assert.deepEqual(q.publicLogs({ fromBlock: 6 }), { logs: [], maxLogsHit: false });
  });

  test('fromBlock after toBlock is invalid params', () => {
    assert.throws(() => q.publicLogs({ fromBlock: 3, toBlock: 2 }), invalidParams);
    assert.throws(() => q.contractClassLogs({ fromBlock: 3, toBlock: 1 }), invalidParams);
  });

  test(`maxLogsHit when more than ${LOG_FILTER_PAGE} logs match; afterLog continues where the page ended`, () => {
    const all = [F, G, H].flatMap((tx) => tx.publicLogs.map((_, i) => pub(tx, i)));
    assert.equal(all.length, 3 * BULK_PER_TX);
    const first = q.publicLogs({ contractAddress: C3 });
    assert.equal(first.maxLogsHit, true);
    assert.equal(first.logs.length, LOG_FILTER_PAGE);
    assert.deepEqual(first.logs, all.slice(0, LOG_FILTER_PAGE));
    const last = first.logs[first.logs.length - 1]!.id;
    assert.deepEqual(
      { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex },
      { blockNumber: 5, txIndex: 2, logIndex: 199 },
    );
    const second = q.publicLogs({ contractAddress: C3, afterLog: last });
    assert.deepEqual(second, { logs: all.slice(LOG_FILTER_PAGE), maxLogsHit: false });
    // Exactly LOG_FILTER_PAGE matches: all of them, and no more to ask for.
    const exact = q.publicLogs({
      contractAddress: C3,
      afterLog: { blockNumber: 5, txIndex: 0, logIndex: 199 },
    });
    assert.deepEqual(exact, { logs: all.slice(200), maxLogsHit: false });
    // No filter at all: the smaller blocks' logs come first, then the page fills up.
    const unfiltered = q.publicLogs({});
    assert.equal(unfiltered.maxLogsHit, true);
    assert.equal(unfiltered.logs.length, LOG_FILTER_PAGE);
    assert.deepEqual(unfiltered.logs.slice(0, 6), [
      pub(A, 0),
      pub(A, 1),
      pub(B, 0),
      pub(C, 0),
      pub(C, 1),
      all[0],
    ]);
  });

  test('contract class logs: no filter, contractAddress, tag, txHash, afterLog, block range', () => {
    assert.deepEqual(q.contractClassLogs({}), { logs: [cls(A, 0), cls(C, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ contractAddress: C2 }), { logs: [cls(C, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ contractAddress: C3 }), { logs: [], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ tag: TAG3 }), { logs: [cls(A, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ tag: TAG1 }), { logs: [cls(C, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ txHash: A.txHash }), { logs: [cls(A, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ txHash: B.txHash }), { logs: [], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ afterLog: { blockNumber: 1, txIndex: 0, logIndex: 0 } }), {
      logs: [cls(C, 0)],
      maxLogsHit: false,
    });
    assert.deepEqual(q.contractClassLogs({ fromBlock: 2 }), { logs: [cls(C, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ toBlock: 2 }), { logs: [cls(A, 0)], maxLogsHit: false });
    assert.deepEqual(q.contractClassLogs({ fromBlock: 2, toBlock: 2 }), { logs: [], maxLogsHit: false });
    assert.equal(
      q.contractClassLogs({}).logs[0]!.log.fields.fields.length,
      CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
    );
  });
});
