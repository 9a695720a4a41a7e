// Out-of-band writes of public storage for the dev methods (svcDev_setStorageAt, svcDev_setBalance).
//
// The L2 world state is the result of its blocks: every node re-executes the blocks it reads from
// L1 and checks each against its header, and this node does so itself after a crash, a rollback
// or a dev revert. A write made to the state directly would be in no block: the next header would
// commit to a state no replay reaches, and the chain would be refused. So a write is carried by
// the next block this node builds, as a tx effect of its own — a dev write: the public-data writes,
// a nullifier (its hash) that lets it land once, no fee, no logs — which the sequencer puts first
// in the block. Replay applies a block's effects as they are, so the write is part of the chain
// like any tx's: it survives restarts, syncs from L1 and reverts, and its hash has a receipt.
import type { ChainReader } from '../archiver/chain-reader.js';
import { RevertCode, type TxEffect } from '../core/block.js';
import type { Fr } from '../core/field.js';
import { poseidon2HashWithSeparator } from '../core/hash/poseidon2.js';

/** Domain separator of dev write hashes ("DEVW"). */
export const DEV_WRITE_SEPARATOR = 0x44455657;

/** A public-data write: the tree's leaf slot (contract and storage slot hashed) and its value. */
export interface LeafWrite {
  leafSlot: Fr;
  value: Fr;
}

/**
 * The tx effect that carries `writes` into a block. `nonce` makes each one distinct (its hash is
 * its nullifier, which a block can hold once).
 */
export function devWriteEffect(writes: readonly LeafWrite[], nonce: Fr): TxEffect {
  if (writes.length === 0) throw new RangeError('a dev write writes at least one slot');
  if (new Set(writes.map((w) => w.leafSlot)).size !== writes.length)
    throw new RangeError('a dev write writes each slot once');
  const txHash = poseidon2HashWithSeparator(
    [nonce, ...writes.flatMap((w) => [w.leafSlot, w.value])],
    DEV_WRITE_SEPARATOR,
  );
  return {
    revertCode: RevertCode.OK,
    txHash,
    transactionFee: 0n,
    noteHashes: [],
    nullifiers: [txHash],
    l2ToL1Msgs: [],
    publicDataWrites: writes.map((w) => ({ leafSlot: w.leafSlot, value: w.value })),
    privateLogs: [],
    publicLogs: [],
    contractClassLogs: [],
  };
}

/** The dev writes waiting for a block; the sequencer takes them (Sequencer.setQueuedEffects). */
export class DevWrites {
  private readonly queued = new Map<Fr, TxEffect>();

  constructor(private readonly chain: Pick<ChainReader, 'getTxEffect'>) {}

  add(effect: TxEffect): void {
    this.queued.set(effect.txHash, effect);
  }

  /** The queued writes no block of the chain holds yet (one dropped from the chain comes back). */
  take(): TxEffect[] {
    return [...this.queued.values()].filter((e) => this.chain.getTxEffect(e.txHash) === undefined);
  }

  /** Stops offering a write (landed for good, or given up). */
  remove(hash: Fr): void {
    this.queued.delete(hash);
  }
}
