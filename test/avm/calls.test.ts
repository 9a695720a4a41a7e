// Nested CALL and STATICCALL: return data, success flags, gas allocation and refunds, exceptional
// halts consuming the callee's allotment, static propagation, and the journal checkpoints around
// each frame.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executePublicCall } from '../../src/avm/interpreter.js';
import { AvmJournal } from '../../src/avm/journal.js';
import { InMemoryAvmWorld } from '../../src/avm/memory-world.js';
import {
  assemble,
  I,
  type Item,
  l2Used,
  RETURNING_GAS,
  request,
  returning,
  run,
  SELF,
  Tag,
} from './assembler.js';

const CHILD = 0xc41dn;

/** Adds its two calldata words and returns the sum: 6 instructions, 126 L2 gas. */
const ADDER: Item[] = [
  I('SET_8', [1, Tag.U32, 2]),
  I('SET_8', [2, Tag.U32, 0]),
  I('CALLDATACOPY', [1, 2, 10]),
  I('ADD_8', [10, 11, 12]),
  ...returning(12, 1),
];
const ADDER_GAS = 27 + 27 + 18 + 6 + 12 + RETURNING_GAS;

function worldWith(child: Item[]): InMemoryAvmWorld {
  const world = new InMemoryAvmWorld();
  world.deploy({ address: CHILD, classId: 0xc1a55c41dn, bytecode: assemble(child) });
  return world;
}

/** Calls CHILD with args (20, 22) and the given gas request, then returns [success, size, first word]. */
function caller(l2Asked: number, daAsked: number, op: 'CALL' | 'STATICCALL' = 'CALL'): Item[] {
  return [
    I('SET_32', [1, Tag.U32, l2Asked]),
    I('SET_32', [2, Tag.U32, daAsked]),
    I('SET_FF', [3, Tag.FF, CHILD]),
    I('SET_8', [4, Tag.U32, 2]),
    I('SET_8', [5, Tag.FF, 20]),
    I('SET_8', [6, Tag.FF, 22]),
    I(op, [1, 2, 3, 4, 5]),
    I('SUCCESSCOPY', [7]),
    I('RETURNDATASIZE', [8]),
    I('SET_8', [9, Tag.U32, 0]),
    I('RETURNDATACOPY', [8, 9, 10]),
    I('MOV_8', [10, 9]),
    ...returning(7, 3),
  ];
}
/** The caller's own gas when the child returns one word: everything but the CALL's allotment. */
const CALLER_GAS = 27 * 6 + 9936 + 12 + 12 + 27 + 18 + 3 + 12 + RETURNING_GAS;
const CALLER_INSTRUCTIONS = 14;

