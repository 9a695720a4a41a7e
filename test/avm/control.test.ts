// Control flow and hostile bytecode: jumps, internal calls, the program counter leaving the
// bytecode, and malformed instructions that halt only when execution reaches them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { I, label, raw, ref, returning, run, sizeOf, Tag } from './assembler.js';

describe('AVM control flow', () => {
  it('jumps over instructions', () => {
    const r = run([
      I('JUMP_32', [ref('x')]),
      I('SET_8', [1, Tag.U8, 99]),
      label('x'),
      ...returning(1, 1),
    ]).result;
    assert.deepEqual([r.reverted, r.output, r.instructionsExecuted], [false, [0n], 3]);
  });

  it('branches on a U1 condition and falls through on 0', () => {
    const branch = (cond: number) =>
      run([
        I('SET_8', [2, Tag.U1, cond]),
        I('JUMPI_32', [2, ref('taken')]),
        I('SET_8', [1, Tag.U8, 10]),
        ...returning(1, 1),
        label('taken'),
        I('SET_8', [1, Tag.U8, 20]),
        ...returning(1, 1),
      ]).result.output;
    assert.deepEqual(branch(1), [20n]);
    assert.deepEqual(branch(0), [10n]);
  });

  it('halts when the JUMPI condition is not U1', () => {
    const r = run([I('SET_8', [2, Tag.U8, 1]), I('JUMPI_32', [2, 0]), ...returning(1, 1)]).result;
    assert.match(r.exceptionalHalt ?? '', /expected U1, got U8/);
  });

  it('returns from internal calls to the instruction after the call', () => {
    const callTwice = [
      I('INTERNALCALL', [ref('f')]),
      I('INTERNALCALL', [ref('f')]),
      ...returning(1, 1),
      label('f'),
      I('SET_8', [3, Tag.U8, 1]),
      I('ADD_8', [1, 3, 1]),
      I('INTERNALRETURN'),
    ];
    const r = run(callTwice).result;
    // mem[1] starts as FF 0, so the first ADD halts on mismatched tags unless it is set first.
    assert.equal(r.reverted, true);
    const ok = run([I('SET_8', [1, Tag.U8, 0]), ...callTwice]).result;
    assert.deepEqual([ok.reverted, ok.output, ok.instructionsExecuted], [false, [2n], 1 + 2 * 4 + 2]);
  });

  it('halts on INTERNALRETURN with an empty call stack', () => {
    const r = run([I('INTERNALRETURN')]).result;
    assert.match(r.exceptionalHalt ?? '', /empty internal call stack/);
    assert.equal(r.instructionsExecuted, 0);
  });
});

describe('AVM program counter and malformed bytecode', () => {
  it('halts after the last instruction when it does not end the call, counting it', () => {
    const r = run([I('SET_8', [1, Tag.U8, 1])]).result;
    assert.match(r.exceptionalHalt ?? '', /past the end of the bytecode/);
    assert.deepEqual([r.instructionsExecuted, r.gasLeft.l2], [1, 0]);
  });

  it('halts after a jump past the end', () => {
    const r = run([I('JUMP_32', [1000])]).result;
    assert.match(r.exceptionalHalt ?? '', /program counter 1000/);
    assert.equal(r.instructionsExecuted, 1);
  });

  it('never decodes bytes execution does not reach', () => {
    const r = run([...returning(1, 1), raw(0xff, 0x27, 0x00)]).result;
    assert.deepEqual([r.reverted, r.output], [false, [0n]]);
  });

  it('halts on an invalid opcode when it is reached', () => {
    const r = run([I('SET_8', [1, Tag.U8, 1]), raw(0x44)]).result;
    assert.match(r.exceptionalHalt ?? '', /invalid opcode 68 at pc 5/);
    assert.equal(r.instructionsExecuted, 1);
  });

  it('halts on an invalid tag or a truncated instruction when reached', () => {
    assert.match(run([raw(39, 0, 1, 9, 1)]).result.exceptionalHalt ?? '', /invalid tag 9/);
    assert.match(
      run([I('SET_8', [1, Tag.U8, 1]), raw(41, 0, 0)]).result.exceptionalHalt ?? '',
      /truncated SET_32/,
    );
  });

  it('runs data reached by a jump when the bytes decode as instructions', () => {
    // After RETURN lie the bytes of "SET_8 mem[1] = U8 42; JUMP back".
    const r = run([
      I('JUMP_32', [ref('data')]),
      label('back'),
      ...returning(1, 1),
      label('data'),
      raw(39, 0, 1, Tag.U8, 42),
      I('JUMP_32', [ref('back')]),
    ]).result;
    assert.deepEqual([r.reverted, r.output], [false, [42n]]);
  });

  it('decodes a jump target inside another instruction from that byte', () => {
    // The 32-byte value of a SET_FF holds a whole program: SET_8 mem[1] = U8 42; SET_8 mem[200] =
    // U32 1; RETURN 1 word from mem[1]. Jumping to the value field runs it; the SET_FF never runs.
    const inner = [39, 0, 1, Tag.U8, 42, 39, 0, 200, Tag.U32, 1, 59, 0, 0, 200, 0, 1];
    const value = BigInt(`0x${Buffer.from([...inner, ...new Array(16).fill(0)]).toString('hex')}`);
    const valueField = sizeOf('JUMP_32') + 5;
    const r = run([I('JUMP_32', [valueField]), I('SET_FF', [1, Tag.FF, value])]).result;
    assert.deepEqual([r.reverted, r.output, r.instructionsExecuted], [false, [42n], 4]);
  });
});
