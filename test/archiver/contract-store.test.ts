// The archiver's contract index (ContractStore, fed by ChainStore): blocks are built on a real
// world state with tx effects that carry the registries' events — class publications (contract
// class logs from address 3), instance publications (private logs, 15 of 16 fields emitted) and
// class updates (public logs from address 2) — added through ChainStore and unwound with it.
// Covers lookups, first-publication-wins, the current class under scheduled updates, unwinding,
// skipped malformed events, persistence, and the rebuild of an index from stored blocks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChainStore } from '../../src/archiver/chain-store.js';
import type { SkippedEvent } from '../../src/archiver/contract-store.js';
import type { ContractClassLog, L2Block, PrivateLog, PublicLog, TxEffect } from '../../src/core/block.js';
import {
  type ContractClassPublic,
  type ContractInstance,
  type ContractUpdate,
  classPublishedLogFields,
  instancePublishedLogFields,
  instanceUpdatedLogFields,
  makeContractClass,
  makeContractInstance,
} from '../../src/core/contracts.js';
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

// ---- fixtures ------------------------------------------------------------------------------------

const classOf = (artifactHash: Fr, bytes: number[]) =>
  makeContractClass({ artifactHash, packedBytecode: Uint8Array.from(bytes) });
const A = classOf(
  0xa1n,
  Array.from({ length: 100 }, (_, i) => i),
);
const B = classOf(0xb2n, []);
const C = classOf(0xc3n, [1, 2, 3]);
const D = classOf(0xd4n, [9]);
const instanceOf = (cls: ContractClassPublic, salt: Fr) => makeContractInstance({ classId: cls.id, salt });
const I1 = instanceOf(A, 1n);
const I2 = instanceOf(A, 2n);
const I3 = instanceOf(B, 3n);

/** Class publications are contract class logs of the class registry (address 3). */
const registryClassLog = (fields: Fr[]) => classLog(3n, fields);
/** Class updates are public logs of the instance registry (address 2). */
const updateLog = (u: ContractUpdate): PublicLog => publicLog(2n, instanceUpdatedLogFields(u));
const update = (
  instance: ContractInstance,
  prev: Fr,
  next: Fr,
  timestampOfChange: bigint,
): ContractUpdate => ({
  address: instance.address,
  prevContractClassId: prev,
  newContractClassId: next,
  timestampOfChange,
});

let nextTxHash = 0x7000n;
/** A tx effect carrying the given events (and any raw logs). */
function tx(e: {
  classes?: ContractClassPublic[];
  instances?: ContractInstance[];
  updates?: ContractUpdate[];
  classLogs?: ContractClassLog[];
  privateLogs?: PrivateLog[];
  publicLogs?: PublicLog[];
}): TxEffect {
  return emptyTxEffect(nextTxHash++, {
    privateLogs: [
      ...(e.instances ?? []).map((i) => privateLog(instancePublishedLogFields(i))),
      ...(e.privateLogs ?? []),
    ],
    publicLogs: [...(e.updates ?? []).map(updateLog), ...(e.publicLogs ?? [])],
    contractClassLogs: [
      ...(e.classes ?? []).map((c) => registryClassLog(classPublishedLogFields(c))),
      ...(e.classLogs ?? []),
    ],
  });
}

// ---- chains --------------------------------------------------------------------------------------

let world: TestWorldState;
const opened: TestChainStore[] = [];

before(async () => {
  world = await openTestWorldState('cairn-contract-store-ws-');
});
after(async () => {
  await world.close();
  for (const chain of opened) await chain.close();
});

interface Chain extends TestChainStore {
  skipped: SkippedEvent[];
}

/**
 * A new archiver store at genesis (reporting skipped events unless `report` is false); the shared
 * world state goes back to genesis with it.
 */
async function newChain(report = true): Promise<Chain> {
  await world.ws.rollbackTo(0);
  const skipped: SkippedEvent[] = [];
  const chain = openTestChainStore(world.genesis, {
    prefix: 'cairn-contract-store-',
    ...(report ? { onSkippedContractEvent: (e: SkippedEvent) => skipped.push(e) } : {}),
  });
  opened.push(chain);
  return { ...chain, skipped };
}

