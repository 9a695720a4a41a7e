// The dev prover: once an epoch has ended, submits its proof — the epoch's out-hash root over
// the checkpoints it covers — from the authorised prover account. The proof bytes are not a
// real proof (cairn's L1 accepts any; getNodeInfo says realProofs: false).
import type { Logger } from 'pino';
import type { Hash, PrivateKeyAccount } from 'viem';
import type { ChainReader } from '../archiver/chain-reader.js';
import { accumulateCheckpointOutHashes } from '../core/out-hash.js';
import { epochOfSlot, type L1RollupConstants, slotAt } from '../core/time.js';
import type { ProverL1 } from '../l1/roles.js';

export const DEV_PROOF = '0x01' as const;
/** Seconds of L1 time after which a proof that has not landed is sent again. */
const RESEND_AFTER_S = 30n;

export class DevProver {
  /** The last proof sent (to checkpoint n, at an L1 time), so it is not sent again before it lands. */
  private sent = { to: 0, at: 0n };

  constructor(
    private readonly o: {
      rollup: ProverL1;
      store: ChainReader;
      constants: L1RollupConstants;
      prover: PrivateKeyAccount;
      logger: Logger;
    },
  ) {}

  /**
   * Forgets the proof it sent (a dev revert dropped the L1's pending transactions, the proof with
   * them): the next pass sends one if one is due.
   */
  forgetSentProof(): void {
    this.sent = { to: 0, at: 0n };
  }

  /** Proves the oldest unproven epoch that ended before the slot of `l1Timestamp`, if any. */
  async work(
    l1Timestamp: bigint,
  ): Promise<{ epoch: number; toCheckpoint: number; txHash: Hash } | undefined> {
    const { rollup, store, constants } = this.o;
    const proven = await rollup.provenCheckpointNumber();
    const pending = await rollup.pendingCheckpointNumber();
    if (pending <= proven || store.latestCheckpointNumber < pending) return undefined;
    // Too late: these checkpoints are due for pruning, and L1 refuses their proof.
    if (await rollup.canPruneAtTime(l1Timestamp)) return undefined;
    // A proof sent but not landed yet is waited for; after a while (it may have failed) it is sent again.
    if (this.sent.to > proven && l1Timestamp - this.sent.at < RESEND_AFTER_S) return undefined;
    const first = store.getCheckpoint(proven + 1)!.checkpoint;
    const epoch = epochOfSlot(first.header.slotNumber, constants);
    if (epochOfSlot(slotAt(l1Timestamp, constants), constants) <= epoch) return undefined; // not over yet
    const ofEpoch = store.checkpointsOfEpoch(epoch, constants.epochDuration).map((p) => p.checkpoint);
    const to = ofEpoch[ofEpoch.length - 1]!.number;
    const outHash = accumulateCheckpointOutHashes(ofEpoch.map((c) => c.checkpointOutHash));
    const txHash = await rollup.submitEpochProof(this.o.prover, epoch, proven + 1, to, outHash, DEV_PROOF);
    this.sent = { to, at: l1Timestamp };
    this.o.logger.info(`epoch ${epoch} proof (checkpoints ${proven + 1}..${to}) sent to L1`);
    return { epoch, toCheckpoint: to, txHash };
  }
}
