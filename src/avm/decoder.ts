// Decoding AVM bytecode into instructions, lazily: an instruction is decoded the first time
// execution reaches its pc and cached there. Decoding never looks ahead, so bytecode may hold data
// or malformed bytes anywhere execution does not go; a jump into the middle of an instruction
// simply decodes from there. A bad opcode, a truncated instruction or an invalid tag decodes into
// an instruction that halts when executed, never into an error at load time.
//
// Programs are cached by contract class id (which commits to the bytecode), so repeated calls to a
// contract reuse the instructions decoded by earlier calls.
import { FR_MODULUS, type Fr } from '../core/field.js';
import { addressingL2Gas } from './gas.js';
import { MAX_TAG, truncateToTag } from './memory.js';
import { Kind, MAX_OPCODE, OPCODE_SPECS, Op } from './opcodes.js';

/** One decoded instruction. Operands keep their wire order, the mode field excluded. */
export interface Instruction {
  /** The opcode byte (meaningless when `error` is set). */
  readonly opcode: number;
  /** Encoded size in bytes: the next instruction starts at pc + size. */
  readonly size: number;
  /** The addressing-mode field (0 when the opcode has none). */
  readonly mode: number;
  /** Base L2 gas plus the addressing surcharge of `mode`. */
  readonly l2Gas: number;
  readonly daGas: number;
  /** The small operands (offsets, immediates up to 32 bits, tags) in wire order; unused ones are 0. */
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly e: number;
  readonly f: number;
  readonly g: number;
  /** The SET value, already truncated to the SET's tag (and reduced mod p); 0n for other opcodes. */
  readonly value: bigint;
  /** Why this instruction cannot execute (invalid opcode, truncated, invalid tag); it halts when reached. */
  readonly error: string | undefined;
}

function failed(error: string): Instruction {
  return {
    opcode: -1,
    size: 0,
    mode: 0,
    l2Gas: 0,
    daGas: 0,
    a: 0,
    b: 0,
    c: 0,
    d: 0,
    e: 0,
    f: 0,
    g: 0,
    value: 0n,
    error,
  };
}

function readBig(bytes: Uint8Array, at: number, width: number): bigint {
  let v = 0n;
  for (let i = 0; i < width; i++) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

/** Decodes the instruction starting at `pc` (which must lie inside `bytes`). */
export function decodeInstruction(bytes: Uint8Array, pc: number): Instruction {
  const opcode = bytes[pc]!;
  if (opcode > MAX_OPCODE) return failed(`invalid opcode ${opcode} at pc ${pc}`);
  const spec = OPCODE_SPECS[opcode]!;
  let at = pc + 1;
  let mode = 0;
  if (spec.modeBytes > 0) {
    if (at + spec.modeBytes > bytes.length) return failed(`truncated ${spec.name} at pc ${pc}`);
    mode = spec.modeBytes === 1 ? bytes[at]! : (bytes[at]! << 8) | bytes[at + 1]!;
    at += spec.modeBytes;
  }
  const small = [0, 0, 0, 0, 0, 0, 0];
  let value = 0n;
  let badTag = -1;
  for (let i = 0; i < spec.operands.length; i++) {
    const kind = spec.operands[i]!;
    const width = kind === Kind.TAG ? 1 : kind;
    if (at + width > bytes.length) return failed(`truncated ${spec.name} at pc ${pc}`);
    switch (kind) {
      case Kind.U8:
      case Kind.TAG:
        small[i] = bytes[at]!;
        if (kind === Kind.TAG && small[i]! > MAX_TAG && badTag < 0) badTag = small[i]!;
        break;
      case Kind.U16:
        small[i] = (bytes[at]! << 8) | bytes[at + 1]!;
        break;
      case Kind.U32:
        small[i] =
          ((bytes[at]! << 24) >>> 0) + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!);
        break;
      case Kind.U64:
      case Kind.U128:
        value = readBig(bytes, at, width);
        break;
      case Kind.FF:
        value = readBig(bytes, at, width) % FR_MODULUS;
        break;
    }
    at += width;
  }
  // Tags are validated only once the whole instruction has been read: truncation wins.
  if (badTag >= 0) return failed(`invalid tag ${badTag} in ${spec.name} at pc ${pc}`);
  // The SET variants carry their value last; it is stored already truncated to the SET's tag.
  if (opcode >= Op.SET_8 && opcode <= Op.SET_FF) {
    if (spec.operands[2]! <= Kind.U32) value = BigInt(small[2]!);
    value = truncateToTag(value, small[1]!);
  }
  return {
    opcode,
    size: at - pc,
    mode,
    l2Gas: spec.baseL2Gas + addressingL2Gas(mode),
    daGas: spec.baseDaGas,
    a: small[0]!,
    b: small[1]!,
    c: small[2]!,
    d: small[3]!,
    e: small[4]!,
    f: small[5]!,
    g: small[6]!,
    value,
    error: undefined,
  };
}

/** A bytecode with the instructions decoded so far, by pc. */
export class Program {
  private readonly decoded: (Instruction | undefined)[];

  constructor(readonly bytecode: Uint8Array) {
    this.decoded = new Array(bytecode.length);
  }

  /** The instruction at `pc`, decoded on first use (pc must be < bytecode.length). */
  at(pc: number): Instruction {
    let instruction = this.decoded[pc];
    if (instruction === undefined) {
      instruction = decodeInstruction(this.bytecode, pc);
      this.decoded[pc] = instruction;
    }
    return instruction;
  }
}

/** How many class ids' programs stay cached (the oldest is dropped beyond this). */
const PROGRAM_CACHE_SIZE = 256;
const programsByClassId = new Map<Fr, Program>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && Buffer.compare(a, b) === 0);
}

/**
 * The program of a contract class, decoded lazily and shared by every call to the class. The
 * bytecode is compared with the cached one, so a class id reused for other bytecode (in tests)
 * cannot pick up stale instructions.
 */
export function programForClass(classId: Fr, bytecode: Uint8Array): Program {
  const cached = programsByClassId.get(classId);
  if (cached !== undefined && sameBytes(cached.bytecode, bytecode)) return cached;
  const program = new Program(bytecode);
  programsByClassId.delete(classId);
  programsByClassId.set(classId, program);
  if (programsByClassId.size > PROGRAM_CACHE_SIZE) {
    programsByClassId.delete(programsByClassId.keys().next().value!);
  }
  return program;
}

/** Decodes the whole bytecode linearly from pc 0 (for tools and tests; execution decodes lazily). */
export function disassemble(bytecode: Uint8Array): { pc: number; instruction: Instruction }[] {
  const out: { pc: number; instruction: Instruction }[] = [];
  for (let pc = 0; pc < bytecode.length; ) {
    const instruction = decodeInstruction(bytecode, pc);
    out.push({ pc, instruction });
    if (instruction.error !== undefined) break;
    pc += instruction.size;
  }
  return out;
}
