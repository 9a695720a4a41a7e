// The AVM interpreter: runs public bytecode of protocol 4.1.2 against an AvmHost, synchronously.
// `executePublicCall` runs an enqueued call with the bytecode of the called address's class, fetched
// through the host; `executeBytecode` runs bytecode it is given (tools and tests). Both check the
// request first (calldata in the field, gas limits u32, L2 gas at most AVM_MAX_PROCESSABLE_L2_GAS)
// and run the call inside a host checkpoint, committed if it succeeds and reverted otherwise.
//
// One call frame is one run of the generator `interpret`: a loop that fetches the instruction at pc
// (decoded lazily and cached per contract class, see decoder.ts), charges its base and addressing
// gas (and the dynamic gas of the opcodes that have some), and executes it in a switch over the
// opcode byte. CALL/STATICCALL give the callee the gas asked for, capped by what is left, open a
// host checkpoint and yield; `runFrames` keeps the frames on a stack of its own and resumes the
// caller with the callee's outcome, so call depth is bounded by gas, never by the JavaScript stack.
// The checkpoint is committed if the callee succeeded and reverted otherwise, and the callee's
// unused gas comes back. RETURN ends a frame with its return data. An exceptional halt (any
// AvmExceptionalHalt thrown while executing, errors.ts) ends it as reverted, with no output and no
// gas left; REVERT ends it as reverted with its revert data and keeps the unused gas, and when that
// data is a failed nested call's it keeps that call's revert reason. A top-level result carries at
// most MAX_OUTPUT_FIELDS of the output.
//
// docs/avm.md describes the semantics and the gas rules in full.
import { FR_MODULUS, type Fr, invertFr } from '../core/field.js';
import { poseidon2Permutation } from '../core/hash/poseidon2.js';
import { Program, programForClass } from './decoder.js';
import { AvmExceptionalHalt } from './errors.js';
import { ecAdd, keccakF1600, sha256Compression, toRadixBE } from './gadgets.js';
import {
  BITWISE_DYN_L2_GAS,
  BITWISE_GAS_BYTES,
  COPY_DYN_L2_GAS,
  PUBLIC_LOG_DYN_DA_GAS,
  PUBLIC_LOG_DYN_L2_GAS,
  SSTORE_DYN_DA_GAS,
  TORADIX_DYN_L2_GAS,
  toRadixGasLimbs,
} from './gas.js';
import type { AvmHost } from './host.js';
import { AVM_MAX_PROCESSABLE_L2_GAS } from './journal.js';
import {
  checkRange,
  MEMORY_SIZE,
  TAG_BITS,
  TAG_MASKS,
  TAG_NAMES,
  Tag,
  TaggedMemory,
  tagError,
} from './memory.js';
import { OPCODE_SPECS, Op } from './opcodes.js';

const P = FR_MODULUS;
const { FF, U1, U8, U32, U64, U128 } = Tag;

/** The largest L1 (Ethereum) address, the bound on an L2-to-L1 message's recipient. */
const MAX_ETH_ADDRESS = (1n << 160n) - 1n;

/** Fields of a call's output that are materialised for the caller at most (as the reference reads it). */
export const MAX_OUTPUT_FIELDS = 10_000;

/** Block-level values GETENVVAR exposes. */
export interface AvmGlobals {
  chainId: Fr;
  version: Fr;
  blockNumber: number;
  timestamp: bigint;
  feePerDaGas: bigint;
  feePerL2Gas: bigint;
}

export interface AvmGas {
  l2: number;
  da: number;
}

/** An enqueued public call. */
export interface AvmCallRequest {
  address: Fr;
  sender: Fr;
  calldata: readonly Fr[];
  isStaticCall: boolean;
  /** Gas given to the call; each dimension must be below 2^32. */
  gasLimit: AvmGas;
  transactionFee: Fr;
  globals: AvmGlobals;
}

export interface AvmCallResult {
  /** True after REVERT or an exceptional halt. */
  reverted: boolean;
  /** Why the call halted exceptionally (undefined for RETURN and REVERT). */
  exceptionalHalt: string | undefined;
  /** Return data after RETURN, revert data after REVERT, empty after an exceptional halt. */
  output: Fr[];
  /** Unused gas: all of it is consumed by an exceptional halt. */
  gasLeft: AvmGas;
  /** Instructions executed, nested calls included (an instruction that halts exceptionally is not counted). */
  instructionsExecuted: number;
  /** A short reason for a reverted call (the halt message, or the nested call's reason it re-raises). */
  revertReason: string | undefined;
}

