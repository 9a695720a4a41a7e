// Everything the node does with transactions, between the API and the components: validation
// against the latest state, the mempool, min fees, receipts, simulation, and the source the
// sequencer takes txs from. After every chain pass it settles the pool with the chain: txs that
// landed become mined, txs of pruned blocks come back, and pending txs that can no longer be
// included (nullifier landed, expired, anchor block gone) leave it.
import type { Logger } from 'pino';
import type { ChainReader } from '../archiver/chain-reader.js';
import type { IndexedTxEffect } from '../archiver/types.js';
import { type L2Block, RevertCode, type TxEffect } from '../core/block.js';
import type { GasFees, GlobalVariables } from '../core/block-header.js';
import { type AllowedElement, PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { siloNullifier } from '../core/contracts.js';
import { refused, txRejected } from '../core/errors.js';
import type { ManaUsageEstimate } from '../core/fee-math.js';
import { type Fr, toHex32 } from '../core/field.js';
import { epochOfSlot, type L1RollupConstants, slotStart } from '../core/time.js';
import { computeTxHashOffThread, type Gas, type Tx, txPriorityFee, txSize } from '../core/tx.js';
import type { PublicContracts } from '../execution/avm-calls.js';
import {
  type ExecutionOptions,
  executeTx,
  TxExecutionError,
  type TxExecutionResult,
} from '../execution/executor.js';
import { publicDataLeafSlot } from '../execution/public-storage.js';
import type { FeeOracle } from '../l1/fee-oracle.js';
import type { Database, StoreEnvironment } from '../store/environment.js';
import { TreeId, type WorldStateFork } from '../world-state/types.js';
import type { WorldState } from '../world-state/world-state.js';
import { type AddResult, type PoolEntry, TxPool } from './tx-pool.js';
import {
  DEV_PROOF_VERIFIER,
  TX_ERROR,
  type TxValidationResult,
  TxValidator,
  type ValidationContext,
  type ValidationOptions,
} from './validator.js';

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

/** Min fees per gas, now and predicted for the next slots (the fee oracle). */
export type MinFeeSource = Pick<FeeOracle, 'current' | 'predictedMinFees'>;

export interface SimulationOverrides {
  /** Public storage values to set on the fork before simulating. */
  publicStorage?: { contractAddress: Fr; slot: Fr; value: Fr }[];
  /**
   * Contract instances to simulate with, by address: public calls to the address run the
   * bytecode of `currentContractClassId` (a class the node knows), as a deployed contract.
   */
  contracts?: Map<Fr, { deployer: Fr; currentContractClassId: Fr; initializationHash: Fr }>;
}

export interface PublicSimulationOutput {
  revertReason?: string;
  /** The reverting public call's revert data (an error selector and its fields, for example). */
  revertData?: Fr[];
  globalVariables: GlobalVariables;
  txEffect: TxEffect;
  publicReturnValues: TxExecutionResult['publicReturnValues'];
  gasUsed: TxExecutionResult['gasUsed'];
  debugLogs: never[];
}

export interface TxServiceOptions {
  env: StoreEnvironment;
  worldState: WorldState;
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

/** How many recent blocks the pool remembers having settled with. */
const SETTLED_WINDOW = 256;

/** Also the sequencer's TxSource: pending txs best first, and what became of them in a block. */
export class TxService {
  readonly pool: TxPool;
  private readonly validator = new TxValidator();
  private readonly revertReasons: Database<string, string>;
  /** Min fees for the next slot, refreshed after every chain pass (L1 only changes per block). */
  private minFees: { fees: GasFees; slot: number } | undefined;
  /** Validated txs waiting for the next group commit to the pool. */
  private readonly admissions: {
    tx: Tx;
    hash: Fr;
    size: number;
    resolve: (result: AddResult) => void;
    reject: (err: unknown) => void;
  }[] = [];
  /** Hashes of the blocks the pool has been settled with, by number (recent ones only). */
  private readonly settled = new Map<number, Fr>();
  /** What the last eviction pass saw: the latest block and the next slot. */
  private evictedAt = '';

  private allowedSetup: readonly AllowedElement[];

  constructor(private readonly o: TxServiceOptions) {
    this.pool = TxPool.open(o.env, { maxTxCount: o.maxTxCount, maxBytes: o.maxBytes });
    this.revertReasons = o.env.database<string>('revert-reasons');
    this.allowedSetup = o.allowedSetup;
  }

  /** Applies changed settings: the setup allow-list for later validations, the pool's tx cap now. */
  configure(settings: { allowedSetup?: readonly AllowedElement[]; maxTxCount?: number }): void {
    if (settings.allowedSetup !== undefined) this.allowedSetup = settings.allowedSetup;
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
  async refreshFees(): Promise<void> {
    this.minFees = await this.o.fees.current();
  }

  private async snapshot(): Promise<{ fees: GasFees; slot: number }> {
    if (!this.minFees) await this.refreshFees();
    return this.minFees!;
  }

  async currentMinFees(): Promise<GasFees> {
    return { ...(await this.snapshot()).fees };
  }

  predictedMinFees(usage: ManaUsageEstimate): Promise<GasFees[]> {
    return this.o.fees.predictedMinFees(usage);
  }

  maxPriorityFees(): GasFees {
    return this.pool.maxPriorityFees();
  }

  // ---- validation and submission -----------------------------------------------------------

  private async context(withPool: boolean): Promise<ValidationContext> {
    const { fees, slot } = await this.snapshot();
    const latest = this.o.worldState.latestBlockNumber;
    return {
      chainId: this.o.chainId,
      rollupVersion: this.o.rollupVersion,
      state: this.o.worldState.at(latest),
      nextBlockNumber: latest + 1,
      nextSlotTimestamp: slotStart(slot, this.o.constants),
      currentMinFees: fees,
      txsLimits: this.o.txsLimits,
      allowedSetup: this.allowedSetup,
      verifier: DEV_PROOF_VERIFIER,
      ...(withPool
        ? {
            pendingConflicts: (nullifiers: readonly Fr[], self: Fr) =>
              this.pool
                .conflictsOf(nullifiers)
                .filter((h) => h !== self)
                .map((hash) => ({ hash, priorityFee: this.pool.getEntry(hash)!.priorityFee })),
          }
        : {}),
    };
  }

  async isValidTx(
    tx: Tx,
    claimedHash: Fr | undefined,
    options: ValidationOptions = {},
  ): Promise<TxValidationResult> {
    const { hash: _hash, ...result } = this.validator.validate(
      tx,
      claimedHash,
      await this.context(true),
      options,
    );
    return result;
  }

  private gossip: TxGossip | undefined;
  private readonly acceptedListeners: ((hash: Fr) => void)[] = [];

  /** Connects the P2P network: txs accepted from clients are announced to peers. */
  setGossip(gossip: TxGossip): void {
    this.gossip = gossip;
  }

  /**
   * A tx from a peer: validated and pooled like a client's ('accept'), else dropped ('ignore').
   * A refusal is not held against the peer: fee floors and pool limits are each node's own, and
   * the tx may have been valid a moment ago. Gossipsub forwards accepted messages itself.
   * `hash`: `computeTxHash(tx.data)` if the caller started it earlier (see txGossipHandler).
   */
  async receiveFromPeer(
    tx: Tx,
    claimedHash: Fr | undefined,
    hash: Promise<Fr> = computeTxHashOffThread(tx.data),
  ): Promise<'accept' | 'ignore'> {
    try {
      this.accepted(await this.admitValid(tx, claimedHash, hash));
      return 'accept';
    } catch (err) {
      this.o.logger.debug(`tx from a peer not taken: ${(err as Error).message}`);
      return 'ignore';
    }
  }

  /** Validates the tx fully, adds it to the pool and announces it to peers; throws -32003 / -32000 when it is refused. */
  async sendTx(tx: Tx, claimedHash: Fr | undefined): Promise<Fr> {
    const hash = await this.admitValid(tx, claimedHash);
    this.gossip?.announce(tx, hash);
    this.accepted(hash);
    return hash;
  }

  /**
   * Calls `listener` for every tx the pool takes, from a client or a peer (the instant clock's
   * cue: a node with the instant clock builds for txs sent to its peers too).
   */
  onAccepted(listener: (hash: Fr) => void): void {
    this.acceptedListeners.push(listener);
  }

  private accepted(hash: Fr): void {
    for (const listener of this.acceptedListeners) listener(hash);
  }

  /**
   * `knownHash`: `computeTxHash(tx.data)` if the caller started it (txs from peers, on the hash
   * worker); otherwise it is computed here. Clients' txs are hashed here: on the worker, the
   * flood bench's sustained send p99 went from 46 ms to 88 ms (same day, A/B; probably the worker
   * competing for the second core with block building's hashing), and single sends gain nothing.
   */
  private async admitValid(tx: Tx, claimedHash: Fr | undefined, knownHash?: Promise<Fr>): Promise<Fr> {
    const [computed, context] = await Promise.all([knownHash, this.context(false)]);
    const { hash, ...result } = this.validator.validate(
      tx,
      claimedHash,
      context,
      computed === undefined ? {} : { hash: computed },
    );
    if (hash !== undefined && this.pool.status(hash) !== undefined) {
      throw refused(`tx ${toHex32(hash)} is already known`);
    }
    const mined = hash === undefined ? undefined : this.o.chain.getTxEffect(hash);
    if (mined) throw refused(`tx ${toHex32(hash!)} is already known: it is in block ${mined.l2BlockNumber}`);
    if (result.result !== 'valid') throw txRejected(result.reason);
    const added = await this.admit(tx, hash!, txSize(tx));
    switch (added.kind) {
      case 'known':
        throw refused(`tx ${toHex32(hash!)} is already known`);
      case 'conflict':
        this.o.logger.info(
          `tx ${toHex32(hash!)} refused: it spends nullifiers of ${added.with.map(toHex32).join(', ')}`,
        );
        throw txRejected([TX_ERROR.PENDING_NULLIFIER]);
      case 'full':
        throw refused(
          'the mempool is full and the tx does not pay a higher priority fee than any pending tx',
        );
      case 'added':
        for (const h of added.replaced) this.o.logger.info(`tx ${toHex32(h)} replaced by ${toHex32(hash!)}`);
        for (const h of added.evicted) this.o.logger.info(`tx ${toHex32(h)} evicted: the mempool is full`);
        this.o.logger.info(`tx ${toHex32(hash!)} accepted (priority fee ${txPriorityFee(tx.data)})`);
        return hash!;
    }
  }

  /**
   * Adds a validated tx to the pool. Adds arriving in the same turn of the event loop are committed
   * together, and each sendTx answers once its tx is committed: a crash of the process cannot lose
   * it. The flush to disk follows off the event loop; waiting for it here put the disk's slowest
   * moments (the embedded L1's saves) into the send latency, p99 612 ms against 122 ms.
   */
  private admit(tx: Tx, hash: Fr, size: number): Promise<AddResult> {
    return new Promise((resolve, reject) => {
      this.admissions.push({ tx, hash, size, resolve, reject });
      if (this.admissions.length === 1) setImmediate(() => this.flushAdmissions());
    });
  }

  private flushAdmissions(): void {
    const batch = this.admissions.splice(0);
    // Committed on the event loop, not lmdb-js's write thread: an asynchronous commit here made the
    // pool's other (synchronous) writes wait for it, and p99 send latency under a sustained load
    // went from ~53 ms to ~130 ms (bench/flood.bench.ts). Txs validated at once share a commit.
    let results: AddResult[];
    try {
      results = this.pool.batch(() => batch.map((a) => this.pool.add(a.tx, a.hash, a.size)));
    } catch (err) {
      for (const a of batch) a.reject(err);
      return;
    }
    for (const [i, a] of batch.entries()) a.resolve(results[i]!);
  }

  // ---- the sequencer's source ----------------------------------------------------------------

  *pending(): Iterable<{ hash: Fr; tx: Tx }> {
    for (const entry of this.pool.pendingInOrder()) yield { hash: entry.hash, tx: entry.tx };
  }

  reject(hash: Fr, reason: string): void {
    this.o.logger.warn(`tx ${toHex32(hash)} dropped: ${reason}`);
    this.pool.remove([hash]);
  }

  reverted(hash: Fr, reason: string): void {
    this.o.env.write(() => this.revertReasons.putSync(toHex32(hash), reason));
  }

  // ---- settling with the chain ---------------------------------------------------------------

  /** The tx hashes of a block of the chain store, kept while the store keeps the block cached. */
  private txHashesOf(blockNumber: number): Set<Fr> | undefined {
    const block = this.o.chain.getBlock(blockNumber);
    if (block === undefined) return undefined;
    let hashes = this.txHashesByBlock.get(block);
    if (hashes === undefined) {
      hashes = new Set(block.body.txEffects.map((e) => e.txHash));
      this.txHashesByBlock.set(block, hashes);
    }
    return hashes;
  }

  private readonly txHashesByBlock = new WeakMap<L2Block, Set<Fr>>();

  /** After a chain pass: mined / returned / dropped txs, and the fee snapshot. */
  async afterPass(): Promise<void> {
    const latest = this.o.chain.latestBlockNumber;
    const tips = this.o.chain.getTips();
    // Mined txs whose block is gone (pruned or unwound) come back; final ones leave the pool.
    const back: Fr[] = [];
    const final: Fr[] = [];
    for (const entry of this.pool.minedEntries()) {
      // Still in the block it was mined in (the usual case, checked without a lookup per tx), or
      // wherever the chain has it now.
      const minedIn = entry.blockNumber!;
      const at = this.txHashesOf(minedIn)?.has(entry.hash)
        ? minedIn
        : this.o.chain.getTxEffect(entry.hash)?.l2BlockNumber;
      if (at === undefined) back.push(entry.hash);
      else if (at <= tips.finalized.block.number) final.push(entry.hash);
    }
    if (back.length > 0) {
      this.pool.markPending(back);
      this.o.logger.info(`${back.length} tx(s) of removed blocks are pending again`);
    }
    if (final.length > 0) this.pool.remove(final);
    // Txs in blocks added since the last pass are mined. A settled block that changed (unwound and
    // rebuilt) is settled again.
    let from = latest + 1;
    for (let n = latest; n >= 1 && n > latest - SETTLED_WINDOW; n--) {
      const known = this.settled.get(n);
      from = n;
      if (known !== undefined && known === this.o.chain.getBlock(n)?.hash) {
        from = n + 1;
        break;
      }
    }
    // The first pass (after a start) checks every pending tx against the trees; later ones only
    // against the nullifiers of the blocks settled since.
    const firstPass = this.settled.size === 0;
    if (firstPass) from = 1;
    const landed: Fr[] = [];
    for (let n = from; n <= latest; n++) {
      const block = this.o.chain.getBlock(n);
      if (!block) continue;
      const hashes = block.body.txEffects
        .map((e) => e.txHash)
        .filter((h) => this.pool.status(h) === 'pending');
      if (hashes.length > 0) this.pool.markMined(hashes, n);
      if (!firstPass) for (const effect of block.body.txEffects) landed.push(...effect.nullifiers);
      this.settled.set(n, block.hash);
    }
    for (const n of this.settled.keys())
      if (n > latest || n <= latest - SETTLED_WINDOW) this.settled.delete(n);
    await this.refreshFees();
    // Re-validation is needed only when the state or the slot moved.
    const mark = `${latest}:${this.o.chain.getBlock(latest)?.hash}:${this.minFees!.slot}`;
    if (mark !== this.evictedAt) {
      this.evictedAt = mark;
      this.evictUnincludable(firstPass ? undefined : landed);
    }
  }

  /**
   * Drops pending txs that no block can take any more: one spending a nullifier now in the chain
   * (`landed`: the nullifiers of the blocks settled since the last pass, found through the pool's
   * nullifier index; undefined: look each pending tx's nullifiers up in the tree), an expired one,
   * or one whose anchor block is gone (looked up once per distinct anchor). The cost per pass is
   * a cheap walk over the pending txs plus a look-up per new nullifier and per anchor, not tree
   * reads per pending tx: a large pool must not stall the node after every block.
   */
  private evictUnincludable(landed: readonly Fr[] | undefined): void {
    const state = this.o.worldState.at(this.o.worldState.latestBlockNumber);
    const nextSlotStart = slotStart(this.minFees!.slot, this.o.constants);
    const spent = landed === undefined ? undefined : new Set(this.pool.conflictsOf(landed));
    const anchorKnown = new Map<Fr, boolean>();
    const hasAnchor = (anchor: Fr) => {
      let known = anchorKnown.get(anchor);
      if (known === undefined) {
        known = state.findLeaf(TreeId.ARCHIVE, anchor) !== undefined;
        anchorKnown.set(anchor, known);
      }
      return known;
    };
    const drop: { hash: Fr; why: string }[] = [];
    for (const entry of this.pool.pendingInOrder()) {
      const { data } = entry.tx;
      const isSpent =
        spent === undefined
          ? entry.nullifiers.some((n) => state.findLeaf(TreeId.NULLIFIER, n) !== undefined)
          : spent.has(entry.hash);
      if (isSpent) {
        drop.push({ hash: entry.hash, why: 'a nullifier of it is now in the chain' });
      } else if (data.expirationTimestamp < nextSlotStart) {
        drop.push({ hash: entry.hash, why: 'expired' });
      } else if (!hasAnchor(data.constants.anchorBlockHash)) {
        drop.push({ hash: entry.hash, why: 'its anchor block is no longer in the chain' });
      }
    }
    if (drop.length === 0) return;
    this.pool.remove(drop.map((d) => d.hash));
    for (const d of drop) this.o.logger.info(`tx ${toHex32(d.hash)} left the mempool: ${d.why}`);
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

  /** The pool's txs, pending and mined, for a dev snapshot. */
  poolSnapshot(): PoolEntry[] {
    return this.pool.entries();
  }

  /**
   * Puts the pool back as a dev snapshot had it (the chain and L1 were reverted with it), and
   * reads the fees of the reverted L1.
   */
  async restorePool(entries: readonly PoolEntry[]): Promise<void> {
    this.pool.replaceAll(entries);
    this.evictedAt = '';
    await this.refreshFees();
  }

  // ---- queries -------------------------------------------------------------------------------

  getPendingTx(hash: Fr): Tx | undefined {
    return this.pool.status(hash) === 'pending' ? this.pool.get(hash) : undefined;
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
    return this.revertReasons.get(toHex32(hash));
  }

  /** The receipt (docs/transactions.md): mined from the chain, else pending from the pool, else dropped. */
  getTxReceipt(hash: Fr, options: { includeTxEffect?: boolean; includePendingTx?: boolean } = {}): TxReceipt {
    const effect = this.o.chain.getTxEffect(hash);
    if (effect) {
      const tips = this.o.chain.getTips();
      const n = effect.l2BlockNumber;
      const status: MinedStatus =
        n <= tips.finalized.block.number
          ? 'finalized'
          : n <= tips.proven.block.number
            ? 'proven'
            : n <= tips.checkpointed.block.number
              ? 'checkpointed'
              : 'proposed';
      const reverted = effect.data.revertCode !== RevertCode.OK;
      const error = reverted ? this.revertReason(hash) : undefined;
      return {
        txHash: hash,
        status,
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
    const known = this.pool.status(hash);
    if (known !== undefined) {
      const tx = this.pool.get(hash);
      return { txHash: hash, status: 'pending', ...(options.includePendingTx && tx ? { tx } : {}) };
    }
    return { txHash: hash, status: 'dropped', error: TX_DROPPED_ERROR };
  }

  // ---- simulation ----------------------------------------------------------------------------

  /**
   * The execution options with instance overrides in the contract source, each overridden address
   * deployed on the fork (its deployment nullifier inserted) so that the AVM runs it.
   */
  private withContractOverrides(
    fork: WorldStateFork,
    overrides: SimulationOverrides['contracts'],
  ): ExecutionOptions {
    const base = this.o.execution ?? {};
    if (overrides === undefined || overrides.size === 0) return base;
    const missing = [...overrides.keys()]
      .map((address) => siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, address))
      .filter((n) => fork.findLeaf(TreeId.NULLIFIER, n) === undefined);
    if (missing.length > 0) fork.insertNullifiers(missing);
    const inner = base.contracts;
    const contracts: PublicContracts = {
      instance(address) {
        const o = overrides.get(address);
        if (o === undefined) return inner?.instance(address);
        return {
          deployer: o.deployer,
          originalClassId: o.currentContractClassId,
          initializationHash: o.initializationHash,
        };
      },
      bytecode: (classId) => inner?.bytecode(classId),
    };
    return { ...base, contracts };
  }

  /**
   * Runs the tx on a fork of the latest state with the next block's globals (zero coinbase and
   * fee recipient); overrides touch only the fork. A tx that cannot be included is an error.
   */
  async simulatePublicCalls(
    tx: Tx,
    skipFeeEnforcement: boolean,
    overrides: SimulationOverrides = {},
  ): Promise<PublicSimulationOutput> {
    const context = await this.context(false);
    const { fees, slot } = await this.snapshot();
    const fork = this.o.worldState.fork();
    const writes = (overrides.publicStorage ?? []).map((w) => ({
      slot: publicDataLeafSlot(w.contractAddress, w.slot),
      value: w.value,
    }));
    if (writes.length > 0) fork.writePublicData(writes);
    const execution = this.withContractOverrides(fork, overrides.contracts);
    // The checks before execution see the overrides too (the fee payer's balance is one).
    const validation = this.validator.validate(
      tx,
      undefined,
      { ...context, state: fork, nextBlockNumber: fork.blockNumber + 1 },
      { isSimulation: true, skipFeeEnforcement },
    );
    if (validation.result === 'invalid') throw txRejected(validation.reason);
    const globalVariables: GlobalVariables = {
      chainId: BigInt(this.o.chainId),
      version: BigInt(this.o.rollupVersion),
      blockNumber: fork.blockNumber + 1,
      slotNumber: slot,
      timestamp: slotStart(slot, this.o.constants),
      coinbase: `0x${'0'.repeat(40)}`,
      feeRecipient: 0n,
      gasFees: skipFeeEnforcement ? { feePerDaGas: 0n, feePerL2Gas: 0n } : fees,
    };
    try {
      const result = executeTx(fork, tx, validation.hash!, globalVariables, {
        ...execution,
        skipFeeEnforcement,
      });
      return {
        ...(result.revertReason !== undefined ? { revertReason: result.revertReason } : {}),
        ...(result.revertData !== undefined ? { revertData: result.revertData } : {}),
        globalVariables,
        txEffect: result.effect,
        publicReturnValues: result.publicReturnValues,
        gasUsed: result.gasUsed,
        debugLogs: [],
      };
    } catch (err) {
      if (err instanceof TxExecutionError) throw txRejected([err.reason]);
      throw err;
    }
  }
}
