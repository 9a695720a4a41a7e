// The instance registry's real 4.1.2 bytecode, `update((Field))` and `set_update_delay(u64)`,
// executed through executeTx on the AVM on a world state with dev accounts: txs built with
// buildTx (publishClass / publishInstances / classUpdates). Covers the deployment and registration
// checks (nullifiers of the same tx or of the tree), the public log and the storage it writes (the
// reference's delayed public mutable: a packed field, the classes before and after, their hash),
// the time of change (timestamp + the contract's delay), the `prev` field across successive
// updates, reverts (which leave no log and no writes behind), and the gas of the golden vectors.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { poseidon2Hash as refHash } from '@zkpassport/poseidon2';
import { RevertCode } from '../../src/core/block.js';
import { emptyBlockHeader, emptyGlobalVariables, type GlobalVariables } from '../../src/core/block-header.js';
import {
  CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE,
  type ContractClassPublic,
  type ContractInstance,
  DEFAULT_UPDATE_DELAY,
  makeContractClass,
  makeContractInstance,
  parseInstanceUpdated,
  siloNullifier,
} from '../../src/core/contracts.js';
import type { Fr } from '../../src/core/field.js';
import { buildTx, classUpdateCall, type PublicCallSpec, type TxSpec } from '../../src/core/tx-builder.js';
import type { PublicContracts } from '../../src/execution/avm-calls.js';
import { applyTxEffect, buildBlock } from '../../src/execution/block-builder.js';
import { devAccounts, devAccountsGenesisData } from '../../src/execution/dev-accounts.js';
import {
  type ExecutionOptions,
  executeTx,
  TxExecutionError,
  type TxExecutionResult,
} from '../../src/execution/executor.js';
import {
  feeJuiceBalanceSlot,
  scheduledClassAt,
  scheduledClassSlots,
} from '../../src/execution/protocol-contracts.js';
import {
  PUBLIC_LEAF_SLOT_SEPARATOR,
  PUBLIC_STORAGE_MAP_SLOT_SEPARATOR,
  readPublicData,
} from '../../src/execution/public-storage.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import type { WorldStateFork } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { genesisPublicContracts } from '../helpers/genesis-contracts.js';

const [alice] = devAccounts(1).map((a) => a.address) as [Fr];
const FEE_RECIPIENT = 0xfee0n;
const T = 1_700_000_000n;
/** No contract is deployed here: any call to it fails. */
const UNSUPPORTED = 0x999n;
const failingCall = (over: Partial<PublicCallSpec> = {}): PublicCallSpec => ({
  contractAddress: UNSUPPORTED,
  selector: 1,
  ...over,
});

const classOf = (artifactHash: Fr) =>
  makeContractClass({ artifactHash, packedBytecode: Uint8Array.of(1, 2, 3) });
const A = classOf(0xa1n);
const B = classOf(0xb2n);
const C = classOf(0xc3n);
const D = classOf(0xd4n);
const instanceOf = (cls: ContractClassPublic, salt: Fr) => makeContractInstance({ classId: cls.id, salt });
const I = instanceOf(A, 1n);
const J = instanceOf(A, 2n);

const dir = mkdtempSync(join(tmpdir(), 'cairn-contract-update-'));
let ws: WorldState;
let nullifierSeed = 0x200_000n;

/** The genesis contracts: the instance registry runs its real bytecode. */
let genesis: PublicContracts;

