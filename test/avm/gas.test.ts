// Exact gas (base, addressing from all mode bits, dynamic terms, out of gas, REVERT keeping gas)
// and the addressing modes (relative, indirect, both, and addresses past the end of memory).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { I, l2Used, RETURNING_GAS, returning, run, Tag } from './assembler.js';

const LIMIT = 1_000_000;
const DA_LIMIT = 100_000;

describe('AVM gas', () => {
  it('charges the base gas of each instruction', () => {
    const r = run([
      I('SET_8', [1, Tag.U8, 1]),
      I('SET_8', [2, Tag.U8, 2]),
      I('ADD_8', [1, 2, 3]),
      ...returning(3, 1),
    ]);
    assert.deepEqual(r.result.output, [3n]);
    assert.equal(l2Used(r), 27 + 27 + 12 + RETURNING_GAS);
    assert.equal(r.result.gasLeft.da, DA_LIMIT);
  });

  it('charges addressing gas for mode bits of operand slots the instruction does not use', () => {
    // ADD_8 uses slots 0..2; slot 3 marked relative costs 3 + 3, and mem[0] (FF) is never read.
    const r = run([I('SET_8', [1, Tag.U8, 1]), I('ADD_8', [1, 1, 3], 0b10 << 6), ...returning(3, 1)]);
    assert.deepEqual([r.result.reverted, r.result.output], [false, [2n]]);
    assert.equal(l2Used(r), 27 + 12 + 6 + RETURNING_GAS);
    // Slot 3 indirect and slot 2 relative: 3 (any relative) + 3 + 3.
    const both = run([
      I('SET_8', [0, Tag.U32, 0]),
      I('SET_8', [1, Tag.U8, 1]),
      I('ADD_8', [1, 1, 3], (0b01 << 6) | (0b10 << 4)),
      ...returning(3, 1),
    ]);
    assert.equal(l2Used(both), 27 + 27 + 12 + 9 + RETURNING_GAS);
  });

  it('counts all 7 slots of a 16-bit mode field', () => {
    // TORADIXBE has 5 operands; slot 6 indirect still costs 3.
    const program = (mode: number) => [
      I('SET_8', [10, Tag.FF, 5]),
      I('SET_8', [11, Tag.U32, 10]),
      I('SET_8', [12, Tag.U32, 1]),
      I('SET_8', [13, Tag.U1, 0]),
      I('TORADIXBE', [10, 11, 12, 13, 20], mode),
      ...returning(20, 1),
    ];
    assert.equal(l2Used(run(program(0b01 << 12))) - l2Used(run(program(0))), 3);
  });

  it('consumes all gas on running out, counting only the completed instructions', () => {
    const r = run([I('SET_8', [1, Tag.U8, 1]), I('SET_8', [1, Tag.U8, 1]), ...returning(1, 1)], {
      gasLimit: { l2: 50, da: 10 },
    }).result;
    assert.match(r.exceptionalHalt ?? '', /out of L2 gas/);
    assert.deepEqual([r.gasLeft, r.instructionsExecuted, r.output], [{ l2: 0, da: 0 }, 1, []]);
  });

  it('runs out of DA gas independently', () => {
    const r = run([I('SET_8', [1, Tag.FF, 1]), I('EMITNULLIFIER', [1]), ...returning(1, 1)], {
      gasLimit: { l2: LIMIT, da: 31 },
    }).result;
    assert.match(r.exceptionalHalt ?? '', /out of DA gas/);
  });

  it('keeps the unused gas on REVERT and returns the revert data', () => {
    const r = run([I('SET_8', [5, Tag.FF, 77]), I('SET_8', [6, Tag.U32, 1]), I('REVERT_8', [6, 5])]);
    assert.deepEqual(
      [r.result.reverted, r.result.exceptionalHalt, r.result.output],
      [true, undefined, [77n]],
    );
    assert.equal(l2Used(r), 27 + 27 + 9);
  });

  it('charges 3 per word copied by CALLDATACOPY', () => {
    const copy = (size: number) =>
      l2Used(
        run(
          [
            I('SET_8', [1, Tag.U32, size]),
            I('SET_8', [2, Tag.U32, 0]),
            I('CALLDATACOPY', [1, 2, 10]),
            ...returning(10, 1),
          ],
          { calldata: [1n, 2n] },
        ),
      );
    assert.equal(copy(5) - copy(0), 15);
    assert.equal(copy(0), 27 + 27 + 18 + RETURNING_GAS);
  });

  it('charges AND, OR and XOR 3 per byte of the tag', () => {
    const and = (tag: number) =>
      l2Used(run([I('SET_8', [1, tag, 1]), I('AND_8', [1, 1, 2]), ...returning(2, 1)])) -
      27 -
      12 -
      RETURNING_GAS;
    assert.deepEqual([Tag.U1, Tag.U8, Tag.U16, Tag.U32, Tag.U64, Tag.U128].map(and), [3, 3, 6, 12, 24, 48]);
  });

  it('charges public logs 3 L2 and 32 DA per field on top of the base', () => {
    const r = run([I('SET_8', [1, Tag.U32, 3]), I('EMITPUBLICLOG', [1, 10]), ...returning(1, 0)]);
    assert.equal(l2Used(r), 27 + 15 + 9 + RETURNING_GAS);
    assert.equal(DA_LIMIT - r.result.gasLeft.da, 64 + 96);
    assert.deepEqual(r.journal.publicLogs(), [{ contract: 0x5e1fn, fields: [0n, 0n, 0n] }]);
  });

  it('charges SSTORE 64 DA only for a slot not yet written in the transaction', () => {
    const r = run([
      I('SET_8', [1, Tag.FF, 7]),
      I('SSTORE', [1, 1]),
      I('SSTORE', [1, 1]),
      I('SET_8', [2, Tag.FF, 8]),
      I('SSTORE', [1, 2]),
      ...returning(1, 0),
    ]);
    assert.equal(DA_LIMIT - r.result.gasLeft.da, 128);
    assert.equal(l2Used(r), 27 * 2 + 33140 * 3 + RETURNING_GAS);
  });

  it('charges TORADIXBE 3 per limb, at least the radix table entry', () => {
    const toRadix = (radix: number, limbs: number) =>
      l2Used(
        run([
          I('SET_8', [10, Tag.FF, 1]),
          I('SET_32', [11, Tag.U32, radix]),
          I('SET_32', [12, Tag.U32, limbs]),
          I('SET_8', [13, Tag.U1, 0]),
          I('TORADIXBE', [10, 11, 12, 13, 20]),
          ...returning(20, 1),
        ]),
      ) -
      4 * 27 -
      24 -
      RETURNING_GAS;
    assert.equal(toRadix(10, 5), 3 * 77);
    assert.equal(toRadix(2, 1), 3 * 254);
    assert.equal(toRadix(256, 300), 3 * 300);
  });

  it('reports L2 and DA gas left after charging GETENVVAR itself', () => {
    const r = run([I('GETENVVAR_16', [1, 10]), I('GETENVVAR_16', [2, 11]), ...returning(1, 2)], {
      gasLimit: { l2: 1000, da: 55 },
    }).result;
    assert.deepEqual(r.output, [988n, 55n]);
  });
});

