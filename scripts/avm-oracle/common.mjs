// Shared pieces of the vector groups: artifact names, the block globals, the step recorder.
import { World } from './world.mjs';

export const PKG = {
  contracts: '@aztec/noir-contracts.js@4.1.2',
  test: '@aztec/noir-test-contracts.js@4.1.2',
  protocol: '@aztec/protocol-contracts@4.1.2',
};

export const FILES = {
  Token: [PKG.contracts, 'artifacts/token_contract-Token.json'],
  AuthRegistry: [PKG.protocol, 'artifacts/AuthRegistry.json'],
  FeeJuice: [PKG.protocol, 'artifacts/FeeJuice.json'],
  ContractInstanceRegistry: [PKG.protocol, 'artifacts/ContractInstanceRegistry.json'],
  ContractClassRegistry: [PKG.protocol, 'artifacts/ContractClassRegistry.json'],
  PublicChecks: [PKG.protocol, 'artifacts/PublicChecks.json'],
  AvmTest: [PKG.test, 'artifacts/avm_test_contract-AvmTest.json'],
  AvmGadgetsTest: [PKG.test, 'artifacts/avm_gadgets_test_contract-AvmGadgetsTest.json'],
  Parent: [PKG.test, 'artifacts/parent_contract-Parent.json'],
  Child: [PKG.test, 'artifacts/child_contract-Child.json'],
  StaticParent: [PKG.test, 'artifacts/static_parent_contract-StaticParent.json'],
  StaticChild: [PKG.test, 'artifacts/static_child_contract-StaticChild.json'],
};

/** The block the vectors run in. GasFees takes (feePerDaGas, feePerL2Gas). */
export function standardGlobals(R) {
  return {
    globals: R.tx.GlobalVariables.empty({
      chainId: new R.Fr(31337),
      version: new R.Fr(1),
      blockNumber: 42,
      slotNumber: 7,
      timestamp: 1_767_225_600n,
      gasFees: new R.gas.GasFees(3, 5),
    }),
    record: {
      chainId: '31337',
      version: '1',
      blockNumber: '42',
      slotNumber: '7',
      timestamp: '1767225600',
      coinbase: '0x0000000000000000000000000000000000000000',
      feeRecipient: '0x0000000000000000000000000000000000000000000000000000000000000000',
      feePerDaGas: '3',
      feePerL2Gas: '5',
    },
  };
}

/** The tx's first nullifier (note-hash nonces derive from it). Not inserted into the nullifier tree. */
export const FIRST_NULLIFIER = 0x2a2a2an;

export function newWorld(R) {
  const g = standardGlobals(R);
  const world = new World(R, {
    globals: g.globals,
    firstNullifier: new R.Fr(FIRST_NULLIFIER),
    timestamp: g.globals.timestamp,
  });
  world.globalsRecord = g.record;
  return world;
}

/** Human-readable arguments: addresses and fields as minimal hex, integers as decimal strings. */
export function display(v) {
  if (v === null || v === undefined) return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(display);
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  if (typeof v.toBigInt === 'function') return `0x${v.toBigInt().toString(16)}`;
  if (typeof v.toField === 'function') return `0x${v.toField().toBigInt().toString(16)}`;
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, display(x)]));
  return String(v);
}

/** Collects the steps of one vector file. */
export class VectorFile {
  constructor(ctx, world) {
    this.ctx = ctx;
    this.R = ctx.R;
    this.world = world;
    this.steps = [];
  }

  abiOf(contractName, fn) {
    const c = this.world.contract(contractName);
    const all = [...c.artifact.functions, ...(c.artifact.nonDispatchPublicFunctions ?? [])];
    const abi = all.find((f) => f.name === fn);
    if (!abi) throw new Error(`${contractName} has no function ${fn}`);
    return abi;
  }

  async selector(contractName, fn) {
    const abi = this.abiOf(contractName, fn);
    return this.R.abi.FunctionSelector.fromNameAndParameters(abi.name, abi.parameters);
  }

