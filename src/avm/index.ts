// The AVM: an interpreter for the public bytecode of protocol 4.1.2, the host interface it runs
// against, and the transaction journal that implements that interface over a read-only world.
export { disassemble, type Instruction, Program, programForClass } from './decoder.js';
export { AvmExceptionalHalt, NullifierCollisionError, SideEffectLimitError } from './errors.js';
export type { AvmContractInstance, AvmHost, AvmWorld, BytecodeLookup } from './host.js';
export {
  type AvmCallRequest,
  type AvmCallResult,
  type AvmGas,
  type AvmGlobals,
  executeBytecode,
  executePublicCall,
  MAX_OUTPUT_FIELDS,
} from './interpreter.js';
export {
  AVM_LIMITS,
  AVM_MAX_PROCESSABLE_L2_GAS,
  AvmJournal,
  type AvmPublicLog,
  type L2ToL1Message,
  noteHashNonce,
  type StorageWrite,
  siloNoteHash,
  uniqueNoteHash,
} from './journal.js';
export { InMemoryAvmWorld, type InMemoryContract } from './memory-world.js';
export { OPCODE_SPECS, Op } from './opcodes.js';
