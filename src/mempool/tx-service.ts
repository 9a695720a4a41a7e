// Everything the node does with transactions, between the API and the components, as one facade
// over named parts: min fees (min-fees.ts), validation against the latest state
// (validation-context.ts, validator.ts), admission into the pool through the admission queue's
// group commit (admission.ts, admission-queue.ts, tx-pool.ts), the source the sequencer takes txs
// from (tx-source.ts), settling the pool with the chain after every pass (pool-settling.ts),
// receipts (receipts.ts) and simulation (simulation.ts).
import type { Logger } from 'pino';
import type { ChainReader } from '../archiver/chain-reader.js';
import type { IndexedTxEffect } from '../archiver/types.js';
import type { GasFees } from '../core/block-header.js';
import type { AllowedElement } from '../core/constants.js';
import { refused } from '../core/errors.js';
import type { ManaUsageEstimate } from '../core/fee-math.js';
import { type Fr, toHex32 } from '../core/field.js';
import { Hold } from '../core/hold.js';
import type { L1RollupConstants } from '../core/time.js';
import type { Gas, Tx } from '../core/tx.js';
import type { ExecutionOptions } from '../execution/executor.js';
import type { StoreEnvironment } from '../store/environment.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import { TxAdmission } from './admission.js';
import { type MinFeeSource, MinFees } from './min-fees.js';
import { PoolSettling } from './pool-settling.js';
import { type ReceiptOptions, type TxReceipt, TxReceipts } from './receipts.js';
import { RevertReasons } from './revert-reasons.js';
import {
  type PublicSimulationOutput,
  type SimulationChecks,
  type SimulationOverrides,
  TxSimulator,
} from './simulation.js';
import { type PoolEntry, TxPool, type TxStatus } from './tx-pool.js';
import { PoolTxSource } from './tx-source.js';
import { ValidationContexts } from './validation-context.js';
import { type TxValidationResult, TxValidator, type ValidationOptions } from './validator.js';

export interface TxServiceOptions {
  env: StoreEnvironment;
  worldState: ReadableWorldState;
  chain: ChainReader;
  fees: MinFeeSource;
  constants: L1RollupConstants;
  chainId: number;
  rollupVersion: number;
  txsLimits: Gas;
  allowedSetup: readonly AllowedElement[];
  maxTxCount: number;
  maxBytes: number;
  /** The network's execution rules (class update delay, Fee Juice portal), for simulation. */
  execution?: ExecutionOptions;
  logger: Logger;
}

/** Where accepted txs go besides the pool: the P2P network's tx topic. */
export interface TxGossip {
  announce(tx: Tx, hash: Fr): void;
}

/** Also the sequencer's TxSource: pending txs best first, and what became of them in a block. */
export class TxService {
  readonly pool: TxPool;
  readonly #fees: MinFees;
  readonly #contexts: ValidationContexts;
  readonly #admission: TxAdmission;
  readonly #source: PoolTxSource;
  readonly #settling: PoolSettling;
  readonly #revertReasons: RevertReasons;
  readonly #receipts: TxReceipts;
  readonly #simulator: TxSimulator;
  #gossip: TxGossip | undefined;
  readonly #acceptedListeners: ((hash: Fr) => void)[] = [];

  constructor(private readonly o: TxServiceOptions) {
    const { worldState, chain, constants, logger } = o;
    const pool = TxPool.open(o.env, { maxTxCount: o.maxTxCount, maxBytes: o.maxBytes });
    const revertReasons = new RevertReasons(o.env);
    const fees = new MinFees(o.fees);
    const validator = new TxValidator();
    const contexts = new ValidationContexts({ ...o, fees, pool });
    this.pool = pool;
    this.#fees = fees;
    this.#contexts = contexts;
    this.#revertReasons = revertReasons;
    this.#admission = new TxAdmission({ pool, chain, validator, contexts, logger });
    this.#source = new PoolTxSource(pool, revertReasons, logger);
    this.#settling = new PoolSettling({ pool, chain, worldState, fees, constants, logger });
    this.#receipts = new TxReceipts({ chain, pool, revertReasons, constants });
    this.#simulator = new TxSimulator({ ...o, fees, contexts, validator, execution: o.execution });
  }