before(async () => {
  genesis = await genesisPublicContracts();
  ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisPublicData: devAccountsGenesisData(devAccounts(1)),
    genesisBlockHash: genesisBlockHashOf,
  });
});
after(async () => {
  await ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const globals = (timestamp = T, feePerDaGas = 0n): GlobalVariables => ({
  ...emptyGlobalVariables(),
  chainId: 31337n,
  version: 1n,
  blockNumber: 1,
  slotNumber: 1,
  timestamp,
  gasFees: { feePerDaGas, feePerL2Gas: 7n },
  feeRecipient: FEE_RECIPIENT,
});

const spec = (over: Partial<TxSpec> = {}): TxSpec => ({
  feePayer: alice,
  anchorBlockHeader: emptyBlockHeader(),
  chainId: 31337,
  version: 1,
  expirationTimestamp: 2n ** 40n,
  maxFeesPerGas: { feePerDaGas: 100n, feePerL2Gas: 100n },
  protocolNullifier: nullifierSeed++,
  ...over,
});

/** Executes one tx and applies its effect to `fork`. */
function run(
  fork: WorldStateFork,
  over: Partial<TxSpec>,
  g: GlobalVariables = globals(),
  options?: ExecutionOptions,
): TxExecutionResult {
  const { tx, hash } = buildTx(spec(over));
  const result = executeTx(fork, tx, hash, g, { contracts: genesis, ...options });
  applyTxEffect(fork, result.effect);
  return result;
}

/** Publishes classes (one per tx) and instances on `fork`. */
function publish(
  fork: WorldStateFork,
  classes: ContractClassPublic[],
  instances: ContractInstance[] = [],
): void {
  for (const [i, cls] of classes.entries()) {
    const r = run(fork, { publishClass: cls, ...(i === 0 ? { publishInstances: instances } : {}) });
    assert.equal(r.effect.revertCode, RevertCode.OK);
  }
  if (classes.length === 0) run(fork, { publishInstances: instances });
}

/** The registry's slots for a contract, derived independently: the map slot of the address at
 * slot 1, then + 0 (packed), 1 (class before), 2 (class after), 3 (hash of the three). */
function slotsOf(address: Fr) {
  const base = refHash([BigInt(PUBLIC_STORAGE_MAP_SLOT_SEPARATOR), 1n, address]);
  const leaf = (k: bigint) => refHash([BigInt(PUBLIC_LEAF_SLOT_SEPARATOR), 2n, base + k]);
  return { packed: leaf(0n), pre: leaf(1n), post: leaf(2n), hash: leaf(3n) };
}
const readSlots = (fork: WorldStateFork, address: Fr) => {
  const s = slotsOf(address);
  return {
    packed: readPublicData(fork, s.packed),
    pre: readPublicData(fork, s.pre),
    post: readPublicData(fork, s.post),
  };
};
/** The packed field with only a class change scheduled (no delay change): its time, low 32 bits. */
const packedChange = (timestampOfChange: bigint) => timestampOfChange;
const NOTHING = { packed: 0n, pre: 0n, post: 0n };
const setDelayCall = (address: Fr, delay: bigint): PublicCallSpec => ({
  contractAddress: 2n,
  signature: 'set_update_delay(u64)',
  args: [delay],
  msgSender: address,
});
const updateLog = (address: Fr, prev: Fr, next: Fr, timestampOfChange: bigint) => ({
  contractAddress: 2n,
  fields: [CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE, address, prev, next, timestampOfChange],
});
const feeWrites = (r: TxExecutionResult) =>
  r.effect.publicDataWrites.filter(
    (w) => w.leafSlot === feeJuiceBalanceSlot(alice) || w.leafSlot === feeJuiceBalanceSlot(FEE_RECIPIENT),
  );

describe('update((Field)): successful updates', () => {
  test('the slots are the map entry of the address at slot 1, in a row', () => {
    const { packed, pre, post } = slotsOf(I.address);
    assert.deepEqual(scheduledClassSlots(I.address), { packed, pre, post });
    assert.notDeepEqual(scheduledClassSlots(J.address), { packed, pre, post });
  });

  test('with the publications in the same tx: one public log and the four slots written', () => {
    const fork = ws.fork();
    const r = run(fork, {
      publishClass: B,
      publishInstances: [I],
      classUpdates: [{ address: I.address, newClassId: B.id }],
    });
    assert.equal(r.revertReason, undefined);
    assert.equal(r.effect.revertCode, RevertCode.OK);
    const toc = T + BigInt(DEFAULT_UPDATE_DELAY);
    assert.equal(DEFAULT_UPDATE_DELAY, 86_400);
    assert.deepEqual(r.effect.publicLogs, [updateLog(I.address, 0n, B.id, toc)]);
    assert.deepEqual(parseInstanceUpdated(r.effect.publicLogs[0]!), {
      ok: true,
      value: {
        address: I.address,
        prevContractClassId: 0n,
        newContractClassId: B.id,
        timestampOfChange: toc,
      },
    });
    const s = slotsOf(I.address);
    assert.deepEqual(r.effect.publicDataWrites.slice(0, 4), [
      { leafSlot: s.packed, value: packedChange(toc) },
      { leafSlot: s.pre, value: 0n },
      { leafSlot: s.post, value: B.id },
      { leafSlot: s.hash, value: refHash([packedChange(toc), 0n, B.id]) },
    ]);
    assert.equal(r.effect.publicDataWrites.length, 6);
    assert.deepEqual(readSlots(fork, I.address), { packed: packedChange(toc), pre: 0n, post: B.id });
    // The publications' nullifiers are in the effect; another contract's slots are untouched.
    assert.ok(r.effect.nullifiers.includes(siloNullifier(2n, I.address)));
    assert.ok(r.effect.nullifiers.includes(siloNullifier(3n, B.id)));
    assert.deepEqual(readSlots(fork, J.address), NOTHING);
    assert.deepEqual(r.publicReturnValues, [{ values: [] }]);
  });

  test('with the publications in an earlier block: the nullifiers come from the tree', () => {
    const fork = ws.fork();
    const { tx, hash } = buildTx(spec({ publishClass: B, publishInstances: [I] }));
    const published = executeTx(fork, tx, hash, globals(), { contracts: genesis });
    buildBlock(fork, {
      globalVariables: { ...globals(), blockNumber: 1 },
      txEffects: [published.effect],
      checkpointNumber: 1,
      indexWithinCheckpoint: 0,
      l1ToL2Messages: [],
      totalManaUsed: 0n,
    });
    const t = T + 1234n;
    const r = run(fork, { classUpdates: [{ address: I.address, newClassId: B.id }] }, globals(t));
    assert.equal(r.effect.revertCode, RevertCode.OK);
    assert.deepEqual(r.effect.publicLogs, [updateLog(I.address, 0n, B.id, t + 86_400n)]);
    assert.deepEqual(readSlots(fork, I.address), { packed: packedChange(t + 86_400n), pre: 0n, post: B.id });
  });

  test('a contract shortens its delay with set_update_delay: in force after the old delay less the new', () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const tooLow = run(fork, { publicCalls: [setDelayCall(I.address, 599n)] });
    assert.match(tooLow.revertReason!, /^App logic reverted: Assertion failed: New update delay is too low/);
    const set = run(fork, { publicCalls: [setDelayCall(I.address, 600n)] });
    assert.equal(set.effect.revertCode, RevertCode.OK, set.revertReason);
    assert.deepEqual(set.effect.publicLogs, []);
    // The delay change is packed above the class change's 32 bits: 86400 before, 600 after, in
    // force at T + 86400 - 600 (so that no update scheduled meanwhile lands sooner).
    const delayChange = (T + 85_800n) << 32n;
    const expected = delayChange | (1n << 64n) | (600n << 72n) | (1n << 104n) | (86_400n << 112n);
    assert.deepEqual(readSlots(fork, I.address), { packed: expected, pre: 0n, post: 0n });
    // Before that, updates still wait 86400 s; from then on, 600 s.
    const early = run(fork, { classUpdates: [{ address: I.address, newClassId: B.id }] }, globals(T + 100n));
    assert.deepEqual(early.effect.publicLogs, [updateLog(I.address, 0n, B.id, T + 100n + 86_400n)]);
    const t = T + 85_800n;
    const late = run(fork, { classUpdates: [{ address: I.address, newClassId: B.id }] }, globals(t));
    assert.deepEqual(late.effect.publicLogs, [updateLog(I.address, 0n, B.id, t + 600n)]);
    // The class in force reads the class change from the low bits, whatever the delay bits hold.
    const read = (slot: Fr) => readPublicData(fork, slot);
    assert.equal(scheduledClassAt(I.address, t + 599n, read), 0n);
    assert.equal(scheduledClassAt(I.address, t + 600n, read), B.id);
  });

  test('prev is the class in force: 0 while the original applies, the last class that took effect after', () => {
    const fork = ws.fork();
    publish(fork, [B, C, D], [I]);
    const DAY = 86_400n;
    const updateTo = (cls: ContractClassPublic, t: bigint) =>
      run(fork, { classUpdates: [{ address: I.address, newClassId: cls.id }] }, globals(t)).effect.publicLogs;
    // B scheduled at T, for T + DAY.
    assert.deepEqual(updateTo(B, T), [updateLog(I.address, 0n, B.id, T + DAY)]);
    // Before B took effect, C replaces it: the class in force is still the original (0).
    assert.deepEqual(updateTo(C, T + 50n), [updateLog(I.address, 0n, C.id, T + 50n + DAY)]);
    assert.deepEqual(readSlots(fork, I.address), {
      packed: packedChange(T + 50n + DAY),
      pre: 0n,
      post: C.id,
    });
    // C takes effect at T + 50 + DAY.
    const t1 = T + 50n + DAY;
    assert.deepEqual(updateTo(D, t1), [updateLog(I.address, C.id, D.id, t1 + DAY)]);
    // D is pending: the class in force is C, not D.
    assert.deepEqual(updateTo(B, t1 + DAY - 1n), [updateLog(I.address, C.id, B.id, t1 + 2n * DAY - 1n)]);
    assert.deepEqual(readSlots(fork, I.address), {
      packed: packedChange(t1 + 2n * DAY - 1n),
      pre: C.id,
      post: B.id,
    });
    // Exactly at the time of change the new class is in force.
    const t2 = t1 + 2n * DAY - 1n;
    assert.deepEqual(updateTo(C, t2), [updateLog(I.address, B.id, C.id, t2 + DAY)]);
  });

  test('two contracts update in one tx: one log each, in call order', () => {
    const fork = ws.fork();
    publish(fork, [B, C], [I, J]);
    const r = run(fork, {
      classUpdates: [
        { address: J.address, newClassId: C.id },
        { address: I.address, newClassId: B.id },
      ],
    });
    const toc = T + 86_400n;
    assert.deepEqual(r.effect.publicLogs, [
      updateLog(J.address, 0n, C.id, toc),
      updateLog(I.address, 0n, B.id, toc),
    ]);
    assert.equal(readSlots(fork, J.address).post, C.id);
    assert.equal(readSlots(fork, I.address).post, B.id);
  });
});

describe('update((Field)): reverts', () => {
  const assertNothingWritten = (fork: WorldStateFork, r: TxExecutionResult, address: Fr) => {
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.deepEqual(r.effect.publicLogs, []);
    assert.deepEqual(r.effect.publicDataWrites, feeWrites(r));
    assert.equal(r.effect.publicDataWrites.length, 2);
    assert.deepEqual(readSlots(fork, address), NOTHING);
  };
  const NOT_DEPLOYED = /^App logic reverted: Assertion failed: msg.sender is not deployed/;
  const NOT_REGISTERED = /^App logic reverted: Assertion failed: New contract class is not registered/;

  test('a sender that is not deployed: "msg.sender is not deployed", no log, no writes', () => {
    const fork = ws.fork();
    publish(fork, [B]);
    const r = run(fork, { classUpdates: [{ address: I.address, newClassId: B.id }] });
    assert.match(r.revertReason!, NOT_DEPLOYED);
    assertNothingWritten(fork, r, I.address);
    assert.deepEqual(r.publicReturnValues, [{ values: [] }]);
    // The address nullifier siloed by another contract (the class registry) does not count.
    const other = run(fork, {
      nullifiers: [siloNullifier(3n, I.address), I.address],
      classUpdates: [{ address: I.address, newClassId: B.id }],
    });
    assert.match(other.revertReason!, NOT_DEPLOYED);
    assertNothingWritten(fork, other, I.address);
  });

  test('a class that is not registered: "New contract class is not registered"', () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const r = run(fork, { classUpdates: [{ address: I.address, newClassId: C.id }] });
    assert.match(r.revertReason!, NOT_REGISTERED);
    assertNothingWritten(fork, r, I.address);
    // The class id nullifier siloed by the instance registry does not count.
    const other = run(fork, {
      nullifiers: [siloNullifier(2n, C.id)],
      classUpdates: [{ address: I.address, newClassId: C.id }],
    });
    assert.match(other.revertReason!, NOT_REGISTERED);
    assertNothingWritten(fork, other, I.address);
    // The original class of the instance, never published, is not registered either.
    const original = run(fork, { classUpdates: [{ address: I.address, newClassId: A.id }] });
    assert.match(original.revertReason!, NOT_REGISTERED);
  });

  test('a static call cannot update', () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const r = run(fork, { publicCalls: [{ ...classUpdateCall(I.address, B.id), isStaticCall: true }] });
    assert.equal(r.revertReason, 'App logic reverted: SSTORE is not allowed in a static call');
    assertNothingWritten(fork, r, I.address);
  });

  test('an app-logic call failing after the update rolls back its log and writes', () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const r = run(fork, { publicCalls: [classUpdateCall(I.address, B.id), failingCall()] });
    assert.match(r.revertReason!, /^App logic reverted: no bytecode to run at 0x999/);
    assertNothingWritten(fork, r, I.address);
    assert.deepEqual(r.publicReturnValues, [{ values: [] }, { values: [] }]);
    // The same update with the publications in the reverted tx itself: all of it is dropped.
    const fork2 = ws.fork();
    const r2 = run(fork2, {
      publishClass: B,
      publishInstances: [I],
      publicCalls: [classUpdateCall(I.address, B.id), failingCall()],
    });
    assertNothingWritten(fork2, r2, I.address);
    assert.deepEqual(r2.effect.contractClassLogs, []);
    assert.equal(r2.effect.nullifiers.length, 1);
    // A later update sees no trace of the rolled-back one.
    const later = run(fork, { classUpdates: [{ address: I.address, newClassId: B.id }] });
    assert.deepEqual(later.effect.publicLogs, [updateLog(I.address, 0n, B.id, T + 86_400n)]);
  });

  test('a failing teardown rolls back an app-logic update too', () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const r = run(fork, {
      publicCalls: [classUpdateCall(I.address, B.id), failingCall({ phase: 'teardown' })],
    });
    assert.match(r.revertReason!, /^Teardown reverted: /);
    assertNothingWritten(fork, r, I.address);
  });

  test('an update in setup that reverts makes the tx unincludable', () => {
    const fork = ws.fork();
    const { tx, hash } = buildTx(
      spec({ publicCalls: [{ ...classUpdateCall(I.address, B.id), phase: 'setup' }] }),
    );
    assert.throws(
      () => executeTx(fork, tx, hash, globals(), { contracts: genesis }),
      (err: unknown) =>
        err instanceof TxExecutionError &&
        /^Setup call reverted: Assertion failed: msg.sender is not deployed/.test(err.reason),
    );
  });

  test('a teardown update after an app-logic revert does not see the reverted publications', () => {
    const fork = ws.fork();
    publish(fork, [], [I]);
    const r = run(fork, {
      publishClass: B,
      publicCalls: [failingCall(), { ...classUpdateCall(I.address, B.id), phase: 'teardown' }],
    });
    // B's publication (nullifier and log) is dropped with the app logic...
    assert.deepEqual(r.effect.contractClassLogs, []);
    assert.ok(!r.effect.nullifiers.includes(siloNullifier(3n, B.id)));
    // ...so teardown must not schedule an update to it.
    assert.match(r.revertReason!, /^App logic reverted: /);
    assert.deepEqual(r.effect.publicLogs, []);
    assert.deepEqual(readSlots(fork, I.address), NOTHING);
  });

  test('a setup update does not see the revertible publications of its tx', () => {
    const fork = ws.fork();
    publish(fork, [], [I]);
    const { tx, hash } = buildTx(
      spec({
        publishClass: B,
        publicCalls: [{ ...classUpdateCall(I.address, B.id), phase: 'setup' }, failingCall()],
      }),
    );
    // In setup only the non-revertible nullifiers exist; B's is revertible (and is dropped here).
    assert.throws(
      () => executeTx(fork, tx, hash, globals(), { contracts: genesis }),
      (err: unknown) =>
        err instanceof TxExecutionError &&
        /^Setup call reverted: Assertion failed: New contract class is not registered/.test(err.reason),
    );
  });
});

