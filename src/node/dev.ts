// The dev cheat codes (svcDev_*, served only when the node runs its own L1): mine L1 blocks
// with a chain pass after each, move L1 time to a slot or the next epoch, send an L1-to-L2
// message or a Fee Juice deposit from the embedded L1's dev account, switch the clock (the instant
// clock's builder is here, instant-blocks.ts), and take the whole chain back to a snapshot or to
// genesis (dev-snapshots.ts).
import type { Logger } from 'pino';
import { createTestClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Archiver } from '../archiver/archiver.js';
import type { ChainReader } from '../archiver/chain-reader.js';
import { invalidParams, refused, unavailable } from '../core/errors.js';
import { type Fr, toHex32 } from '../core/field.js';
import { epochOfSlot, type L1RollupConstants, slotAt, slotStart } from '../core/time.js';
import { randomFr } from '../core/tx-builder.js';
import { devAccounts } from '../execution/dev-accounts.js';
import { feeJuiceBalanceSlot } from '../execution/protocol-contracts.js';
import { publicDataLeafSlot, readPublicData } from '../execution/public-storage.js';
import type { L1Connection } from '../l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../l1/deploy.js';
import { type MessageSentEvent, messageSentIn, type RollupClient } from '../l1/rollup-client.js';
import type { TxService } from '../mempool/tx-service.js';
import type { DevProver } from '../prover/dev-prover.js';
import type { Sequencer } from '../sequencer/sequencer.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import type { ChainDriver } from './chain-driver.js';
import type { Consensus } from './consensus.js';
import { DevSnapshots, type Reverted } from './dev-snapshots.js';
import { DevWrites, devWriteEffect, type LeafWrite } from './dev-writes.js';
import { InstantBlocks } from './instant-blocks.js';
import { errorSummary } from './logger.js';
import type { Clock } from './status.js';

export interface DevOperationsOptions {
  /** The embedded anvil's RPC URL: the cheat codes are anvil's. */
  l1RpcUrl: string;
  rollup: RollupClient;
  driver: ChainDriver;
  chain: ChainReader;
  constants: L1RollupConstants;
  clock: Clock;
  l1BlockTime: number;
  rollupVersion: number;
  /** What a revert takes back besides L1: the chain's only writer, the mempool, the slot memory. */
  archiver: Archiver;
  txs: TxService;
  sequencer: Sequencer | undefined;
  prover: DevProver | undefined;
  consensus: Pick<Consensus, 'signingRecord' | 'pool'>;
  l1: Pick<L1Connection, 'saveAfterRevert' | 'resetToGenesis'>;
  worldState: ReadableWorldState;
  /** How many dev accounts genesis funded (the devAccounts setting). */
  devAccounts: number;
  logger: Logger;
}

/** A dev account and its Fee Juice balance. */
export interface DevAccountBalance {
  index: number;
  address: Fr;
  feeJuice: bigint;
}

/** Slots a dev write waits for a block that takes it. */
const WRITE_SLOTS = 4;
const U128_MAX = (1n << 128n) - 1n;

/** Where a dev write landed: its hash (it has a receipt, like a tx's) and block. */
export interface DevWriteLanded {
  txHash: Fr;
  blockNumber: number;
}

