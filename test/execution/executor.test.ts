// Native tx execution on a fork of a funded world state: fees, reverts by phase, the protocol
// contracts, public storage and its journal, dev accounts — and a property test of fee payment
// against a simple balance model.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { poseidon2Hash as refPoseidon2Hash } from '@zkpassport/poseidon2';
import fc from 'fast-check';
import { RevertCode } from '../../src/core/block.js';
import {
  emptyBlockHeader,
  emptyGlobalVariables,
  type GasFees,
  type GlobalVariables,
} from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { poseidon2HashWithSeparator } from '../../src/core/hash/poseidon2.js';
import { functionSelector } from '../../src/core/hash/selector.js';
import { l2ToL1MessageLeaf } from '../../src/core/out-hash.js';
import type { Tx } from '../../src/core/tx.js';
import { buildTx, PUBLIC_CALL_GAS_ALLOWANCE, type TxSpec } from '../../src/core/tx-builder.js';
import { computePrivateGasUsed, txView } from '../../src/core/tx-view.js';
import type { PublicContracts } from '../../src/execution/avm-calls.js';
import { applyTxEffect } from '../../src/execution/block-builder.js';
import {
  DEV_ACCOUNT_BALANCE,
  devAccounts,
  devAccountsGenesisData,
} from '../../src/execution/dev-accounts.js';
import { executeTx, TxExecutionError, type TxExecutionResult } from '../../src/execution/executor.js';
import {
  FEE_JUICE_BALANCES_SLOT,
  feeJuiceBalanceSlot,
  isNativeCall,
} from '../../src/execution/protocol-contracts.js';
import {
  mapStorageSlot,
  PUBLIC_LEAF_SLOT_SEPARATOR,
  PUBLIC_STORAGE_MAP_SLOT_SEPARATOR,
  PublicStateJournal,
  publicDataLeafSlot,
  readPublicData,
} from '../../src/execution/public-storage.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId, type WorldStateFork } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { genesisPublicContracts } from '../helpers/genesis-contracts.js';

/** The reference's GENERATOR_INDEX__NOTE_HASH_NONCE and __UNIQUE_NOTE_HASH (facts). */
const NOTE_HASH_NONCE_SEPARATOR = 1_721_808_740;
const UNIQUE_NOTE_HASH_SEPARATOR = 226_850_429;

const FEE_JUICE = 5n;
const INCREASE = '_increase_public_balance((Field),u128)';
const BALANCE_OF = 'balance_of_public((Field))';
const CHECK_BALANCE = 'check_balance(u128)';
/** A contract cairn cannot execute: any call to it reverts. */
const UNSUPPORTED = 0x999n;
const RECIPIENT_L1 = `0x${'12'.repeat(20)}`;

const accounts = devAccounts(3);
const [alice, bob, carol] = accounts.map((a) => a.address) as [Fr, Fr, Fr];
const FEE_RECIPIENT = 0xfee0n;
const UNFUNDED = 0xdeadn;
/** Gas of the minimal private tx (one nullifier): L2 440000 + 16000, DA 96 + 32. */
const MIN_L2 = 456_000;
const MIN_DA = 128;
/** Exactly the fee of a minimal private tx at 7 per L2 gas. */
const POOR = 0xb00n;
const POOR_BALANCE = BigInt(MIN_L2) * 7n;
/** One unit short of it. */
const POORER = 0xb01n;

const dir = mkdtempSync(join(tmpdir(), 'cairn-executor-test-'));
let ws: WorldState;
let nullifierSeed = 0x100_000n;
const fresh = () => nullifierSeed++;

/** The genesis contracts: public calls to the protocol contracts run their real bytecode. */
let genesis: PublicContracts;

before(async () => {
  genesis = await genesisPublicContracts();
  ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisPublicData: [
      ...devAccountsGenesisData(accounts),
      { slot: feeJuiceBalanceSlot(POOR), value: POOR_BALANCE },
      { slot: feeJuiceBalanceSlot(POORER), value: POOR_BALANCE - 1n },
    ],
    genesisBlockHash: genesisBlockHashOf,
  });
});
after(async () => {
  await ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const globals = (gasFees: GasFees = { feePerDaGas: 0n, feePerL2Gas: 7n }, feeRecipient = FEE_RECIPIENT) =>
  ({
    ...emptyGlobalVariables(),
    chainId: 31337n,
    version: 1n,
    blockNumber: 1,
    slotNumber: 1,
    timestamp: 1_700_000_000n,
    gasFees,
    feeRecipient,
  }) satisfies GlobalVariables;

const spec = (over: Partial<TxSpec> = {}): TxSpec => ({
  feePayer: alice,
  anchorBlockHeader: emptyBlockHeader(),
  chainId: 31337,
  version: 1,
  expirationTimestamp: 2n ** 40n,
  maxFeesPerGas: { feePerDaGas: 100n, feePerL2Gas: 100n },
  protocolNullifier: fresh(),
  ...over,
});

const balanceOf = (reader: WorldStateFork, owner: Fr) => readPublicData(reader, feeJuiceBalanceSlot(owner));

/** Executes and applies one tx on `fork`. */
function run(
  fork: WorldStateFork,
  over: Partial<TxSpec> = {},
  g: GlobalVariables = globals(),
  options?: { skipFeeEnforcement?: boolean },
): TxExecutionResult & { tx: Tx } {
  const { tx, hash } = buildTx(spec(over));
  const result = executeTx(fork, tx, hash, g, { contracts: genesis, ...options });
  assert.equal(result.txHash, hash);
  assert.equal(result.effect.txHash, hash);
  applyTxEffect(fork, result.effect);
  return { ...result, tx };
}

/** The public gas `calls` use on a fresh fork: the bytecode's own figure, which the golden AVM
 * vectors pin to the reference's; the tests here check how the executor bills and limits it. */
function publicGasOf(calls: TxSpec['publicCalls']): { daGas: number; l2Gas: number } {
  return run(ws.fork(), { publicCalls: calls }).gasUsed.publicGas;
}

const rejects = (fn: () => unknown, reason: string | RegExp) =>
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof TxExecutionError, `expected a TxExecutionError, got ${err}`);
    if (typeof reason === 'string') assert.equal(err.reason, reason);
    else assert.match(err.reason, reason);
    assert.equal(err.message, err.reason);
    return true;
  });

