// Settling the pool with the chain after every chain pass: txs that landed become mined, mined txs
// whose block went away (pruned or unwound) are pending again, final ones leave, and pending txs
// that can no longer be included (unincludable.ts) are evicted.
import type { Logger } from 'pino';
import type { ChainReader } from '../archiver/chain-reader.js';
import type { L2Block } from '../core/block.js';
import { type Fr, toHex32 } from '../core/field.js';
import { type L1RollupConstants, slotStart } from '../core/time.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import type { MinFees } from './min-fees.js';
import type { TxPool } from './tx-pool.js';
import { findUnincludable } from './unincludable.js';

/** How many recent blocks the pool remembers having settled with. */
const SETTLED_WINDOW = 256;

export class PoolSettling {
  /** Hashes of the blocks the pool has been settled with, by number (recent ones only). */
  readonly #settled = new Map<number, Fr>();
  /** What the last eviction pass saw: the latest block and the next slot. */
  #evictedAt = '';
  readonly #txHashesByBlock = new WeakMap<L2Block, Set<Fr>>();

  constructor(
    private readonly o: {
      pool: TxPool;
      chain: Pick<ChainReader, 'latestBlockNumber' | 'getBlock' | 'getTips' | 'getTxEffect'>;
      worldState: Pick<ReadableWorldState, 'latestBlockNumber' | 'at'>;
      fees: Pick<MinFees, 'refresh' | 'last'>;
      constants: L1RollupConstants;
      logger: Logger;
    },
  ) {}

  /** After a chain pass: mined / returned / dropped txs, and the fee snapshot. */
  async afterPass(): Promise<void> {
    const { pool, chain } = this.o;
    const latest = chain.latestBlockNumber;
    this.#settleMined();
    // Txs in blocks added since the last pass are mined. A settled block that changed (unwound and
    // rebuilt) is settled again.
    let from = latest + 1;
    for (let n = latest; n >= 1 && n > latest - SETTLED_WINDOW; n--) {
      const known = this.#settled.get(n);
      from = n;
      if (known !== undefined && known === chain.getBlock(n)?.hash) {
        from = n + 1;
        break;
      }
    }
    // The first pass (after a start) checks every pending tx against the trees; later ones only
    // against the nullifiers of the blocks settled since.
    const firstPass = this.#settled.size === 0;
    if (firstPass) from = 1;
    const landed: Fr[] = [];
    for (let n = from; n <= latest; n++) {
      const block = chain.getBlock(n);
      if (!block) continue;
      const hashes = block.body.txEffects.map((e) => e.txHash).filter((h) => pool.status(h) === 'pending');
      if (hashes.length > 0) pool.markMined(hashes, n);
      if (!firstPass) for (const effect of block.body.txEffects) landed.push(...effect.nullifiers);
      this.#settled.set(n, block.hash);
    }
    for (const n of this.#settled.keys())
      if (n > latest || n <= latest - SETTLED_WINDOW) this.#settled.delete(n);
    await this.o.fees.refresh();
    // Re-validation is needed only when the state or the slot moved.
    const mark = `${latest}:${chain.getBlock(latest)?.hash}:${this.o.fees.last.slot}`;
    if (mark !== this.#evictedAt) {
      this.#evictedAt = mark;
      this.#evictUnincludable(firstPass ? undefined : landed);
    }
  }

  /** The pool was replaced (a dev revert): the next pass re-validates every pending tx. */
  poolReplaced(): void {
    this.#evictedAt = '';
  }

  /** Mined txs whose block is gone (pruned or unwound) come back; final ones leave the pool. */
  #settleMined(): void {
    const { pool, chain } = this.o;
    const tips = chain.getTips();
    const back: Fr[] = [];
    const final: Fr[] = [];
    for (const entry of pool.minedEntries()) {
      // Still in the block it was mined in (the usual case, checked without a lookup per tx), or
      // wherever the chain has it now.
      const minedIn = entry.blockNumber!;
      const at = this.#txHashesOf(minedIn)?.has(entry.hash)
        ? minedIn
        : chain.getTxEffect(entry.hash)?.l2BlockNumber;
      if (at === undefined) back.push(entry.hash);
      else if (at <= tips.finalized.block.number) final.push(entry.hash);
    }
    if (back.length > 0) {
      pool.markPending(back);
      this.o.logger.info(`${back.length} tx(s) of removed blocks are pending again`);
    }
    if (final.length > 0) pool.remove(final);
  }

  /** The tx hashes of a block of the chain store, kept while the store keeps the block cached. */
  #txHashesOf(blockNumber: number): Set<Fr> | undefined {
    const block = this.o.chain.getBlock(blockNumber);
    if (block === undefined) return undefined;
    let hashes = this.#txHashesByBlock.get(block);
    if (hashes === undefined) {
      hashes = new Set(block.body.txEffects.map((e) => e.txHash));
      this.#txHashesByBlock.set(block, hashes);
    }
    return hashes;
  }

  /**
   * `landed`: the nullifiers of the blocks settled since the last pass, found through the pool's
   * nullifier index; undefined: look each pending tx's nullifiers up in the tree.
   */
  #evictUnincludable(landed: readonly Fr[] | undefined): void {
    const { pool, worldState } = this.o;
    const drop = findUnincludable(
      pool.pendingInOrder(),
      worldState.at(worldState.latestBlockNumber),
      {
        blockNumber: worldState.latestBlockNumber + 1,
        slotStart: slotStart(this.o.fees.last.slot, this.o.constants),
      },
      landed === undefined ? undefined : new Set(pool.conflictsOf(landed)),
    );
    if (drop.length === 0) return;
    pool.remove(drop.map((d) => d.hash));
    for (const d of drop) this.o.logger.info(`tx ${toHex32(d.hash)} left the mempool: ${d.why}`);
  }
}
