// The deterministic blocks written by crash-writer.ts and replayed by crash.test.ts: the
// content of block n depends only on n, so the model can recompute any prefix of the chain.
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';
import { TreeId, type WorldStateFork, type WorldStateOptions } from '../../src/world-state/types.js';
import { testGenesisBlockHash } from './model.js';

export const CRASH_OPTIONS: WorldStateOptions = {
  historyBlocks: 4,
  genesisPublicData: [
    { slot: 1000n, value: 5n },
    { slot: 3n, value: 33n },
  ],
  genesisBlockHash: testGenesisBlockHash,
};

const h = (...xs: (number | bigint)[]) => poseidon2Hash(xs.map((x) => BigInt(x)));

/** Applies block n's effects to a fork made on block n - 1. */
export function buildBlock(fork: WorldStateFork, n: number): void {
  const txs = 1 + (n % 2);
  for (let tx = 0; tx < txs; tx++) {
    fork.appendNoteHashes(Array.from({ length: 1 + ((n + tx) % 3) }, (_, j) => h(n, tx, j, 1)));
    // A padding gap in the middle: nullifier j goes to start + j, zeros stay empty.
    fork.insertNullifiers([
      h(n, tx, 0, 2),
      0n,
      ...Array.from({ length: (n + tx) % 4 }, (_, j) => h(n, tx, j + 1, 2)),
    ]);
    fork.writePublicData([
      { slot: 1000n + BigInt(n % 5), value: BigInt(n) }, // recurring slots: new, then updated
      { slot: h(n, tx, 3), value: BigInt(2 * n) }, // always a new slot
      { slot: BigInt(n % 128), value: BigInt(n + tx) }, // a genesis slot: an update
    ]);
  }
  if (n % 3 === 0) fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, [h(n, 4), h(n, 5)]);
  fork.appendLeaves(TreeId.ARCHIVE, [h(n, 6)]);
}
