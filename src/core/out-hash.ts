// L2-to-L1 message out hashes and membership witnesses (docs/messages.md, "Out-hash trees").
//
// Every tree here hashes an internal node as sha256ToField([left, right]). Four trees are stacked:
//
//   tx tree          leaves: the tx's message hashes, "unbalanced", NOT compressed  -> tx out hash
//   block tree       leaves: the block's tx out hashes, "wonky" (compressed)        -> block out hash
//   checkpoint tree  leaves: the checkpoint's block out hashes, wonky               -> checkpoint out hash
//   epoch tree       leaves: the checkpoint out hashes, zero-padded to 32, balanced -> epoch out hash
//
// Unbalanced shape over n leaves: one leaf is its own root (no hashing); otherwise the left child is a
// balanced tree over the first p leaves, p the largest power of two strictly below n, and the right
// child is the unbalanced tree over the remaining n - p leaves (so the subtrees are the binary digits
// of n, largest first, left to right, and the smaller ones are combined first). No leaves: root 0.
// With n a power of two the shape is the balanced tree.
//
// Wonky (compressed) shape: the unbalanced shape over all n leaves, with zero leaves removed. A node
// whose leaves are all zero is absent; a node with one absent child is replaced by its other child (it
// moves up a level, taking its whole subtree with it); otherwise the node is sha256ToField([l, r]).
// No non-zero leaf: root 0. A lone non-zero leaf is the root.
//
// A witness's leafIndex packs the left(0)/right(1) turns on the path, leaf level in the lowest bit,
// through all four trees, the epoch tree's 5 bits the highest. Levels removed by compression
// contribute neither a sibling nor a bit. It is the leaf's index in the balanced tree of the same
// height, and 2^pathLength + leafIndex is the leaf id the L1 Outbox uses to mark consumption.
//
// Message leaf: the Outbox hashes abi.encodePacked(sender, version, recipient, chainId, content), so
// the 20-byte recipient is NOT padded to 32 bytes (148 bytes in all); the reference's own test
// vectors confirm this (see test/core/out-hash.test.ts).
import { ethAddressToField } from './block-header.js';
import { type Fr, isFr, toBytes32 } from './field.js';
import { sha256ToField } from './hash/sha256.js';

/** Height of the balanced epoch out-hash tree. */
export const OUT_HASH_TREE_HEIGHT = 5;
/** Leaves of the epoch out-hash tree: the most checkpoints an epoch can hold. */
export const OUT_HASH_TREE_LEAF_COUNT = 2 ** OUT_HASH_TREE_HEIGHT;

/** A sibling path (leaf level first) and the leaf's index at that height (left/right turns as bits). */
export interface ShaTreeWitness {
  leafIndex: bigint;
  siblingPath: Fr[];
}

/** The membership witness of an L2-to-L1 message against an epoch (or partial-epoch) out-hash root. */
export interface L2ToL1MembershipWitness {
  epochNumber: number;
  /** The root covers the first `numCheckpointsInEpoch` checkpoints (Outbox root slot numCheckpointsInEpoch - 1). */
  numCheckpointsInEpoch: number;
  root: Fr;
  leafIndex: bigint;
  /** Leaf level first: tx tree, then block tree, then checkpoint tree, then the 5 epoch-tree siblings. */
  siblingPath: Fr[];
}

/** Where a message sits in an epoch (all indices 0-based). */
export interface L2ToL1MessagePosition {
  /** Index of the checkpoint within the epoch. */
  checkpointIndex: number;
  /** Index of the block within its checkpoint. */
  blockIndex: number;
  /** Index of the tx within its block. */
  txIndex: number;
  /** Index of the message among the tx's L2-to-L1 messages. */
  messageIndexInTx: number;
}

/** The L2-to-L1 message hashes of an epoch: checkpoints -> blocks -> txs -> message hashes. */
export interface EpochL2ToL1Messages {
  checkpoints: readonly { blocks: readonly { txs: readonly (readonly Fr[])[] }[] }[];
}

