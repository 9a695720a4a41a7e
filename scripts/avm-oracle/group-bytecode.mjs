// Custom-bytecode group: small hand-made programs, most of them malformed or hostile (invalid
// opcodes, truncation, bad tags, bad PCs, addressing faults, jumps into immediates, gas
// exhaustion), each deployed as its own contract and called once.
import {
  add16,
  alu8,
  assemble,
  calldatacopy,
  call as callOp,
  cast8,
  emitnullifier,
  getenv,
  internalcall,
  internalreturn,
  jump,
  jumpi,
  raw,
  ret,
  returndatasize,
  revert8,
  set,
  size,
  sload,
  sstore,
  successcopy,
  TAG,
} from './asm.mjs';
import { check, newWorld, VectorFile } from './common.mjs';

const P = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** The cases: { id, what, program: items | () => {bytes, listing}, calldata, gas, expectRevert }. */
function cases() {
  // Common prologue: m[1] = 2 (U32, a size), m[2] = 0 (U32, a calldata start), m[3] = 1 (U32).
  const prologue = [set('SET_8', 1, TAG.U32, 2), set('SET_8', 2, TAG.U32, 0), set('SET_8', 3, TAG.U32, 1)];
  const list = [];
  const add = (c) => list.push(c);

  add({
    id: 'add_calldata',
    what: 'baseline: copy two calldata fields, add them, return the sum',
    program: [...prologue, calldatacopy(1, 2, 10), alu8('ADD_8', 10, 11, 12), ret(3, 12)],
    calldata: [5n, 7n],
    revert: false,
  });
  add({
    id: 'add_calldata_past_end',
    what: 'CALLDATACOPY past the end of calldata reads zeros',
    program: [...prologue, calldatacopy(1, 2, 10), alu8('ADD_8', 10, 11, 12), ret(3, 12)],
    calldata: [5n],
    revert: false,
  });
  add({
    id: 'revert_with_data',
    what: 'explicit REVERT_8 with one field: keeps the unused gas',
    program: [set('SET_8', 3, TAG.U32, 1), set('SET_8', 4, TAG.FF, 0x2a), revert8(3, 4)],
    revert: true,
  });
  add({
    id: 'invalid_opcode',
    what: 'SET_8, then byte 0x44 (68, one past the last opcode) where RETURN should be',
    program: [
      set('SET_8', 3, TAG.U32, 0),
      raw([0x44, 0, 0, 3, 0, 3], 'bytes 44 00 00 03 00 03 (a RETURN with opcode 0x44)'),
    ],
    revert: true,
  });
  add({ id: 'invalid_byte_only', what: 'a program of one byte, 0xff', program: [raw([0xff])], revert: true });
  add({
    id: 'invalid_opcode_never_reached',
    what: 'garbage after a RETURN is never decoded',
    program: [set('SET_8', 3, TAG.U32, 0), ret(3, 0), raw([0xff, 0xfe, 0x44])],
    revert: false,
  });
  add({
    id: 'truncated_instruction',
    what: 'SET_8 missing its last byte',
    program: () => trunc([set('SET_8', 0, TAG.U32, 0)], 1),
    revert: true,
  });
  add({
    id: 'truncated_after_valid',
    what: 'a valid SET_8, then a SET_32 cut short by two bytes',
    program: () => trunc([set('SET_8', 0, TAG.U32, 0), set('SET_32', 1, TAG.U32, 0x01020304)], 2),
    revert: true,
  });
  add({
    id: 'invalid_tag',
    what: 'SET_8 with tag byte 7 (tags are 0..6)',
    program: [set('SET_8', 0, 7, 0), ret(0, 0)],
    revert: true,
  });
  add({
    id: 'invalid_tag_and_truncated',
    what: 'SET_128 with tag 0x6f, cut short by five bytes: which error wins',
    program: () => trunc([set('SET_128', 0, 0x6f, 0n)], 5),
    revert: true,
  });
  add({
    id: 'pc_out_of_range_jump',
    what: 'JUMP_32 to 123 in a 11-byte program',
    program: [jump(123), set('SET_8', 3, TAG.U32, 0), ret(3, 0)],
    revert: true,
  });
  add({
    id: 'jump_to_exact_end',
    what: 'JUMP_32 to the byte just past the program',
    program: [jump(5)],
    revert: true,
  });
  add({
    id: 'fall_off_end',
    what: 'no halting instruction: execution runs past the last byte',
    program: [set('SET_8', 3, TAG.U32, 0), set('SET_8', 4, TAG.U32, 0)],
    revert: true,
  });
  add({
    id: 'relative_base_uninitialized',
    what: 'CALLDATACOPY with a relative operand while m[0] (the base) is untagged FF 0',
    program: [calldatacopy(1, 2, 10, 0b10), set('SET_8', 3, TAG.U32, 0), ret(3, 0)],
    revert: true,
  });
  add({
    id: 'indirect_through_u64',
    what: 'indirect operand through m[0] tagged U64 (addresses must be U32)',
    program: [set('SET_64', 0, TAG.U64, 100n), calldatacopy(0, 2, 1, 0b01), ret(3, 0)],
    revert: true,
  });
  add({
    id: 'indirect_then_relative',
    what: 'ADD_16: first operand indirect (fine), second relative with m[0] untagged',
    program: [set('SET_32', 1, TAG.U32, 10), add16(1, 2, 3, 0b1001), ret(0, 0)],
    revert: true,
  });
  add({
    id: 'relative_overflow',
    what: 'm[0] = 2^32 - 1, then ADD_8 with a relative operand: base + 1 leaves the 32-bit address space',
    program: [set('SET_32', 0, TAG.U32, 0xffffffff), alu8('ADD_8', 1, 2, 3, 0b0111), ret(0, 0)],
    revert: true,
  });
  add({
    id: 'relative_ok',
    what: 'relative addressing that works: m[0] = 100, operands 1, 2, 3 mean m[101], m[102], m[103]',
    program: [
      set('SET_8', 0, TAG.U32, 100),
      set('SET_8', 101, TAG.U8, 200),
      set('SET_8', 102, TAG.U8, 100),
      alu8('ADD_8', 1, 2, 3, 0b101010),
      set('SET_8', 4, TAG.U32, 1),
      ret(4, 103),
    ],
    revert: false,
  });
  // Jump into the 32-byte immediate of a SET_FF that holds a small program of its own.
  const embedded = [
    ...set('SET_8', 5, TAG.U32, 1).bytes,
    ...set('SET_8', 6, TAG.U8, 0x2a).bytes,
    ...ret(5, 6).bytes,
  ];
  const immediate = BigInt(
    `0x${Buffer.from([...embedded, ...Array(32 - embedded.length).fill(0)]).toString('hex')}`,
  );
  add({
    id: 'jump_into_immediate',
    what: 'JUMP_32 into the value bytes of a SET_FF; those bytes decode as SET_8, SET_8, RETURN [42]',
    program: [jump(5 + 5), set('SET_FF', 0, TAG.FF, immediate), set('SET_8', 3, TAG.U32, 0), ret(3, 0)],
    revert: false,
  });
  add({
    id: 'jump_into_immediate_invalid',
    what: 'JUMP_32 into the value bytes of a SET_32 holding 0xffffffff',
    program: [jump(5 + 5), set('SET_32', 0, TAG.U32, 0xffffffff), set('SET_8', 3, TAG.U32, 0), ret(3, 0)],
    revert: true,
  });
  add({
    id: 'out_of_gas_l2',
    what: 'three SET_8 (27 L2 gas each) with an L2 limit of 60',
    program: [
      set('SET_8', 1, TAG.U32, 1),
      set('SET_8', 2, TAG.U32, 2),
      set('SET_8', 3, TAG.U32, 3),
      ret(1, 0),
    ],
    gas: { l2Gas: 60 },
    revert: true,
  });
  add({
    id: 'out_of_gas_da',
    what: 'EMITNULLIFIER (32 DA gas) with a DA limit of 10',
    program: [set('SET_8', 1, TAG.FF, 1), emitnullifier(1), set('SET_8', 3, TAG.U32, 0), ret(3, 0)],
    gas: { daGas: 10 },
    revert: true,
  });
  add({
    id: 'infinite_loop',
    what: 'JUMP_32 to itself (9 L2 gas) with an L2 limit of 1000',
    program: [jump(0)],
    gas: { l2Gas: 1000 },
    revert: true,
  });
  add({
    id: 'tag_mismatch_add',
    what: 'ADD_8 of a U8 and a U32',
    program: [set('SET_8', 1, TAG.U8, 1), set('SET_8', 2, TAG.U32, 2), alu8('ADD_8', 1, 2, 3), ret(0, 0)],
    revert: true,
  });
  add({
    id: 'div_by_zero',
    what: 'DIV_8 of U32 7 by U32 0',
    program: [set('SET_8', 1, TAG.U32, 7), set('SET_8', 2, TAG.U32, 0), alu8('DIV_8', 1, 2, 3), ret(0, 0)],
    revert: true,
  });
  add({
    id: 'u8_wraps',
    what: 'ADD_8 of U8 200 and U8 100 wraps to 44',
    program: [
      set('SET_8', 1, TAG.U8, 200),
      set('SET_8', 2, TAG.U8, 100),
      alu8('ADD_8', 1, 2, 4),
      set('SET_8', 3, TAG.U32, 1),
      ret(3, 4),
    ],
    revert: false,
  });
  add({
    id: 'internal_return_empty_stack',
    what: 'INTERNALRETURN with no INTERNALCALL before it',
    program: [internalreturn()],
    revert: true,
  });
  {
    // 0: INTERNALCALL sub; 5: SET_8 m[3]=1; 10: RETURN m[4]; 16: sub: SET_8 m[4] = U8 9; 21: INTERNALRETURN
    const main = [internalcall(16), set('SET_8', 3, TAG.U32, 1), ret(3, 4)];
    check(size(...main) === 16, 'internal_call layout');
    add({
      id: 'internal_call_and_return',
      what: 'INTERNALCALL to a subroutine that sets m[4] = 9, INTERNALRETURN, then RETURN [9]',
      program: [...main, set('SET_8', 4, TAG.U8, 9), internalreturn()],
      revert: false,
    });
  }
  add({
    id: 'jumpi_condition_not_u1',
    what: 'JUMPI on a U8 condition',
    program: [set('SET_8', 1, TAG.U8, 1), jumpi(1, 0), ret(0, 0)],
    revert: true,
  });
  {
    // 0: SET_8 m[1] = U1 1; 5: JUMPI m[1] -> 23; 13: SET_8 m[3] = 0; 18: REVERT_8 ... ; 23: ...
    const head = [set('SET_8', 1, TAG.U1, 1), jumpi(1, 22), set('SET_8', 3, TAG.U32, 0), revert8(3, 0)];
    check(size(...head) === 22, `jumpi layout ${size(...head)}`);
    add({
      id: 'jumpi_taken',
      what: 'JUMPI on U1 1 skips a REVERT and returns [U1 1]',
      program: [...head, set('SET_8', 3, TAG.U32, 1), ret(3, 1)],
      revert: false,
    });
  }
  add({
    id: 'unused_operand_indirect_bit',
    what: 'ADD_8 with the indirect bit of operand slot 3 set (ADD uses slots 0-2): charged, not resolved',
    program: [
      set('SET_8', 1, TAG.U8, 1),
      set('SET_8', 2, TAG.U8, 2),
      alu8('ADD_8', 1, 2, 4, 0b01000000),
      set('SET_8', 3, TAG.U32, 1),
      ret(3, 4),
    ],
    revert: false,
  });
  add({
    id: 'unused_operand_relative_bit',
    what: 'ADD_8 with the relative bit of operand slot 3 set and m[0] untagged',
    program: [
      set('SET_8', 1, TAG.U8, 1),
      set('SET_8', 2, TAG.U8, 2),
      alu8('ADD_8', 1, 2, 4, 0b10000000),
      set('SET_8', 3, TAG.U32, 1),
      ret(3, 4),
    ],
    revert: false,
  });
  add({
    id: 'set_ff_reduces_mod_p',
    what: 'SET_FF with the value p + 1 returns 1',
    program: [set('SET_FF', 4, TAG.FF, P + 1n), set('SET_8', 3, TAG.U32, 1), ret(3, 4)],
    revert: false,
  });
  add({
    id: 'cast_truncates',
    what: 'CAST_8 of FF 0x1234 to U8 gives 0x34',
    program: [set('SET_16', 1, TAG.FF, 0x1234), cast8(1, 4, TAG.U8), set('SET_8', 3, TAG.U32, 1), ret(3, 4)],
    revert: false,
  });
  add({
    id: 'getenvvar_invalid',
    what: 'GETENVVAR_16 with variable 12 (0..11 exist)',
    program: [getenv(4, 12), set('SET_8', 3, TAG.U32, 1), ret(3, 4)],
    revert: true,
  });
  add({
    id: 'getenvvar_all',
    what: 'GETENVVAR_16 0..11 into m[10..21], RETURN all twelve',
    program: [
      ...Array.from({ length: 12 }, (_, i) => getenv(10 + i, i)),
      set('SET_8', 3, TAG.U32, 12),
      ret(3, 10),
    ],
    revert: false,
  });
  add({
    id: 'return_past_memory_end',
    what: 'RETURN 4 fields from address 2^32 - 2 (through an indirect operand)',
    program: [set('SET_32', 1, TAG.U32, 0xfffffffe), set('SET_8', 3, TAG.U32, 4), ret(3, 1, 0b0100)],
    revert: false,
  });
  add({
    id: 'calldatacopy_past_memory_end',
    what: 'CALLDATACOPY 2 fields to address 2^32 - 1 (through an indirect operand)',
    program: [...prologue, set('SET_32', 4, TAG.U32, 0xffffffff), calldatacopy(1, 2, 4, 0b010000), ret(3, 0)],
    calldata: [5n, 7n],
    revert: true,
  });
  add({
    id: 'sstore_sload',
    what: 'SSTORE 0x99 at slot 5 of the own contract, SLOAD it back, RETURN it',
    program: [
      set('SET_8', 1, TAG.FF, 0x99),
      set('SET_8', 2, TAG.FF, 5),
      sstore(1, 2),
      getenv(5, 0),
      sload(2, 5, 6),
      set('SET_8', 3, TAG.U32, 1),
      ret(3, 6),
    ],
    revert: false,
  });
  add({
    id: 'emit_nullifier_twice',
    what: 'EMITNULLIFIER of the same value twice in one call',
    program: [
      set('SET_8', 1, TAG.FF, 7),
      emitnullifier(1),
      emitnullifier(1),
      set('SET_8', 3, TAG.U32, 0),
      ret(3, 0),
    ],
    revert: true,
  });
  add({
    id: 'call_missing_contract',
    what: 'CALL 0xdead (no contract) with 1000 L2 / 5 DA gas, then RETURN [SUCCESSCOPY, RETURNDATASIZE]',
    program: [
      set('SET_16', 10, TAG.U32, 1000),
      set('SET_8', 11, TAG.U32, 5),
      set('SET_16', 12, TAG.FF, 0xdead),
      set('SET_8', 13, TAG.U32, 0),
      callOp(10, 11, 12, 13, 14),
      successcopy(20),
      returndatasize(21),
      set('SET_8', 3, TAG.U32, 2),
      ret(3, 20),
    ],
    revert: false,
  });
  add({
    id: 'call_wrong_tag_gas',
    what: 'CALL whose L2 gas operand is tagged FF instead of U32',
    program: [
      set('SET_16', 10, TAG.FF, 1000),
      set('SET_8', 11, TAG.U32, 5),
      set('SET_16', 12, TAG.FF, 0xdead),
      set('SET_8', 13, TAG.U32, 0),
      callOp(10, 11, 12, 13, 14),
      ret(13, 0),
    ],
    revert: true,
  });
  return list;
}

