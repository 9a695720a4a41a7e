// State queries (docs/state-queries.md): leaf indexes, witnesses, sibling paths and
// public storage, read from the world state as of a reference block. A reference block the chain
// does not have, or one below the world state's history window, is refused with a message that
// says which.

import { invalidParams, refused } from '../core/errors.js';
import { type Fr, toHex32 } from '../core/field.js';
import { publicDataLeafSlot, readPublicData } from '../execution/public-storage.js';
import {
  type IndexedLeafWitness,
  TREE_HEIGHTS,
  TREE_NAMES,
  TreeId,
  type WorldStateReader,
} from '../world-state/types.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import type { BlockRef, ChainQueries } from './chain.js';

/** Where a leaf is: its index and the block that inserted it. */
export interface LeafInBlock {
  l2BlockNumber: number;
  l2BlockHash: Fr;
  data: bigint;
}

export interface MembershipWitnessResult {
  leafIndex: bigint;
  siblingPath: Fr[];
}

export interface IndexedWitnessResult {
  index: bigint;
  leaf: { key: Fr; value: Fr; nextKey: Fr; nextIndex: bigint };
  siblingPath: Fr[];
}

function describeRef(ref: BlockRef): string {
  switch (ref.kind) {
    case 'number':
      return `block ${ref.number}`;
    case 'hash':
      return `block hash ${toHex32(ref.hash)}`;
    case 'anchored':
      return `block ${ref.number} with hash ${toHex32(ref.hash)}`;
    case 'archive':
      return `archive root ${toHex32(ref.archive)}`;
    case 'tag':
      return `the ${ref.tag} block`;
  }
}

const indexed = (w: IndexedLeafWitness): IndexedWitnessResult => ({
  index: BigInt(w.index),
  leaf: { ...w.leaf, nextIndex: BigInt(w.leaf.nextIndex) },
  siblingPath: w.siblingPath,
});

/** A nullifier witness as both APIs answer it: the leaf preimage named as the tree's leaves are. */
export const nullifierWitnessShape = (w: IndexedWitnessResult) => ({
  index: w.index,
  leafPreimage: { leaf: { nullifier: w.leaf.key }, nextKey: w.leaf.nextKey, nextIndex: w.leaf.nextIndex },
  siblingPath: w.siblingPath,
});

/** A public data witness as both APIs answer it: the leaf's slot and value, and its successor. */
export const publicDataWitnessShape = (w: IndexedWitnessResult) => ({
  index: w.index,
  leafPreimage: {
    leaf: { slot: w.leaf.key, value: w.leaf.value },
    nextKey: w.leaf.nextKey,
    nextIndex: w.leaf.nextIndex,
  },
  siblingPath: w.siblingPath,
});

export class StateQueries {
  constructor(
    private readonly worldState: ReadableWorldState,
    private readonly chain: ChainQueries,
    private readonly latestBlockNumber: () => number,
  ) {}

  /** The block number a reference names; refused when the chain has no such block. */
  resolve(ref: BlockRef): number {
    const n = this.chain.blockNumberOf(ref);
    if (n !== undefined) return n;
    const latest = this.latestBlockNumber();
    const ahead = (number: number) =>
      refused(`block ${number} is not synced yet: the latest block is ${latest}`);
    if (ref.kind === 'number') throw ahead(ref.number);
    if (ref.kind === 'anchored') {
      if (ref.number > latest) throw ahead(ref.number);
      throw refused(
        `${describeRef(ref)} is not in the chain: if the node was queried with an anchor block hash, a reorg may have happened`,
      );
    }
    throw refused(`${describeRef(ref)} not found`);
  }

  reader(ref: BlockRef): { blockNumber: number; reader: WorldStateReader } {
    const blockNumber = this.resolve(ref);
    // The world state refuses a block below its history window, naming the oldest it has.
    return { blockNumber, reader: this.worldState.at(blockNumber) };
  }

