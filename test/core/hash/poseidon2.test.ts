// Poseidon2: known answers, bit-exactness of the native addon and of the TypeScript fallback
// against the independent @zkpassport/poseidon2 model, the batch calls, the separator and byte
// variants, and range checks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { poseidon2Hash as refHash, permute as refPermute } from '@zkpassport/poseidon2';
import { FR_MODULUS, fromBytes32, toBytes32 } from '../../../src/core/field.js';
import { loadNativePoseidon2 } from '../../../src/core/hash/native.js';
import {
  poseidon2Backend,
  poseidon2Hash,
  poseidon2HashBatch,
  poseidon2HashBatchFields,
  poseidon2HashBytes,
  poseidon2HashInSlices,
  poseidon2HashPairs,
  poseidon2HashWithSeparator,
  poseidon2Permutation,
} from '../../../src/core/hash/poseidon2.js';
import { permuteTs, poseidon2HashTs } from '../../../src/core/hash/poseidon2-ts.js';

const P = FR_MODULUS;
const KNOWN_1_2 = 0x038682aa1cb5ae4e0a3f13da432a95c77c5c111f6f030faf9cad641ce1ed7383n;

// The native tests need the addon (built by `npm install`); with CAIRN_POSEIDON2=ts they are skipped.
const forcedTs = process.env.CAIRN_POSEIDON2 === 'ts';
const loaded = loadNativePoseidon2();
const native = loaded.ok ? loaded.addon : undefined;
const nativeSkip = forcedTs && !native ? 'CAIRN_POSEIDON2=ts and the addon is not available' : false;
function requireNative() {
  if (!native) assert.fail(`native Poseidon2 addon not loaded: ${loaded.ok ? '' : loaded.error}`);
  return native;
}

/** Deterministic PRNG (SplitMix64) so failures are reproducible. */
function rng(seed: bigint) {
  let s = seed & 0xffffffffffffffffn;
  const next64 = (): bigint => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  };
  const int = (n: number): number => Number(next64() % BigInt(n));
  const edge: bigint[] = [
    0n,
    1n,
    2n,
    P - 1n,
    P - 2n,
    P - 3n,
    2n ** 64n - 1n,
    2n ** 64n,
    2n ** 128n,
    2n ** 253n,
    P >> 1n,
  ];
  /** A field element: mostly uniform, with a good share of edge cases. */
  const fr = (): bigint => {
    const kind = int(8);
    if (kind === 0) return edge[int(edge.length)]!;
    if (kind === 1) return BigInt(int(1000));
    if (kind === 2) return P - 1n - BigInt(int(1000));
    const v = (next64() << 192n) | (next64() << 128n) | (next64() << 64n) | next64();
    return v % P;
  };
  return { int, fr };
}

function fieldsBuffer(values: readonly bigint[]): Uint8Array {
  const buf = new Uint8Array(values.length * 32);
  for (let i = 0; i < values.length; i++) buf.set(toBytes32(values[i]!), i * 32);
  return buf;
}

function pairsBuffer(pairs: readonly (readonly [bigint, bigint])[]): Uint8Array {
  const buf = new Uint8Array(pairs.length * 64);
  pairs.forEach(([l, r], i) => {
    buf.set(toBytes32(l), i * 64);
    buf.set(toBytes32(r), i * 64 + 32);
  });
  return buf;
}

describe('known answers', () => {
  test('poseidon2Hash([1, 2]) through the public API', () => {
    assert.equal(poseidon2Hash([1n, 2n]), KNOWN_1_2);
  });
  test('TypeScript implementation', () => {
    assert.equal(poseidon2HashTs([1n, 2n]), KNOWN_1_2);
  });
  test('native addon', { skip: nativeSkip }, () => {
    assert.equal(requireNative().hash([1n, 2n]), KNOWN_1_2);
  });
  test('the reference model agrees', () => {
    assert.equal(refHash([1n, 2n]), KNOWN_1_2);
  });
  test('the backend is reported', () => {
    const info = poseidon2Backend();
    assert.equal(info.kind, forcedTs ? 'ts' : 'native');
  });
});

