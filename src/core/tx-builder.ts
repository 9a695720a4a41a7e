// Builds well-formed txs for development and tests, in the reference's model (src/core/kernel/):
// the caller names the side effects and public calls it wants, the builder lays out the kernel
// tail's output a private kernel would have proved — the protocol nullifier, calldata hashes, the
// private gas used, gas limits that cover it, the 4.1.2 roots — so the node accepts the tx. The
// private parts are fabricated (no private function ran and the proof is a dev proof): this is a
// dev tool, not a wallet.
import { randomBytes } from 'node:crypto';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS } from './block.js';
import type { BlockHeader, GasFees } from './block-header.js';
import { FEE_JUICE_CLAIM, PROTOCOL_CONTRACT_ADDRESSES } from './constants.js';
import {
  type ContractClassPublic,
  type ContractInstance,
  classPublishedLogFields,
  instancePublishedLogFields,
  siloNullifier,
} from './contracts.js';
import { bytesToFr, FR_MODULUS, type Fr } from './field.js';
import { functionSelector } from './hash/selector.js';
import { CHONK_PROOF_LENGTH, PROTOCOL_CONTRACTS_HASH, VK_TREE_ROOT } from './kernel/constants.js';
import {
  emptyGas,
  emptyTailForPublic,
  emptyTailForRollup,
  type PrivateKernelTailCircuitPublicInputs,
  type TxConstantData,
} from './kernel/public-inputs.js';
import type {
  PrivateToPublicAccumulatedData,
  PrivateToRollupAccumulatedData,
} from './kernel/side-effects.js';
import { computeTxHash } from './kernel/tx-hash.js';
import { calldataHash, contractClassLogHash, DA_GAS_PER_FIELD, type Gas, type Tx } from './tx.js';
import {
  computePrivateGasUsed,
  emptySideEffects,
  type PublicCallRequest,
  type TxL2ToL1Message,
  type TxSideEffects,
} from './tx-view.js';

/** A public call to make: by signature (`balance_of_public((Field))`) or selector. */
export interface PublicCallSpec {
  /** Setup (non-revertible), app logic (revertible, the default) or teardown. */
  phase?: 'setup' | 'app' | 'teardown';
  contractAddress: Fr;
  signature?: string;
  selector?: number;
  args?: Fr[];
  /** Defaults to the fee payer. */
  msgSender?: Fr;
  isStaticCall?: boolean;
}

/** Side effects of one part of a tx, as the caller gives them. */
export interface SideEffectsSpec {
  noteHashes?: Fr[];
  nullifiers?: Fr[];
  /** Fields of each private log (at most 16; the first is the siloed tag). */
  privateLogs?: Fr[][];
  l2ToL1Msgs?: TxL2ToL1Message[];
  /** Contract class logs: emitting contract and fields (at most 3023). */
  contractClassLogs?: { contractAddress: Fr; fields: Fr[] }[];
}

export interface TxSpec extends SideEffectsSpec {
  feePayer: Fr;
  /** The header of the block the tx is built on (for example the latest block). */
  anchorBlockHeader: BlockHeader;
  chainId: number;
  version: number;
  /** Unix seconds; the tx is valid in blocks up to this timestamp. */
  expirationTimestamp: bigint;
  maxFeesPerGas: GasFees;
  maxPriorityFeesPerGas?: GasFees;
  /** Defaults to the private gas plus an allowance per public call. */
  gasLimits?: Gas;
  teardownGasLimits?: Gas;
  /** The tx's first nullifier; random by default, which makes every built tx distinct. */
  protocolNullifier?: Fr;
  /** Side effects that stay even if app logic reverts (the protocol nullifier is always here). */
  nonRevertible?: SideEffectsSpec;
  publicCalls?: PublicCallSpec[];
  /** Publishes a class through the class registry: its log and nullifier (one class per tx). */
  publishClass?: ContractClassPublic;
  /** Publishes instances through the instance registry: a log and a nullifier each. */
  publishInstances?: ContractInstance[];
  /** Schedules class updates: each contract moves to its new class after the network's delay. */
  classUpdates?: { address: Fr; newClassId: Fr }[];
  /** The protocol's roots the tx claims; default 4.1.2's (what the node requires). */
  vkTreeRoot?: Fr;
  protocolContractsHash?: Fr;
  /**
   * CHONK_PROOF_LENGTH fields as 32-byte words; defaults to devProof() (the dev verifier accepts
   * any proof that is not all zeros).
   */
  proof?: Uint8Array;
}

