// Public storage as seen by public execution: leaf slots derived from (contract, storage slot)
// (docs/transactions.md, "Execution"), and a journal of writes, public logs and nullifiers over a world-state
// reader that can be rolled back to a mark — a reverted phase leaves none of them behind.
import type { PublicDataWriteEffect, PublicLog } from '../core/block.js';
import type { Fr } from '../core/field.js';
import { poseidon2HashWithSeparator } from '../core/hash/poseidon2.js';
import { TreeId, type WorldStateReader } from '../world-state/types.js';

export const PUBLIC_LEAF_SLOT_SEPARATOR = 1_247_650_290;
export const PUBLIC_STORAGE_MAP_SLOT_SEPARATOR = 4_015_149_901;

/** The public-data tree key of a contract's storage slot. */
export const publicDataLeafSlot = (contract: Fr, storageSlot: Fr): Fr =>
  poseidon2HashWithSeparator([contract, storageSlot], PUBLIC_LEAF_SLOT_SEPARATOR);

/** The storage slot of `key` in a map stored at `mapSlot`. */
export const mapStorageSlot = (mapSlot: Fr, key: Fr): Fr =>
  poseidon2HashWithSeparator([mapSlot, key], PUBLIC_STORAGE_MAP_SLOT_SEPARATOR);

/** The value of a public-data leaf slot in `reader` (0 when never written). */
export function readPublicData(reader: WorldStateReader, leafSlot: Fr): Fr {
  const low = reader.findLowLeaf(TreeId.PUBLIC_DATA, leafSlot);
  return low.alreadyPresent ? low.leaf.value : 0n;
}

interface JournalEntry {
  leafSlot: Fr;
  previous: Fr | undefined;
}

/** A point in a journal to measure from or roll back to. */
export interface JournalMark {
  writes: number;
  logs: number;
  nullifiers: number;
}

/** Writes and public logs made during one tx's execution, over the state before the tx. */
export class PublicStateJournal {
  private readonly current = new Map<Fr, Fr>();
  private readonly log: JournalEntry[] = [];
  private readonly publicLogs: PublicLog[] = [];
  private readonly publicNullifiers: Fr[] = [];

  constructor(private readonly base: WorldStateReader) {}

  read(leafSlot: Fr): Fr {
    return this.current.get(leafSlot) ?? readPublicData(this.base, leafSlot);
  }

  write(leafSlot: Fr, value: Fr): void {
    this.log.push({ leafSlot, previous: this.current.get(leafSlot) });
    this.current.set(leafSlot, value);
  }

  emitLog(log: PublicLog): void {
    this.publicLogs.push(log);
  }

  /** Records a (siloed) nullifier emitted by public execution. */
  emitNullifier(nullifier: Fr): void {
    this.publicNullifiers.push(nullifier);
  }

  hasNullifier(nullifier: Fr): boolean {
    return this.publicNullifiers.includes(nullifier);
  }

  /** The nullifiers emitted, in order. */
  nullifiers(): Fr[] {
    return [...this.publicNullifiers];
  }

  /** A point to roll back to. */
  mark(): JournalMark {
    return {
      writes: this.log.length,
      logs: this.publicLogs.length,
      nullifiers: this.publicNullifiers.length,
    };
  }

  /** Undoes every write, log and nullifier made since `mark`. */
  rollback(mark: JournalMark): void {
    this.publicLogs.length = mark.logs;
    this.publicNullifiers.length = mark.nullifiers;
    while (this.log.length > mark.writes) {
      const { leafSlot, previous } = this.log.pop()!;
      if (previous === undefined) this.current.delete(leafSlot);
      else this.current.set(leafSlot, previous);
    }
  }

  /** Writes since `mark` (for gas accounting). */
  writesSince(mark: JournalMark): number {
    return this.log.length - mark.writes;
  }

  /** Fields of the public logs emitted since `mark` (for gas accounting). */
  logFieldsSince(mark: JournalMark): number {
    return this.publicLogs.slice(mark.logs).reduce((n, l) => n + l.fields.length, 0);
  }

  /** The public logs emitted, in order. */
  logs(): PublicLog[] {
    return [...this.publicLogs];
  }

  /** The final value of each slot written, in the order slots were first written. */
  effects(): PublicDataWriteEffect[] {
    return [...this.current].map(([leafSlot, value]) => ({ leafSlot, value }));
  }
}
