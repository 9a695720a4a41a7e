// Block 0: the reference's initial header over the world state's genesis trees.

import type { L2Block } from '../core/block.js';
import { blockHeaderHash, genesisBlockHeader } from '../core/block-header.js';
import { TreeId } from '../world-state/types.js';
import type { WorldState } from '../world-state/world-state.js';

export function genesisBlockOf(worldState: WorldState): L2Block {
  const view = worldState.at(0);
  const header = genesisBlockHeader({
    l1ToL2MessageTree: view.snapshot(TreeId.L1_TO_L2_MESSAGE),
    partial: {
      noteHashTree: view.snapshot(TreeId.NOTE_HASH),
      nullifierTree: view.snapshot(TreeId.NULLIFIER),
      publicDataTree: view.snapshot(TreeId.PUBLIC_DATA),
    },
  });
  const hash = blockHeaderHash(header);
  if (view.getLeafValue(TreeId.ARCHIVE, 0) !== hash) {
    throw new Error('the world state genesis archive leaf is not the genesis header hash');
  }
  return {
    number: 0,
    hash,
    header,
    archive: view.snapshot(TreeId.ARCHIVE),
    body: { txEffects: [] },
    checkpointNumber: 0,
    indexWithinCheckpoint: 0,
  };
}
