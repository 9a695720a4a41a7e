// sha256ToField, keccak256 and function selectors.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { FR_MODULUS } from '../../../src/core/field.js';
import { keccak256 } from '../../../src/core/hash/keccak.js';
import { functionSelector } from '../../../src/core/hash/selector.js';
import { sha256, sha256ToField } from '../../../src/core/hash/sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Independent sha256ToField with node:crypto: digest, drop the last byte, prefix 0x00. */
function nodeSha256ToField(parts: Buffer[]): bigint {
  const digest = createHash('sha256').update(Buffer.concat(parts)).digest();
  return BigInt(`0x00${digest.subarray(0, 31).toString('hex')}`);
}
const be32 = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

describe('sha256ToField', () => {
  test('known answers (computed with node:crypto)', () => {
    assert.equal(
      sha256ToField([1n, 2n]),
      0x00d6ba9329f8932c12192b37849f772104d20048f76434a3290512d9d814e411n,
    );
    assert.equal(sha256ToField([]), 0x00e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8n);
  });

  test('bigint and 32-byte chunks give the same result', () => {
    const values = [0n, 1n, FR_MODULUS - 1n, 123456789n];
    assert.equal(sha256ToField(values), sha256ToField(values.map((v) => new Uint8Array(be32(v)))));
  });

  test('random inputs agree with node:crypto', () => {
    for (let i = 0; i < 200; i++) {
      const n = i % 8;
      const values = Array.from(
        { length: n },
        () => BigInt(`0x${randomBytes(32).toString('hex')}`) % FR_MODULUS,
      );
      const expected = nodeSha256ToField(values.map(be32));
      assert.equal(sha256ToField(values), expected);
      assert.ok(expected < 2n ** 248n);
    }
    const raw = randomBytes(77);
    assert.equal(sha256ToField([new Uint8Array(raw)]), nodeSha256ToField([raw]));
  });

  test('bigint chunks must be field elements', () => {
    assert.throws(() => sha256ToField([FR_MODULUS]), RangeError);
    assert.throws(() => sha256ToField([-1n]), RangeError);
    assert.throws(() => sha256ToField([1n, 2n ** 256n]), RangeError);
  });

  test('sha256', () => {
    assert.equal(
      hex(sha256(new Uint8Array(0))),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});

describe('keccak256', () => {
  test('known answers', () => {
    assert.equal(
      hex(keccak256(new Uint8Array(0))),
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    assert.equal(
      hex(keccak256(new TextEncoder().encode('abc'))),
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });
  test('rejects non-bytes', () => {
    assert.throws(() => keccak256('abc' as unknown as Uint8Array), TypeError);
  });
});

describe('functionSelector', () => {
  test('known selector: public_dispatch(Field) = 0xd5441b0d (PUBLIC_DISPATCH_SELECTOR)', () => {
    assert.equal(functionSelector('public_dispatch(Field)'), 0xd5441b0d);
  });
  test('is an unsigned 32-bit number', () => {
    for (const sig of ['transfer(Field,Field)', 'constructor()', 'a', 'x'.repeat(100)]) {
      const s = functionSelector(sig);
      assert.ok(Number.isInteger(s) && s >= 0 && s <= 0xffffffff);
    }
  });
  test('rejects signatures containing whitespace', () => {
    for (const sig of ['transfer(Field, Field)', ' foo()', 'foo()\n', 'foo(\tField)', 'foo()\u00a0']) {
      assert.throws(() => functionSelector(sig), /whitespace/);
    }
  });
});