/** Builds the next block (all in checkpoint 1) with `txs` at `timestamp` and adds it. */
async function addBlock(chain: Chain, timestamp: bigint, txs: TxEffect[]): Promise<L2Block> {
  assert.equal(chain.store.latestBlockNumber, world.ws.latestBlockNumber);
  const block = await nextBlock(world.ws, txs, { timestamp });
  chain.store.addProposedBlock(block);
  return block;
}

async function unwindTo(chain: Chain, blockNumber: number): Promise<void> {
  chain.store.unwindBlocksAfter(blockNumber);
  await world.ws.rollbackTo(blockNumber);
  assert.equal(chain.store.latestBlockNumber, blockNumber);
}

const at = (blockNumber: number, timestamp: bigint) => ({ blockNumber, timestamp });
/** The class in force for `instance` at a chain position (undefined when not published). */
const classAt = (chain: Chain, instance: ContractInstance, blockNumber: number, timestamp: bigint) =>
  chain.store.contracts.getInstance(instance.address, at(blockNumber, timestamp))?.currentContractClassId;
const FAR = 1n << 40n;

// ---- tests ---------------------------------------------------------------------------------------

describe('contract store: classes and instances', () => {
  test('a published class is found by id with its bytecode; an unknown id is not', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A] })]);
    await addBlock(chain, 1012n, [tx({}), tx({ classes: [B, C] })]);
    const { contracts } = chain.store;
    assert.deepEqual(contracts.getClass(A.id), A);
    assert.equal(contracts.getClass(A.id)!.packedBytecode.length, 100);
    assert.deepEqual(contracts.getClass(B.id), B);
    assert.deepEqual(contracts.getClass(C.id), C);
    assert.deepEqual(contracts.getClass(C.id)!.packedBytecode, Uint8Array.of(1, 2, 3));
    assert.equal(contracts.getClass(D.id), undefined);
    assert.equal(contracts.getClass(0n), undefined);
    assert.deepEqual(chain.skipped, []);
  });

  test('an instance is visible only from its publication block on, with its original class', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({})]);
    await addBlock(chain, 2000n, [tx({ instances: [I1] })]);
    await addBlock(chain, 3000n, [tx({})]);
    const { contracts } = chain.store;
    assert.equal(contracts.getInstance(I1.address, at(0, FAR)), undefined);
    assert.equal(contracts.getInstance(I1.address, at(1, FAR)), undefined);
    assert.deepEqual(contracts.getInstance(I1.address, at(2, 2000n)), I1);
    assert.deepEqual(contracts.getInstance(I1.address, at(3, 3000n)), I1);
    assert.deepEqual(contracts.getInstance(I1.address, at(1000, FAR)), I1);
    assert.equal(contracts.getInstance(I2.address, at(3, FAR)), undefined);
    // An instance with its own keys and contents comes back whole.
    const custom = makeContractInstance({
      classId: C.id,
      salt: 9n,
      deployer: 0xde9n,
      initializationHash: 0x77n,
    });
    await addBlock(chain, 4000n, [tx({ instances: [custom] })]);
    assert.deepEqual(contracts.getInstance(custom.address, at(4, 4000n)), custom);
  });

  test('the first publication wins: a re-publication does not move a class or instance to its block', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A], instances: [I1] })]);
    await addBlock(chain, 2000n, [tx({})]);
    // Published again in block 3, twice in the same block even.
    await addBlock(chain, 3000n, [tx({ classes: [A], instances: [I1] }), tx({ instances: [I1] })]);
    const { contracts } = chain.store;
    assert.deepEqual(contracts.getInstance(I1.address, at(1, 1000n)), I1);
    assert.deepEqual(contracts.getInstance(I1.address, at(2, 2000n)), I1);
    // Unwinding the re-publication keeps both (they were first published in block 1).
    await unwindTo(chain, 2);
    assert.deepEqual(contracts.getClass(A.id), A);
    assert.deepEqual(contracts.getInstance(I1.address, at(1, 1000n)), I1);
    await unwindTo(chain, 0);
    assert.equal(contracts.getClass(A.id), undefined);
    assert.equal(contracts.getInstance(I1.address, at(5, FAR)), undefined);
  });
});

