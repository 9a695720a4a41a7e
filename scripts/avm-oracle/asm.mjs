// A tiny assembler for hand-made AVM programs (4.1.2 wire format: opcode byte, then operands
// big-endian, no padding). Each helper returns { bytes, text } so a program can be both encoded
// and listed in the vector file.

export const TAG = { FF: 0, U1: 1, U8: 2, U16: 3, U32: 4, U64: 5, U128: 6 };
const TAG_NAME = Object.fromEntries(Object.entries(TAG).map(([k, v]) => [v, k]));

export const OP = {
  ADD_8: 0,
  ADD_16: 1,
  DIV_8: 6,
  EQ_8: 10,
  CAST_8: 28,
  GETENVVAR_16: 30,
  CALLDATACOPY: 31,
  SUCCESSCOPY: 32,
  RETURNDATASIZE: 33,
  RETURNDATACOPY: 34,
  JUMP_32: 35,
  JUMPI_32: 36,
  INTERNALCALL: 37,
  INTERNALRETURN: 38,
  SET_8: 39,
  SET_16: 40,
  SET_32: 41,
  SET_64: 42,
  SET_128: 43,
  SET_FF: 44,
  MOV_8: 45,
  SLOAD: 47,
  SSTORE: 48,
  EMITNULLIFIER: 52,
  CALL: 57,
  RETURN: 59,
  REVERT_8: 60,
};

function be(value, width) {
  let v = BigInt(value);
  const out = new Array(width);
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new Error(`${value} does not fit in ${width} bytes`);
  return out;
}

const ins = (text, ...parts) => ({ bytes: parts.flat(), text });
const m = (mode) => (mode ? ` mode=0x${mode.toString(16)}` : '');

const SET_WIDTH = { SET_8: 1, SET_16: 2, SET_32: 4, SET_64: 8, SET_128: 16, SET_FF: 32 };

/** SET_<n> dst, tag, value. SET_8 has an 8-bit dst; the others a 16-bit one. */
export function set(variant, dst, tag, value, mode = 0) {
  const op = OP[variant];
  const dstBytes = variant === 'SET_8' ? be(dst, 1) : be(dst, 2);
  return ins(
    `${variant} m[${dst}] = ${TAG_NAME[tag] ?? `tag${tag}`} ${typeof value === 'bigint' && value > 0xffffn ? `0x${value.toString(16)}` : value}${m(mode)}`,
    op,
    mode,
    dstBytes,
    tag,
    be(value, SET_WIDTH[variant]),
  );
}

/** Three-operand ALU instructions with 8-bit offsets (ADD_8, DIV_8, EQ_8). */
export function alu8(name, a, b, dst, mode = 0) {
  return ins(`${name} m[${dst}] = m[${a}], m[${b}]${m(mode)}`, OP[name], mode, a, b, dst);
}

export function add16(a, b, dst, mode = 0) {
  return ins(
    `ADD_16 m[${dst}] = m[${a}] + m[${b}]${m(mode)}`,
    OP.ADD_16,
    mode,
    be(a, 2),
    be(b, 2),
    be(dst, 2),
  );
}

export function cast8(src, dst, tag, mode = 0) {
  return ins(`CAST_8 m[${dst}] = (${TAG_NAME[tag]}) m[${src}]${m(mode)}`, OP.CAST_8, mode, src, dst, tag);
}

export function getenv(dst, v, mode = 0) {
  return ins(`GETENVVAR_16 m[${dst}] = env[${v}]${m(mode)}`, OP.GETENVVAR_16, mode, be(dst, 2), v);
}

export function calldatacopy(sizeOff, startOff, dst, mode = 0) {
  return ins(
    `CALLDATACOPY m[${dst}..] = calldata[m[${startOff}]..+m[${sizeOff}]]${m(mode)}`,
    OP.CALLDATACOPY,
    mode,
    be(sizeOff, 2),
    be(startOff, 2),
    be(dst, 2),
  );
}

export function successcopy(dst) {
  return ins(`SUCCESSCOPY m[${dst}]`, OP.SUCCESSCOPY, 0, be(dst, 2));
}

export function returndatasize(dst) {
  return ins(`RETURNDATASIZE m[${dst}]`, OP.RETURNDATASIZE, 0, be(dst, 2));
}

export function jump(loc) {
  return ins(`JUMP_32 ${loc}`, OP.JUMP_32, be(loc, 4));
}

export function jumpi(cond, loc, mode = 0) {
  return ins(`JUMPI_32 if m[${cond}] goto ${loc}${m(mode)}`, OP.JUMPI_32, mode, be(cond, 2), be(loc, 4));
}

export function internalcall(loc) {
  return ins(`INTERNALCALL ${loc}`, OP.INTERNALCALL, be(loc, 4));
}

export function internalreturn() {
  return ins('INTERNALRETURN', OP.INTERNALRETURN);
}

export function sstore(src, slot, mode = 0) {
  return ins(`SSTORE storage[m[${slot}]] = m[${src}]${m(mode)}`, OP.SSTORE, mode, be(src, 2), be(slot, 2));
}

export function sload(slot, addr, dst, mode = 0) {
  return ins(
    `SLOAD m[${dst}] = storage(m[${addr}])[m[${slot}]]${m(mode)}`,
    OP.SLOAD,
    mode,
    be(slot, 2),
    be(addr, 2),
    be(dst, 2),
  );
}

export function emitnullifier(off, mode = 0) {
  return ins(`EMITNULLIFIER m[${off}]${m(mode)}`, OP.EMITNULLIFIER, mode, be(off, 2));
}

export function call(l2, da, addr, argsSize, argsOff, mode = 0) {
  return ins(
    `CALL gas(m[${l2}], m[${da}]) addr m[${addr}] args m[${argsOff}..+m[${argsSize}]]${m(mode)}`,
    OP.CALL,
    be(mode, 2),
    be(l2, 2),
    be(da, 2),
    be(addr, 2),
    be(argsSize, 2),
    be(argsOff, 2),
  );
}

export function ret(sizeOff, off, mode = 0) {
  return ins(`RETURN m[${off}..+m[${sizeOff}]]${m(mode)}`, OP.RETURN, mode, be(sizeOff, 2), be(off, 2));
}

export function revert8(sizeOff, off, mode = 0) {
  return ins(`REVERT_8 m[${off}..+m[${sizeOff}]]${m(mode)}`, OP.REVERT_8, mode, sizeOff, off);
}

/** Raw bytes, listed as data. */
export function raw(bytes, text) {
  return ins(text ?? `bytes ${bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ')}`, bytes);
}

/** Concatenates instructions; returns the bytes and a listing with byte offsets. */
export function assemble(items) {
  const bytes = [];
  const listing = [];
  for (const it of items) {
    listing.push(`${String(bytes.length).padStart(3)}: ${it.text}`);
    bytes.push(...it.bytes);
  }
  return { bytes: Uint8Array.from(bytes), listing };
}

/** Byte length of instructions (to compute jump targets). */
export function size(...items) {
  return items.reduce((n, it) => n + it.bytes.length, 0);
}
