// Property tests of the archiver's log index (LogStore, written through ChainStore): random short
// chains of blocks built on a real world state, optionally unwound and rebuilt, then random tag
// scans and blocksWith queries compared with an in-memory model (every log of the final chain in
// a flat list with its position, filtered and sorted). Tags and contracts come from small pools
// so that they collide, private and public logs share tags, and unwound blocks leave logs behind
// with tags the rebuilt blocks use too.
//
// Reproduce a failure with the seed fast-check prints: LOG_PROPERTY_SEED=<seed> (and
// LOG_PROPERTY_RUNS=<n>).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ChainStore } from '../../src/archiver/chain-store.js';
import type { LogKind, LogPosition, TaggedLog, TagScan } from '../../src/archiver/log-store.js';
import type { L2Block, TxEffect } from '../../src/core/block.js';
import type { Fr } from '../../src/core/field.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
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

const SEED = Number(process.env.LOG_PROPERTY_SEED ?? 0x10a5);
const RUNS = process.env.LOG_PROPERTY_RUNS === undefined ? undefined : Number(process.env.LOG_PROPERTY_RUNS);

const TAGS = [0x11n, 0x22n, 0x33n, 0x44n];
const UNKNOWN_TAG = 0x99n;
const CONTRACTS = [0xc1n, 0xc2n, 0xc3n];
const UNKNOWN_CONTRACT = 0xcfn;
const UNKNOWN_TX = 0xdeadn;
const SLOTS_PER_TX = 64;

// ---- chain specs -------------------------------------------------------------------------------

interface TxSpec {
  privateLogs: { tag: number; rest: bigint[] }[];
  publicLogs: { tag: number; contract: number; rest: bigint[] }[];
  classLogs: readonly { tag: number; contract: number }[];
  noteHashes: number;
}
type BlockSpec = TxSpec[];
interface ChainSpec {
  blocks: BlockSpec[];
  /** Unwind to block `to % (blocks + 1)`, then add `blocks` after it. */
  unwind?: { to: number; blocks: BlockSpec[] } | undefined;
}

const restArb = fc.array(fc.bigInt({ min: 0n, max: 1000n }), { maxLength: 3 });
const txArb: fc.Arbitrary<TxSpec> = fc.record({
  privateLogs: fc.array(fc.record({ tag: fc.nat({ max: TAGS.length - 1 }), rest: restArb }), {
    maxLength: 3,
  }),
  publicLogs: fc.array(
    fc.record({
      tag: fc.nat({ max: TAGS.length - 1 }),
      contract: fc.nat({ max: CONTRACTS.length - 1 }),
      rest: restArb,
    }),
    { maxLength: 3 },
  ),
  classLogs: fc.oneof(
    { arbitrary: fc.constant([]), weight: 4 },
    {
      arbitrary: fc.tuple(
        fc.record({ tag: fc.nat({ max: TAGS.length - 1 }), contract: fc.nat({ max: CONTRACTS.length - 1 }) }),
      ),
      weight: 1,
    },
  ),
  noteHashes: fc.nat({ max: 2 }),
});
const blockArb: fc.Arbitrary<BlockSpec> = fc.array(txArb, { maxLength: 4 });
const chainArb: fc.Arbitrary<ChainSpec> = fc.record({
  blocks: fc.array(blockArb, { minLength: 1, maxLength: 6 }),
  unwind: fc.option(fc.record({ to: fc.nat(), blocks: fc.array(blockArb, { maxLength: 4 }) }), {
    nil: undefined,
  }),
});

// ---- queries -----------------------------------------------------------------------------------

/** A scan before it is resolved against the chain (picks index the chain's logs and txs). */
interface RawScan {
  tag: number;
  kinds: LogKind[];
  contract?: number | undefined;
  after?: { pick: number } | LogPosition | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
  tx?: number | undefined;
  limit: number;
}

/** Often absent: each filter is given in about a third of the scans. */
const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 });