describe('contract store: class updates', () => {
  test('before its time of change the original class, from it the new class; before it was scheduled the original', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A, B], instances: [I1, I2] })]);
    await addBlock(chain, 2000n, [tx({ updates: [update(I1, 0n, B.id, 2600n)] })]);
    const { contracts } = chain.store;
    assert.equal(classAt(chain, I1, 2, 2000n), A.id);
    assert.equal(classAt(chain, I1, 2, 2599n), A.id);
    assert.equal(classAt(chain, I1, 2, 2600n), B.id);
    assert.equal(classAt(chain, I1, 2, FAR), B.id);
    assert.equal(classAt(chain, I1, 50, FAR), B.id);
    // At block 1 the update was not scheduled yet, whatever the time.
    assert.equal(classAt(chain, I1, 1, FAR), A.id);
    // The rest of the instance is unchanged; its original class stays A.
    assert.deepEqual(contracts.getInstance(I1.address, at(2, 2600n)), {
      ...I1,
      currentContractClassId: B.id,
    });
    // Another instance is not affected.
    assert.equal(classAt(chain, I2, 2, FAR), A.id);
  });

  test('updates of neighbouring addresses do not leak into an instance', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A, B, C], instances: [I1] })]);
    await addBlock(chain, 2000n, [tx({ updates: [update(I1, 0n, B.id, 2000n)] })]);
    const neighbour = (delta: bigint) => ({ ...update(I1, 0n, C.id, 0n), address: I1.address + delta });
    await addBlock(chain, 3000n, [tx({ updates: [neighbour(1n), neighbour(-1n)] })]);
    assert.equal(classAt(chain, I1, 3, 3000n), B.id);
    assert.equal(classAt(chain, I1, 1, 3000n), A.id);
  });

  test('a second update scheduled before the first took effect: the first never applies', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A, B, C], instances: [I1] })]);
    await addBlock(chain, 2000n, [tx({ updates: [update(I1, 0n, B.id, 3000n)] })]);
    // At 2500 the class in force is still the original, so the registry logs prev = 0.
    await addBlock(chain, 2500n, [tx({ updates: [update(I1, 0n, C.id, 3500n)] })]);
    // Seen from block 2, only the first update exists.
    assert.equal(classAt(chain, I1, 2, 3200n), B.id);
    // From block 3, the last update decides: before 3500 its prev (0 → original), from 3500 C.
    assert.equal(classAt(chain, I1, 3, 2500n), A.id);
    assert.equal(classAt(chain, I1, 3, 3200n), A.id);
    assert.equal(classAt(chain, I1, 3, 3499n), A.id);
    assert.equal(classAt(chain, I1, 3, 3500n), C.id);
  });

  test('a second update after the first took effect: its prev (the first’s class) until its time', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A, B, C, D], instances: [I1] })]);
    await addBlock(chain, 2000n, [tx({ updates: [update(I1, 0n, B.id, 2100n)] })]);
    await addBlock(chain, 3000n, [tx({ updates: [update(I1, B.id, C.id, 4000n)] })]);
    assert.equal(classAt(chain, I1, 3, 3000n), B.id);
    assert.equal(classAt(chain, I1, 3, 3999n), B.id);
    assert.equal(classAt(chain, I1, 3, 4000n), C.id);
    // The store takes prev from the log as it is: a log naming D as prev gives D before the change.
    await addBlock(chain, 5000n, [tx({ updates: [update(I1, D.id, A.id, 6000n)] })]);
    assert.equal(classAt(chain, I1, 4, 5000n), D.id);
    assert.equal(classAt(chain, I1, 4, 6000n), A.id);
    assert.equal(classAt(chain, I1, 3, 6000n), C.id);
  });

  test('several updates in one block: the last by tx index, then log index, decides', async () => {
    const chain = await newChain();
    await addBlock(chain, 1000n, [tx({ classes: [A, B, C, D], instances: [I1, I2] })]);
    await addBlock(chain, 2000n, [
      tx({ updates: [update(I1, 0n, B.id, 0n), update(I1, 0n, C.id, 0n), update(I2, 0n, C.id, 0n)] }),
      tx({ updates: [update(I1, 0n, D.id, 0n)] }),
      tx({ updates: [update(I2, 0n, B.id, 0n), update(I2, 0n, D.id, 0n)] }),
    ]);
    assert.equal(classAt(chain, I1, 2, 2000n), D.id);
    assert.equal(classAt(chain, I2, 2, 2000n), D.id);
  });
});