const increaseCall = (to: Fr, amount: bigint, over: Record<string, unknown> = {}) => ({
  contractAddress: FEE_JUICE,
  signature: INCREASE,
  args: [to, amount],
  msgSender: FEE_JUICE,
  ...over,
});
/** Fee Juice's views, which the real contract runs only in a static call. */
const balanceCall = (owner: Fr, over: Record<string, unknown> = {}) => ({
  contractAddress: FEE_JUICE,
  signature: BALANCE_OF,
  args: [owner],
  isStaticCall: true,
  ...over,
});
const checkBalanceCall = (limit: bigint, over: Record<string, unknown> = {}) => ({
  contractAddress: FEE_JUICE,
  signature: CHECK_BALANCE,
  args: [limit],
  isStaticCall: true,
  ...over,
});
const failingCall = (over: Record<string, unknown> = {}) => ({
  contractAddress: UNSUPPORTED,
  selector: 1,
  ...over,
});

describe('executeTx: fees', () => {
  test('a private tx pays billed gas × (fee + priority fee) from the payer to the fee recipient', () => {
    const fork = ws.fork();
    const r = run(
      fork,
      {
        noteHashes: [0x42n],
        maxFeesPerGas: { feePerDaGas: 5n, feePerL2Gas: 100n },
        maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
      },
      globals({ feePerDaGas: 2n, feePerL2Gas: 7n }),
    );
    // Gas: DA 96 + 2*32 = 160; L2 440000 + 16000 + 9200 = 465200. Effective fees: 3 and 9.
    const gas = { daGas: 160, l2Gas: 465_200 };
    assert.deepEqual(r.tx.data.gasUsed, gas);
    assert.deepEqual(r.gasUsed, {
      totalGas: gas,
      teardownGas: { daGas: 0, l2Gas: 0 },
      publicGas: { daGas: 0, l2Gas: 0 },
      billedGas: gas,
    });
    const fee = 160n * 3n + 465_200n * 9n;
    assert.equal(r.effect.transactionFee, fee);
    assert.equal(r.effect.revertCode, RevertCode.OK);
    assert.equal(r.revertReason, undefined);
    assert.deepEqual(r.effect.publicDataWrites, [
      { leafSlot: feeJuiceBalanceSlot(alice), value: DEV_ACCOUNT_BALANCE - fee },
      { leafSlot: feeJuiceBalanceSlot(FEE_RECIPIENT), value: fee },
    ]);
    assert.equal(balanceOf(fork, alice), DEV_ACCOUNT_BALANCE - fee);
    assert.equal(balanceOf(fork, FEE_RECIPIENT), fee);
    // The committed state is untouched.
    assert.equal(balanceOf(ws.at(0) as WorldStateFork, alice), DEV_ACCOUNT_BALANCE);
  });

  test('the effective fee per gas is capped by the max fee per gas', () => {
    const fork = ws.fork();
    const r = run(
      fork,
      {
        maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 8n },
        maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
      },
      globals({ feePerDaGas: 2n, feePerL2Gas: 7n }),
    );
    // DA: min(2, 2 + 1) = 2; L2: min(8, 7 + 2) = 8.
    const fee = BigInt(MIN_DA) * 2n + BigInt(MIN_L2) * 8n;
    assert.equal(r.effect.transactionFee, fee);
    assert.equal(balanceOf(fork, alice), DEV_ACCOUNT_BALANCE - fee);
    assert.equal(balanceOf(fork, FEE_RECIPIENT), fee);
  });

  test('fees add up at the recipient over several txs; a payer that is the recipient keeps its balance', () => {
    const fork = ws.fork();
    const a = run(fork, { feePayer: alice });
    const b = run(fork, { feePayer: bob, noteHashes: [1n, 2n] });
    assert.equal(balanceOf(fork, FEE_RECIPIENT), a.effect.transactionFee + b.effect.transactionFee);
    const c = run(fork, { feePayer: carol }, globals(undefined, carol));
    assert.ok(c.effect.transactionFee > 0n);
    assert.equal(balanceOf(fork, carol), DEV_ACCOUNT_BALANCE);
  });

  test('public calls are billed at the gas they use, and teardown at its limit', () => {
    const fork = ws.fork();
    const read = publicGasOf([balanceCall(bob)]);
    assert.ok(read.l2Gas > 0, 'a call costs the gas of its instructions');
    assert.equal(read.daGas, 0, 'a read publishes nothing');
    const r = run(fork, {
      feePayer: bob,
      publicCalls: [balanceCall(bob), balanceCall(bob, { phase: 'teardown' })],
    });
    const priv = r.tx.data.gasUsed;
    const view = txView(r.tx);
    assert.deepEqual(priv, computePrivateGasUsed([view.nonRevertible, view.revertible], true));
    assert.equal(priv.l2Gas, 540_000 + 16_000);
    assert.deepEqual(r.gasUsed.publicGas, { daGas: 0, l2Gas: 2 * read.l2Gas });
    assert.deepEqual(r.gasUsed.teardownGas, read);
    assert.deepEqual(r.gasUsed.totalGas, { daGas: priv.daGas, l2Gas: priv.l2Gas + 2 * read.l2Gas });
    const billed = {
      daGas: priv.daGas + PUBLIC_CALL_GAS_ALLOWANCE.daGas,
      l2Gas: priv.l2Gas + read.l2Gas + PUBLIC_CALL_GAS_ALLOWANCE.l2Gas,
    };
    assert.deepEqual(r.gasUsed.billedGas, billed);
    assert.equal(r.effect.transactionFee, BigInt(billed.l2Gas) * 7n);
    assert.equal(balanceOf(fork, bob), DEV_ACCOUNT_BALANCE - r.effect.transactionFee);
  });

  test('a public write costs 64 DA gas (its slot and value)', () => {
    const fork = ws.fork();
    const r = run(fork, { publicCalls: [increaseCall(0x77n, 10n)] });
    assert.equal(r.gasUsed.publicGas.daGas, 64);
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x77n)), 10n);
  });

  test('a payer with exactly the fee can pay it; one unit short cannot', () => {
    const fork = ws.fork();
    const r = run(fork, { feePayer: POOR });
    assert.equal(r.effect.transactionFee, POOR_BALANCE);
    assert.equal(balanceOf(fork, POOR), 0n);
    const again = buildTx(spec({ feePayer: POOR }));
    rejects(() => executeTx(fork, again.tx, again.hash, globals()), 'Insufficient fee payer balance');
    const short = buildTx(spec({ feePayer: POORER }));
    rejects(() => executeTx(fork, short.tx, short.hash, globals()), 'Insufficient fee payer balance');
    const none = buildTx(spec({ feePayer: UNFUNDED }));
    rejects(() => executeTx(fork, none.tx, none.hash, globals()), 'Insufficient fee payer balance');
  });

  test('a setup claim funds the fee of the same tx', () => {
    const fork = ws.fork();
    const payer = 0xc1a1n;
    const claim = 10n ** 9n;
    const r = run(fork, { feePayer: payer, publicCalls: [increaseCall(payer, claim, { phase: 'setup' })] });
    assert.ok(r.effect.transactionFee > 0n);
    assert.equal(balanceOf(fork, payer), claim - r.effect.transactionFee);
    assert.deepEqual(r.effect.publicDataWrites, [
      { leafSlot: feeJuiceBalanceSlot(payer), value: claim - r.effect.transactionFee },
      { leafSlot: feeJuiceBalanceSlot(FEE_RECIPIENT), value: r.effect.transactionFee },
    ]);
  });

  test('skipFeeEnforcement charges nothing and does not need a balance', () => {
    const fork = ws.fork();
    const r = run(fork, { feePayer: UNFUNDED }, globals(), { skipFeeEnforcement: true });
    assert.equal(r.effect.transactionFee, 0n);
    assert.deepEqual(r.effect.publicDataWrites, []);
    const r2 = run(fork, { feePayer: alice }, globals(), { skipFeeEnforcement: true });
    assert.equal(r2.effect.transactionFee, 0n);
    assert.equal(balanceOf(fork, alice), DEV_ACCOUNT_BALANCE);
    assert.equal(balanceOf(fork, FEE_RECIPIENT), 0n);
  });
});

