// Tagged memory of one AVM call frame: 2^32 cells, each a (tag, value) pair, where a cell never
// written reads as FF 0. Cells live in pages that are allocated on first write: the addresses a
// program touches cluster around its stack (just above mem[0]) and its heap, so a handful of pages
// serve a whole call. Values are bigints already reduced to their tag's range; tags are bytes.
import { FR_MODULUS } from '../core/field.js';
import { AvmExceptionalHalt } from './errors.js';

/** Memory tags, as on the wire. */
export const Tag = {
  FF: 0,
  U1: 1,
  U8: 2,
  U16: 3,
  U32: 4,
  U64: 5,
  U128: 6,
} as const;

export const TAG_NAMES = ['FF', 'U1', 'U8', 'U16', 'U32', 'U64', 'U128'] as const;

/** The highest valid tag value. */
export const MAX_TAG = 6;

/** Bit width of each integer tag (FF's entry is unused). */
export const TAG_BITS = [254, 1, 8, 16, 32, 64, 128] as const;

/** All-ones mask of each integer tag's width (FF's entry is unused). */
export const TAG_MASKS: readonly bigint[] = TAG_BITS.map((bits, tag) =>
  tag === Tag.FF ? 0n : (1n << BigInt(bits)) - 1n,
);

/** Number of addressable cells: addresses are u32. */
export const MEMORY_SIZE = 2 ** 32;

/** Reduces `value` to the range of `tag`: mod p for FF, truncation for the integer tags. */
export function truncateToTag(value: bigint, tag: number): bigint {
  if (tag === Tag.FF)
    return value >= FR_MODULUS || value < 0n ? ((value % FR_MODULUS) + FR_MODULUS) % FR_MODULUS : value;
  return value & TAG_MASKS[tag]!;
}

// Small pages (64 cells, under 1 KB each) keep what a program allocates proportionate to the gas it
// pays: a write in a fresh page costs a few dozen gas at least, so 6M gas reach well under 100 MB.
const PAGE_BITS = 6;
const PAGE_SIZE = 1 << PAGE_BITS;
/** Pages below this index sit in a plain array; the (rare) higher ones in a map. */
const LOW_PAGES = 4096;

class Page {
  readonly tags = new Uint8Array(PAGE_SIZE);
  readonly values: bigint[] = new Array<bigint>(PAGE_SIZE).fill(0n);
}

export class TaggedMemory {
  private readonly low: (Page | undefined)[] = new Array(LOW_PAGES);
  private readonly high = new Map<number, Page>();

  private page(address: number): Page | undefined {
    const index = address >>> PAGE_BITS;
    return index < LOW_PAGES ? this.low[index] : this.high.get(index);
  }

  private pageForWrite(address: number): Page {
    const index = address >>> PAGE_BITS;
    let page = index < LOW_PAGES ? this.low[index] : this.high.get(index);
    if (page === undefined) {
      page = new Page();
      if (index < LOW_PAGES) this.low[index] = page;
      else this.high.set(index, page);
    }
    return page;
  }

  tag(address: number): number {
    const page = this.page(address);
    return page === undefined ? Tag.FF : page.tags[address & (PAGE_SIZE - 1)]!;
  }

  value(address: number): bigint {
    const page = this.page(address);
    return page === undefined ? 0n : page.values[address & (PAGE_SIZE - 1)]!;
  }

  /** Writes a value that is already in `tag`'s range. */
  set(address: number, tag: number, value: bigint): void {
    const page = this.pageForWrite(address);
    const i = address & (PAGE_SIZE - 1);
    page.tags[i] = tag;
    page.values[i] = value;
  }

  /** The value at `address`, which must carry `tag`. */
  read(address: number, tag: number): bigint {
    const page = this.page(address);
    if (page === undefined) {
      if (tag !== Tag.FF) throw tagError(address, Tag.FF, tag);
      return 0n;
    }
    const i = address & (PAGE_SIZE - 1);
    const got = page.tags[i]!;
    if (got !== tag) throw tagError(address, got, tag);
    return page.values[i]!;
  }

  /** Values of `size` cells from `offset`, each of which must carry `tag`. */
  readRange(offset: number, size: number, tag: number): bigint[] {
    checkRange(offset, size);
    const out = new Array<bigint>(size);
    for (let i = 0; i < size; i++) out[i] = this.read(offset + i, tag);
    return out;
  }

  /** Values of `size` cells from `offset`, whatever their tags. */
  readValues(offset: number, size: number): bigint[] {
    checkRange(offset, size);
    const out = new Array<bigint>(size);
    for (let i = 0; i < size; i++) out[i] = this.value(offset + i);
    return out;
  }

  /** Writes `values` (already in range) with one tag from `offset`. */
  writeRange(offset: number, tag: number, values: readonly bigint[]): void {
    checkRange(offset, values.length);
    for (let i = 0; i < values.length; i++) this.set(offset + i, tag, values[i]!);
  }
}

/** Halts unless the cells [offset, offset + size) all lie in memory. */
export function checkRange(offset: number, size: number): void {
  if (offset + size > MEMORY_SIZE) {
    throw new AvmExceptionalHalt(`memory range of ${size} cells at ${offset} runs past the end of memory`);
  }
}

export function tagError(address: number, got: number, expected: number): AvmExceptionalHalt {
  return new AvmExceptionalHalt(
    `tag check failed at address ${address}: expected ${TAG_NAMES[expected]}, got ${TAG_NAMES[got] ?? got}`,
  );
}
