// A small world around the reference AVM: in-memory trees with checkpoints, a contract registry,
// and a runner that executes one enqueued public call the way the reference's tx simulator
// does (fork the tx's state, run, merge on success or reject on revert) and records what the
// call produced in the vector format documented in docs/avm-vectors.md.

/** Minimal hex of a field-like value: `0x0`, `0x1f`, ... (no leading zeros). */
export function hex(v) {
  if (v === undefined || v === null) return v;
  if (typeof v === 'bigint') return `0x${v.toString(16)}`;
  if (typeof v === 'number') return `0x${v.toString(16)}`;
  if (typeof v.toBigInt === 'function') return `0x${v.toBigInt().toString(16)}`;
  if (typeof v.toField === 'function') return hex(v.toField());
  throw new Error(`cannot hex ${v}`);
}

/**
 * The trees the reference reads and writes through its trees-DB interface, kept in memory.
 * Each checkpoint holds undo actions; reverting runs them backwards. `writes` lists the storage
 * writes that survive, with contract and slot (the reference's trace only keeps leaf slots).
 */
export class MemoryTrees {
  constructor(R) {
    this.R = R;
    this.storage = new Map(); // leaf slot (bigint) -> Fr
    this.nullifiers = new Set(); // siloed nullifier (bigint)
    this.noteHashes = []; // Fr, by leaf index
    this.l1ToL2 = new Map(); // leaf index (bigint) -> Fr
    this.writes = []; // { contract, slot, leafSlot, value }
    this.undo = [];
    this.hashMs = 0; // time spent in leafSlot(), for the timing mode
  }
  onUndo(fn) {
    const top = this.undo[this.undo.length - 1];
    if (top) top.push(fn);
  }
  async leafSlot(contract, slot) {
    const t0 = performance.now();
    const key = (await this.R.hash.computePublicDataTreeLeafSlot(contract, slot)).toBigInt();
    this.hashMs += performance.now() - t0;
    return key;
  }
  async storageRead(contract, slot) {
    return this.storage.get(await this.leafSlot(contract, slot)) ?? this.R.Fr.ZERO;
  }
  async storageWrite(contract, slot, value) {
    const key = await this.leafSlot(contract, slot);
    const had = this.storage.has(key);
    const old = this.storage.get(key);
    this.storage.set(key, value);
    this.writes.push({ contract, slot, leafSlot: key, value });
    this.onUndo(() => {
      this.writes.pop();
      if (had) this.storage.set(key, old);
      else this.storage.delete(key);
    });
  }
  async checkNullifierExists(siloed) {
    return this.nullifiers.has(siloed.toBigInt());
  }
  async writeNullifier(siloed) {
    const key = siloed.toBigInt();
    this.nullifiers.add(key);
    this.onUndo(() => this.nullifiers.delete(key));
  }
  async getNoteHash(index) {
    return this.noteHashes[Number(index)] ?? this.R.Fr.ZERO;
  }
  async writeNoteHash(h) {
    this.noteHashes.push(h);
    this.onUndo(() => this.noteHashes.pop());
  }
  async getL1ToL2LeafValue(index) {
    return this.l1ToL2.get(BigInt(index)) ?? this.R.Fr.ZERO;
  }
  async padTree() {}
  async createCheckpoint() {
    this.undo.push([]);
  }
  async commitCheckpoint() {
    const done = this.undo.pop();
    const parent = this.undo[this.undo.length - 1];
    if (parent) parent.push(...done);
  }
  async revertCheckpoint() {
    const done = this.undo.pop();
    for (let i = done.length - 1; i >= 0; i--) done[i]();
  }
  async getTreeSnapshots() {
    return undefined;
  }
}

/** Default gas limits: the AVM processing maximum for L2, the per-checkpoint DA maximum for DA. */
export const DEFAULT_GAS = { l2Gas: 6_000_000, daGas: 786_432 };

export class World {
  constructor(R, { globals, firstNullifier, timestamp }) {
    this.R = R;
    this.trees = new MemoryTrees(R);
    this.dataSource = new R.SimpleContractDataSource();
    this.contractsDB = new R.PublicContractsDB(this.dataSource);
    this.globals = globals;
    this.firstNullifier = firstNullifier;
    this.timestamp = timestamp;
    this.contracts = []; // vector records
    this.byName = new Map();
    this.preState = { storage: [], nullifiers: [], noteHashes: [], l1ToL2Messages: [] };
    this.config = R.avm.PublicSimulatorConfig.from({});
    this.root = undefined;
    this.txIndex = -1;
    this.txGlobals = globals; // the current tx's globals: `globals`, or with another timestamp
  }