describe('AVM nested calls', () => {
  it('returns the callee’s data and success, charging only the gas it used', () => {
    const r = run(caller(100_000, 1000), {}, worldWith(ADDER));
    assert.deepEqual(r.result.output, [1n, 1n, 42n]);
    assert.equal(l2Used(r), CALLER_GAS + ADDER_GAS);
    assert.equal(r.result.instructionsExecuted, CALLER_INSTRUCTIONS + 6);
  });

  it('gives the callee at most the gas left, and refunds the unused part', () => {
    const r = run(caller(2 ** 32 - 1, 2 ** 32 - 1), {}, worldWith(ADDER));
    assert.deepEqual(r.result.output, [1n, 1n, 42n]);
    assert.equal(l2Used(r), CALLER_GAS + ADDER_GAS);
    assert.equal(r.result.gasLeft.da, 100_000);
  });

  it('passes REVERT data back and refunds the callee’s unused gas', () => {
    const reverter = [I('SET_8', [1, Tag.FF, 99]), I('SET_8', [2, Tag.U32, 1]), I('REVERT_8', [2, 1])];
    const r = run(caller(100_000, 1000), {}, worldWith(reverter));
    assert.deepEqual(r.result.output, [0n, 1n, 99n]);
    assert.equal(l2Used(r), CALLER_GAS + 27 + 27 + 9);
  });

  it('consumes the callee’s whole allotment when it halts exceptionally, and no more', () => {
    const divider = [I('SET_8', [1, Tag.U8, 0]), I('DIV_8', [1, 1, 2]), ...returning(2, 1)];
    const r = run(caller(5000, 300), {}, worldWith(divider));
    // Empty return data: RETURNDATACOPY of 0 words costs no dynamic gas, and mem[10] stays FF 0.
    assert.deepEqual(r.result.output, [0n, 0n, 0n]);
    assert.equal(l2Used(r), CALLER_GAS - 3 + 5000);
    assert.equal(r.result.gasLeft.da, 100_000 - 300);
    assert.equal(r.result.instructionsExecuted, CALLER_INSTRUCTIONS + 1);
  });

  it('fails a call to an address without a deployed contract, consuming its allotment', () => {
    const r = run(caller(5000, 0), {}, new InMemoryAvmWorld());
    assert.deepEqual(r.result.output, [0n, 0n, 0n]);
    assert.equal(l2Used(r), CALLER_GAS - 3 + 5000);
  });

  it('keeps a successful callee’s effects and drops a failed callee’s, but not the caller’s', () => {
    const writerThen = (end: Item[]) => [I('SET_8', [1, Tag.FF, 5]), I('SSTORE', [1, 1]), ...end];
    const parent = (child: Item[]) => {
      const world = worldWith(writerThen(child));
      return run([I('SET_8', [50, Tag.FF, 6]), I('SSTORE', [50, 50]), ...caller(200_000, 1000)], {}, world)
        .journal;
    };
    const ok = parent(returning(1, 0));
    assert.deepEqual(
      ok.storageWrites().map((w) => [w.contract, w.slot]),
      [
        [SELF, 6n],
        [CHILD, 5n],
      ],
    );
    const reverted = parent([I('SET_8', [2, Tag.U32, 0]), I('REVERT_8', [2, 1])]);
    assert.deepEqual(
      reverted.storageWrites().map((w) => [w.contract, w.slot]),
      [[SELF, 6n]],
    );
    assert.equal(reverted.depth, 0);
  });

  it('runs the callee with the caller as sender and the callee as address', () => {
    const envChild = [I('GETENVVAR_16', [20, 0]), I('GETENVVAR_16', [21, 1]), ...returning(20, 2)];
    const world = worldWith(envChild);
    const r = run(
      [
        ...caller(100_000, 0).slice(0, 7),
        I('SET_8', [8, Tag.U32, 2]),
        I('SET_8', [9, Tag.U32, 0]),
        I('RETURNDATACOPY', [8, 9, 10]),
        ...returning(10, 2),
      ],
      {},
      world,
    );
    assert.deepEqual(r.result.output, [CHILD, SELF]);
  });
});

describe('AVM static calls', () => {
  const isStaticChild = [I('GETENVVAR_16', [20, 9]), ...returning(20, 1)];

  it('marks STATICCALL callees static, and CALL callees of a static frame too', () => {
    assert.deepEqual(run(caller(100_000, 0, 'STATICCALL'), {}, worldWith(isStaticChild)).result.output, [
      1n,
      1n,
      1n,
    ]);
    assert.deepEqual(run(caller(100_000, 0, 'CALL'), {}, worldWith(isStaticChild)).result.output, [
      1n,
      1n,
      0n,
    ]);
    assert.deepEqual(
      run(caller(100_000, 0, 'CALL'), { isStaticCall: true }, worldWith(isStaticChild)).result.output,
      [1n, 1n, 1n],
    );
  });

  it('halts a static frame that writes state or emits side effects', () => {
    const attempts: Item[][] = [
      [I('SET_8', [1, Tag.FF, 1]), I('SSTORE', [1, 1])],
      [I('SET_8', [1, Tag.FF, 1]), I('EMITNOTEHASH', [1])],
      [I('SET_8', [1, Tag.FF, 1]), I('EMITNULLIFIER', [1])],
      [I('SET_8', [1, Tag.U32, 0]), I('EMITPUBLICLOG', [1, 1])],
      [I('SET_8', [1, Tag.FF, 1]), I('SENDL2TOL1MSG', [1, 1])],
    ];
    for (const attempt of attempts) {
      const inStatic = run([...attempt, ...returning(1, 0)], { isStaticCall: true }).result;
      assert.match(inStatic.exceptionalHalt ?? '', /not allowed in a static call/);
      const nonStatic = run([...attempt, ...returning(1, 0)]).result;
      assert.equal(nonStatic.reverted, false, nonStatic.revertReason);
    }
    const viaStaticCall = run(caller(100_000, 1000, 'STATICCALL'), {}, worldWith(attempts[0]!)).result;
    assert.deepEqual(viaStaticCall.output, [0n, 0n, 0n]);
  });

  it("names the callee's cause when the caller it left without gas halts, as the reference does", () => {
    // The caller asks for more gas than it has, so the callee gets it all; the callee's static
    // violation consumes it, and the caller halts at its next instruction, out of gas.
    const writer = [I('SET_8', [1, Tag.FF, 1]), I('SSTORE', [1, 1]), ...returning(1, 0)];
    const r = run(caller(4_000_000_000, 4_000_000_000, 'STATICCALL'), {}, worldWith(writer)).result;
    assert.match(r.exceptionalHalt ?? '', /^out of L2 gas$/);
    assert.match(r.revertReason ?? '', /not allowed in a static call/);
    // A callee that reverted with data is not the cause of its caller's later halt, and one that
    // succeeded leaves no cause behind: the caller's own halt is reported.
    const reverter = [I('SET_8', [1, Tag.U32, 1]), I('REVERT_8', [1, 1])];
    for (const callee of [reverter, ADDER]) {
      const own = run(
        [...caller(100_000, 1000).slice(0, 7), I('JUMP_32', [1_000_000])],
        {},
        worldWith(callee),
      ).result;
      assert.ok(own.exceptionalHalt !== undefined);
      assert.equal(own.revertReason, own.exceptionalHalt);
    }
  });
});