describe('the instance registry: gas of the golden vectors', () => {
  // test/avm/vectors/protocol-contracts.json, recorded from the reference's AVM: an update costs
  // 291,500 L2 and 480 DA gas (four writes and a five-field log); set_update_delay 286,319 and 256.
  test("an update is billed the reference's gas", () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const g = globals(T, 3n);
    const r = run(fork, { classUpdates: [{ address: I.address, newClassId: B.id }] }, g);
    const publicGas = { daGas: 480, l2Gas: 291_500 };
    assert.deepEqual(r.gasUsed.publicGas, publicGas);
    const { tx } = buildTx(spec({ classUpdates: [{ address: I.address, newClassId: B.id }] }));
    const priv = tx.data.gasUsed;
    const total = { daGas: priv.daGas + publicGas.daGas, l2Gas: priv.l2Gas + publicGas.l2Gas };
    assert.deepEqual(r.gasUsed.totalGas, total);
    assert.deepEqual(r.gasUsed.billedGas, total);
    assert.equal(r.effect.transactionFee, BigInt(total.daGas) * 3n + BigInt(total.l2Gas) * 7n);
    const delay = run(fork, { publicCalls: [setDelayCall(J.address, 600n)] }, g);
    assert.match(delay.revertReason!, /msg.sender is not deployed/);
    const set = run(fork, { publicCalls: [setDelayCall(I.address, 600n)] }, g);
    assert.deepEqual(set.gasUsed.publicGas, { daGas: 256, l2Gas: 286_319 });
  });

  test('the DA gas of the log counts against the gas limit; the default limits of buildTx cover it', () => {
    const fork = ws.fork();
    publish(fork, [B], [I]);
    const update = { classUpdates: [{ address: I.address, newClassId: B.id }] };
    const byDefault = buildTx(spec(update));
    const ok = executeTx(fork, byDefault.tx, byDefault.hash, globals(), { contracts: genesis });
    assert.equal(ok.effect.revertCode, RevertCode.OK);
    const limits = byDefault.tx.data.constants.txContext.gasSettings.gasLimits;
    assert.ok(ok.gasUsed.totalGas.daGas <= limits.daGas && ok.gasUsed.totalGas.l2Gas <= limits.l2Gas);
    // Limits exactly at the gas used pass; one DA gas less runs out at the log.
    const priv = byDefault.tx.data.gasUsed;
    const exact = { daGas: priv.daGas + 480, l2Gas: priv.l2Gas + 291_500 };
    const atLimit = buildTx(spec({ ...update, gasLimits: exact }));
    const fits = executeTx(fork, atLimit.tx, atLimit.hash, globals(), { contracts: genesis });
    assert.equal(fits.effect.revertCode, RevertCode.OK);
    const short = buildTx(spec({ ...update, gasLimits: { ...exact, daGas: exact.daGas - 1 } }));
    const r = executeTx(fork, short.tx, short.hash, globals(), { contracts: genesis });
    assert.equal(r.revertReason, 'App logic reverted: out of DA gas');
    assert.deepEqual(r.effect.publicLogs, []);
  });
});
