// Tx validation against a real (temporary) world state whose genesis funds two dev accounts:
// every reason text on its own, several at once, and the options and context that change
// what is checked.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from '../../src/core/block.js';
import { type BlockHeader, blockHeaderHash } from '../../src/core/block-header.js';
import type { AllowedElement } from '../../src/core/constants.js';
import type { Fr } from '../../src/core/field.js';
import { functionSelector } from '../../src/core/hash/selector.js';
import { PROTOCOL_CONTRACTS_HASH, VK_TREE_ROOT } from '../../src/core/kernel/constants.js';
import {
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_PROCESSABLE_L2_GAS,
  MAX_TX_SIZE_BYTES,
  type Tx,
  txFeeLimit,
} from '../../src/core/tx.js';
import { buildTx, type PublicCallSpec, type TxSpec } from '../../src/core/tx-builder.js';
import { emptyChonkProof, txSize } from '../../src/core/tx-view.js';
import { devAccounts, devAccountsGenesisData } from '../../src/execution/dev-accounts.js';
import { feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import { readPublicData } from '../../src/execution/public-storage.js';
import {
  DEV_PROOF_VERIFIER,
  TX_ERROR,
  TxValidator,
  type ValidationContext,
  type ValidationOptions,
} from '../../src/mempool/validator.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';

const INCREASE = functionSelector('_increase_public_balance((Field),u128)');
const BALANCE_OF = 'balance_of_public((Field))';
const FEE_JUICE = 5n;
const validator = new TxValidator();

const [funded, funded2] = devAccounts(2).map((a) => a.address) as [Fr, Fr];
const UNFUNDED = 0xdead_beefn;
/** An account funded at genesis with exactly PARTIAL_BALANCE. */
const PARTIAL = 0xb0b0n;
/** Gas limits / max fees that make the fee limit exactly 10_000_000. */
const GAS_LIMITS = { daGas: 10_000, l2Gas: 1_000_000 };
const MAX_FEES = { feePerDaGas: 0n, feePerL2Gas: 10n };
const FEE_LIMIT = 10_000_000n;
const PARTIAL_BALANCE = FEE_LIMIT - 5n;

const FEE_JUICE_SETUP: AllowedElement = {
  address: FEE_JUICE,
  selector: INCREASE,
  onlySelf: true,
  calldataLength: 3,
};

const dir = mkdtempSync(join(tmpdir(), 'cairn-validator-test-'));
let ws: WorldState;
/** The genesis block's header: the anchor of the txs below unless a test says otherwise. */
let anchor: BlockHeader;
/** A header of no block in the chain (the genesis header at another block number). */
let unknownAnchor: BlockHeader;
let nullifierSeed = 0x10_000n;
/** A fresh nullifier, above the genesis prefill (keys 0..127). */
const fresh = () => nullifierSeed++;

before(async () => {
  ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisPublicData: [
      ...devAccountsGenesisData(devAccounts(2)),
      { slot: feeJuiceBalanceSlot(PARTIAL), value: PARTIAL_BALANCE },
    ],
    genesisBlockHash: genesisBlockHashOf,
  });
  anchor = genesisBlockOf(ws).header;
  unknownAnchor = { ...anchor, globalVariables: { ...anchor.globalVariables, blockNumber: 1 } };
});
after(async () => {
  await ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = (over: Partial<ValidationContext> = {}): ValidationContext => ({
  chainId: 31337,
  rollupVersion: 1,
  state: ws.at(0),
  nextBlockNumber: 2,
  nextSlotTimestamp: 1_700_000_000n,
  currentMinFees: { feePerDaGas: 0n, feePerL2Gas: 10n },
  txsLimits: { daGas: 1_000_000, l2Gas: MAX_PROCESSABLE_L2_GAS },
  allowedSetup: [FEE_JUICE_SETUP],
  verifier: DEV_PROOF_VERIFIER,
  ...over,
});

const spec = (over: Partial<TxSpec> = {}): TxSpec => ({
  feePayer: funded,
  anchorBlockHeader: anchor,
  chainId: 31337,
  version: 1,
  expirationTimestamp: 1_800_000_000n,
  maxFeesPerGas: MAX_FEES,
  protocolNullifier: fresh(),
  noteHashes: [0x77n],
  ...over,
});

const build = (over: Partial<TxSpec> = {}) => buildTx(spec(over));

function check(
  tx: Tx,
  expected: { result: 'valid' } | { result: 'invalid' | 'skipped'; reason: string[] },
  options: { claimedHash?: Fr; ctx?: Partial<ValidationContext>; opts?: ValidationOptions } = {},
) {
  const out = validator.validate(tx, options.claimedHash, ctx(options.ctx), options.opts);
  const { hash, ...rest } = out;
  assert.deepEqual(rest, expected);
  return out;
}

/** A setup call of Fee Juice's `_increase_public_balance` (allowed by FEE_JUICE_SETUP). */
const setupCall = (over: Record<string, unknown> = {}) => ({
  phase: 'setup' as const,
  contractAddress: FEE_JUICE,
  signature: '_increase_public_balance((Field),u128)',
  args: [funded, 1n],
  msgSender: FEE_JUICE,
  ...over,
});

/**
 * App-logic calls (to Fee Juice, of selectors it does not have: only the size matters) whose
 * calldata brings a tx of the base spec plus `logBytes` of class log fields to exactly `bytes`.
 * Each call past the first adds its length, selector and hash (68 bytes), so the number of calls
 * makes up the remainder modulo a field's 32 bytes and the first call's arguments the rest.
 */
function sizedCalls(bytes: number, logBytes = 0): PublicCallSpec[] {
  const oneCall = txSize(build({ publicCalls: [{ contractAddress: FEE_JUICE, selector: 1 }] }).tx) + logBytes;
  let calls = 1;
  while ((bytes - oneCall - (calls - 1) * 68) % 32 !== 0) calls++;
  const args = (bytes - oneCall - (calls - 1) * 68) / 32;
  return Array.from({ length: calls }, (_, i) => ({
    contractAddress: FEE_JUICE,
    selector: i + 1,
    args: i === 0 ? new Array<Fr>(args).fill(1n) : [],
  }));
}

const valid = { result: 'valid' } as const;
const invalid = (...reason: string[]) => ({ result: 'invalid' as const, reason });

describe('TxValidator: the base case', () => {
  test('the genesis state funds the dev accounts and the anchor is the genesis block', () => {
    assert.ok(readPublicData(ws.at(0), feeJuiceBalanceSlot(funded)) > 0n);
    assert.equal(readPublicData(ws.at(0), feeJuiceBalanceSlot(UNFUNDED)), 0n);
    assert.deepEqual(ws.at(0).findLeaf(TreeId.ARCHIVE, blockHeaderHash(anchor)), {
      index: 0,
      blockNumber: 0,
    });
    assert.equal(ws.at(0).findLeaf(TreeId.ARCHIVE, blockHeaderHash(unknownAnchor)), undefined);
  });

  test('a well-formed tx is valid and the computed hash is returned', () => {
    const { tx, hash } = build();
    const out = check(tx, valid, { claimedHash: hash });
    assert.equal(out.hash, hash);
    // With public calls in app logic and teardown, from another funded account.
    const withCalls = build({
      feePayer: funded2,
      publicCalls: [
        { contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [funded2] },
        { phase: 'teardown', contractAddress: FEE_JUICE, signature: 'check_balance(u128)', args: [1n] },
      ],
    });
    check(withCalls.tx, valid, { claimedHash: withCalls.hash });
  });
});

describe('TxValidator: each reason on its own', () => {
  test(TX_ERROR.SIZE, () => {
    // A tx is over 60 KB by its proof alone; calldata brings it to the limit.
    assert.ok(txSize(build().tx) > 60_000);
    const fit = build({ publicCalls: sizedCalls(MAX_TX_SIZE_BYTES) }).tx;
    assert.equal(txSize(fit), MAX_TX_SIZE_BYTES);
    check(fit, valid);
    // One calldata field (32 bytes) more is over it.
    const over = build({ publicCalls: sizedCalls(MAX_TX_SIZE_BYTES + 32) }).tx;
    assert.equal(txSize(over), MAX_TX_SIZE_BYTES + 32);
    check(over, invalid(TX_ERROR.SIZE));
    // So is a tx with as large a class log as there can be and calldata past the limit.
    const logged = build({
      contractClassLogs: [
        { contractAddress: 3n, fields: new Array(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS).fill(1n) },
      ],
      publicCalls: sizedCalls(MAX_TX_SIZE_BYTES + 32, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS * 32),
    }).tx;
    assert.equal(txSize(logged), MAX_TX_SIZE_BYTES + 32);
    check(logged, invalid(TX_ERROR.SIZE));
  });

  test(TX_ERROR.INCORRECT_HASH, () => {
    const { tx, hash } = build();
    const out = check(tx, invalid(TX_ERROR.INCORRECT_HASH), { claimedHash: hash + 1n });
    assert.equal(out.hash, hash);
  });

  test(TX_ERROR.CALLDATA_COUNT, () => {
    const { tx } = build({
      publicCalls: [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [1n] }],
    });
    check({ ...tx, publicFunctionCalldata: [] }, invalid(TX_ERROR.CALLDATA_COUNT));
    check(
      { ...tx, publicFunctionCalldata: [tx.publicFunctionCalldata[0]!, tx.publicFunctionCalldata[0]!] },
      invalid(TX_ERROR.CALLDATA_COUNT),
    );
  });

  test(TX_ERROR.CALLDATA, () => {
    const { tx } = build({
      publicCalls: [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [1n] }],
    });
    const given = tx.publicFunctionCalldata[0]!;
    // Values that do not hash to the given hash.
    check(
      { ...tx, publicFunctionCalldata: [{ values: [given.values[0]!, 2n], hash: given.hash }] },
      invalid(TX_ERROR.CALLDATA),
    );
    // Calldata consistent in itself, but not what the request commits to.
    const other = build({ publicCalls: [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [2n] }] });
    check({ ...tx, publicFunctionCalldata: other.tx.publicFunctionCalldata }, invalid(TX_ERROR.CALLDATA));
  });

  test(TX_ERROR.CALLDATA_TOO_LARGE, () => {
    const max = MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS;
    const at = build({
      publicCalls: [
        { contractAddress: FEE_JUICE, selector: 1, args: new Array(max - 3).fill(1n) },
        { contractAddress: FEE_JUICE, selector: 2, args: [1n] },
      ],
    });
    // A tx with that much calldata is over the size limit (16,000 fields are 512,000 bytes): the
    // calldata limit is never the only reason.
    check(at.tx, invalid(TX_ERROR.SIZE));
    const over = build({
      publicCalls: [
        { contractAddress: FEE_JUICE, selector: 1, args: new Array(max - 2).fill(1n) },
        { contractAddress: FEE_JUICE, selector: 2, args: [1n] },
      ],
    });
    check(over.tx, invalid(TX_ERROR.SIZE, TX_ERROR.CALLDATA_TOO_LARGE));
  });

  test(TX_ERROR.CLASS_LOG_COUNT, () => {
    const { tx } = build({ contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }] });
    check(tx, valid);
    check({ ...tx, contractClassLogFields: [] }, invalid(TX_ERROR.CLASS_LOG_COUNT));
  });

  test(TX_ERROR.CLASS_LOG_LENGTH, () => {
    const { tx } = build({ contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }] });
    const fields = [...tx.contractClassLogFields[0]!.fields];
    fields[2] = 9n; // beyond the declared length of 2
    check({ ...tx, contractClassLogFields: [{ fields }] }, invalid(TX_ERROR.CLASS_LOG_LENGTH));
  });

  test(TX_ERROR.CLASS_LOG, () => {
    const { tx } = build({ contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }] });
    const fields = [...tx.contractClassLogFields[0]!.fields];
    fields[1] = 3n; // within the length, but not what the hash commits to
    check({ ...tx, contractClassLogFields: [{ fields }] }, invalid(TX_ERROR.CLASS_LOG));
  });

  test('the gas used the kernel states is trusted (no reason of its own)', () => {
    const { tx } = build();
    tx.data.gasUsed = { daGas: tx.data.gasUsed.daGas + 1, l2Gas: tx.data.gasUsed.l2Gas - 1 };
    check(tx, valid);
  });

  test(TX_ERROR.NO_PROTOCOL_NULLIFIER, () => {
    // A private-only tx whose first nullifier slot is empty, with or without other nullifiers.
    check(build({ protocolNullifier: 0n }).tx, invalid(TX_ERROR.NO_PROTOCOL_NULLIFIER));
    check(
      build({ protocolNullifier: 0n, nullifiers: [fresh()] }).tx,
      invalid(TX_ERROR.NO_PROTOCOL_NULLIFIER),
    );
    // A tx with public calls: revertible nullifiers do not stand in for it.
    const call = [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [1n] }];
    check(
      build({ protocolNullifier: 0n, nullifiers: [fresh()], publicCalls: call }).tx,
      invalid(TX_ERROR.NO_PROTOCOL_NULLIFIER),
    );
    check(build({ nullifiers: [fresh()], publicCalls: call }).tx, valid);
  });

  test(TX_ERROR.CHAIN_ID, () => {
    check(build({ chainId: 1 }).tx, invalid(TX_ERROR.CHAIN_ID));
  });

  test(TX_ERROR.VERSION, () => {
    check(build({ version: 2 }).tx, invalid(TX_ERROR.VERSION));
  });

  test(TX_ERROR.VK_TREE_ROOT, () => {
    check(build({ vkTreeRoot: VK_TREE_ROOT + 1n }).tx, invalid(TX_ERROR.VK_TREE_ROOT));
    check(build({ vkTreeRoot: 0n }).tx, invalid(TX_ERROR.VK_TREE_ROOT));
    check(build({ vkTreeRoot: VK_TREE_ROOT }).tx, valid);
  });

  test(TX_ERROR.PROTOCOL_CONTRACTS_HASH, () => {
    check(
      build({ protocolContractsHash: PROTOCOL_CONTRACTS_HASH + 1n }).tx,
      invalid(TX_ERROR.PROTOCOL_CONTRACTS_HASH),
    );
    check(build({ protocolContractsHash: 0n }).tx, invalid(TX_ERROR.PROTOCOL_CONTRACTS_HASH));
    check(build({ protocolContractsHash: PROTOCOL_CONTRACTS_HASH }).tx, valid);
  });

  test(TX_ERROR.EXPIRED, () => {
    check(build({ expirationTimestamp: 1_700_000_000n - 1n }).tx, invalid(TX_ERROR.EXPIRED));
    // Expiring at the next slot's timestamp is still fine.
    check(build({ expirationTimestamp: 1_700_000_000n }).tx, valid);
  });

  test(TX_ERROR.DUPLICATE_NULLIFIER, () => {
    const n = fresh();
    check(build({ nullifiers: [n, n] }).tx, invalid(TX_ERROR.DUPLICATE_NULLIFIER));
    // Across the two parts.
    const m = fresh();
    check(build({ protocolNullifier: m, nullifiers: [m] }).tx, invalid(TX_ERROR.DUPLICATE_NULLIFIER));
  });

  test('too many side effects over both parts of the tx (each part alone is within bounds)', () => {
    // Only a tx with public calls has two parts (a private-only tx has one, of the tx's maxima).
    const many = (n: number) => Array.from({ length: n }, () => fresh());
    const publicCalls = [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [1n] }];
    check(
      build({ nonRevertible: { nullifiers: many(40) }, nullifiers: many(40), publicCalls }).tx,
      invalid('Too many nullifiers in tx: 81, at most 64'),
    );
    check(
      build({ nonRevertible: { noteHashes: many(33) }, noteHashes: many(32), publicCalls }).tx,
      invalid('Too many note hashes in tx: 65, at most 64'),
    );
    check(build({ nonRevertible: { nullifiers: many(31) }, nullifiers: many(32), publicCalls }).tx, valid);
  });

  test(TX_ERROR.EXISTING_NULLIFIER, () => {
    // Genesis prefills nullifiers 0..127.
    check(build({ nullifiers: [5n] }).tx, invalid(TX_ERROR.EXISTING_NULLIFIER));
    check(build({ protocolNullifier: 127n }).tx, invalid(TX_ERROR.EXISTING_NULLIFIER));
    check(build({ protocolNullifier: 128n }).tx, valid);
  });

  test(TX_ERROR.PENDING_NULLIFIER, () => {
    const { tx } = build({ maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n } });
    check(tx, invalid(TX_ERROR.PENDING_NULLIFIER), {
      ctx: { pendingConflicts: () => [{ hash: 1n, priorityFee: 2n }] },
    });
  });

  test(TX_ERROR.BLOCK_HEADER, () => {
    check(build({ anchorBlockHeader: unknownAnchor }).tx, invalid(TX_ERROR.BLOCK_HEADER));
    // Any change to the header changes its hash: the anchor is the whole header.
    check(build({ anchorBlockHeader: { ...anchor, totalFees: 1n } }).tx, invalid(TX_ERROR.BLOCK_HEADER));
    check(build({ anchorBlockHeader: { ...anchor } }).tx, valid);
  });

  test(TX_ERROR.GAS_LIMIT_TOO_LOW, () => {
    // DA below the fixed 96.
    check(build({ gasLimits: { daGas: 95, l2Gas: 1_000_000 } }).tx, invalid(TX_ERROR.GAS_LIMIT_TOO_LOW));
    check(build({ gasLimits: { daGas: 96, l2Gas: 1_000_000 } }).tx, valid);
    // L2 below the private overhead.
    check(build({ gasLimits: { daGas: 1000, l2Gas: 439_999 } }).tx, invalid(TX_ERROR.GAS_LIMIT_TOO_LOW));
    check(build({ gasLimits: { daGas: 1000, l2Gas: 440_000 } }).tx, valid);
    // With public calls the public overhead is the minimum.
    const call = [{ contractAddress: FEE_JUICE, signature: BALANCE_OF, args: [1n] }];
    check(
      build({ gasLimits: { daGas: 1000, l2Gas: 539_999 }, publicCalls: call }).tx,
      invalid(TX_ERROR.GAS_LIMIT_TOO_LOW),
    );
    check(build({ gasLimits: { daGas: 1000, l2Gas: 540_000 }, publicCalls: call }).tx, valid);
  });

  test(TX_ERROR.GAS_LIMIT_TOO_HIGH, () => {
    const fees = { feePerDaGas: 0n, feePerL2Gas: 10n };
    check(
      build({ maxFeesPerGas: fees, gasLimits: { daGas: 1000, l2Gas: MAX_PROCESSABLE_L2_GAS + 1 } }).tx,
      invalid(TX_ERROR.GAS_LIMIT_TOO_HIGH),
    );
    check(
      build({ maxFeesPerGas: fees, gasLimits: { daGas: 1000, l2Gas: MAX_PROCESSABLE_L2_GAS } }).tx,
      valid,
    );
    // The network's own limits.
    const tx = build({ gasLimits: { daGas: 2000, l2Gas: 600_000 } }).tx;
    check(tx, valid, { ctx: { txsLimits: { daGas: 2000, l2Gas: 600_000 } } });
    check(tx, invalid(TX_ERROR.GAS_LIMIT_TOO_HIGH), { ctx: { txsLimits: { daGas: 1999, l2Gas: 600_000 } } });
    check(tx, invalid(TX_ERROR.GAS_LIMIT_TOO_HIGH), { ctx: { txsLimits: { daGas: 2000, l2Gas: 599_999 } } });
  });

  test(`${TX_ERROR.FEE_PER_GAS} (skipped, not invalid)`, () => {
    check(build({ maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 9n } }).tx, {
      result: 'skipped',
      reason: [TX_ERROR.FEE_PER_GAS],
    });
    check(
      build({ maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 100n } }).tx,
      { result: 'skipped', reason: [TX_ERROR.FEE_PER_GAS] },
      { ctx: { currentMinFees: { feePerDaGas: 1n, feePerL2Gas: 10n } } },
    );
    check(build({ maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 10n } }).tx, valid);
  });

  test(TX_ERROR.FEE_PAYER_BALANCE, () => {
    check(build({ feePayer: UNFUNDED }).tx, invalid(TX_ERROR.FEE_PAYER_BALANCE));
    // The balance (FEE_LIMIT - 5) must cover the fee limit: exactly enough passes, one short fails.
    const limited = (daGas: number) =>
      build({
        feePayer: PARTIAL,
        gasLimits: { daGas, l2Gas: 999_980 },
        maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 10n },
      }).tx;
    const exact = limited(195);
    assert.equal(txFeeLimit(exact.data.constants.txContext.gasSettings), PARTIAL_BALANCE);
    check(exact, valid);
    const over = limited(196);
    assert.equal(txFeeLimit(over.data.constants.txContext.gasSettings), PARTIAL_BALANCE + 1n);
    check(over, invalid(TX_ERROR.FEE_PAYER_BALANCE));
  });

  test('a setup call on the allow list with the right sender and calldata length is valid', () => {
    check(build({ publicCalls: [setupCall()] }).tx, valid);
  });

  test(TX_ERROR.SETUP_NOT_ALLOWED, () => {
    check(
      build({ publicCalls: [setupCall({ signature: BALANCE_OF, args: [funded] })] }).tx,
      invalid(TX_ERROR.SETUP_NOT_ALLOWED),
    );
    // The allowed selector on another contract.
    check(
      build({ publicCalls: [setupCall({ contractAddress: 77n })] }).tx,
      invalid(TX_ERROR.SETUP_NOT_ALLOWED),
    );
    // App-logic calls are not subject to the allow list.
    check(
      build({ publicCalls: [setupCall({ phase: 'app', signature: BALANCE_OF, args: [funded] })] }).tx,
      valid,
    );
  });

  test(TX_ERROR.SETUP_UNKNOWN_CONTRACT, () => {
    const selector = 0x1234;
    const allowedSetup = [FEE_JUICE_SETUP, { classId: 0xc1a55n, selector }];
    const tx = build({ publicCalls: [{ phase: 'setup', contractAddress: 77n, selector }] }).tx;
    check(tx, invalid(TX_ERROR.SETUP_UNKNOWN_CONTRACT), { ctx: { allowedSetup } });
    // Without the class entry it is simply not allowed.
    check(tx, invalid(TX_ERROR.SETUP_NOT_ALLOWED));
  });

  test(TX_ERROR.SETUP_ONLY_SELF, () => {
    check(build({ publicCalls: [setupCall({ msgSender: funded })] }).tx, invalid(TX_ERROR.SETUP_ONLY_SELF));
  });

  test(TX_ERROR.SETUP_NULL_SENDER, () => {
    const selector = functionSelector(BALANCE_OF);
    const allowedSetup = [{ address: FEE_JUICE, selector, rejectNullMsgSender: true }];
    const call = { phase: 'setup' as const, contractAddress: FEE_JUICE, selector, args: [1n] };
    check(build({ publicCalls: [{ ...call, msgSender: 0n }] }).tx, invalid(TX_ERROR.SETUP_NULL_SENDER), {
      ctx: { allowedSetup },
    });
    check(build({ publicCalls: [{ ...call, msgSender: 1n }] }).tx, valid, { ctx: { allowedSetup } });
    // Entries without the flag accept a null sender.
    const lax = [{ address: FEE_JUICE, selector }];
    check(build({ publicCalls: [{ ...call, msgSender: 0n }] }).tx, valid, { ctx: { allowedSetup: lax } });
  });

  test(TX_ERROR.SETUP_CALLDATA_LENGTH, () => {
    check(
      build({ publicCalls: [setupCall({ args: [funded] })] }).tx,
      invalid(TX_ERROR.SETUP_CALLDATA_LENGTH),
    );
    check(
      build({ publicCalls: [setupCall({ args: [funded, 1n, 2n] })] }).tx,
      invalid(TX_ERROR.SETUP_CALLDATA_LENGTH),
    );
  });

  test(TX_ERROR.PROOF, () => {
    // The dev verifier refuses the all-zero (stripped) proof and accepts any other.
    check(build({ proof: emptyChonkProof() }).tx, invalid(TX_ERROR.PROOF));
    const lastByte = emptyChonkProof();
    lastByte[lastByte.length - 1] = 1;
    check(build({ proof: lastByte }).tx, valid);
    // A proof cut short (only an in-process caller can make one: both wire forms fix the length)
    // is no proof either, whatever it holds.
    check({ ...build().tx, chonkProof: lastByte.subarray(32) }, invalid(TX_ERROR.PROOF));
    const rejecting = { realProofs: true, verify: () => false };
    check(build().tx, invalid(TX_ERROR.PROOF), { ctx: { verifier: rejecting } });
  });

  test(TX_ERROR.UNEXPECTED, () => {
    const throwing = () => {
      throw new Error('boom');
    };
    const out = validator.validate(build().tx, undefined, ctx({ pendingConflicts: throwing }));
    assert.deepEqual(out, { result: 'invalid', reason: [TX_ERROR.UNEXPECTED] });
    // Reasons found before the failure are kept.
    const out2 = validator.validate(build({ chainId: 1 }).tx, undefined, ctx({ pendingConflicts: throwing }));
    assert.deepEqual(out2, { result: 'invalid', reason: [TX_ERROR.CHAIN_ID, TX_ERROR.UNEXPECTED] });
  });
});