describe('contract store: unwinding', () => {
  test('unwinding removes exactly what the unwound blocks published', async () => {
    const chain = await newChain();
    const { contracts } = chain.store;
    await addBlock(chain, 1000n, [tx({ classes: [A], instances: [I1] })]);
    await addBlock(chain, 2000n, [tx({ classes: [B], instances: [I2] })]);
    await addBlock(chain, 3000n, [
      tx({ classes: [C], instances: [I3], updates: [update(I1, 0n, B.id, 0n)] }),
      // I2 published again.
      tx({ instances: [I2] }),
    ]);
    await addBlock(chain, 4000n, [
      tx({ classes: [D], instances: [I3], updates: [update(I1, B.id, C.id, 0n)] }),
    ]);
    assert.equal(classAt(chain, I1, 4, 4000n), C.id);

    await unwindTo(chain, 3);
    assert.equal(contracts.getClass(D.id), undefined);
    assert.deepEqual(contracts.getClass(C.id), C);
    // I3 was first published in block 3: it stays; the update of block 4 is gone.
    assert.deepEqual(contracts.getInstance(I3.address, at(3, 3000n)), I3);
    assert.equal(classAt(chain, I1, 3, FAR), B.id);
    assert.equal(classAt(chain, I1, 4, FAR), B.id);

    await unwindTo(chain, 2);
    assert.equal(contracts.getClass(C.id), undefined);
    assert.equal(contracts.getInstance(I3.address, at(3, FAR)), undefined);
    assert.equal(classAt(chain, I1, 3, FAR), A.id);
    // I2 was re-published in the unwound block 3 but first published in block 2: it stays.
    assert.deepEqual(contracts.getInstance(I2.address, at(2, 2000n)), I2);
    assert.deepEqual(contracts.getClass(B.id), B);

    await unwindTo(chain, 1);
    assert.equal(contracts.getInstance(I2.address, at(2, FAR)), undefined);
    assert.equal(contracts.getClass(B.id), undefined);
    assert.deepEqual(contracts.getClass(A.id), A);
    assert.deepEqual(contracts.getInstance(I1.address, at(1, 1000n)), I1);

    // The chain grows again: a new block 2 publishes I3 and schedules an update of I1.
    await addBlock(chain, 2222n, [
      tx({ classes: [B], instances: [I3], updates: [update(I1, 0n, B.id, 2300n)] }),
    ]);
    assert.deepEqual(contracts.getInstance(I3.address, at(2, 2222n)), I3);
    assert.equal(contracts.getInstance(I3.address, at(1, FAR)), undefined);
    assert.equal(classAt(chain, I1, 2, 2299n), A.id);
    assert.equal(classAt(chain, I1, 2, 2300n), B.id);
  });
});

