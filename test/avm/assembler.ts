// A tiny AVM assembler and runner for the tests: instructions are written as (name, operands,
// mode) and encoded with the wire layouts of src/avm/opcodes.ts; labels resolve to byte offsets
// for jumps. run() executes a program against a fresh in-memory world and journal.

import { type AvmCallRequest, type AvmCallResult, executeBytecode } from '../../src/avm/interpreter.js';
import { AvmJournal } from '../../src/avm/journal.js';
import { Tag } from '../../src/avm/memory.js';
import { InMemoryAvmWorld } from '../../src/avm/memory-world.js';
import { instructionSize, Kind, kindWidth, OPCODE_SPECS, Op, type OpName } from '../../src/avm/opcodes.js';

export type Operand = number | bigint | { label: string };

export interface Line {
  op: OpName;
  args: Operand[];
  mode: number;
}

export type Item = Line | { label: string } | { raw: number[] };

/** One instruction: `args` are the operands after the mode field, in wire order. */
export const I = (op: OpName, args: Operand[] = [], mode = 0): Line => ({ op, args, mode });
export const label = (name: string) => ({ label: name });
export const raw = (...bytes: number[]) => ({ raw: bytes });
export const ref = (name: string) => ({ label: name });

function writeBig(out: number[], value: bigint, width: number): void {
  for (let i = width - 1; i >= 0; i--) out.push(Number((value >> BigInt(8 * i)) & 0xffn));
}

/** Encodes a program; labels may be used before they are defined. */
export function assemble(items: Item[]): Uint8Array {
  const labels = new Map<string, number>();
  let pc = 0;
  for (const item of items) {
    if ('label' in item) labels.set(item.label, pc);
    else if ('raw' in item) pc += item.raw.length;
    else pc += instructionSize(Op[item.op]);
  }
  const out: number[] = [];
  for (const item of items) {
    if ('label' in item) continue;
    if ('raw' in item) {
      out.push(...item.raw);
      continue;
    }
    const opcode = Op[item.op];
    const spec = OPCODE_SPECS[opcode]!;
    if (item.args.length !== spec.operands.length) {
      throw new Error(`${item.op} takes ${spec.operands.length} operands, got ${item.args.length}`);
    }
    out.push(opcode);
    if (spec.modeBytes > 0) writeBig(out, BigInt(item.mode), spec.modeBytes);
    spec.operands.forEach((kind, i) => {
      const arg = item.args[i]!;
      const value = typeof arg === 'object' ? BigInt(labels.get(arg.label) ?? Number.NaN) : BigInt(arg);
      writeBig(out, value, kind === Kind.TAG ? 1 : kindWidth(kind));
    });
  }
  return new Uint8Array(out);
}

/** The encoded size of one instruction. */
export const sizeOf = (op: OpName): number => instructionSize(Op[op]);

export const GLOBALS = {
  chainId: 31337n,
  version: 4n,
  blockNumber: 77,
  timestamp: 1_700_000_000n,
  feePerDaGas: 11n,
  feePerL2Gas: 22n,
};

export const SELF = 0x5e1fn;
export const SENDER = 0x5e4dn;

export function request(overrides: Partial<AvmCallRequest> = {}): AvmCallRequest {
  return {
    address: SELF,
    sender: SENDER,
    calldata: [],
    isStaticCall: false,
    gasLimit: { l2: 1_000_000, da: 100_000 },
    transactionFee: 0n,
    globals: GLOBALS,
    ...overrides,
  };
}

export interface Run {
  result: AvmCallResult;
  journal: AvmJournal;
  world: InMemoryAvmWorld;
}

/** Runs a program as the code at SELF (which is also deployed, so it may call itself). */
export function run(
  items: Item[] | Uint8Array,
  overrides: Partial<AvmCallRequest> = {},
  world = new InMemoryAvmWorld(),
): Run {
  const bytecode = items instanceof Uint8Array ? items : assemble(items);
  if (!world.instances.has(SELF)) world.deploy({ address: SELF, classId: 0x5e1fc1a55n, bytecode });
  const journal = new AvmJournal(world, 0xf1257n);
  const result = executeBytecode(journal, request(overrides), bytecode);
  return { result, journal, world };
}

/** Gas used by a run with the default limits. */
export const l2Used = (r: Run, limit = 1_000_000) => limit - r.result.gasLeft.l2;

/** SET_32 of a U32 into `dst`, then RETURN of `size` words from `offset` (size kept at address 9999). */
export function returning(offset: number, size: number): Line[] {
  return [I('SET_32', [9999, Tag.U32, size]), I('RETURN', [9999, offset])];
}

/** Gas of `returning`: SET (27) + RETURN (9). */
export const RETURNING_GAS = 27 + 9;

export { Tag };