describe('executeTx: txs that cannot be included', () => {
  test('an existing nullifier throws (genesis prefill and an earlier tx on the fork)', () => {
    const fork = ws.fork();
    const a = buildTx(spec({ nullifiers: [5n] }));
    rejects(() => executeTx(fork, a.tx, a.hash, globals()), 'Existing nullifier');
    const b = buildTx(spec({ protocolNullifier: 127n }));
    rejects(() => executeTx(fork, b.tx, b.hash, globals()), 'Existing nullifier');
    const n = fresh();
    run(fork, { nullifiers: [n] });
    const c = buildTx(spec({ nullifiers: [n] }));
    rejects(() => executeTx(fork, c.tx, c.hash, globals()), 'Existing nullifier');
    // In the committed state it is still new.
    const committed = ws.fork();
    executeTx(committed, c.tx, c.hash, globals());
  });

  test('a nullifier twice in the tx throws', () => {
    const fork = ws.fork();
    const n = fresh();
    const a = buildTx(spec({ nullifiers: [n, n] }));
    rejects(() => executeTx(fork, a.tx, a.hash, globals()), 'Duplicate nullifier in tx');
    const m = fresh();
    const b = buildTx(spec({ protocolNullifier: m, nullifiers: [m] }));
    rejects(() => executeTx(fork, b.tx, b.hash, globals()), 'Duplicate nullifier in tx');
  });

  test('calldata that does not match the calls in number throws', () => {
    const fork = ws.fork();
    const { tx, hash } = buildTx(spec({ publicCalls: [balanceCall(1n)] }));
    rejects(
      () => executeTx(fork, { ...tx, publicFunctionCalldata: [] }, hash, globals()),
      'Wrong number of calldata for public calls',
    );
  });

  test('a failing setup call throws', () => {
    const fork = ws.fork();
    for (const call of [
      failingCall({ phase: 'setup' }),
      // Only Fee Juice itself may call _increase_public_balance.
      increaseCall(alice, 1n, { phase: 'setup', msgSender: alice }),
    ]) {
      const { tx, hash } = buildTx(spec({ publicCalls: [call] }));
      rejects(() => executeTx(fork, tx, hash, globals()), /^Setup call reverted: /);
    }
  });
});

