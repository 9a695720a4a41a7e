// L1-to-L2 messages (docs/messages.md, "L1 to L2"): the leaf the inbox computes for a message, the secret
// hash that lets a recipient consume it, the nullifier that consumption emits, and the content of
// a Fee Juice deposit made through the portal.
import { siloNullifier } from './contracts.js';
import { type Fr, toBytes32 } from './field.js';
import { keccak256 } from './hash/keccak.js';
import { poseidon2HashWithSeparator } from './hash/poseidon2.js';
import { sha256ToField } from './hash/sha256.js';

export const SECRET_HASH_SEPARATOR = 4_199_652_938;
export const MESSAGE_NULLIFIER_SEPARATOR = 3_754_509_616;

/** The hash a message sender commits to; the secret behind it consumes the message. */
export const computeSecretHash = (secret: Fr): Fr =>
  poseidon2HashWithSeparator([secret], SECRET_HASH_SEPARATOR);

export interface L1ToL2Message {
  /** The L1 sender (0x + 40 hex). */
  sender: string;
  chainId: bigint;
  /** The L2 recipient contract. */
  recipient: Fr;
  rollupVersion: bigint;
  content: Fr;
  secretHash: Fr;
  /** The message's global leaf index in the L1-to-L2 tree. */
  index: bigint;
}

/** The message's leaf, as the inbox computes it: sha256ToField of the seven 32-byte words. */
export function l1ToL2MessageHash(m: L1ToL2Message): Fr {
  return sha256ToField([
    BigInt(m.sender),
    m.chainId,
    m.recipient,
    m.rollupVersion,
    m.content,
    m.secretHash,
    m.index,
  ]);
}

/** The nullifier a contract emits when it consumes a message with its secret (siloed). */
export function l1ToL2MessageNullifier(contract: Fr, messageHash: Fr, secret: Fr): Fr {
  return siloNullifier(
    contract,
    poseidon2HashWithSeparator([messageHash, secret], MESSAGE_NULLIFIER_SEPARATOR),
  );
}

/** The content of a Fee Juice deposit: sha256ToField(abi.encodeWithSignature("claim(bytes32,uint256)", to, amount)). */
export function feeJuiceDepositContent(to: Fr, amount: bigint): Fr {
  const selector = keccak256(new TextEncoder().encode('claim(bytes32,uint256)')).subarray(0, 4);
  return sha256ToField([Buffer.concat([selector, toBytes32(to), toBytes32(amount)])]);
}