/** The same data as nested arrays (the `getL2ToL1Messages(epoch)` shape, `Fr[][][][]`). */
export type NestedEpochL2ToL1Messages = readonly (readonly (readonly (readonly Fr[])[])[])[];

/** An L2-to-L1 message as emitted by an L2 contract. */
export interface L2ToL1Message {
  /** The L2 contract that sent it. */
  sender: Fr;
  rollupVersion: bigint;
  /** The L1 recipient: `0x` + 40 hex digits. */
  recipient: string;
  /** The L1 chain id. */
  chainId: bigint;
  content: Fr;
}

// ---------------------------------------------------------------------------------------------------
// Trees

interface ShaNode {
  readonly value: Fr;
  /** First leaf index covered (inclusive). */
  readonly first: number;
  /** Children; both present or both absent (a leaf). */
  readonly left?: ShaNode;
  readonly right?: ShaNode;
}

function hashPair(left: Fr, right: Fr): Fr {
  return sha256ToField([left, right]);
}

function checkLeaves(leaves: readonly Fr[], what: string): void {
  if (!Array.isArray(leaves)) throw new TypeError(`${what} must be an array of field elements`);
  for (let i = 0; i < leaves.length; i++) {
    const v = leaves[i];
    if (typeof v !== 'bigint' || !isFr(v)) {
      throw new RangeError(`${what}[${i}] must be a field element (bigint in [0, FR_MODULUS))`);
    }
  }
}

/** The largest power of two strictly below n (n >= 2). */
function leftSubtreeSize(n: number): number {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
}

/** Builds leaves[first, end) in the unbalanced shape; with `compress`, zero leaves are removed. */
function buildNode(
  leaves: readonly Fr[],
  first: number,
  end: number,
  compress: boolean,
): ShaNode | undefined {
  if (end - first === 1) {
    const value = leaves[first]!;
    return compress && value === 0n ? undefined : { value, first };
  }
  const split = first + leftSubtreeSize(end - first);
  const left = buildNode(leaves, first, split, compress);
  const right = buildNode(leaves, split, end, compress);
  if (left === undefined) return right;
  if (right === undefined) return left;
  return { value: hashPair(left.value, right.value), first, left, right };
}

function buildTree(leaves: readonly Fr[], compress: boolean, what: string): ShaNode | undefined {
  checkLeaves(leaves, what);
  return leaves.length === 0 ? undefined : buildNode(leaves, 0, leaves.length, compress);
}

function rootOf(node: ShaNode | undefined): Fr {
  return node === undefined ? 0n : node.value;
}

/** Sibling path (leaf level first) and turn bits of leaf `leafIndex` in a built tree. */
function pathTo(
  root: ShaNode | undefined,
  leafIndex: number,
  numLeaves: number,
  what: string,
): ShaTreeWitness {
  if (!Number.isInteger(leafIndex) || leafIndex < 0 || leafIndex >= numLeaves) {
    throw new RangeError(
      `${what}: leaf index ${leafIndex} is out of range (the tree has ${numLeaves} leaves)`,
    );
  }
  const siblingsTopDown: Fr[] = [];
  let leafIndexBits = 0n;
  let node = root;
  while (node?.left !== undefined && node.right !== undefined) {
    if (leafIndex >= node.right.first) {
      siblingsTopDown.push(node.left.value);
      leafIndexBits = (leafIndexBits << 1n) | 1n;
      node = node.right;
    } else {
      siblingsTopDown.push(node.right.value);
      leafIndexBits <<= 1n;
      node = node.left;
    }
  }
  if (node === undefined || node.first !== leafIndex) {
    throw new RangeError(
      `${what}: the leaf at index ${leafIndex} is zero and has been compressed out of the tree`,
    );
  }
  return { leafIndex: leafIndexBits, siblingPath: siblingsTopDown.reverse() };
}

/** Root of the unbalanced, non-compressed tree (0 for no leaves; a single leaf is its own root). */
export function unbalancedShaRoot(leaves: readonly Fr[]): Fr {
  return rootOf(buildTree(leaves, false, 'leaves'));
}