describe('executeTx: reverts', () => {
  const sideEffects = (): Partial<TxSpec> => ({
    nonRevertible: {
      noteHashes: [0xa1n],
      nullifiers: [0xa2_0000n + fresh()],
      privateLogs: [[0xa3n]],
      l2ToL1Msgs: [{ recipient: RECIPIENT_L1, content: 0xa4n, sender: 0xa5n }],
    },
    noteHashes: [0xb1n],
    nullifiers: [0xb2_0000n + fresh()],
    privateLogs: [[0xb3n, 0xb4n]],
    l2ToL1Msgs: [{ recipient: RECIPIENT_L1, content: 0xb4n, sender: 0xb5n }],
    contractClassLogs: [{ contractAddress: 3n, fields: [0xb6n] }],
  });

  test('without a revert, both parts go into the effect; revertible note hashes get their nonces', () => {
    const fork = ws.fork();
    const r = run(fork, { ...sideEffects(), publicCalls: [increaseCall(0x5150n, 1000n)] });
    const d = txView(r.tx);
    assert.equal(r.effect.revertCode, RevertCode.OK);
    // The non-revertible one is unique already; the revertible one comes siloed and is the tx's
    // second note hash: nonce = hash(first nullifier, 1), as the reference's public processor does.
    const nonce = poseidon2HashWithSeparator([d.nonRevertible.nullifiers[0]!, 1n], NOTE_HASH_NONCE_SEPARATOR);
    assert.deepEqual(r.effect.noteHashes, [
      0xa1n,
      poseidon2HashWithSeparator([nonce, 0xb1n], UNIQUE_NOTE_HASH_SEPARATOR),
    ]);
    assert.deepEqual(r.effect.nullifiers, [...d.nonRevertible.nullifiers, ...d.revertible.nullifiers]);
    assert.deepEqual(r.effect.privateLogs, [...d.nonRevertible.privateLogs, ...d.revertible.privateLogs]);
    assert.equal(r.effect.l2ToL1Msgs.length, 2);
    assert.equal(r.effect.contractClassLogs.length, 1);
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5150n)), 1000n);
  });

  test('a failing app-logic call reverts: revertible effects and app writes dropped, fee still charged', () => {
    const fork = ws.fork();
    const credited = 0x5151n;
    const r = run(fork, {
      ...sideEffects(),
      publicCalls: [increaseCall(credited, 1000n), failingCall()],
    });
    const d = txView(r.tx);
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.match(r.revertReason!, /^App logic reverted: no bytecode to run at 0x999 \(not-deployed\)/);
    assert.deepEqual(r.effect.noteHashes, [0xa1n]);
    assert.deepEqual(r.effect.nullifiers, d.nonRevertible.nullifiers);
    assert.deepEqual(r.effect.privateLogs, d.nonRevertible.privateLogs);
    assert.deepEqual(r.effect.l2ToL1Msgs, [
      l2ToL1MessageLeaf({
        sender: 0xa5n,
        recipient: RECIPIENT_L1,
        content: 0xa4n,
        rollupVersion: 1n,
        chainId: 31337n,
      }),
    ]);
    assert.deepEqual(r.effect.contractClassLogs, []);
    // The credit of the first (successful) app call is rolled back.
    const creditedSlot = feeJuiceBalanceSlot(credited);
    assert.ok(!r.effect.publicDataWrites.some((w) => w.leafSlot === creditedSlot));
    assert.equal(readPublicData(fork, creditedSlot), 0n);
    // The fee: private gas + both calls' gas (the rolled-back write included), at 7 per L2 gas.
    // A call to a contract that does not exist halts and consumes all the gas it was given: all
    // that app logic had left.
    const settings = r.tx.data.constants.txContext.gasSettings;
    const used = {
      daGas: settings.gasLimits.daGas - settings.teardownGasLimits.daGas - d.gasUsed.daGas,
      l2Gas: settings.gasLimits.l2Gas - settings.teardownGasLimits.l2Gas - d.gasUsed.l2Gas,
    };
    assert.deepEqual(r.gasUsed.publicGas, used);
    const billed = r.gasUsed.billedGas;
    assert.deepEqual(billed, {
      daGas: d.gasUsed.daGas + used.daGas,
      l2Gas: d.gasUsed.l2Gas + used.l2Gas,
    });
    assert.equal(r.effect.transactionFee, BigInt(billed.l2Gas) * 7n);
    assert.deepEqual(r.effect.publicDataWrites, [
      { leafSlot: feeJuiceBalanceSlot(alice), value: DEV_ACCOUNT_BALANCE - r.effect.transactionFee },
      { leafSlot: feeJuiceBalanceSlot(FEE_RECIPIENT), value: r.effect.transactionFee },
    ]);
    // The revertible nullifier is not in the tree: a later tx may use it.
    assert.equal(fork.findLowLeaf(TreeId.NULLIFIER, d.revertible.nullifiers[0]!).alreadyPresent, false);
    assert.equal(fork.findLowLeaf(TreeId.NULLIFIER, d.nonRevertible.nullifiers[0]!).alreadyPresent, true);
  });

  test('setup writes survive an app-logic revert', () => {
    const fork = ws.fork();
    const r = run(fork, {
      publicCalls: [increaseCall(0x5152n, 5n, { phase: 'setup' }), increaseCall(0x5153n, 6n), failingCall()],
    });
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5152n)), 5n);
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5153n)), 0n);
  });

  test('a failing teardown reverts app logic too', () => {
    const fork = ws.fork();
    const r = run(fork, {
      ...sideEffects(),
      publicCalls: [increaseCall(0x5154n, 1000n), failingCall({ phase: 'teardown' })],
    });
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.match(r.revertReason!, /^Teardown reverted: /);
    assert.deepEqual(r.effect.noteHashes, [0xa1n]);
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5154n)), 0n);
    assert.ok(r.effect.transactionFee > 0n);
    assert.equal(balanceOf(fork, alice), DEV_ACCOUNT_BALANCE - r.effect.transactionFee);
  });

  test('when app logic reverts, the reason is app logic even if teardown fails too', () => {
    const fork = ws.fork();
    const r = run(fork, { publicCalls: [failingCall(), failingCall({ phase: 'teardown' })] });
    assert.match(r.revertReason!, /^App logic reverted: /);
  });

  test('a failing teardown is billed at its gas limit, not at its limit plus its start-up gas', () => {
    const fork = ws.fork();
    const r = run(fork, { publicCalls: [failingCall({ phase: 'teardown' })] });
    const priv = r.tx.data.gasUsed;
    assert.deepEqual(r.gasUsed.billedGas, {
      daGas: priv.daGas + PUBLIC_CALL_GAS_ALLOWANCE.daGas,
      l2Gas: priv.l2Gas + PUBLIC_CALL_GAS_ALLOWANCE.l2Gas,
    });
  });

  test('a static call that writes reverts', () => {
    const fork = ws.fork();
    const r = run(fork, { publicCalls: [increaseCall(0x5155n, 1n, { isStaticCall: true })] });
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.equal(r.revertReason, 'App logic reverted: SSTORE is not allowed in a static call');
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5155n)), 0n);
    // A static read is fine.
    const ok = run(fork, {
      publicCalls: [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [bob], isStaticCall: true }],
    });
    assert.equal(ok.effect.revertCode, RevertCode.OK);
  });

  test('app logic runs out of gas where the teardown gas limit begins', () => {
    const fork = ws.fork();
    const { tx } = buildTx(spec({ publicCalls: [increaseCall(0x5156n, 1n)] }));
    const used = tx.data.gasUsed;
    const call = publicGasOf([increaseCall(0x5156n, 1n)]);
    // Room for the private part plus one L2 gas less than the call needs.
    const r = run(fork, {
      publicCalls: [increaseCall(0x5156n, 1n)],
      gasLimits: { daGas: used.daGas + call.daGas, l2Gas: used.l2Gas + call.l2Gas - 1 },
    });
    assert.equal(r.revertReason, 'App logic reverted: out of L2 gas');
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5156n)), 0n);
    const fits = run(fork, {
      publicCalls: [increaseCall(0x5156n, 1n)],
      gasLimits: { daGas: used.daGas + call.daGas, l2Gas: used.l2Gas + call.l2Gas },
    });
    assert.equal(fits.effect.revertCode, RevertCode.OK);
    // The teardown gas limit is reserved even without a teardown call.
    const teardownGasLimits = { daGas: 0, l2Gas: 10_000 };
    const reserved = run(fork, {
      publicCalls: [increaseCall(0x5156n, 1n)],
      teardownGasLimits,
      gasLimits: { daGas: used.daGas + call.daGas, l2Gas: used.l2Gas + call.l2Gas + 9_999 },
    });
    assert.equal(reserved.revertReason, 'App logic reverted: out of L2 gas');
    const room = run(fork, {
      publicCalls: [increaseCall(0x5156n, 1n)],
      teardownGasLimits,
      gasLimits: { daGas: used.daGas + call.daGas, l2Gas: used.l2Gas + call.l2Gas + 10_000 },
    });
    assert.equal(room.effect.revertCode, RevertCode.OK);
  });

  test('a teardown over its own gas limit reverts, and takes app logic with it', () => {
    const fork = ws.fork();
    const teardown = balanceCall(1n, { phase: 'teardown' });
    const read = publicGasOf([balanceCall(1n)]);
    const r = run(fork, {
      publicCalls: [increaseCall(0x5157n, 1n), teardown],
      teardownGasLimits: { daGas: 0, l2Gas: read.l2Gas - 1 },
    });
    assert.equal(r.revertReason, 'Teardown reverted: out of L2 gas');
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5157n)), 0n);
    const ok = run(fork, {
      publicCalls: [increaseCall(0x5157n, 1n), teardown],
      teardownGasLimits: { daGas: 0, l2Gas: read.l2Gas },
    });
    assert.equal(ok.effect.revertCode, RevertCode.OK);
    assert.equal(readPublicData(fork, feeJuiceBalanceSlot(0x5157n)), 1n);
  });
});

