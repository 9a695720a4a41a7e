// A tx in the reference's model (4.1.2): the private kernel tail's public inputs (`data`), the
// proof of them, and what `data` commits to by hash only — the fields of each contract class log
// and the calldata of each public call. Its hash is computed from `data` alone (tx-hash.ts).

import type { Fr } from '../field.js';
import type { PrivateKernelTailCircuitPublicInputs } from './public-inputs.js';
import { computeTxHash } from './tx-hash.js';

/** A contract class log's fields: always CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, zero padded. */
export interface ContractClassLogFields {
  fields: Fr[];
}

/** A public call's calldata (selector first) and its hash, which a call request names. */
export interface HashedValues {
  values: Fr[];
  hash: Fr;
}

/** What a client sends; the tx hash follows from it. */
export interface TxBody {
  data: PrivateKernelTailCircuitPublicInputs;
  /**
   * The ChonkProof's CHONK_PROOF_LENGTH fields as 32-byte big-endian words, each below the
   * modulus. Kept as bytes: only a verifier reads them, and it reads bytes.
   */
  chonkProof: Uint8Array;
  /** One per non-empty class log hash in `data`, in the same order. */
  contractClassLogFields: ContractClassLogFields[];
  /** One per public call, looked up by its calldata hash. */
  publicFunctionCalldata: HashedValues[];
}

export interface Tx extends TxBody {
  txHash: Fr;
}

/** The tx with its hash computed from its data (the reference's `Tx.create`). */
export function withTxHash(body: TxBody): Tx {
  return { txHash: computeTxHash(body.data), ...body };
}