/**
 * Gas a public call may use unless the spec sets limits: room for the protocol contracts' calls
 * (the instance registry's update, the costliest, uses 291,500 L2 gas on the AVM, and its four
 * writes and five-field log 480 DA gas) with a margin: a few writes and a public log of up to 16
 * fields in DA gas (the log's fields plus its address and length).
 */
export const PUBLIC_CALL_GAS_ALLOWANCE: Gas = {
  daGas: (4 * 2 + 16 + 2) * DA_GAS_PER_FIELD,
  l2Gas: 400_000,
};

/** A proof the dev verifier accepts: full length, first word 1, the rest zero. */
export function devProof(): Uint8Array {
  const proof = new Uint8Array(CHONK_PROOF_LENGTH * 32);
  proof[31] = 1;
  return proof;
}

/** A random field element (for nullifiers). */
export const randomFr = (): Fr => bytesToFr(randomBytes(32)) % FR_MODULUS;

function nonZero(values: readonly Fr[], what: string): Fr[] {
  if (values.some((v) => v === 0n)) throw new RangeError(`a ${what} of a tx cannot be zero (an empty slot)`);
  return [...values];
}

function part(spec: SideEffectsSpec | undefined, classLogs: { fields: Fr[] }[]): TxSideEffects {
  const out = emptySideEffects();
  if (!spec) return out;
  // A zero note hash or nullifier, or a log that emits nothing, is an empty slot in the kernel's
  // arrays: the tx would not carry it, so asking for one is a mistake.
  out.noteHashes = nonZero(spec.noteHashes ?? [], 'note hash');
  out.nullifiers = nonZero(spec.nullifiers ?? [], 'nullifier');
  out.l2ToL1Msgs = (spec.l2ToL1Msgs ?? []).map((m) => ({ ...m, recipient: m.recipient.toLowerCase() }));
  out.privateLogs = (spec.privateLogs ?? []).map((fields) => {
    if (fields.length > PRIVATE_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`a private log has at most ${PRIVATE_LOG_SIZE_IN_FIELDS} fields`);
    }
    if (fields.length === 0) throw new RangeError('a private log emits at least one field');
    const padded = [...fields];
    while (padded.length < PRIVATE_LOG_SIZE_IN_FIELDS) padded.push(0n);
    return { fields: padded, emittedLength: fields.length };
  });
  out.contractClassLogsHashes = (spec.contractClassLogs ?? []).map((log) => {
    if (log.fields.length > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`a contract class log has at most ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} fields`);
    }
    const padded = [...log.fields];
    while (padded.length < CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) padded.push(0n);
    classLogs.push({ fields: padded });
    return {
      contractAddress: log.contractAddress,
      hash: contractClassLogHash(padded),
      length: log.fields.length,
    };
  });
  return out;
}

/**
 * The registries' side effects of contract publications, as their private functions would emit
 * them: the class log and the class id nullifier; per instance, its log and its address nullifier.
 */
