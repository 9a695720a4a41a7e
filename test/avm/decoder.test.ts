// Decoding: wire layouts, lazy per-pc decoding, malformed bytes that only matter when reached,
// and the program cache by class id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeInstruction, disassemble, Program, programForClass } from '../../src/avm/decoder.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { assemble, I, Tag } from './assembler.js';

describe('AVM decoder', () => {
  it('reads SET_8 as mode, dst, tag and value, with base gas', () => {
    const ins = decodeInstruction(assemble([I('SET_8', [7, Tag.U8, 200])]), 0);
    assert.equal(ins.error, undefined);
    assert.deepEqual(
      [ins.opcode, ins.size, ins.a, ins.b, ins.value, ins.l2Gas],
      [39, 5, 7, Tag.U8, 200n, 27],
    );
  });

  it('reduces a SET_FF value mod p and truncates a SET value to its tag', () => {
    const ff = decodeInstruction(assemble([I('SET_FF', [1, Tag.FF, FR_MODULUS + 5n])]), 0);
    assert.equal(ff.value, 5n);
    const truncated = decodeInstruction(assemble([I('SET_16', [1, Tag.U8, 0x1234])]), 0);
    assert.equal(truncated.value, 0x34n);
  });

  it('reads a u16 mode field for CALL and charges addressing gas from its bits', () => {
    // Slot 0 relative, slot 6 indirect: 3 (any relative) + 3 (relative) + 3 (indirect).
    const mode = 0b10 | (0b01 << 12);
    const ins = decodeInstruction(assemble([I('CALL', [1, 2, 3, 4, 5], mode)]), 0);
    assert.deepEqual([ins.size, ins.mode, ins.l2Gas], [13, mode, 9936 + 9]);
  });

  it('reads JUMP_32 without a mode field', () => {
    const ins = decodeInstruction(assemble([I('JUMP_32', [0xdeadbeef])]), 0);
    assert.deepEqual([ins.size, ins.a, ins.mode], [5, 0xdeadbeef, 0]);
  });

  it('turns an invalid opcode into an instruction that fails when reached', () => {
    const ins = decodeInstruction(new Uint8Array([68]), 0);
    assert.match(ins.error ?? '', /invalid opcode 68/);
  });

  it('turns a truncated instruction into a failing one', () => {
    const ins = decodeInstruction(assemble([I('SET_32', [1, Tag.U32, 5])]).subarray(0, 6), 0);
    assert.match(ins.error ?? '', /truncated SET_32/);
  });

  it('rejects a tag above U128, but reports truncation first', () => {
    const bad = assemble([I('SET_8', [1, 7, 5])]);
    assert.match(decodeInstruction(bad, 0).error ?? '', /invalid tag 7/);
    assert.match(decodeInstruction(bad.subarray(0, 4), 0).error ?? '', /truncated/);
  });

  it('decodes from any pc, including the middle of another instruction', () => {
    // SET_16 1, U16, 0x2700: its last two bytes (0x27 0x00) start a SET_8 if decoded from pc 5.
    const bytes = assemble([I('SET_16', [1, Tag.U16, 0x2700])]);
    const inner = decodeInstruction(new Uint8Array([...bytes, 0x05, 0x02, 0x09]), 5);
    assert.equal(inner.opcode, 39);
  });

  it('decodes lazily and caches by pc', () => {
    const program = new Program(assemble([I('SET_8', [1, Tag.U8, 1]), I('INTERNALRETURN')]));
    const first = program.at(5);
    assert.equal(first.opcode, 38);
    assert.equal(program.at(5), first);
  });

  it('caches programs by class id but never serves one for other bytecode', () => {
    const a = assemble([I('INTERNALRETURN')]);
    const b = assemble([I('SET_8', [1, Tag.U8, 1])]);
    const programA = programForClass(0xc1a55n, a);
    assert.equal(programForClass(0xc1a55n, new Uint8Array(a)), programA);
    assert.notEqual(programForClass(0xc1a55n, b), programA);
  });

  it('disassembles linearly and stops at the first bad instruction', () => {
    const listing = disassemble(
      new Uint8Array([...assemble([I('INTERNALRETURN'), I('INTERNALRETURN')]), 0xff]),
    );
    assert.deepEqual(
      listing.map((l) => [l.pc, l.instruction.error === undefined]),
      [
        [0, true],
        [1, true],
        [2, false],
      ],
    );
  });
});