describe('executeTx: protocol contract calls and effect contents', () => {
  test('balance_of_public returns the balance in publicReturnValues', () => {
    const fork = ws.fork();
    const r = run(fork, {
      publicCalls: [
        balanceCall(bob),
        balanceCall(UNFUNDED),
        increaseCall(UNFUNDED, 42n),
        balanceCall(UNFUNDED),
      ],
    });
    assert.deepEqual(r.publicReturnValues, [
      { values: [DEV_ACCOUNT_BALANCE] },
      { values: [0n] },
      { values: [] },
      { values: [42n] },
    ]);
  });

  test('a failed call keeps its place in publicReturnValues, with no values', () => {
    const fork = ws.fork();
    const r = run(fork, {
      publicCalls: [balanceCall(bob), failingCall(), balanceCall(bob, { phase: 'teardown' })],
    });
    assert.deepEqual(r.publicReturnValues, [
      { values: [DEV_ACCOUNT_BALANCE] },
      { values: [] },
      { values: [DEV_ACCOUNT_BALANCE] },
    ]);
  });

  test('check_balance passes at the balance and reverts when the caller has less', () => {
    const fork = ws.fork();
    const ok = run(fork, {
      feePayer: carol,
      publicCalls: [checkBalanceCall(DEV_ACCOUNT_BALANCE)],
    });
    assert.equal(ok.effect.revertCode, RevertCode.OK);
    const low = run(fork, {
      feePayer: bob,
      publicCalls: [checkBalanceCall(DEV_ACCOUNT_BALANCE + 1n)],
    });
    assert.equal(low.effect.revertCode, RevertCode.REVERTED);
    assert.match(low.revertReason!, /^App logic reverted: Assertion failed: Balance too low \(revert data/);
    // The checked account is the msg sender.
    const other = run(fork, {
      feePayer: bob,
      publicCalls: [checkBalanceCall(1n, { msgSender: UNFUNDED })],
    });
    assert.match(other.revertReason!, /^App logic reverted: Assertion failed: Balance too low/);
  });

  test('L2-to-L1 messages become message leaves with the globals’ version and chain id', () => {
    const fork = ws.fork();
    const g = { ...globals(), chainId: 5n, version: 77n };
    const r = run(
      fork,
      {
        nonRevertible: { l2ToL1Msgs: [{ recipient: RECIPIENT_L1, content: 1n, sender: 2n }] },
        l2ToL1Msgs: [
          { recipient: `0x${'AB'.repeat(20)}`, content: 3n, sender: 4n },
          { recipient: RECIPIENT_L1, content: 5n, sender: 6n },
        ],
      },
      g,
    );
    const leaf = (sender: Fr, recipient: string, content: Fr) =>
      l2ToL1MessageLeaf({ sender, recipient, content, rollupVersion: 77n, chainId: 5n });
    assert.deepEqual(r.effect.l2ToL1Msgs, [
      leaf(2n, RECIPIENT_L1, 1n),
      leaf(4n, `0x${'ab'.repeat(20)}`, 3n),
      leaf(6n, RECIPIENT_L1, 5n),
    ]);
    // The tx's own chain id / version do not enter the leaf.
    assert.notEqual(
      r.effect.l2ToL1Msgs[0],
      l2ToL1MessageLeaf({
        sender: 2n,
        recipient: RECIPIENT_L1,
        content: 1n,
        rollupVersion: 1n,
        chainId: 31337n,
      }),
    );
  });

  test('contract class logs are carried into the effect with their fields and length', () => {
    // A tx has at most one class log (MAX_CONTRACT_CLASS_LOGS_PER_TX), in either part.
    const fork = ws.fork();
    const padded = (fields: Fr[]) => [...fields, ...new Array(3023 - fields.length).fill(0n)];
    const nonRevertibleLog = { contractAddress: 3n, fields: { fields: padded([1n, 2n]) }, emittedLength: 2 };
    const revertibleLog = { contractAddress: 2n, fields: { fields: padded([7n, 8n, 9n]) }, emittedLength: 3 };
    const priv = run(fork, { contractClassLogs: [{ contractAddress: 2n, fields: [7n, 8n, 9n] }] });
    assert.deepEqual(priv.effect.contractClassLogs, [revertibleLog]);
    const ok = run(fork, {
      contractClassLogs: [{ contractAddress: 2n, fields: [7n, 8n, 9n] }],
      publicCalls: [increaseCall(0x5159n, 1n)],
    });
    assert.equal(ok.effect.revertCode, RevertCode.OK);
    assert.deepEqual(ok.effect.contractClassLogs, [revertibleLog]);
    // On a revert only a non-revertible one is kept.
    const kept = run(fork, {
      nonRevertible: { contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }] },
      publicCalls: [failingCall()],
    });
    assert.equal(kept.effect.revertCode, RevertCode.REVERTED);
    assert.deepEqual(kept.effect.contractClassLogs, [nonRevertibleLog]);
    const dropped = run(fork, {
      contractClassLogs: [{ contractAddress: 2n, fields: [7n, 8n, 9n] }],
      publicCalls: [failingCall()],
    });
    assert.equal(dropped.effect.revertCode, RevertCode.REVERTED);
    assert.deepEqual(dropped.effect.contractClassLogs, []);
    assert.deepEqual(dropped.effect.publicLogs, []);
  });

  test('executeTx only reads the world state', () => {
    const fork = ws.fork();
    const before = fork.snapshot(TreeId.PUBLIC_DATA);
    const nullifiersBefore = fork.snapshot(TreeId.NULLIFIER);
    const { tx, hash } = buildTx(spec({ publicCalls: [increaseCall(0x5158n, 3n)], noteHashes: [1n] }));
    executeTx(fork, tx, hash, globals());
    assert.deepEqual(fork.snapshot(TreeId.PUBLIC_DATA), before);
    assert.deepEqual(fork.snapshot(TreeId.NULLIFIER), nullifiersBefore);
  });
});