function publications(spec: TxSpec): SideEffectsSpec {
  const out: Required<Pick<SideEffectsSpec, 'nullifiers' | 'privateLogs' | 'contractClassLogs'>> = {
    nullifiers: [],
    privateLogs: [],
    contractClassLogs: [],
  };
  if (spec.publishClass) {
    out.nullifiers.push(siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.classRegistry, spec.publishClass.id));
    out.contractClassLogs.push({
      contractAddress: PROTOCOL_CONTRACT_ADDRESSES.classRegistry,
      fields: classPublishedLogFields(spec.publishClass),
    });
  }
  for (const instance of spec.publishInstances ?? []) {
    out.nullifiers.push(siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, instance.address));
    out.privateLogs.push(instancePublishedLogFields(instance));
  }
  return out;
}

/** The instance registry call that schedules a contract's class update (sent as the contract). */
export function classUpdateCall(address: Fr, newClassId: Fr): PublicCallSpec {
  return {
    contractAddress: PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry,
    signature: 'update((Field))',
    args: [newClassId],
    msgSender: address,
  };
}

/**
 * The setup call that claims Fee Juice deposited through the L1 portal for `to` (the deposit's
 * recipient, amount, the secret behind its secret hash, and the message's leaf index). In setup,
 * the claimed juice can pay the tx's own fee.
 */
export function feeJuiceClaimCall(claim: {
  to: Fr;
  amount: bigint;
  secret: Fr;
  leafIndex: bigint;
}): PublicCallSpec {
  return {
    phase: 'setup',
    contractAddress: PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
    signature: FEE_JUICE_CLAIM.signature,
    args: [claim.to, claim.amount, claim.secret, claim.leafIndex],
  };
}

/** Builds a tx and its hash. */
export function buildTx(spec: TxSpec): { tx: Tx; hash: Fr } {
  const classLogs: { fields: Fr[] }[] = [];
  const nonRevertible = part(spec.nonRevertible, classLogs);
  nonRevertible.nullifiers.unshift(spec.protocolNullifier ?? randomFr());
  const published = publications(spec);
  const revertible = part(
    {
      ...spec,
      nullifiers: [...(spec.nullifiers ?? []), ...published.nullifiers!],
      privateLogs: [...(spec.privateLogs ?? []), ...published.privateLogs!],
      contractClassLogs: [...(spec.contractClassLogs ?? []), ...published.contractClassLogs!],
    },
    classLogs,
  );
  const publicCalls = [
    ...(spec.publicCalls ?? []),
    ...(spec.classUpdates ?? []).map((u) => classUpdateCall(u.address, u.newClassId)),
  ];

  const calldata: Record<'setup' | 'app' | 'teardown', { values: Fr[]; hash: Fr }[]> = {
    setup: [],
    app: [],
    teardown: [],
  };
  let teardown: PublicCallRequest | null = null;
  for (const call of publicCalls) {
    const selector =
      call.selector ?? (call.signature !== undefined ? functionSelector(call.signature) : undefined);
    if (selector === undefined) throw new TypeError('a public call needs a signature or a selector');
    const values = [BigInt(selector), ...(call.args ?? [])];
    const hash = calldataHash(values);
    const request: PublicCallRequest = {
      msgSender: call.msgSender ?? spec.feePayer,
      contractAddress: call.contractAddress,
      isStaticCall: call.isStaticCall ?? false,
      calldataHash: hash,
    };
    const phase = call.phase ?? 'app';
    if (phase === 'teardown') {
      if (teardown) throw new RangeError('a tx has at most one teardown call');
      teardown = request;
    } else {
      (phase === 'setup' ? nonRevertible : revertible).publicCallRequests.push(request);
    }
    calldata[phase].push({ values, hash });
  }

  const parts = [nonRevertible, revertible];
  const withPublicCalls = publicCalls.length > 0;
  const gasUsed = computePrivateGasUsed(parts, withPublicCalls);
  const teardownGasLimits =
    spec.teardownGasLimits ?? (teardown ? { ...PUBLIC_CALL_GAS_ALLOWANCE } : emptyGas());
  const calls = nonRevertible.publicCallRequests.length + revertible.publicCallRequests.length;
  const gasLimits = spec.gasLimits ?? {
    daGas: gasUsed.daGas + calls * PUBLIC_CALL_GAS_ALLOWANCE.daGas + teardownGasLimits.daGas,
    l2Gas: gasUsed.l2Gas + calls * PUBLIC_CALL_GAS_ALLOWANCE.l2Gas + teardownGasLimits.l2Gas,
  };
  const constants: TxConstantData = {
    anchorBlockHeader: spec.anchorBlockHeader,
    txContext: {
      chainId: BigInt(spec.chainId),
      version: BigInt(spec.version),
      gasSettings: {
        gasLimits,
        teardownGasLimits,
        maxFeesPerGas: { ...spec.maxFeesPerGas },
        maxPriorityFeesPerGas: { ...(spec.maxPriorityFeesPerGas ?? { feePerDaGas: 0n, feePerL2Gas: 0n }) },
      },
    },
    vkTreeRoot: spec.vkTreeRoot ?? VK_TREE_ROOT,
    protocolContractsHash: spec.protocolContractsHash ?? PROTOCOL_CONTRACTS_HASH,
  };
  const common = {
    constants,
    gasUsed,
    feePayer: spec.feePayer,
    expirationTimestamp: spec.expirationTimestamp,
  };
  let data: PrivateKernelTailCircuitPublicInputs;
  if (withPublicCalls) {
    const tail = emptyTailForPublic();
    fillPart(tail.forPublic.nonRevertibleAccumulatedData, nonRevertible);
    fillPart(tail.forPublic.revertibleAccumulatedData, revertible);
    if (teardown) tail.forPublic.publicTeardownCallRequest = teardown;
    data = { ...tail, ...common };
  } else {
    // A private-only tx cannot revert: its side effects are one list, non-revertible ones first.
    const tail = emptyTailForRollup();
    const all = emptySideEffects();
    for (const p of parts) {
      for (const key of Object.keys(all) as (keyof TxSideEffects)[]) (all[key] as unknown[]).push(...p[key]);
    }
    fillPart(tail.forRollup.end, all);
    data = { ...tail, ...common };
  }
  if (spec.proof !== undefined && spec.proof.length !== CHONK_PROOF_LENGTH * 32) {
    throw new RangeError(`a proof is ${CHONK_PROOF_LENGTH} fields (${CHONK_PROOF_LENGTH * 32} bytes)`);
  }
  const tx: Tx = {
    data,
    chonkProof: spec.proof ?? devProof(),
    contractClassLogFields: classLogs,
    publicFunctionCalldata: [...calldata.setup, ...calldata.app, ...calldata.teardown],
  };
  return { tx, hash: computeTxHash(data) };
}

