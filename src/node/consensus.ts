// Assembles the node's consensus parts: the committee view, the attestation pool, the validator
// client, the validator monitor (stats and offenses) and, with P2P on, the network that carries
// txs, proposals and attestations between nodes (libp2p; an in-process test gives its own).
import type { Logger } from 'pino';
import type { ChainReader, ProposedBlocks } from '../archiver/chain-reader.js';
import type { Config } from '../config/settings.js';
import { type Fr, toHex32 } from '../core/field.js';
import type { L1RollupConstants } from '../core/time.js';
import type { Tx } from '../core/tx.js';
import type { L1Connection } from '../l1/connect.js';
import type { RollupClient } from '../l1/rollup-client.js';
import { SlasherClient } from '../l1/slasher-client.js';
import type { TxService } from '../mempool/tx-service.js';
import type { P2PNetwork, StagedHandler } from '../p2p/network.js';
import type { StoreEnvironment } from '../store/environment.js';
import { AttestationPool } from '../validators/attestation-pool.js';
import { CommitteeView, type Domain } from '../validators/committee.js';
import type { Validator } from '../validators/keystore.js';
import { decodeTxMessage, encodeTxMessage, TOPICS } from '../validators/messages.js';
import { ValidatorMonitor } from '../validators/monitor.js';
import { SigningRecord } from '../validators/signing-record.js';
import { SlashVoter } from '../validators/slash-voter.js';
import { EquivocationWatcher, OffenseStore } from '../validators/slashing.js';
import { ValidatorStatsStore } from '../validators/stats.js';
import { RECENT_SLOTS, ValidatorClient } from '../validators/validator-client.js';
import type { WorldState } from '../world-state/world-state.js';

/**
 * The tx topic's handler: a tx is decoded when the queue takes it, and hashed on the hash workers
 * (by the tx service) when its turn comes, not before: the queue runs up to `concurrency` handlers at once, enough to
 * keep every worker busy, and a hold on bulk work (a proposal being built or checked) then holds
 * the hashing too. Hashes started for every queued tx (up to 2,000 under a burst) would keep the
 * cores busy through the hold, beside the proposal's work. A message that does not decode is
 * rejected (it costs its sender score).
 */
export function txGossipHandler(
  txs: Pick<TxService, 'receiveFromPeer'>,
): StagedHandler<PreparedTx | undefined> {
  return {
    prepare: (data) => {
      try {
        return decodeTxMessage(data);
      } catch {
        return undefined;
      }
    },
    handle: (prepared) =>
      prepared === undefined ? 'reject' : txs.receiveFromPeer(prepared.tx, prepared.claimedHash),
  };
}

interface PreparedTx {
  tx: Tx;
  claimedHash: Fr | undefined;
}

/**
 * What the consensus parts need of a gossip network: libp2p's (P2PNetwork), or the one an
 * in-process test runs between its nodes (ConsensusDeps.gossip).
 */
export type GossipNetwork = Pick<P2PNetwork, 'publish' | 'announce' | 'subscribe' | 'holdBulk'>;

export interface Consensus {
  committee: CommitteeView;
  pool: AttestationPool;
  offenses: OffenseStore;
  /** Slots per slashing round: the Slasher's (the setting's only when the rollup has none). */
  slashingRoundSize: number;
  /** Reads and casts votes on slash payloads; undefined when the rollup has no Slasher. */
  slashVoter: SlashVoter | undefined;
  client: ValidatorClient;
  /** What the node's validators signed per slot (slashing protection). */
  signingRecord: SigningRecord;
  /** Undefined when validator stats are off. */
  stats: ValidatorStatsStore | undefined;
  monitor: ValidatorMonitor | undefined;
  /** Undefined when P2P is off. */
  network: P2PNetwork | undefined;
  stop(): Promise<void>;
}

export interface ConsensusDeps {
  config: Config;
  domain: Domain;
  l1: L1Connection;
  rollup: RollupClient;
  chain: ChainReader;
  /** Where accepted proposed blocks go: the archiver. */
  proposedBlocks: ProposedBlocks;
  worldState: WorldState;
  constants: L1RollupConstants;
  txs: TxService;
  nodeStore: StoreEnvironment;
  /** The `p2p` store (the node key); open exactly when P2P is on. */
  p2pStore: StoreEnvironment | undefined;
  /**
   * Carries the gossip in place of libp2p: an in-process test's own network between its nodes.
   * The node's start never sets it; with it, no libp2p host is started.
   */
  gossip?: GossipNetwork | undefined;
  validators: () => readonly Validator[];
  /** Asks for a chain pass soon (the chain driver, built after the consensus parts, listens). */
  requestPass: () => void;
  root: Logger;
}

