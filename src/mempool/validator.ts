// Tx validation (docs/transactions.md, "Validation"): the checks run for isValidTx and sendTx, in
// the reference's order and with its reason texts. Every check runs and every failure is
// reported, so a client sees all that is wrong at once.

import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS } from '../core/block.js';
import type { GasFees } from '../core/block-header.js';
import {
  type AllowedElement,
  FEE_JUICE_CLAIM,
  FEE_JUICE_INCREASE_BALANCE,
  PROTOCOL_CONTRACT_ADDRESSES,
} from '../core/constants.js';
import type { Fr } from '../core/field.js';
import { poseidon2HashOffThread } from '../core/hash/hash-worker.js';
import { functionSelector } from '../core/hash/selector.js';
import { CHONK_PROOF_LENGTH, PROTOCOL_CONTRACTS_HASH, VK_TREE_ROOT } from '../core/kernel/constants.js';
import { computeTxHash } from '../core/kernel/tx-hash.js';
import {
  calldataHash,
  calldataHashInput,
  contractClassLogHash,
  contractClassLogHashInput,
  expiredFor,
  type Gas,
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  MAX_PROCESSABLE_L2_GAS,
  MAX_TX_SIZE_BYTES,
  PRIVATE_TX_L2_GAS_OVERHEAD,
  PUBLIC_TX_L2_GAS_OVERHEAD,
  TX_DA_GAS_OVERHEAD,
  type Tx,
  txFeeLimit,
} from '../core/tx.js';
import {
  allNullifiers,
  hasPublicCalls,
  publicCallsOf,
  type TxSideEffects,
  txPriorityFee,
  txSize,
  txView,
} from '../core/tx-view.js';
import { feeJuiceBalanceSlot } from '../execution/protocol-contracts.js';
import { readPublicData } from '../execution/public-storage.js';
import { TreeId, type WorldStateReader } from '../world-state/types.js';

export type TxValidationResult =
  | { result: 'valid' }
  | { result: 'invalid'; reason: string[] }
  | { result: 'skipped'; reason: string[] };

export interface ValidationOptions {
  /** Simulation: the proof is not checked. */
  isSimulation?: boolean;
  /** Fees per gas and the fee payer's balance are not checked. */
  skipFeeEnforcement?: boolean;
  /**
   * Only size and structure, what execution needs to be safe: the reference's
   * `simulatePublicCalls` runs the public part of a tx as the wallet made it (a wallet's
   * read-only simulation has no expiration, no proof and may spend anything).
   */
  structureOnly?: boolean;
  /** `computeTxHash(tx.data)`, when the caller has computed it already (off the event loop). */
  hash?: Fr;
  /** The hashes of the tx's calldata and class logs, when the caller has computed them (ditto). */
  commitments?: CommitmentHashes;
}

/** What a tx's calldata and class logs hash to: what `data` must commit to. */
export interface CommitmentHashes {
  /** One per `publicFunctionCalldata` entry: `calldataHash(values)`. */
  calldata: Fr[];
  /** One per `contractClassLogFields` entry: `contractClassLogHash(fields)`. */
  classLogs: Fr[];
}

/**
 * The commitment hashes on the hash worker: a tx's calldata may be thousands of fields and a class
 * log is 3,023, each a Poseidon2 sponge of milliseconds that admission must not run on the event loop.
 */
export async function commitmentHashesOffThread(tx: Tx): Promise<CommitmentHashes> {
  const [calldata, classLogs] = await Promise.all([
    Promise.all(tx.publicFunctionCalldata.map((c) => poseidon2HashOffThread(calldataHashInput(c.values)))),
    Promise.all(
      tx.contractClassLogFields.map((l) => poseidon2HashOffThread(contractClassLogHashInput(l.fields))),
    ),
  ]);
  return { calldata, classLogs };
}

/** Checks a tx's proof. cairn's dev verifier accepts any proof but the empty (all-zero) one. */
export interface ProofVerifier {
  readonly realProofs: boolean;
  verify(tx: Tx): boolean;
}

export const DEV_PROOF_VERIFIER: ProofVerifier = {
  realProofs: false,
  // A proof of another length cannot have come off the wire (both forms fix it): a caller's bug.
  verify: (tx) => tx.chonkProof.length === CHONK_PROOF_LENGTH * 32 && tx.chonkProof.some((b) => b !== 0),
};

