// Arithmetic, comparison, bitwise and conversion opcodes: results, result tags, and the tag rules
// whose violation halts the frame.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OpName } from '../../src/avm/opcodes.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { I, type Line, returning, run, Tag } from './assembler.js';

const P = FR_MODULUS;

/** Sets a (at 10) and b (at 11) with their tags, runs `op` into 12, returns mem[12]. */
function binary(op: OpName, tagA: number, a: bigint, b: bigint, tagB = tagA, extra: Line[] = []) {
  return run([
    I('SET_FF', [10, Tag.FF, a]),
    I('CAST_16', [10, 10, tagA]),
    I('SET_FF', [11, Tag.FF, b]),
    I('CAST_16', [11, 11, tagB]),
    I(op, [10, 11, 12]),
    ...extra,
    ...returning(12, 1),
  ]);
}

/** Instructions that halt unless mem[addr] carries `tag` (an ADD needs equal tags). */
const expectTag = (addr: number, tag: number): Line[] => [
  I('SET_8', [200, tag, 0]),
  I('ADD_16', [addr, 200, 201]),
];

function value(op: OpName, tag: number, a: bigint, b: bigint): bigint {
  const r = binary(op, tag, a, b, tag, expectTag(12, tag)).result;
  assert.equal(r.reverted, false, r.revertReason);
  return r.output[0]!;
}

function halts(op: OpName, tagA: number, a: bigint, b: bigint, tagB = tagA): string {
  const r = binary(op, tagA, a, b, tagB).result;
  assert.equal(r.reverted, true);
  assert.notEqual(r.exceptionalHalt, undefined);
  assert.deepEqual(r.output, []);
  assert.equal(r.gasLeft.l2, 0);
  return r.exceptionalHalt!;
}

describe('AVM arithmetic', () => {
  it('adds integers wrapping at their width and fields mod p', () => {
    assert.equal(value('ADD_8', Tag.U8, 200n, 100n), 44n);
    assert.equal(value('ADD_16', Tag.U64, 2n ** 64n - 1n, 2n), 1n);
    assert.equal(value('ADD_8', Tag.FF, P - 1n, 5n), 4n);
    assert.equal(value('ADD_8', Tag.U1, 1n, 1n), 0n);
  });

  it('subtracts wrapping below zero', () => {
    assert.equal(value('SUB_8', Tag.U32, 3n, 5n), 2n ** 32n - 2n);
    assert.equal(value('SUB_16', Tag.FF, 3n, 5n), P - 2n);
  });

  it('multiplies wrapping at the width and mod p', () => {
    assert.equal(value('MUL_8', Tag.U128, 2n ** 127n, 4n), 0n);
    assert.equal(value('MUL_8', Tag.U16, 300n, 300n), (300n * 300n) % 65536n);
    assert.equal(value('MUL_8', Tag.FF, P - 1n, P - 1n), 1n);
  });

  it('divides integers (truncating) and halts on FF or a zero divisor', () => {
    assert.equal(value('DIV_8', Tag.U64, 100n, 7n), 14n);
    assert.match(halts('DIV_8', Tag.FF, 10n, 2n), /DIV needs integers/);
    assert.match(halts('DIV_16', Tag.U8, 10n, 0n), /division by zero/);
  });

  it('divides fields with FDIV and halts on integers or zero', () => {
    const q = value('FDIV_8', Tag.FF, 10n, 4n);
    assert.equal((q * 4n) % P, 10n);
    assert.match(halts('FDIV_8', Tag.U32, 10n, 2n), /FDIV needs FF/);
    assert.match(halts('FDIV_16', Tag.FF, 10n, 0n), /division by zero/);
  });

  it('halts when the operand tags differ', () => {
    assert.match(halts('ADD_8', Tag.U8, 1n, 1n, Tag.U16), /tag check failed/);
    assert.match(halts('EQ_8', Tag.FF, 1n, 1n, Tag.U1), /tag check failed/);
  });
});

