// The tx hash: Poseidon2, with a separator that says which kind of tx it is, over the fixed-width
// field form of the kernel inputs (fields.ts). Everything the tail's output holds is covered, so
// the hash commits to the whole of `data`; the proof, the class logs' fields and the calldata are
// bound to it through the hashes `data` holds.

import type { Fr } from '../field.js';
import { poseidon2HashOffThread } from '../hash/hash-worker.js';
import { poseidon2HashWithSeparator } from '../hash/poseidon2.js';
import { PRIVATE_TX_HASH_SEPARATOR, PUBLIC_TX_HASH_SEPARATOR } from './constants.js';
import { publicKernelInputsToFields, rollupKernelInputsToFields } from './fields.js';
import {
  type PrivateKernelTailCircuitPublicInputs,
  type PrivateToPublicKernelCircuitPublicInputs,
  type PrivateToRollupKernelCircuitPublicInputs,
  toPublicKernelInputs,
  toRollupKernelInputs,
} from './public-inputs.js';

/** The reference's `PrivateToRollupKernelCircuitPublicInputs.hash()`. */
export const rollupKernelInputsHash = (k: PrivateToRollupKernelCircuitPublicInputs): Fr =>
  poseidon2HashWithSeparator(rollupKernelInputsToFields(k), PRIVATE_TX_HASH_SEPARATOR);

/** The reference's `PrivateToPublicKernelCircuitPublicInputs.hash()`. */
export const publicKernelInputsHash = (k: PrivateToPublicKernelCircuitPublicInputs): Fr =>
  poseidon2HashWithSeparator(publicKernelInputsToFields(k), PUBLIC_TX_HASH_SEPARATOR);

/** The hash of the tx whose kernel tail output is `data` (the reference's `Tx.computeTxHash`). */
export function computeTxHash(data: PrivateKernelTailCircuitPublicInputs): Fr {
  return data.forPublic !== undefined
    ? publicKernelInputsHash(toPublicKernelInputs(data))
    : rollupKernelInputsHash(toRollupKernelInputs(data));
}

/**
 * computeTxHash on the hash worker, for callers that can wait (admission, gossip): the hash is
 * hundreds of Poseidon2 permutations, milliseconds of work that must not hold the event loop.
 */
export function computeTxHashOffThread(data: PrivateKernelTailCircuitPublicInputs): Promise<Fr> {
  const [separator, fields] =
    data.forPublic !== undefined
      ? [PUBLIC_TX_HASH_SEPARATOR, publicKernelInputsToFields(toPublicKernelInputs(data))]
      : [PRIVATE_TX_HASH_SEPARATOR, rollupKernelInputsToFields(toRollupKernelInputs(data))];
  return poseidon2HashOffThread([BigInt(separator), ...fields]);
}
