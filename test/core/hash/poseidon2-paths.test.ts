// The native addon's two field-multiplication paths (native/poseidon2: `portable` C++ and `adx`
// mulx/adcx/adox assembly): the same random inputs, edge values included, go through each path and
// must agree with each other, with the independent @zkpassport/poseidon2 model and with the
// project's TypeScript implementation. The adx tests skip on CPUs without BMI2/ADX.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { poseidon2Hash as refHash, permute as refPermute } from '@zkpassport/poseidon2';
import { FR_MODULUS, fromBytes32, toBytes32 } from '../../../src/core/field.js';
import {
  loadNativePoseidon2,
  type NativePoseidon2,
  type NativePoseidon2Path,
} from '../../../src/core/hash/native.js';
import { permuteTs, poseidon2HashTs } from '../../../src/core/hash/poseidon2-ts.js';

const P = FR_MODULUS;

const forcedTs = process.env.CAIRN_POSEIDON2 === 'ts';
const loaded = loadNativePoseidon2();
const native = loaded.ok ? loaded.addon : undefined;
const noAddon = forcedTs && !native ? 'CAIRN_POSEIDON2=ts and the addon is not available' : false;

function addon(): NativePoseidon2 & Required<Pick<NativePoseidon2, 'path' | 'setPath' | 'supportedPaths'>> {
  if (!native) assert.fail(`native Poseidon2 addon not loaded: ${loaded.ok ? '' : loaded.error}`);
  const { path, setPath, supportedPaths } = native;
  if (!path || !setPath || !supportedPaths)
    assert.fail('the addon does not export path/setPath/supportedPaths');
  return native as ReturnType<typeof addon>;
}

const adxSupported = native?.supportedPaths?.().includes('adx') ?? false;
const adxSkip =
  noAddon ||
  (adxSupported ? false : 'this CPU lacks BMI2/ADX (or is not x86-64): the adx path cannot run here');

// The path in use when the file started, restored at the end.
const initialPath = native?.path?.();
after(() => {
  if (native?.setPath && initialPath) native.setPath(initialPath);
});

/** SplitMix64, so that failures are reproducible. */
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
  const word4 = (): bigint => (next64() << 192n) | (next64() << 128n) | (next64() << 64n) | next64();
  const fr = (): bigint => {
    switch (int(6)) {
      case 0:
        return EDGES[int(EDGES.length)]!;
      case 1:
        // At or above 2^253 (p is just above 2^253.6).
        return 2n ** 253n + (word4() % (P - 2n ** 253n));
      case 2:
        return P - 1n - BigInt(int(1 << 20));
      default:
        return word4() % P;
    }
  };
  return { int, fr };
}

/** Values that stress the reductions: 0, 1, p - 1, word boundaries and values at or above 2^253. */
const EDGES: readonly bigint[] = [
  0n,
  1n,
  2n,
  P - 1n,
  P - 2n,
  P >> 1n,
  (P >> 1n) + 1n,
  2n ** 64n - 1n,
  2n ** 64n,
  2n ** 128n - 1n,
  2n ** 192n,
  2n ** 253n,
  2n ** 253n + 1n,
  2n ** 253n - 1n,
  P - 2n ** 64n,
  P - 2n ** 253n,
];

function withPath<T>(path: NativePoseidon2Path, f: (a: NativePoseidon2) => T): T {
  const a = addon();
  assert.equal(a.setPath(path), path);
  assert.equal(a.path(), path);
  return f(a);
}

function fieldsBuffer(values: readonly bigint[]): Uint8Array {
  const buf = new Uint8Array(values.length * 32);
  for (let i = 0; i < values.length; i++) buf.set(toBytes32(values[i]!), i * 32);
  return buf;
}

