// The reference's binary witness forms: answers recorded from the reference node decode, fold to
// the root of the block they were read at, and encode back to the same bytes; any path or
// witness survives a round trip; malformed input is refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import {
  decodeMembershipWitness,
  decodeSiblingPath,
  encodeMembershipWitness,
  encodeSiblingPath,
  membershipWitnessBase64,
  siblingPathBase64,
} from '../../src/aztec/buffers.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';

const vectors = JSON.parse(
  readFileSync(new URL('./vectors/reference-witnesses.json', import.meta.url), 'utf8'),
) as {
  noteHashMembershipWitness: { noteHash: string; noteHashTreeRoot: string; height: number; base64: string };
  publicDataWitness: { height: number; result: { siblingPath: string } };
  nullifierMembershipWitness: { height: number; result: { siblingPath: string } };
};

/** The root a leaf and its sibling path fold to (the reference's trees hash pairs with Poseidon2). */
function fold(leaf: bigint, index: bigint, path: readonly bigint[]): bigint {
  let node = leaf;
  let i = index;
  for (const sibling of path) {
    node = i % 2n === 0n ? poseidon2Hash([node, sibling]) : poseidon2Hash([sibling, node]);
    i /= 2n;
  }
  return node;
}

describe("the reference's witness encodings", () => {
  test("the reference node's note hash witness decodes and folds to its block's note hash tree root", () => {
    const v = vectors.noteHashMembershipWitness;
    const bytes = Buffer.from(v.base64, 'base64');
    const w = decodeMembershipWitness(bytes, v.height);
    assert.equal(w.siblingPath.length, 42);
    assert.equal(fold(BigInt(v.noteHash), w.leafIndex, w.siblingPath), BigInt(v.noteHashTreeRoot));
    assert.deepEqual(encodeMembershipWitness(w), bytes);
    assert.equal(z.encode(membershipWitnessBase64(v.height), w), v.base64);
  });

  test("the reference node's sibling paths decode to their trees' heights and encode back to the same bytes", () => {
    for (const v of [vectors.publicDataWitness, vectors.nullifierMembershipWitness]) {
      const bytes = Buffer.from(v.result.siblingPath, 'base64');
      const path = decodeSiblingPath(bytes);
      assert.equal(path.length, v.height);
      assert.deepEqual(encodeSiblingPath(path), bytes);
      assert.equal(z.encode(siblingPathBase64, path), v.result.siblingPath);
    }
  });

  const field = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });

  test('any sibling path: a 4-byte count then 32 bytes a node, and back', () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 50 }), (path) => {
        const bytes = encodeSiblingPath(path);
        assert.equal(bytes.readUInt32BE(0), path.length);
        assert.equal(bytes.length, 4 + 32 * path.length);
        path.forEach((node, i) => {
          assert.equal(BigInt(`0x${bytes.subarray(4 + 32 * i, 36 + 32 * i).toString('hex')}`), node);
        });
        assert.deepEqual(decodeSiblingPath(bytes), path);
      }),
    );
  });

  test('any membership witness: the index in 32 bytes then the nodes, and back', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.array(field, { minLength: 1, maxLength: 42 }),
        (leafIndex, siblingPath) => {
          const bytes = encodeMembershipWitness({ leafIndex, siblingPath });
          assert.equal(BigInt(`0x${bytes.subarray(0, 32).toString('hex')}`), leafIndex);
          assert.deepEqual(decodeMembershipWitness(bytes, siblingPath.length), { leafIndex, siblingPath });
        },
      ),
    );
  });

  test('malformed bytes are refused, not misread', () => {
    assert.throws(() => decodeSiblingPath(Buffer.from([0, 0])), /4-byte count/);
    assert.throws(() => decodeSiblingPath(encodeSiblingPath([1n, 2n]).subarray(0, 40)), /2 32-byte nodes/);
    const tooBig = Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.alloc(32, 0xff)]);
    assert.throws(() => decodeSiblingPath(tooBig), /modulus/);
    assert.throws(() => decodeMembershipWitness(Buffer.alloc(64), 42), /43 32-byte values/);
    assert.equal(siblingPathBase64.safeDecode('not base64!').success, false);
  });
});