describe('native addon against @zkpassport/poseidon2', { skip: nativeSkip }, () => {
  test('10,000 random 2-input hashes, including 0, 1, p-1, p-2 and other edge values', () => {
    const addon = requireNative();
    const r = rng(1n);
    const edges = [0n, 1n, 2n, P - 1n, P - 2n];
    const cases: [bigint, bigint][] = [];
    for (const a of edges) for (const b of edges) cases.push([a, b]);
    while (cases.length < 10_000) cases.push([r.fr(), r.fr()]);
    for (const [a, b] of cases) {
      assert.equal(addon.hash([a, b]), refHash([a, b]), `hash(${a}, ${b})`);
    }
  });

  test('2,000 random-length (0..16) general hashes', () => {
    const addon = requireNative();
    const r = rng(2n);
    for (let i = 0; i < 2_000; i++) {
      const len = i < 17 ? i : 1 + r.int(16);
      const inputs = Array.from({ length: len }, () => r.fr());
      assert.equal(addon.hash(inputs), refHash(inputs), `length ${len}: ${inputs}`);
    }
  });

  test('permutation (500 random states)', () => {
    const addon = requireNative();
    const r = rng(3n);
    for (let i = 0; i < 500; i++) {
      const state = [r.fr(), r.fr(), r.fr(), r.fr()];
      // @zkpassport's permute() mutates its argument: give it a copy.
      assert.deepEqual(addon.permute(state), refPermute([...state]));
    }
  });

  test('hashBatch of 2,000 pairs equals hashing them one by one', () => {
    const addon = requireNative();
    const r = rng(4n);
    const pairs = Array.from({ length: 2_000 }, () => [r.fr(), r.fr()] as const);
    pairs.push([P - 1n, P - 1n], [0n, 0n]);
    const out = addon.hashBatch(pairsBuffer(pairs), 2);
    assert.equal(out.length, pairs.length * 32);
    pairs.forEach(([a, b], i) => {
      assert.equal(fromBytes32(out, i * 32), addon.hash([a, b]));
    });
  });

  test('hashBatch with widths 1..5 and hashBatchFields agree with single hashes', () => {
    const addon = requireNative();
    const r = rng(5n);
    for (let width = 1; width <= 5; width++) {
      const inputs = Array.from({ length: width * 50 }, () => r.fr());
      const bytes = fieldsBuffer(inputs);
      const fromBytes = addon.hashBatch(bytes, width);
      const fromFields = addon.hashBatchFields(inputs, width);
      for (let g = 0; g < 50; g++) {
        const expected = refHash(inputs.slice(g * width, (g + 1) * width));
        assert.equal(fromBytes32(fromBytes, g * 32), expected);
        assert.equal(fromFields[g], expected);
      }
    }
  });

  test('hashBatch can hash a level in place (output aliasing the start of the input)', () => {
    const addon = requireNative();
    const r = rng(6n);
    const leaves = Array.from({ length: 64 }, () => r.fr());
    const buf = fieldsBuffer(leaves);
    const expected = Array.from({ length: 32 }, (_, i) => refHash([leaves[2 * i]!, leaves[2 * i + 1]!]));
    const out = addon.hashBatch(buf, 2, buf.subarray(0, 32 * 32));
    for (let i = 0; i < 32; i++) assert.equal(fromBytes32(out, i * 32), expected[i]);
    assert.equal(fromBytes32(buf, 0), expected[0]);
  });

  test('the addon rejects values that are not field elements', () => {
    const addon = requireNative();
    assert.throws(() => addon.hash([P]), RangeError);
    assert.throws(() => addon.hash([-1n]), RangeError);
    assert.throws(() => addon.hash([2n ** 256n]), RangeError);
    assert.throws(() => addon.hash([1 as unknown as bigint]), TypeError);
    assert.throws(() => addon.permute([0n, 0n, 0n]), RangeError);
    const bad = pairsBuffer([
      [1n, 2n],
      [3n, P],
    ]);
    const out = new Uint8Array(64).fill(7);
    assert.throws(() => addon.hashBatch(bad, 2, out), RangeError);
    assert.ok(
      out.every((b) => b === 7),
      'nothing is written when an input is out of range',
    );
    assert.throws(() => addon.hashBatch(new Uint8Array(63), 2), RangeError);
    assert.throws(() => addon.hashBatch(new Uint8Array(64), 2, new Uint8Array(31)), RangeError);
    assert.throws(() => addon.hashBatchFields([1n, 2n, 3n], 2), RangeError);
  });
});

