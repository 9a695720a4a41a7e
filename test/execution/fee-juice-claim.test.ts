// Fee Juice's native claim((Field),u128,Field,Field): consuming a deposit the L1 portal sent as an
// L1-to-L2 message. The world state's block 1 (the first block of checkpoint 1) inserts the
// deposits at known indexes; txs built with feeJuiceClaimCall (setup) or as app-logic calls are
// executed on forks. Covers the credit, the message nullifier (after the tx's private ones), paying
// the tx's own fee from a setup claim, double claims (later block, same tx, own nullifier), every
// mismatch, a missing portal, rollback on revert — and the validator counting a setup claim for
// the fee payer toward the balance check.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT, RevertCode } from '../../src/core/block.js';
import { type BlockHeader, emptyGlobalVariables, type GlobalVariables } from '../../src/core/block-header.js';
import {
  type AllowedElement,
  DEFAULT_SETUP_ALLOW_LIST,
  FEE_JUICE_CLAIM,
  PROTOCOL_CONTRACT_ADDRESSES,
} from '../../src/core/constants.js';
import { FR_MODULUS, type Fr } from '../../src/core/field.js';
import { functionSelector } from '../../src/core/hash/selector.js';
import {
  computeSecretHash,
  feeJuiceDepositContent,
  l1ToL2MessageHash,
  l1ToL2MessageNullifier,
} from '../../src/core/l1-to-l2.js';
import { MAX_PROCESSABLE_L2_GAS, txFeeLimit } from '../../src/core/tx.js';
import { buildTx, feeJuiceClaimCall, type PublicCallSpec, type TxSpec } from '../../src/core/tx-builder.js';
import { applyTxEffect, buildBlock } from '../../src/execution/block-builder.js';
import {
  DEV_ACCOUNT_BALANCE,
  devAccounts,
  devAccountsGenesisData,
} from '../../src/execution/dev-accounts.js';
import {
  type ExecutionOptions,
  executeTx,
  TxExecutionError,
  type TxExecutionResult,
} from '../../src/execution/executor.js';
import { feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import { readPublicData } from '../../src/execution/public-storage.js';
import {
  DEV_PROOF_VERIFIER,
  TX_ERROR,
  TxValidator,
  type ValidationContext,
} from '../../src/mempool/validator.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId, type WorldStateReader } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';

const FEE_JUICE = PROTOCOL_CONTRACT_ADDRESSES.feeJuice;
const PORTAL = '0x1234567890AbcdEF1234567890aBcdef12345678';
const OTHER_PORTAL = `0x${'77'.repeat(20)}`;
const CHAIN_ID = 31337n;
const VERSION = 1n;
const FEE_RECIPIENT = 0xfee0n;
/** A contract cairn cannot execute: any call to it reverts. */
const UNSUPPORTED = 0x999n;

const [alice] = devAccounts(1).map((a) => a.address) as [Fr];

interface Deposit {
  to: Fr;
  amount: bigint;
  secret: Fr;
  leafIndex: bigint;
}

/** The leaf the inbox computes for a deposit from `portal` (as FeeJuicePortal.deposit sends it). */
const depositLeaf = (d: Deposit, portal = PORTAL, chainId = CHAIN_ID, version = VERSION): Fr =>
  l1ToL2MessageHash({
    sender: portal,
    chainId,
    recipient: FEE_JUICE,
    rollupVersion: version,
    content: feeJuiceDepositContent(d.to, d.amount),
    secretHash: computeSecretHash(d.secret),
    index: d.leafIndex,
  });
const nullifierOf = (d: Deposit) => l1ToL2MessageNullifier(FEE_JUICE, depositLeaf(d), d.secret);

/** A deposit to a fresh address, claimed by alice's txs in most tests. */
const D1: Deposit = { to: 0xabc1n, amount: 1_000_000n, secret: 0x5ec1n, leafIndex: 5n };
/** A deposit to an address with no Fee Juice, enough to pay its first tx's fee. */
const NEWCOMER = 0xabc2n;
const D2: Deposit = { to: NEWCOMER, amount: 10n ** 15n, secret: 0x5ec2n, leafIndex: 6n };
/** Claimed in block 2, which is committed. */
const D3: Deposit = { to: 0xabc3n, amount: 333n, secret: 0x5ec3n, leafIndex: 9n };
/** The last leaf of the group. */
const D4: Deposit = { to: 0xabc4n, amount: 44n, secret: 0x5ec4n, leafIndex: 1023n };
const EMPTY_INDEX = 7n;

const dir = mkdtempSync(join(tmpdir(), 'cairn-fee-juice-claim-'));
let ws: WorldState;
let anchor: BlockHeader;
let nullifierSeed = 0x10_000n;
const fresh = () => nullifierSeed++;

before(async () => {
  ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisPublicData: devAccountsGenesisData(devAccounts(1)),
    genesisBlockHash: genesisBlockHashOf,
  });
  anchor = genesisBlockOf(ws).header;
  // Block 1, the first of checkpoint 1, inserts the deposits (indexes 0..1023).
  const messages = new Array<Fr>(L1_TO_L2_MESSAGES_PER_CHECKPOINT).fill(0n);
  for (const d of [D1, D2, D3, D4]) messages[Number(d.leafIndex)] = depositLeaf(d);
  const fork = ws.fork();
  buildBlock(fork, {
    globalVariables: {
      ...emptyGlobalVariables(),
      blockNumber: 1,
      slotNumber: 1,
      chainId: CHAIN_ID,
      version: VERSION,
    },
    txEffects: [],
    checkpointNumber: 1,
    indexWithinCheckpoint: 0,
    l1ToL2Messages: messages,
    totalManaUsed: 0n,
  });
  await ws.commit(fork);
});
after(async () => {
  await ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const globals = (over: Partial<GlobalVariables> = {}): GlobalVariables => ({
  ...emptyGlobalVariables(),
  chainId: CHAIN_ID,
  version: VERSION,
  blockNumber: ws.latestBlockNumber + 1,
  slotNumber: ws.latestBlockNumber + 1,
  timestamp: 1_700_000_000n,
  gasFees: { feePerDaGas: 0n, feePerL2Gas: 7n },
  feeRecipient: FEE_RECIPIENT,
  ...over,
});

const spec = (over: Partial<TxSpec> = {}): TxSpec => ({
  feePayer: alice,
  anchorBlockHeader: anchor,
  chainId: Number(CHAIN_ID),
  version: Number(VERSION),
  expirationTimestamp: 2n ** 40n,
  maxFeesPerGas: { feePerDaGas: 100n, feePerL2Gas: 100n },
  protocolNullifier: fresh(),
  ...over,
});

const PORTAL_OPTIONS: ExecutionOptions = { feeJuicePortal: PORTAL };

/** Builds and executes a tx on `fork` (not applied). */
function exec(
  fork: WorldStateReader,
  over: Partial<TxSpec> = {},
  options: ExecutionOptions = PORTAL_OPTIONS,
  g: GlobalVariables = globals(),
): TxExecutionResult & { protocolNullifier: Fr } {
  const s = spec(over);
  const { tx, hash } = buildTx(s);
  return { ...executeTx(fork, tx, hash, g, options), protocolNullifier: s.protocolNullifier! };
}

const claimInSetup = (d: Deposit): PublicCallSpec => feeJuiceClaimCall(d);
const claimInApp = (d: Deposit, over: Partial<PublicCallSpec> = {}): PublicCallSpec => ({
  ...feeJuiceClaimCall(d),
  phase: 'app',
  ...over,
});
const balanceOf = (reader: WorldStateReader, owner: Fr) => readPublicData(reader, feeJuiceBalanceSlot(owner));

/** Asserts that executing throws a TxExecutionError whose reason matches. */
const rejects = (fn: () => unknown, reason: RegExp) =>
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof TxExecutionError, `expected a TxExecutionError, got ${err}`);
    assert.match(err.reason, reason);
    return true;
  });

