// Binary keys of the world-state store. Every page of tree nodes and every leaf preimage is
// a "slot" ([tree, page level, page index] or [tree, PREIMAGE_LEVEL, leaf index]); each write
// of a slot is kept as a version stamped with the block that made it, so the trees can be
// read as of any block in the history window.
//
//   versions:  slot(8) ‖ ~block(4)   → value (a node page, or an encoded leaf preimage)
//   leaves:    tree(1) ‖ value(32)   → index(6) ‖ block(4)      (first index of a value; ordered by value)
//   journal:   block(4) ‖ kind(1)    → the slots (kind 0) or leaf keys (kind 1) written by the block
//   blocks:    block(4)              → the five tree snapshots after the block
//
// The block is stored inverted so that, for one slot, versions sort newest first: the
// newest version at or before block B is the first key at or after slot ‖ ~B.

/** The slot level used for leaf preimages of indexed trees (tree levels are 0..42). */
export const PREIMAGE_LEVEL = 0xff;

export const SLOT_BYTES = 8;
export const VERSION_KEY_BYTES = SLOT_BYTES + 4;
export const LEAF_KEY_BYTES = 33;

export function slotKey(tree: number, level: number, index: number): Buffer {
  const key = Buffer.allocUnsafe(SLOT_BYTES);
  key[0] = tree;
  key[1] = level;
  key.writeUIntBE(index, 2, 6);
  return key;
}

export function versionKey(slot: Uint8Array, block: number): Buffer {
  const key = Buffer.allocUnsafe(VERSION_KEY_BYTES);
  key.set(slot, 0);
  key.writeUInt32BE(0xffffffff - block, SLOT_BYTES);
  return key;
}

/** The first key after every version of `slot`. */
export function versionsEnd(slot: Uint8Array): Buffer {
  const key = Buffer.alloc(VERSION_KEY_BYTES + 1, 0xff);
  key.set(slot, 0);
  key[VERSION_KEY_BYTES] = 0;
  return key;
}

export function leafKey(tree: number, value: Uint8Array): Buffer {
  const key = Buffer.allocUnsafe(LEAF_KEY_BYTES);
  key[0] = tree;
  key.set(value, 1);
  return key;
}

export function encodeLeafLocation(index: number, block: number): Buffer {
  const out = Buffer.allocUnsafe(10);
  out.writeUIntBE(index, 0, 6);
  out.writeUInt32BE(block, 6);
  return out;
}

export function decodeLeafLocation(value: Uint8Array): { index: number; blockNumber: number } {
  const b = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return { index: b.readUIntBE(0, 6), blockNumber: b.readUInt32BE(6) };
}

export function blockKey(block: number): Buffer {
  const key = Buffer.allocUnsafe(4);
  key.writeUInt32BE(block, 0);
  return key;
}

/** A block's journal: the slots (kind 0) and the value keys (kind 1) it wrote. */
export function journalKey(block: number, kind: 0 | 1): Buffer {
  const key = Buffer.allocUnsafe(5);
  key.writeUInt32BE(block, 0);
  key[4] = kind;
  return key;
}

/** The record of one part of a block whose commit is under way (parts 0 to 252), after its journal. */
export function partKey(block: number, part: number): Buffer {
  if (!Number.isInteger(part) || part < 0 || part > 252)
    throw new RangeError(`no journal key for part ${part}`);
  const key = Buffer.allocUnsafe(5);
  key.writeUInt32BE(block, 0);
  key[4] = 2 + part;
  return key;
}

// Tree nodes are stored in pages of four levels: page (p, j) holds the 30 nodes below node
// (4p + 4, j): 16 at level 4p, 8 at 4p + 1, 4 at 4p + 2 and 2 at 4p + 3. A block writes one
// version per dirty page rather than per node, and a sibling path reads one page per four levels.
export const PAGE_LEVELS = 4;
export const PAGE_NODES = 30;
export const PAGE_BYTES = PAGE_NODES * 32;
/** Where each of a page's four levels starts, in nodes. */
const LEVEL_STARTS = [0, 16, 24, 28] as const;

/** The page holding node (level, index), and the node's byte offset inside it. */
export function pageOf(level: number, index: number): { page: number; pageIndex: number; offset: number } {
  const page = Math.floor(level / PAGE_LEVELS);
  const row = level - page * PAGE_LEVELS;
  const span = 2 ** (PAGE_LEVELS - row);
  const pageIndex = Math.floor(index / span);
  return { page, pageIndex, offset: (LEVEL_STARTS[row]! + index - pageIndex * span) * 32 };
}
