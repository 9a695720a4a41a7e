// Slashing protection that survives a restart: for each local validator, the digest it signed in
// each recent slot (sub-database `signing-record` of the node store). A validator signs a digest
// only after the record of it is on disk, so no crash or restart can make it sign a second,
// different digest for the same slot (a slashable duplicate attestation).
import type { Hex } from 'viem';
import type { Database, StoreEnvironment } from '../store/environment.js';

/** Fixed-width slot, so that key order is slot order. */
const slotKey = (slot: number): string => slot.toString().padStart(16, '0');

const slotOfKey = (key: string): number => Number(key.slice(key.lastIndexOf('/') + 1));

export class SigningRecord {
  private readonly db: Database<string, string>;

  constructor(
    private readonly env: StoreEnvironment,
    /** Slots of history kept per validator (older entries are dropped as new ones are made). */
    private readonly keepSlots: number,
  ) {
    if (!Number.isSafeInteger(keepSlots) || keepSlots <= 0)
      throw new RangeError(`keepSlots must be a positive integer: ${keepSlots}`);
    this.db = env.database<string>('signing-record');
  }

  /**
   * Records, durably, that `attester` signs `digest` in `slot`; false (and nothing recorded) if
   * it already signed a different digest in that slot. Signing the same digest again is allowed.
   */
  claim(attester: string, slot: number, digest: Hex): boolean {
    if (!Number.isSafeInteger(slot) || slot < 0)
      throw new RangeError(`slot must be a non-negative integer: ${slot}`);
    const address = attester.toLowerCase();
    const key = `${address}/${slotKey(slot)}`;
    const value = digest.toLowerCase();
    // On disk before the signature exists, whatever crashes after it.
    return this.env.writeFlushed(() => {
      const earlier = this.db.get(key);
      if (earlier !== undefined) return earlier === value;
      this.db.putSync(key, value);
      const oldest = slot - this.keepSlots;
      if (oldest > 0)
        for (const old of this.db.getKeys({ start: `${address}/`, end: `${address}/${slotKey(oldest)}` }))
          this.db.removeSync(old);
      return true;
    });
  }

  /** Every entry (key, digest) of a slot from `slot` on, for a dev snapshot. */
  entriesFrom(slot: number): [string, string][] {
    return Array.from(this.db.getRange({}), ({ key, value }) => [key, value] as [string, string]).filter(
      ([key]) => slotOfKey(key) >= slot,
    );
  }

  /**
   * Replaces the entries of slots from `slot` on with `entries` (what entriesFrom gave): a dev
   * revert takes L1 time back to the snapshot's slot, and what was signed since belongs to a
   * history that no longer exists. Without this the validators would refuse to sign again in
   * those slots.
   */
  restoreFrom(slot: number, entries: readonly [string, string][]): void {
    this.env.writeFlushed(() => {
      for (const key of Array.from(this.db.getKeys({}))) if (slotOfKey(key) >= slot) this.db.removeSync(key);
      for (const [key, digest] of entries) this.db.putSync(key, digest);
    });
  }

  /** The digest `attester` signed in `slot`, if recorded. */
  signedIn(attester: string, slot: number): string | undefined {
    return this.db.get(`${attester.toLowerCase()}/${slotKey(slot)}`);
  }
}