/** Root of the wonky (compressed) tree: the unbalanced shape with zero leaves skipped; 0 if none is non-zero. */
export function wonkyShaRoot(leaves: readonly Fr[]): Fr {
  return rootOf(buildTree(leaves, true, 'leaves'));
}

/** Root of a balanced tree; the number of leaves must be a power of two. */
export function balancedShaRoot(leaves: readonly Fr[]): Fr {
  const n = Array.isArray(leaves) ? leaves.length : 0;
  if (n === 0 || (n & (n - 1)) !== 0) {
    throw new RangeError(`a balanced tree needs a power-of-two number of leaves, got ${n}`);
  }
  return unbalancedShaRoot(leaves);
}

/** Witness of leaf `leafIndex` in the unbalanced, non-compressed tree over `leaves`. */
export function unbalancedShaWitness(leaves: readonly Fr[], leafIndex: number): ShaTreeWitness {
  return pathTo(buildTree(leaves, false, 'leaves'), leafIndex, leaves.length, 'unbalanced tree');
}

/** Witness of leaf `leafIndex` in the wonky tree over `leaves`; throws if that leaf is zero. */
export function wonkyShaWitness(leaves: readonly Fr[], leafIndex: number): ShaTreeWitness {
  return pathTo(buildTree(leaves, true, 'leaves'), leafIndex, leaves.length, 'wonky tree');
}

// ---------------------------------------------------------------------------------------------------
// Out hashes

/** Tx out hash: the unbalanced (non-compressed) root over the tx's message hashes; 0 with no messages. */
export function computeTxOutHash(messages: readonly Fr[]): Fr {
  return rootOf(buildTree(messages, false, 'messages'));
}

/** Block out hash: the wonky root over the block's tx out hashes (txs without messages are skipped). */
export function computeBlockOutHash(messagesPerTx: readonly (readonly Fr[])[]): Fr {
  return wonkyShaRoot(messagesPerTx.map(computeTxOutHash));
}

/** Checkpoint out hash: the wonky root over its blocks' out hashes (blocks without messages are skipped). */
export function computeCheckpointOutHash(messagesPerBlock: readonly (readonly (readonly Fr[])[])[]): Fr {
  return wonkyShaRoot(messagesPerBlock.map(computeBlockOutHash));
}

function checkCheckpointCount(count: number): void {
  if (count > OUT_HASH_TREE_LEAF_COUNT) {
    throw new RangeError(`an epoch holds at most ${OUT_HASH_TREE_LEAF_COUNT} checkpoints, got ${count}`);
  }
}

function paddedEpochLeaves(checkpointOutHashes: readonly Fr[]): Fr[] {
  checkCheckpointCount(checkpointOutHashes.length);
  const leaves = checkpointOutHashes.slice();
  while (leaves.length < OUT_HASH_TREE_LEAF_COUNT) leaves.push(0n);
  return leaves;
}

/**
 * The (partial) epoch out hash: the balanced height-5 root over the given checkpoint out hashes in
 * order, padded with zeros to 32 leaves. This is the `epochOutHash` of a checkpoint header (over the
 * checkpoints so far) and, for the first k checkpoints, the root the Outbox stores at index k - 1.
 */
export function accumulateCheckpointOutHashes(checkpointOutHashes: readonly Fr[]): Fr {
  return balancedShaRoot(paddedEpochLeaves(checkpointOutHashes));
}

/** The partial-epoch roots for every prefix: element i is the root over the first i + 1 checkpoints. */
export function computePartialEpochOutHashes(checkpointOutHashes: readonly Fr[]): Fr[] {
  checkCheckpointCount(checkpointOutHashes.length);
  return checkpointOutHashes.map((_, i) =>
    accumulateCheckpointOutHashes(checkpointOutHashes.slice(0, i + 1)),
  );
}

/**
 * Epoch out hash over the first `numCheckpointsInEpoch` checkpoints (default: all of them); the rest
 * of the 32 leaves are zero. An epoch without checkpoints gives EMPTY_EPOCH_OUT_HASH.
 */