/** A read-only sequence of field values: calldata, or a frame's return/revert data. */
interface FieldSource {
  readonly length: number;
  /** Values [start, min(end, length)); halts if they lie outside memory. */
  slice(start: number, end: number): bigint[];
}

class ArraySource implements FieldSource {
  constructor(private readonly fields: readonly bigint[]) {}
  get length(): number {
    return this.fields.length;
  }
  slice(start: number, end: number): bigint[] {
    return this.fields.slice(start, end);
  }
}

/** A window on a frame's memory, read when used (the frame no longer runs by then). */
class MemorySource implements FieldSource {
  constructor(
    private readonly memory: TaggedMemory,
    private readonly offset: number,
    readonly length: number,
  ) {}
  slice(start: number, end: number): bigint[] {
    const count = Math.max(0, Math.min(end, this.length) - start);
    return this.memory.readValues(this.offset + start, count);
  }
  /** Up to `cap` leading values, clipped at the end of memory, never halting. */
  bestEffort(cap: number): bigint[] {
    return this.memory.readValues(this.offset, Math.min(this.length, cap, MEMORY_SIZE - this.offset));
  }
}

const NO_DATA = new ArraySource([]);

interface FrameEnv {
  address: Fr;
  sender: Fr;
  isStatic: boolean;
  calldata: FieldSource;
  transactionFee: Fr;
  globals: AvmGlobals;
}

interface FrameOutcome {
  reverted: boolean;
  halt: string | undefined;
  output: FieldSource;
  l2Left: number;
  daLeft: number;
  instructions: number;
  revertReason: string | undefined;
}

/**
 * Runs an enqueued public call: fetches the bytecode of `request.address` through the host (which
 * counts its class towards the unique-class limit) and executes it inside a host checkpoint, which
 * is reverted if the call reverts. A contract without bytecode reverts, consuming all the gas.
 */
export function executePublicCall(host: AvmHost, request: AvmCallRequest): AvmCallResult {
  return runTopLevel(host, request, undefined);
}

/**
 * Runs `bytecode` as if it were the code at `request.address`, without asking the host for it
 * (tools and tests); nested calls still fetch their bytecode through the host.
 */
export function executeBytecode(host: AvmHost, request: AvmCallRequest, bytecode: Uint8Array): AvmCallResult {
  return runTopLevel(host, request, bytecode);
}

function runTopLevel(
  host: AvmHost,
  request: AvmCallRequest,
  bytecode: Uint8Array | undefined,
): AvmCallResult {
  for (const field of request.calldata) {
    if (field < 0n || field >= P) throw new RangeError(`calldata value ${field} is not a field element`);
  }
  for (const gas of [request.gasLimit.l2, request.gasLimit.da]) {
    if (!Number.isSafeInteger(gas) || gas < 0 || gas >= 2 ** 32)
      throw new RangeError(`gas limit ${gas} is not a u32`);
  }
  // The most a tx's public execution is given, as in the reference. It also bounds what a program
  // can make this process hold: call depth (~600 frames), internal-call depth and memory.
  if (request.gasLimit.l2 > AVM_MAX_PROCESSABLE_L2_GAS) {
    throw new RangeError(
      `L2 gas limit ${request.gasLimit.l2} is above the ${AVM_MAX_PROCESSABLE_L2_GAS} a transaction's public execution may use`,
    );
  }
  const env: FrameEnv = {
    address: request.address,
    sender: request.sender,
    isStatic: request.isStaticCall,
    calldata: new ArraySource(request.calldata),
    transactionFee: request.transactionFee,
    globals: request.globals,
  };
  host.checkpoint();
  const outcome = runFrames(
    host,
    bytecode === undefined
      ? startFrame(host, env, request.gasLimit.l2, request.gasLimit.da)
      : bytecode.length === 0
        ? noBytecode(env, 'empty bytecode')
        : interpret(host, env, programForBytecode(bytecode), request.gasLimit.l2, request.gasLimit.da),
  );
  if (outcome.reverted) host.revert();
  else host.commit();
  const output = outcome.output;
  return {
    reverted: outcome.reverted,
    exceptionalHalt: outcome.halt,
    output:
      output instanceof MemorySource
        ? output.bestEffort(MAX_OUTPUT_FIELDS)
        : output.slice(0, MAX_OUTPUT_FIELDS),
    gasLeft: { l2: outcome.l2Left, da: outcome.daLeft },
    instructionsExecuted: outcome.instructions,
    revertReason: outcome.revertReason,
  };
}

