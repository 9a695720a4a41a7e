// The node's libp2p host: TCP + noise + yamux, gossipsub for txs, proposals and attestations, and
// identify. Peers are found from a static bootstrap list (ENRs or multiaddrs) that is re-dialled
// until connected, so nodes may start in any order and recover when a peer restarts, and then from
// what connected peers know (peer-exchange.ts).
//
// Gossip is unsigned, with ids derived from the content: what matters authenticates itself
// (proposals and attestations carry validator signatures, txs their proofs), and a libp2p
// signature per message cost ~1.5 ms of secp256k1 in JavaScript. Received messages are validated
// asynchronously through a ValidationQueue (validation-queue.ts): consensus first and never
// dropped, txs limited per peer and shed when the queue is full. A peer that sends invalid
// messages loses score (gossipsub's P4) until it is graylisted, then it is disconnected and kept
// out for a while; one that floods txs past its limit is pruned from the mesh, and disconnected
// too if it keeps on.
import './polyfill.js';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import {
  type GossipSub,
  type GossipsubMessage,
  gossipsub,
  StrictNoSign,
  TopicValidatorResult,
} from '@libp2p/gossipsub';
import { createTopicScoreParams, type PeerScoreParams } from '@libp2p/gossipsub/score';
import { identify } from '@libp2p/identify';
import type { PeerId } from '@libp2p/interface';
import { noise } from '@libp2p/noise';
import { peerIdFromPrivateKey, peerIdFromString } from '@libp2p/peer-id';
import { tcp } from '@libp2p/tcp';
import { yamux } from '@libp2p/yamux';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createLibp2p, type Libp2p } from 'libp2p';
import type { Logger } from 'pino';
import type { StoreEnvironment } from '../store/environment.js';
import { encodeEnr, multiaddrOfEnr } from './enr.js';
import { PeerExchange } from './peer-exchange.js';
import { type Priority, type QueueLimits, ValidationQueue } from './validation-queue.js';

export interface P2PNetworkOptions {
  /** 32-byte secp256k1 key: the node identity, used for the libp2p peer id AND the ENR. */
  privateKey: Uint8Array;
  /** e.g. '0.0.0.0' or '127.0.0.1'. */
  listenHost: string;
  /** 0 = a free port. */
  listenPort: number;
  /** IPv4 written into the ENR and announced to peers, e.g. '127.0.0.1'. */
  announceHost: string;
  /** ENRs ("enr:…") and/or multiaddrs ending in /p2p/<peerId>. */
  bootstrap: readonly string[];
  /** e.g. '/cairn/31337/0xabc…'; the full topic is `${topicPrefix}/${name}/1`. */
  topicPrefix: string;
  /** Default 50. */
  maxPeers?: number;
  /** Limits on bulk (tx) gossip waiting for validation; defaults in validation-queue.ts. */
  queueLimits?: Partial<QueueLimits>;
  logger: Logger;
}

export type GossipVerdict = 'accept' | 'reject' | 'ignore';

export type PeerInfo =
  | { status: 'connected'; score: number; id: string }
  | { status: 'dialing'; dialStatus: string; id: string; addresses: string[] }
  | { status: 'cached'; id: string; addresses: string[]; enr: string; dialAttempts: number };

interface BootstrapPeer {
  peerId: PeerId;
  addr: Multiaddr;
  /** '' when only a multiaddr was given. */
  enr: string;
  /** Attempts since the peer was last connected. */
  dialAttempts: number;
  dialing: boolean;
  nextDialAt: number;
  backoffMs: number;
}