const rawScanArb: fc.Arbitrary<RawScan> = fc.record({
  tag: fc.nat({ max: TAGS.length }),
  kinds: fc.oneof(
    { arbitrary: fc.constant<LogKind[]>(['private', 'public']), weight: 3 },
    { arbitrary: fc.constantFrom<LogKind[]>(['private'], ['public'], ['public', 'private'], []), weight: 2 },
  ),
  contract: sometimes(fc.nat({ max: CONTRACTS.length })),
  after: sometimes(
    fc.oneof(
      { arbitrary: fc.record({ pick: fc.nat() }), weight: 3 },
      {
        arbitrary: fc.record({
          blockNumber: fc.nat({ max: 8 }),
          txIndex: fc.nat({ max: 5 }),
          logIndex: fc.nat({ max: 7 }),
        }),
        weight: 1,
      },
    ),
  ),
  fromBlock: sometimes(fc.nat({ max: 7 })),
  toBlock: sometimes(fc.oneof(fc.nat({ max: 8 }), fc.constant(2 ** 32))),
  tx: sometimes(fc.nat()),
  limit: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(1000)),
});

interface RawBlocksWith {
  kind: LogKind | 'class';
  from: number;
  to: number;
  limit: number;
}

const rawBlocksWithArb: fc.Arbitrary<RawBlocksWith> = fc.record({
  kind: fc.constantFrom<LogKind | 'class'>('private', 'public', 'class'),
  from: fc.integer({ min: -1, max: 12 }),
  to: fc.oneof(fc.integer({ min: -1, max: 13 }), fc.constant(Number.POSITIVE_INFINITY)),
  limit: fc.integer({ min: 1, max: 12 }),
});

// ---- building the chain ------------------------------------------------------------------------

let world: TestWorldState;
let nextTxHash = 0x1000n;
let generation = 0n;

before(async () => {
  world = await openTestWorldState('cairn-log-store-ws-');
});
after(() => world.close());

function effectOf(spec: TxSpec): TxEffect {
  const txHash = nextTxHash++;
  return emptyTxEffect(txHash, {
    noteHashes: Array.from({ length: spec.noteHashes }, (_, i) => txHash * 100n + BigInt(i) + 1n),
    privateLogs: spec.privateLogs.map(({ tag, rest }) => privateLog([TAGS[tag]!, ...rest])),
    publicLogs: spec.publicLogs.map(({ tag, contract, rest }) =>
      publicLog(CONTRACTS[contract]!, [TAGS[tag]!, ...rest]),
    ),
    contractClassLogs: spec.classLogs.map(({ tag, contract }) =>
      classLog(CONTRACTS[contract]!, [TAGS[tag]!, 7n]),
    ),
  });
}

interface Built extends TestChainStore {
  /** The chain now stored, genesis first. */
  blocks: L2Block[];
  /** Every tx hash added, including those of unwound blocks. */
  txHashes: Fr[];
}

async function buildChain(spec: ChainSpec): Promise<Built> {
  const { ws, genesis } = world;
  generation++;
  await ws.rollbackTo(0);
  const chain = openTestChainStore(genesis, { prefix: 'cairn-log-store-' });
  const { store } = chain;
  const blocks = [genesis];
  const txHashes: Fr[] = [];
  const add = async (specs: BlockSpec[]) => {
    for (const s of specs) {
      // All blocks in checkpoint 1; timestamps differ between generations of the chain.
      const timestamp = generation * 10_000n + BigInt(ws.latestBlockNumber + 1) * 12n;
      const block = await nextBlock(ws, s.map(effectOf), { timestamp });
      store.addProposedBlock(block);
      blocks.push(block);
      txHashes.push(...block.body.txEffects.map((e) => e.txHash));
    }
  };
  await add(spec.blocks);
  if (spec.unwind) {
    const to = spec.unwind.to % blocks.length;
    generation++;
    store.unwindBlocksAfter(to);
    await ws.rollbackTo(to);
    blocks.length = to + 1;
    assert.equal(store.latestBlockNumber, to);
    await add(spec.unwind.blocks);
  }
  return { ...chain, blocks, txHashes };
}

// ---- the model ---------------------------------------------------------------------------------

interface Model {
  /** Every private and public log of the chain, in chain order. */
  logs: TaggedLog[];
  /** Per kind, the numbers of the blocks holding logs of that kind. */
  blocksWith: Record<LogKind | 'class', number[]>;
}

const positionOrder = (a: LogPosition, b: LogPosition) =>
  a.blockNumber !== b.blockNumber
    ? a.blockNumber - b.blockNumber
    : a.txIndex !== b.txIndex
      ? a.txIndex - b.txIndex
      : a.logIndex - b.logIndex;

