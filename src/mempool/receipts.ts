// A tx's receipt (docs/transactions.md): mined from the chain, with the status its block's place
// among the tips gives; else pending from the pool; else dropped.
import type { ChainReader } from '../archiver/chain-reader.js';
import type { ChainTips, IndexedTxEffect } from '../archiver/types.js';
import { RevertCode } from '../core/block.js';
import type { Fr } from '../core/field.js';
import { epochOfSlot, type L1RollupConstants } from '../core/time.js';
import type { Tx } from '../core/tx.js';
import type { RevertReasons } from './revert-reasons.js';
import type { TxPool } from './tx-pool.js';

export const TX_DROPPED_ERROR = 'Tx dropped by P2P node';

export type MinedStatus = 'proposed' | 'checkpointed' | 'proven' | 'finalized';

export type TxReceipt =
  | { txHash: Fr; status: 'pending'; tx?: Tx }
  | { txHash: Fr; status: 'dropped'; error: string }
  | {
      txHash: Fr;
      status: MinedStatus;
      executionResult: 'success' | 'reverted';
      error?: string;
      transactionFee: bigint;
      blockHash: Fr;
      blockNumber: number;
      slotNumber: number;
      txIndexInBlock: number;
      epochNumber: number;
      txEffect?: IndexedTxEffect['data'];
    };

export interface ReceiptOptions {
  includeTxEffect?: boolean;
  includePendingTx?: boolean;
  /** With includePendingTx: the pending tx with its proof. */
  includeProof?: boolean;
}

/** The status of a tx mined in block `blockNumber`: the furthest tip that has the block. */
export function minedStatus(blockNumber: number, tips: ChainTips): MinedStatus {
  if (blockNumber <= tips.finalized.block.number) return 'finalized';
  if (blockNumber <= tips.proven.block.number) return 'proven';
  if (blockNumber <= tips.checkpointed.block.number) return 'checkpointed';
  return 'proposed';
}

export class TxReceipts {
  constructor(
    private readonly o: {
      chain: Pick<ChainReader, 'getTxEffect' | 'getTips'>;
      pool: Pick<TxPool, 'status' | 'get' | 'getWithProof'>;
      revertReasons: Pick<RevertReasons, 'get'>;
      constants: L1RollupConstants;
    },
  ) {}

  receipt(hash: Fr, options: ReceiptOptions): TxReceipt {
    const effect = this.o.chain.getTxEffect(hash);
    if (effect) {
      const n = effect.l2BlockNumber;
      const reverted = effect.data.revertCode !== RevertCode.OK;
      const error = reverted ? this.o.revertReasons.get(hash) : undefined;
      return {
        txHash: hash,
        status: minedStatus(n, this.o.chain.getTips()),
        executionResult: reverted ? 'reverted' : 'success',
        ...(error !== undefined ? { error } : {}),
        transactionFee: effect.data.transactionFee,
        blockHash: effect.l2BlockHash,
        blockNumber: n,
        slotNumber: effect.slotNumber,
        txIndexInBlock: effect.txIndexInBlock,
        epochNumber: epochOfSlot(effect.slotNumber, this.o.constants),
        ...(options.includeTxEffect ? { txEffect: effect.data } : {}),
      };
    }
    const known = this.o.pool.status(hash);
    if (known !== undefined) {
      // The pool keeps proofs in its store: read only when asked for.
      const tx = options.includePendingTx
        ? options.includeProof
          ? this.o.pool.getWithProof(hash)
          : this.o.pool.get(hash)
        : undefined;
      return { txHash: hash, status: 'pending', ...(tx ? { tx } : {}) };
    }
    return { txHash: hash, status: 'dropped', error: TX_DROPPED_ERROR };
  }
}