const VERDICTS: Record<GossipVerdict, TopicValidatorResult> = {
  accept: TopicValidatorResult.Accept,
  reject: TopicValidatorResult.Reject,
  ignore: TopicValidatorResult.Ignore,
};
const REDIAL_MIN_MS = 2_000;
const REDIAL_MAX_MS = 10_000;
const DIAL_TIMEOUT_MS = 5_000;
// Scores (gossipsub's default thresholds: gossip -10, publish -50, graylist -80). An invalid
// message costs its sender 10 × (invalid count)² on its topic (P4), decaying by 1% a second: two
// recent ones stop gossip with the peer, three graylist it, and a graylisted peer is disconnected
// and refused for BAN_MS. Tx messages past a peer's rate limit cost it its share of the graylist
// threshold such that FLOOD_BURSTS bursts' worth of them graylist it, halving every minute. A
// burst past the limit (an honest node whose clients flood it) prunes the peer from the mesh and
// stops gossip with it, but its proposals and attestations are still taken; a peer that keeps
// flooding (20 × 4,000 txs past its limit within a minute or so) is disconnected.
const INVALID_MESSAGE_WEIGHT = -10;
const INVALID_MESSAGE_DECAY = 0.99;
const FLOOD_BURSTS = 20;
const PENALTY_HALF_LIFE_MS = 60_000;
const GRAYLIST_THRESHOLD = -80;
/** Seconds `announce` keeps trying while no peer has subscribed to the topic. */
const ANNOUNCE_TRIES = 30;
const BAN_MS = 10 * 60_000;
const SCORE_CHECK_MS = 1000;
// The message id: 20 bytes of SHA-256 over the topic and the data, so the same content has one id
// whoever sends it.
const ID_BYTES = 20;

/** The parts of the gossipsub class that its exported interface leaves out. */
type Pubsub = GossipSub & {
  /** The implementation takes per-call options the interface does not declare. */
  publish(
    topic: string,
    data: Uint8Array,
    opts?: { allowPublishToZeroTopicPeers?: boolean },
  ): Promise<{ recipients: unknown[] }>;
  getScore?(peerId: string): number;
  readonly score: { readonly params: PeerScoreParams };
  reportMessageValidationResult(
    msgId: string,
    propagationSource: string,
    acceptance: TopicValidatorResult,
  ): void;
};

type Handler = (data: Uint8Array, from: string) => GossipVerdict | Promise<GossipVerdict>;

/**
 * A handler in two steps: `prepare` runs as soon as the queue takes the message (decoding, so a
 * message that does not decode costs nothing more); `handle` runs when the message's turn comes,
 * and a hold on bulk work holds it. A `prepare` that throws makes the message ignored.
 */
export interface StagedHandler<P> {
  prepare(data: Uint8Array): P;
  handle(prepared: P, from: string): GossipVerdict | Promise<GossipVerdict>;
}

const staged = (handler: Handler): StagedHandler<Uint8Array> => ({
  prepare: (data) => data,
  handle: (data, from) => handler(data, from),
});

function messageId(topic: string, data: Uint8Array): Uint8Array {
  const topicBytes = new TextEncoder().encode(topic);
  const input = new Uint8Array(topicBytes.length + data.length);
  input.set(topicBytes);
  input.set(data, topicBytes.length);
  return sha256(input).subarray(0, ID_BYTES);
}

function bootstrapPeer(entry: string): BootstrapPeer {
  const enr = entry.startsWith('enr:') ? entry : '';
  const addr = multiaddr(enr ? multiaddrOfEnr(enr) : entry);
  const id = addr.getComponents().findLast((c) => c.name === 'p2p')?.value;
  if (id === undefined)
    throw new Error(`bootstrap peer '${entry}' is neither an ENR nor a multiaddr with /p2p/`);
  const peerId = peerIdFromString(id);
  return { peerId, addr, enr, dialAttempts: 0, dialing: false, nextDialAt: 0, backoffMs: REDIAL_MIN_MS };
}

export class P2PNetwork {
  readonly peerId: string;
  private readonly pubsub: Pubsub;
  private readonly penalties = new Map<string, { value: number; at: number }>();
  private readonly handlers = new Map<
    string,
    { handler: StagedHandler<unknown>; priority: Priority; name: string }
  >();
  private readonly queue: ValidationQueue;
  /** Peers disconnected for their score, until when they are refused. */
  private readonly banned = new Map<string, number>();
  private readonly redialTimer: NodeJS.Timeout;
  private readonly scoreTimer: NodeJS.Timeout;
  private stopped = false;
  /** Finds peers beyond the bootstrap list (peer-exchange.ts). */
  private exchange: PeerExchange | undefined;