const programsByBytecode = new WeakMap<Uint8Array, Program>();

function programForBytecode(bytecode: Uint8Array): Program {
  let program = programsByBytecode.get(bytecode);
  if (program === undefined) {
    program = new Program(bytecode);
    programsByBytecode.set(bytecode, program);
  }
  return program;
}

/**
 * A running call frame. It yields when it makes a nested call and is resumed with the callee's
 * outcome, so that nesting is a stack of frames in `runFrames`, not JavaScript recursion: call depth
 * is bounded by gas alone (as in the reference), never by the JavaScript stack.
 */
type Frame = Generator<NestedCall, FrameOutcome, FrameOutcome>;

interface NestedCall {
  env: FrameEnv;
  l2Gas: number;
  daGas: number;
}

/** One call frame: the callee's bytecode from the host, then the interpreter (or an outcome at once). */
function startFrame(host: AvmHost, env: FrameEnv, l2Gas: number, daGas: number): Frame | FrameOutcome {
  const lookup = host.getBytecode(env.address);
  if (!lookup.ok || lookup.bytecode.length === 0) {
    return noBytecode(env, lookup.ok ? 'empty bytecode' : lookup.reason);
  }
  return interpret(host, env, programForClass(lookup.classId, lookup.bytecode), l2Gas, daGas);
}

/** Runs a frame and every frame it calls, depth first, to the frame's outcome. */
function runFrames(host: AvmHost, first: Frame | FrameOutcome): FrameOutcome {
  if (!isFrame(first)) return first;
  const stack: Frame[] = [first];
  let resumeWith: FrameOutcome | undefined;
  for (;;) {
    const frame = stack[stack.length - 1]!;
    // A new frame starts with next(undefined); a caller resumes with its callee's outcome.
    const step = resumeWith === undefined ? frame.next() : frame.next(resumeWith);
    if (step.done) {
      stack.pop();
      if (stack.length === 0) return step.value;
      resumeWith = step.value;
      continue;
    }
    const { env, l2Gas, daGas } = step.value;
    const callee = startFrame(host, env, l2Gas, daGas);
    if (isFrame(callee)) {
      stack.push(callee);
      resumeWith = undefined;
    } else resumeWith = callee;
  }
}

const isFrame = (x: Frame | FrameOutcome): x is Frame => typeof (x as Frame).next === 'function';

/** A frame with nothing to run: it halts at once, with all its gas gone. */
function noBytecode(env: FrameEnv, why: string): FrameOutcome {
  const reason = `no bytecode to run at 0x${env.address.toString(16)} (${why})`;
  return {
    reverted: true,
    halt: reason,
    output: NO_DATA,
    l2Left: 0,
    daLeft: 0,
    instructions: 0,
    revertReason: reason,
  };
}

/** The memory address an operand designates under the addressing mode (slot i of the mode field). */
function resolve(memory: TaggedMemory, mode: number, slot: number, offset: number): number {
  const bits = (mode >>> (2 * slot)) & 3;
  if (bits === 0) return offset;
  let address = offset;
  if (bits & 2) {
    // Relative: offset from the base address in mem[0], which must be a U32.
    address += Number(memory.read(0, U32));
    if (address >= MEMORY_SIZE) {
      throw new AvmExceptionalHalt(`relative address ${offset} + base runs past the end of memory`);
    }
  }
  // Indirect: the address is the U32 stored at the (possibly relative) address.
  if (bits & 1) address = Number(memory.read(address, U32));
  return address;
}

function sameTags(memory: TaggedMemory, a: number, b: number): number {
  const tag = memory.tag(a);
  const other = memory.tag(b);
  if (tag !== other) throw tagError(b, other, tag);
  return tag;
}

function integerTag(memory: TaggedMemory, address: number): number {
  const tag = memory.tag(address);
  if (tag === FF)
    throw new AvmExceptionalHalt(`tag check failed at address ${address}: FF where an integer is required`);
  return tag;
}

function outOfGas(l2: number, da: number): AvmExceptionalHalt {
  const dims = [l2 < 0 ? 'L2' : undefined, da < 0 ? 'DA' : undefined].filter((d) => d !== undefined);
  return new AvmExceptionalHalt(`out of ${dims.join(' and ')} gas`);
}