function modelOf(blocks: readonly L2Block[]): Model {
  const logs: TaggedLog[] = [];
  const blocksWith: Model['blocksWith'] = { private: [], public: [], class: [] };
  for (const block of blocks.slice(1)) {
    // The note hash tree as the parent block left it; each tx takes 64 slots.
    const parent = blocks[block.number - 1]!;
    const before = parent.header.state.partial.noteHashTree.nextAvailableLeafIndex;
    const counts = { private: 0, public: 0, class: 0 };
    block.body.txEffects.forEach((effect, txIndex) => {
      const common = {
        txHash: effect.txHash,
        blockHash: block.hash,
        blockTimestamp: block.header.globalVariables.timestamp,
        dataStartIndexForTx: before + txIndex * SLOTS_PER_TX,
      };
      effect.privateLogs.forEach((log, i) => {
        logs.push({
          ...common,
          kind: 'private',
          position: { blockNumber: block.number, txIndex, logIndex: i },
          indexInKind: i,
          contractAddress: 0n,
          fields: log.fields.slice(0, log.emittedLength),
        });
      });
      effect.publicLogs.forEach((log, i) => {
        logs.push({
          ...common,
          kind: 'public',
          position: { blockNumber: block.number, txIndex, logIndex: effect.privateLogs.length + i },
          indexInKind: i,
          contractAddress: log.contractAddress,
          fields: [...log.fields],
        });
      });
      counts.private += effect.privateLogs.length;
      counts.public += effect.publicLogs.length;
      counts.class += effect.contractClassLogs.length;
    });
    for (const kind of ['private', 'public', 'class'] as const) {
      if (counts[kind] > 0) blocksWith[kind].push(block.number);
    }
  }
  logs.sort((a, b) => positionOrder(a.position, b.position));
  return { logs, blocksWith };
}

function modelScan(model: Model, s: TagScan): TaggedLog[] {
  return model.logs
    .filter(
      (log) =>
        log.fields[0] === s.tag &&
        s.kinds.includes(log.kind) &&
        (s.contractAddress === undefined ||
          (log.kind === 'public' && log.contractAddress === s.contractAddress)) &&
        (s.after === undefined || positionOrder(log.position, s.after) > 0) &&
        (s.fromBlock === undefined || log.position.blockNumber >= s.fromBlock) &&
        (s.toBlock === undefined || log.position.blockNumber < s.toBlock) &&
        (s.txHash === undefined || log.txHash === s.txHash),
    )
    .slice(0, s.limit);
}

function modelBlocksWith(model: Model, q: RawBlocksWith): number[] {
  return model.blocksWith[q.kind].filter((n) => n >= q.from && n < q.to).slice(0, q.limit);
}

function resolveScan(raw: RawScan, model: Model, txHashes: readonly Fr[]): TagScan {
  const s: TagScan = { tag: TAGS[raw.tag] ?? UNKNOWN_TAG, kinds: raw.kinds, limit: raw.limit };
  if (raw.contract !== undefined) s.contractAddress = CONTRACTS[raw.contract] ?? UNKNOWN_CONTRACT;
  if (raw.after !== undefined) {
    if ('pick' in raw.after) {
      const log = model.logs[raw.after.pick % Math.max(model.logs.length, 1)];
      s.after = log ? { ...log.position } : { blockNumber: 1, txIndex: 0, logIndex: 0 };
    } else {
      s.after = raw.after;
    }
  }
  if (raw.fromBlock !== undefined) s.fromBlock = raw.fromBlock;
  if (raw.toBlock !== undefined) s.toBlock = raw.toBlock;
  if (raw.tx !== undefined) s.txHash = txHashes[raw.tx % (txHashes.length + 1)] ?? UNKNOWN_TX;
  return s;
}

const show = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));

