// The transaction's journal of public side effects over a read-only AvmWorld: the AvmHost the
// interpreter runs against. It keeps the pending storage writes, note hashes, nullifiers, L2-to-L1
// messages and public logs of one transaction, applies the protocol's rules to them — siloing,
// note-hash nonces, per-transaction limits, the limit on distinct contract classes — and undoes
// them by nested checkpoints: a reverted call frame drops exactly its own effects.
//
// What survives a revert on purpose: the set of contract classes whose bytecode was fetched (the
// unique-class limit counts calls that later reverted, as the protocol does).
import { PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { siloNullifier } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import { poseidon2HashWithSeparator } from '../core/hash/poseidon2.js';
import { NullifierCollisionError, SideEffectLimitError } from './errors.js';
import type { AvmContractInstance, AvmHost, AvmWorld, BytecodeLookup } from './host.js';

/** Per-transaction limits (protocol constants of 4.1.2). */
export const AVM_LIMITS = {
  /** Distinct storage slots a transaction's public calls may write. */
  publicDataWrites: 63,
  noteHashes: 64,
  nullifiers: 64,
  l2ToL1Messages: 8,
  /** Public-log fields, counting a 2-field header per log. */
  publicLogFields: 4096,
  /** Distinct contract classes whose bytecode public calls may run (reverted calls count too). */
  uniqueContractClasses: 21,
} as const;

/** Fields each public log adds to the log-field count on top of its payload (contract and length). */
export const PUBLIC_LOG_HEADER_FIELDS = 2;

/** The most L2 gas one transaction's public execution may be given (enforced by the caller). */
export const AVM_MAX_PROCESSABLE_L2_GAS = 6_000_000;

/** Protocol contracts live at addresses 1..11 and need no deployment nullifier. */
export const MAX_PROTOCOL_CONTRACT_ADDRESS = 11n;

/** Domain separators of note-hash siloing and uniqueness. */
export const NOTE_HASH_SEPARATORS = {
  siloedNoteHash: 3_361_878_420,
  noteHashNonce: 1_721_808_740,
  uniqueNoteHash: 226_850_429,
} as const;

/** A note hash bound to the contract that emitted it. */
export const siloNoteHash = (contract: Fr, noteHash: Fr): Fr =>
  poseidon2HashWithSeparator([contract, noteHash], NOTE_HASH_SEPARATORS.siloedNoteHash);

/** The nonce of the transaction's note hash number `index` (counting every note hash of the tx). */
export const noteHashNonce = (firstNullifier: Fr, index: number): Fr =>
  poseidon2HashWithSeparator([firstNullifier, BigInt(index)], NOTE_HASH_SEPARATORS.noteHashNonce);

/** The note hash as the tree stores it. */
export const uniqueNoteHash = (nonce: Fr, siloedNoteHash: Fr): Fr =>
  poseidon2HashWithSeparator([nonce, siloedNoteHash], NOTE_HASH_SEPARATORS.uniqueNoteHash);

export interface StorageWrite {
  contract: Fr;
  slot: Fr;
  value: Fr;
}

export interface L2ToL1Message {
  contract: Fr;
  recipient: Fr;
  content: Fr;
}

export interface AvmPublicLog {
  contract: Fr;
  fields: Fr[];
}

interface StorageUndo {
  contract: Fr;
  slot: Fr;
  /** The pending value before the write, undefined if the slot had not been written in the tx. */
  previous: Fr | undefined;
}

interface Checkpoint {
  storageUndo: number;
  noteHashes: number;
  nullifiers: number;
  messages: number;
  logs: number;
  logFields: number;
}

export class AvmJournal implements AvmHost {
  /** Pending storage values by contract, then slot. */
  private readonly storage = new Map<Fr, Map<Fr, Fr>>();
  /** Slots in the order they were first written (for effects()). */
  private readonly writeOrder: { contract: Fr; slot: Fr }[] = [];
  private readonly storageUndo: StorageUndo[] = [];
  private readonly pendingNoteHashes: Fr[] = [];
  private readonly pendingNullifiers: Fr[] = [];
  private readonly pendingNullifierSet = new Set<Fr>();
  private readonly messages: L2ToL1Message[] = [];
  private readonly logs: AvmPublicLog[] = [];
  private logFields = 0;
  private readonly classIds = new Set<Fr>();
  private readonly checkpoints: Checkpoint[] = [];

  /**
   * @param world the state before the transaction
   * @param firstNullifier the transaction's first nullifier, which seeds every note-hash nonce
   */
  constructor(
    private readonly world: AvmWorld,
    private readonly firstNullifier: Fr,
  ) {}

  // ---- storage -------------------------------------------------------------------------------

  sload(contract: Fr, slot: Fr): Fr {
    const pending = this.storage.get(contract)?.get(slot);
    return pending ?? this.world.storageRead(contract, slot);
  }

  isStorageCold(contract: Fr, slot: Fr): boolean {
    return this.storage.get(contract)?.has(slot) !== true;
  }

  sstore(contract: Fr, slot: Fr, value: Fr): void {
    let slots = this.storage.get(contract);
    const previous = slots?.get(slot);
    if (previous === undefined) {
      if (this.writeOrder.length >= AVM_LIMITS.publicDataWrites) {
        throw new SideEffectLimitError('public data writes', AVM_LIMITS.publicDataWrites);
      }
      this.writeOrder.push({ contract, slot });
    }
    if (slots === undefined) {
      slots = new Map();
      this.storage.set(contract, slots);
    }
    this.storageUndo.push({ contract, slot, previous });
    slots.set(slot, value);
  }

  // ---- note hashes ---------------------------------------------------------------------------

  noteHashExists(uniqueHash: Fr, leafIndex: bigint): boolean {
    const size = this.world.noteHashTreeSize();
    if (leafIndex < size) return this.world.noteHashAt(leafIndex) === uniqueHash;
    const pending = leafIndex - size;
    return (
      pending < BigInt(this.pendingNoteHashes.length) &&
      this.pendingNoteHashes[Number(pending)] === uniqueHash
    );
  }

  emitNoteHash(contract: Fr, noteHash: Fr): void {
    this.checkNoteHashLimit();
    const nonce = noteHashNonce(this.firstNullifier, this.pendingNoteHashes.length);
    this.pendingNoteHashes.push(uniqueNoteHash(nonce, siloNoteHash(contract, noteHash)));
  }

  /** Appends a note hash that is already unique (one of the tx's private note hashes). */
  insertUniqueNoteHash(uniqueHash: Fr): void {
    this.checkNoteHashLimit();
    this.pendingNoteHashes.push(uniqueHash);
  }

  private checkNoteHashLimit(): void {
    if (this.pendingNoteHashes.length >= AVM_LIMITS.noteHashes) {
      throw new SideEffectLimitError('note hashes', AVM_LIMITS.noteHashes);
    }
  }

  // ---- nullifiers ----------------------------------------------------------------------------

  nullifierExists(siloedNullifier: Fr): boolean {
    return this.pendingNullifierSet.has(siloedNullifier) || this.world.nullifierExists(siloedNullifier);
  }

  emitNullifier(contract: Fr, nullifier: Fr): void {
    this.insertSiloedNullifier(siloNullifier(contract, nullifier));
  }

  /** Inserts an already siloed nullifier (public emission, or one of the tx's private nullifiers). */
  insertSiloedNullifier(siloedNullifier: Fr): void {
    // The limit is checked before the collision, as the protocol does.
    if (this.pendingNullifiers.length >= AVM_LIMITS.nullifiers) {
      throw new SideEffectLimitError('nullifiers', AVM_LIMITS.nullifiers);
    }
    if (this.nullifierExists(siloedNullifier)) throw new NullifierCollisionError(siloedNullifier);
    this.pendingNullifiers.push(siloedNullifier);
    this.pendingNullifierSet.add(siloedNullifier);
  }

  // ---- messages and logs ---------------------------------------------------------------------

  l1ToL2MessageExists(messageHash: Fr, leafIndex: bigint): boolean {
    return this.world.l1ToL2MessageAt(leafIndex) === messageHash;
  }

  sendL2ToL1Message(contract: Fr, recipient: Fr, content: Fr): void {
    if (this.messages.length >= AVM_LIMITS.l2ToL1Messages) {
      throw new SideEffectLimitError('L2-to-L1 messages', AVM_LIMITS.l2ToL1Messages);
    }
    this.messages.push({ contract, recipient, content });
  }

  emitPublicLog(contract: Fr, fields: Fr[]): void {
    const size = fields.length + PUBLIC_LOG_HEADER_FIELDS;
    if (this.logFields + size > AVM_LIMITS.publicLogFields) {
      throw new SideEffectLimitError('public log fields', AVM_LIMITS.publicLogFields);
    }
    this.logs.push({ contract, fields });
    this.logFields += size;
  }

  // ---- contracts -----------------------------------------------------------------------------

  getContractInstance(address: Fr): AvmContractInstance | undefined {
    const instance = this.world.getContractInstance(address);
    if (instance === undefined) return undefined;
    if (address >= 1n && address <= MAX_PROTOCOL_CONTRACT_ADDRESS) return instance;
    // Any other contract exists for the AVM only once the instance registry emitted its deployment nullifier.
    const deployed = this.nullifierExists(
      siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, address),
    );
    return deployed ? instance : undefined;
  }

  getBytecode(address: Fr): BytecodeLookup {
    const instance = this.getContractInstance(address);
    if (instance === undefined) return { ok: false, reason: 'not-deployed' };
    const classId = instance.currentClassId;
    const bytecode = this.world.getBytecode(classId);
    if (bytecode === undefined) return { ok: false, reason: 'no-class' };
    if (!this.classIds.has(classId)) {
      if (this.classIds.size >= AVM_LIMITS.uniqueContractClasses)
        return { ok: false, reason: 'unique-class-limit' };
      this.classIds.add(classId);
    }
    return { ok: true, classId, bytecode };
  }

  // ---- checkpoints ---------------------------------------------------------------------------

  checkpoint(): void {
    this.checkpoints.push({
      storageUndo: this.storageUndo.length,
      noteHashes: this.pendingNoteHashes.length,
      nullifiers: this.pendingNullifiers.length,
      messages: this.messages.length,
      logs: this.logs.length,
      logFields: this.logFields,
    });
  }

  commit(): void {
    if (this.checkpoints.pop() === undefined) throw new Error('commit() without an open checkpoint');
  }

  revert(): void {
    const mark = this.checkpoints.pop();
    if (mark === undefined) throw new Error('revert() without an open checkpoint');
    while (this.storageUndo.length > mark.storageUndo) {
      const { contract, slot, previous } = this.storageUndo.pop()!;
      const slots = this.storage.get(contract)!;
      if (previous === undefined) {
        slots.delete(slot);
        // Undoing in reverse order means a first write is always the latest entry of writeOrder.
        this.writeOrder.pop();
      } else {
        slots.set(slot, previous);
      }
    }
    this.pendingNoteHashes.length = mark.noteHashes;
    while (this.pendingNullifiers.length > mark.nullifiers) {
      this.pendingNullifierSet.delete(this.pendingNullifiers.pop()!);
    }
    this.messages.length = mark.messages;
    this.logs.length = mark.logs;
    this.logFields = mark.logFields;
  }

  /** Open checkpoints (0 once every call frame has ended). */
  get depth(): number {
    return this.checkpoints.length;
  }

  // ---- effects -------------------------------------------------------------------------------

  /** The final value of every slot written, in the order slots were first written. */
  storageWrites(): StorageWrite[] {
    return this.writeOrder.map(({ contract, slot }) => ({
      contract,
      slot,
      value: this.storage.get(contract)!.get(slot)!,
    }));
  }

  /** Unique note hashes in insertion order (private ones inserted through the journal included). */
  noteHashes(): Fr[] {
    return [...this.pendingNoteHashes];
  }

  /** Siloed nullifiers in insertion order. */
  nullifiers(): Fr[] {
    return [...this.pendingNullifiers];
  }

  l2ToL1Messages(): L2ToL1Message[] {
    return [...this.messages];
  }

  publicLogs(): AvmPublicLog[] {
    return this.logs.map((l) => ({ contract: l.contract, fields: [...l.fields] }));
  }

  /** Contract classes whose bytecode was fetched in this transaction. */
  contractClassesUsed(): Fr[] {
    return [...this.classIds];
  }
}
