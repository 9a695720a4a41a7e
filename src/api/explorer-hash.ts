// The few hashes the explorer page computes in the browser (docs/explorer.md): Poseidon2 (BN254,
// t = 4) on BigInt, with the round constants of src/core/hash/poseidon2-constants.ts interpolated,
// and from it the storage slot of a map entry, a public-data leaf slot and a siloed nullifier. They
// let the page read a Fee Juice balance (the FeeJuice contract's map of balances), find the txs that
// wrote one, and find the block that published a contract (its registry nullifier) with the node's
// public methods alone.
//
// Plain browser JavaScript in a string, spliced into the page's script (src/api/explorer-script.ts):
// it declares functions in the script's scope and uses no backticks. test/api/explorer-hash.test.ts
// runs it against src/core's Poseidon2.
import { PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { CONTRACT_SEPARATORS } from '../core/contracts.js';
import { FR_MODULUS } from '../core/field.js';
import {
  FULL_ROUND_CONSTANTS,
  HALF_FULL_ROUNDS,
  INTERNAL_DIAGONAL,
  PARTIAL_ROUND_CONSTANTS,
} from '../core/hash/poseidon2-constants.js';
import { FEE_JUICE_BALANCES_SLOT } from '../execution/protocol-contracts.js';
import {
  PUBLIC_LEAF_SLOT_SEPARATOR,
  PUBLIC_STORAGE_MAP_SLOT_SEPARATOR,
} from '../execution/public-storage.js';

const hex = (v: bigint) => `0x${v.toString(16)}`;
const list = (values: readonly bigint[]) => `[${values.map((v) => `'${hex(v)}'`).join(',')}]`;

export const EXPLORER_HASH_SCRIPT = `
  const P2_P = BigInt('${hex(FR_MODULUS)}');
  const P2_HALF = ${HALF_FULL_ROUNDS};
  const P2_FULL = ${list(FULL_ROUND_CONSTANTS.flat())}.map(BigInt);
  const P2_PARTIAL = ${list(PARTIAL_ROUND_CONSTANTS)}.map(BigInt);
  const P2_DIAG = ${list(INTERNAL_DIAGONAL)}.map(BigInt);
  const SEP_SILOED_NULLIFIER = ${CONTRACT_SEPARATORS.siloedNullifier};
  const SEP_LEAF_SLOT = ${PUBLIC_LEAF_SLOT_SEPARATOR};
  const SEP_MAP_SLOT = ${PUBLIC_STORAGE_MAP_SLOT_SEPARATOR};
  const FEE_JUICE = BigInt(${PROTOCOL_CONTRACT_ADDRESSES.feeJuice});
  const FEE_JUICE_BALANCES = BigInt(${FEE_JUICE_BALANCES_SLOT});
  const INSTANCE_REGISTRY = BigInt(${PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry});
  const CLASS_REGISTRY = BigInt(${PROTOCOL_CONTRACT_ADDRESSES.classRegistry});

  function p2pow5(x) {
    const x2 = (x * x) % P2_P;
    return (((x2 * x2) % P2_P) * x) % P2_P;
  }

  /** The Poseidon2 permutation of a 4-element state. */
  function p2permute(input) {
    const s = input.slice();
    const external = () => {
      const a = s[0] + s[1];
      const b = s[2] + s[3];
      const c = 2n * s[1] + b;
      const d = 2n * s[3] + a;
      const e = 4n * b + d;
      const f = 4n * a + c;
      s[0] = (d + f) % P2_P;
      s[1] = f % P2_P;
      s[2] = (c + e) % P2_P;
      s[3] = e % P2_P;
    };
    const full = (r) => {
      for (let i = 0; i < 4; i++) s[i] = p2pow5(s[i] + P2_FULL[4 * r + i]);
      external();
    };
    external();
    for (let r = 0; r < P2_HALF; r++) full(r);
    for (const rc of P2_PARTIAL) {
      s[0] = p2pow5(s[0] + rc);
      const sum = s[0] + s[1] + s[2] + s[3];
      for (let i = 0; i < 4; i++) s[i] = (s[i] * P2_DIAG[i] + sum) % P2_P;
    }
    for (let r = P2_HALF; r < 2 * P2_HALF; r++) full(r);
    return s;
  }

  /** The sponge: capacity inputs.length * 2^64, rate 3, at least one permutation; state[0]. */
  function poseidon2(inputs) {
    let state = [0n, 0n, 0n, BigInt(inputs.length) << 64n];
    let i = 0;
    do {
      for (let k = 0; k < 3 && i < inputs.length; k++, i++) state[k] = (state[k] + inputs[i]) % P2_P;
      state = p2permute(state);
    } while (i < inputs.length);
    return state[0];
  }

  const withSeparator = (inputs, separator) => poseidon2([BigInt(separator)].concat(inputs));
  /** The storage slot of key in a map stored at mapSlot. */
  const mapSlot = (slot, key) => withSeparator([slot, key], SEP_MAP_SLOT);
  /** The public-data tree key of a contract's storage slot. */
  const leafSlot = (contract, slot) => withSeparator([contract, slot], SEP_LEAF_SLOT);
  /** A nullifier bound to the contract that emitted it. */
  const siloedNullifier = (contract, nullifier) => withSeparator([contract, nullifier], SEP_SILOED_NULLIFIER);
  /** 0x and 64 hex digits. */
  const hex32 = (v) => '0x' + v.toString(16).padStart(64, '0');
`;