// The TypeScript fallback runs at a few thousand hashes per second, so it is checked on fewer
// inputs than the native addon: 2,000 2-input hashes and 300 random-length hashes.
describe('TypeScript fallback against @zkpassport/poseidon2', () => {
  test('2,000 random 2-input hashes, including edge values', () => {
    const r = rng(11n);
    const edges = [0n, 1n, P - 1n, P - 2n];
    const cases: [bigint, bigint][] = [];
    for (const a of edges) for (const b of edges) cases.push([a, b]);
    while (cases.length < 2_000) cases.push([r.fr(), r.fr()]);
    for (const [a, b] of cases) assert.equal(poseidon2HashTs([a, b]), refHash([a, b]), `hash(${a}, ${b})`);
  });

  test('300 random-length (0..16) general hashes', () => {
    const r = rng(12n);
    for (let i = 0; i < 300; i++) {
      const len = i < 17 ? i : 1 + r.int(16);
      const inputs = Array.from({ length: len }, () => r.fr());
      assert.equal(poseidon2HashTs(inputs), refHash(inputs), `length ${len}`);
    }
  });

  test('permutation (100 random states) and the input is left untouched', () => {
    const r = rng(13n);
    for (let i = 0; i < 100; i++) {
      const state = [r.fr(), r.fr(), r.fr(), r.fr()];
      const copy = [...state];
      assert.deepEqual(permuteTs(state), refPermute([...state]));
      assert.deepEqual(state, copy);
    }
  });
});

