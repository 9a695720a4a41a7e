// Turns a tx into its effect on the state (docs/transactions.md), reading but never writing the world state:
// the caller applies the effect (block builder) or throws it away (simulation).
//
// Order: the non-revertible private effects; setup calls (a failure makes the tx unincludable);
// app-logic calls and teardown on top of a journal mark (a failure of either reverts both, with
// the revertible private effects); then the fee — billed gas times the effective fee per gas —
// moves from the fee payer's Fee Juice balance to the block's fee recipient.

import { noteHashNonce, uniqueNoteHash } from '../avm/journal.js';
import { type ContractClassLog, RevertCode, type TxEffect } from '../core/block.js';
import type { GlobalVariables } from '../core/block-header.js';
import { type Fr, toHex32 } from '../core/field.js';
import { l2ToL1MessageLeaf } from '../core/out-hash.js';
import {
  DA_GAS_PER_FIELD,
  effectiveFeesPerGas,
  FIXED_AVM_STARTUP_L2_GAS,
  feeFor,
  type Gas,
  L2_GAS_PER_PUBLIC_DATA_WRITE,
  MAX_NULLIFIERS_PER_TX,
  type Tx,
} from '../core/tx.js';
import {
  allNullifiers,
  type PublicCallRequest,
  publicCallsOf,
  type TxSideEffects,
  txView,
} from '../core/tx-view.js';
import { TreeId, type WorldStateReader } from '../world-state/types.js';
import {
  AvmTxState,
  avmRevertReason,
  leafAt,
  type PrivateEffectsSoFar,
  type PublicContracts,
  privateEffectsOf,
  runAvmCall,
} from './avm-calls.js';
import { ContractsInBlock } from './contracts-in-block.js';
import {
  feeJuiceBalanceSlot,
  isNativeCall,
  PublicCallRevert,
  type PublicContext,
  runNativeCall,
} from './protocol-contracts.js';
import { PublicStateJournal } from './public-storage.js';

/** The tx cannot go in a block at all (as opposed to reverting): it is dropped. */
export class TxExecutionError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TxExecutionError';
  }
}

export interface GasUsed {
  /** Private plus public gas, teardown at its actual use. */
  totalGas: Gas;
  teardownGas: Gas;
  publicGas: Gas;
  /** What the fee is charged for: total gas with teardown at its limit. */
  billedGas: Gas;
}

export interface TxExecutionResult {
  txHash: Fr;
  effect: TxEffect;
  revertReason?: string;
  /** The revert data of the AVM call that made the tx revert (e.g. an error selector and fields), if any. */
  revertData?: Fr[];
  gasUsed: GasUsed;
  /** The values each public call returned, one entry per call in execution order (empty for a call that failed). */
  publicReturnValues: { values: Fr[] }[];
}

export interface ExecutionOptions {
  /**
   * The contracts public calls can reach (published ones and the genesis contracts), run on the
   * AVM; without it only cairn's native Fee Juice claim runs.
   */
  contracts?: PublicContracts;
  /** Charge no fee and skip the balance check (simulation). */
  skipFeeEnforcement?: boolean;
  /** The L1 address of the Fee Juice portal, whose deposits Fee Juice's claim consumes. */
  feeJuicePortal?: string;
}

const addGas = (a: Gas, b: Gas): Gas => ({ daGas: a.daGas + b.daGas, l2Gas: a.l2Gas + b.l2Gas });
const ZERO_GAS: Gas = { daGas: 0, l2Gas: 0 };

/**
 * Gas of one public call: AVM start-up plus its storage writes and, in DA gas, its public logs
 * (their fields plus the contract address and length of each).
 */
const callGas = (writes: number, logFields: number, logs: number): Gas => ({
  daGas: (writes * 2 + logFields + 2 * logs) * DA_GAS_PER_FIELD,
  l2Gas: FIXED_AVM_STARTUP_L2_GAS + writes * L2_GAS_PER_PUBLIC_DATA_WRITE,
});

/** Checks that none of the tx's nullifiers is already in the tree (or twice in the tx). */
function checkNullifiers(reader: WorldStateReader, tx: Tx): void {
  const seen = new Set<Fr>();
  for (const nullifier of allNullifiers(tx)) {
    if (seen.has(nullifier)) throw new TxExecutionError('Duplicate nullifier in tx');
    seen.add(nullifier);
    if (reader.findLeaf(TreeId.NULLIFIER, nullifier) !== undefined) {
      throw new TxExecutionError('Existing nullifier');
    }
  }
}

