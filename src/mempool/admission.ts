// Admission of a tx, from a client or a peer: validated against the latest block, refused if the
// pool or the chain already has it, then queued for the pool (admission-queue.ts); the pool's
// answer becomes the node's error or the accepted tx's hash.
import type { Logger } from 'pino';
import type { ChainReader } from '../archiver/chain-reader.js';
import { refused, txRejected } from '../core/errors.js';
import { type Fr, toHex32 } from '../core/field.js';
import { computeTxHashOffThread } from '../core/kernel/tx-hash.js';
import type { Tx } from '../core/tx.js';
import { txPriorityFee, txSize } from '../core/tx-view.js';
import { AdmissionQueue } from './admission-queue.js';
import type { TxPool } from './tx-pool.js';
import type { ValidationContexts } from './validation-context.js';
import {
  commitmentHashesOffThread,
  TX_ERROR,
  type TxValidationResult,
  type TxValidator,
  type ValidationOptions,
} from './validator.js';

/** Validations run again after an unexpected failure (the latest block unwound under it). */
const MAX_VALIDATION_RETRIES = 2;

export class TxAdmission {
  readonly #queue: AdmissionQueue;

  constructor(
    private readonly o: {
      pool: TxPool;
      chain: Pick<ChainReader, 'getTxEffect'>;
      validator: Pick<TxValidator, 'validate'>;
      contexts: Pick<ValidationContexts, 'latest'>;
      logger: Logger;
    },
  ) {
    this.#queue = new AdmissionQueue(o.pool);
  }

  /** Validates without admitting, with the pending txs it would conflict with. */
  async check(tx: Tx, claimedHash: Fr | undefined, options: ValidationOptions): Promise<TxValidationResult> {
    const [hash, commitments] = await Promise.all([
      computeTxHashOffThread(tx.data),
      commitmentHashesOffThread(tx),
    ]);
    const { hash: _hash, ...result } = await this.validateAtLatest(tx, claimedHash, true, {
      ...options,
      hash,
      commitments,
    });
    return result;
  }

  /**
   * Validates against the latest block, read once the hashes are done (they take tens of ms, in
   * which proposed blocks may be unwound). Should the block still go before the validation reads
   * it, the validation fails unexpectedly: it runs again on the new latest block, twice at most, so
   * a valid tx is not refused for the chain moving under it.
   */
  private async validateAtLatest(
    tx: Tx,
    claimedHash: Fr | undefined,
    withPool: boolean,
    options: ValidationOptions,
  ): Promise<ReturnType<TxValidator['validate']>> {
    for (let attempt = 0; ; attempt++) {
      const context = await this.o.contexts.latest(withPool);
      const outcome = this.o.validator.validate(tx, claimedHash, context, options);
      const unexpected = outcome.result === 'invalid' && outcome.reason.includes(TX_ERROR.UNEXPECTED);
      if (!unexpected || attempt >= MAX_VALIDATION_RETRIES) return outcome;
    }
  }

  /**
   * Validates the tx and adds it to the pool; its hash once committed. Throws -32000 when the tx
   * is already known or the pool is full, -32003 with every reason when it is invalid.
   * The tx hash and the calldata and class-log hashes are computed on the hash
   * worker: hundreds to thousands of Poseidon2 permutations (~10-40 ms) per tx, which on the event
   * loop held every other request up.
   */
  async admit(tx: Tx, claimedHash: Fr | undefined): Promise<Fr> {
    const { pool, chain, logger } = this.o;
    const [computed, commitments] = await Promise.all([
      computeTxHashOffThread(tx.data),
      commitmentHashesOffThread(tx),
    ]);
    const { hash, ...result } = await this.validateAtLatest(tx, claimedHash, false, {
      hash: computed,
      commitments,
    });
    if (hash !== undefined && pool.status(hash) !== undefined) {
      throw refused(`tx ${toHex32(hash)} is already known`);
    }
    const mined = hash === undefined ? undefined : chain.getTxEffect(hash);
    if (mined) throw refused(`tx ${toHex32(hash!)} is already known: it is in block ${mined.l2BlockNumber}`);
    if (result.result !== 'valid') throw txRejected(result.reason);
    const added = await this.#queue.add(tx, hash!, txSize(tx));
    switch (added.kind) {
      case 'known':
        throw refused(`tx ${toHex32(hash!)} is already known`);
      case 'conflict':
        logger.info(
          `tx ${toHex32(hash!)} refused: it spends nullifiers of ${added.with.map(toHex32).join(', ')}`,
        );
        throw txRejected([TX_ERROR.PENDING_NULLIFIER]);
      case 'full':
        throw refused(
          'the mempool is full and the tx does not pay a higher priority fee than any pending tx',
        );
      case 'added':
        for (const h of added.replaced) logger.info(`tx ${toHex32(h)} replaced by ${toHex32(hash!)}`);
        for (const h of added.evicted) logger.info(`tx ${toHex32(h)} evicted: the mempool is full`);
        logger.info(`tx ${toHex32(hash!)} accepted (priority fee ${txPriorityFee(tx)})`);
        return hash!;
    }
  }
}
