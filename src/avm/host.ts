// The two interfaces between the interpreter and the node's state, both synchronous.
//
// AvmHost is what the interpreter calls while executing: state reads and writes as the opcodes
// see them (unsiloed contract/slot pairs, unsiloed note hashes and nullifiers), plus nested
// checkpoints around each call frame. AvmJournal (journal.ts) is the implementation: it adds the
// per-transaction rules (siloing, note-hash uniqueness, side-effect limits, the unique-class
// limit) and keeps the transaction's pending effects.
//
// AvmWorld is what the journal reads underneath: the trees and contract data as they were when
// the transaction started. It is read-only; the host applies the journal's effects afterwards.
import type { Fr } from '../core/field.js';

/** A contract instance as the AVM sees it. */
export interface AvmContractInstance {
  deployer: Fr;
  /** The class the instance runs now (after any class update that has taken effect). */
  currentClassId: Fr;
  initializationHash: Fr;
}

/** Bytecode to run for an address, or why there is none. */
export type BytecodeLookup =
  | { ok: true; classId: Fr; bytecode: Uint8Array }
  | { ok: false; reason: 'not-deployed' | 'no-class' | 'unique-class-limit' };

export interface AvmHost {
  /** Public storage of any contract (0 when never written). */
  sload(contract: Fr, slot: Fr): Fr;
  /** Whether (contract, slot) has not been written yet in this transaction (SSTORE's DA surcharge). */
  isStorageCold(contract: Fr, slot: Fr): boolean;
  /** Writes the calling contract's storage; throws SideEffectLimitError past the limit of distinct slots. */
  sstore(contract: Fr, slot: Fr, value: Fr): void;
  /** Whether the note-hash tree leaf at `leafIndex` (pending ones included) equals `uniqueNoteHash`. */
  noteHashExists(uniqueNoteHash: Fr, leafIndex: bigint): boolean;
  /** Silos, makes unique and appends a note hash; throws SideEffectLimitError past the limit. */
  emitNoteHash(contract: Fr, noteHash: Fr): void;
  /** Whether a siloed nullifier is in the tree or pending. */
  nullifierExists(siloedNullifier: Fr): boolean;
  /** Silos and inserts; throws NullifierCollisionError or SideEffectLimitError. */
  emitNullifier(contract: Fr, nullifier: Fr): void;
  /** Whether the L1-to-L2 message tree leaf at `leafIndex` equals `messageHash`. */
  l1ToL2MessageExists(messageHash: Fr, leafIndex: bigint): boolean;
  /** A deployed instance (its deployment nullifier exists, or it is a protocol contract), else undefined. */
  getContractInstance(address: Fr): AvmContractInstance | undefined;
  /** The bytecode to run at `address`; counts the class towards the unique-class limit. */
  getBytecode(address: Fr): BytecodeLookup;
  /** Throws SideEffectLimitError past the public-log field limit. */
  emitPublicLog(contract: Fr, fields: Fr[]): void;
  /** Throws SideEffectLimitError past the message limit. */
  sendL2ToL1Message(contract: Fr, recipient: Fr, content: Fr): void;
  /** Opens a nested checkpoint; commit() keeps its effects in the enclosing one, revert() undoes them. */
  checkpoint(): void;
  commit(): void;
  revert(): void;
}

/** The state before the transaction, as the journal reads it. */
export interface AvmWorld {
  /** Public storage of (contract, slot), 0 if never written (the world computes the leaf slot). */
  storageRead(contract: Fr, slot: Fr): Fr;
  /** Whether a siloed nullifier is in the nullifier tree. */
  nullifierExists(siloedNullifier: Fr): boolean;
  /** Leaves in the note-hash tree: the index the transaction's first note hash will get. */
  noteHashTreeSize(): bigint;
  /** The note-hash tree leaf at `leafIndex` (< noteHashTreeSize()). */
  noteHashAt(leafIndex: bigint): Fr | undefined;
  /** The L1-to-L2 message tree leaf at `leafIndex`, undefined past the end. */
  l1ToL2MessageAt(leafIndex: bigint): Fr | undefined;
  /**
   * The instance at `address` with its current class id (class updates applied as of the
   * transaction's timestamp), undefined if the node knows none. The journal separately requires
   * the deployment nullifier for non-protocol addresses.
   */
  getContractInstance(address: Fr): AvmContractInstance | undefined;
  /** The public bytecode of a class, undefined if the class is unknown. */
  getBytecode(classId: Fr): Uint8Array | undefined;
}
