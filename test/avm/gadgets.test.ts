// The cryptographic gadgets against independent answers: SHA-256 compression against node:crypto,
// Keccak-f[1600] against @noble/hashes' keccak_256, POSEIDON2 against cairn's permutation, ECADD
// against cairn's Grumpkin addition, and TORADIXBE's decompositions and failures.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ecAdd, keccakF1600, sha256Compression } from '../../src/avm/gadgets.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { addPoints, GRUMPKIN_GENERATOR, multiplyPoint } from '../../src/core/grumpkin.js';
import { poseidon2Permutation } from '../../src/core/hash/poseidon2.js';
import { I, type Line, returning, run, Tag } from './assembler.js';

const SHA256_IV = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** One padded SHA-256 block holding a message shorter than 56 bytes, as 16 big-endian words. */
function paddedBlock(message: Buffer): number[] {
  const block = Buffer.alloc(64);
  message.copy(block);
  block[message.length] = 0x80;
  block.writeUInt32BE(message.length * 8, 60);
  return Array.from({ length: 16 }, (_, i) => block.readUInt32BE(4 * i));
}

/** SET_32 each word into consecutive addresses. */
const setWords = (offset: number, tag: number, words: readonly (number | bigint)[]): Line[] =>
  words.map((w, i) =>
    tag === Tag.U64 ? I('SET_64', [offset + i, tag, w]) : I('SET_32', [offset + i, tag, w]),
  );

describe('AVM SHA256COMPRESSION', () => {
  const message = Buffer.from('cairn runs public bytecode');
  const expected = createHash('sha256').update(message).digest();

  it('compresses one padded block to the SHA-256 digest', () => {
    const out = sha256Compression(SHA256_IV, paddedBlock(message));
    const digest = Buffer.concat(Array.from(out, (w) => Buffer.from(w.toString(16).padStart(8, '0'), 'hex')));
    assert.deepEqual(digest, expected);
  });

  it('runs as an opcode on U32 memory and writes U32 words', () => {
    const r = run([
      ...setWords(100, Tag.U32, SHA256_IV),
      ...setWords(200, Tag.U32, paddedBlock(message)),
      I('SHA256COMPRESSION', [300, 100, 200]),
      ...returning(300, 8),
    ]).result;
    const digest = Buffer.concat(r.output.map((w) => Buffer.from(w.toString(16).padStart(8, '0'), 'hex')));
    assert.deepEqual(digest, expected);
  });

  it('halts on an input word that is not U32', () => {
    const r = run([
      ...setWords(100, Tag.U32, SHA256_IV),
      ...setWords(200, Tag.U32, paddedBlock(message)),
      I('SET_8', [215, Tag.U64, 0]),
      I('SHA256COMPRESSION', [300, 100, 200]),
      ...returning(300, 8),
    ]).result;
    assert.match(r.exceptionalHalt ?? '', /expected U32, got U64/);
  });
});

describe('AVM KECCAKF1600', () => {
  /** Keccak-256 of a short message: pad into the 136-byte rate, permute once, read 4 lanes. */
  function keccakLanesFor(message: Buffer): bigint[] {
    const block = Buffer.alloc(200);
    message.copy(block);
    block[message.length]! ^= 0x01;
    block[135]! ^= 0x80;
    return Array.from({ length: 25 }, (_, i) => block.readBigUInt64LE(8 * i));
  }
  const digestOf = (lanes: readonly bigint[]) =>
    Buffer.concat(
      lanes.slice(0, 4).map((lane) => {
        const b = Buffer.alloc(8);
        b.writeBigUInt64LE(lane);
        return b;
      }),
    );
  const message = Buffer.from('the AVM permutes 25 lanes');

  it('gives the Keccak-256 digest after one absorbed block', () => {
    assert.deepEqual(digestOf(keccakF1600(keccakLanesFor(message))), Buffer.from(keccak_256(message)));
  });

  it('runs as an opcode on U64 memory', () => {
    const r = run([
      ...setWords(100, Tag.U64, keccakLanesFor(message)),
      I('KECCAKF1600', [200, 100]),
      ...returning(200, 25),
    ]).result;
    assert.deepEqual(digestOf(r.output), Buffer.from(keccak_256(message)));
  });
});

