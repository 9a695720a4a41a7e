// Dev snapshots (svcDev_snapshot, svcDev_revert, svcDev_reset): the whole dev chain — the embedded
// L1 and the L2 on it — taken back to an earlier moment, as anvil's evm_snapshot and evm_revert do
// for an L1 alone (app test suites reset their state between tests with them).
//
// The design: the L1 is the source of truth the node already follows, so a snapshot is anvil's
// own (evm_snapshot, in anvil's memory) plus what L1 cannot give back, kept in the node's memory:
// - the chain's tips and its proposed blocks no checkpoint holds yet (Archiver.devSnapshot);
// - the mempool's txs (entries are immutable, so this is a list of references);
// - the per-slot memory of the sequencer, the signing record and the attestation pool from the
//   L1's slot on: evm_revert takes L1 time back, so slots come again, and without this the
//   validators would refuse to sign a second checkpoint in a slot they signed in a history that
//   no longer exists (and the sequencer would take the slot as done).
// A revert runs between chain passes: evm_revert, drop the L1's pending transactions (sent in the
// history being left), then the archiver — the chain store's only writer — unwinds to the newest
// checkpoint L1 still holds and reads L1 again up to the snapshot's sync point, exactly as after
// an L1 reorg, re-stores the proposed blocks and sets the proven and finalized tips back; the
// world state follows the blocks (it is versioned by block). Then the mempool and the slot memory
// are put back, and the embedded L1's state is saved at once as a new history, so that a restart
// comes back to the reverted state. Nothing is copied on disk: a snapshot costs milliseconds.
// Snapshots live in memory, as anvil's do: a restart forgets them.
import type { Logger } from 'pino';
import type { Hex } from 'viem';
import type { Archiver, ChainSnapshot } from '../archiver/archiver.js';
import type { ChainReader } from '../archiver/chain-reader.js';
import { refused } from '../core/errors.js';
import { type L1RollupConstants, slotAt } from '../core/time.js';
import type { RollupClient } from '../l1/rollup-client.js';
import type { PoolEntry } from '../mempool/tx-pool.js';
import type { TxService } from '../mempool/tx-service.js';
import type { DevProver } from '../prover/dev-prover.js';
import type { Sequencer, SlotsActedIn } from '../sequencer/sequencer.js';
import type { AttestationPool, SlotEntry } from '../validators/attestation-pool.js';
import type { SigningRecord } from '../validators/signing-record.js';
import type { ChainDriver } from './chain-driver.js';

export interface DevSnapshotParts {
  /** A JSON-RPC request to the embedded anvil. */
  anvil: (method: string, params: unknown[]) => Promise<unknown>;
  rollup: Pick<RollupClient, 'latestL1Block' | 'pendingCheckpointNumber'>;
  /** Saves the embedded L1's state as a new history (L1Connection.saveAfterRevert). */
  saveL1: () => Promise<bigint | undefined>;
  /**
   * Takes the embedded L1 back to its saved genesis (L1Connection.resetToGenesis): how a node
   * restarted on a chain past genesis resets, as anvil's own snapshots do not survive a restart.
   */
  resetL1: (() => Promise<boolean>) | undefined;
  constants: L1RollupConstants;
  driver: Pick<ChainDriver, 'between'>;
  archiver: Pick<Archiver, 'devSnapshot' | 'genesisSnapshot' | 'revertToSnapshot'>;
  chain: ChainReader;
  txs: Pick<TxService, 'poolSnapshot' | 'restorePool'>;
  sequencer: Pick<Sequencer, 'slotsActedIn' | 'restoreSlotsActedIn'> | undefined;
  prover: Pick<DevProver, 'forgetSentProof'> | undefined;
  signingRecord: Pick<SigningRecord, 'entriesFrom' | 'restoreFrom'>;
  attestations: Pick<AttestationPool, 'copyFrom' | 'restoreFrom'>;
  logger: Logger;
}

interface Snapshot {
  /** anvil's snapshot; undefined for the genesis saved on disk (resetL1 takes L1 back to it). */
  anvilId: Hex | undefined;
  /** The slot of the L1's latest block when it was taken: the slot memory from here on is kept. */
  slot: number;
  chain: ChainSnapshot;
  pool: PoolEntry[];
  slots: SlotsActedIn | undefined;
  signed: [string, string][];
  attestations: Map<number, SlotEntry>;
}

/** Where the chain is after a revert. */
export interface Reverted {
  l1Block: bigint;
  l2Block: number;
}

export class DevSnapshots {
  /** Snapshots by id, taken in id order (anvil's ids grow the same way). */
  private readonly taken = new Map<number, Snapshot>();
  private nextId = 0;
  /**
   * The chain at genesis as this node started on it (svcDev_reset goes back to it); undefined
   * when the node started past genesis, where a reset goes back to the genesis saved on disk.
   */
  private genesis: Promise<Snapshot | undefined>;

  constructor(private readonly o: DevSnapshotParts) {
    // Queued before any pass the node runs from now on: the realtime clock's first pass comes later.
    this.genesis = this.takeGenesis();
  }