  /** For each value: its leaf index and the block that inserted it, or undefined. */
  findLeavesIndexes(ref: BlockRef, tree: TreeId, values: readonly Fr[]): (LeafInBlock | undefined)[] {
    const { reader } = this.reader(ref);
    return values.map((value) => {
      const location = reader.findLeaf(tree, value);
      if (location === undefined) return undefined;
      return {
        l2BlockNumber: location.blockNumber,
        l2BlockHash: reader.getLeafValue(TreeId.ARCHIVE, location.blockNumber)!,
        data: BigInt(location.index),
      };
    });
  }

  nullifierMembershipWitness(ref: BlockRef, nullifier: Fr): IndexedWitnessResult | undefined {
    const w = this.reader(ref).reader.getIndexedLeafWitness(TreeId.NULLIFIER, nullifier);
    return w && indexed(w);
  }

  /** The low leaf of an absent nullifier (proves non-inclusion); refused for a present one. */
  lowNullifierMembershipWitness(ref: BlockRef, nullifier: Fr): IndexedWitnessResult {
    const { blockNumber, reader } = this.reader(ref);
    const w = reader.getLowLeafWitness(TreeId.NULLIFIER, nullifier);
    if (w.alreadyPresent) {
      throw refused(
        `cannot prove nullifier non-inclusion: nullifier ${toHex32(nullifier)} already exists in the tree at block ${blockNumber}`,
      );
    }
    return indexed(w);
  }

  /** The leaf of a present slot, or the low leaf of an absent one (whose value is then 0). */
  publicDataWitness(ref: BlockRef, leafSlot: Fr): IndexedWitnessResult {
    return indexed(this.reader(ref).reader.getLowLeafWitness(TreeId.PUBLIC_DATA, leafSlot));
  }

  /**
   * The witness of a block hash in the archive as of the block before the reference block (what
   * the reference block's header commits to as its last archive); undefined at block 0.
   */
  blockHashMembershipWitness(ref: BlockRef, blockHash: Fr): MembershipWitnessResult | undefined {
    const n = this.resolve(ref);
    if (n === 0) return undefined;
    return this.membershipWitness(this.worldState.at(n - 1), TreeId.ARCHIVE, blockHash);
  }

  /** The earlier set's archive witness: from the archive as of the block given. */
  archiveMembershipWitness(ref: BlockRef, blockHash: Fr): MembershipWitnessResult | undefined {
    return this.membershipWitness(this.reader(ref).reader, TreeId.ARCHIVE, blockHash);
  }

  l1ToL2MessageMembershipWitness(ref: BlockRef, message: Fr): MembershipWitnessResult | undefined {
    return this.membershipWitness(this.reader(ref).reader, TreeId.L1_TO_L2_MESSAGE, message);
  }

  noteHashMembershipWitness(ref: BlockRef, noteHash: Fr): MembershipWitnessResult | undefined {
    return this.membershipWitness(this.reader(ref).reader, TreeId.NOTE_HASH, noteHash);
  }

  private membershipWitness(
    reader: WorldStateReader,
    tree: TreeId,
    value: Fr,
  ): MembershipWitnessResult | undefined {
    const w = reader.getMembershipWitness(tree, value);
    return w && { leafIndex: BigInt(w.index), siblingPath: w.siblingPath };
  }

  /** A contract's public storage value at a slot (0 when never written). */
  publicStorageAt(ref: BlockRef, contract: Fr, slot: Fr): Fr {
    return readPublicData(this.reader(ref).reader, publicDataLeafSlot(contract, slot));
  }

  /**
   * The sibling path of a leaf position: any index below the tree's capacity (2^height) has one,
   * past the last leaf too; an index at or beyond the capacity is invalid params.
   */
  siblingPath(ref: BlockRef, tree: TreeId, leafIndex: bigint): Fr[] {
    const height = TREE_HEIGHTS[tree];
    if (leafIndex >= 2n ** BigInt(height)) {
      const message = `leaf index ${leafIndex} is beyond ${TREE_NAMES[tree]}, which has room for 2^${height} leaves`;
      throw invalidParams(message, { issues: [{ path: 'leafIndex', message }] });
    }
    return this.reader(ref).reader.getSiblingPath(tree, Number(leafIndex));
  }
}
