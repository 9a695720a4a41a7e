// The golden vectors' files (test/avm/vectors/*.json, docs/avm-vectors.md): their shape, and the
// in-memory world a file's steps run against, as the reference's world was when they were recorded.
// Used by golden.test.ts, test/execution/avm-calls.test.ts and by the oracle's timing mode
// (scripts/avm-oracle/timing.mjs).
import { publicDispatchBytecode } from '../../src/artifacts/npm-artifacts.js';
import type { AvmCallRequest, AvmGlobals } from '../../src/avm/interpreter.js';
import { InMemoryAvmWorld } from '../../src/avm/memory-world.js';
import type { Fr } from '../../src/core/field.js';

export interface VectorContract {
  name: string;
  address: string;
  classId: string;
  deployer: string;
  initializationHash: string;
  deploymentNullifier?: string;
  canonical?: boolean;
  instanceOnly?: boolean;
  artifact?: { package: string; file: string };
  bytecode?: string;
}
export interface VectorStep {
  name: string;
  tx: number;
  /** Globals of this step's tx that differ from the file's (the same for every step of the tx). */
  globals?: { timestamp?: string };
  call: {
    address: string;
    sender: string;
    isStaticCall: boolean;
    transactionFee: string;
    calldata: string[];
    l2GasLimit: number;
    daGasLimit: number;
  };
  expect: {
    reverted: boolean;
    output: string[];
    instructions: number;
    l2GasUsed: number;
    daGasUsed: number;
    /** Each write's contract and slot, and the public-data leaf slot they hash to. */
    storageWrites: { contract: string; slot: string; leafSlot: string; value: string }[];
    nullifiers: string[];
    noteHashes: string[];
    publicLogs: { contract: string; fields: string[] }[];
    l2ToL1Messages: { contract: string; recipient: string; content: string }[];
  };
}
export interface VectorFile {
  group: string;
  globals: Record<string, string>;
  firstNullifier: string;
  contracts: VectorContract[];
  preState?: {
    storage?: { contract: string; slot: string; value: string }[];
    /** Siloed nullifiers in the tree before the first step. */
    nullifiers?: { value: string; note?: string }[];
    noteHashes?: { index: number; value: string }[];
    l1ToL2Messages?: { index: number; value: string }[];
  };
  steps: VectorStep[];
}

const fr = (hex: string): Fr => BigInt(hex);

/** The globals a vector file's calls ran with. */
export function vectorGlobals(file: VectorFile): AvmGlobals {
  const g = file.globals;
  return {
    chainId: fr(g.chainId!),
    version: fr(g.version!),
    blockNumber: Number(g.blockNumber),
    timestamp: BigInt(g.timestamp!),
    feePerDaGas: BigInt(g.feePerDaGas!),
    feePerL2Gas: BigInt(g.feePerL2Gas!),
  };
}

/** A step's call as the interpreter takes it (`globals`: the file's, see vectorGlobals). */
export function vectorCallRequest(step: VectorStep, globals: AvmGlobals): AvmCallRequest {
  const { call } = step;
  if (step.globals?.timestamp !== undefined)
    globals = { ...globals, timestamp: BigInt(step.globals.timestamp) };
  return {
    address: fr(call.address),
    sender: fr(call.sender),
    calldata: call.calldata.map(fr),
    isStaticCall: call.isStaticCall,
    gasLimit: { l2: call.l2GasLimit, da: call.daGasLimit },
    transactionFee: fr(call.transactionFee),
    globals,
  };
}

/** The in-memory world of a vector file: its contracts, their bytecode and its pre-state. */
export function vectorWorld(file: VectorFile): InMemoryAvmWorld {
  const world = new InMemoryAvmWorld();
  // Contracts whose class is synthetic share the bytecode of the artifact they were made from.
  const bytecodeByName = new Map<string, Uint8Array>();
  for (const c of file.contracts) {
    const instance = {
      deployer: fr(c.deployer),
      currentClassId: fr(c.classId),
      initializationHash: fr(c.initializationHash),
    };
    world.instances.set(fr(c.address), instance);
    if (c.deploymentNullifier !== undefined && !c.canonical) world.nullifiers.add(fr(c.deploymentNullifier));
    if (c.instanceOnly) continue;
    let bytecode: Uint8Array | undefined;
    if (c.bytecode !== undefined) bytecode = new Uint8Array(Buffer.from(c.bytecode.slice(2), 'hex'));
    else if (c.artifact !== undefined) {
      const key = `${c.artifact.package}/${c.artifact.file}`;
      bytecode = bytecodeByName.get(key) ?? publicDispatchBytecode(c.artifact.package, c.artifact.file);
      bytecodeByName.set(key, bytecode);
    }
    if (bytecode !== undefined) world.classes.set(fr(c.classId), bytecode);
  }
  for (const w of file.preState?.storage ?? []) world.setStorage(fr(w.contract), fr(w.slot), fr(w.value));
  for (const { value } of file.preState?.nullifiers ?? []) world.nullifiers.add(fr(value));
  for (const { index, value } of file.preState?.noteHashes ?? []) {
    while (world.noteHashLeaves.length < index) world.noteHashLeaves.push(0n);
    world.noteHashLeaves[index] = fr(value);
  }
  for (const { index, value } of file.preState?.l1ToL2Messages ?? []) {
    while (world.l1ToL2MessageLeaves.length < index) world.l1ToL2MessageLeaves.push(0n);
    world.l1ToL2MessageLeaves[index] = fr(value);
  }
  return world;
}