/** What validation needs to know about the chain at the moment it runs. */
export interface ValidationContext {
  chainId: number;
  rollupVersion: number;
  /** The committed state the tx would build on (the latest block). */
  state: WorldStateReader;
  /** The block the tx would go in: expiration is not checked for block 1. */
  nextBlockNumber: number;
  /** Timestamp of the next slot: the tx must not expire before it. */
  nextSlotTimestamp: bigint;
  currentMinFees: GasFees;
  /** Network limits on a tx's declared gas (NodeInfo txsLimits). */
  txsLimits: Gas;
  allowedSetup: readonly AllowedElement[];
  verifier: ProofVerifier;
  /**
   * Pending txs sharing a nullifier with this one, with their priority fees (the tx itself
   * excluded); absent when validating for a block, where the pool does not matter.
   */
  pendingConflicts?: (nullifiers: readonly Fr[], self: Fr) => { hash: Fr; priorityFee: bigint }[];
}

// The reference's reason texts.
export const TX_ERROR = {
  SIZE: 'Transaction size above size limit',
  INCORRECT_HASH: 'Incorrect tx hash',
  CALLDATA_COUNT: 'Wrong number of calldata for public calls',
  CALLDATA: 'Incorrect calldata for public call',
  CALLDATA_TOO_LARGE: 'Total calldata too large for enqueued public calls',
  CLASS_LOG_COUNT: 'Mismatched number of contract class logs',
  CLASS_LOG_LENGTH: 'Incorrect contract class logs length',
  CLASS_LOG: 'Mismatched contract class logs',
  PRIVATE_LOG_LENGTH: 'Private log emitted length above the log size',
  CHAIN_ID: 'Incorrect L1 chain id',
  VERSION: 'Incorrect rollup version',
  VK_TREE_ROOT: 'Incorrect verification keys tree root',
  PROTOCOL_CONTRACTS_HASH: 'Incorrect protocol contracts hash',
  EXPIRED: 'Invalid expiration timestamp',
  DUPLICATE_NULLIFIER: 'Duplicate nullifier in tx',
  EXISTING_NULLIFIER: 'Existing nullifier',
  PENDING_NULLIFIER: 'Existing nullifier in a pending tx with an equal or higher priority fee',
  BLOCK_HEADER: 'Block header not found',
  GAS_LIMIT_TOO_LOW: 'Gas limit is below the minimum fixed cost',
  GAS_LIMIT_TOO_HIGH: 'Gas limit is higher than the amount of gas that the AVM can process',
  FEE_PER_GAS: 'Insufficient fee per gas',
  FEE_PAYER_BALANCE: 'Insufficient fee payer balance',
  SETUP_NOT_ALLOWED: 'Setup function not on allow list',
  SETUP_UNKNOWN_CONTRACT: 'Setup function targets unknown contract',
  SETUP_ONLY_SELF: 'Setup only_self function called with incorrect msg_sender',
  SETUP_NULL_SENDER: 'Setup function called with null msg sender',
  SETUP_CALLDATA_LENGTH: 'Setup function called with wrong calldata length',
  NO_PROTOCOL_NULLIFIER: 'Missing protocol nullifier: the first nullifier of a tx must be set',
  PROOF: 'Invalid proof',
  UNEXPECTED: 'Unexpected error during validation',
} as const;

/** The selector of Fee Juice's `_increase_public_balance`, whose setup calls can fund the fee. */
const INCREASE_BALANCE_SELECTOR = BigInt(functionSelector(FEE_JUICE_INCREASE_BALANCE.signature));
const CLAIM_SELECTOR = BigInt(functionSelector(FEE_JUICE_CLAIM.signature));

/** Per-tx maxima over both parts of the tx (each part alone is bounded by the schema). */
const TX_MAXIMA = [
  ['note hashes', (p: TxSideEffects) => p.noteHashes.length, MAX_NOTE_HASHES_PER_TX],
  ['nullifiers', (p: TxSideEffects) => p.nullifiers.length, MAX_NULLIFIERS_PER_TX],
  ['L2-to-L1 messages', (p: TxSideEffects) => p.l2ToL1Msgs.length, MAX_L2_TO_L1_MSGS_PER_TX],
  ['private logs', (p: TxSideEffects) => p.privateLogs.length, MAX_PRIVATE_LOGS_PER_TX],
  [
    'contract class logs',
    (p: TxSideEffects) => p.contractClassLogsHashes.length,
    MAX_CONTRACT_CLASS_LOGS_PER_TX,
  ],
  ['public calls', (p: TxSideEffects) => p.publicCallRequests.length, MAX_ENQUEUED_CALLS_PER_TX],
] as const;

const firstNullifierSlot = (tx: Tx): Fr =>
  (tx.data.forPublic ? tx.data.forPublic.nonRevertibleAccumulatedData : tx.data.forRollup.end).nullifiers[0]!;