/** Compares the store with the model: every tag unfiltered, then the given scans and blocksWith queries. */
function checkAgainstModel(
  store: ChainStore,
  model: Model,
  txHashes: readonly Fr[],
  scans: readonly RawScan[],
  blocksWith: readonly RawBlocksWith[],
): void {
  for (const tag of [...TAGS, UNKNOWN_TAG]) {
    const s: TagScan = { tag, kinds: ['private', 'public'], limit: 10_000 };
    assert.deepEqual(store.logs.scan(s), modelScan(model, s), `full scan ${show(s)}`);
    for (const contractAddress of CONTRACTS) {
      const c: TagScan = { tag, contractAddress, kinds: ['public'], limit: 10_000 };
      assert.deepEqual(store.logs.scan(c), modelScan(model, c), `contract scan ${show(c)}`);
    }
  }
  for (const raw of scans) {
    const s = resolveScan(raw, model, txHashes);
    assert.deepEqual(store.logs.scan(s), modelScan(model, s), `scan ${show(s)}`);
  }
  for (const q of blocksWith) {
    assert.deepEqual(
      store.logs.blocksWith(q.kind, q.from, q.to, q.limit),
      modelBlocksWith(model, q),
      `blocksWith ${show(q)}`,
    );
  }
  for (const kind of ['private', 'public', 'class'] as const) {
    assert.deepEqual(
      store.logs.blocksWith(kind, 0, Number.POSITIVE_INFINITY, 1000),
      model.blocksWith[kind],
      kind,
    );
  }
}

// ---- the tests ---------------------------------------------------------------------------------

describe('log store against the model (property)', () => {
  test('scan and blocksWith after adding (and unwinding and re-adding) random blocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        chainArb,
        fc.array(rawScanArb, { minLength: 5, maxLength: 20 }),
        fc.array(rawBlocksWithArb, { minLength: 2, maxLength: 8 }),
        async (chain, scans, blocksWith) => {
          const built = await buildChain(chain);
          try {
            const model = modelOf(built.blocks);
            checkAgainstModel(built.store, model, built.txHashes, scans, blocksWith);
          } finally {
            await built.close();
          }
        },
      ),
      { seed: SEED, numRuns: RUNS ?? 40 },
    );
  });

  test('paging with `after` set to the last log of each page yields every log once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        chainArb,
        fc.array(rawScanArb, { minLength: 3, maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        async (chain, scans, pageSize) => {
          const built = await buildChain(chain);
          try {
            const model = modelOf(built.blocks);
            for (const raw of scans) {
              const { after: _ignored, ...bounds } = resolveScan(raw, model, built.txHashes);
              const all = modelScan(model, { ...bounds, limit: Number.MAX_SAFE_INTEGER });
              const paged: TaggedLog[] = [];
              let cursor: LogPosition | undefined;
              for (let pages = 0; pages <= all.length + 1; pages++) {
                const page = built.store.logs.scan({ ...bounds, limit: pageSize, after: cursor });
                assert.ok(page.length <= pageSize, 'a page holds at most `limit` logs');
                paged.push(...page);
                if (page.length < pageSize) break;
                cursor = page[page.length - 1]!.position;
              }
              assert.deepEqual(paged, all, `paging ${show(bounds)} by ${pageSize}`);
            }
          } finally {
            await built.close();
          }
        },
      ),
      { seed: SEED + 1, numRuns: RUNS ?? 30 },
    );
  });

  test('the index survives closing and reopening the environment', async () => {
    await fc.assert(
      fc.asyncProperty(
        chainArb,
        fc.array(rawScanArb, { minLength: 5, maxLength: 15 }),
        fc.array(rawBlocksWithArb, { minLength: 2, maxLength: 6 }),
        async (chain, scans, blocksWith) => {
          const built = await buildChain(chain);
          let env: StoreEnvironment | undefined;
          try {
            const model = modelOf(built.blocks);
            const latest = built.store.latestBlockNumber;
            await built.env.close();
            env = openEnvironment(built.dir, 'archiver');
            const reopened = new ChainStore(env);
            assert.equal(reopened.latestBlockNumber, latest);
            checkAgainstModel(reopened, model, built.txHashes, scans, blocksWith);
          } finally {
            await env?.close();
            await built.close();
          }
        },
      ),
      { seed: SEED + 2, numRuns: RUNS ?? 15 },
    );
  });
});

