// ABI encoding and decoding against a simple independent model, on random types and values:
// decode(encode(v)) gives v back, the field count is what the type says, and the signature text
// follows the reference's spelling.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type AbiType,
  type AbiValue,
  decodeValue,
  encodeArguments,
  encodeValue,
  fieldCount,
  functionSignature,
} from '../../src/core/abi.js';
import { FR_MODULUS } from '../../src/core/field.js';

const address: AbiType = {
  kind: 'struct',
  path: 'aztec::protocol_types::address::aztec_address::AztecAddress',
  fields: [{ name: 'inner', type: { kind: 'field' } }],
};

/** A random ABI type, nested a few levels at most. */
const typeArb: fc.Arbitrary<AbiType> = fc.letrec<{ type: AbiType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<AbiType>({ kind: 'field' }),
    fc.constant<AbiType>({ kind: 'boolean' }),
    fc
      .record({
        sign: fc.constantFrom('signed' as const, 'unsigned' as const),
        width: fc.constantFrom(1, 8, 16, 32, 64, 128),
      })
      .map((t): AbiType => ({ kind: 'integer', ...t })),
    fc.integer({ min: 0, max: 5 }).map((length): AbiType => ({ kind: 'string', length })),
    fc.constant(address),
    fc
      .record({ length: fc.integer({ min: 0, max: 3 }), type: tie('type') })
      .map((t): AbiType => ({ kind: 'array', ...t })),
    fc.array(tie('type'), { minLength: 2, maxLength: 3 }).map(
      (types): AbiType => ({
        kind: 'struct',
        path: 'test::S',
        fields: types.map((type, i) => ({ name: `f${i}`, type })),
      }),
    ),
    fc.array(tie('type'), { maxLength: 3 }).map((fields): AbiType => ({ kind: 'tuple', fields })),
  ),
})).type;

/** A random value of `type`, in the form decodeValue returns. */
function valueArb(type: AbiType): fc.Arbitrary<AbiValue> {
  switch (type.kind) {
    case 'field':
      return fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }).map((v) => `0x${v.toString(16).padStart(64, '0')}`);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const w = BigInt(type.width);
      return type.sign === 'signed'
        ? fc.bigInt({ min: -(1n << (w - 1n)), max: (1n << (w - 1n)) - 1n })
        : fc.bigInt({ min: 0n, max: (1n << w) - 1n });
    }
    case 'string':
      return fc.string({ unit: fc.constantFrom(...'abcXYZ019 _-'.split('')), maxLength: type.length });
    case 'array':
      return fc.array(valueArb(type.type), { minLength: type.length, maxLength: type.length });
    case 'tuple':
      return type.fields.length === 0 ? fc.constant([]) : fc.tuple(...type.fields.map(valueArb));
    case 'struct':
      if (type.fields.length === 1) return valueArb(type.fields[0]!.type);
      // fast-check's records have no prototype; decoded structs are plain objects.
      return fc
        .record(Object.fromEntries(type.fields.map((f) => [f.name, valueArb(f.type)])))
        .map((o) => ({ ...o }));
  }
}

describe('ABI', () => {
  test('decode(encode(v)) = v, in as many fields as the type says', () => {
    fc.assert(
      fc.property(
        typeArb.chain((type) => fc.tuple(fc.constant(type), valueArb(type))),
        ([type, value]) => {
          const fields = encodeValue(type, value, 'v');
          assert.equal(fields.length, fieldCount(type));
          for (const f of fields) assert.ok(f >= 0n && f < FR_MODULUS);
          const back = decodeValue(type, fields);
          assert.deepEqual(back.value, value);
          assert.equal(back.next, fields.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('signed integers are two’s complement in their width; values are range-checked', () => {
    const i8: AbiType = { kind: 'integer', sign: 'signed', width: 8 };
    assert.deepEqual(encodeValue(i8, -1, 'x'), [255n]);
    assert.deepEqual(encodeValue(i8, '-128', 'x'), [128n]);
    assert.equal(decodeValue(i8, [255n]).value, -1n);
    assert.throws(() => encodeValue(i8, 128, 'x'), /out of range for i8 \(-128\.\.127\)/);
    assert.throws(() => encodeValue({ kind: 'field' }, FR_MODULUS, 'x'), /not a field element/);
    assert.throws(() => encodeValue({ kind: 'boolean' }, 'yes', 'x'), /expected bool/);
    assert.throws(() => encodeValue({ kind: 'field' }, 1.5, 'x'), /expected Field/);
  });

  test('strings are one byte per field, zero-padded; structs take objects or, with one field, the value', () => {
    assert.deepEqual(encodeValue({ kind: 'string', length: 4 }, 'ab', 's'), [97n, 98n, 0n, 0n]);
    assert.deepEqual(encodeValue(address, '0x05', 'a'), [5n]);
    assert.deepEqual(encodeValue(address, { inner: 7 }, 'a'), [7n]);
    const point: AbiType = {
      kind: 'struct',
      path: 'std::embedded_curve_ops::EmbeddedCurvePoint',
      fields: [
        { name: 'x', type: { kind: 'field' } },
        { name: 'y', type: { kind: 'field' } },
        { name: 'is_infinite', type: { kind: 'boolean' } },
      ],
    };
    assert.deepEqual(encodeValue(point, { x: 1, y: 2, is_infinite: true }, 'p'), [1n, 2n, 1n]);
    assert.throws(
      () => encodeValue(point, { x: 1, y: 2 }, 'p'),
      /EmbeddedCurvePoint needs field is_infinite/,
    );
    assert.throws(() => encodeValue(point, { x: 1, y: 2, is_infinite: true, z: 3 }, 'p'), /has no field z/);
  });

  test('signatures spell types as the reference does', () => {
    assert.equal(
      functionSignature('constructor', [
        { name: 'admin', type: address },
        { name: 'name', type: { kind: 'string', length: 31 } },
        { name: 'decimals', type: { kind: 'integer', sign: 'unsigned', width: 8 } },
        { name: 'xs', type: { kind: 'array', length: 3, type: { kind: 'field' } } },
        { name: 'ok', type: { kind: 'boolean' } },
        { name: 'n', type: { kind: 'integer', sign: 'signed', width: 64 } },
      ]),
      'constructor((Field),str<31>,u8,[Field;3],bool,i64)',
    );
    assert.throws(
      () => encodeArguments('f', [{ name: 'a', type: { kind: 'field' } }], []),
      /f takes 1 argument\(s\) \(a: Field\), got 0/,
    );
  });
});