export function computeEpochOutHash(
  messagesPerCheckpoint: NestedEpochL2ToL1Messages | EpochL2ToL1Messages,
  numCheckpointsInEpoch?: number,
): Fr {
  const checkpoints = toNested(messagesPerCheckpoint);
  const k = numCheckpointsInEpoch ?? checkpoints.length;
  if (!Number.isInteger(k) || k < 0 || k > checkpoints.length) {
    throw new RangeError(
      `numCheckpointsInEpoch must be an integer between 0 and ${checkpoints.length} (the checkpoints given), got ${k}`,
    );
  }
  checkCheckpointCount(k);
  return accumulateCheckpointOutHashes(checkpoints.slice(0, k).map(computeCheckpointOutHash));
}

// ---------------------------------------------------------------------------------------------------
// Messages and witnesses

/**
 * The leaf hash of an L2-to-L1 message: sha256ToField over sender (32 bytes), rollupVersion (32),
 * recipient (the 20 address bytes, not padded), chainId (32), content (32) -- 148 bytes, the
 * `abi.encodePacked` layout the L1 Outbox hashes.
 */
export function l2ToL1MessageLeaf(message: L2ToL1Message): Fr {
  const recipient = toBytes32(ethAddressToField(message.recipient, 'recipient')).subarray(12);
  return sha256ToField([message.sender, message.rollupVersion, recipient, message.chainId, message.content]);
}

/** The id the Outbox marks when the message is consumed: 2^pathLength + leafIndex. */
export function getL2ToL1MessageLeafId(witness: Pick<ShaTreeWitness, 'leafIndex' | 'siblingPath'>): bigint {
  return (1n << BigInt(witness.siblingPath.length)) + witness.leafIndex;
}

/**
 * The index of `message` among a tx's messages. With `messageIndexInTx` it checks that the message
 * is there; without it the value must occur exactly once.
 */
export function resolveL2ToL1MessageIndex(
  messagesInTx: readonly Fr[],
  message: Fr,
  messageIndexInTx?: number,
): number {
  if (messageIndexInTx !== undefined) {
    if (messagesInTx[messageIndexInTx] !== message) {
      throw new Error(
        `Message at index ${messageIndexInTx} in tx does not match the expected message 0x${message.toString(16)}`,
      );
    }
    return messageIndexInTx;
  }
  const indices: number[] = [];
  messagesInTx.forEach((m, i) => {
    if (m === message) indices.push(i);
  });
  if (indices.length === 0) {
    throw new Error(`L2-to-L1 message 0x${message.toString(16)} does not exist in the tx`);
  }
  if (indices.length > 1) {
    throw new Error(
      `Multiple messages with the same value 0x${message.toString(16)} found in tx (indices: ${indices.join(', ')}); ` +
        'provide messageIndexInTx to disambiguate',
    );
  }
  return indices[0]!;
}

/**
 * The smallest numCheckpointsInEpoch whose Outbox root covers a message in checkpoint
 * `checkpointIndex`: the first non-zero `roots[i]` with i >= checkpointIndex gives i + 1; undefined
 * if there is none yet.
 */
export function smallestCoveringNumCheckpoints(
  roots: readonly Fr[],
  checkpointIndex: number,
): number | undefined {
  const end = Math.min(roots.length, OUT_HASH_TREE_LEAF_COUNT);
  for (let i = Math.max(0, checkpointIndex); i < end; i++) {
    if (roots[i] !== 0n) return i + 1;
  }
  return undefined;
}

function toNested(epoch: NestedEpochL2ToL1Messages | EpochL2ToL1Messages): NestedEpochL2ToL1Messages {
  if (Array.isArray(epoch)) return epoch as NestedEpochL2ToL1Messages;
  const checkpoints = (epoch as EpochL2ToL1Messages | undefined)?.checkpoints;
  if (!Array.isArray(checkpoints)) throw new TypeError('epoch must be an array or {checkpoints: [...]}');
  return (checkpoints as EpochL2ToL1Messages['checkpoints']).map((c) => c.blocks.map((b) => b.txs));
}

