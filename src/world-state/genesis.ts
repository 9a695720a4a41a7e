// The genesis block hash: the reference's initial header (all globals zero, last archive
// all-zero) over the genesis tree snapshots.
import { blockHeaderHash, genesisBlockHeader } from '../core/block-header.js';
import type { Fr } from '../core/field.js';
import { TreeId, type TreeSnapshot } from './types.js';

export function genesisBlockHashOf(snapshots: Record<TreeId, TreeSnapshot>): Fr {
  return blockHeaderHash(
    genesisBlockHeader({
      l1ToL2MessageTree: snapshots[TreeId.L1_TO_L2_MESSAGE],
      partial: {
        noteHashTree: snapshots[TreeId.NOTE_HASH],
        nullifierTree: snapshots[TreeId.NULLIFIER],
        publicDataTree: snapshots[TreeId.PUBLIC_DATA],
      },
    }),
  );
}
