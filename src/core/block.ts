// L2 blocks and the tx effects they carry (docs/chain.md, "Blocks").
import type { AppendOnlyTreeSnapshot, BlockHeader } from './block-header.js';
import type { Fr } from './field.js';
import { poseidon2HashInSlices, poseidon2HashWithSeparator } from './hash/poseidon2.js';

export const PRIVATE_LOG_SIZE_IN_FIELDS = 16;
export const CONTRACT_CLASS_LOG_SIZE_IN_FIELDS = 3023;
/** L1-to-L2 messages per checkpoint: the first block of a checkpoint appends them, padded to this. */
export const L1_TO_L2_MESSAGES_PER_CHECKPOINT = 1024;

export enum RevertCode {
  OK = 0,
  REVERTED = 1,
}

export interface PublicDataWriteEffect {
  leafSlot: Fr;
  value: Fr;
}

export interface PrivateLog {
  /** Always PRIVATE_LOG_SIZE_IN_FIELDS fields; the first is the siloed tag. */
  fields: Fr[];
  emittedLength: number;
}

export interface PublicLog {
  contractAddress: Fr;
  fields: Fr[];
}

export interface ContractClassLog {
  contractAddress: Fr;
  /** Always CONTRACT_CLASS_LOG_SIZE_IN_FIELDS fields (nested, as in the reference's shape). */
  fields: { fields: Fr[] };
  emittedLength: number;
}

/** What a tx did to the chain's state. */
export interface TxEffect {
  revertCode: RevertCode;
  txHash: Fr;
  transactionFee: Fr;
  noteHashes: Fr[];
  nullifiers: Fr[];
  l2ToL1Msgs: Fr[];
  publicDataWrites: PublicDataWriteEffect[];
  privateLogs: PrivateLog[];
  publicLogs: PublicLog[];
  contractClassLogs: ContractClassLog[];
}

export interface L2Block {
  number: number;
  /** The block hash: the hash of the header, and the archive tree leaf at index `number`. */
  hash: Fr;
  header: BlockHeader;
  /** The archive tree after this block (its leaf `number` is this block's hash). */
  archive: AppendOnlyTreeSnapshot;
  body: { txEffects: TxEffect[] };
  checkpointNumber: number;
  /** 0 for the first block of a checkpoint. */
  indexWithinCheckpoint: number;
}

/**
 * A tx effect as a flat list of fields, in a fixed order with a length before each list.
 * cairn's own encoding of a tx effect's data (what a blob would carry); the block's sponge
 * hash commits to it.
 */
export function txEffectToFields(effect: TxEffect): Fr[] {
  const out: Fr[] = [effect.txHash, BigInt(effect.revertCode), effect.transactionFee];
  const list = (items: readonly Fr[]) => {
    out.push(BigInt(items.length), ...items);
  };
  list(effect.noteHashes);
  list(effect.nullifiers);
  list(effect.l2ToL1Msgs);
  out.push(BigInt(effect.publicDataWrites.length));
  for (const w of effect.publicDataWrites) out.push(w.leafSlot, w.value);
  out.push(BigInt(effect.privateLogs.length));
  for (const log of effect.privateLogs)
    out.push(BigInt(log.emittedLength), ...log.fields.slice(0, log.emittedLength));
  out.push(BigInt(effect.publicLogs.length));
  for (const log of effect.publicLogs)
    out.push(log.contractAddress, BigInt(log.fields.length), ...log.fields);
  out.push(BigInt(effect.contractClassLogs.length));
  for (const log of effect.contractClassLogs) {
    out.push(
      log.contractAddress,
      BigInt(log.emittedLength),
      ...log.fields.fields.slice(0, log.emittedLength),
    );
  }
  return out;
}

/** Domain separator of cairn's block sponge hash ("SPON"). */
export const BLOCK_SPONGE_SEPARATOR = 0x53504f4e;

/**
 * The header's spongeBlobHash: a running Poseidon2 commitment to the checkpoint's tx effects
 * so far — the previous block's sponge (0 for a checkpoint's first block) absorbed with this
 * block's effects.
 */
export function spongeBlobHash(previous: Fr, txEffects: readonly TxEffect[]): Fr {
  return poseidon2HashWithSeparator(
    [previous, ...txEffects.flatMap(txEffectToFields)],
    BLOCK_SPONGE_SEPARATOR,
  );
}

/** spongeBlobHash in slices of about `sliceMs` of hashing, awaiting `pause()` between them. */
export function spongeBlobHashInSlices(
  previous: Fr,
  txEffects: readonly TxEffect[],
  pause: () => Promise<void>,
  sliceMs?: number,
): Promise<Fr> {
  const inputs = [BigInt(BLOCK_SPONGE_SEPARATOR), previous, ...txEffects.flatMap(txEffectToFields)];
  return poseidon2HashInSlices(inputs, pause, sliceMs);
}