/** Checks the tx's own data: hash, calldata and class logs against their commitments, gas used. */
function checkData(
  tx: Tx,
  hash: Fr,
  claimedHash: Fr | undefined,
  commitments: CommitmentHashes | undefined,
  reasons: string[],
): void {
  if (claimedHash !== undefined && claimedHash !== hash) reasons.push(TX_ERROR.INCORRECT_HASH);
  const view = txView(tx);
  // The kernel puts the tx request's hash first among the nullifiers: what makes a replay a double spend.
  if (firstNullifierSlot(tx) === 0n) {
    reasons.push(TX_ERROR.NO_PROTOCOL_NULLIFIER);
  }
  for (const [what, count, max] of TX_MAXIMA) {
    const total = count(view.nonRevertible) + count(view.revertible);
    if (total > max) reasons.push(`Too many ${what} in tx: ${total}, at most ${max}`);
  }
  const logs = [...view.nonRevertible.privateLogs, ...view.revertible.privateLogs];
  if (logs.some((l) => l.emittedLength > PRIVATE_LOG_SIZE_IN_FIELDS))
    reasons.push(TX_ERROR.PRIVATE_LOG_LENGTH);
  const calls = publicCallsOf(tx);
  if (tx.publicFunctionCalldata.length !== calls.length) {
    reasons.push(TX_ERROR.CALLDATA_COUNT);
  } else {
    const wrong = calls.some((call, i) => {
      const given = tx.publicFunctionCalldata[i]!;
      const computed = commitments?.calldata[i] ?? calldataHash(given.values);
      return given.hash !== call.calldataHash || computed !== given.hash;
    });
    if (wrong) reasons.push(TX_ERROR.CALLDATA);
  }
  const totalCalldata = tx.publicFunctionCalldata.reduce((n, c) => n + c.values.length, 0);
  if (totalCalldata > MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS) reasons.push(TX_ERROR.CALLDATA_TOO_LARGE);

  const logHashes = [
    ...view.nonRevertible.contractClassLogsHashes,
    ...view.revertible.contractClassLogsHashes,
  ];
  if (logHashes.length !== tx.contractClassLogFields.length) {
    reasons.push(TX_ERROR.CLASS_LOG_COUNT);
  } else {
    logHashes.forEach((h, i) => {
      const fields = tx.contractClassLogFields[i]!.fields;
      if (h.length > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS || fields.slice(h.length).some((f) => f !== 0n))
        reasons.push(TX_ERROR.CLASS_LOG_LENGTH);
      else if ((commitments?.classLogs[i] ?? contractClassLogHash(fields)) !== h.hash)
        reasons.push(TX_ERROR.CLASS_LOG);
    });
  }
}

/**
 * The Fee Juice setup calls claim for the fee payer: Fee Juice's `_increase_public_balance` and
 * `claim` (of a deposit), whose first two arguments are the recipient and the amount.
 */
function setupClaimFor(tx: Tx): bigint {
  let claimed = 0n;
  const view = txView(tx);
  view.nonRevertible.publicCallRequests.forEach((call, i) => {
    const values = tx.publicFunctionCalldata[i]?.values;
    const isClaim =
      (values?.length === FEE_JUICE_INCREASE_BALANCE.calldataLength &&
        values[0] === INCREASE_BALANCE_SELECTOR) ||
      (values?.length === FEE_JUICE_CLAIM.calldataLength && values[0] === CLAIM_SELECTOR);
    if (
      call.contractAddress === PROTOCOL_CONTRACT_ADDRESSES.feeJuice &&
      isClaim &&
      values![1] === view.feePayer
    ) {
      claimed += values![2]!;
    }
  });
  return claimed;
}

function checkSetup(tx: Tx, allowed: readonly AllowedElement[], reasons: string[]): void {
  txView(tx).nonRevertible.publicCallRequests.forEach((call, i) => {
    const values = tx.publicFunctionCalldata[i]?.values ?? [];
    const selector = values[0];
    const entry = allowed.find(
      (e) => e.address === call.contractAddress && selector !== undefined && BigInt(e.selector) === selector,
    );
    if (!entry) {
      // Entries by class id match through the target's contract class; cairn resolves classes of
      // the protocol contracts only (they have none), so such a target counts as unknown.
      const byClass = allowed.some((e) => e.classId !== undefined && BigInt(e.selector) === selector);
      reasons.push(byClass ? TX_ERROR.SETUP_UNKNOWN_CONTRACT : TX_ERROR.SETUP_NOT_ALLOWED);
      return;
    }
    if (entry.onlySelf && call.msgSender !== call.contractAddress) reasons.push(TX_ERROR.SETUP_ONLY_SELF);
    if (entry.rejectNullMsgSender && call.msgSender === 0n) reasons.push(TX_ERROR.SETUP_NULL_SENDER);
    if (entry.calldataLength !== undefined && values.length !== entry.calldataLength) {
      reasons.push(TX_ERROR.SETUP_CALLDATA_LENGTH);
    }
  });
}