  private constructor(
    private readonly node: Libp2p<{ pubsub: GossipSub }>,
    private readonly o: P2PNetworkOptions,
    private readonly bootstrap: BootstrapPeer[],
    private readonly ownEnr: string,
  ) {
    this.peerId = node.peerId.toString();
    this.pubsub = node.services.pubsub as Pubsub;
    this.queue = new ValidationQueue(o.queueLimits);
    this.pubsub.addEventListener('gossipsub:message', (e) => this.received(e.detail));
    node.addEventListener('peer:connect', (e) => {
      const id = e.detail.toString();
      const b = this.bootstrap.find((p) => p.peerId.equals(e.detail));
      if (b) Object.assign(b, { dialAttempts: 0, backoffMs: REDIAL_MIN_MS });
      o.logger.info({ peer: id, bootstrap: b !== undefined }, 'peer connected');
    });
    node.addEventListener('peer:disconnect', (e) => {
      const b = this.bootstrap.find((p) => p.peerId.equals(e.detail));
      if (b) b.nextDialAt = Date.now(); // try to get it back straight away
      o.logger.info({ peer: e.detail.toString() }, 'peer disconnected');
    });
    // unref: a forgotten stop() must not keep the process alive.
    this.redialTimer = setInterval(() => this.redial(), 500).unref();
    this.scoreTimer = setInterval(() => this.disconnectGraylisted(), SCORE_CHECK_MS).unref();
    this.redial();
  }

  static async start(o: P2PNetworkOptions): Promise<P2PNetwork> {
    if (!secp256k1.utils.isValidSecretKey(o.privateKey))
      throw new Error('p2p private key is not a secp256k1 key');
    const privateKey = privateKeyFromRaw(o.privateKey);
    const self = peerIdFromPrivateKey(privateKey).toString();
    // A shared bootstrap list may name this node itself; never dial ourselves.
    const bootstrap = o.bootstrap.map(bootstrapPeer).filter((b) => b.peerId.toString() !== self);
    let network: P2PNetwork | undefined;
    const node = await createLibp2p({
      privateKey,
      addresses: {
        listen: [`/ip4/${o.listenHost}/tcp/${o.listenPort}`],
        // Announce the configured host (e.g. the public IP behind 0.0.0.0) with the bound port.
        announceFilter: (addrs) => {
          const out = addrs.map((a) => a.toString().replace(/^\/ip4\/[^/]+/, `/ip4/${o.announceHost}`));
          return [...new Set(out)].map((a) => multiaddr(a));
        },
      },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      connectionManager: { maxConnections: o.maxPeers ?? 50 },
      // Refuse peers disconnected for their score, for a while.
      connectionGater: {
        denyDialPeer: (peer) => network?.isBanned(peer.toString()) ?? false,
        denyInboundEncryptedConnection: (peer) => network?.isBanned(peer.toString()) ?? false,
      },
      // A busy peer answers pings late: wait up to a minute before calling the connection dead
      // (libp2p's default adapts from 5 s, and aborted every connection of a node behind on gossip).
      connectionMonitor: { pingTimeout: { minTimeout: 10_000, maxTimeout: 60_000 } },
      services: {
        identify: identify(),
        pubsub: gossipsub({
          globalSignaturePolicy: StrictNoSign,
          msgIdFn: (msg) => messageId(msg.topic, msg.data),
          asyncValidation: true,
          floodPublish: true,
          allowPublishToZeroTopicPeers: true,
          // The same content has the same id: publishing it again is a no-op, not an error.
          ignoreDuplicatePublishError: true,
          emitSelf: false,
          scoreParams: {
            appSpecificScore: (peer) => network?.penalty(peer) ?? 0,
            appSpecificWeight: 1,
          },
          scoreThresholds: { graylistThreshold: GRAYLIST_THRESHOLD },
        }),
      },
    });
    const port = node
      .getMultiaddrs()
      .flatMap((a) => a.getComponents())
      .find((c) => c.name === 'tcp')?.value;
    if (port === undefined) {
      await node.stop();
      throw new Error(`p2p is not listening on TCP (${o.listenHost}:${o.listenPort})`);
    }
    const enr = encodeEnr({
      privateKey: o.privateKey,
      seq: BigInt(Date.now()),
      ip: o.announceHost,
      tcp: Number(port),
    });
    network = new P2PNetwork(node, o, bootstrap, enr);
    network.exchange = new PeerExchange({ node, maxPeers: o.maxPeers ?? 50, logger: o.logger });
    await network.exchange.start();
    o.logger.info({ peerId: network.peerId, addresses: network.multiaddrs, enr }, 'p2p started');
    return network;
  }