describe('contract store: malformed events', () => {
  test('are skipped and reported; valid events beside them are indexed; non-events are ignored', async () => {
    const chain = await newChain();
    const { contracts } = chain.store;
    const badClass = classPublishedLogFields(C).map((f, i) => (i === 1 ? f + 1n : f));
    const badInstance = instancePublishedLogFields(I2).map((f, i) => (i === 1 ? f + 1n : f));
    const first = tx({
      classes: [A],
      instances: [I1],
      classLogs: [
        registryClassLog(badClass),
        // Not events: another emitter, another first field.
        classLog(4n, classPublishedLogFields(D)),
        registryClassLog([0x1234n, ...classPublishedLogFields(D).slice(1)]),
      ],
      privateLogs: [privateLog(badInstance), privateLog([0x99n, 1n, 2n])],
    });
    const second = tx({
      publicLogs: [
        { contractAddress: 2n, fields: instanceUpdatedLogFields(update(I1, 0n, B.id, 1n << 64n)) },
        { contractAddress: 2n, fields: instanceUpdatedLogFields(update(I1, 0n, B.id, 0n)).slice(0, 4) },
        // Not an update: another emitter.
        { contractAddress: 5n, fields: instanceUpdatedLogFields(update(I1, 0n, B.id, 0n)) },
      ],
    });
    await addBlock(chain, 1000n, [first, second]);
    assert.equal(chain.skipped.length, 4);
    assert.deepEqual(
      chain.skipped.map(({ blockNumber, txHash }) => ({ blockNumber, txHash })),
      [
        { blockNumber: 1, txHash: first.txHash },
        { blockNumber: 1, txHash: first.txHash },
        { blockNumber: 1, txHash: second.txHash },
        { blockNumber: 1, txHash: second.txHash },
      ],
    );
    const reasons = chain.skipped.map((s) => s.reason);
    assert.match(reasons[0]!, /^class publication skipped: class id 0x[0-9a-f]+ does not match its contents/);
    assert.match(
      reasons[1]!,
      /^instance publication skipped: address 0x[0-9a-f]+ does not follow from the instance/,
    );
    assert.equal(reasons[2], 'class update skipped: the update time does not fit in 64 bits');
    assert.equal(reasons[3], 'class update skipped: the update log is too short');
    // Nothing of them is indexed.
    assert.equal(contracts.getClass(C.id), undefined);
    assert.equal(contracts.getClass(badClass[1]!), undefined);
    assert.equal(contracts.getClass(D.id), undefined);
    assert.equal(contracts.getInstance(I2.address, at(1, FAR)), undefined);
    assert.equal(contracts.getInstance(badInstance[1]!, at(1, FAR)), undefined);
    assert.equal(classAt(chain, I1, 1, FAR), A.id);
    // The valid events of the same tx are.
    assert.deepEqual(contracts.getClass(A.id), A);
    assert.deepEqual(contracts.getInstance(I1.address, at(1, 1000n)), I1);
    // Unwinding the block reports nothing more.
    await unwindTo(chain, 0);
    assert.equal(chain.skipped.length, 4);
    assert.equal(contracts.getClass(A.id), undefined);
  });

  test('a ChainStore without the option skips malformed events silently', async () => {
    const chain = await newChain(false);
    const bad = classPublishedLogFields(C).map((f, i) => (i === 2 ? 7n : f));
    await addBlock(chain, 1000n, [tx({ classes: [A], classLogs: [registryClassLog(bad)] })]);
    assert.equal(chain.store.latestBlockNumber, 1);
    assert.equal(chain.store.contracts.getClass(C.id), undefined);
    assert.deepEqual(chain.store.contracts.getClass(A.id), A);
    assert.deepEqual(chain.skipped, []);
  });
});