interface BuiltCheckpoint {
  /** Per block: the tx trees and the block tree over their roots. */
  blocks: { txTrees: (ShaNode | undefined)[]; numTxs: number; tree: ShaNode | undefined }[];
  tree: ShaNode | undefined;
}

/** The four stacked trees of an epoch (or its first k checkpoints), built once for many witnesses. */
export interface L2ToL1EpochTree {
  numCheckpointsInEpoch: number;
  /** The partial-epoch root over the first numCheckpointsInEpoch checkpoints. */
  root: Fr;
  /** Out hashes of the covered checkpoints. */
  checkpointOutHashes: Fr[];
  /** The witness of the message at `position` (which must lie in a covered checkpoint). */
  witness(position: L2ToL1MessagePosition): Omit<L2ToL1MembershipWitness, 'epochNumber'>;
}

/** Builds the out-hash trees of the first `numCheckpointsInEpoch` checkpoints of an epoch. */
export function buildL2ToL1EpochTree(
  epoch: NestedEpochL2ToL1Messages | EpochL2ToL1Messages,
  numCheckpointsInEpoch: number,
): L2ToL1EpochTree {
  const checkpoints = toNested(epoch);
  const k = numCheckpointsInEpoch;
  if (!Number.isInteger(k) || k < 1 || k > OUT_HASH_TREE_LEAF_COUNT) {
    throw new RangeError(
      `numCheckpointsInEpoch must be an integer between 1 and ${OUT_HASH_TREE_LEAF_COUNT}, got ${k}`,
    );
  }
  if (k > checkpoints.length) {
    throw new RangeError(
      `numCheckpointsInEpoch is ${k} but the epoch has only ${checkpoints.length} checkpoints`,
    );
  }

  const built: BuiltCheckpoint[] = checkpoints.slice(0, k).map((blocks, ci) => {
    const builtBlocks = blocks.map((txs, bi) => {
      const txTrees = txs.map((messages, ti) =>
        buildTree(messages, false, `checkpoints[${ci}].blocks[${bi}].txs[${ti}]`),
      );
      return { txTrees, numTxs: txs.length, tree: buildTree(txTrees.map(rootOf), true, 'tx out hashes') };
    });
    return {
      blocks: builtBlocks,
      tree: buildTree(
        builtBlocks.map((b) => rootOf(b.tree)),
        true,
        'block out hashes',
      ),
    };
  });
  const checkpointOutHashes = built.map((c) => rootOf(c.tree));
  const epochTree = buildTree(paddedEpochLeaves(checkpointOutHashes), false, 'checkpoint out hashes');
  const root = rootOf(epochTree);

  const witness = (position: L2ToL1MessagePosition): Omit<L2ToL1MembershipWitness, 'epochNumber'> => {
    const { checkpointIndex, blockIndex, txIndex, messageIndexInTx } = position;
    const checkpoint = indexInto(built, checkpointIndex, 'checkpointIndex', `the first ${k} checkpoints`);
    const block = indexInto(checkpoint.blocks, blockIndex, 'blockIndex', `checkpoint ${checkpointIndex}`);
    const txTree = indexInto(block.txTrees, txIndex, 'txIndex', `block ${blockIndex}`);
    const messages = checkpoints[checkpointIndex]![blockIndex]![txIndex]!;
    indexInto(messages, messageIndexInTx, 'messageIndexInTx', `tx ${txIndex}`);

    // Leaf level first: message in tx tree, tx in block tree, block in checkpoint tree, checkpoint in epoch tree.
    const parts = [
      pathTo(txTree, messageIndexInTx, messages.length, 'tx tree'),
      pathTo(block.tree, txIndex, block.numTxs, 'block tree'),
      pathTo(checkpoint.tree, blockIndex, checkpoint.blocks.length, 'checkpoint tree'),
      pathTo(epochTree, checkpointIndex, OUT_HASH_TREE_LEAF_COUNT, 'epoch tree'),
    ];
    let leafIndex = 0n;
    let shift = 0n;
    const siblingPath: Fr[] = [];
    for (const part of parts) {
      leafIndex |= part.leafIndex << shift;
      shift += BigInt(part.siblingPath.length);
      siblingPath.push(...part.siblingPath);
    }
    return { numCheckpointsInEpoch: k, root, leafIndex, siblingPath };
  };

  return { numCheckpointsInEpoch: k, root, checkpointOutHashes, witness };
}

