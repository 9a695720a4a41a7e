// The committee side of consensus: who sits on an epoch's committee and who proposes a slot
// (both drawn by the rollup contract from its fixed validator set and seed, so they are read
// from L1 once and cached), and the digests validators sign.
//
// Checkpoint attestation digest (the rollup contract checks these signatures):
//   keccak256(abi.encode(keccak256("cairn.checkpoint.attestation.v1"), chainId, rollup,
//                        checkpointNumber, slot, archive, headerHash))
// Block proposal digest (gossip only):
//   keccak256(abi.encode(keccak256("cairn.block.proposal.v1"), chainId, rollup, slot,
//                        indexWithinCheckpoint, blockHash, archive))
// Both are signed as EIP-191 messages ("\x19Ethereum Signed Message:\n32" ‖ digest).
import { type Address, encodeAbiParameters, type Hex, keccak256, recoverMessageAddress, toHex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { toHex32 } from '../core/field.js';
import type { CommitteeL1 } from '../l1/roles.js';

export const ATTESTATION_TYPEHASH = keccak256(toHex('cairn.checkpoint.attestation.v1'));
export const BLOCK_PROPOSAL_TYPEHASH = keccak256(toHex('cairn.block.proposal.v1'));
const hex32 = (v: bigint) => toHex32(v) as Hex;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** The deployment a digest is bound to, so a signature cannot be replayed on another rollup. */
export interface Domain {
  chainId: number;
  rollup: Address;
}

export interface CheckpointPayload {
  checkpointNumber: number;
  slot: number;
  archive: bigint;
  headerHash: bigint;
}

/** keccak256(abi.encode(typehash, chainId, rollup, a, b, c, d)): the layout both digests share. */
function typedDigest(typehash: Hex, domain: Domain, a: number, b: number, c: bigint, d: bigint): Hex {
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
      ],
      [typehash, BigInt(domain.chainId), domain.rollup, BigInt(a), BigInt(b), hex32(c), hex32(d)],
    ),
  );
}

export function attestationDigest(domain: Domain, p: CheckpointPayload): Hex {
  return typedDigest(ATTESTATION_TYPEHASH, domain, p.checkpointNumber, p.slot, p.archive, p.headerHash);
}

export interface BlockPayload {
  slot: number;
  indexWithinCheckpoint: number;
  blockHash: bigint;
  archive: bigint;
}

export function blockProposalDigest(domain: Domain, p: BlockPayload): Hex {
  return typedDigest(
    BLOCK_PROPOSAL_TYPEHASH,
    domain,
    p.slot,
    p.indexWithinCheckpoint,
    p.blockHash,
    p.archive,
  );
}

/** A 65-byte (r ‖ s ‖ v) EIP-191 signature of `digest`. */
export function signDigest(account: PrivateKeyAccount, digest: Hex): Promise<Hex> {
  return account.signMessage({ message: { raw: digest } });
}

/** The lowercase address that signed `digest`, or undefined for a malformed signature. */
export async function signerOf(digest: Hex, signature: string): Promise<string | undefined> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  try {
    return (
      await recoverMessageAddress({ message: { raw: digest }, signature: signature as Hex })
    ).toLowerCase();
  } catch {
    return undefined;
  }
}

/** More than two thirds of the committee, as the rollup contract requires. */
export function quorum(committeeSize: number): number {
  return Math.floor((committeeSize * 2) / 3) + 1;
}

/** Committees and proposers as the rollup draws them; cached, as they never change for a slot. */
export class CommitteeView {
  private readonly committees = new Map<number, string[]>();
  private readonly proposers = new Map<number, string | undefined>();

  constructor(private readonly rollup: CommitteeL1) {}

  /** The committee of `epoch`, lowercase, in the order the rollup expects attestations. */
  async committee(epoch: number): Promise<string[]> {
    let c = this.committees.get(epoch);
    if (c === undefined) {
      c = (await this.rollup.epochCommittee(epoch)).map((a) => a.toLowerCase());
      remember(this.committees, epoch, c);
    }
    return c;
  }

  /** The proposer of `slot`, lowercase; undefined when anyone may propose (no committee). */
  async proposer(slot: number): Promise<string | undefined> {
    if (this.proposers.has(slot)) return this.proposers.get(slot);
    const address = (await this.rollup.proposerAtSlot(slot)).toLowerCase();
    const p = address === ZERO_ADDRESS ? undefined : address;
    remember(this.proposers, slot, p);
    return p;
  }
}

/** Keeps a cache bounded: the oldest entries go first. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max = 256): void {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}