/** Asserts an app-phase revert whose reason matches, with nothing of the claim left in the effect. */
function assertRevertedClaim(r: TxExecutionResult, reason: RegExp, d: Deposit): void {
  assert.equal(r.effect.revertCode, RevertCode.REVERTED);
  assert.match(r.revertReason ?? '', reason);
  assert.ok(!r.effect.nullifiers.includes(nullifierOf(d)), 'no claim nullifier');
  assert.ok(
    !r.effect.publicDataWrites.some((w) => w.leafSlot === feeJuiceBalanceSlot(d.to)),
    'no credit to the recipient',
  );
}

describe('the fixture', () => {
  test('block 1 holds the deposits at their indexes in the L1-to-L2 tree', () => {
    const reader = ws.at(1);
    assert.equal(
      reader.snapshot(TreeId.L1_TO_L2_MESSAGE).nextAvailableLeafIndex,
      L1_TO_L2_MESSAGES_PER_CHECKPOINT,
    );
    for (const d of [D1, D2, D3, D4]) {
      assert.equal(reader.getLeafValue(TreeId.L1_TO_L2_MESSAGE, Number(d.leafIndex)), depositLeaf(d));
    }
    assert.equal(reader.getLeafValue(TreeId.L1_TO_L2_MESSAGE, Number(EMPTY_INDEX)), 0n);
    assert.equal(balanceOf(reader, NEWCOMER), 0n);
    assert.equal(balanceOf(reader, D1.to), 0n);
    assert.equal(new Set([D1, D2, D3, D4].map(nullifierOf)).size, 4);
  });
});

