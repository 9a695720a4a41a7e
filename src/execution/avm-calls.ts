// Public calls to published contracts, run on the AVM (src/avm/) with the bytecode of the
// contract's current class. The executor keeps the tx's public state (storage through its
// PublicStateJournal, nullifiers, logs) and the protocol contracts run natively beside the AVM; so
// each top-level AVM call gets a fresh AvmJournal over the tx's state so far, first given what the
// tx already did (its note hashes, nullifiers, messages, logs, the slots and classes its earlier
// AVM calls used) so that limits, note-hash nonces and SSTORE's first-write charge count the whole
// tx; what the call adds is then carried back. Everything here is synchronous.
import type { AvmContractInstance, AvmWorld } from '../avm/host.js';
import { type AvmCallResult, type AvmGlobals, executePublicCall } from '../avm/interpreter.js';
import { AVM_MAX_PROCESSABLE_L2_GAS, AvmJournal } from '../avm/journal.js';
import type { PublicLog } from '../core/block.js';
import type { GlobalVariables } from '../core/block-header.js';
import type { ContractInstance } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import { toHex32 } from '../core/field.js';
import type { Gas } from '../core/tx.js';
import type { TxSideEffects } from '../core/tx-view.js';
import { TreeId, type WorldStateReader } from '../world-state/types.js';
import { scheduledClassAt } from './protocol-contracts.js';
import { type PublicStateJournal, publicDataLeafSlot } from './public-storage.js';

/** Where public execution finds published contracts (the node's contract index). */
export interface PublicContracts {
  /** The instance published at `address`: its deployer, original class and initialization hash. */
  instance(address: Fr): PublicInstance | undefined;
  /** The public bytecode of a published class. */
  bytecode(classId: Fr): Uint8Array | undefined;
  /** What revert data means, where the node knows the error (the genesis contracts' artifacts). */
  revertMessage?(revertData: readonly Fr[]): string | undefined;
}

/** What public execution reads of an instance. */
export interface PublicInstance {
  deployer: Fr;
  originalClassId: Fr;
  initializationHash: Fr;
}

/** An instance as public execution sees it (its original class: class updates apply on top). */
export const publicInstanceOf = (i: ContractInstance): PublicInstance => ({
  deployer: i.deployer,
  originalClassId: i.originalContractClassId,
  initializationHash: i.initializationHash,
});

/** An L2-to-L1 message sent by public execution. */
export interface PublicMessage {
  sender: Fr;
  recipient: Fr;
  content: Fr;
}

/**
 * What the tx's AVM calls have done so far beyond the PublicStateJournal (note hashes, messages,
 * the slots written and contracts called), with marks so a phase that reverts can be undone.
 */
export class AvmTxState {
  readonly noteHashes: Fr[] = [];
  readonly messages: PublicMessage[] = [];
  readonly writtenSlots: { contract: Fr; slot: Fr }[] = [];
  readonly calledAddresses: Fr[] = [];

  mark(): number[] {
    return [
      this.noteHashes.length,
      this.messages.length,
      this.writtenSlots.length,
      this.calledAddresses.length,
    ];
  }

  rollback([noteHashes, messages, slots, called]: number[]): void {
    this.noteHashes.length = noteHashes!;
    this.messages.length = messages!;
    this.writtenSlots.length = slots!;
    this.calledAddresses.length = called!;
  }
}

/** The tx's private side effects that count towards the AVM's per-tx limits in the current phase. */
export interface PrivateEffectsSoFar {
  noteHashes: readonly Fr[];
  nullifiers: readonly Fr[];
  messages: readonly PublicMessage[];
}

/** The private side effects of these parts of a tx (non-revertible, then revertible). */
export const privateEffectsOf = (parts: readonly TxSideEffects[]): PrivateEffectsSoFar => ({
  noteHashes: parts.flatMap((p) => p.noteHashes),
  nullifiers: parts.flatMap((p) => p.nullifiers),
  messages: parts.flatMap((p) =>
    p.l2ToL1Msgs.map((m) => ({ sender: m.sender, recipient: BigInt(m.recipient), content: m.content })),
  ),
});

/** The leaf at `index` of an append-only tree, undefined past its end. */
export function leafAt(
  reader: WorldStateReader,
  tree: TreeId.NOTE_HASH | TreeId.L1_TO_L2_MESSAGE,
  index: bigint,
): Fr | undefined {
  return index < BigInt(reader.snapshot(tree).nextAvailableLeafIndex)
    ? reader.getLeafValue(tree, Number(index))
    : undefined;
}

export interface AvmCallInput {
  reader: WorldStateReader;
  state: PublicStateJournal;
  avm: AvmTxState;
  contracts: PublicContracts;
  privateSoFar: PrivateEffectsSoFar;
  firstNullifier: Fr;
  globals: GlobalVariables;
  call: { sender: Fr; address: Fr; isStaticCall: boolean; calldata: readonly Fr[] };
  gasLimit: Gas;
  transactionFee: Fr;
}

