// Contracts from artifacts, for scripts, tests and `cairn contract`: load an artifact, deploy it
// (publish its class if the node lacks it, publish the instance, run its public initializer),
// call and simulate its public functions with ABI-encoded arguments and decoded results, read its
// storage variables, and wait for receipts. Gas limits come from a simulation of the tx, with a
// margin, unless the caller gives them.
import { readFileSync } from 'node:fs';
import type { AbiValue } from '../core/abi.js';
import {
  type ArtifactFunction,
  type ContractArtifact,
  contractClassOf,
  decodeReturn,
  findFunction,
  InvalidArtifactError,
  parseArtifact,
  publicCalldata,
  revertMessage,
} from '../core/artifact.js';
import { authwitInnerHash, authwitMessageHash } from '../core/authwit.js';
import { AUTH_REGISTRY_ADDRESS } from '../core/constants.js';
import {
  type ContractClassPublic,
  type ContractInstance,
  initializationHash,
  makeContractInstance,
} from '../core/contracts.js';
import { type Fr, toHex32 } from '../core/field.js';
import { MAX_PROCESSABLE_L2_GAS } from '../core/tx.js';
import type { PublicCallSpec } from '../core/tx-builder.js';
import { mapStorageSlot } from '../execution/public-storage.js';
import type { MethodResult } from './methods/index.js';
import { type NodeClient, type PreparedTxSpec, prepareTx } from './node-client.js';