describe('TxValidator: combinations, options and context', () => {
  /**
   * One defect each, in the reference's order of checks: size and structure, chain id, version,
   * vk tree root, protocol contracts hash, anchor, expiration, gas limits, fee payer balance,
   * double spends, setup, proof. (The fee per gas, 'skipped' rather than invalid, comes last.)
   */
  const orderedDefects = (): [string, Partial<TxSpec>][] => [
    [
      TX_ERROR.SIZE,
      { publicCalls: [{ contractAddress: FEE_JUICE, selector: 1, args: new Array(14_000).fill(1n) }] },
    ],
    [TX_ERROR.NO_PROTOCOL_NULLIFIER, { protocolNullifier: 0n }],
    [TX_ERROR.CHAIN_ID, { chainId: 1 }],
    [TX_ERROR.VERSION, { version: 2 }],
    [TX_ERROR.VK_TREE_ROOT, { vkTreeRoot: 1n }],
    [TX_ERROR.PROTOCOL_CONTRACTS_HASH, { protocolContractsHash: 1n }],
    [TX_ERROR.BLOCK_HEADER, { anchorBlockHeader: unknownAnchor }],
    [TX_ERROR.EXPIRED, { expirationTimestamp: 1n }],
    [TX_ERROR.GAS_LIMIT_TOO_LOW, { gasLimits: { daGas: 95, l2Gas: 1_000_000 } }],
    [TX_ERROR.FEE_PAYER_BALANCE, { feePayer: UNFUNDED }],
    [TX_ERROR.EXISTING_NULLIFIER, { nullifiers: [5n] }],
    [TX_ERROR.SETUP_ONLY_SELF, { publicCalls: [setupCall({ msgSender: funded })] }],
    [TX_ERROR.PROOF, { proof: emptyChonkProof() }],
  ];
  /** The specs' overrides together, their public calls joined. */
  const merged = (...overs: Partial<TxSpec>[]): Partial<TxSpec> =>
    Object.assign({}, ...overs, { publicCalls: overs.flatMap((o) => o.publicCalls ?? []) });

  test('each defect of the ordered list alone gives its reason alone', () => {
    for (const [reason, over] of orderedDefects()) check(build(over).tx, invalid(reason));
  });

  test('any two defects are reported in the reference order, whichever the spec names first', () => {
    const defects = orderedDefects();
    defects.forEach(([first, earlier], i) => {
      for (const [second, later] of defects.slice(i + 1)) {
        check(build(merged(later, earlier)).tx, invalid(first, second));
      }
    });
  });

  test('several defects at once are all reported, in the reference order', () => {
    const { tx, hash } = build({
      ...merged(
        ...orderedDefects()
          .map(([, over]) => over)
          .reverse(),
      ),
      nullifiers: [5n, 5n],
      contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }],
      publicCalls: [
        setupCall({ msgSender: funded, args: [UNFUNDED] }),
        { contractAddress: FEE_JUICE, selector: 1, args: new Array(14_000).fill(1n) },
      ],
      maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
    });
    // Class log fields within the length that are not what its hash commits to.
    tx.contractClassLogFields[0]!.fields[1] = 3n;
    check(
      tx,
      invalid(
        TX_ERROR.SIZE,
        TX_ERROR.INCORRECT_HASH,
        TX_ERROR.NO_PROTOCOL_NULLIFIER,
        TX_ERROR.CLASS_LOG,
        TX_ERROR.CHAIN_ID,
        TX_ERROR.VERSION,
        TX_ERROR.VK_TREE_ROOT,
        TX_ERROR.PROTOCOL_CONTRACTS_HASH,
        TX_ERROR.BLOCK_HEADER,
        TX_ERROR.EXPIRED,
        TX_ERROR.GAS_LIMIT_TOO_LOW,
        TX_ERROR.FEE_PAYER_BALANCE,
        TX_ERROR.DUPLICATE_NULLIFIER,
        TX_ERROR.EXISTING_NULLIFIER,
        TX_ERROR.PENDING_NULLIFIER,
        TX_ERROR.SETUP_ONLY_SELF,
        TX_ERROR.SETUP_CALLDATA_LENGTH,
        TX_ERROR.PROOF,
        // The "skipped" reason comes last and the result is invalid.
        TX_ERROR.FEE_PER_GAS,
      ),
      { claimedHash: hash + 1n, ctx: { pendingConflicts: () => [{ hash: 1n, priorityFee: 1n }] } },
    );
  });

  test("'skipped' only when the fee per gas is the sole problem", () => {
    const low = { feePerDaGas: 0n, feePerL2Gas: 1n };
    check(build({ maxFeesPerGas: low }).tx, { result: 'skipped', reason: [TX_ERROR.FEE_PER_GAS] });
    check(build({ maxFeesPerGas: low, version: 9 }).tx, invalid(TX_ERROR.VERSION, TX_ERROR.FEE_PER_GAS));
    check(build({ maxFeesPerGas: low, feePayer: UNFUNDED }).tx, {
      result: 'invalid',
      reason: [TX_ERROR.FEE_PAYER_BALANCE, TX_ERROR.FEE_PER_GAS],
    });
  });

  test('skipFeeEnforcement skips the fee-per-gas and balance checks (only those)', () => {
    const tx = build({ feePayer: UNFUNDED, maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n } }).tx;
    check(tx, invalid(TX_ERROR.FEE_PAYER_BALANCE, TX_ERROR.FEE_PER_GAS));
    check(tx, valid, { opts: { skipFeeEnforcement: true } });
    check(build({ feePayer: UNFUNDED, version: 3 }).tx, invalid(TX_ERROR.VERSION), {
      opts: { skipFeeEnforcement: true },
    });
  });

  test('isSimulation skips the proof check (only that)', () => {
    const tx = build({ proof: emptyChonkProof() }).tx;
    check(tx, valid, { opts: { isSimulation: true } });
    check(tx, valid, {
      opts: { isSimulation: true },
      ctx: { verifier: { realProofs: true, verify: () => false } },
    });
    check(build({ proof: emptyChonkProof(), chainId: 5 }).tx, invalid(TX_ERROR.CHAIN_ID), {
      opts: { isSimulation: true },
    });
  });

  test('expiration is not checked when the next block is block 1', () => {
    const tx = build({ expirationTimestamp: 0n }).tx;
    check(tx, valid, { ctx: { nextBlockNumber: 1 } });
    check(tx, invalid(TX_ERROR.EXPIRED), { ctx: { nextBlockNumber: 2 } });
  });

  test('pending conflicts: a lower priority passes, an equal or higher one fails', () => {
    const priority = { feePerDaGas: 2n, feePerL2Gas: 3n }; // total 5
    const p = fresh();
    const { tx, hash } = build({
      protocolNullifier: p,
      nullifiers: [0x9999_0001n],
      maxPriorityFeesPerGas: priority,
    });
    const seen: [readonly Fr[], Fr][] = [];
    const conflicts = (fee: bigint) => (nullifiers: readonly Fr[], self: Fr) => {
      seen.push([nullifiers, self]);
      return [
        { hash: 1n, priorityFee: 0n },
        { hash: 2n, priorityFee: fee },
      ];
    };
    check(tx, valid, { ctx: { pendingConflicts: conflicts(4n) } });
    check(tx, invalid(TX_ERROR.PENDING_NULLIFIER), { ctx: { pendingConflicts: conflicts(5n) } });
    check(tx, invalid(TX_ERROR.PENDING_NULLIFIER), { ctx: { pendingConflicts: conflicts(6n) } });
    // The pool is asked about all of the tx's nullifiers, with the tx's own hash to exclude.
    assert.deepEqual(seen[0], [[p, 0x9999_0001n], hash]);
    check(tx, valid, { ctx: { pendingConflicts: () => [] } });
  });

  test('a setup claim of Fee Juice to the fee payer counts toward its balance', () => {
    const claim = (amount: bigint, to: Fr = UNFUNDED, payer: Fr = UNFUNDED) =>
      build({
        feePayer: payer,
        gasLimits: GAS_LIMITS,
        maxFeesPerGas: MAX_FEES,
        publicCalls: [setupCall({ args: [to, amount] })],
      }).tx;
    check(claim(FEE_LIMIT), valid);
    check(claim(FEE_LIMIT - 1n), invalid(TX_ERROR.FEE_PAYER_BALANCE));
    // A claim to someone else does not help the payer.
    check(claim(FEE_LIMIT, funded), invalid(TX_ERROR.FEE_PAYER_BALANCE));
    // The claim adds to what the payer already has.
    check(claim(5n, PARTIAL, PARTIAL), valid);
    check(claim(4n, PARTIAL, PARTIAL), invalid(TX_ERROR.FEE_PAYER_BALANCE));
    // Only setup claims count, not app-logic ones.
    const app = build({
      feePayer: UNFUNDED,
      gasLimits: GAS_LIMITS,
      maxFeesPerGas: MAX_FEES,
      publicCalls: [setupCall({ phase: 'app', args: [UNFUNDED, FEE_LIMIT] })],
    }).tx;
    check(app, invalid(TX_ERROR.FEE_PAYER_BALANCE));
    // Several setup claims add up.
    const two = build({
      feePayer: UNFUNDED,
      gasLimits: GAS_LIMITS,
      maxFeesPerGas: MAX_FEES,
      publicCalls: [
        setupCall({ args: [UNFUNDED, FEE_LIMIT / 2n] }),
        setupCall({ args: [UNFUNDED, FEE_LIMIT / 2n] }),
      ],
    }).tx;
    check(two, valid);
  });

  test('validation reads the state it is given (a later block sees new nullifiers)', async () => {
    const n = fresh();
    const tx = build({ protocolNullifier: n }).tx;
    check(tx, valid);
    const fork = ws.fork();
    fork.insertNullifiers([n]);
    check(tx, invalid(TX_ERROR.EXISTING_NULLIFIER), { ctx: { state: fork } });
    // The committed state still does not have it.
    check(tx, valid);
  });
});