/** The world as the tx has left it so far, as the AVM journal reads it. */
function worldOf(input: AvmCallInput): AvmWorld {
  const { reader, state, contracts, globals } = input;
  return {
    storageRead: (contract, slot) => state.read(publicDataLeafSlot(contract, slot)),
    nullifierExists: (siloed) => reader.findLeaf(TreeId.NULLIFIER, siloed) !== undefined,
    noteHashTreeSize: () => BigInt(reader.snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex),
    noteHashAt: (index) => leafAt(reader, TreeId.NOTE_HASH, index),
    l1ToL2MessageAt: (index) => leafAt(reader, TreeId.L1_TO_L2_MESSAGE, index),
    getContractInstance(address): AvmContractInstance | undefined {
      const published = contracts.instance(address);
      if (published === undefined) return undefined;
      // The class in force: the instance registry's scheduled update, once its time has come.
      const scheduled = scheduledClassAt(address, globals.timestamp, (slot) => state.read(slot));
      return {
        deployer: published.deployer,
        currentClassId: scheduled === 0n ? published.originalClassId : scheduled,
        initializationHash: published.initializationHash,
      };
    },
    getBytecode: (classId) => contracts.bytecode(classId),
  };
}

const avmGlobals = (g: GlobalVariables): AvmGlobals => ({
  chainId: g.chainId,
  version: g.version,
  blockNumber: g.blockNumber,
  timestamp: g.timestamp,
  feePerDaGas: g.gasFees.feePerDaGas,
  feePerL2Gas: g.gasFees.feePerL2Gas,
});

/**
 * Runs one top-level public call on the AVM. On success its effects go into `state` (storage,
 * nullifiers, logs) and `avm` (note hashes, messages); on a revert nothing does. Returns the AVM's
 * result with the gas it used.
 */
export function runAvmCall(input: AvmCallInput): AvmCallResult & { gasUsed: Gas } {
  const { state, avm, privateSoFar, call } = input;
  const journal = new AvmJournal(worldOf(input), input.firstNullifier);
  // What the tx did before this call, so that limits and nonces count the whole tx.
  for (const h of privateSoFar.noteHashes) journal.insertUniqueNoteHash(h);
  for (const h of avm.noteHashes) journal.insertUniqueNoteHash(h);
  for (const n of privateSoFar.nullifiers) journal.insertSiloedNullifier(n);
  for (const n of state.nullifiers()) journal.insertSiloedNullifier(n);
  for (const m of privateSoFar.messages) journal.sendL2ToL1Message(m.sender, m.recipient, m.content);
  for (const m of avm.messages) journal.sendL2ToL1Message(m.sender, m.recipient, m.content);
  for (const log of state.logs()) journal.emitPublicLog(log.contractAddress, log.fields);
  for (const { contract, slot } of avm.writtenSlots)
    journal.sstore(contract, slot, journal.sload(contract, slot));
  for (const address of avm.calledAddresses) journal.getBytecode(address);
  const seen = {
    noteHashes: journal.noteHashes().length,
    nullifiers: journal.nullifiers().length,
    messages: journal.l2ToL1Messages().length,
    logs: journal.publicLogs().length,
    slots: new Set(avm.writtenSlots.map(({ contract, slot }) => `${contract}/${slot}`)),
  };

  const gasLimit = {
    l2: Math.max(0, Math.min(input.gasLimit.l2Gas, AVM_MAX_PROCESSABLE_L2_GAS)),
    da: Math.max(0, input.gasLimit.daGas),
  };
  const result = executePublicCall(journal, {
    address: call.address,
    sender: call.sender,
    calldata: call.calldata,
    isStaticCall: call.isStaticCall,
    gasLimit,
    transactionFee: input.transactionFee,
    globals: avmGlobals(input.globals),
  });
  const gasUsed = { l2Gas: gasLimit.l2 - result.gasLeft.l2, daGas: gasLimit.da - result.gasLeft.da };
  if (result.reverted) return { ...result, gasUsed };

  avm.calledAddresses.push(call.address);
  // Every slot written goes into the tx's effect, even with the value it had (a 0 into an empty
  // slot included): the reference squashes the AVM's writes per slot and drops none.
  for (const { contract, slot, value } of journal.storageWrites()) {
    const leafSlot = publicDataLeafSlot(contract, slot);
    if (!seen.slots.has(`${contract}/${slot}`)) avm.writtenSlots.push({ contract, slot });
    state.write(leafSlot, value);
  }
  for (const n of journal.nullifiers().slice(seen.nullifiers)) state.emitNullifier(n);
  avm.noteHashes.push(...journal.noteHashes().slice(seen.noteHashes));
  for (const m of journal.l2ToL1Messages().slice(seen.messages)) {
    avm.messages.push({ sender: m.contract, recipient: m.recipient, content: m.content });
  }
  for (const log of journal.publicLogs().slice(seen.logs)) {
    const publicLog: PublicLog = { contractAddress: log.contract, fields: log.fields };
    state.emitLog(publicLog);
  }
  return { ...result, gasUsed };
}

/** A reverted AVM call's reason as the receipt gives it: the AVM's reason and the revert data. */
export function avmRevertReason(
  result: AvmCallResult,
  messageOf?: (revertData: readonly Fr[]) => string | undefined,
): string {
  let reason =
    result.revertReason ??
    (result.exceptionalHalt ? `exceptional halt: ${result.exceptionalHalt}` : 'reverted');
  // A failed assertion whose error the node knows is named, as a wallet with the artifact would.
  const message = reason === 'Assertion failed' ? messageOf?.(result.output) : undefined;
  if (message !== undefined) reason = `${reason}: ${message}`;
  if (result.output.length === 0) return reason;
  return `${reason} (revert data ${result.output.map(toHex32).join(', ')})`;
}