describe('AVM POSEIDON2', () => {
  it('permutes 4 FF words like cairn’s Poseidon2', () => {
    const input = [1n, 2n, FR_MODULUS - 1n, 0x1234n];
    const r = run([
      ...input.map((v, i) => I('SET_FF', [10 + i, Tag.FF, v])),
      I('POSEIDON2', [10, 20]),
      ...returning(20, 4),
    ]).result;
    assert.deepEqual(r.output, poseidon2Permutation(input));
  });

  it('halts on a non-FF input', () => {
    const r = run([I('SET_8', [12, Tag.U8, 1]), I('POSEIDON2', [10, 20]), ...returning(20, 4)]).result;
    assert.match(r.exceptionalHalt ?? '', /expected FF, got U8/);
  });
});

describe('AVM ECADD', () => {
  const G = GRUMPKIN_GENERATOR;
  const G2 = multiplyPoint(G, 2n);
  const G3 = multiplyPoint(G, 3n);
  const point = (x: bigint, y: bigint, inf: number, at: number): Line[] => [
    I('SET_FF', [at, Tag.FF, x]),
    I('SET_FF', [at + 1, Tag.FF, y]),
    I('SET_8', [at + 2, Tag.U1, inf]),
  ];
  const add = (p: [bigint, bigint, number], q: [bigint, bigint, number]) =>
    run([
      ...point(...p, 10),
      ...point(...q, 20),
      I('ECADD', [10, 11, 12, 20, 21, 22, 30]),
      ...returning(30, 3),
    ]).result;

  it('adds and doubles points as cairn’s addPoints does', () => {
    const sum = addPoints(G, G2);
    assert.deepEqual(add([G.x, G.y, 0], [G2.x, G2.y, 0]).output, [sum.x, sum.y, 0n]);
    assert.deepEqual(add([G.x, G.y, 0], [G.x, G.y, 0]).output, [G2.x, G2.y, 0n]);
    assert.deepEqual([sum.x, sum.y], [G3.x, G3.y]);
  });

  it('treats flagged points as the identity and encodes it as (0, 0, 1)', () => {
    assert.deepEqual(add([5n, 6n, 1], [G.x, G.y, 0]).output, [G.x, G.y, 0n]);
    assert.deepEqual(add([G.x, G.y, 0], [0n, 0n, 1]).output, [G.x, G.y, 0n]);
    assert.deepEqual(add([0n, 0n, 1], [0n, 0n, 1]).output, [0n, 0n, 1n]);
    assert.deepEqual(add([G.x, G.y, 0], [G.x, FR_MODULUS - G.y, 0]).output, [0n, 0n, 1n]);
  });

  it('halts on a point off the curve that is not flagged infinite', () => {
    assert.match(add([5n, 6n, 0], [G.x, G.y, 0]).exceptionalHalt ?? '', /point 1 is not on the curve/);
    assert.match(add([G.x, G.y, 0], [G.x, G.y + 1n, 0]).exceptionalHalt ?? '', /point 2/);
    assert.deepEqual(ecAdd({ x: 5n, y: 6n, isInfinite: false }, G), { offCurve: 1 });
  });
});

describe('AVM TORADIXBE', () => {
  const toRadix = (value: bigint, radix: number, limbs: number, bits = 0) =>
    run([
      I('SET_FF', [10, Tag.FF, value]),
      I('SET_32', [11, Tag.U32, radix]),
      I('SET_32', [12, Tag.U32, limbs]),
      I('SET_8', [13, Tag.U1, bits]),
      I('TORADIXBE', [10, 11, 12, 13, 100]),
      // Proves the limb tag: adding a limb to a U8 (or U1) constant halts on any other tag.
      I('SET_8', [14, bits ? Tag.U1 : Tag.U8, 0]),
      I('ADD_8', [14, 100, 15]),
      ...returning(100, limbs),
    ]).result;

  it('writes big-endian limbs as U8, or as U1 bits in radix 2', () => {
    assert.deepEqual(toRadix(0x1234n, 256, 3).output, [0n, 0x12n, 0x34n]);
    assert.deepEqual(toRadix(1234n, 10, 5).output, [0n, 1n, 2n, 3n, 4n]);
    assert.deepEqual(toRadix(5n, 2, 4, 1).output, [0n, 1n, 0n, 1n]);
  });

  it('halts on a bad radix, a value too large for the limbs, or bits outside radix 2', () => {
    assert.match(toRadix(5n, 1, 4).exceptionalHalt ?? '', /radix 1 is not in 2..256/);
    assert.match(toRadix(5n, 257, 4).exceptionalHalt ?? '', /radix 257/);
    assert.match(toRadix(256n, 256, 1).exceptionalHalt ?? '', /does not fit in 1 limbs/);
    assert.match(toRadix(5n, 4, 4, 1).exceptionalHalt ?? '', /needs radix 2/);
    assert.match(toRadix(5n, 10, 0).exceptionalHalt ?? '', /into 0 limbs/);
  });
});