/** Reads and checks an artifact file; errors name the file. */
export function loadArtifact(path: string): ContractArtifact {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InvalidArtifactError(
      `cannot read artifact ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InvalidArtifactError(`artifact ${path} is not JSON: ${(err as Error).message}`);
  }
  try {
    return parseArtifact(json);
  } catch (err) {
    throw new InvalidArtifactError(`artifact ${path}: ${(err as Error).message}`);
  }
}

/** Addresses up to this one are the protocol's (as the AVM treats them). */
const MAX_PROTOCOL_CONTRACT_ADDRESS = 11n;

/** Gas limits a tx may ask for when it is simulated to measure what it uses. */
const SIMULATION_GAS = { l2Gas: MAX_PROCESSABLE_L2_GAS, daGas: 786_432 };
/** What a measured gas use is padded by: state can change between simulation and inclusion. */
export const GAS_MARGIN = 0.1;

/** What svc_simulatePublicCalls answers, as its declaration types it. */
export type SimulationResult = MethodResult<'svc_simulatePublicCalls'>;
interface Gas {
  l2Gas: number;
  daGas: number;
}

/** Runs a tx (built from `spec`) with svc_simulatePublicCalls: nothing is sent. */
export async function simulateTx(client: NodeClient, spec: PreparedTxSpec): Promise<SimulationResult> {
  // A teardown call gets half of the room (its limit is set aside from the total).
  const teardown = (spec.publicCalls ?? []).some((c) => c.phase === 'teardown')
    ? { teardownGasLimits: { l2Gas: SIMULATION_GAS.l2Gas / 2, daGas: SIMULATION_GAS.daGas / 2 } }
    : {};
  const { wire } = await prepareTx(client, { gasLimits: SIMULATION_GAS, ...teardown, ...spec });
  return client.request('svc_simulatePublicCalls', wire, true);
}

/** A tx's gas limits: in all, and the part set aside for its teardown call. */
export interface GasLimits {
  gasLimits: Gas;
  teardownGasLimits?: Gas;
}

/**
 * Gas limits for a tx: what a simulation of it uses, plus GAS_MARGIN — the teardown call's share
 * set aside as its own limit. A simulation that reverts is an error (the tx would revert too),
 * with the contract's message when the artifact has it.
 */
export async function estimateGas(
  client: NodeClient,
  spec: PreparedTxSpec,
  artifact?: ContractArtifact,
): Promise<GasLimits> {
  const sim = await simulateTx(client, spec);
  if (sim.revertReason !== undefined)
    throw new ContractRevertError(sim.revertReason, sim.revertData, artifact);
  const pad = (n: number) => Math.ceil(n * (1 + GAS_MARGIN));
  const { totalGas, teardownGas } = sim.gasUsed;
  const hasTeardown = (spec.publicCalls ?? []).some((c) => c.phase === 'teardown');
  const teardown = hasTeardown ? { l2Gas: pad(teardownGas.l2Gas), daGas: pad(teardownGas.daGas) } : undefined;
  const total = (k: keyof Gas) =>
    Math.min(pad(totalGas[k] - (teardown ? teardownGas[k] : 0)) + (teardown?.[k] ?? 0), SIMULATION_GAS[k]);
  return {
    gasLimits: { l2Gas: total('l2Gas'), daGas: total('daGas') },
    ...(teardown ? { teardownGasLimits: teardown } : {}),
  };
}

/** A call or tx that reverted; `message` leads with the contract's own reason when known. */
export class ContractRevertError extends Error {
  readonly reason: string;
  readonly revertData: readonly Fr[];
  constructor(reason: string, revertData: readonly string[] | undefined, artifact?: ContractArtifact) {
    const data = (revertData ?? revertDataOf(reason)).map((d) => BigInt(d));
    const decoded = artifact === undefined ? undefined : revertMessage(artifact, data);
    super(decoded === undefined ? reason : `${decoded} (${reason})`);
    this.name = 'ContractRevertError';
    this.reason = decoded ?? reason;
    this.revertData = data;
  }
}

/** The revert data a receipt's error carries: `… (revert data 0x…, 0x…)`. */
export function revertDataOf(error: string): string[] {
  const m = /\(revert data ((?:0x[0-9a-fA-F]+(?:, )?)*)\)\s*$/.exec(error);
  return m === null || m[1] === '' ? [] : m[1]!.split(', ');
}

/** The decoded reason of a receipt's error, from the artifact's error types when it names one. */
export function decodeRevertReason(error: string, artifact: ContractArtifact): string {
  const message = revertMessage(
    artifact,
    revertDataOf(error).map((d) => BigInt(d)),
  );
  return message ?? error;
}

/** What svc_getTxReceipt answers, as its declaration types it. */
export type Receipt = MethodResult<'svc_getTxReceipt'>;
/** A receipt of a tx no longer pending: in a block, or dropped. */
export type SettledReceipt = Exclude<Receipt, { status: 'pending' }>;

/** Polls until the tx is in a block (or dropped); gives up after `timeoutMs`. */
export async function waitForReceipt(
  client: NodeClient,
  hash: string,
  timeoutMs = 120_000,
): Promise<SettledReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await client.request('svc_getTxReceipt', hash);
    if (receipt.status !== 'pending') return receipt;
    if (Date.now() > deadline)
      throw new Error(`tx ${hash} is still pending after ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A public call to `fn` of the contract at `address` with ABI-encoded `args`. */
export function publicCall(
  address: Fr,
  fn: ArtifactFunction,
  args: readonly AbiValue[],
  options: { msgSender?: Fr; isStaticCall?: boolean } = {},
): PublicCallSpec {
  if (fn.kind !== 'public')
    throw new InvalidArtifactError(
      `${fn.name} is a ${fn.kind} function: only public functions run on a cairn node`,
    );
  const [selector, ...encoded] = publicCalldata(fn, args);
  return {
    contractAddress: address,
    selector: Number(selector),
    args: encoded,
    ...(options.msgSender === undefined ? {} : { msgSender: options.msgSender }),
    ...(options.isStaticCall ? { isStaticCall: true } : {}),
  };
}

export interface SendOptions {
  /** The account paying the fee; also the calls' msg.sender unless a call names its own. */
  from: Fr;
  /** Gas limits; by default measured by a simulation, plus GAS_MARGIN. */
  gasLimits?: Gas;
}

/** Builds and sends a tx; resolves to its hash and the gas limits it was given. */
export async function sendTx(
  client: NodeClient,
  spec: Omit<PreparedTxSpec, 'feePayer' | 'gasLimits'>,
  options: SendOptions,
  artifact?: ContractArtifact,
): Promise<{ hash: string; gasLimits: Gas }> {
  const full: PreparedTxSpec = { ...spec, feePayer: options.from };
  const limits: GasLimits = options.gasLimits
    ? { gasLimits: options.gasLimits }
    : await estimateGas(client, full, artifact);
  const { hash, wire } = await prepareTx(client, { ...full, ...limits });
  await client.request('svc_sendTx', wire);
  return { hash, gasLimits: limits.gasLimits };
}

export interface DeployOptions extends SendOptions {
  artifact: ContractArtifact;
  /** Arguments of the initializer (default: none). */
  args?: readonly AbiValue[];
  /** The initializer to use (default: the artifact's only public initializer, if any). */
  initializer?: string;
  salt?: Fr;
  /** Who may deploy the instance: 0 (the default) lets anyone. */
  deployer?: Fr;
  /** Publish without running the initializer (it can be called later). */
  skipInitialization?: boolean;
}

export interface Deployment extends DeploymentParts {
  classId: Fr;
  /** Whether this deployment publishes the class (the node did not have it). */
  publishesClass: boolean;
}

/** The initializer a deployment runs: the named one, or the artifact's only public one. */
function initializerOf(artifact: ContractArtifact, name: string | undefined): ArtifactFunction | undefined {
  if (name !== undefined) {
    const fn = findFunction(artifact, name);
    if (!fn.isInitializer) throw new InvalidArtifactError(`${artifact.name}.${name} is not an initializer`);
    if (fn.kind !== 'public')
      throw new InvalidArtifactError(
        `${artifact.name}.${name} is a ${fn.kind} initializer: cairn runs public ones only`,
      );
    return fn;
  }
  const initializers = artifact.functions.filter((f) => f.isInitializer);
  if (initializers.length === 0) return undefined;
  const publicOnes = initializers.filter((f) => f.kind === 'public');
  if (publicOnes.length === 1 && initializers.length === 1) return publicOnes[0];
  throw new InvalidArtifactError(
    `${artifact.name} has initializers ${initializers.map((f) => `${f.name} (${f.kind})`).join(', ')}: name the public one to use`,
  );
}

/** What a deployment publishes and runs, derived from the artifact alone. */
export interface DeploymentParts {
  address: Fr;
  contractClass: ContractClassPublic;
  instance: ContractInstance;
  initializer: ArtifactFunction | undefined;
  /** The call to the public initializer with the arguments (undefined without an initializer). */
  initializerCall: PublicCallSpec | undefined;
}

/**
 * The class (with the reference's id), the instance (its initialization hash committing to the
 * initializer and its arguments) and the initializer call of a deployment.
 */
export function deploymentOf(
  artifact: ContractArtifact,
  o: { args?: readonly AbiValue[]; initializer?: string; salt?: Fr; deployer?: Fr } = {},
): DeploymentParts {
  const contractClass = contractClassOf(artifact);
  const initializer = initializerOf(artifact, o.initializer);
  const args = o.args ?? [];
  if (initializer === undefined && args.length > 0)
    throw new InvalidArtifactError(`${artifact.name} has no initializer to take arguments`);
  const encoded = initializer === undefined ? [] : publicCalldata(initializer, args).slice(1);
  const instance = makeContractInstance({
    classId: contractClass.id,
    salt: o.salt ?? 0n,
    deployer: o.deployer ?? 0n,
    initializationHash: initializer === undefined ? 0n : initializationHash(initializer.selector, encoded),
  });
  return {
    address: instance.address,
    contractClass,
    instance,
    initializer,
    initializerCall: initializer === undefined ? undefined : publicCall(instance.address, initializer, args),
  };
}

/** What deploying would publish, and where the contract would be; nothing is sent. */
export async function planDeployment(client: NodeClient, o: DeployOptions): Promise<Deployment> {
  const parts = deploymentOf(o.artifact, o);
  const known = await client.request('svc_getContractClass', toHex32(parts.contractClass.id));
  return { ...parts, classId: parts.contractClass.id, publishesClass: known === null };
}

/**
 * Deploys a contract in one tx: its class (if the node lacks it), its instance, and a call to its
 * public initializer (public execution sees the tx's own publications).
 */
export async function deployContract(
  client: NodeClient,
  o: DeployOptions,
): Promise<Deployment & { hash: string; gasLimits: Gas }> {
  const plan = await planDeployment(client, o);
  const existing = await client.request('svc_getContract', toHex32(plan.address));
  if (existing !== null)
    throw new Error(`a contract is already published at ${toHex32(plan.address)} (choose another --salt)`);
  const calls = plan.initializerCall === undefined || o.skipInitialization ? [] : [plan.initializerCall];
  const sent = await sendTx(
    client,
    {
      ...(plan.publishesClass ? { publishClass: plan.contractClass } : {}),
      publishInstances: [plan.instance],
      publicCalls: calls,
    },
    o,
    o.artifact,
  );
  return { ...plan, ...sent };
}

/**
 * Checks that a contract is published at `address` with the artifact's class: a clear error for
 * an address the node does not know, or an artifact that is not the contract's.
 */
export async function checkContract(
  client: NodeClient,
  address: Fr,
  artifact: ContractArtifact,
): Promise<void> {
  // The protocol contracts sit at small fixed addresses without a published instance.
  if (address <= MAX_PROTOCOL_CONTRACT_ADDRESS) return;
  const contract = await client.request('svc_getContract', toHex32(address));
  if (contract === null) throw new Error(`no contract is published at ${toHex32(address)} on this node`);
  const classId = contractClassOf(artifact).id;
  if (BigInt(contract.currentContractClassId) !== classId) {
    throw new Error(
      `the contract at ${toHex32(address)} is of class ${contract.currentContractClassId}, not ${artifact.name}'s ${toHex32(classId)} (another --artifact?)`,
    );
  }
}

/** Reads a public function's result without a tx: a static call when the function is a view. */
export async function simulateCall(
  client: NodeClient,
  o: { artifact: ContractArtifact; address: Fr; fn: string; args: readonly AbiValue[]; from: Fr },
): Promise<{ value: AbiValue | undefined; fields: Fr[]; gasUsed: Gas }> {
  const fn = findFunction(o.artifact, o.fn);
  const call = publicCall(o.address, fn, o.args, { isStaticCall: fn.isStatic });
  const sim = await simulateTx(client, { feePayer: o.from, publicCalls: [call] });
  if (sim.revertReason !== undefined)
    throw new ContractRevertError(sim.revertReason, sim.revertData, o.artifact);
  const fields = (sim.publicReturnValues[0]?.values ?? []).map((v) => BigInt(v));
  return { value: decodeReturn(fn, fields), fields, gasUsed: sim.gasUsed.publicGas };
}

/**
 * The slot of a storage variable, or of a map entry under it: each key hashes the slot one
 * level down (`poseidon2([slot, key], 4015149901)`), as the contract's own map accesses do.
 */
export function storageSlot(artifact: ContractArtifact, variable: string, keys: readonly Fr[] = []): Fr {
  const base = artifact.storage.get(variable);
  if (base === undefined) {
    throw new InvalidArtifactError(
      `${artifact.name} has no storage variable ${variable}; it has: ${[...artifact.storage.keys()].join(', ')}`,
    );
  }
  return keys.reduce((slot, key) => mapStorageSlot(slot, key), base);
}

/** AuthRegistry.set_authorized(message_hash, authorize): a public function of the protocol's registry. */
const SET_AUTHORIZED = 'set_authorized(Field,bool)';

/**
 * The authwit message hash that lets `caller` make exactly this call to `fn` of the contract at
 * `address` on behalf of the account that authorizes it (see core/authwit.ts).
 */
export async function authwitFor(
  client: NodeClient,
  o: { address: Fr; fn: ArtifactFunction; args: readonly AbiValue[]; caller: Fr },
): Promise<Fr> {
  const info = await client.request('svc_getNodeInfo');
  const [selector, ...encoded] = publicCalldata(o.fn, o.args);
  const inner = authwitInnerHash(o.caller, Number(selector), encoded);
  return authwitMessageHash(o.address, BigInt(info.l1ChainId), BigInt(info.rollupVersion), inner);
}

/**
 * Sends the owner's tx that records an authwit in the AuthRegistry (address 1): afterwards the
 * caller may make the call once (the contract spends it through AuthRegistry.consume).
 */
export async function authorizePublicCall(
  client: NodeClient,
  o: { owner: Fr; address: Fr; fn: ArtifactFunction; args: readonly AbiValue[]; caller: Fr; gasLimits?: Gas },
): Promise<{ hash: string; messageHash: Fr; gasLimits: Gas }> {
  const messageHash = await authwitFor(client, o);
  const sent = await sendTx(
    client,
    {
      publicCalls: [
        {
          contractAddress: AUTH_REGISTRY_ADDRESS,
          signature: SET_AUTHORIZED,
          args: [messageHash, 1n],
        },
      ],
    },
    { from: o.owner, ...(o.gasLimits ? { gasLimits: o.gasLimits } : {}) },
  );
  return { ...sent, messageHash };
}