export async function startConsensus(d: ConsensusDeps): Promise<Consensus> {
  const { config, constants } = d;
  const committee = new CommitteeView(d.rollup);
  const pool = new AttestationPool();
  const logger = d.root.child({ component: 'validator' });
  const slasher = await openSlasher(d, logger);
  const slashingRoundSize = slasher?.roundSize ?? config.slashingRoundSize;
  const offenses = new OffenseStore(d.nodeStore, {
    roundSize: slashingRoundSize,
    epochDuration: constants.epochDuration,
  });
  const slashVoter =
    slasher === undefined
      ? undefined
      : new SlashVoter({
          ...slasher,
          chainId: d.l1.chainId,
          epochDuration: constants.epochDuration,
          expirationRounds: config.slashOffenseExpirationRounds,
          maxPayloadSize: config.slashMaxPayloadSize,
          offenses,
          logger,
        });
  // libp2p is loaded only when P2P is on: its modules take about a second to import, which every
  // node without P2P (dev chains, most tests) would otherwise pay at start.
  const p2p =
    d.p2pStore !== undefined && d.gossip === undefined ? await import('../p2p/network.js') : undefined;
  const network =
    p2p !== undefined && d.p2pStore !== undefined
      ? await p2p.P2PNetwork.start({
          privateKey: p2p.loadOrCreatePeerKey(d.p2pStore),
          listenHost: config.p2pListenHost,
          listenPort: config.p2pPort,
          announceHost: config.p2pAnnounceHost,
          bootstrap: config.p2pBootstrapNodes,
          topicPrefix: `/cairn/${d.domain.chainId}/${d.domain.rollup.toLowerCase()}`,
          logger: d.root.child({ component: 'p2p' }),
        })
      : undefined;
  const gossip: GossipNetwork | undefined = d.gossip ?? network;
  const signingRecord = new SigningRecord(d.nodeStore, RECENT_SLOTS);
  const client = new ValidatorClient({
    domain: d.domain,
    committee,
    pool,
    equivocation: new EquivocationWatcher({
      duplicateProposalPenalty: config.slashDuplicateProposalPenalty,
      duplicateAttestationPenalty: config.slashDuplicateAttestationPenalty,
    }),
    offenses,
    signingRecord,
    chain: d.chain,
    proposedBlocks: d.proposedBlocks,
    worldState: d.worldState,
    rollup: d.rollup,
    constants,
    validators: d.validators,
    // While it builds or checks a proposal, txs from peers and from clients wait to be checked.
    network:
      gossip === undefined
        ? undefined
        : {
            publish: (name, data) => gossip.publish(name, data),
            holdBulk: () => {
              const peers = gossip.holdBulk();
              const clients = d.txs.admissionHold.take();
              return () => {
                peers();
                clients();
              };
            },
          },
    requestPass: d.requestPass,
    logger,
  });
  if (gossip !== undefined) {
    gossip.subscribe(TOPICS.blockProposal, (data, from) => client.onBlockProposal(data, from));
    gossip.subscribe(TOPICS.checkpointProposal, (data, from) => client.onCheckpointProposal(data, from));
    gossip.subscribe(TOPICS.attestation, (data, from) => client.onAttestation(data, from));
    // Txs are bulk: validated after consensus messages, limited per peer, shed under a flood.
    gossip.subscribe(TOPICS.tx, txGossipHandler(d.txs), 'bulk');
    d.txs.setGossip({
      announce: (tx, hash) => {
        gossip.announce(TOPICS.tx, encodeTxMessage(tx, hash)).catch((err) => {
          logger.warn(`announcing tx ${toHex32(hash)} failed: ${(err as Error).message}`);
        });
      },
    });
  }
  if (network !== undefined) logger.info(`P2P: peer id ${network.peerId}, node record ${network.enr}`);
  const stats = config.validatorStats
    ? new ValidatorStatsStore(d.nodeStore, { slotWindow: config.validatorStatsSlotWindow })
    : undefined;
  const monitor =
    stats === undefined
      ? undefined
      : new ValidatorMonitor({
          stats,
          offenses,
          pool,
          committee,
          chain: d.chain,
          constants,
          domain: d.domain,
          meta: d.nodeStore.database<number>('validator-monitor'),
          slashing: {
            inactivityThreshold: config.slashInactivityTargetPercentage,
            inactivityPenalty: config.slashInactivityPenalty,
            insufficientAttestationsPenalty: config.slashInsufficientAttestationsPenalty,
          },
          logger,
        });
  return {
    committee,
    pool,
    offenses,
    slashingRoundSize,
    slashVoter,
    client,
    signingRecord,
    stats,
    monitor,
    network,
    stop: async () => {
      await network?.stop();
    },
  };
}

/** The rollup's Slasher with the round size and quorum it was deployed with; undefined if the rollup has none. */
async function openSlasher(
  d: ConsensusDeps,
  logger: Logger,
): Promise<{ slasher: SlasherClient; roundSize: number; quorum: number } | undefined> {
  const address = d.l1.addresses.slashFactoryAddress;
  if (address === undefined) return undefined;
  const slasher = new SlasherClient(d.l1, address);
  const [roundSize, quorum] = await Promise.all([slasher.roundSize(), slasher.quorumSize()]);
  if (roundSize !== d.config.slashingRoundSize)
    logger.warn(
      `the Slasher's rounds are ${roundSize} slots (slashingRoundSize ${d.config.slashingRoundSize} applies only to a new deployment)`,
    );
  return { slasher, roundSize, quorum };
}
