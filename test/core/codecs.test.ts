import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import {
  bigintDec,
  bytesHex,
  ethAddress,
  frHex,
  functionSelectorHex,
  slotNumber,
} from '../../src/core/codecs.js';
import { FR_MODULUS, fromBytes32, toBytes32, toHex32 } from '../../src/core/field.js';

const decodes = (schema: z.ZodType, value: unknown) => z.safeDecode(schema, value).success;

describe('field element codec', () => {
  test('round trip: any field element encodes to 0x + 64 lowercase hex and decodes back', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }), (v) => {
        const wire = z.encode(frHex, v);
        assert.match(wire, /^0x[0-9a-f]{64}$/);
        assert.equal(z.decode(frHex, wire), v);
        assert.equal(z.decode(frHex, wire.toUpperCase().replace('0X', '0x')), v);
        assert.equal(z.decode(frHex, `0x${v.toString(16)}`), v);
      }),
      { numRuns: 2000 },
    );
  });

  test('accepts 1..64 hex digits in any case, below the modulus only', () => {
    assert.equal(z.decode(frHex, '0x0'), 0n);
    assert.equal(z.decode(frHex, '0xAbC'), 0xabcn);
    assert.equal(z.decode(frHex, toHex32(FR_MODULUS - 1n)), FR_MODULUS - 1n);
    for (const bad of [
      toHex32(FR_MODULUS),
      `0x${'f'.repeat(64)}`,
      `0x${'0'.repeat(65)}`,
      '0x',
      'abc',
      '12',
      '0xg1',
      ' 0x1',
      42,
      null,
    ]) {
      assert.equal(decodes(frHex, bad), false, String(bad));
    }
  });

  test('32-byte big-endian encoding round trips', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (v) => {
        assert.equal(fromBytes32(toBytes32(v)), v);
      }),
    );
  });
});

describe('other codecs', () => {
  test('bigint: decimal strings or safe JSON integers in, decimal strings out', () => {
    assert.equal(z.decode(bigintDec, '123456789012345678901234567890'), 123456789012345678901234567890n);
    assert.equal(z.decode(bigintDec, 42), 42n);
    assert.equal(z.encode(bigintDec, 10n ** 30n), `1${'0'.repeat(30)}`);
    for (const bad of ['-1', '01', '1.5', '0x10', '', -1, 1.5, 2 ** 53, '1e3']) {
      assert.equal(decodes(bigintDec, bad), false, String(bad));
    }
  });

  test('Ethereum addresses: 40 hex digits, lowercased', () => {
    assert.equal(z.decode(ethAddress, `0x${'AB'.repeat(20)}`), `0x${'ab'.repeat(20)}`);
    for (const bad of [`0x${'a'.repeat(39)}`, `0x${'a'.repeat(41)}`, 'a'.repeat(40)]) {
      assert.equal(decodes(ethAddress, bad), false, bad);
    }
  });

  test('slot numbers: JSON integers or decimal strings', () => {
    assert.equal(z.decode(slotNumber, 12), 12);
    assert.equal(z.decode(slotNumber, '12'), 12);
    assert.equal(decodes(slotNumber, '-3'), false);
    assert.equal(decodes(slotNumber, '99999999999999999999'), false);
  });

  test('bytes and selectors', () => {
    assert.deepEqual([...z.decode(bytesHex, '0x00ff10')], [0, 255, 16]);
    assert.equal(z.encode(bytesHex, new Uint8Array([1, 2])), '0x0102');
    assert.equal(decodes(bytesHex, '0x123'), false);
    assert.equal(z.decode(functionSelectorHex, '0xABCD0123'), 0xabcd0123);
    assert.equal(z.encode(functionSelectorHex, 0xab), '0x000000ab');
    assert.equal(decodes(functionSelectorHex, '0x123456789'), false);
  });
});