  /**
   * Starts a new transaction: a fresh side-effect trace over the committed world state. With a
   * `timestamp`, the tx runs in a block with that timestamp instead of the standard one (the
   * other globals are unchanged); the state manager checks contract class updates against it.
   */
  newTx(timestamp) {
    const R = this.R;
    const ts = timestamp ?? this.timestamp;
    this.txGlobals =
      ts === this.timestamp ? this.globals : R.tx.GlobalVariables.from({ ...this.globals, timestamp: ts });
    this.root = R.PublicPersistableStateManager.create(
      this.trees,
      this.contractsDB,
      new R.SideEffectTrace(),
      this.firstNullifier,
      ts,
    );
    this.txIndex++;
    return this.txIndex;
  }

  async insertDeploymentNullifier(address) {
    const R = this.R;
    const n = await R.hash.siloNullifier(R.AztecAddress.fromNumber(2), address.toField());
    this.trees.nullifiers.add(n.toBigInt());
    return n;
  }

  /** Registers a contract from a loaded artifact with its real class id and address. */
  async deployArtifact(
    name,
    artifactRef,
    artifact,
    { constructorArgs = [], salt, deployer, deployed = true, classIdOverride },
  ) {
    const R = this.R;
    this.classCache ??= new Map();
    if (!this.classCache.has(artifact))
      this.classCache.set(artifact, await R.contract.getContractClassFromArtifact(artifact));
    let contractClass = this.classCache.get(artifact);
    let instance = await R.contract.getContractInstanceFromInstantiationParams(artifact, {
      constructorArgs,
      salt,
      deployer,
    });
    if (classIdOverride !== undefined) {
      contractClass = { ...contractClass, id: classIdOverride };
      const { address: _ignored, ...partial } = instance;
      partial.currentContractClassId = classIdOverride;
      partial.originalContractClassId = classIdOverride;
      instance = { ...partial, address: await R.contract.computeContractAddressFromInstance(partial) };
    }
    await this.dataSource.addNewContract(artifact, contractClass, instance);
    const record = {
      name,
      artifact: artifactRef,
      address: instance.address.toString(),
      classId: contractClass.id.toString(),
      deployer: instance.deployer.toString(),
      salt: instance.salt.toString(),
      initializationHash: instance.initializationHash.toString(),
      publicKeys: 'default',
      deployed,
    };
    if (classIdOverride !== undefined) record.classIdIsSynthetic = true;
    if (deployed)
      record.deploymentNullifier = (await this.insertDeploymentNullifier(instance.address)).toString();
    return this.addRecord(record, { artifact, instance, contractClass });
  }

  /** Registers a canonical protocol contract at its fixed address (no deployment nullifier needed). */
  async deployCanonical(name, artifactRef, cachedArtifact) {
    const R = this.R;
    const pc = await R.canonical[name]();
    const dispatch = cachedArtifact.functions.find((f) => f.name === 'public_dispatch');
    if (!dispatch || !Buffer.from(dispatch.bytecode).equals(Buffer.from(pc.contractClass.packedBytecode))) {
      throw new Error(`${name}: the cached artifact's bytecode differs from the reference's canonical one`);
    }
    await this.dataSource.addNewContract(cachedArtifact, pc.contractClass, pc.instance);
    const record = {
      name,
      artifact: artifactRef,
      address: pc.instance.address.toString(),
      classId: pc.contractClass.id.toString(),
      deployer: pc.instance.deployer.toString(),
      salt: pc.instance.salt.toString(),
      initializationHash: pc.instance.initializationHash.toString(),
      publicKeys: 'default',
      canonical: true,
      deployed: false,
    };
    return this.addRecord(record, {
      artifact: cachedArtifact,
      instance: pc.instance,
      contractClass: pc.contractClass,
    });
  }