describe('Fee Juice claim: success', () => {
  test('a setup claim credits the recipient and emits the message nullifier after the private ones', () => {
    const fork = ws.fork();
    const [n1, n2, n3] = [fresh(), fresh(), fresh()];
    const r = exec(fork, {
      nonRevertible: { nullifiers: [n1] },
      nullifiers: [n2, n3],
      publicCalls: [claimInSetup(D1)],
    });
    assert.equal(r.effect.revertCode, RevertCode.OK);
    assert.equal(r.revertReason, undefined);
    assert.deepEqual(r.effect.nullifiers, [r.protocolNullifier, n1, n2, n3, nullifierOf(D1)]);
    const fee = r.effect.transactionFee;
    assert.ok(fee > 0n);
    assert.deepEqual(r.effect.publicDataWrites, [
      { leafSlot: feeJuiceBalanceSlot(D1.to), value: D1.amount },
      { leafSlot: feeJuiceBalanceSlot(alice), value: DEV_ACCOUNT_BALANCE - fee },
      { leafSlot: feeJuiceBalanceSlot(FEE_RECIPIENT), value: fee },
    ]);
    applyTxEffect(fork, r.effect);
    assert.equal(balanceOf(fork, D1.to), D1.amount);
    assert.ok(fork.findLeaf(TreeId.NULLIFIER, nullifierOf(D1)) !== undefined);
    // The committed state is untouched.
    assert.equal(balanceOf(ws.at(ws.latestBlockNumber), D1.to), 0n);
  });

  test('an app-phase claim works too, and adds to an existing balance', () => {
    const fork = ws.fork();
    fork.writePublicData([{ slot: feeJuiceBalanceSlot(D4.to), value: 1000n }]);
    const r = exec(fork, { publicCalls: [claimInApp(D4)] });
    assert.equal(r.effect.revertCode, RevertCode.OK);
    assert.deepEqual(r.effect.nullifiers, [r.protocolNullifier, nullifierOf(D4)]);
    assert.deepEqual(r.effect.publicDataWrites[0], { leafSlot: feeJuiceBalanceSlot(D4.to), value: 1044n });
  });

  test('a fee payer with no balance pays its fee from a setup claim', () => {
    const fork = ws.fork();
    // Without the claim it cannot pay.
    rejects(() => exec(fork, { feePayer: NEWCOMER }), /^Insufficient fee payer balance$/);
    const r = exec(fork, { feePayer: NEWCOMER, publicCalls: [claimInSetup(D2)] });
    assert.equal(r.effect.revertCode, RevertCode.OK);
    const fee = r.effect.transactionFee;
    assert.ok(fee > 0n);
    assert.deepEqual(r.effect.publicDataWrites, [
      { leafSlot: feeJuiceBalanceSlot(NEWCOMER), value: D2.amount - fee },
      { leafSlot: feeJuiceBalanceSlot(FEE_RECIPIENT), value: fee },
    ]);
    applyTxEffect(fork, r.effect);
    assert.equal(balanceOf(fork, NEWCOMER), D2.amount - fee);
    assert.equal(balanceOf(fork, FEE_RECIPIENT), fee);
  });

  test('a payer whose claim is smaller than the fee cannot pay', () => {
    const small: Deposit = { ...D2, amount: 1n };
    const fork = ws.fork();
    fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, [depositLeaf({ ...small, leafIndex: 1024n })]);
    rejects(
      () => exec(fork, { feePayer: NEWCOMER, publicCalls: [claimInSetup({ ...small, leafIndex: 1024n })] }),
      /^Insufficient fee payer balance$/,
    );
  });
});

