// The AVM instruction set as it appears on the wire (protocol 4.1.2): the 68 opcode bytes, the
// operand layout that follows each of them, and their base L2 and DA gas. The decoder reads
// instructions with these layouts and the interpreter charges these costs; adding an opcode means
// adding a row here, a case in the interpreter's switch and a test (docs/avm.md, "Adding an opcode").

/** Opcode bytes, numbered exactly as on the wire. */
export const Op = {
  ADD_8: 0,
  ADD_16: 1,
  SUB_8: 2,
  SUB_16: 3,
  MUL_8: 4,
  MUL_16: 5,
  DIV_8: 6,
  DIV_16: 7,
  FDIV_8: 8,
  FDIV_16: 9,
  EQ_8: 10,
  EQ_16: 11,
  LT_8: 12,
  LT_16: 13,
  LTE_8: 14,
  LTE_16: 15,
  AND_8: 16,
  AND_16: 17,
  OR_8: 18,
  OR_16: 19,
  XOR_8: 20,
  XOR_16: 21,
  NOT_8: 22,
  NOT_16: 23,
  SHL_8: 24,
  SHL_16: 25,
  SHR_8: 26,
  SHR_16: 27,
  CAST_8: 28,
  CAST_16: 29,
  GETENVVAR_16: 30,
  CALLDATACOPY: 31,
  SUCCESSCOPY: 32,
  RETURNDATASIZE: 33,
  RETURNDATACOPY: 34,
  JUMP_32: 35,
  JUMPI_32: 36,
  INTERNALCALL: 37,
  INTERNALRETURN: 38,
  SET_8: 39,
  SET_16: 40,
  SET_32: 41,
  SET_64: 42,
  SET_128: 43,
  SET_FF: 44,
  MOV_8: 45,
  MOV_16: 46,
  SLOAD: 47,
  SSTORE: 48,
  NOTEHASHEXISTS: 49,
  EMITNOTEHASH: 50,
  NULLIFIEREXISTS: 51,
  EMITNULLIFIER: 52,
  L1TOL2MSGEXISTS: 53,
  GETCONTRACTINSTANCE: 54,
  EMITPUBLICLOG: 55,
  SENDL2TOL1MSG: 56,
  CALL: 57,
  STATICCALL: 58,
  RETURN: 59,
  REVERT_8: 60,
  REVERT_16: 61,
  DEBUGLOG: 62,
  POSEIDON2: 63,
  SHA256COMPRESSION: 64,
  KECCAKF1600: 65,
  ECADD: 66,
  TORADIXBE: 67,
} as const;

export type OpName = keyof typeof Op;

/** The highest opcode byte; any byte above it is an invalid opcode. */
export const MAX_OPCODE = 67;

/** Operand kinds on the wire, each big-endian with no padding. */
export const Kind = {
  U8: 1,
  U16: 2,
  U32: 4,
  U64: 8,
  U128: 16,
  /** 32 bytes, reduced mod p when read. */
  FF: 32,
  /** One byte holding a memory tag, validated after the whole instruction has been read. */
  TAG: 0x101,
} as const;

type OperandKind = (typeof Kind)[keyof typeof Kind];

/** Byte width of an operand kind. */
export const kindWidth = (kind: OperandKind): number => (kind === Kind.TAG ? 1 : kind);

export interface OpcodeSpec {
  name: OpName;
  /** Width of the addressing-mode field: 0 (none), 1 (u8) or 2 (u16). */
  modeBytes: 0 | 1 | 2;
  /** The operands after the mode field, in wire order. */
  operands: readonly OperandKind[];
  baseL2Gas: number;
  baseDaGas: number;
}

const { U8, U16, U32, U64, U128, FF, TAG } = Kind;

function spec(
  name: OpName,
  modeBytes: 0 | 1 | 2,
  operands: readonly OperandKind[],
  baseL2Gas: number,
  baseDaGas = 0,
): OpcodeSpec {
  return { name, modeBytes, operands, baseL2Gas, baseDaGas };
}

/** Three memory operands (a, b, dst) with 8- or 16-bit offsets. */
const three8 = [U8, U8, U8] as const;
const three16 = [U16, U16, U16] as const;

