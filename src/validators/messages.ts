// What nodes gossip: txs, and validators' block proposals, checkpoint proposals and checkpoint
// attestations.
// Each travels as UTF-8 JSON checked by a schema on arrival (peers are not trusted); the
// signatures inside are checked against the committee by the validator client.
import { z } from 'zod';
import { checkpointHeader, gasFees } from '../core/block-codecs.js';
import type { CheckpointHeader } from '../core/block-header.js';
import { decodeCheckpointBody } from '../core/checkpoint-body.js';
import { blockHash, frHex, txHash, uint } from '../core/codecs.js';
import type { Fr } from '../core/field.js';
import { KernelCodecError } from '../core/kernel/bytes.js';
import { decodeTx, encodeTx } from '../core/kernel/tx-codec.js';
import type { Tx } from '../core/tx.js';

/** Gossip topic names (the network adds its prefix and version). */
export const TOPICS = {
  tx: 'tx',
  blockProposal: 'block-proposal',
  checkpointProposal: 'checkpoint-proposal',
  attestation: 'checkpoint-attestation',
} as const;

const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'expected a 65-byte signature as 0x + 130 hex');
const MAX_TX_HASHES = 4096;

/** A block of the slot's checkpoint, announced by the proposer as it is built. */
export interface BlockProposal {
  slot: number;
  checkpointNumber: number;
  indexWithinCheckpoint: number;
  blockNumber: number;
  blockHash: Fr;
  archiveRoot: Fr;
  txHashes: Fr[];
  signature: `0x${string}`;
}

const blockProposalWire = z
  .object({
    slot: uint,
    checkpointNumber: uint,
    indexWithinCheckpoint: uint,
    blockNumber: uint,
    blockHash,
    archiveRoot: frHex,
    txHashes: z.array(txHash).max(MAX_TX_HASHES),
    signature,
  })
  .strict();

/** The proposer's checkpoint: what it asks the committee to attest, with the blocks to check. */
export interface CheckpointProposal {
  checkpointNumber: number;
  slot: number;
  archive: Fr;
  headerHash: Fr;
  header: CheckpointHeader;
  /** The checkpoint body as L1 will carry it (encodeCheckpointBody). */
  body: Uint8Array;
  /** The proposer's signature of the attestation digest. */
  signature: `0x${string}`;
}

const checkpointProposalWire = z
  .object({
    checkpointNumber: uint,
    slot: uint,
    archive: frHex,
    headerHash: frHex,
    body: z.base64(),
    signature,
  })
  .strict();

/** A committee member's signature of a checkpoint proposal's digest. */
export interface CheckpointAttestation {
  checkpointNumber: number;
  slot: number;
  archive: Fr;
  headerHash: Fr;
  header: CheckpointHeader;
  signature: `0x${string}`;
  proposerSignature: `0x${string}`;
}

const attestationWire = z
  .object({
    checkpointNumber: uint,
    slot: uint,
    archive: frHex,
    headerHash: frHex,
    header: checkpointHeader.extend({ gasFees: gasFees.strict() }).strict(),
    signature,
    proposerSignature: signature,
  })
  .strict();

export class MessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageError';
  }
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function parse<S extends z.ZodType>(schema: S, bytes: Uint8Array, what: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new MessageError(`${what}: not UTF-8 JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MessageError(`${what}: ${issue.path.join('.') || 'message'}: ${issue.message}`);
  }
  return parsed.data;
}

export const encodeBlockProposal = (p: BlockProposal) => json(z.encode(blockProposalWire, p));
export const decodeBlockProposal = (bytes: Uint8Array): BlockProposal =>
  parse(blockProposalWire, bytes, 'block proposal') as BlockProposal;

export const encodeCheckpointProposal = (p: CheckpointProposal) =>
  json(
    z.encode(checkpointProposalWire, {
      checkpointNumber: p.checkpointNumber,
      slot: p.slot,
      archive: p.archive,
      headerHash: p.headerHash,
      body: Buffer.from(p.body).toString('base64'),
      signature: p.signature,
    }),
  );

/** Decodes a checkpoint proposal; its header comes from its body (checked against it later). */
export function decodeCheckpointProposal(bytes: Uint8Array): CheckpointProposal {
  const wire = parse(checkpointProposalWire, bytes, 'checkpoint proposal');
  const body = Buffer.from(wire.body, 'base64');
  let header: CheckpointHeader;
  try {
    header = decodeCheckpointBody(body).header;
  } catch (err) {
    throw new MessageError(`checkpoint proposal: ${(err as Error).message}`);
  }
  return { ...wire, body, header, signature: wire.signature as `0x${string}` };
}

export const encodeAttestation = (a: CheckpointAttestation) => json(z.encode(attestationWire, a));
export const decodeAttestation = (bytes: Uint8Array): CheckpointAttestation =>
  parse(attestationWire, bytes, 'checkpoint attestation') as CheckpointAttestation;

/** A tx travels in the reference's binary form (`Tx.toBuffer()`: its hash first, then the tx). */
export const encodeTxMessage = (t: Tx, hash: Fr): Uint8Array => encodeTx({ txHash: hash, ...t });
export function decodeTxMessage(bytes: Uint8Array): { tx: Tx; claimedHash: Fr | undefined } {
  try {
    const { txHash, ...tx } = decodeTx(bytes);
    return { tx, claimedHash: txHash };
  } catch (err) {
    if (err instanceof KernelCodecError) throw new MessageError(`tx: ${err.message}`);
    throw err;
  }
}
