// An AvmWorld held in memory: storage by (contract, slot), a nullifier set, note-hash and
// L1-to-L2 message leaves, contract instances and class bytecode. Tests, benchmarks and tools run
// the interpreter against it; applyJournal() carries one transaction's effects into it so a
// sequence of transactions can build on each other.
import { PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { siloNullifier } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import type { AvmContractInstance, AvmWorld } from './host.js';
import { type AvmJournal, MAX_PROTOCOL_CONTRACT_ADDRESS } from './journal.js';

export interface InMemoryContract {
  address: Fr;
  classId: Fr;
  bytecode: Uint8Array;
  deployer?: Fr;
  initializationHash?: Fr;
}

export class InMemoryAvmWorld implements AvmWorld {
  readonly storage = new Map<Fr, Map<Fr, Fr>>();
  readonly nullifiers = new Set<Fr>();
  readonly noteHashLeaves: Fr[] = [];
  readonly l1ToL2MessageLeaves: Fr[] = [];
  readonly instances = new Map<Fr, AvmContractInstance>();
  readonly classes = new Map<Fr, Uint8Array>();

  storageRead(contract: Fr, slot: Fr): Fr {
    return this.storage.get(contract)?.get(slot) ?? 0n;
  }

  setStorage(contract: Fr, slot: Fr, value: Fr): void {
    let slots = this.storage.get(contract);
    if (slots === undefined) {
      slots = new Map();
      this.storage.set(contract, slots);
    }
    slots.set(slot, value);
  }

  nullifierExists(siloedNullifier: Fr): boolean {
    return this.nullifiers.has(siloedNullifier);
  }

  noteHashTreeSize(): bigint {
    return BigInt(this.noteHashLeaves.length);
  }

  noteHashAt(leafIndex: bigint): Fr | undefined {
    return leafIndex < BigInt(this.noteHashLeaves.length)
      ? this.noteHashLeaves[Number(leafIndex)]
      : undefined;
  }

  l1ToL2MessageAt(leafIndex: bigint): Fr | undefined {
    return leafIndex < BigInt(this.l1ToL2MessageLeaves.length)
      ? this.l1ToL2MessageLeaves[Number(leafIndex)]
      : undefined;
  }

  getContractInstance(address: Fr): AvmContractInstance | undefined {
    return this.instances.get(address);
  }

  getBytecode(classId: Fr): Uint8Array | undefined {
    return this.classes.get(classId);
  }

  /**
   * Registers a class and an instance of it, and (for a non-protocol address) inserts the
   * deployment nullifier, as publishing the instance would.
   */
  deploy(contract: InMemoryContract): void {
    this.classes.set(contract.classId, contract.bytecode);
    this.instances.set(contract.address, {
      deployer: contract.deployer ?? 0n,
      currentClassId: contract.classId,
      initializationHash: contract.initializationHash ?? 0n,
    });
    if (contract.address > MAX_PROTOCOL_CONTRACT_ADDRESS) {
      this.nullifiers.add(siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, contract.address));
    }
  }

  /** Applies one transaction's effects (after its last call frame has ended). */
  applyJournal(journal: AvmJournal): void {
    for (const w of journal.storageWrites()) this.setStorage(w.contract, w.slot, w.value);
    for (const n of journal.nullifiers()) this.nullifiers.add(n);
    this.noteHashLeaves.push(...journal.noteHashes());
  }
}