describe('log store examples', () => {
  test('one block: private logs first, then public, a pointer resolved through the contract index', async () => {
    const built = await buildChain({
      blocks: [
        [
          {
            privateLogs: [
              { tag: 0, rest: [5n] },
              { tag: 1, rest: [] },
            ],
            publicLogs: [
              { tag: 0, contract: 2, rest: [6n, 0n] },
              { tag: 0, contract: 1, rest: [] },
            ],
            classLogs: [],
            noteHashes: 1,
          },
        ],
      ],
    });
    try {
      const block = built.blocks[1]!;
      const start = built.blocks[0]!.header.state.partial.noteHashTree.nextAvailableLeafIndex;
      const txHash = block.body.txEffects[0]!.txHash;
      const common = {
        txHash,
        blockHash: block.hash,
        blockTimestamp: block.header.globalVariables.timestamp,
        dataStartIndexForTx: start,
      };
      const logs = built.store.logs.scan({ tag: TAGS[0]!, kinds: ['private', 'public'], limit: 10 });
      assert.deepEqual(logs, [
        {
          ...common,
          kind: 'private',
          position: { blockNumber: 1, txIndex: 0, logIndex: 0 },
          indexInKind: 0,
          contractAddress: 0n,
          fields: [TAGS[0]!, 5n],
        },
        {
          ...common,
          kind: 'public',
          position: { blockNumber: 1, txIndex: 0, logIndex: 2 },
          indexInKind: 0,
          contractAddress: CONTRACTS[2]!,
          fields: [TAGS[0]!, 6n, 0n],
        },
        {
          ...common,
          kind: 'public',
          position: { blockNumber: 1, txIndex: 0, logIndex: 3 },
          indexInKind: 1,
          contractAddress: CONTRACTS[1]!,
          fields: [TAGS[0]!],
        },
      ]);
      assert.deepEqual(
        built.store.logs.scan({
          tag: TAGS[0]!,
          contractAddress: CONTRACTS[1]!,
          kinds: ['public'],
          limit: 10,
        }),
        [logs[2]],
      );
      assert.deepEqual(
        built.store.logs.scan({
          tag: TAGS[0]!,
          contractAddress: CONTRACTS[1]!,
          kinds: ['private'],
          limit: 10,
        }),
        [],
      );
      assert.deepEqual(built.store.logs.blocksWith('private', 0, 10, 10), [1]);
      assert.deepEqual(built.store.logs.blocksWith('class', 0, 10, 10), []);
    } finally {
      await built.close();
    }
  });

  test("unwinding removes a block's logs and its blocksWith entries", async () => {
    const tx: TxSpec = {
      privateLogs: [{ tag: 0, rest: [] }],
      publicLogs: [{ tag: 0, contract: 0, rest: [] }],
      classLogs: [{ tag: 0, contract: 0 }],
      noteHashes: 0,
    };
    const built = await buildChain({ blocks: [[tx], [tx]], unwind: { to: 1, blocks: [[]] } });
    try {
      const s: TagScan = { tag: TAGS[0]!, kinds: ['private', 'public'], limit: 10 };
      assert.deepEqual(
        built.store.logs.scan(s).map((l) => l.position.blockNumber),
        [1, 1],
      );
      assert.deepEqual(
        built.store.logs.scan({ ...s, contractAddress: CONTRACTS[0]! }).map((l) => l.position.blockNumber),
        [1],
      );
      for (const kind of ['private', 'public', 'class'] as const) {
        assert.deepEqual(built.store.logs.blocksWith(kind, 0, 10, 10), [1], kind);
      }
    } finally {
      await built.close();
    }
  });
});

describe('log store limits', () => {
  test('scan returns at most `limit` logs, none for a limit of 0 (as blocksWith does)', async () => {
    const tx: TxSpec = {
      privateLogs: [
        { tag: 0, rest: [] },
        { tag: 0, rest: [] },
      ],
      publicLogs: [],
      classLogs: [],
      noteHashes: 0,
    };
    const built = await buildChain({ blocks: [[tx]] });
    try {
      assert.deepEqual(built.store.logs.blocksWith('private', 0, 10, 0), []);
      assert.equal(built.store.logs.scan({ tag: TAGS[0]!, kinds: ['private'], limit: 1 }).length, 1);
      assert.deepEqual(built.store.logs.scan({ tag: TAGS[0]!, kinds: ['private'], limit: 0 }), []);
    } finally {
      await built.close();
    }
  });
});