  /** Encodes announceHost and the bound TCP port; seq is the start time, so a restart supersedes. */
  get enr(): string {
    return this.ownEnr;
  }

  get multiaddrs(): string[] {
    return this.node.getMultiaddrs().map((a) => a.toString());
  }

  /**
   * Handles the topic's messages. The handler's verdict decides forwarding: only accepted messages
   * are passed on to our mesh or offered to others as gossip. `priority` 'bulk' (txs) puts them
   * behind consensus messages, with per-peer limits (see ValidationQueue).
   */
  subscribe<P>(name: string, handler: Handler | StagedHandler<P>, priority: Priority = 'consensus'): void {
    const topic = this.topic(name);
    const steps = (typeof handler === 'function' ? staged(handler) : handler) as StagedHandler<unknown>;
    this.handlers.set(topic, { handler: steps, priority, name });
    this.pubsub.score.params.topics[topic] = createTopicScoreParams({
      topicWeight: 1,
      timeInMeshWeight: 0.01,
      timeInMeshQuantum: 1000,
      timeInMeshCap: 300,
      firstMessageDeliveriesWeight: 0.5,
      firstMessageDeliveriesDecay: 0.9,
      firstMessageDeliveriesCap: 20,
      // Quiet topics (proposals come once a slot) must not count against a peer.
      meshMessageDeliveriesWeight: 0,
      meshFailurePenaltyWeight: 0,
      invalidMessageDeliveriesWeight: INVALID_MESSAGE_WEIGHT,
      invalidMessageDeliveriesDecay: INVALID_MESSAGE_DECAY,
    });
    this.pubsub.subscribe(topic);
  }

  /** Holds the validation of bulk gossip (txs) until the returned release is called (ValidationQueue.hold). */
  holdBulk(): () => void {
    return this.queue.hold();
  }

  /** Queue counters: consensus messages run, txs validated, txs dropped (rate-limited, queue full). */
  get validationCounts() {
    return { ...this.queue.counts, waiting: this.queue.size };
  }

  /** A message gossipsub took (new, well formed): validated through the queue, then reported. */
  private received({ propagationSource, msgId, msg }: GossipsubMessage): void {
    const source = propagationSource.toString();
    const entry = this.handlers.get(msg.topic);
    const report = (verdict: GossipVerdict) => {
      // Penalised by gossipsub itself (P4): honest peers validate before forwarding.
      this.pubsub.reportMessageValidationResult(msgId, source, VERDICTS[verdict]);
    };
    if (entry === undefined) {
      report('ignore');
      return;
    }
    let prepared: { value: unknown } | undefined;
    const admission = this.queue.offer({
      priority: entry.priority,
      peer: source,
      prepare: () => {
        try {
          prepared = { value: entry.handler.prepare(msg.data) };
        } catch (err) {
          this.o.logger.debug({ err, topic: entry.name, from: source }, 'gossip message not prepared');
        }
      },
      run: async () => {
        let verdict: GossipVerdict = 'ignore';
        try {
          if (prepared !== undefined) verdict = await entry.handler.handle(prepared.value, source);
        } catch (err) {
          this.o.logger.debug(
            { err, topic: entry.name, from: source },
            'gossip handler failed; ignoring the message',
          );
        }
        report(Object.hasOwn(VERDICTS, verdict) ? verdict : 'ignore');
      },
    });
    if (admission === 'rate-limited') {
      this.penalise(source, -GRAYLIST_THRESHOLD / (FLOOD_BURSTS * this.queue.limits.burstPerPeer));
      report('ignore');
    } else if (admission === 'full') report('ignore');
  }

  isBanned(peer: string): boolean {
    const until = this.banned.get(peer);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.banned.delete(peer);
    return false;
  }

  /** Disconnects graylisted peers and refuses them for BAN_MS. */
  private disconnectGraylisted(): void {
    for (const peer of this.node.getPeers()) {
      const id = peer.toString();
      const score = this.pubsub.getScore?.(id) ?? 0;
      if (score > GRAYLIST_THRESHOLD || this.isBanned(id)) continue;
      this.banned.set(id, Date.now() + BAN_MS);
      this.o.logger.warn(
        { peer: id, score: Math.round(score) },
        `disconnecting a peer graylisted for its messages, for ${BAN_MS / 60_000} minutes`,
      );
      this.node.hangUp(peer).catch(() => {});
    }
  }