  async calldata(contractName, fn, args) {
    const abi = this.abiOf(contractName, fn);
    const selector = await this.R.abi.FunctionSelector.fromNameAndParameters(abi.name, abi.parameters);
    return [selector.toField(), ...this.R.abi.encodeArguments(abi, args)];
  }

  /**
   * Calls a contract function through its public dispatcher. Options: sender, isStaticCall
   * (default: the function's #[view] flag), sameTx (continue the previous step's tx),
   * l2Gas, daGas, transactionFee, timestamp (a bigint: the tx's block timestamp, if not the
   * standard one; recorded in the step's `globals`), note (a remark kept in the vector).
   */
  async call(name, contractName, fn, args = [], opts = {}) {
    const abi = this.abiOf(contractName, fn);
    const calldata = await this.calldata(contractName, fn, args);
    // Long argument lists are not repeated: the calldata holds them.
    const shown = display(args);
    const brief =
      JSON.stringify(shown).length > 400
        ? `(${calldata.length - 1} argument fields: see call.calldata)`
        : shown;
    return this.push(name, contractName, calldata, {
      ...opts,
      isStaticCall: opts.isStaticCall ?? abi.isStatic ?? false,
      fn,
      args: brief,
    });
  }

  /** Calls a contract with raw calldata (hand-made programs). */
  async rawCall(name, contractName, calldata, opts = {}) {
    return this.push(name, contractName, calldata, opts);
  }

  async push(name, contractName, calldata, opts) {
    const w = this.world;
    if (!opts.sameTx || !w.root) w.newTx(opts.timestamp);
    else if ((opts.timestamp ?? w.timestamp) !== w.txGlobals.timestamp)
      throw new Error(`${name}: a step that continues a tx cannot change its timestamp`);
    const c = w.contract(contractName);
    // Timing mode (generate.mjs --timing): a selected call is first repeated on throwaway txs.
    const timed = await this.ctx.timing?.beforeStep(w, name, c.address, calldata, opts);
    const res = await w.run(c.address, calldata, opts);
    const step = { name, tx: w.txIndex, contract: contractName };
    if (opts.fn) step.function = opts.fn;
    if (opts.args) step.args = opts.args;
    // Globals that differ from the file's (the timestamp only, so far): they hold for the whole tx.
    if (w.txGlobals.timestamp !== w.timestamp) step.globals = { timestamp: w.txGlobals.timestamp.toString() };
    step.call = res.call;
    step.expect = res.expect;
    const message = this.errorMessage(res.expect);
    if (message) step.expect.errorMessage = message;
    if (opts.note) step.note = opts.note;
    if (timed) timed.recorded(this.steps.length, step);
    this.steps.push(step);
    return { step, res, expect: res.expect };
  }

  /** The assertion message an explicit revert's error selector stands for, from the artifacts' error types. */
  errorMessage(expect) {
    if (!expect.reverted || expect.output.length === 0) return undefined;
    const key = BigInt(expect.output[0]).toString();
    for (const c of this.world.byName.values()) {
      for (const fn of c.artifact?.functions ?? []) {
        const t = fn.errorTypes?.[key];
        if (t?.error_kind === 'string') return t.string;
      }
    }
    return undefined;
  }

  doc(extra) {
    const w = this.world;
    const preState = Object.fromEntries(Object.entries(w.preState).filter(([, v]) => v.length));
    return {
      ...extra,
      globals: w.globalsRecord,
      firstNullifier: w.firstNullifier.toString(),
      contracts: w.contracts,
      ...(Object.keys(preState).length ? { preState } : {}),
      steps: this.steps,
    };
  }
}

/** Throws when a step did not come out as the generator's author expected (sanity checks). */
export function check(cond, message) {
  if (!cond) throw new Error(`sanity check failed: ${message}`);
}

/** A step that must have succeeded (named `what` in the message); returns it. */
export function succeeded(s, what = s.step.name) {
  check(!s.expect.reverted, `${what} should succeed: ${s.expect.revertReason}`);
  return s;
}

/** A step that must have reverted (named `what` in the message); returns it. */
export function reverted(s, what = s.step.name) {
  check(s.expect.reverted, `${what} should revert`);
  return s;
}

export function ref([pkg, file]) {
  return { package: pkg, file };
}
