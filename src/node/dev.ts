// The dev cheat codes (svcDev_*, served only when the node runs its own L1): mine L1 blocks
// with a chain pass after each, move L1 time to a slot or the next epoch, send an L1-to-L2
// message or a Fee Juice deposit from the embedded L1's dev account, and switch the clock.
import type { Logger } from 'pino';
import { createTestClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainReader } from '../archiver/chain-reader.js';
import { invalidParams, refused } from '../core/errors.js';
import type { Fr } from '../core/field.js';
import { epochOfSlot, type L1RollupConstants, slotAt, slotStart } from '../core/time.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../l1/deploy.js';
import { type MessageSentEvent, messageSentIn, type RollupClient } from '../l1/rollup-client.js';
import type { ChainDriver } from './chain-driver.js';
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
  logger: Logger;
}

export class DevOperations {
  private readonly anvil;
  /** The embedded L1's funded deployer sends the dev L1 transactions. */
  private readonly sender = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);

  constructor(private readonly o: DevOperationsOptions) {
    this.anvil = createTestClient({ mode: 'anvil', transport: http(o.l1RpcUrl) });
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
  async mine(blocks: number): Promise<{ l1Block: bigint; l2Block: number }> {
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
  async advanceToSlot(slot: number): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    const { constants } = this.o;
    const now = (await this.o.rollup.latestL1Block()).timestamp;
    if (slot <= slotAt(now, constants)) {
      throw invalidParams(`slot ${slot} is not in the future: the L1 is in slot ${slotAt(now, constants)}`);
    }
    await this.anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    const mined = await this.mine(2);
    return { ...mined, slot };
  }

  /** Moves L1 time to the next slot (the instant clock's step). */
  async advanceToNextSlot(): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    const now = (await this.o.rollup.latestL1Block()).timestamp;
    return this.advanceToSlot(slotAt(now, this.o.constants) + 1);
  }

  async advanceToNextEpoch(): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    const { constants } = this.o;
    const now = (await this.o.rollup.latestL1Block()).timestamp;
    const epoch = epochOfSlot(slotAt(now, constants), constants);
    return this.advanceToSlot((epoch + 1) * constants.epochDuration);
  }

  /** Switches the clock: realtime mines every l1BlockTime seconds and runs passes on a timer. */
  async setClock(mode: 'realtime' | 'manual'): Promise<void> {
    const { clock, driver } = this.o;
    if (mode === clock.mode) return;
    if (mode === 'realtime') {
      await this.anvil.setIntervalMining({ interval: this.o.l1BlockTime });
      driver.start();
    } else {
      await driver.stop();
      await this.anvil.setIntervalMining({ interval: 0 });
    }
    clock.mode = mode;
    this.o.logger.info(`clock switched to ${mode}`);
  }
}