function indexInto<T>(items: readonly T[], index: number, name: string, where: string): T {
  if (!Number.isInteger(index) || index < 0 || index >= items.length) {
    throw new RangeError(`${name} ${index} is out of range: ${where} has ${items.length}`);
  }
  return items[index]!;
}

/**
 * The membership witness of the message at `position` against the root over the first
 * `numCheckpointsInEpoch` checkpoints of the epoch (the remaining epoch-tree leaves zero), which is
 * what the Outbox stores at index numCheckpointsInEpoch - 1.
 */
export function computeL2ToL1MembershipWitness(
  epoch: NestedEpochL2ToL1Messages | EpochL2ToL1Messages,
  epochNumber: number,
  position: L2ToL1MessagePosition,
  numCheckpointsInEpoch: number,
): L2ToL1MembershipWitness {
  if (position.checkpointIndex >= numCheckpointsInEpoch) {
    throw new RangeError(
      `checkpointIndex ${position.checkpointIndex} is not covered by the first ${numCheckpointsInEpoch} checkpoints`,
    );
  }
  return { epochNumber, ...buildL2ToL1EpochTree(epoch, numCheckpointsInEpoch).witness(position) };
}

/**
 * Like computeL2ToL1MembershipWitness, locating the message by value in its tx: `messageIndexInTx`
 * is required when the value occurs more than once there.
 */
export function computeL2ToL1MembershipWitnessForMessage(
  epoch: NestedEpochL2ToL1Messages | EpochL2ToL1Messages,
  epochNumber: number,
  tx: Omit<L2ToL1MessagePosition, 'messageIndexInTx'>,
  message: Fr,
  numCheckpointsInEpoch: number,
  messageIndexInTx?: number,
): L2ToL1MembershipWitness {
  const checkpoints = toNested(epoch);
  const checkpoint = indexInto(checkpoints, tx.checkpointIndex, 'checkpointIndex', 'the epoch');
  const block = indexInto(checkpoint, tx.blockIndex, 'blockIndex', `checkpoint ${tx.checkpointIndex}`);
  const messages = indexInto(block, tx.txIndex, 'txIndex', `block ${tx.blockIndex}`);
  const index = resolveL2ToL1MessageIndex(messages, message, messageIndexInTx);
  return computeL2ToL1MembershipWitness(
    checkpoints,
    epochNumber,
    { ...tx, messageIndexInTx: index },
    numCheckpointsInEpoch,
  );
}

const TWO_256 = 1n << 256n;

/**
 * Checks a membership proof the way the L1 Outbox does: requires leafIndex < 2^pathLength (path
 * shorter than 256), then folds from the leaf, hashing sha256ToField(node, sibling) when the current
 * bit of leafIndex is 0 and sha256ToField(sibling, node) when it is 1, and compares with the root.
 * Values are taken as 32-byte words, as on L1.
 */
export function verifyL2ToL1Membership(
  leaf: bigint,
  leafIndex: bigint,
  siblingPath: readonly bigint[],
  root: bigint,
): boolean {
  const isWord = (v: unknown): v is bigint => typeof v === 'bigint' && v >= 0n && v < TWO_256;
  if (!isWord(leaf) || !isWord(root) || typeof leafIndex !== 'bigint' || !Array.isArray(siblingPath))
    return false;
  if (siblingPath.length >= 256 || leafIndex < 0n || leafIndex >= 1n << BigInt(siblingPath.length))
    return false;
  let node = leaf;
  let bits = leafIndex;
  for (const sibling of siblingPath) {
    if (!isWord(sibling)) return false;
    const [n, s] = [toBytes32(node), toBytes32(sibling)];
    node = (bits & 1n) === 1n ? sha256ToField([s, n]) : sha256ToField([n, s]);
    bits >>= 1n;
  }
  return node === root;
}
