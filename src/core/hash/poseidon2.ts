// Poseidon2 over BN254 (t = 4, rate 3), bit-compatible with the barretenberg/Noir sponge.
//
// Backend: the native addon (native/poseidon2) when it loads, otherwise the pure-TypeScript
// implementation in poseidon2-ts.ts, announced once with a process warning
// (code CAIRN_POSEIDON2_FALLBACK). The environment variable CAIRN_POSEIDON2 selects the backend:
//   unset / "auto"  native if available, else the TypeScript fallback with a warning
//   "ts"            always the TypeScript implementation (no warning)
//   "native"        the native addon; every hash call throws if it cannot be loaded
// The choice is made on the first call and kept for the life of the process. Within the native
// addon, CAIRN_POSEIDON2_PATH (adx, portable or auto) picks the field multiplication; see native.ts.
import { FR_MODULUS, type Fr, fromBytes32, toBytes32 } from '../field.js';
import { loadNativePoseidon2, type NativePoseidon2, type NativePoseidon2Path } from './native.js';
import { permuteTs, poseidon2HashTs } from './poseidon2-ts.js';
import { assertBytes, assertFr, assertFrArray, assertWidth } from './validate.js';

export type Poseidon2BackendKind = 'native' | 'ts';

export interface Poseidon2BackendInfo {
  kind: Poseidon2BackendKind;
  /** Why the TypeScript implementation is in use (absent for the native backend). */
  reason?: string;
  /** Path of the loaded addon (native backend only). */
  addonPath?: string;
  /** The addon's field multiplication, `adx` or `portable` (native backend only). */
  nativePath?: NativePoseidon2Path;
}

export const POSEIDON2_FALLBACK_WARNING_CODE = 'CAIRN_POSEIDON2_FALLBACK';

type Backend = { info: Poseidon2BackendInfo; native: NativePoseidon2 | undefined };

let selected: Backend | undefined;

function backend(): Backend {
  if (selected !== undefined) return selected;
  const mode = (process.env.CAIRN_POSEIDON2 ?? '').trim().toLowerCase();
  if (mode === 'ts') {
    selected = { info: { kind: 'ts', reason: 'CAIRN_POSEIDON2=ts' }, native: undefined };
    return selected;
  }
  if (mode !== '' && mode !== 'auto' && mode !== 'native') {
    throw new Error(`CAIRN_POSEIDON2 must be "ts", "native" or "auto", got "${process.env.CAIRN_POSEIDON2}"`);
  }
  const loaded = loadNativePoseidon2();
  if (loaded.ok) {
    selected = { info: { kind: 'native', addonPath: loaded.path }, native: loaded.addon };
    return selected;
  }
  if (mode === 'native') {
    throw new Error(`CAIRN_POSEIDON2=native but the Poseidon2 addon is not usable: ${loaded.error}`);
  }
  selected = { info: { kind: 'ts', reason: loaded.error }, native: undefined };
  process.emitWarning(
    `native Poseidon2 addon not available (${loaded.error}); using the TypeScript fallback, which is about 10x slower. ` +
      'Run `npm rebuild` (needs g++, make and python3) to build it.',
    { type: 'CairnWarning', code: POSEIDON2_FALLBACK_WARNING_CODE },
  );
  return selected;
}

/** Which implementation serves the Poseidon2 calls (selecting it now if no hash has run yet). */
export function poseidon2Backend(): Poseidon2BackendInfo {
  const { info, native } = backend();
  const nativePath = native?.path?.();
  return nativePath === undefined ? { ...info } : { ...info, nativePath };
}

/** Poseidon2 sponge hash of any number of field elements. */
export function poseidon2Hash(inputs: readonly Fr[]): Fr {
  assertFrArray(inputs, 'inputs');
  const native = backend().native;
  return native ? native.hash(inputs) : poseidon2HashTs(inputs);
}

/** `poseidon2Hash([separator, ...inputs])`; the separator is a field element or a non-negative safe integer. */
export function poseidon2HashWithSeparator(inputs: readonly Fr[], separator: Fr | number): Fr {
  let sep: bigint;
  if (typeof separator === 'number') {
    if (!Number.isSafeInteger(separator) || separator < 0) {
      throw new RangeError(`separator must be a non-negative safe integer, got ${separator}`);
    }
    sep = BigInt(separator);
  } else {
    sep = separator;
  }
  assertFr(sep, 'separator');
  return poseidon2Hash([sep, ...inputs]);
}

/**
 * `poseidon2Hash(inputs)` computed one permutation at a time, awaiting `pause()` whenever a slice
 * has run for `sliceMs`: a long sponge (a block's tx effects) then leaves room for other work on
 * the event loop. Same sponge as poseidon2Hash: capacity `inputs.length * 2^64`, rate 3, the last
 * chunk zero-padded, output state[0].
 */