/** Assembles items and drops the last `n` bytes. */
function trunc(items, n) {
  const a = assemble(items);
  return {
    bytes: a.bytes.slice(0, a.bytes.length - n),
    listing: [...a.listing, `(last ${n} byte(s) cut off)`],
  };
}

export async function bytecodeGroup(ctx) {
  const { R } = ctx;
  const world = newWorld(R);
  const f = new VectorFile(ctx, world);
  const user = R.AztecAddress.fromBigInt(0x5e4de4n);
  const deployer = R.AztecAddress.fromBigInt(42n);
  let salt = 1;
  for (const c of cases()) {
    const prog = typeof c.program === 'function' ? c.program() : assemble(c.program);
    const contract = await world.deployBytecode(c.id, prog.bytes, { salt: new R.Fr(salt++), deployer });
    contract.record.asm = prog.listing;
    const s = await f.rawCall(
      `${c.id}: ${c.what}`,
      c.id,
      (c.calldata ?? []).map((v) => new R.Fr(v)),
      { sender: user, ...(c.gas ?? {}) },
    );
    check(
      s.expect.reverted === c.revert,
      `${c.id}: reverted = ${s.expect.reverted} (${s.expect.revertReason})`,
    );
  }
  return f.doc({
    group: 'custom-bytecode',
    description:
      'Hand-made programs, one contract each (class id from artifact hash 0, no private functions and the bytecode; address from salt, deployer 42, init hash 0, default keys). Each contract lists its program in asm. Calls run with the default gas limits unless the call says otherwise.',
    parties: { user: user.toString() },
  });
}