describe('public API', () => {
  test('poseidon2Permutation matches the model', () => {
    assert.deepEqual(poseidon2Permutation([0n, 1n, 2n, 3n]), refPermute([0n, 1n, 2n, 3n]));
    assert.throws(() => poseidon2Permutation([0n, 1n, 2n]), RangeError);
  });

  test('poseidon2HashPairs / poseidon2HashBatch / poseidon2HashBatchFields equal one-by-one hashing', () => {
    const r = rng(21n);
    const pairs = Array.from({ length: 200 }, () => [r.fr(), r.fr()] as const);
    const buf = pairsBuffer(pairs);
    const out = poseidon2HashPairs(buf);
    const flat = pairs.flat();
    const fields = poseidon2HashBatchFields(flat, 2);
    pairs.forEach(([a, b], i) => {
      const single = poseidon2Hash([a, b]);
      assert.equal(fromBytes32(out, i * 32), single);
      assert.equal(fields[i], single);
    });
    const given = new Uint8Array(200 * 32 + 5);
    assert.equal(poseidon2HashBatch(buf, 2, given), given);
    assert.deepEqual(given.subarray(0, 200 * 32), out);
    assert.deepEqual(poseidon2HashBatch(new Uint8Array(0), 3), new Uint8Array(0));
  });

  test('poseidon2HashWithSeparator = poseidon2Hash([separator, ...inputs])', () => {
    const r = rng(22n);
    for (let i = 0; i < 50; i++) {
      const inputs = Array.from({ length: r.int(6) }, () => r.fr());
      const sep = r.int(2 ** 31);
      const expected = refHash([BigInt(sep), ...inputs]);
      assert.equal(poseidon2HashWithSeparator(inputs, sep), expected);
      assert.equal(poseidon2HashWithSeparator(inputs, BigInt(sep)), expected);
    }
    // DOM_SEP__MERKLE_HASH-style separators above 2^31 work as numbers too.
    assert.equal(poseidon2HashWithSeparator([1n, 2n], 2982624097), refHash([2982624097n, 1n, 2n]));
    assert.throws(() => poseidon2HashWithSeparator([1n], -1), RangeError);
    assert.throws(() => poseidon2HashWithSeparator([1n], 1.5), RangeError);
    assert.throws(() => poseidon2HashWithSeparator([1n], P), RangeError);
  });

  test('poseidon2HashBytes: 31-byte chunks read little-endian', () => {
    // Independent conversion: pad each chunk to 32 bytes at the end, reverse, read big-endian.
    const toFields = (bytes: Uint8Array): bigint[] => {
      const out: bigint[] = [];
      for (let i = 0; i < bytes.length; i += 31) {
        const padded = Buffer.alloc(32);
        Buffer.from(bytes.subarray(i, i + 31)).copy(padded);
        out.push(BigInt(`0x${padded.reverse().toString('hex')}`));
      }
      return out;
    };
    const r = rng(23n);
    for (const len of [0, 1, 30, 31, 32, 61, 62, 63, 93, 94, 200]) {
      const bytes = Uint8Array.from({ length: len }, () => r.int(256));
      assert.equal(poseidon2HashBytes(bytes), refHash(toFields(bytes)), `length ${len}`);
    }
    const all255 = new Uint8Array(31).fill(255);
    assert.equal(poseidon2HashBytes(all255), refHash([2n ** 248n - 1n]));
  });

  test('values that are not field elements are rejected with RangeError', () => {
    for (const bad of [-1n, P, P + 1n, 2n ** 256n, -(2n ** 300n)]) {
      assert.throws(() => poseidon2Hash([1n, bad]), RangeError);
      assert.throws(() => poseidon2HashWithSeparator([bad], 1), RangeError);
      assert.throws(() => poseidon2HashBatchFields([bad, 1n], 2), RangeError);
      assert.throws(() => poseidon2Permutation([bad, 0n, 0n, 0n]), RangeError);
    }
    assert.throws(() => poseidon2Hash([1 as unknown as bigint]), TypeError);
    const bad = new Uint8Array(64);
    bad.set(toBytes32(P), 32);
    assert.throws(() => poseidon2HashPairs(bad), RangeError);
    assert.throws(() => poseidon2HashBatch(new Uint8Array(96), 2), RangeError);
    assert.throws(() => poseidon2HashBatch(new Uint8Array(64), 0), RangeError);
    assert.throws(() => poseidon2HashBatch(new Uint8Array(64), 1.5), RangeError);
    assert.throws(() => poseidon2HashPairs(new Uint8Array(64), new Uint8Array(16)), RangeError);
  });
});

describe('poseidon2HashInSlices', () => {
  test('equals the independent model for any length and slice size, pausing between slices', async () => {
    for (const n of [0, 1, 2, 3, 4, 5, 6, 7, 100, 301]) {
      const inputs = Array.from({ length: n }, (_, i) => (BigInt(i) * 0x1234567890abcdefn + 7n) % P);
      let pauses = 0;
      const sliced = await poseidon2HashInSlices(inputs, async () => void pauses++, 0);
      assert.equal(sliced, refHash(inputs), `length ${n}`);
      // A slice of 0 ms pauses after every permutation: ceil(n / 3), at least one.
      assert.equal(pauses, Math.max(1, Math.ceil(n / 3)), `pauses for length ${n}`);
      assert.equal(await poseidon2HashInSlices(inputs, async () => {}, 1_000), sliced);
    }
  });

  test('refuses an input that is not a field element', async () => {
    await assert.rejects(
      poseidon2HashInSlices([P], async () => {}),
      RangeError,
    );
  });
});