describe('AVM comparisons', () => {
  it('gives U1 results for EQ, LT and LTE', () => {
    for (const op of ['EQ_8', 'LT_16', 'LTE_8'] as const) {
      const asU1 = binary(op, Tag.U64, 5n, 5n, Tag.U64, expectTag(12, Tag.U1)).result;
      assert.equal(asU1.reverted, false, `${op} result is U1`);
      const asU64 = binary(op, Tag.U64, 5n, 5n, Tag.U64, expectTag(12, Tag.U64)).result;
      assert.equal(asU64.reverted, true, `${op} result is not U64`);
    }
    assert.deepEqual(binary('EQ_8', Tag.U64, 5n, 6n).result.output, [0n]);
    assert.deepEqual(binary('EQ_8', Tag.U64, 6n, 6n).result.output, [1n]);
  });

  it('orders fields by their canonical values', () => {
    const lt = (a: bigint, b: bigint, op: OpName = 'LT_8') =>
      binary(op, Tag.FF, a, b, Tag.FF, expectTag(12, Tag.U1)).result.output[0];
    assert.equal(lt(P - 1n, 1n), 0n);
    assert.equal(lt(1n, P - 1n), 1n);
    assert.equal(lt(7n, 7n, 'LTE_16'), 1n);
    assert.equal(lt(8n, 7n, 'LTE_16'), 0n);
  });
});

describe('AVM bitwise', () => {
  it('ands, ors and xors integers and halts on FF', () => {
    assert.equal(value('AND_8', Tag.U16, 0xff0fn, 0x0ff0n), 0x0f00n);
    assert.equal(value('OR_8', Tag.U16, 0xff0fn, 0x0ff0n), 0xffffn);
    assert.equal(value('XOR_16', Tag.U16, 0xff0fn, 0x0ff0n), 0xf0ffn);
    assert.match(halts('AND_8', Tag.FF, 1n, 1n), /integer is required/);
  });

  it('negates within the tag width', () => {
    const not = (tag: number, a: bigint) =>
      run([
        I('SET_128', [10, tag, a]),
        I('NOT_8', [10, 12]),
        ...expectTag(12, tag),
        I('SET_32', [9999, Tag.U32, 1]),
        I('RETURN', [9999, 12]),
      ]).result;
    assert.deepEqual(not(Tag.U8, 0x0fn).output, [0xf0n]);
    assert.deepEqual(not(Tag.U1, 1n).output, [0n]);
    assert.deepEqual(not(Tag.U128, 0n).output, [2n ** 128n - 1n]);
    assert.equal(
      run([I('SET_8', [10, Tag.FF, 1]), I('NOT_8', [10, 12]), ...returning(12, 1)]).result.exceptionalHalt !==
        undefined,
      true,
    );
  });

  it('shifts left within the width, and gives 0 for shifts of the width or more', () => {
    assert.equal(value('SHL_8', Tag.U8, 0x81n, 1n), 0x02n);
    assert.equal(value('SHL_8', Tag.U8, 1n, 8n), 0n);
    assert.equal(value('SHL_16', Tag.U128, 1n, 127n), 2n ** 127n);
    assert.equal(value('SHR_8', Tag.U32, 0x80000000n, 31n), 1n);
    assert.equal(value('SHR_8', Tag.U64, 5n, 2n ** 63n), 0n);
    assert.match(halts('SHL_8', Tag.FF, 1n, 1n), /integer is required/);
  });
});

describe('AVM conversion and moves', () => {
  it('casts by truncation and re-tags', () => {
    const r = run([
      I('SET_FF', [10, Tag.FF, P - 1n]),
      I('CAST_8', [10, 11, Tag.U8]),
      ...expectTag(11, Tag.U8),
      I('SET_16', [20, Tag.U16, 0xabcd]),
      I('CAST_16', [20, 12, Tag.FF]),
      ...expectTag(12, Tag.FF),
      I('MOV_8', [11, 13]),
      ...expectTag(13, Tag.U8),
      I('SET_32', [9999, Tag.U32, 3]),
      I('RETURN', [9999, 11]),
    ]).result;
    assert.deepEqual([r.reverted, r.output], [false, [(P - 1n) & 0xffn, 0xabcdn, (P - 1n) & 0xffn]]);
  });

  it('reads never-written memory as FF 0', () => {
    const r = run([I('ADD_8', [50, 51, 52]), ...expectTag(52, Tag.FF), ...returning(52, 1)]).result;
    assert.deepEqual([r.reverted, r.output], [false, [0n]]);
  });
});