  /** Takes a snapshot; returns its id. */
  async snapshot(): Promise<number> {
    const taken = await this.o.driver.between(() => this.take());
    const id = this.nextId++;
    this.taken.set(id, taken);
    this.o.logger.info(
      `dev snapshot 0x${id.toString(16)} taken at block ${taken.chain.latest.number} (L1 snapshot ${taken.anvilId})`,
    );
    return id;
  }

  /**
   * Reverts the chain to snapshot `id`, which is consumed with every later one (as anvil does);
   * an unknown id changes nothing.
   */
  async revert(id: number): Promise<Reverted> {
    const snapshot = this.taken.get(id);
    if (snapshot === undefined) {
      throw refused(
        `no dev snapshot 0x${id.toString(16)}: never taken, or consumed by a revert to it or to an earlier one, or by a reset (snapshots do not survive a restart)`,
      );
    }
    for (const later of [...this.taken.keys()]) if (later >= id) this.taken.delete(later);
    const reverted = await this.o.driver.between(() => this.restore(snapshot));
    this.o.logger.info(`reverted to dev snapshot 0x${id.toString(16)}`);
    return reverted;
  }

  /**
   * Goes back to genesis: the chain as the node deployed it, before any checkpoint. In memory
   * (anvil's snapshot) when this node started at genesis; else from the L1's genesis state saved
   * on disk when the protocol was deployed.
   */
  async reset(): Promise<Reverted> {
    const genesis = (await this.genesis) ?? this.genesisOnDisk();
    const reverted = await this.o.driver.between(async () => {
      const r = await this.restore(genesis);
      // anvil consumed the genesis snapshot and every later one (a reset from disk, all of them).
      this.taken.clear();
      this.genesis = this.take().then(
        (s) => s,
        (err: unknown) => this.genesisLost(err),
      );
      await this.genesis;
      return r;
    });
    this.o.logger.info('reset to genesis');
    return reverted;
  }

  private async takeGenesis(): Promise<Snapshot | undefined> {
    try {
      return await this.o.driver.between(async () => {
        const { chain, rollup } = this.o;
        const atGenesis =
          chain.latestBlockNumber === 0 &&
          chain.latestCheckpointNumber === 0 &&
          (await rollup.pendingCheckpointNumber()) === 0;
        return atGenesis ? this.take() : undefined;
      });
    } catch (err) {
      return this.genesisLost(err);
    }
  }

  /** Genesis as saved on disk: no L2 block, no tx, no slot acted in; L1 goes back through resetL1. */
  private genesisOnDisk(): Snapshot {
    if (this.o.resetL1 === undefined) throw new Error('dev methods need the embedded L1');
    return {
      anvilId: undefined,
      // Filled in once L1 is back at genesis (restore): the slot memory from genesis on is dropped.
      slot: 0,
      chain: this.o.archiver.genesisSnapshot(),
      pool: [],
      slots: undefined,
      signed: [],
      attestations: new Map(),
    };
  }

  private genesisLost(err: unknown): undefined {
    this.o.logger.warn(`no genesis snapshot (svcDev_reset will refuse): ${(err as Error).message}`);
    return undefined;
  }

  /** Between passes. */
  private async take(): Promise<Snapshot> {
    const o = this.o;
    // The slot before anvil's snapshot: never later than the snapshot's own.
    const slot = slotAt((await o.rollup.latestL1Block()).timestamp, o.constants);
    const anvilId = (await o.anvil('evm_snapshot', [])) as Hex;
    return {
      anvilId,
      slot,
      chain: o.archiver.devSnapshot(),
      pool: o.txs.poolSnapshot(),
      slots: o.sequencer?.slotsActedIn(),
      signed: o.signingRecord.entriesFrom(slot),
      attestations: o.attestations.copyFrom(slot),
    };
  }

  /** Between passes. */
  private async restore(s: Snapshot): Promise<Reverted> {
    const o = this.o;
    if (s.anvilId !== undefined) {
      if ((await o.anvil('evm_revert', [s.anvilId])) !== true)
        throw new Error(`the embedded L1 no longer has its snapshot ${s.anvilId}`);
    } else if (!(await o.resetL1?.())) {
      throw refused(
        'cannot reset: this data directory has no saved genesis of its embedded L1 (it was made by a cairn older than svcDev_reset after a restart); start the node on a new data directory, e.g. --ephemeral, to begin at genesis',
      );
    }
    // Sent in the history being left: a proposal or proof of it must not land in this one.
    await o.anvil('anvil_dropAllTransactions', []);
    const same = await o.archiver.revertToSnapshot(s.chain);
    await o.txs.restorePool(s.pool);
    if (s.slots !== undefined) o.sequencer?.restoreSlotsActedIn(s.slots);
    o.prover?.forgetSentProof();
    const slot =
      s.anvilId === undefined ? slotAt((await o.rollup.latestL1Block()).timestamp, o.constants) : s.slot;
    o.signingRecord.restoreFrom(slot, s.signed);
    o.attestations.restoreFrom(slot, s.attestations);
    const saved = await o.saveL1();
    if (saved === undefined) {
      throw new Error(
        "reverted, but the embedded L1's state could not be saved: a restart now would bring back the L1 blocks of before the revert",
      );
    }
    if (!same) o.logger.warn('the chain after the revert is not the snapshot’s: see the archiver’s log');
    return { l1Block: (await o.rollup.latestL1Block()).number, l2Block: o.chain.latestBlockNumber };
  }
}
