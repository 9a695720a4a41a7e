// Blocks of seeded random leaves, applied the same way to cairn's world state and (see
// reference.ts) to the reference's: both sides get the very same leaves.
import { createHash } from 'node:crypto';
import type { Fr } from '../../src/core/field.js';
import {
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  type PublicDataWrite,
  TREE_IDS,
  TREE_NAMES,
  TreeId,
  type TreeSnapshot,
  type WorldStateFork,
} from '../../src/world-state/types.js';
import type { WorldState } from '../../src/world-state/world-state.js';

/** Field elements from a seed: SHA-256(seed ‖ counter), first 31 bytes (below the modulus, never 0 in practice). */
export class SeededLeaves {
  private counter = 0;
  constructor(private readonly seed: string) {}

  next(): Fr {
    const digest = createHash('sha256')
      .update(`${this.seed}/${this.counter++}`)
      .digest();
    return BigInt(`0x${digest.subarray(0, 31).toString('hex')}`);
  }

  many(count: number): Fr[] {
    return Array.from({ length: count }, () => this.next());
  }
}

/** A block's leaves, per tx where the trees take them per tx. */
export interface Block {
  /** Note hashes per tx (at most 64 each; padded to 64 with zeros). */
  noteHashes: Fr[][];
  /** Nullifiers per tx (at most 64 each; each tx is one 64-leaf subtree). */
  nullifiers: Fr[][];
  /** L1→L2 messages, already padded (the reference pads the first block of a checkpoint to 1,024). */
  l1ToL2Messages: Fr[];
  publicData: PublicDataWrite[];
  /** The block's header hash, appended to the archive. */
  archiveLeaf: Fr;
}

export interface BlockShape {
  noteHashTxs?: number;
  nullifierTxs?: number;
  l1ToL2Messages?: number;
  publicDataWrites?: number;
}

/** A block of full txs (64 note hashes / 64 nullifiers each) drawn from `leaves`. */
export function makeBlock(leaves: SeededLeaves, shape: BlockShape): Block {
  return {
    noteHashes: Array.from({ length: shape.noteHashTxs ?? 0 }, () => leaves.many(MAX_NOTE_HASHES_PER_TX)),
    nullifiers: Array.from({ length: shape.nullifierTxs ?? 0 }, () => leaves.many(MAX_NULLIFIERS_PER_TX)),
    l1ToL2Messages: leaves.many(shape.l1ToL2Messages ?? 0),
    publicData: Array.from({ length: shape.publicDataWrites ?? 0 }, () => ({
      slot: leaves.next(),
      value: leaves.next(),
    })),
    archiveLeaf: leaves.next(),
  };
}

/** Leaves a block adds, all trees together (padding included, as the trees count them). */
export function blockLeafCount(block: Block): number {
  return (
    block.noteHashes.length * MAX_NOTE_HASHES_PER_TX +
    block.nullifiers.length * MAX_NULLIFIERS_PER_TX +
    block.l1ToL2Messages.length +
    block.publicData.length +
    1
  );
}

const pad = (tx: readonly Fr[], width: number): Fr[] => [
  ...tx,
  ...Array<Fr>(Math.max(0, width - tx.length)).fill(0n),
];

export const paddedNoteHashes = (block: Block): Fr[] =>
  block.noteHashes.flatMap((tx) => pad(tx, MAX_NOTE_HASHES_PER_TX));
export const paddedNullifiers = (block: Block): Fr[] =>
  block.nullifiers.flatMap((tx) => pad(tx, MAX_NULLIFIERS_PER_TX));

/** cairn: the block applied on a fork of the latest block. */
function cairnFork(ws: WorldState, block: Block): WorldStateFork {
  const fork = ws.fork();
  for (const tx of block.noteHashes) fork.appendNoteHashes(tx);
  for (const tx of block.nullifiers) fork.insertNullifiers(tx);
  if (block.l1ToL2Messages.length > 0) fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, block.l1ToL2Messages);
  if (block.publicData.length > 0) fork.writePublicData(block.publicData);
  fork.appendLeaves(TreeId.ARCHIVE, [block.archiveLeaf]);
  return fork;
}

/** cairn: the block on a fork of the latest block, committed (what its node does with a block). */
export function cairnCommit(ws: WorldState, block: Block): Promise<number> {
  return ws.commit(cairnFork(ws, block));
}

/** cairn: every tree's root and size after `block`, from a fork that is then dropped. */
export function cairnForkSnapshots(ws: WorldState, block: Block): Record<TreeId, TreeSnapshot> {
  const fork = cairnFork(ws, block);
  return Object.fromEntries(TREE_IDS.map((tree) => [tree, fork.snapshot(tree)])) as Record<
    TreeId,
    TreeSnapshot
  >;
}

export function cairnSnapshots(
  ws: WorldState,
  blockNumber = ws.latestBlockNumber,
): Record<TreeId, TreeSnapshot> {
  const view = ws.at(blockNumber);
  return Object.fromEntries(TREE_IDS.map((tree) => [tree, view.snapshot(tree)])) as Record<
    TreeId,
    TreeSnapshot
  >;
}

/** The trees whose root or size differ, described; empty when all five agree. */
export function differences(
  cairn: Record<TreeId, TreeSnapshot>,
  reference: Record<TreeId, TreeSnapshot>,
): string[] {
  const out: string[] = [];
  for (const tree of TREE_IDS) {
    const a = cairn[tree];
    const b = reference[tree];
    if (a.root !== b.root || a.nextAvailableLeafIndex !== b.nextAvailableLeafIndex) {
      out.push(
        `${TREE_NAMES[tree]}: cairn ${a.root.toString(16)} (${a.nextAvailableLeafIndex} leaves), reference ${b.root.toString(16)} (${b.nextAvailableLeafIndex} leaves)`,
      );
    }
  }
  return out;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))]!;
}