export async function poseidon2HashInSlices(
  inputs: readonly Fr[],
  pause: () => Promise<void>,
  sliceMs = 8,
): Promise<Fr> {
  assertFrArray(inputs, 'inputs');
  let state: Fr[] = [0n, 0n, 0n, BigInt(inputs.length) << 64n];
  let sliceStart = performance.now();
  let i = 0;
  do {
    for (let k = 0; k < 3 && i < inputs.length; k++, i++) state[k] = (state[k]! + inputs[i]!) % FR_MODULUS;
    state = poseidon2Permutation(state);
    if (performance.now() - sliceStart >= sliceMs) {
      await pause();
      sliceStart = performance.now();
    }
  } while (i < inputs.length);
  return state[0]!;
}

/**
 * Hashes a byte string: the bytes are cut into 31-byte chunks, each chunk is read as a
 * little-endian integer (i.e. zero-padded to 32 bytes at the end and byte-reversed), and the
 * resulting field elements are hashed with poseidon2Hash. Empty input hashes zero elements.
 */
export function poseidon2HashBytes(bytes: Uint8Array): Fr {
  assertBytes(bytes, 'bytes');
  const fields: bigint[] = [];
  for (let start = 0; start < bytes.length; start += 31) {
    const end = Math.min(start + 31, bytes.length);
    let v = 0n;
    for (let i = end - 1; i >= start; i--) v = (v << 8n) | BigInt(bytes[i]!);
    fields.push(v);
  }
  return poseidon2Hash(fields);
}

/** The raw Poseidon2 permutation of a 4-element state (returns a new array). */
export function poseidon2Permutation(state: readonly Fr[]): Fr[] {
  assertFrArray(state, 'state');
  if (state.length !== 4)
    throw new RangeError(`the Poseidon2 state has exactly 4 elements, got ${state.length}`);
  const native = backend().native;
  return native ? native.permute(state) : permuteTs(state);
}

function checkBatchOutput(n: number, output: Uint8Array | undefined): void {
  if (output === undefined) return;
  assertBytes(output, 'output');
  if (output.length < n * 32) {
    throw new RangeError(`output is too short: ${output.length} bytes for ${n} hashes of 32 bytes`);
  }
}

/**
 * Batch hash over one contiguous buffer: `input` holds n groups of `width` field elements, each
 * 32 bytes big-endian (n * width * 32 bytes); hash i (32 bytes big-endian) is written at
 * `output[32 i]`. `output` is allocated when omitted, otherwise it needs at least n * 32 bytes and
 * is returned. Every input is range-checked before anything is written, and the output may share
 * memory with the input as long as it does not start after it (in-place Merkle levels).
 */
export function poseidon2HashBatch(input: Uint8Array, width: number, output?: Uint8Array): Uint8Array {
  assertBytes(input, 'input');
  assertWidth(width);
  const groupBytes = width * 32;
  if (input.length % groupBytes !== 0) {
    throw new RangeError(`input length ${input.length} is not a multiple of width * 32 = ${groupBytes}`);
  }
  const n = input.length / groupBytes;
  checkBatchOutput(n, output);
  const native = backend().native;
  if (native) return native.hashBatch(input, width, output);

  const fields: bigint[] = new Array(n * width);
  for (let k = 0; k < n * width; k++) {
    const v = fromBytes32(input, k * 32);
    assertFr(v, `input element ${k} (group ${Math.floor(k / width)})`);
    fields[k] = v;
  }
  const out = output ?? new Uint8Array(n * 32);
  for (let g = 0; g < n; g++) {
    out.set(toBytes32(poseidon2HashTs(fields.slice(g * width, (g + 1) * width))), g * 32);
  }
  return out;
}

/** `poseidon2HashBatch(input, 2, output)`: hashes n pairs [left ‖ right] (n * 64 bytes) into n * 32 bytes. */
export function poseidon2HashPairs(input: Uint8Array, output?: Uint8Array): Uint8Array {
  return poseidon2HashBatch(input, 2, output);
}

/** Batch hash of bigints: hash i = poseidon2Hash(inputs.slice(i * width, (i + 1) * width)). */
export function poseidon2HashBatchFields(inputs: readonly Fr[], width: number): Fr[] {
  assertWidth(width);
  assertFrArray(inputs, 'inputs');
  if (inputs.length % width !== 0) {
    throw new RangeError(`the number of inputs (${inputs.length}) is not a multiple of width ${width}`);
  }
  const native = backend().native;
  if (native) return native.hashBatchFields(inputs, width);
  const out: Fr[] = [];
  for (let i = 0; i < inputs.length; i += width) out.push(poseidon2HashTs(inputs.slice(i, i + width)));
  return out;
}