describe('path selection', { skip: noAddon }, () => {
  test('path() reports one of the supported paths, and auto prefers adx where supported', () => {
    const a = addon();
    const supported = a.supportedPaths();
    assert.ok(supported.includes('portable'));
    assert.ok(supported.includes(a.path()));
    assert.equal(a.setPath('auto'), adxSupported ? 'adx' : 'portable');
  });

  test('setPath rejects unknown names and keeps the current path', () => {
    const a = addon();
    const before = a.path();
    assert.throws(() => a.setPath('fast' as NativePoseidon2Path), RangeError);
    assert.throws(() => (a.setPath as (p: unknown) => string)(3), TypeError);
    assert.equal(a.path(), before);
  });

  test('setPath("adx") throws where the CPU lacks BMI2/ADX', {
    skip: adxSupported ? 'this CPU has BMI2/ADX' : false,
  }, () => {
    const a = addon();
    assert.throws(() => a.setPath('adx'), /BMI2 and ADX/);
    assert.equal(a.path(), 'portable');
  });
});

const PATHS: { path: NativePoseidon2Path; skip: string | false }[] = [
  { path: 'portable', skip: noAddon },
  { path: 'adx', skip: adxSkip },
];

for (const { path, skip } of PATHS) {
  describe(`${path} path`, { skip }, () => {
    test('600 two-field hashes (all pairs of edge values, then random) match @zkpassport and the TS model', () => {
      const r = rng(101n);
      const cases: [bigint, bigint][] = [];
      for (const x of EDGES) for (const y of EDGES) cases.push([x, y]);
      while (cases.length < 600) cases.push([r.fr(), r.fr()]);
      withPath(path, (a) => {
        for (const [x, y] of cases) {
          const expected = refHash([x, y]);
          assert.equal(a.hash([x, y]), expected, `hash(${x}, ${y})`);
        }
      });
      // The TypeScript model is slower: a quarter of the cases.
      for (const [x, y] of cases.slice(0, 150)) assert.equal(poseidon2HashTs([x, y]), refHash([x, y]));
    });

    test('400 permutations of random states (edge values included) match @zkpassport and the TS model', () => {
      const r = rng(202n);
      const states: bigint[][] = EDGES.map((e, i) => [e, EDGES[(i + 1) % EDGES.length]!, P - 1n, e]);
      states.push([0n, 0n, 0n, 0n], [P - 1n, P - 1n, P - 1n, P - 1n]);
      while (states.length < 400) states.push([r.fr(), r.fr(), r.fr(), r.fr()]);
      withPath(path, (a) => {
        states.forEach((state, i) => {
          const expected = refPermute([...state]);
          assert.deepEqual(a.permute(state), expected, `permute(${state})`);
          if (i < 100) assert.deepEqual(permuteTs(state), expected);
        });
      });
    });

    test('300 hashes of 0..16 fields, and hashBatch / hashBatchFields of widths 1..5', () => {
      const r = rng(303n);
      withPath(path, (a) => {
        for (let i = 0; i < 300; i++) {
          const len = i < 17 ? i : r.int(17);
          const inputs = Array.from({ length: len }, () => r.fr());
          assert.equal(a.hash(inputs), refHash(inputs), `length ${len}: ${inputs}`);
        }
        for (let width = 1; width <= 5; width++) {
          const inputs = Array.from({ length: width * 40 }, () => r.fr());
          const fromBytes = a.hashBatch(fieldsBuffer(inputs), width);
          const fromFields = a.hashBatchFields(inputs, width);
          for (let g = 0; g < 40; g++) {
            const expected = refHash(inputs.slice(g * width, (g + 1) * width));
            assert.equal(fromBytes32(fromBytes, g * 32), expected);
            assert.equal(fromFields[g], expected);
          }
        }
      });
    });
  });
}

describe('the two paths against each other', { skip: adxSkip }, () => {
  test('5,000 random two-field hashes and 1,000 permutations agree bit for bit', () => {
    const r = rng(404n);
    const pairs = Array.from({ length: 5_000 }, () => [r.fr(), r.fr()] as const);
    const states = Array.from({ length: 1_000 }, () => [r.fr(), r.fr(), r.fr(), r.fr()]);
    const run = (path: NativePoseidon2Path) =>
      withPath(path, (a) => ({
        hashes: a.hashBatch(fieldsBuffer(pairs.flat()), 2),
        perms: states.map((s) => a.permute(s)),
      }));
    const portable = run('portable');
    const adx = run('adx');
    assert.deepEqual(adx.hashes, portable.hashes);
    assert.deepEqual(adx.perms, portable.perms);
  });
});