describe('Fee Juice claim: a message is consumed once', () => {
  test('claiming again in a later block: setup failure in setup, revert in app logic', async () => {
    const fork = ws.fork();
    const first = exec(fork, { publicCalls: [claimInSetup(D3)] });
    assert.equal(first.effect.revertCode, RevertCode.OK);
    buildBlock(fork, {
      globalVariables: globals(),
      txEffects: [first.effect],
      checkpointNumber: 1,
      indexWithinCheckpoint: 1,
      totalManaUsed: 0n,
    });
    await ws.commit(fork);
    assert.equal(ws.latestBlockNumber, 2);
    assert.equal(balanceOf(ws.at(2), D3.to), D3.amount);

    rejects(
      () => exec(ws.fork(), { publicCalls: [claimInSetup(D3)] }),
      /^Setup call reverted: the L1-to-L2 message was already consumed$/,
    );
    const again = exec(ws.fork(), { publicCalls: [claimInApp(D3)] });
    assertRevertedClaim(again, /^App logic reverted: the L1-to-L2 message was already consumed$/, D3);
    // Only the fee moved.
    assert.deepEqual(
      again.effect.publicDataWrites.map((w) => w.leafSlot),
      [feeJuiceBalanceSlot(alice), feeJuiceBalanceSlot(FEE_RECIPIENT)],
    );
  });

  test('twice in setup: the tx cannot be included', () => {
    rejects(
      () => exec(ws.fork(), { publicCalls: [claimInSetup(D1), claimInSetup(D1)] }),
      /^Setup call reverted: the L1-to-L2 message was already consumed$/,
    );
  });

  test('in setup and again in app logic: the second reverts, the first stands', () => {
    const r = exec(ws.fork(), { publicCalls: [claimInSetup(D1), claimInApp(D1)] });
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.match(r.revertReason!, /^App logic reverted: the L1-to-L2 message was already consumed$/);
    assert.deepEqual(
      r.effect.nullifiers.filter((n) => n === nullifierOf(D1)),
      [nullifierOf(D1)],
    );
    assert.deepEqual(r.effect.publicDataWrites[0], {
      leafSlot: feeJuiceBalanceSlot(D1.to),
      value: D1.amount,
    });
  });

  test('twice in app logic: the second reverts and takes the first with it', () => {
    const r = exec(ws.fork(), { publicCalls: [claimInApp(D1), claimInApp(D1)] });
    assertRevertedClaim(r, /^App logic reverted: the L1-to-L2 message was already consumed$/, D1);
    assert.deepEqual(r.effect.nullifiers, [r.protocolNullifier]);
  });

  test("a tx whose own private nullifier is the message's nullifier cannot claim it", () => {
    rejects(
      () =>
        exec(ws.fork(), {
          nonRevertible: { nullifiers: [nullifierOf(D1)] },
          publicCalls: [claimInSetup(D1)],
        }),
      /already consumed/,
    );
    const r = exec(ws.fork(), { nullifiers: [nullifierOf(D1)], publicCalls: [claimInApp(D1)] });
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.match(r.revertReason!, /already consumed/);
  });
});