/**
 * The contract class logs of `parts`, the non-revertible part of `tx` or both its parts (the tx
 * carries the logs' fields in that order).
 */
function classLogsOf(tx: Tx, parts: readonly TxSideEffects[]): ContractClassLog[] {
  let index = 0;
  return parts.flatMap((p) =>
    p.contractClassLogsHashes.map((h) => ({
      contractAddress: h.contractAddress,
      fields: { fields: tx.contractClassLogFields[index++]!.fields },
      emittedLength: h.length,
    })),
  );
}

export function executeTx(
  reader: WorldStateReader,
  tx: Tx,
  txHash: Fr,
  globals: GlobalVariables,
  options: ExecutionOptions = {},
): TxExecutionResult {
  const data = txView(tx);
  const settings = data.gasSettings;
  checkNullifiers(reader, tx);
  const calls = publicCallsOf(tx);
  if (tx.publicFunctionCalldata.length !== calls.length) {
    throw new TxExecutionError('Wrong number of calldata for public calls');
  }
  const journal = new PublicStateJournal(reader);
  // The tx's own nullifiers a public call sees: the non-revertible ones from setup on, the
  // revertible ones during app logic, and in teardown only if app logic did not revert.
  let txNullifiers = new Set<Fr>();
  // The same, with the tx's other private side effects, as the AVM's per-tx limits count them.
  let privateSoFar: PrivateEffectsSoFar = privateEffectsOf([]);
  // Contracts the tx publishes itself are callable from the part that publishes them on.
  let contracts: ContractsInBlock | undefined;
  const countPrivate = (parts: TxSideEffects[]): void => {
    privateSoFar = privateEffectsOf(parts);
    txNullifiers = new Set(privateSoFar.nullifiers);
    if (options.contracts === undefined) return;
    contracts = new ContractsInBlock(options.contracts);
    contracts.add({
      contractClassLogs: classLogsOf(tx, parts),
      privateLogs: parts.flatMap((p) => p.privateLogs),
    });
  };
  countPrivate([data.nonRevertible]);
  const context: PublicContext = {
    state: journal,
    timestamp: globals.timestamp,
    chainId: BigInt(globals.chainId),
    rollupVersion: BigInt(globals.version),
    nullifierExists: (siloed) =>
      txNullifiers.has(siloed) ||
      journal.hasNullifier(siloed) ||
      reader.findLeaf(TreeId.NULLIFIER, siloed) !== undefined,
    emitNullifier(siloed) {
      if (this.nullifierExists(siloed)) throw new PublicCallRevert('Nullifier already exists');
      if (txNullifiers.size + journal.nullifiers().length >= MAX_NULLIFIERS_PER_TX) {
        throw new PublicCallRevert(`Too many nullifiers: a tx emits at most ${MAX_NULLIFIERS_PER_TX}`);
      }
      journal.emitNullifier(siloed);
    },
    l1ToL2MessageAt: (index) => leafAt(reader, TreeId.L1_TO_L2_MESSAGE, index),
    feeJuicePortal: options.feeJuicePortal,
  };
  const returnValues: { values: Fr[] }[] = [];
  let publicGas = ZERO_GAS;
  let callIndex = 0;
  // Calls to published contracts run on the AVM: what they did beyond the journal.
  const avm = new AvmTxState();
  let phase: 'setup' | 'app' | 'teardown' = 'setup';
  const gasLeft = (): Gas => {
    if (phase === 'teardown') {
      const used = teardownUsed();
      return {
        daGas: settings.teardownGasLimits.daGas - used.daGas,
        l2Gas: settings.teardownGasLimits.l2Gas - used.l2Gas,
      };
    }
    return {
      daGas:
        settings.gasLimits.daGas - settings.teardownGasLimits.daGas - data.gasUsed.daGas - publicGas.daGas,
      l2Gas:
        settings.gasLimits.l2Gas - settings.teardownGasLimits.l2Gas - data.gasUsed.l2Gas - publicGas.l2Gas,
    };
  };
  let teardownStart = ZERO_GAS;
  const feeOf = (billed: Gas): bigint =>
    options.skipFeeEnforcement ? 0n : feeFor(billed, effectiveFeesPerGas(settings, globals.gasFees));
  const teardownUsed = (): Gas => ({
    daGas: publicGas.daGas - teardownStart.daGas,
    l2Gas: publicGas.l2Gas - teardownStart.l2Gas,
  });

  let revertData: Fr[] = [];
  /** A call to a published contract, on the AVM; its gas is what the AVM used. */
  const runOnAvm = (request: PublicCallRequest, calldata: Fr[], entry: { values: Fr[] }): void => {
    if (contracts === undefined) {
      // Without a contract source the call cannot start: it costs the AVM's start-up, as before.
      publicGas = addGas(publicGas, callGas(0, 0, 0));
      throw new PublicCallRevert(
        `public execution of contract ${toHex32(request.contractAddress)} is not supported here: no contract source`,
      );
    }
    const result = runAvmCall({
      reader,
      state: journal,
      avm,
      contracts,
      privateSoFar,
      firstNullifier: data.nonRevertible.nullifiers[0] ?? 0n,
      globals,
      call: {
        sender: request.msgSender,
        address: request.contractAddress,
        isStaticCall: request.isStaticCall,
        calldata,
      },
      gasLimit: gasLeft(),
      // Known from teardown on: the bill counts teardown at its limit, so it is fixed by then.
      transactionFee:
        phase === 'teardown'
          ? feeOf(addGas(addGas(data.gasUsed, teardownStart), settings.teardownGasLimits))
          : 0n,
    });
    publicGas = addGas(publicGas, result.gasUsed);
    if (result.reverted)
      throw new PublicCallRevert(
        avmRevertReason(result, (data) => options.contracts?.revertMessage?.(data)),
        result.output,
      );
    entry.values = result.output;
  };

  const run = (request: PublicCallRequest): void => {
    const calldata = tx.publicFunctionCalldata[callIndex++]!.values;
    const mark = journal.mark();
    // Each call gets an entry, empty until (unless) it returns.
    const entry: { values: Fr[] } = { values: [] };
    returnValues.push(entry);
    if (!isNativeCall(request.contractAddress, calldata)) {
      runOnAvm(request, calldata, entry);
      return;
    }
    try {
      entry.values = runNativeCall(
        {
          msgSender: request.msgSender,
          contractAddress: request.contractAddress,
          isStaticCall: request.isStaticCall,
          calldata,
        },
        context,
      );
    } finally {
      const after = journal.mark();
      publicGas = addGas(
        publicGas,
        callGas(journal.writesSince(mark), journal.logFieldsSince(mark), after.logs - mark.logs),
      );
    }
  };

  for (const request of data.nonRevertible.publicCallRequests) {
    try {
      run(request);
    } catch (err) {
      if (err instanceof PublicCallRevert) throw new TxExecutionError(`Setup call reverted: ${err.message}`);
      throw err;
    }
  }

  const appMark = journal.mark();
  const avmAppMark = avm.mark();
  // Revertible note hashes come from private siloed but not unique (private cannot know where they
  // land): each takes its nonce here, after the non-revertible ones and those setup emitted, in
  // the reference's order.
  const setupNoteHashes = avm.noteHashes.length;
  const firstNullifier = data.nonRevertible.nullifiers[0] ?? 0n;
  const revertible: TxSideEffects = {
    ...data.revertible,
    noteHashes: data.revertible.noteHashes.map((siloed, j) =>
      uniqueNoteHash(
        noteHashNonce(firstNullifier, data.nonRevertible.noteHashes.length + setupNoteHashes + j),
        siloed,
      ),
    ),
  };
  countPrivate([data.nonRevertible, revertible]);
  phase = 'app';
  let revertReason: string | undefined;
  try {
    // The revertible nullifiers go in after setup: one that setup already emitted, or one too
    // many beside setup's, reverts app logic (as a failed insertion would).
    const emitted = journal.nullifiers();
    if (data.revertible.nullifiers.some((n) => emitted.includes(n))) {
      throw new PublicCallRevert('a revertible nullifier was already emitted in setup');
    }
    if (txNullifiers.size + emitted.length > MAX_NULLIFIERS_PER_TX) {
      throw new PublicCallRevert(`Too many nullifiers: a tx emits at most ${MAX_NULLIFIERS_PER_TX}`);
    }
    for (const request of data.revertible.publicCallRequests) run(request);
    const used = addGas(data.gasUsed, publicGas);
    const limit = settings.gasLimits;
    const teardownLimit = settings.teardownGasLimits;
    if (used.l2Gas + teardownLimit.l2Gas > limit.l2Gas || used.daGas + teardownLimit.daGas > limit.daGas) {
      throw new PublicCallRevert('Not enough gas left for app logic');
    }
  } catch (err) {
    if (!(err instanceof PublicCallRevert)) throw err;
    revertReason = `App logic reverted: ${err.message}`;
    revertData = err.data;
    journal.rollback(appMark);
    avm.rollback(avmAppMark);
    countPrivate([data.nonRevertible]);
  }

  let teardownGas = ZERO_GAS;
  if (data.publicTeardownCallRequest) {
    phase = 'teardown';
    teardownStart = publicGas;
    try {
      try {
        run(data.publicTeardownCallRequest);
      } finally {
        // What teardown used, even when it failed: the bill counts teardown at its limit instead.
        teardownGas = teardownUsed();
      }
      if (
        teardownGas.l2Gas > settings.teardownGasLimits.l2Gas ||
        teardownGas.daGas > settings.teardownGasLimits.daGas
      ) {
        throw new PublicCallRevert('Not enough gas left for teardown');
      }
    } catch (err) {
      if (!(err instanceof PublicCallRevert)) throw err;
      if (revertReason === undefined) {
        revertReason = `Teardown reverted: ${err.message}`;
        revertData = err.data;
      }
      journal.rollback(appMark);
      avm.rollback(avmAppMark);
    }
  }

  const totalGas = addGas(data.gasUsed, publicGas);
  const billedGas = addGas(
    { daGas: totalGas.daGas - teardownGas.daGas, l2Gas: totalGas.l2Gas - teardownGas.l2Gas },
    settings.teardownGasLimits,
  );
  const fee = feeOf(billedGas);
  const payerSlot = feeJuiceBalanceSlot(data.feePayer);
  const balance = journal.read(payerSlot);
  if (balance < fee) throw new TxExecutionError('Insufficient fee payer balance');
  if (fee > 0n) {
    journal.write(payerSlot, balance - fee);
    const recipientSlot = feeJuiceBalanceSlot(globals.feeRecipient);
    journal.write(recipientSlot, journal.read(recipientSlot) + fee);
  }

  const parts: TxSideEffects[] = revertReason ? [data.nonRevertible] : [data.nonRevertible, revertible];
  const effect: TxEffect = {
    revertCode: revertReason ? RevertCode.REVERTED : RevertCode.OK,
    txHash,
    transactionFee: fee,
    // In the order they were made: non-revertible, setup's, revertible, then app logic's and teardown's.
    noteHashes: [
      ...data.nonRevertible.noteHashes,
      ...avm.noteHashes.slice(0, setupNoteHashes),
      ...(revertReason ? [] : revertible.noteHashes),
      ...avm.noteHashes.slice(setupNoteHashes),
    ],
    nullifiers: [...parts.flatMap((p) => p.nullifiers), ...journal.nullifiers()],
    l2ToL1Msgs: [
      ...parts.flatMap((p) => p.l2ToL1Msgs),
      ...avm.messages.map((m) => ({
        sender: m.sender,
        recipient: `0x${m.recipient.toString(16).padStart(40, '0')}`,
        content: m.content,
      })),
    ].map((m) =>
      l2ToL1MessageLeaf({
        sender: m.sender,
        recipient: m.recipient,
        content: m.content,
        rollupVersion: globals.version,
        chainId: globals.chainId,
      }),
    ),
    publicDataWrites: journal.effects(),
    privateLogs: parts.flatMap((p) => p.privateLogs),
    publicLogs: journal.logs(),
    contractClassLogs: classLogsOf(tx, parts),
  };
  return {
    txHash,
    effect,
    ...(revertReason ? { revertReason } : {}),
    ...(revertData.length > 0 ? { revertData } : {}),
    gasUsed: { totalGas, teardownGas, publicGas, billedGas },
    publicReturnValues: returnValues,
  };
}