export class TxValidator {
  validate(
    tx: Tx,
    claimedHash: Fr | undefined,
    ctx: ValidationContext,
    options: ValidationOptions = {},
  ): TxValidationResult & { hash?: Fr } {
    const invalid: string[] = [];
    const skipped: string[] = [];
    try {
      const hash = options.hash ?? computeTxHash(tx.data);
      const data = txView(tx);
      const settings = data.gasSettings;

      if (txSize(tx) > MAX_TX_SIZE_BYTES) invalid.push(TX_ERROR.SIZE);
      checkData(tx, hash, claimedHash, options.commitments, invalid);
      if (options.structureOnly) {
        return invalid.length > 0 ? { result: 'invalid', reason: invalid, hash } : { result: 'valid', hash };
      }

      if (data.chainId !== BigInt(ctx.chainId)) invalid.push(TX_ERROR.CHAIN_ID);
      if (data.version !== BigInt(ctx.rollupVersion)) invalid.push(TX_ERROR.VERSION);
      if (data.vkTreeRoot !== VK_TREE_ROOT) invalid.push(TX_ERROR.VK_TREE_ROOT);
      if (data.protocolContractsHash !== PROTOCOL_CONTRACTS_HASH)
        invalid.push(TX_ERROR.PROTOCOL_CONTRACTS_HASH);

      if (ctx.state.findLeaf(TreeId.ARCHIVE, data.anchorBlockHash) === undefined) {
        invalid.push(TX_ERROR.BLOCK_HEADER);
      }
      if (expiredFor(data.expirationTimestamp, ctx.nextBlockNumber, ctx.nextSlotTimestamp))
        invalid.push(TX_ERROR.EXPIRED);

      const limits = settings.gasLimits;
      const minL2 = hasPublicCalls(tx) ? PUBLIC_TX_L2_GAS_OVERHEAD : PRIVATE_TX_L2_GAS_OVERHEAD;
      if (limits.daGas < TX_DA_GAS_OVERHEAD || limits.l2Gas < minL2) invalid.push(TX_ERROR.GAS_LIMIT_TOO_LOW);
      if (
        limits.l2Gas > MAX_PROCESSABLE_L2_GAS ||
        limits.l2Gas > ctx.txsLimits.l2Gas ||
        limits.daGas > ctx.txsLimits.daGas
      ) {
        invalid.push(TX_ERROR.GAS_LIMIT_TOO_HIGH);
      }

      if (!options.skipFeeEnforcement) {
        const max = settings.maxFeesPerGas;
        if (
          max.feePerDaGas < ctx.currentMinFees.feePerDaGas ||
          max.feePerL2Gas < ctx.currentMinFees.feePerL2Gas
        ) {
          skipped.push(TX_ERROR.FEE_PER_GAS);
        }
        const balance = readPublicData(ctx.state, feeJuiceBalanceSlot(data.feePayer)) + setupClaimFor(tx);
        if (balance < txFeeLimit(settings)) invalid.push(TX_ERROR.FEE_PAYER_BALANCE);
      }

      const nullifiers = allNullifiers(tx);
      if (new Set(nullifiers).size !== nullifiers.length) invalid.push(TX_ERROR.DUPLICATE_NULLIFIER);
      if (nullifiers.some((n) => ctx.state.findLeaf(TreeId.NULLIFIER, n) !== undefined)) {
        invalid.push(TX_ERROR.EXISTING_NULLIFIER);
      }
      if (ctx.pendingConflicts) {
        const priority = txPriorityFee(tx);
        if (ctx.pendingConflicts(nullifiers, hash).some((c) => c.priorityFee >= priority)) {
          invalid.push(TX_ERROR.PENDING_NULLIFIER);
        }
      }

      checkSetup(tx, ctx.allowedSetup, invalid);

      if (!options.isSimulation && !ctx.verifier.verify(tx)) invalid.push(TX_ERROR.PROOF);

      if (invalid.length > 0) return { result: 'invalid', reason: [...invalid, ...skipped], hash };
      if (skipped.length > 0) return { result: 'skipped', reason: skipped, hash };
      return { result: 'valid', hash };
    } catch {
      return { result: 'invalid', reason: [...invalid, TX_ERROR.UNEXPECTED] };
    }
  }
}