export class DevOperations {
  private readonly anvil;
  /** The embedded L1's funded deployer sends the dev L1 transactions. */
  private readonly sender = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);

  private readonly snapshots: DevSnapshots;
  /** The instant clock's builder: idle unless the clock is instant. */
  private readonly instant: InstantBlocks;
  /** Storage writes waiting for the block that carries them. */
  private readonly writes: DevWrites;
  /** The methods that move L1 run one at a time (a revert must not land between a mine's steps). */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: DevOperationsOptions) {
    this.anvil = createTestClient({ mode: 'anvil', transport: http(o.l1RpcUrl) });
    const request = this.anvil.request as unknown as (r: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    const { saveAfterRevert } = o.l1;
    if (saveAfterRevert === undefined) throw new Error('dev methods need the embedded L1');
    this.snapshots = new DevSnapshots({
      anvil: (method, params) => request({ method, params }),
      rollup: o.rollup,
      saveL1: saveAfterRevert,
      resetL1: o.l1.resetToGenesis,
      constants: o.constants,
      driver: o.driver,
      archiver: o.archiver,
      chain: o.chain,
      txs: o.txs,
      sequencer: o.sequencer,
      prover: o.prover,
      signingRecord: o.consensus.signingRecord,
      attestations: o.consensus.pool,
      logger: o.logger,
    });
    this.writes = new DevWrites(o.chain);
    o.sequencer?.setQueuedEffects(this.writes);
    // Txs from clients and peers alike: with the instant clock each gets its block at once.
    this.instant = new InstantBlocks({
      dev: this,
      clock: o.clock,
      pending: () => o.txs.pendingCount,
      logger: o.logger,
    });
    o.txs.onAccepted(() => this.instant.txArrived());
  }

  /** Runs `fn` after the L1-moving dev method under way. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.serial.then(fn);
    this.serial = run.catch(() => undefined);
    return run;
  }

  /** Takes a snapshot of the whole dev chain, L1 and L2; returns its id. */
  snapshot(): Promise<number> {
    return this.exclusive(() => this.snapshots.snapshot());
  }

  /** Takes the whole chain back to snapshot `id` (consumed, with every later one). */
  async revert(id: number): Promise<Reverted> {
    const reverted = await this.exclusive(() => this.snapshots.revert(id));
    this.buildPendingIfInstant();
    return reverted;
  }

  /** Takes the whole chain back to genesis, as this node started on it. */
  async reset(): Promise<Reverted> {
    const reverted = await this.exclusive(() => this.snapshots.reset());
    this.buildPendingIfInstant();
    return reverted;
  }

  /**
   * Drops a pending tx from the mempool, between passes (so that no block being built takes it
   * meanwhile); an unknown or mined tx is refused.
   */
  dropTx(hash: Fr): Promise<void> {
    return this.o.driver.between(async () => this.o.txs.dropPending(hash));
  }

  /**
   * Sets a public storage slot of a contract, in the next block this node builds (see
   * dev-writes.ts); resolves once that block is checkpointed, with the write's hash and block.
   */
  setStorageAt(contract: Fr, slot: Fr, value: Fr): Promise<DevWriteLanded> {
    return this.write([{ leafSlot: publicDataLeafSlot(contract, slot), value }]);
  }

  /** Sets an address's Fee Juice balance (a slot of the FeeJuice contract's balances map), as setStorageAt. */
  setBalance(address: Fr, amount: bigint): Promise<DevWriteLanded> {
    if (amount > U128_MAX) throw invalidParams(`a Fee Juice balance is a u128: ${amount} is above 2^128 - 1`);
    return this.write([{ leafSlot: feeJuiceBalanceSlot(address), value: amount }]);
  }

  /**
   * Queues the writes for the sequencer and makes a block take them: with the manual and instant
   * clocks by moving L1 to the next slot (as the instant clock does for a tx; pending txs go into
   * that block too), with the realtime clock by waiting for the next slots. Resolves once the block
   * is checkpointed, so that it stays; if none took them in time they are withdrawn and nothing is
   * written.
   */
  private write(writes: LeafWrite[]): Promise<DevWriteLanded> {
    const { sequencer, driver, chain, clock } = this.o;
    if (sequencer === undefined)
      throw unavailable(
        'cannot write to the state: no sequencer runs on this node (--sequencer false), and a write is carried by a block it builds',
      );
    if (sequencer.isPaused || driver.isSyncPaused)
      throw refused(
        `cannot write to the state while ${sequencer.isPaused ? 'the sequencer' : 'sync'} is paused: the write is carried by the next block this node builds`,
      );
    return this.exclusive(async () => {
      const effect = devWriteEffect(writes, randomFr());
      const hash = effect.txHash;
      const landed = () => {
        const found = chain.getTxEffect(hash);
        return found !== undefined && found.l2BlockNumber <= chain.getTips().checkpointed.block.number
          ? found.l2BlockNumber
          : undefined;
      };
      this.writes.add(effect);
      try {
        const deadline = Date.now() + WRITE_SLOTS * this.o.constants.slotDuration * 1000;
        for (let slots = 0; landed() === undefined; slots++) {
          if (clock.mode === 'realtime') {
            if (Date.now() > deadline) break;
            await new Promise((r) => setTimeout(r, 250));
          } else {
            if (slots >= WRITE_SLOTS) break;
            const now = (await this.o.rollup.latestL1Block()).timestamp;
            await this.advanceToSlotNow(slotAt(now, this.o.constants) + 1);
          }
        }
      } finally {
        // Landed, or given up: between passes, so no block being built takes it meanwhile.
        await driver.between(async () => this.writes.remove(hash));
      }
      const blockNumber = landed() ?? chain.getTxEffect(hash)?.l2BlockNumber;
      if (blockNumber === undefined)
        throw refused(
          `the write was not taken into a block within ${WRITE_SLOTS} slots (see the sequencer's log); nothing was written`,
        );
      this.o.logger.info(
        `dev write ${toHex32(hash)} in block ${blockNumber}: ${writes.map((w) => `${toHex32(w.leafSlot)} = ${w.value}`).join(', ')}`,
      );
      return { txHash: hash, blockNumber };
    });
  }

  /** The dev accounts with their Fee Juice balances at the latest block. */
  accounts(): { blockNumber: number; accounts: DevAccountBalance[] } {
    const blockNumber = this.o.chain.latestBlockNumber;
    const state = this.o.worldState.at(blockNumber);
    return {
      blockNumber,
      accounts: devAccounts(this.o.devAccounts).map(({ index, address }) => ({
        index,
        address,
        feeJuice: readPublicData(state, feeJuiceBalanceSlot(address)),
      })),
    };
  }

  get clockMode(): Clock['mode'] {
    return this.o.clock.mode;
  }

  /**
   * Sends an L1-to-L2 message through the inbox from the embedded L1's dev account (mined at once
   * with the manual clock); resolves with the message as the inbox recorded it.
   */
  async sendL1ToL2Message(m: { recipient: Fr; content: Fr; secretHash: Fr }): Promise<MessageSentEvent> {
    const hash = await this.o.driver.between(() =>
      this.o.rollup.sendL2Message(this.sender, { ...m, rollupVersion: this.o.rollupVersion }),
    );
    return this.messageOf(hash);
  }

  /** Deposits L1 Fee Juice of the embedded L1's dev account through the portal for an L2 address. */
  async depositFeeJuice(d: { to: Fr; amount: bigint; secretHash: Fr }): Promise<MessageSentEvent> {
    const hash = await this.o.driver.between(() => this.o.rollup.depositFeeJuice(this.sender, d));
    return this.messageOf(hash);
  }

  private async messageOf(l1TxHash: `0x${string}`): Promise<MessageSentEvent> {
    if (this.o.clock.mode !== 'realtime') await this.mine(1);
    const receipt = await this.o.rollup.waitFor(l1TxHash);
    if (receipt.status !== 'success') throw refused(`the L1 transaction ${l1TxHash} reverted`);
    return messageSentIn(receipt);
  }

  /** Mines `blocks` L1 blocks, running a chain pass after each (so proposals and proofs land). */
  mine(blocks: number): Promise<{ l1Block: bigint; l2Block: number }> {
    return this.exclusive(() => this.mineNow(blocks));
  }

  private async mineNow(blocks: number): Promise<{ l1Block: bigint; l2Block: number }> {
    for (let i = 0; i < blocks; i++) {
      await this.anvil.mine({ blocks: 1 });
      try {
        await this.o.driver.pass();
      } catch (err) {
        // L1 did move; the chain pass is retried after the next block.
        this.o.logger.warn(`chain pass after L1 block failed: ${errorSummary(err)}`);
      }
    }
    return { l1Block: (await this.o.rollup.latestL1Block()).number, l2Block: this.o.chain.latestBlockNumber };
  }

  /** Moves L1 time to the start of `slot` (mining a block there), then mines one more block. */
  advanceToSlot(slot: number): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    return this.exclusive(() => this.advanceToSlotNow(slot));
  }

  private async advanceToSlotNow(slot: number): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    const { constants } = this.o;
    const now = (await this.o.rollup.latestL1Block()).timestamp;
    if (slot <= slotAt(now, constants)) {
      throw invalidParams(`slot ${slot} is not in the future: the L1 is in slot ${slotAt(now, constants)}`);
    }
    await this.proveBeforeJumpTo(slot);
    await this.anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    const mined = await this.mineNow(2);
    return { ...mined, slot };
  }

  /**
   * A jump of L1 time past the end of the current epoch would end it and pass its proof window at
   * once, and L1 would prune its unproven checkpoints: the dev chain would lose blocks for a clock
   * move. So the jump stops at each epoch's end while checkpoints are unproven, where the dev
   * prover proves the ended epoch (the two blocks mined there carry its proof), as it would have
   * had time passed slowly. The sequencer holds meanwhile: a block built at a stop would be left
   * unproven by the jump.
   */
  private async proveBeforeJumpTo(slot: number): Promise<void> {
    const { constants, rollup, prover, sequencer } = this.o;
    if (prover === undefined) return;
    const resume = sequencer !== undefined && !sequencer.isPaused;
    sequencer?.pause();
    try {
      for (;;) {
        const proven = await rollup.provenCheckpointNumber();
        if ((await rollup.pendingCheckpointNumber()) <= proven) return;
        const now = (await rollup.latestL1Block()).timestamp;
        const nextEpoch = (epochOfSlot(slotAt(now, constants), constants) + 1) * constants.epochDuration;
        if (slot <= nextEpoch) return;
        await this.anvil.setNextBlockTimestamp({ timestamp: slotStart(nextEpoch, constants) });
        await this.mineNow(2);
        // No proof landed (the prover failed, see its log): jump anyway, as L1 time must move.
        if ((await rollup.provenCheckpointNumber()) === proven) return;
      }
    } finally {
      if (resume) sequencer?.resume();
    }
  }

  /** Moves L1 time to the next slot (the instant clock's step). */
  advanceToNextSlot(): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    return this.exclusive(async () => {
      const now = (await this.o.rollup.latestL1Block()).timestamp;
      return this.advanceToSlotNow(slotAt(now, this.o.constants) + 1);
    });
  }

  advanceToNextEpoch(): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    return this.exclusive(async () => {
      const { constants } = this.o;
      const now = (await this.o.rollup.latestL1Block()).timestamp;
      const epoch = epochOfSlot(slotAt(now, constants), constants);
      return this.advanceToSlotNow((epoch + 1) * constants.epochDuration);
    });
  }

  /**
   * Switches the clock: realtime mines every l1BlockTime seconds and runs passes on a timer;
   * manual moves only through these methods; instant builds a block as soon as a tx arrives (and
   * at once for the txs already pending).
   */
  async setClock(mode: Clock['mode']): Promise<void> {
    await this.exclusive(async () => {
      const { clock, driver } = this.o;
      if (mode === clock.mode) return;
      if (mode === 'realtime') {
        await this.anvil.setIntervalMining({ interval: this.o.l1BlockTime });
        driver.start();
      } else if (clock.mode === 'realtime') {
        // The pass under way ends first; then L1 mines only when asked.
        await driver.stop();
        await this.anvil.setIntervalMining({ interval: 0 });
      }
      clock.mode = mode;
      this.o.logger.info(`clock switched to ${mode}`);
    });
    this.buildPendingIfInstant();
  }

  /** With the instant clock, txs pending now (after a switch or a revert) get their block at once. */
  private buildPendingIfInstant(): void {
    if (this.o.clock.mode === 'instant' && this.o.txs.pendingCount > 0) this.instant.txArrived();
  }
}