describe('AVM revert causes kept across nested calls', () => {
  it('keeps the last failed callee as the cause after a later callee succeeds, as the reference does', () => {
    const ADDER_AT = 0xadd3n;
    const writer = [I('SET_8', [1, Tag.FF, 1]), I('SSTORE', [1, 1]), ...returning(1, 0)];
    const world = worldWith(writer);
    world.deploy({ address: ADDER_AT, classId: 0xadd3c1a55n, bytecode: assemble(ADDER) });
    const callThen = (address: bigint, op: 'CALL' | 'STATICCALL'): Item[] => [
      I('SET_32', [1, Tag.U32, 100_000]),
      I('SET_32', [2, Tag.U32, 1000]),
      I('SET_FF', [3, Tag.FF, address]),
      I('SET_8', [4, Tag.U32, 2]),
      I('SET_8', [5, Tag.FF, 20]),
      I('SET_8', [6, Tag.FF, 22]),
      I(op, [1, 2, 3, 4, 5]),
    ];
    // The writer halts in its static call (no revert data), the adder then succeeds, and the caller
    // halts on its own with no data either: the kept cause is the writer's.
    const r = run(
      [...callThen(CHILD, 'STATICCALL'), ...callThen(ADDER_AT, 'CALL'), I('JUMP_32', [1_000_000])],
      {},
      world,
    ).result;
    assert.ok(r.exceptionalHalt !== undefined && !/static call/.test(r.exceptionalHalt));
    assert.match(r.revertReason ?? '', /not allowed in a static call/);
  });
});

describe('AVM enqueued calls', () => {
  it('runs the bytecode deployed at the address and reverts a call to an undeployed one', () => {
    const world = worldWith(ADDER);
    const journal = new AvmJournal(world, 1n);
    const ok = executePublicCall(journal, request({ address: CHILD, calldata: [40n, 2n] }));
    assert.deepEqual([ok.reverted, ok.output, ok.instructionsExecuted], [false, [42n], 6]);
    const missing = executePublicCall(journal, request({ address: 0xdeadn }));
    assert.deepEqual(
      [missing.reverted, missing.gasLeft, missing.instructionsExecuted],
      [true, { l2: 0, da: 0 }, 0],
    );
    assert.match(missing.exceptionalHalt ?? '', /not-deployed/);
  });

  it('reverts the journal checkpoint of a reverted enqueued call', () => {
    const world = worldWith([
      I('SET_8', [1, Tag.FF, 1]),
      I('SSTORE', [1, 1]),
      I('SET_8', [2, Tag.U32, 0]),
      I('REVERT_8', [2, 1]),
    ]);
    const journal = new AvmJournal(world, 1n);
    const r = executePublicCall(journal, request({ address: CHILD }));
    assert.equal(r.reverted, true);
    assert.deepEqual([journal.storageWrites(), journal.depth], [[], 0]);
  });

  it('rejects calldata that is not made of field elements', () => {
    assert.throws(
      () => executePublicCall(new AvmJournal(new InMemoryAvmWorld(), 1n), request({ calldata: [-1n] })),
      /not a field element/,
    );
  });
});