describe('executeTx: fee payment against a balance model (property)', () => {
  test('balances follow payer -= fee, recipient += fee and the total supply is conserved', () => {
    const payers = [alice, bob, carol];
    const read = publicGasOf([balanceCall(alice)]).l2Gas;
    const txArb = fc.record({
      payer: fc.integer({ min: 0, max: 2 }),
      noteHashes: fc.integer({ min: 0, max: 3 }),
      publicCall: fc.boolean(),
      maxDa: fc.bigInt({ min: 0n, max: 10n }),
      maxL2: fc.bigInt({ min: 0n, max: 40n }),
      prioDa: fc.bigInt({ min: 0n, max: 5n }),
      prioL2: fc.bigInt({ min: 0n, max: 20n }),
    });
    fc.assert(
      fc.property(
        fc.record({
          gasDa: fc.bigInt({ min: 0n, max: 5n }),
          gasL2: fc.bigInt({ min: 0n, max: 20n }),
          recipient: fc.constantFrom(FEE_RECIPIENT, alice, 0xfee1n),
        }),
        fc.array(txArb, { minLength: 1, maxLength: 6 }),
        ({ gasDa, gasL2, recipient }, txs) => {
          const fork = ws.fork();
          const g = globals({ feePerDaGas: gasDa, feePerL2Gas: gasL2 }, recipient);
          const model = new Map<Fr, bigint>([
            [alice, DEV_ACCOUNT_BALANCE],
            [bob, DEV_ACCOUNT_BALANCE],
            [carol, DEV_ACCOUNT_BALANCE],
          ]);
          if (!model.has(recipient)) model.set(recipient, 0n);
          const supply = () => [...model.values()].reduce((a, b) => a + b, 0n);
          const total = supply();
          for (const t of txs) {
            const payer = payers[t.payer]!;
            const r = run(
              fork,
              {
                feePayer: payer,
                noteHashes: Array.from({ length: t.noteHashes }, (_, i) => BigInt(i + 1)),
                maxFeesPerGas: { feePerDaGas: t.maxDa, feePerL2Gas: t.maxL2 },
                maxPriorityFeesPerGas: { feePerDaGas: t.prioDa, feePerL2Gas: t.prioL2 },
                publicCalls: t.publicCall ? [balanceCall(payer)] : [],
              },
              g,
            );
            // The model's own gas and fee arithmetic.
            const l2 = (t.publicCall ? 540_000 + read : 440_000) + 16_000 + t.noteHashes * 9_200;
            const da = 96 + (1 + t.noteHashes) * 32;
            const min = (a: bigint, b: bigint) => (a < b ? a : b);
            const fee =
              BigInt(da) * min(t.maxDa, gasDa + t.prioDa) + BigInt(l2) * min(t.maxL2, gasL2 + t.prioL2);
            assert.equal(r.effect.transactionFee, fee);
            model.set(payer, model.get(payer)! - fee);
            model.set(recipient, model.get(recipient)! + fee);
            for (const [owner, balance] of model) assert.equal(balanceOf(fork, owner), balance);
            assert.equal(supply(), total);
          }
          const onChain = [...model.keys()].reduce((sum, owner) => sum + balanceOf(fork, owner), 0n);
          assert.equal(onChain, total);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('protocol contracts on the AVM', () => {
  test('the Fee Juice balance slot is the map slot of the owner in the balances map at slot 1', () => {
    const owner = 0x1234n;
    const storageSlot = refPoseidon2Hash([BigInt(PUBLIC_STORAGE_MAP_SLOT_SEPARATOR), 1n, owner]);
    assert.equal(mapStorageSlot(FEE_JUICE_BALANCES_SLOT, owner), storageSlot);
    const leaf = refPoseidon2Hash([BigInt(PUBLIC_LEAF_SLOT_SEPARATOR), FEE_JUICE, storageSlot]);
    assert.equal(publicDataLeafSlot(FEE_JUICE, storageSlot), leaf);
    assert.equal(feeJuiceBalanceSlot(owner), leaf);
    assert.notEqual(feeJuiceBalanceSlot(owner + 1n), leaf);
  });

  test("only cairn's public claim runs natively; every other call to Fee Juice runs its bytecode", () => {
    const claim = BigInt(functionSelector('claim((Field),u128,Field,Field)'));
    assert.equal(isNativeCall(FEE_JUICE, [claim, 1n, 2n, 3n, 4n]), true);
    for (const signature of [INCREASE, BALANCE_OF, CHECK_BALANCE]) {
      assert.equal(isNativeCall(FEE_JUICE, [BigInt(functionSelector(signature)), 1n]), false);
    }
    assert.equal(isNativeCall(2n, [claim]), false);
    assert.equal(isNativeCall(FEE_JUICE, []), false);
  });

  test("_increase_public_balance credits when Fee Juice calls it and reverts with the contract's message otherwise", () => {
    const fork = ws.fork();
    const credited = run(fork, { publicCalls: [increaseCall(0x99n, 5n), increaseCall(0x99n, 6n)] });
    assert.equal(credited.effect.revertCode, RevertCode.OK);
    assert.equal(balanceOf(fork, 0x99n), 11n);
    const foreign = run(fork, { publicCalls: [increaseCall(0x99n, 1n, { msgSender: 0x99n })] });
    assert.equal(foreign.effect.revertCode, RevertCode.REVERTED);
    assert.match(
      foreign.revertReason!,
      /Function _increase_public_balance can only be called by the same contract/,
    );
    const u128Max = (1n << 128n) - 1n;
    run(fork, { publicCalls: [increaseCall(0x98n, u128Max)] });
    const overflow = run(fork, { publicCalls: [increaseCall(0x98n, 1n)] });
    assert.equal(overflow.effect.revertCode, RevertCode.REVERTED, 'a balance past u128 reverts');
    assert.equal(balanceOf(fork, 0x98n), u128Max);
    assert.equal(balanceOf(fork, 0x99n), 11n);
  });

  test('Fee Juice calls cost the gas of the golden vectors (the reference AVM on the same bytecode)', () => {
    // test/avm/vectors/protocol-contracts.json: balance_of_public 6,954 L2; check_balance 7,035;
    // _increase_public_balance 40,316 L2 and 64 DA (one write).
    assert.deepEqual(publicGasOf([balanceCall(alice)]), { daGas: 0, l2Gas: 6_954 });
    assert.deepEqual(publicGasOf([checkBalanceCall(1n)]), { daGas: 0, l2Gas: 7_035 });
    assert.deepEqual(publicGasOf([increaseCall(0x97n, 500n)]), { daGas: 64, l2Gas: 40_316 });
  });

  test('a write of the value a slot already holds is still a write of the tx (the reference squashes, drops none)', () => {
    const fork = ws.fork();
    const before = balanceOf(fork, bob);
    const r = run(fork, { feePayer: alice, publicCalls: [increaseCall(bob, 0n)] });
    assert.equal(r.effect.revertCode, RevertCode.OK);
    assert.deepEqual(r.effect.publicDataWrites[0], { leafSlot: feeJuiceBalanceSlot(bob), value: before });
    // An empty slot written with 0 is listed too (and costs the write's DA gas).
    const empty = run(fork, { feePayer: alice, publicCalls: [increaseCall(0x96n, 0n)] });
    assert.deepEqual(empty.effect.publicDataWrites[0], { leafSlot: feeJuiceBalanceSlot(0x96n), value: 0n });
    assert.equal(empty.gasUsed.publicGas.daGas, 64);
  });

  test('views revert unless called statically; unknown selectors revert at every protocol contract', () => {
    const fork = ws.fork();
    const view = run(fork, { publicCalls: [balanceCall(bob, { isStaticCall: false })] });
    assert.match(view.revertReason!, /Function balance_of_public can only be called statically/);
    for (const address of [FEE_JUICE, 2n, 3n]) {
      const r = run(fork, { publicCalls: [{ contractAddress: address, selector: 0x12345678 }] });
      assert.equal(r.effect.revertCode, RevertCode.REVERTED, `address ${address}`);
    }
  });
});

describe('public storage journal', () => {
  test('reads fall through to the world state; unwritten slots read 0', () => {
    const j = new PublicStateJournal(ws.at(0));
    assert.equal(j.read(feeJuiceBalanceSlot(alice)), DEV_ACCOUNT_BALANCE);
    assert.equal(j.read(feeJuiceBalanceSlot(UNFUNDED)), 0n);
    assert.equal(readPublicData(ws.at(0), feeJuiceBalanceSlot(UNFUNDED)), 0n);
    assert.deepEqual(j.effects(), []);
  });

  test('rollback to a mark undoes exactly the writes and logs since it', () => {
    const j = new PublicStateJournal(ws.at(0));
    const start = j.mark();
    const a = feeJuiceBalanceSlot(alice);
    j.write(1000n, 1n);
    j.write(a, 5n);
    j.emitLog({ contractAddress: 7n, fields: [1n] });
    const mark = j.mark();
    assert.equal(j.writesSince(mark), 0);
    j.write(a, 6n);
    j.write(2000n, 2n);
    j.write(2000n, 3n);
    j.emitLog({ contractAddress: 8n, fields: [2n, 3n] });
    assert.equal(j.writesSince(mark), 3);
    assert.equal(j.logFieldsSince(mark), 2);
    assert.deepEqual(
      j.logs().map((l) => l.contractAddress),
      [7n, 8n],
    );
    assert.equal(j.read(a), 6n);
    assert.deepEqual(j.effects(), [
      { leafSlot: 1000n, value: 1n },
      { leafSlot: a, value: 6n },
      { leafSlot: 2000n, value: 3n },
    ]);
    j.rollback(mark);
    assert.equal(j.writesSince(mark), 0);
    assert.deepEqual(j.logs(), [{ contractAddress: 7n, fields: [1n] }]);
    assert.equal(j.read(a), 5n);
    assert.equal(j.read(2000n), 0n);
    assert.deepEqual(j.effects(), [
      { leafSlot: 1000n, value: 1n },
      { leafSlot: a, value: 5n },
    ]);
    j.rollback(start);
    assert.equal(j.read(a), DEV_ACCOUNT_BALANCE);
    assert.deepEqual(j.effects(), []);
    assert.deepEqual(j.logs(), []);
  });
});

describe('dev accounts', () => {
  test('addresses are distinct, deterministic and derived from the index', () => {
    const five = devAccounts(5);
    assert.equal(new Set(five.map((a) => a.address)).size, 5);
    assert.deepEqual(devAccounts(5), five);
    assert.deepEqual(devAccounts(3), five.slice(0, 3));
    five.forEach((a, i) => {
      assert.equal(a.index, i);
      assert.equal(a.balance, 10n ** 24n);
      assert.equal(a.address, refPoseidon2Hash([0x44455641n, BigInt(i)]));
    });
    assert.deepEqual(devAccounts(0), []);
  });

  test('the genesis data puts each balance at feeJuiceBalanceSlot(address)', () => {
    const list = devAccounts(3);
    assert.deepEqual(
      devAccountsGenesisData(list),
      list.map((a) => ({ slot: feeJuiceBalanceSlot(a.address), value: DEV_ACCOUNT_BALANCE })),
    );
    const custom = devAccountsGenesisData([{ index: 9, address: 0x77n, balance: 3n }]);
    assert.deepEqual(custom, [{ slot: feeJuiceBalanceSlot(0x77n), value: 3n }]);
    // In the world state opened with it.
    for (const a of list)
      assert.equal(readPublicData(ws.at(0), feeJuiceBalanceSlot(a.address)), DEV_ACCOUNT_BALANCE);
  });
});