describe('Fee Juice claim: the effect stays a valid block effect', () => {
  /**
   * Either the tx cannot be included (TxExecutionError), or its effect has distinct nullifiers,
   * at most 64 of them, and goes into a block.
   */
  function assertIncludableOrDropped(over: Partial<TxSpec>): void {
    const fork = ws.fork();
    let r: TxExecutionResult;
    try {
      r = exec(fork, over);
    } catch (err) {
      assert.ok(err instanceof TxExecutionError, `expected a TxExecutionError, got ${err}`);
      return;
    }
    assert.equal(new Set(r.effect.nullifiers).size, r.effect.nullifiers.length, 'distinct nullifiers');
    assert.ok(r.effect.nullifiers.length <= 64, `${r.effect.nullifiers.length} nullifiers (at most 64)`);
    buildBlock(fork, {
      globalVariables: globals(),
      txEffects: [r.effect],
      checkpointNumber: 1,
      indexWithinCheckpoint: ws.latestBlockNumber,
      totalManaUsed: 0n,
    });
  }

  test('a setup claim whose nullifier is also one of the tx’s revertible private nullifiers', () => {
    assertIncludableOrDropped({ nullifiers: [nullifierOf(D1)], publicCalls: [claimInSetup(D1)] });
  });

  test('a claim that takes the tx past 64 nullifiers', () => {
    const many = Array.from({ length: 63 }, () => fresh());
    assertIncludableOrDropped({ nonRevertible: { nullifiers: many }, publicCalls: [claimInSetup(D1)] });
    assertIncludableOrDropped({ nonRevertible: { nullifiers: many }, publicCalls: [claimInApp(D1)] });
  });

  test('control: a claim with a distinct nullifier and room to spare goes into a block', () => {
    assertIncludableOrDropped({ nullifiers: [fresh()], publicCalls: [claimInSetup(D1)] });
    const many = Array.from({ length: 62 }, () => fresh());
    assertIncludableOrDropped({ nonRevertible: { nullifiers: many }, publicCalls: [claimInSetup(D1)] });
  });
});