describe('AVM addressing', () => {
  it('adds mem[0] to relative operands', () => {
    const r = run([I('SET_8', [0, Tag.U32, 100]), I('SET_8', [5, Tag.U8, 9], 0b10), ...returning(105, 1)]);
    assert.deepEqual(r.result.output, [9n]);
    assert.equal(l2Used(r), 27 + 27 + 6 + RETURNING_GAS);
  });

  it('halts when mem[0] is not a U32 for a relative operand', () => {
    const r = run([I('SET_8', [0, Tag.U16, 100]), I('SET_8', [5, Tag.U8, 9], 0b10), ...returning(105, 1)]);
    assert.match(r.result.exceptionalHalt ?? '', /expected U32, got U16/);
  });

  it('follows indirect operands through a U32 pointer', () => {
    const r = run([I('SET_16', [7, Tag.U32, 300]), I('SET_8', [7, Tag.U8, 9], 0b01), ...returning(300, 1)]);
    assert.deepEqual(r.result.output, [9n]);
    assert.equal(l2Used(r), 27 + 27 + 3 + RETURNING_GAS);
    const bad = run([I('SET_16', [7, Tag.U64, 300]), I('SET_8', [7, Tag.U8, 9], 0b01), ...returning(300, 1)]);
    assert.match(bad.result.exceptionalHalt ?? '', /expected U32, got U64/);
  });

  it('applies relative before indirect', () => {
    const r = run([
      I('SET_8', [0, Tag.U32, 50]),
      I('SET_16', [57, Tag.U32, 400]),
      I('SET_8', [7, Tag.U8, 9], 0b11),
      ...returning(400, 1),
    ]);
    assert.deepEqual(r.result.output, [9n]);
    assert.equal(l2Used(r), 27 * 3 + 9 + RETURNING_GAS);
  });

  it('halts when a relative address runs past 2^32', () => {
    const r = run([
      I('SET_32', [0, Tag.U32, 2 ** 32 - 2]),
      I('SET_8', [5, Tag.U8, 9], 0b10),
      ...returning(1, 1),
    ]);
    assert.match(r.result.exceptionalHalt ?? '', /relative address/);
  });

  it('halts when a range of cells runs past the end of memory', () => {
    const r = run(
      [
        I('SET_32', [3, Tag.U32, 2 ** 32 - 1]),
        I('SET_8', [1, Tag.U32, 2]),
        I('SET_8', [2, Tag.U32, 0]),
        I('CALLDATACOPY', [1, 2, 3], 0b01 << 4),
        ...returning(1, 1),
      ],
      { calldata: [5n] },
    );
    assert.match(r.result.exceptionalHalt ?? '', /past the end of memory/);
    const oneCell = run(
      [
        I('SET_32', [3, Tag.U32, 2 ** 32 - 1]),
        I('SET_8', [1, Tag.U32, 1]),
        I('SET_8', [2, Tag.U32, 0]),
        I('CALLDATACOPY', [1, 2, 3], 0b01 << 4),
        I('MOV_16', [3, 4], 0b01),
        ...returning(4, 1),
      ],
      { calldata: [5n] },
    );
    assert.deepEqual(oneCell.result.output, [5n]);
  });
});