  /**
   * Registers hand-made bytecode as a contract: class id from (artifact hash 0, no private
   * functions, the bytecode), address from (salt, deployer, init hash 0, default keys).
   * `classIdOverride` registers the same bytecode under a made-up class id instead.
   */
  async deployBytecode(
    name,
    bytecode,
    { salt, deployer, deployed = true, classIdOverride, initializationHash },
  ) {
    const R = this.R;
    const base = {
      version: 1,
      artifactHash: R.Fr.ZERO,
      privateFunctions: [],
      packedBytecode: Buffer.from(bytecode),
    };
    const computed = await R.contract.computeContractClassIdWithPreimage(base);
    const contractClass = { ...base, ...computed };
    if (classIdOverride !== undefined) contractClass.id = classIdOverride;
    const partial = {
      version: 1,
      salt,
      deployer,
      currentContractClassId: contractClass.id,
      originalContractClassId: contractClass.id,
      initializationHash: initializationHash ?? R.Fr.ZERO,
      publicKeys: R.keys.PublicKeys.default(),
    };
    const instance = { ...partial, address: await R.contract.computeContractAddressFromInstance(partial) };
    const artifact = { name, functions: [], nonDispatchPublicFunctions: [] };
    await this.dataSource.addNewContract(artifact, contractClass, instance);
    const record = {
      name,
      bytecode: `0x${Buffer.from(bytecode).toString('hex')}`,
      address: instance.address.toString(),
      classId: contractClass.id.toString(),
      deployer: instance.deployer.toString(),
      salt: instance.salt.toString(),
      initializationHash: instance.initializationHash.toString(),
      publicKeys: 'default',
      deployed,
    };
    if (classIdOverride !== undefined) record.classIdIsSynthetic = true;
    if (deployed)
      record.deploymentNullifier = (await this.insertDeploymentNullifier(instance.address)).toString();
    return this.addRecord(record, { artifact, instance, contractClass });
  }

  /** Registers only an instance (no class, no bytecode), e.g. for GETCONTRACTINSTANCE checks. */
  async deployInstanceOnly(name, { salt, deployer, classId, initializationHash }) {
    const R = this.R;
    const partial = {
      version: 1,
      salt,
      deployer,
      currentContractClassId: classId,
      originalContractClassId: classId,
      initializationHash,
      publicKeys: R.keys.PublicKeys.default(),
    };
    const instance = { ...partial, address: await R.contract.computeContractAddressFromInstance(partial) };
    await this.dataSource.addContractInstance(instance);
    const record = {
      name,
      instanceOnly: true,
      address: instance.address.toString(),
      classId: classId.toString(),
      deployer: deployer.toString(),
      salt: salt.toString(),
      initializationHash: initializationHash.toString(),
      publicKeys: 'default',
      deployed: true,
      deploymentNullifier: (await this.insertDeploymentNullifier(instance.address)).toString(),
    };
    return this.addRecord(record, { instance });
  }

  addRecord(record, extra) {
    this.contracts.push(record);
    const c = { record, ...extra, address: extra.instance.address };
    this.byName.set(record.name, c);
    return c;
  }

  contract(name) {
    const c = this.byName.get(name);
    if (!c) throw new Error(`unknown contract ${name}`);
    return c;
  }

  /** Seeds public storage directly (recorded in preState). */
  async seedStorage(contractName, slot, value) {
    const c = this.contract(contractName);
    const leafSlot = await this.trees.leafSlot(c.address, slot);
    this.trees.storage.set(leafSlot, value);
    this.preState.storage.push({
      contract: c.record.address,
      slot: hex(slot),
      leafSlot: hex(leafSlot),
      value: hex(value),
    });
  }

  /** Seeds a (siloed) nullifier into the nullifier tree (recorded in preState). */
  async seedNullifier(siloed, note) {
    this.trees.nullifiers.add(siloed.toBigInt());
    this.preState.nullifiers.push({ value: hex(siloed), note });
  }

  seedNoteHash(value) {
    this.trees.noteHashes.push(value);
    this.preState.noteHashes.push({ index: this.trees.noteHashes.length - 1, value: hex(value) });
  }

  seedL1ToL2(index, value) {
    this.trees.l1ToL2.set(BigInt(index), value);
    this.preState.l1ToL2Messages.push({ index, value: hex(value) });
  }

  nameOf(address) {
    const s = address.toString();
    for (const c of this.contracts) if (c.address === s) return c.name;
    return s;
  }