describe('Fee Juice claim: mismatches revert', () => {
  const NO_MESSAGE = /no L1-to-L2 message at index/;
  const wrong: [string, Deposit][] = [
    ['secret', { ...D1, secret: D1.secret + 1n }],
    ['amount', { ...D1, amount: D1.amount + 1n }],
    ['recipient', { ...D1, to: D1.to + 1n }],
    ['index (an empty leaf)', { ...D1, leafIndex: EMPTY_INDEX }],
    ["index (another deposit's)", { ...D1, leafIndex: D2.leafIndex }],
    ['index (just beyond the tree)', { ...D1, leafIndex: 1024n }],
    ['index (far beyond the tree)', { ...D1, leafIndex: 2n ** 40n }],
    ['index (the largest field element)', { ...D1, leafIndex: FR_MODULUS - 1n }],
  ];
  for (const [what, claim] of wrong) {
    test(`wrong ${what}: revert in app logic, setup failure in setup`, () => {
      const r = exec(ws.fork(), { publicCalls: [claimInApp(claim)] });
      assertRevertedClaim(
        r,
        new RegExp(`^App logic reverted: no L1-to-L2 message at index ${claim.leafIndex} `),
        D1,
      );
      assertRevertedClaim(r, NO_MESSAGE, claim);
      rejects(
        () => exec(ws.fork(), { publicCalls: [claimInSetup(claim)] }),
        /^Setup call reverted: no L1-to-L2 message/,
      );
    });
  }

  test("a deposit from another portal, or for another chain or rollup version, is not this node's", () => {
    const r1 = exec(ws.fork(), { publicCalls: [claimInApp(D1)] }, { feeJuicePortal: OTHER_PORTAL });
    assertRevertedClaim(r1, NO_MESSAGE, D1);
    const r2 = exec(ws.fork(), { publicCalls: [claimInApp(D1)] }, PORTAL_OPTIONS, globals({ chainId: 1n }));
    assertRevertedClaim(r2, NO_MESSAGE, D1);
    const r3 = exec(ws.fork(), { publicCalls: [claimInApp(D1)] }, PORTAL_OPTIONS, globals({ version: 2n }));
    assertRevertedClaim(r3, NO_MESSAGE, D1);
    // The portal's address is compared as a number: its case does not matter.
    const r4 = exec(ws.fork(), { publicCalls: [claimInApp(D1)] }, { feeJuicePortal: PORTAL.toLowerCase() });
    assert.equal(r4.effect.revertCode, RevertCode.OK);
  });

  test('no portal configured: the claim reverts', () => {
    const r = exec(ws.fork(), { publicCalls: [claimInApp(D1)] }, {});
    assertRevertedClaim(r, /^App logic reverted: the Fee Juice portal on L1 is not known$/, D1);
    rejects(
      () => exec(ws.fork(), { publicCalls: [claimInSetup(D1)] }, {}),
      /^Setup call reverted: the Fee Juice portal on L1 is not known$/,
    );
  });

  test('an amount beyond u128 reverts; a static call cannot claim', () => {
    const huge = exec(ws.fork(), { publicCalls: [claimInApp({ ...D1, amount: 2n ** 128n })] });
    assertRevertedClaim(huge, /amount does not fit in a u128/, D1);
    const staticCall = exec(ws.fork(), { publicCalls: [claimInApp(D1, { isStaticCall: true })] });
    assertRevertedClaim(staticCall, /Static call cannot update the state/, D1);
  });
});

describe('Fee Juice claim: reverts roll the claim back', () => {
  test('an app-logic revert after an app-phase claim drops its nullifier and credit; it can be claimed later', () => {
    const fork = ws.fork();
    const r = exec(fork, {
      nullifiers: [fresh()],
      publicCalls: [claimInApp(D1), { contractAddress: UNSUPPORTED, selector: 1 }],
    });
    assertRevertedClaim(r, /^App logic reverted: public execution of contract/, D1);
    // Only the non-revertible nullifier stays.
    assert.deepEqual(r.effect.nullifiers, [r.protocolNullifier]);
    applyTxEffect(fork, r.effect);
    assert.equal(balanceOf(fork, D1.to), 0n);
    const later = exec(fork, { publicCalls: [claimInSetup(D1)] });
    assert.equal(later.effect.revertCode, RevertCode.OK);
    assert.ok(later.effect.nullifiers.includes(nullifierOf(D1)));
  });

  test('a teardown revert rolls back an app-phase claim too', () => {
    const r = exec(ws.fork(), {
      publicCalls: [claimInApp(D1), { phase: 'teardown', contractAddress: UNSUPPORTED, selector: 1 }],
    });
    assertRevertedClaim(r, /^Teardown reverted: /, D1);
  });

  test('an app-logic revert keeps a setup claim', () => {
    const r = exec(ws.fork(), {
      publicCalls: [claimInSetup(D1), { contractAddress: UNSUPPORTED, selector: 1 }],
    });
    assert.equal(r.effect.revertCode, RevertCode.REVERTED);
    assert.equal(r.effect.nullifiers.at(-1), nullifierOf(D1));
    assert.deepEqual(r.effect.publicDataWrites[0], {
      leafSlot: feeJuiceBalanceSlot(D1.to),
      value: D1.amount,
    });
  });
});