function sameData(a: readonly bigint[], b: readonly bigint[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Executes `program` as one call frame with the given gas. */
function* interpret(host: AvmHost, env: FrameEnv, program: Program, l2Gas: number, daGas: number): Frame {
  const memory = new TaggedMemory();
  const length = program.bytecode.length;
  const internalCalls: number[] = [];
  let pc = 0;
  let l2 = l2Gas;
  let da = daGas;
  let instructions = 0;
  let nestedData: FieldSource = NO_DATA;
  let nestedSuccess = false;
  /** The last failed nested call's revert data and reason: a REVERT re-raising that data keeps the reason. */
  let nestedFailure: { data: bigint[]; reason: string | undefined } | undefined;

  try {
    for (;;) {
      const ins = program.at(pc);
      if (ins.error !== undefined) throw new AvmExceptionalHalt(ins.error);
      l2 -= ins.l2Gas;
      da -= ins.daGas;
      if (l2 < 0 || da < 0) throw outOfGas(l2, da);
      const mode = ins.mode;
      const opcode = ins.opcode;
      let next = pc + ins.size;

      switch (opcode) {
        case Op.ADD_8:
        case Op.ADD_16:
        case Op.SUB_8:
        case Op.SUB_16:
        case Op.MUL_8:
        case Op.MUL_16:
        case Op.EQ_8:
        case Op.EQ_16:
        case Op.LT_8:
        case Op.LT_16:
        case Op.LTE_8:
        case Op.LTE_16: {
          const aAddr = resolve(memory, mode, 0, ins.a);
          const bAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          const tag = sameTags(memory, aAddr, bAddr);
          const a = memory.value(aAddr);
          const b = memory.value(bAddr);
          switch (opcode) {
            case Op.ADD_8:
            case Op.ADD_16: {
              if (tag === FF) {
                const sum = a + b;
                memory.set(dst, FF, sum >= P ? sum - P : sum);
              } else memory.set(dst, tag, (a + b) & TAG_MASKS[tag]!);
              break;
            }
            case Op.SUB_8:
            case Op.SUB_16:
              if (tag === FF) memory.set(dst, FF, a >= b ? a - b : a - b + P);
              else memory.set(dst, tag, (a - b) & TAG_MASKS[tag]!);
              break;
            case Op.MUL_8:
            case Op.MUL_16:
              memory.set(dst, tag, tag === FF ? (a * b) % P : (a * b) & TAG_MASKS[tag]!);
              break;
            case Op.EQ_8:
            case Op.EQ_16:
              memory.set(dst, U1, a === b ? 1n : 0n);
              break;
            case Op.LT_8:
            case Op.LT_16:
              memory.set(dst, U1, a < b ? 1n : 0n);
              break;
            default:
              memory.set(dst, U1, a <= b ? 1n : 0n);
              break;
          }
          break;
        }

        case Op.DIV_8:
        case Op.DIV_16:
        case Op.FDIV_8:
        case Op.FDIV_16: {
          const aAddr = resolve(memory, mode, 0, ins.a);
          const bAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          const tag = sameTags(memory, aAddr, bAddr);
          const isFieldDivision = opcode === Op.FDIV_8 || opcode === Op.FDIV_16;
          if (isFieldDivision !== (tag === FF)) {
            throw new AvmExceptionalHalt(
              `tag check failed: ${isFieldDivision ? 'FDIV needs FF' : 'DIV needs integers'}, got ${TAG_NAMES[tag]}`,
            );
          }
          const b = memory.value(bAddr);
          if (b === 0n) throw new AvmExceptionalHalt('division by zero');
          const a = memory.value(aAddr);
          memory.set(dst, tag, isFieldDivision ? (a * invertFr(b)) % P : a / b);
          break;
        }

        case Op.AND_8:
        case Op.AND_16:
        case Op.OR_8:
        case Op.OR_16:
        case Op.XOR_8:
        case Op.XOR_16: {
          const aAddr = resolve(memory, mode, 0, ins.a);
          const bAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          integerTag(memory, aAddr);
          const tag = sameTags(memory, aAddr, bAddr);
          l2 -= BITWISE_DYN_L2_GAS * BITWISE_GAS_BYTES[tag]!;
          if (l2 < 0) throw outOfGas(l2, da);
          const a = memory.value(aAddr);
          const b = memory.value(bAddr);
          const result = opcode <= Op.AND_16 ? a & b : opcode <= Op.OR_16 ? a | b : a ^ b;
          memory.set(dst, tag, result);
          break;
        }

        case Op.NOT_8:
        case Op.NOT_16: {
          const src = resolve(memory, mode, 0, ins.a);
          const dst = resolve(memory, mode, 1, ins.b);
          const tag = integerTag(memory, src);
          memory.set(dst, tag, memory.value(src) ^ TAG_MASKS[tag]!);
          break;
        }

        case Op.SHL_8:
        case Op.SHL_16:
        case Op.SHR_8:
        case Op.SHR_16: {
          const aAddr = resolve(memory, mode, 0, ins.a);
          const bAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          const tag = sameTags(memory, aAddr, bAddr);
          integerTag(memory, aAddr);
          const a = memory.value(aAddr);
          const shift = memory.value(bAddr);
          // Shifting by the width or more gives 0 (and keeps BigInt shifts small).
          let result = 0n;
          if (shift < BigInt(TAG_BITS[tag]!)) {
            result = opcode <= Op.SHL_16 ? (a << shift) & TAG_MASKS[tag]! : a >> shift;
          }
          memory.set(dst, tag, result);
          break;
        }

        case Op.CAST_8:
        case Op.CAST_16: {
          const src = resolve(memory, mode, 0, ins.a);
          const dst = resolve(memory, mode, 1, ins.b);
          const tag = ins.c;
          const value = memory.value(src);
          // Every value is below p, so casting to FF keeps it; integer tags truncate.
          memory.set(dst, tag, tag === FF ? value : value & TAG_MASKS[tag]!);
          break;
        }

        case Op.GETENVVAR_16: {
          const dst = resolve(memory, mode, 0, ins.a);
          const g = env.globals;
          switch (ins.b) {
            case 0:
              memory.set(dst, FF, env.address);
              break;
            case 1:
              memory.set(dst, FF, env.sender);
              break;
            case 2:
              memory.set(dst, FF, env.transactionFee);
              break;
            case 3:
              memory.set(dst, FF, g.chainId);
              break;
            case 4:
              memory.set(dst, FF, g.version);
              break;
            case 5:
              memory.set(dst, U32, BigInt(g.blockNumber) & TAG_MASKS[U32]!);
              break;
            case 6:
              memory.set(dst, U64, g.timestamp & TAG_MASKS[U64]!);
              break;
            case 7:
              memory.set(dst, U128, g.feePerL2Gas & TAG_MASKS[U128]!);
              break;
            case 8:
              memory.set(dst, U128, g.feePerDaGas & TAG_MASKS[U128]!);
              break;
            case 9:
              memory.set(dst, U1, env.isStatic ? 1n : 0n);
              break;
            case 10:
              memory.set(dst, U32, BigInt(l2));
              break;
            case 11:
              memory.set(dst, U32, BigInt(da));
              break;
            default:
              throw new AvmExceptionalHalt(`invalid GETENVVAR variable ${ins.b}`);
          }
          break;
        }

        case Op.CALLDATACOPY:
        case Op.RETURNDATACOPY: {
          const sizeAddr = resolve(memory, mode, 0, ins.a);
          const startAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          const start = Number(memory.read(startAddr, U32));
          const size = Number(memory.read(sizeAddr, U32));
          l2 -= COPY_DYN_L2_GAS * size;
          if (l2 < 0) throw outOfGas(l2, da);
          const source = opcode === Op.CALLDATACOPY ? env.calldata : nestedData;
          const values = source.slice(start, start + size);
          // Words past the end of the data read as FF 0.
          checkRange(dst, size);
          for (let i = 0; i < size; i++) memory.set(dst + i, FF, i < values.length ? values[i]! : 0n);
          break;
        }

        case Op.SUCCESSCOPY:
          memory.set(resolve(memory, mode, 0, ins.a), U1, nestedSuccess ? 1n : 0n);
          break;

        case Op.RETURNDATASIZE:
          memory.set(resolve(memory, mode, 0, ins.a), U32, BigInt(nestedData.length));
          break;

        case Op.JUMP_32:
          next = ins.a;
          break;

        case Op.JUMPI_32:
          if (memory.read(resolve(memory, mode, 0, ins.a), U1) !== 0n) next = ins.b;
          break;

        case Op.INTERNALCALL:
          internalCalls.push(next);
          next = ins.a;
          break;

        case Op.INTERNALRETURN: {
          const back = internalCalls.pop();
          if (back === undefined)
            throw new AvmExceptionalHalt('INTERNALRETURN with an empty internal call stack');
          next = back;
          break;
        }

        case Op.SET_8:
        case Op.SET_16:
        case Op.SET_32:
        case Op.SET_64:
        case Op.SET_128:
        case Op.SET_FF:
          memory.set(resolve(memory, mode, 0, ins.a), ins.b, ins.value);
          break;

        case Op.MOV_8:
        case Op.MOV_16: {
          const src = resolve(memory, mode, 0, ins.a);
          const dst = resolve(memory, mode, 1, ins.b);
          memory.set(dst, memory.tag(src), memory.value(src));
          break;
        }

        case Op.SLOAD: {
          const slotAddr = resolve(memory, mode, 0, ins.a);
          const contractAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          const slot = memory.read(slotAddr, FF);
          const contract = memory.read(contractAddr, FF);
          memory.set(dst, FF, host.sload(contract, slot));
          break;
        }

        case Op.SSTORE: {
          if (env.isStatic) throw staticViolation('SSTORE');
          const src = resolve(memory, mode, 0, ins.a);
          const slotAddr = resolve(memory, mode, 1, ins.b);
          if (host.isStorageCold(env.address, memory.value(slotAddr))) {
            da -= SSTORE_DYN_DA_GAS;
            if (da < 0) throw outOfGas(l2, da);
          }
          const slot = memory.read(slotAddr, FF);
          host.sstore(env.address, slot, memory.read(src, FF));
          break;
        }

        case Op.NOTEHASHEXISTS:
        case Op.L1TOL2MSGEXISTS: {
          const hashAddr = resolve(memory, mode, 0, ins.a);
          const indexAddr = resolve(memory, mode, 1, ins.b);
          const dst = resolve(memory, mode, 2, ins.c);
          const hash = memory.read(hashAddr, FF);
          const leafIndex = memory.read(indexAddr, U64);
          const exists =
            opcode === Op.NOTEHASHEXISTS
              ? host.noteHashExists(hash, leafIndex)
              : host.l1ToL2MessageExists(hash, leafIndex);
          memory.set(dst, U1, exists ? 1n : 0n);
          break;
        }

        case Op.EMITNOTEHASH: {
          const noteHash = memory.read(resolve(memory, mode, 0, ins.a), FF);
          if (env.isStatic) throw staticViolation('EMITNOTEHASH');
          host.emitNoteHash(env.address, noteHash);
          break;
        }

        case Op.NULLIFIEREXISTS: {
          const nullifierAddr = resolve(memory, mode, 0, ins.a);
          const dst = resolve(memory, mode, 1, ins.b);
          memory.set(dst, U1, host.nullifierExists(memory.read(nullifierAddr, FF)) ? 1n : 0n);
          break;
        }

        case Op.EMITNULLIFIER: {
          if (env.isStatic) throw staticViolation('EMITNULLIFIER');
          host.emitNullifier(env.address, memory.read(resolve(memory, mode, 0, ins.a), FF));
          break;
        }

        case Op.GETCONTRACTINSTANCE: {
          const member = ins.c;
          if (member > 2) throw new AvmExceptionalHalt(`invalid GETCONTRACTINSTANCE member ${member}`);
          const addressAddr = resolve(memory, mode, 0, ins.a);
          const dst = resolve(memory, mode, 1, ins.b);
          const instance = host.getContractInstance(memory.read(addressAddr, FF));
          checkRange(dst, 2);
          let value = 0n;
          if (instance !== undefined) {
            value =
              member === 0
                ? instance.deployer
                : member === 1
                  ? instance.currentClassId
                  : instance.initializationHash;
          }
          memory.set(dst, U1, instance === undefined ? 0n : 1n);
          memory.set(dst + 1, FF, value);
          break;
        }

        case Op.EMITPUBLICLOG: {
          if (env.isStatic) throw staticViolation('EMITPUBLICLOG');
          const sizeAddr = resolve(memory, mode, 0, ins.a);
          const offset = resolve(memory, mode, 1, ins.b);
          const size = Number(memory.read(sizeAddr, U32));
          l2 -= PUBLIC_LOG_DYN_L2_GAS * size;
          da -= PUBLIC_LOG_DYN_DA_GAS * size;
          if (l2 < 0 || da < 0) throw outOfGas(l2, da);
          host.emitPublicLog(env.address, memory.readRange(offset, size, FF));
          break;
        }

        case Op.SENDL2TOL1MSG: {
          if (env.isStatic) throw staticViolation('SENDL2TOL1MSG');
          const recipientAddr = resolve(memory, mode, 0, ins.a);
          const contentAddr = resolve(memory, mode, 1, ins.b);
          const recipient = memory.read(recipientAddr, FF);
          const content = memory.read(contentAddr, FF);
          if (recipient > MAX_ETH_ADDRESS)
            throw new AvmExceptionalHalt('L2-to-L1 message recipient is not an L1 address');
          host.sendL2ToL1Message(env.address, recipient, content);
          break;
        }

        case Op.CALL:
        case Op.STATICCALL: {
          const l2Addr = resolve(memory, mode, 0, ins.a);
          const daAddr = resolve(memory, mode, 1, ins.b);
          const calleeAddr = resolve(memory, mode, 2, ins.c);
          const argsSizeAddr = resolve(memory, mode, 3, ins.d);
          const argsOffset = resolve(memory, mode, 4, ins.e);
          const l2Asked = memory.read(l2Addr, U32);
          const daAsked = memory.read(daAddr, U32);
          const callee = memory.read(calleeAddr, FF);
          const argsSize = Number(memory.read(argsSizeAddr, U32));
          // The callee gets what was asked for, capped by what is left; the unused part comes back.
          const l2Given = l2Asked < BigInt(l2) ? Number(l2Asked) : l2;
          const daGiven = daAsked < BigInt(da) ? Number(daAsked) : da;
          l2 -= l2Given;
          da -= daGiven;
          const child: FrameEnv = {
            address: callee,
            sender: env.address,
            isStatic: env.isStatic || opcode === Op.STATICCALL,
            calldata: new MemorySource(memory, argsOffset, argsSize),
            transactionFee: env.transactionFee,
            globals: env.globals,
          };
          host.checkpoint();
          const outcome: FrameOutcome = yield { env: child, l2Gas: l2Given, daGas: daGiven };
          if (outcome.reverted) host.revert();
          else host.commit();
          nestedData = outcome.output;
          nestedSuccess = !outcome.reverted;
          instructions += outcome.instructions;
          l2 += outcome.l2Left;
          da += outcome.daLeft;
          // The last failed callee stays the candidate cause, even after later calls succeed (as
          // in the reference): a caller that rethrows its failure later still names it.
          if (outcome.reverted) {
            nestedFailure = {
              data:
                outcome.output instanceof MemorySource ? outcome.output.bestEffort(MAX_OUTPUT_FIELDS) : [],
              reason: outcome.revertReason,
            };
          }
          break;
        }

        case Op.RETURN:
        case Op.REVERT_8:
        case Op.REVERT_16: {
          const sizeAddr = resolve(memory, mode, 0, ins.a);
          const offset = resolve(memory, mode, 1, ins.b);
          const size = Number(memory.read(sizeAddr, U32));
          const output = new MemorySource(memory, offset, size);
          instructions++;
          if (opcode === Op.RETURN) {
            return {
              reverted: false,
              halt: undefined,
              output,
              l2Left: l2,
              daLeft: da,
              instructions,
              revertReason: undefined,
            };
          }
          const data = output.bestEffort(MAX_OUTPUT_FIELDS);
          const reason =
            nestedFailure !== undefined && sameData(nestedFailure.data, data)
              ? nestedFailure.reason
              : 'Assertion failed';
          return {
            reverted: true,
            halt: undefined,
            output,
            l2Left: l2,
            daLeft: da,
            instructions,
            revertReason: reason,
          };
        }

        case Op.DEBUGLOG:
          // A no-op here, but its operands are still resolved (and so can still halt).
          resolve(memory, mode, 0, ins.a);
          resolve(memory, mode, 1, ins.b);
          resolve(memory, mode, 2, ins.c);
          resolve(memory, mode, 3, ins.d);
          break;

        case Op.POSEIDON2: {
          const input = resolve(memory, mode, 0, ins.a);
          const output = resolve(memory, mode, 1, ins.b);
          memory.writeRange(output, FF, poseidon2Permutation(memory.readRange(input, 4, FF)));
          break;
        }

        case Op.SHA256COMPRESSION: {
          const output = resolve(memory, mode, 0, ins.a);
          const stateAddr = resolve(memory, mode, 1, ins.b);
          const inputsAddr = resolve(memory, mode, 2, ins.c);
          const block = memory.readRange(inputsAddr, 16, U32).map(Number);
          const state = memory.readRange(stateAddr, 8, U32).map(Number);
          memory.writeRange(output, U32, Array.from(sha256Compression(state, block), BigInt));
          break;
        }

        case Op.KECCAKF1600: {
          const dst = resolve(memory, mode, 0, ins.a);
          const input = resolve(memory, mode, 1, ins.b);
          memory.writeRange(dst, U64, keccakF1600(memory.readRange(input, 25, U64)));
          break;
        }

        case Op.ECADD: {
          const p1x = resolve(memory, mode, 0, ins.a);
          const p1y = resolve(memory, mode, 1, ins.b);
          const p1inf = resolve(memory, mode, 2, ins.c);
          const p2x = resolve(memory, mode, 3, ins.d);
          const p2y = resolve(memory, mode, 4, ins.e);
          const p2inf = resolve(memory, mode, 5, ins.f);
          const dst = resolve(memory, mode, 6, ins.g);
          const p1 = { x: memory.read(p1x, FF), y: memory.read(p1y, FF), isInfinite: false };
          const p2 = { x: memory.read(p2x, FF), y: memory.read(p2y, FF), isInfinite: false };
          p1.isInfinite = memory.read(p1inf, U1) === 1n;
          p2.isInfinite = memory.read(p2inf, U1) === 1n;
          const added = ecAdd(p1, p2);
          if ('offCurve' in added)
            throw new AvmExceptionalHalt(`ECADD point ${added.offCurve} is not on the curve`);
          checkRange(dst, 3);
          memory.set(dst, FF, added.sum.x);
          memory.set(dst + 1, FF, added.sum.y);
          memory.set(dst + 2, U1, added.sum.isInfinite ? 1n : 0n);
          break;
        }

        case Op.TORADIXBE: {
          const src = resolve(memory, mode, 0, ins.a);
          const radixAddr = resolve(memory, mode, 1, ins.b);
          const limbsAddr = resolve(memory, mode, 2, ins.c);
          const bitsAddr = resolve(memory, mode, 3, ins.d);
          const dst = resolve(memory, mode, 4, ins.e);
          const value = memory.read(src, FF);
          const radix = memory.read(radixAddr, U32);
          const numLimbs = Number(memory.read(limbsAddr, U32));
          const bitMode = memory.read(bitsAddr, U1) === 1n;
          l2 -= TORADIX_DYN_L2_GAS * toRadixGasLimbs(radix, numLimbs);
          if (l2 < 0) throw outOfGas(l2, da);
          if (radix < 2n || radix > 256n)
            throw new AvmExceptionalHalt(`TORADIXBE radix ${radix} is not in 2..256`);
          if (numLimbs < 1 && value !== 0n)
            throw new AvmExceptionalHalt('TORADIXBE of a non-zero value into 0 limbs');
          if (bitMode && radix !== 2n) throw new AvmExceptionalHalt('TORADIXBE bit output needs radix 2');
          const limbs = toRadixBE(value, radix, numLimbs);
          if (limbs === undefined)
            throw new AvmExceptionalHalt(`TORADIXBE value does not fit in ${numLimbs} limbs`);
          memory.writeRange(dst, bitMode ? U1 : U8, limbs);
          break;
        }

        default:
          // Unreachable: the decoder only produces opcodes 0..MAX_OPCODE, all handled above.
          throw new Error(`opcode ${opcode} (${OPCODE_SPECS[opcode]?.name}) has no implementation`);
      }

      instructions++;
      pc = next;
      if (pc >= length)
        throw new AvmExceptionalHalt(`program counter ${pc} is past the end of the bytecode (${length})`);
    }
  } catch (error) {
    if (!(error instanceof AvmExceptionalHalt)) throw error;
    return {
      reverted: true,
      halt: error.message,
      output: NO_DATA,
      l2Left: 0,
      daLeft: 0,
      instructions,
      // An exceptional halt has no revert data; when the last nested call that failed had none either
      // (it halted too), its cause is taken as this frame's, as the reference does: a callee that
      // halts consumes all the gas it was given, and its caller, left with none, would otherwise
      // report only "out of L2 gas".
      revertReason:
        nestedFailure !== undefined && nestedFailure.data.length === 0 && nestedFailure.reason !== undefined
          ? nestedFailure.reason
          : error.message,
    };
  }
}

function staticViolation(what: string): AvmExceptionalHalt {
  return new AvmExceptionalHalt(`${what} is not allowed in a static call`);
}