  /** Runs `AvmSimulator.execute()` for one enqueued call on `state`; `ms` times execute() alone. */
  async execute(state, address, calldata, opts = {}) {
    const R = this.R;
    const sim = await R.AvmSimulator.create(
      state,
      address,
      opts.sender ?? R.AztecAddress.ZERO,
      opts.transactionFee ?? R.Fr.ZERO,
      this.txGlobals,
      opts.isStaticCall ?? false,
      new R.CallDataArray(calldata),
      { l2Gas: opts.l2Gas ?? DEFAULT_GAS.l2Gas, daGas: opts.daGas ?? DEFAULT_GAS.daGas },
      this.config,
    );
    const t0 = performance.now();
    const r = await sim.execute();
    return { r, ms: performance.now() - t0 };
  }

  /**
   * Runs one enqueued call as the first call of a throwaway tx over the committed world state,
   * then rejects it: the trees' checkpoint is reverted and the throwaway tx's state manager and
   * trace are dropped, so the world (and the current tx) are left exactly as they were. Used by
   * the timing mode to repeat a call on the state it was recorded on. `hashMs` is the part of
   * `ms` spent in the trees' leaf-slot hashing (storage is keyed by leaf slot).
   */
  async runDiscarded(address, calldata, opts = {}) {
    const R = this.R;
    const root = R.PublicPersistableStateManager.create(
      this.trees,
      this.contractsDB,
      new R.SideEffectTrace(),
      this.firstNullifier,
      this.txGlobals.timestamp,
    );
    const depth = this.trees.undo.length;
    const fork = await root.fork();
    const hashMs = this.trees.hashMs;
    const { r, ms } = await this.execute(fork, address, calldata, opts);
    await root.reject(fork);
    if (this.trees.undo.length !== depth) throw new Error('runDiscarded: unbalanced tree checkpoints');
    return { r, ms, hashMs: this.trees.hashMs - hashMs };
  }

  /**
   * Runs one enqueued call in the current tx and returns `{ call, expect }` for the vector.
   * `calldata` is an array of Fr. Options: sender, isStaticCall, transactionFee, l2Gas, daGas.
   */
  async run(address, calldata, opts = {}) {
    const R = this.R;
    if (!this.root) this.newTx();
    const l2GasLimit = opts.l2Gas ?? DEFAULT_GAS.l2Gas;
    const daGasLimit = opts.daGas ?? DEFAULT_GAS.daGas;
    const sender = opts.sender ?? R.AztecAddress.ZERO;
    const isStaticCall = opts.isStaticCall ?? false;
    const transactionFee = opts.transactionFee ?? R.Fr.ZERO;
    const tr = this.root.trace;
    const before = {
      writes: this.trees.writes.length,
      nullifiers: tr.nullifiers.length,
      noteHashes: tr.noteHashes.length,
      logs: tr.publicLogs.length,
      msgs: tr.l2ToL1Messages.length,
    };
    const fork = await this.root.fork();
    const { r, ms } = await this.execute(fork, address, calldata, opts);
    if (r.reverted) await this.root.reject(fork);
    else await this.root.merge(fork);

    const output = r.output.bestEffortReadAll().map(hex);
    const expect = {
      reverted: r.reverted,
      output,
    };
    if (r.reverted) expect.revertReason = r.revertReason?.message ?? '';
    expect.instructions = r.totalInstructions;
    expect.l2GasUsed = l2GasLimit - r.gasLeft.l2Gas;
    expect.daGasUsed = daGasLimit - r.gasLeft.daGas;
    const name = (a) => a.toString();
    expect.storageWrites = this.trees.writes.slice(before.writes).map((w) => ({
      contract: name(w.contract),
      slot: hex(w.slot),
      leafSlot: hex(w.leafSlot),
      value: hex(w.value),
    }));
    expect.nullifiers = tr.nullifiers.slice(before.nullifiers).map((n) => hex(n.value));
    expect.noteHashes = tr.noteHashes.slice(before.noteHashes).map((n) => hex(n.value));
    expect.publicLogs = tr.publicLogs.slice(before.logs).map((l) => ({
      contract: name(l.contractAddress),
      fields: l.fields.map(hex),
    }));
    expect.l2ToL1Messages = tr.l2ToL1Messages.slice(before.msgs).map((m) => ({
      contract: name(m.contractAddress),
      recipient: m.message.recipient.toString(),
      content: hex(m.message.content),
    }));
    const call = {
      address: address.toString(),
      sender: sender.toString(),
      isStaticCall,
      transactionFee: hex(transactionFee),
      calldata: calldata.map(hex),
      l2GasLimit,
      daGasLimit,
    };
    return { call, expect, ms, raw: r };
  }
}
