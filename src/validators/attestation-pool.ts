// Proposals and attestations of recent slots, from this node's own validators and from peers
// (already checked by the validator client). Bounded: at most two block proposals per position
// and two checkpoint proposals per slot (a second one is kept as evidence of equivocation), and
// slots older than the retention window are dropped.
import type { Hex } from 'viem';
import type { BlockProposal, CheckpointAttestation, CheckpointProposal } from './messages.js';

export const MAX_PROPOSALS_PER_SLOT = 2;
/** Copies of checkpoint proposals (same digest, different bodies) kept per slot. */
export const MAX_BODIES_PER_SLOT = 4;

/** An attestation with the digest it signs and who signed it. */
export interface PooledAttestation extends CheckpointAttestation {
  digest: Hex;
  attester: string;
}

export interface PooledCheckpointProposal extends CheckpointProposal {
  digest: Hex;
  proposer: string;
  /**
   * keccak256 of the body. The proposer's signature covers the digest, not the body, so a peer
   * could relay a copy with a doctored body: copies are told apart by this, and the one whose
   * blocks re-execute is the one attested.
   */
  bodyHash: Hex;
}

export interface PooledBlockProposal extends BlockProposal {
  digest: Hex;
  proposer: string;
}

export interface SlotEntry {
  blocks: PooledBlockProposal[];
  checkpoints: PooledCheckpointProposal[];
  /** attester → digest → attestation */
  attestations: Map<string, Map<Hex, PooledAttestation>>;
}

export type AddOutcome = 'added' | 'known' | 'full';

/** A copy of the entries of slots from `from` on (their lists and maps; the items are immutable). */
function copySlots(slots: ReadonlyMap<number, SlotEntry>, from: number): Map<number, SlotEntry> {
  const copy = new Map<number, SlotEntry>();
  for (const [s, e] of slots) {
    if (s < from) continue;
    copy.set(s, {
      blocks: [...e.blocks],
      checkpoints: [...e.checkpoints],
      attestations: new Map([...e.attestations].map(([attester, d]) => [attester, new Map(d)])),
    });
  }
  return copy;
}

export class AttestationPool {
  private readonly slots = new Map<number, SlotEntry>();

  constructor(private readonly retainSlots = 64) {}

  private entry(slot: number): SlotEntry {
    let e = this.slots.get(slot);
    if (e === undefined) {
      e = { blocks: [], checkpoints: [], attestations: new Map() };
      this.slots.set(slot, e);
    }
    return e;
  }

  addBlockProposal(p: PooledBlockProposal): AddOutcome {
    const e = this.entry(p.slot);
    const same = e.blocks.filter((b) => b.indexWithinCheckpoint === p.indexWithinCheckpoint);
    if (same.some((b) => b.digest === p.digest)) return 'known';
    if (same.length >= MAX_PROPOSALS_PER_SLOT) return 'full';
    e.blocks.push(p);
    return 'added';
  }

  addCheckpointProposal(p: PooledCheckpointProposal): AddOutcome {
    const e = this.entry(p.slot);
    if (e.checkpoints.some((c) => c.digest === p.digest && c.bodyHash === p.bodyHash)) return 'known';
    const digests = new Set(e.checkpoints.map((c) => c.digest));
    if (!digests.has(p.digest) && digests.size >= MAX_PROPOSALS_PER_SLOT) return 'full';
    if (e.checkpoints.length >= MAX_BODIES_PER_SLOT) return 'full';
    e.checkpoints.push(p);
    return 'added';
  }

  addAttestation(a: PooledAttestation): AddOutcome {
    const byAttester = this.entry(a.slot).attestations;
    let digests = byAttester.get(a.attester);
    if (digests === undefined) {
      digests = new Map();
      byAttester.set(a.attester, digests);
    }
    if (digests.has(a.digest)) return 'known';
    if (digests.size >= MAX_PROPOSALS_PER_SLOT) return 'full';
    digests.set(a.digest, a);
    return 'added';
  }

  blockProposals(slot: number): PooledBlockProposal[] {
    return [...(this.slots.get(slot)?.blocks ?? [])].sort(
      (a, b) => a.indexWithinCheckpoint - b.indexWithinCheckpoint,
    );
  }

  checkpointProposals(slot: number): PooledCheckpointProposal[] {
    return [...(this.slots.get(slot)?.checkpoints ?? [])];
  }

  /** The slot's attestations; with a digest, only those signing it. */
  attestations(slot: number, digest?: string): PooledAttestation[] {
    const out: PooledAttestation[] = [];
    for (const digests of this.slots.get(slot)?.attestations.values() ?? []) {
      for (const a of digests.values()) {
        if (digest === undefined || a.digest === digest.toLowerCase()) out.push(a);
      }
    }
    return out;
  }

  /** attester → signature, for one digest. */
  signatures(slot: number, digest: Hex): Map<string, Hex> {
    return new Map(this.attestations(slot, digest).map((a) => [a.attester, a.signature]));
  }

  /** A copy of the slots from `slot` on (a dev snapshot). */
  copyFrom(slot: number): Map<number, SlotEntry> {
    return copySlots(this.slots, slot);
  }

  /**
   * Replaces the slots from `slot` on with a copy made by copyFrom: a dev revert takes L1 time
   * back, and proposals of slots that will come again must not fill their room.
   */
  restoreFrom(slot: number, copy: ReadonlyMap<number, SlotEntry>): void {
    for (const s of [...this.slots.keys()]) if (s >= slot) this.slots.delete(s);
    for (const [s, e] of copySlots(copy, slot)) this.slots.set(s, e);
  }

  /** Drops slots that fell out of the retention window behind `currentSlot`. */
  prune(currentSlot: number): void {
    for (const slot of this.slots.keys()) if (slot + this.retainSlots < currentSlot) this.slots.delete(slot);
  }
}