/** Every opcode's wire layout and base gas, indexed by opcode byte. */
export const OPCODE_SPECS: readonly OpcodeSpec[] = [
  spec('ADD_8', 1, three8, 12),
  spec('ADD_16', 1, three16, 12),
  spec('SUB_8', 1, three8, 12),
  spec('SUB_16', 1, three16, 12),
  spec('MUL_8', 1, three8, 27),
  spec('MUL_16', 1, three16, 27),
  spec('DIV_8', 1, three8, 27),
  spec('DIV_16', 1, three16, 27),
  spec('FDIV_8', 1, three8, 225),
  spec('FDIV_16', 1, three16, 225),
  spec('EQ_8', 1, three8, 12),
  spec('EQ_16', 1, three16, 12),
  spec('LT_8', 1, three8, 42),
  spec('LT_16', 1, three16, 42),
  spec('LTE_8', 1, three8, 42),
  spec('LTE_16', 1, three16, 42),
  spec('AND_8', 1, three8, 12),
  spec('AND_16', 1, three16, 12),
  spec('OR_8', 1, three8, 12),
  spec('OR_16', 1, three16, 12),
  spec('XOR_8', 1, three8, 12),
  spec('XOR_16', 1, three16, 12),
  spec('NOT_8', 1, [U8, U8], 12),
  spec('NOT_16', 1, [U16, U16], 12),
  spec('SHL_8', 1, three8, 18),
  spec('SHL_16', 1, three16, 18),
  spec('SHR_8', 1, three8, 18),
  spec('SHR_16', 1, three16, 18),
  spec('CAST_8', 1, [U8, U8, TAG], 27),
  spec('CAST_16', 1, [U16, U16, TAG], 27),
  spec('GETENVVAR_16', 1, [U16, U8], 12),
  spec('CALLDATACOPY', 1, [U16, U16, U16], 18),
  spec('SUCCESSCOPY', 1, [U16], 12),
  spec('RETURNDATASIZE', 1, [U16], 12),
  spec('RETURNDATACOPY', 1, [U16, U16, U16], 18),
  spec('JUMP_32', 0, [U32], 9),
  spec('JUMPI_32', 1, [U16, U32], 9),
  spec('INTERNALCALL', 0, [U32], 9),
  spec('INTERNALRETURN', 0, [], 9),
  spec('SET_8', 1, [U8, TAG, U8], 27),
  spec('SET_16', 1, [U16, TAG, U16], 27),
  spec('SET_32', 1, [U16, TAG, U32], 27),
  spec('SET_64', 1, [U16, TAG, U64], 27),
  spec('SET_128', 1, [U16, TAG, U128], 27),
  spec('SET_FF', 1, [U16, TAG, FF], 27),
  spec('MOV_8', 1, [U8, U8], 12),
  spec('MOV_16', 1, [U16, U16], 12),
  spec('SLOAD', 1, [U16, U16, U16], 1290),
  spec('SSTORE', 1, [U16, U16], 33140),
  spec('NOTEHASHEXISTS', 1, [U16, U16, U16], 504),
  spec('EMITNOTEHASH', 1, [U16], 19275, 32),
  spec('NULLIFIEREXISTS', 1, [U16, U16], 903),
  spec('EMITNULLIFIER', 1, [U16], 30800, 32),
  spec('L1TOL2MSGEXISTS', 1, [U16, U16, U16], 540),
  spec('GETCONTRACTINSTANCE', 1, [U16, U16, U8], 6108),
  spec('EMITPUBLICLOG', 1, [U16, U16], 15, 64),
  spec('SENDL2TOL1MSG', 1, [U16, U16], 5239, 32),
  spec('CALL', 2, [U16, U16, U16, U16, U16], 9936),
  spec('STATICCALL', 2, [U16, U16, U16, U16, U16], 9936),
  spec('RETURN', 1, [U16, U16], 9),
  spec('REVERT_8', 1, [U8, U8], 9),
  spec('REVERT_16', 1, [U16, U16], 9),
  spec('DEBUGLOG', 1, [U16, U16, U16, U16, U16], 9),
  spec('POSEIDON2', 1, [U16, U16], 360),
  spec('SHA256COMPRESSION', 1, [U16, U16, U16], 12288),
  spec('KECCAKF1600', 1, [U16, U16], 58176),
  spec('ECADD', 2, [U16, U16, U16, U16, U16, U16, U16], 270),
  spec('TORADIXBE', 2, [U16, U16, U16, U16, U16], 24),
];

/** Encoded size in bytes of an instruction with this opcode (opcode byte included). */
export function instructionSize(opcode: number): number {
  const s = OPCODE_SPECS[opcode]!;
  return 1 + s.modeBytes + s.operands.reduce((n, k) => n + kindWidth(k), 0);
}
