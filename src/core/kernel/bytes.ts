// Reading and writing the reference's binary forms: big-endian, packed, fields as 32 bytes, u32
// as 4, u64 as 8, u128 as 16, a bool as 1 byte, an EthAddress as 20. The reader checks every
// read against what is left and every value against its type, so bytes from the wire are either
// a whole value or a KernelCodecError that says what and where — never a RangeError from a
// buffer read, never an allocation sized by an unchecked length.

import { FR_MODULUS, type Fr } from '../field.js';

/** Bytes that do not decode into the structure expected. */
export class KernelCodecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KernelCodecError';
  }
}

const U32_MAX = 0xffff_ffff;
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
/** The modulus's top 32 bits: a word whose top is below them is a field element. */
const MODULUS_TOP = Number(FR_MODULUS >> 224n);
const ETH_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const viewOf = (b: Buffer): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

export class ByteReader {
  private readonly buf: Buffer;
  private readonly view: DataView;
  private pos = 0;

  /** `subject` names what is being decoded, for the errors. */
  constructor(
    bytes: Uint8Array,
    private readonly subject: string,
  ) {
    this.buf = asBuffer(bytes);
    this.view = viewOf(this.buf);
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  fail(what: string, problem: string, at = this.pos): never {
    throw new KernelCodecError(`${this.subject}: ${what} ${problem} (at byte ${at} of ${this.buf.length})`);
  }

  /** Moves past `n` bytes and returns where they start. */
  private take(n: number, what: string): number {
    if (n > this.remaining) this.fail(what, `needs ${n} bytes, only ${this.remaining} left`);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  fr(what: string): Fr {
    const at = this.take(32, what);
    const d = this.view;
    // Most slots of a tail's output are padding: no bigint for them. (Four 64-bit reads make a
    // bigint about twice as fast as parsing hex.)
    const top = d.getUint32(at);
    let any = top;
    for (let i = 4; i < 32; i += 4) any |= d.getUint32(at + i);
    if (any === 0) return 0n;
    const v =
      (d.getBigUint64(at) << 192n) |
      (d.getBigUint64(at + 8) << 128n) |
      (d.getBigUint64(at + 16) << 64n) |
      d.getBigUint64(at + 24);
    if (top >= MODULUS_TOP && v >= FR_MODULUS) this.fail(what, 'is not below the field modulus', at);
    return v;
  }

  u8(what: string): number {
    return this.buf[this.take(1, what)]!;
  }

  u32(what: string): number {
    return this.buf.readUInt32BE(this.take(4, what));
  }

  u64(what: string): bigint {
    return this.buf.readBigUInt64BE(this.take(8, what));
  }

  u128(what: string): bigint {
    const at = this.take(16, what);
    return (this.buf.readBigUInt64BE(at) << 64n) | this.buf.readBigUInt64BE(at + 8);
  }

  /** 0 or 1: any other byte would not encode back to itself. */
  bool(what: string): boolean {
    const at = this.take(1, what);
    const v = this.buf[at]!;
    if (v > 1) this.fail(what, `is a bool but holds ${v}`, at);
    return v === 1;
  }

  /** `0x` + 40 lowercase hex digits. */
  ethAddress(what: string): string {
    const at = this.take(20, what);
    return `0x${this.buf.toString('hex', at, at + 20)}`;
  }

  /**
   * `n` field elements left as their 32-byte words (a copy), each checked to be below the modulus
   * without making it a bigint.
   */
  frWords(n: number, what: string): Uint8Array {
    const at = this.take(n * 32, what);
    const b = this.buf;
    for (let i = 0; i < n; i++) {
      const word = at + i * 32;
      const top = b.readUInt32BE(word);
      if (top < MODULUS_TOP) continue;
      if (top > MODULUS_TOP || BigInt(`0x${b.toString('hex', word, word + 32)}`) >= FR_MODULUS) {
        this.fail(what, `field ${i} is not below the field modulus`, word);
      }
    }
    return new Uint8Array(b.subarray(at, at + n * 32));
  }

  /** A length prefix (`width` 1 or 4 bytes) no larger than `max`. */
  count(width: 1 | 4, max: number, what: string): number {
    const at = this.pos;
    const n = width === 1 ? this.u8(what) : this.u32(what);
    if (n > max) this.fail(what, `is ${n}, more than ${max}`, at);
    return n;
  }

  /** Fails unless every byte has been read. */
  end(): void {
    if (this.remaining !== 0) this.fail('the input', `has ${this.remaining} bytes after its end`);
  }
}

export class ByteWriter {
  private buf: Buffer;
  private view: DataView;
  private pos = 0;

  constructor(capacity = 1024) {
    this.buf = Buffer.alloc(capacity);
    this.view = viewOf(this.buf);
  }

  private room(n: number): number {
    if (this.pos + n > this.buf.length) {
      const next = Buffer.alloc(Math.max(this.buf.length * 2, this.pos + n));
      this.buf.copy(next, 0, 0, this.pos);
      this.buf = next;
      this.view = viewOf(next);
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }

  fr(value: Fr, what: string): void {
    if (typeof value !== 'bigint' || value < 0n || value >= FR_MODULUS) {
      throw new RangeError(`${what} must be a field element (bigint in [0, modulus))`);
    }
    const at = this.room(32);
    // The buffer starts zeroed, so a zero needs no write.
    if (value === 0n) return;
    const d = this.view;
    d.setBigUint64(at, value >> 192n);
    d.setBigUint64(at + 8, BigInt.asUintN(64, value >> 128n));
    d.setBigUint64(at + 16, BigInt.asUintN(64, value >> 64n));
    d.setBigUint64(at + 24, BigInt.asUintN(64, value));
  }

  u8(value: number, what: string): void {
    checkInt(value, 0xff, what);
    this.buf[this.room(1)] = value;
  }

  u32(value: number, what: string): void {
    checkInt(value, U32_MAX, what);
    this.buf.writeUInt32BE(value, this.room(4));
  }

  u64(value: bigint, what: string): void {
    checkBig(value, U64_MAX, what);
    this.buf.writeBigUInt64BE(value, this.room(8));
  }

  u128(value: bigint, what: string): void {
    checkBig(value, U128_MAX, what);
    const at = this.room(16);
    this.buf.writeBigUInt64BE(value >> 64n, at);
    this.buf.writeBigUInt64BE(value & U64_MAX, at + 8);
  }

  bool(value: boolean, what: string): void {
    if (typeof value !== 'boolean') throw new TypeError(`${what} must be a boolean`);
    this.buf[this.room(1)] = value ? 1 : 0;
  }

  /** Raw bytes, taken as they are. */
  bytes(value: Uint8Array): void {
    this.buf.set(value, this.room(value.length));
  }

  ethAddress(value: string, what: string): void {
    if (typeof value !== 'string' || !ETH_ADDRESS_RE.test(value)) {
      throw new TypeError(`${what} must be 0x followed by 40 hex digits`);
    }
    this.buf.write(value.slice(2), this.room(20), 20, 'hex');
  }

  /** The bytes written so far (a view: the writer is done with them). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

function checkInt(value: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${what} must be an integer in [0, ${max}]`);
  }
}

function checkBig(value: bigint, max: bigint, what: string): void {
  if (typeof value !== 'bigint' || value < 0n || value > max) {
    throw new RangeError(`${what} must be a bigint in [0, ${max}]`);
  }
}

/** Checks that `items` has exactly the fixed width the layout gives it. */
export function checkWidth(items: readonly unknown[], width: number, what: string): void {
  if (!Array.isArray(items) || items.length !== width) {
    throw new RangeError(
      `${what} must have exactly ${width} items, got ${Array.isArray(items) ? items.length : typeof items}`,
    );
  }
}