describe('contract store: persistence and reindexing', () => {
  const INDEX_DBS = [
    'contract-classes',
    'contract-instances',
    'contract-updates',
    'logs-by-tag',
    'public-logs-by-contract',
    'blocks-with-logs',
  ];
  const TAG = 0x7a6n;
  const PUBLIC_TAG = 0x7a7n;

  /** A chain with a class, two instances, an update, and tagged private and public logs. */
  async function populated(): Promise<Chain> {
    const chain = await newChain();
    await addBlock(chain, 1000n, [
      tx({ classes: [A, B], instances: [I1, I2], privateLogs: [privateLog([TAG, 1n])] }),
    ]);
    await addBlock(chain, 2000n, [
      tx({
        updates: [update(I1, 0n, B.id, 2500n)],
        publicLogs: [{ contractAddress: 0xc0n, fields: [PUBLIC_TAG, 2n] }],
      }),
    ]);
    return chain;
  }

  const scan = (store: ChainStore, tag: Fr) =>
    store.logs.scan({ tag, kinds: ['private', 'public'], limit: 10 }).map((l) => ({
      kind: l.kind,
      blockNumber: l.position.blockNumber,
      fields: l.fields,
    }));

  function assertIndexed(store: ChainStore): void {
    assert.deepEqual(store.contracts.getClass(A.id), A);
    assert.deepEqual(store.contracts.getClass(B.id), B);
    assert.deepEqual(store.contracts.getInstance(I2.address, at(1, 1000n)), I2);
    assert.equal(store.contracts.getInstance(I1.address, at(2, 2499n))?.currentContractClassId, A.id);
    assert.equal(store.contracts.getInstance(I1.address, at(2, 2500n))?.currentContractClassId, B.id);
    assert.deepEqual(scan(store, TAG), [{ kind: 'private', blockNumber: 1, fields: [TAG, 1n] }]);
    assert.deepEqual(scan(store, PUBLIC_TAG), [{ kind: 'public', blockNumber: 2, fields: [PUBLIC_TAG, 2n] }]);
  }

  function assertEmptyIndex(store: ChainStore): void {
    assert.equal(store.contracts.getClass(A.id), undefined);
    assert.equal(store.contracts.getInstance(I2.address, at(1, 1000n)), undefined);
    assert.deepEqual(scan(store, TAG), []);
    assert.deepEqual(scan(store, PUBLIC_TAG), []);
  }

  /** Empties the index databases, and sets (or deletes) the meta index version. */
  function simulateOldStore(env: StoreEnvironment, indexVersion: number | undefined): void {
    const meta = env.database<unknown>('meta');
    env.write(() => {
      for (const name of INDEX_DBS) env.binaryDatabase(name).clearSync();
      if (indexVersion === undefined) meta.removeSync('indexVersion');
      else meta.putSync('indexVersion', indexVersion);
    });
  }

  test('the index survives closing and reopening the store', async () => {
    const chain = await populated();
    assertIndexed(chain.store);
    await chain.env.close();
    const env = openEnvironment(chain.dir, 'archiver');
    try {
      const again = new ChainStore(env);
      assertIndexed(again);
      again.initialize(world.genesis);
      assert.equal(again.latestBlockNumber, 2);
      assertIndexed(again);
    } finally {
      await env.close();
    }
  });

  test('a store without an index version (or an older one) is reindexed from its blocks at start', async () => {
    const chain = await populated();
    assert.equal(chain.env.database<unknown>('meta').get('indexVersion'), 1);
    await chain.env.close();
    const env = openEnvironment(chain.dir, 'archiver');
    try {
      const meta = env.database<unknown>('meta');
      // The index version is current: an emptied index is not rebuilt (the check is the version).
      simulateOldStore(env, 1);
      const current = new ChainStore(env);
      current.initialize(world.genesis);
      assertEmptyIndex(current);

      // No version at all: rebuilt.
      simulateOldStore(env, undefined);
      const old = new ChainStore(env);
      assertEmptyIndex(old);
      old.initialize(world.genesis);
      assertIndexed(old);
      assert.equal(meta.get('indexVersion'), 1);
      assert.equal(old.latestBlockNumber, 2);

      // An older version: rebuilt too.
      simulateOldStore(env, 0);
      const older = new ChainStore(env);
      assertEmptyIndex(older);
      older.initialize(world.genesis);
      assertIndexed(older);
      assert.equal(meta.get('indexVersion'), 1);

      // A rebuilt index is unwound like any other.
      older.unwindBlocksAfter(1);
      assert.equal(older.contracts.getInstance(I1.address, at(2, FAR))?.currentContractClassId, A.id);
      assert.deepEqual(scan(older, PUBLIC_TAG), []);
      assert.deepEqual(older.contracts.getClass(B.id), B);
    } finally {
      await env.close();
    }
  });
});