  async publish(name: string, data: Uint8Array): Promise<number> {
    const { recipients } = await this.pubsub.publish(this.topic(name), data);
    return recipients.length;
  }

  /**
   * Publishes `data` as `publish` does, but while no peer has subscribed to the topic yet (right
   * after the node or a peer started, subscriptions are not known), tries again every second for
   * up to ANNOUNCE_TRIES seconds instead of sending it to no one: a message is published once (its
   * id is its content), so a tx a client sent then would never reach the network. Resolves with the
   * peers reached; 0 if none subscribed in that time (or the network stopped).
   */
  async announce(name: string, data: Uint8Array): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { recipients } = await this.pubsub.publish(this.topic(name), data, {
          allowPublishToZeroTopicPeers: false,
        });
        return recipients.length;
      } catch (err) {
        if (!/NoPeersSubscribedToTopic/.test((err as Error).message)) throw err;
        if (attempt >= ANNOUNCE_TRIES || this.stopped) return 0;
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
  }

  getPeers(includePending = false): PeerInfo[] {
    const peers: PeerInfo[] = this.node.getPeers().map((id) => ({
      status: 'connected',
      score: this.pubsub.getScore?.(id.toString()) ?? 0,
      id: id.toString(),
    }));
    if (!includePending) return peers;
    const seen = new Set(peers.map((p) => p.id));
    for (const d of this.node.getDialQueue()) {
      const id = d.peerId?.toString();
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      peers.push({ status: 'dialing', dialStatus: d.status, id, addresses: d.multiaddrs.map(String) });
    }
    for (const b of this.bootstrap) {
      const id = b.peerId.toString();
      if (seen.has(id)) continue;
      peers.push({
        status: 'cached',
        id,
        addresses: [b.addr.toString()],
        enr: b.enr,
        dialAttempts: b.dialAttempts,
      });
    }
    return peers;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.redialTimer);
    clearInterval(this.scoreTimer);
    await this.exchange?.stop();
    await this.node.stop();
  }

  private topic(name: string): string {
    return `${this.o.topicPrefix}/${name}/1`;
  }

  /** Dials each unconnected bootstrap peer, every 2 s at first, backing off to 10 s. */
  private redial(): void {
    const now = Date.now();
    for (const b of this.bootstrap) {
      if (this.stopped || b.dialing || now < b.nextDialAt) continue;
      if (this.node.getConnections(b.peerId).length > 0) continue;
      b.dialing = true;
      b.dialAttempts++;
      this.node
        .dial(b.addr, { signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) })
        .catch((err: Error) => {
          b.nextDialAt = Date.now() + b.backoffMs;
          b.backoffMs = Math.min(b.backoffMs * 2, REDIAL_MAX_MS);
          this.o.logger.debug(
            { peer: b.peerId.toString(), attempts: b.dialAttempts, err: err.message },
            'dial failed',
          );
        })
        .finally(() => {
          b.dialing = false;
        });
    }
  }

  private penalise(peer: string, amount: number): void {
    this.penalties.set(peer, { value: this.penalty(peer) - amount, at: Date.now() });
  }

  /** The peer's current (negative, decaying) penalty, fed to gossipsub as its app-specific score. */
  private penalty(peer: string): number {
    const p = this.penalties.get(peer);
    if (p === undefined) return 0;
    const value = p.value * 0.5 ** ((Date.now() - p.at) / PENALTY_HALF_LIFE_MS);
    if (value > -0.1) this.penalties.delete(peer);
    return value;
  }
}

/** The persisted node key: reads it from the `p2p` store environment, creating a random one on first use. */
export function loadOrCreatePeerKey(env: StoreEnvironment): Uint8Array {
  const db = env.binaryDatabase('identity');
  const name = Buffer.from('secp256k1');
  const stored = db.get(name);
  if (stored !== undefined) {
    // A damaged key must not silently become a new identity.
    if (!secp256k1.utils.isValidSecretKey(stored))
      throw new Error(`p2p identity in ${env.path} is not a secp256k1 key`);
    return Uint8Array.from(stored);
  }
  const key = secp256k1.utils.randomSecretKey();
  env.write(() => db.putSync(name, Buffer.from(key)));
  return key;
}