/** Writes a part's side effects into the kernel output's fixed-width arrays (padding stays empty). */
function fillPart(
  out: PrivateToRollupAccumulatedData | PrivateToPublicAccumulatedData,
  part: TxSideEffects,
): void {
  const put = <T>(slots: T[], items: readonly T[], what: string): void => {
    if (items.length > slots.length) {
      throw new RangeError(`a tx part has at most ${slots.length} ${what}, got ${items.length}`);
    }
    items.forEach((item, i) => {
      slots[i] = item;
    });
  };
  put(out.noteHashes, part.noteHashes, 'note hashes');
  put(out.nullifiers, part.nullifiers, 'nullifiers');
  put(
    out.l2ToL1Msgs,
    part.l2ToL1Msgs.map((m) => ({
      message: { recipient: m.recipient.toLowerCase(), content: m.content },
      contractAddress: m.sender,
    })),
    'L2-to-L1 messages',
  );
  put(out.privateLogs, part.privateLogs, 'private logs');
  put(
    out.contractClassLogsHashes,
    part.contractClassLogsHashes.map((h) => ({
      logHash: { value: h.hash, length: h.length },
      contractAddress: h.contractAddress,
    })),
    'contract class logs',
  );
  if ('publicCallRequests' in out) put(out.publicCallRequests, part.publicCallRequests, 'public calls');
}