describe('TxValidator: a setup claim for the fee payer', () => {
  const validator = new TxValidator();
  const GAS_LIMITS = { daGas: 10_000, l2Gas: 1_000_000 };
  const MAX_FEES = { feePerDaGas: 0n, feePerL2Gas: 10n };
  const FEE_LIMIT = 10_000_000n;
  const allowedSetup: AllowedElement[] = DEFAULT_SETUP_ALLOW_LIST.map((e) => ({
    address: PROTOCOL_CONTRACT_ADDRESSES[e.contract],
    selector: functionSelector(e.signature),
    onlySelf: e.onlySelf,
    calldataLength: e.calldataLength,
  }));
  const ctx = (): ValidationContext => ({
    chainId: Number(CHAIN_ID),
    rollupVersion: Number(VERSION),
    state: ws.at(ws.latestBlockNumber),
    nextBlockNumber: ws.latestBlockNumber + 1,
    nextSlotTimestamp: 1_700_000_000n,
    currentMinFees: { feePerDaGas: 0n, feePerL2Gas: 10n },
    txsLimits: { daGas: 1_000_000, l2Gas: MAX_PROCESSABLE_L2_GAS },
    allowedSetup,
    verifier: DEV_PROOF_VERIFIER,
  });
  const validate = (payer: Fr, calls: PublicCallSpec[]) => {
    const { tx, hash } = buildTx(
      spec({ feePayer: payer, gasLimits: GAS_LIMITS, maxFeesPerGas: MAX_FEES, publicCalls: calls }),
    );
    assert.equal(txFeeLimit(tx.data.constants.txContext.gasSettings), FEE_LIMIT);
    const { hash: computed, ...result } = validator.validate(tx, hash, ctx());
    assert.equal(computed, hash);
    return result;
  };
  const claim = (to: Fr, amount: bigint) => claimInSetup({ to, amount, secret: 1n, leafIndex: 0n });
  const invalidBalance = { result: 'invalid', reason: [TX_ERROR.FEE_PAYER_BALANCE] };

  test('the allow list has the claim with its calldata length', () => {
    assert.ok(
      allowedSetup.some(
        (e) =>
          e.address === FEE_JUICE &&
          e.selector === functionSelector(FEE_JUICE_CLAIM.signature) &&
          e.calldataLength === 5,
      ),
    );
  });

  test('a payer without balance that claims enough in setup passes the balance check', () => {
    assert.equal(balanceOf(ws.at(ws.latestBlockNumber), NEWCOMER), 0n);
    assert.deepEqual(validate(NEWCOMER, []), invalidBalance);
    assert.deepEqual(validate(NEWCOMER, [claim(NEWCOMER, FEE_LIMIT)]), { result: 'valid' });
    assert.deepEqual(validate(NEWCOMER, [claim(NEWCOMER, FEE_LIMIT - 1n)]), invalidBalance);
    // Two setup claims add up.
    assert.deepEqual(validate(NEWCOMER, [claim(NEWCOMER, FEE_LIMIT / 2n), claim(NEWCOMER, FEE_LIMIT / 2n)]), {
      result: 'valid',
    });
    // The real deposit validates the same way.
    assert.deepEqual(validate(NEWCOMER, [claimInSetup(D2)]), { result: 'valid' });
  });

  test('a claim for someone else, or in app logic, does not count', () => {
    assert.deepEqual(validate(NEWCOMER, [claim(0xabcdn, FEE_LIMIT)]), invalidBalance);
    assert.deepEqual(validate(NEWCOMER, [{ ...claim(NEWCOMER, FEE_LIMIT), phase: 'app' }]), invalidBalance);
  });
});