  /** Applies changed settings: the setup allow-list for later validations, the pool's tx cap now. */
  configure(settings: { allowedSetup?: readonly AllowedElement[]; maxTxCount?: number }): void {
    if (settings.allowedSetup !== undefined) this.#contexts.allowedSetup = settings.allowedSetup;
    if (settings.maxTxCount !== undefined) {
      const evicted = this.pool.setMaxTxCount(settings.maxTxCount);
      for (const hash of evicted)
        this.o.logger.info(
          `tx ${toHex32(hash)} left the mempool: over the new cap of ${settings.maxTxCount} txs`,
        );
    }
  }

  // ---- fees ---------------------------------------------------------------------------------

  /** Re-reads the fee inputs from L1. */
  refreshFees(): Promise<void> {
    return this.#fees.refresh();
  }

  async currentMinFees(): Promise<GasFees> {
    return { ...(await this.#fees.reading()).fees };
  }

  predictedMinFees(usage: ManaUsageEstimate): Promise<GasFees[]> {
    return this.#fees.predicted(usage);
  }

  maxPriorityFees(): GasFees {
    return this.pool.maxPriorityFees();
  }

  // ---- validation and submission -----------------------------------------------------------

  isValidTx(
    tx: Tx,
    claimedHash: Fr | undefined,
    options: ValidationOptions = {},
  ): Promise<TxValidationResult> {
    return this.#admission.check(tx, claimedHash, options);
  }

  /** Connects the P2P network: txs accepted from clients are announced to peers. */
  setGossip(gossip: TxGossip): void {
    this.#gossip = gossip;
  }

  /**
   * A tx from a peer: validated and pooled like a client's ('accept'), else dropped ('ignore').
   * A refusal is not held against the peer: fee floors and pool limits are each node's own, and
   * the tx may have been valid a moment ago. Gossipsub forwards accepted messages itself.
   */
  async receiveFromPeer(tx: Tx, claimedHash: Fr | undefined): Promise<'accept' | 'ignore'> {
    try {
      this.#accepted(await this.#admission.admit(tx, claimedHash));
      return 'accept';
    } catch (err) {
      this.o.logger.debug(`tx from a peer not taken: ${(err as Error).message}`);
      return 'ignore';
    }
  }

  /**
   * Validates the tx fully, adds it to the pool through the admission queue and announces it to
   * peers; throws -32003 / -32000 when it is refused.
   */
  /**
   * Held while the node builds or checks a proposal (its consensus client takes it): clients' txs
   * wait to be checked, as peers' do, so that a burst of RPC calls does not make the proposal late.
   */
  readonly admissionHold = new Hold();

  async sendTx(tx: Tx, claimedHash: Fr | undefined): Promise<Fr> {
    if (this.admissionHold.held) await this.admissionHold.whenReleased();
    const hash = await this.#admission.admit(tx, claimedHash);
    this.#gossip?.announce(tx, hash);
    this.#accepted(hash);
    return hash;
  }

  /**
   * Calls `listener` for every tx the pool takes, from a client or a peer (the instant clock's
   * cue: a node with the instant clock builds for txs sent to its peers too).
   */
  onAccepted(listener: (hash: Fr) => void): void {
    this.#acceptedListeners.push(listener);
  }

  #accepted(hash: Fr): void {
    for (const listener of this.#acceptedListeners) listener(hash);
  }

  // ---- the sequencer's source ----------------------------------------------------------------

  pending(): Iterable<{ hash: Fr; tx: Tx }> {
    return this.#source.pending();
  }

  reject(hash: Fr, reason: string): void {
    this.#source.reject(hash, reason);
  }

  reverted(hash: Fr, reason: string): void {
    this.#source.reverted(hash, reason);
  }

  // ---- settling with the chain ---------------------------------------------------------------

  /** After a chain pass: mined / returned / dropped txs, and the fee snapshot. */
  afterPass(): Promise<void> {
    return this.#settling.afterPass();
  }

  /**
   * Drops a pending tx from the pool (svcDev_dropTx); its receipt then says dropped. A tx in a
   * block, or one the node does not know, is refused.
   */
  dropPending(hash: Fr): void {
    const status = this.pool.status(hash);
    const mined = this.o.chain.getTxEffect(hash);
    if (mined !== undefined || status === 'mined') {
      const where = mined === undefined ? '' : ` in block ${mined.l2BlockNumber}`;
      throw refused(`tx ${toHex32(hash)} is mined${where}: only a pending tx can be dropped`);
    }
    if (status === undefined) throw refused(`tx ${toHex32(hash)} is not in the mempool`);
    this.pool.remove([hash]);
    this.o.logger.info(`tx ${toHex32(hash)} dropped from the mempool (svcDev_dropTx)`);
  }

  // ---- dev snapshots -------------------------------------------------------------------------

  /** The pool's txs, pending and mined, proofs included, for a dev snapshot. */
  poolSnapshot(): PoolEntry[] {
    return this.pool.entriesWithProofs();
  }

  /**
   * Puts the pool back as a dev snapshot had it (the chain and L1 were reverted with it), and
   * reads the fees of the reverted L1.
   */
  async restorePool(entries: readonly PoolEntry[]): Promise<void> {
    this.pool.replaceAll(entries);
    this.#settling.poolReplaced();
    await this.#fees.refresh();
  }

  // ---- queries -------------------------------------------------------------------------------

  /** A pending tx; its proof is read from the pool's store only when asked for. */
  getPendingTx(hash: Fr, withProof = false): Tx | undefined {
    if (this.pool.status(hash) !== 'pending') return undefined;
    return withProof ? this.pool.getWithProof(hash) : this.pool.get(hash);
  }

  /** A tx the pool holds, pending or mined (until its block is finalized), without its proof. */
  getHeldTx(hash: Fr): { tx: Tx; status: TxStatus } | undefined {
    const status = this.pool.status(hash);
    const tx = status === undefined ? undefined : this.pool.get(hash);
    return tx === undefined || status === undefined ? undefined : { tx, status };
  }

  getPendingTxs(limit: number, after?: Fr): PoolEntry[] {
    return this.pool.getPending(limit, after);
  }

  get pendingCount(): number {
    return this.pool.pendingCount;
  }

  getTxEffect(hash: Fr): IndexedTxEffect | undefined {
    return this.o.chain.getTxEffect(hash);
  }

  revertReason(hash: Fr): string | undefined {
    return this.#revertReasons.get(hash);
  }

  /** The receipt (docs/transactions.md): mined from the chain, else pending from the pool, else dropped. */
  getTxReceipt(hash: Fr, options: ReceiptOptions = {}): TxReceipt {
    return this.#receipts.receipt(hash, options);
  }

  // ---- simulation ----------------------------------------------------------------------------

  /**
   * Runs the tx on a fork of the latest state with the next block's globals (zero coinbase and
   * fee recipient); overrides touch only the fork. A tx that cannot be included is an error,
   * unless `checks` is 'structure' (the reference API's way: see SimulationChecks).
   */
  simulatePublicCalls(
    tx: Tx,
    skipFeeEnforcement: boolean,
    overrides: SimulationOverrides = {},
    checks: SimulationChecks = 'all',
  ): Promise<PublicSimulationOutput> {
    return this.#simulator.simulatePublicCalls(tx, skipFeeEnforcement, overrides, checks);
  }
}
