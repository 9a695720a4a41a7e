// The world-state library: block-versioned Merkle trees on LMDB.

export { genesisBlockHashOf } from './genesis.js';
export * from './types.js';
export { DuplicateLeafError } from './view.js';
export { WORLD_STATE_SCHEMA_VERSION, WorldState } from './world-state.js';
