// The field form of the kernel inputs a tx hash covers, in the reference's order:
//   PrivateToRollupKernelCircuitPublicInputs (1,281): constants | end | gasUsed | feePayer | expirationTimestamp
//   PrivateToPublicKernelCircuitPublicInputs (2,784): constants | nonRevertible | revertible |
//     publicTeardownCallRequest | gasUsed | feePayer | expirationTimestamp
// with constants (34) = anchor block header (22, blockHeaderToFields) | chainId | version |
// gasLimits, teardownGasLimits (daGas, l2Gas) | maxFeesPerGas, maxPriorityFeesPerGas
// (feePerDaGas, feePerL2Gas) | vkTreeRoot | protocolContractsHash, and every array at its full
// width: a message is recipient (as a field), content, contractAddress; a private log its 16
// fields then emittedLength; a log hash value, length, contractAddress; a call msgSender,
// contractAddress, isStaticCall (0 or 1), calldataHash. Integers become fields as they are.

import { blockHeaderToFields, ethAddressToField } from '../block-header.js';
import type { Fr } from '../field.js';
import { checkWidth } from './bytes.js';
import {
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
  PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
  TX_CONSTANT_DATA_LENGTH,
} from './constants.js';
import type {
  Gas,
  PrivateToPublicKernelCircuitPublicInputs,
  PrivateToRollupKernelCircuitPublicInputs,
  TxConstantData,
} from './public-inputs.js';
import type {
  PrivateToPublicAccumulatedData,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
} from './side-effects.js';

export function txConstantDataToFields(c: TxConstantData): Fr[] {
  const g = c.txContext.gasSettings;
  const out = [
    ...blockHeaderToFields(c.anchorBlockHeader),
    c.txContext.chainId,
    c.txContext.version,
    ...gasFields(g.gasLimits),
    ...gasFields(g.teardownGasLimits),
    g.maxFeesPerGas.feePerDaGas,
    g.maxFeesPerGas.feePerL2Gas,
    g.maxPriorityFeesPerGas.feePerDaGas,
    g.maxPriorityFeesPerGas.feePerL2Gas,
    c.vkTreeRoot,
    c.protocolContractsHash,
  ];
  if (out.length !== TX_CONSTANT_DATA_LENGTH) throw new Error(`tx constant data gave ${out.length} fields`);
  return out;
}

const gasFields = (gas: Gas): Fr[] => [BigInt(gas.daGas), BigInt(gas.l2Gas)];

const callFields = (c: PublicCallRequest): Fr[] => [
  c.msgSender,
  c.contractAddress,
  c.isStaticCall ? 1n : 0n,
  c.calldataHash,
];

// Each array is checked at its width: one too long and another too short would give the right
// count of fields, and a hash of something else.
function pushRollupData(out: Fr[], d: PrivateToRollupAccumulatedData): void {
  checkWidth(d.noteHashes, MAX_NOTE_HASHES_PER_TX, 'noteHashes');
  checkWidth(d.nullifiers, MAX_NULLIFIERS_PER_TX, 'nullifiers');
  checkWidth(d.l2ToL1Msgs, MAX_L2_TO_L1_MSGS_PER_TX, 'l2ToL1Msgs');
  checkWidth(d.privateLogs, MAX_PRIVATE_LOGS_PER_TX, 'privateLogs');
  checkWidth(d.contractClassLogsHashes, MAX_CONTRACT_CLASS_LOGS_PER_TX, 'contractClassLogsHashes');
  for (const h of d.noteHashes) out.push(h);
  for (const n of d.nullifiers) out.push(n);
  for (const m of d.l2ToL1Msgs) {
    out.push(
      ethAddressToField(m.message.recipient, 'l2ToL1Msgs.recipient'),
      m.message.content,
      m.contractAddress,
    );
  }
  for (const log of d.privateLogs) {
    checkWidth(log.fields, PRIVATE_LOG_SIZE_IN_FIELDS, 'privateLogs.fields');
    for (const f of log.fields) out.push(f);
    out.push(BigInt(log.emittedLength));
  }
  for (const h of d.contractClassLogsHashes)
    out.push(h.logHash.value, BigInt(h.logHash.length), h.contractAddress);
}

function pushPublicData(out: Fr[], d: PrivateToPublicAccumulatedData): void {
  pushRollupData(out, d);
  checkWidth(d.publicCallRequests, MAX_ENQUEUED_CALLS_PER_TX, 'publicCallRequests');
  for (const c of d.publicCallRequests) out.push(...callFields(c));
}

/** What follows the side effects in both forms. */
function pushTail(out: Fr[], k: { gasUsed: Gas; feePayer: Fr; expirationTimestamp: bigint }): void {
  out.push(...gasFields(k.gasUsed), k.feePayer, k.expirationTimestamp);
}

function checkLength(out: Fr[], expected: number, what: string): Fr[] {
  if (out.length !== expected)
    throw new RangeError(`${what} gave ${out.length} fields, expected ${expected}`);
  return out;
}

/** The 1,281 fields of a private-only tx's kernel inputs. */
export function rollupKernelInputsToFields(k: PrivateToRollupKernelCircuitPublicInputs): Fr[] {
  const out = txConstantDataToFields(k.constants);
  pushRollupData(out, k.end);
  pushTail(out, k);
  return checkLength(
    out,
    PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
    'PrivateToRollupKernelCircuitPublicInputs',
  );
}

/** The 2,784 fields of the kernel inputs of a tx with public calls. */
export function publicKernelInputsToFields(k: PrivateToPublicKernelCircuitPublicInputs): Fr[] {
  const out = txConstantDataToFields(k.constants);
  pushPublicData(out, k.nonRevertibleAccumulatedData);
  pushPublicData(out, k.revertibleAccumulatedData);
  out.push(...callFields(k.publicTeardownCallRequest));
  pushTail(out, k);
  return checkLength(
    out,
    PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
    'PrivateToPublicKernelCircuitPublicInputs',
  );
}
