// The node's libp2p host: TCP + noise + yamux, gossipsub for txs, proposals and attestations, and
// identify. Peers are found from a static bootstrap list (ENRs or multiaddrs) that is re-dialled
// until connected, so nodes may start in any order and recover when a peer restarts.
import './polyfill.js';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { type GossipSub, gossipsub, StrictSign, TopicValidatorResult } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { PeerId } from '@libp2p/interface';
import { noise } from '@libp2p/noise';
import { peerIdFromPrivateKey, peerIdFromString } from '@libp2p/peer-id';
import { tcp } from '@libp2p/tcp';
import { yamux } from '@libp2p/yamux';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createLibp2p, type Libp2p } from 'libp2p';
import type { Logger } from 'pino';
import type { StoreEnvironment } from '../store/environment.js';
import { encodeEnr, multiaddrOfEnr } from './enr.js';

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
// Each rejected message costs its sender 10 points of gossipsub score, halving every minute. With
// the default thresholds (gossip -10, publish -50, graylist -80), two recent rejects stop gossip
// with the peer and nine get everything it sends dropped.
const REJECT_PENALTY = 10;
const PENALTY_HALF_LIFE_MS = 60_000;

type Pubsub = GossipSub & { getScore?(peerId: string): number };

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
  private readonly redialTimer: NodeJS.Timeout;
  private stopped = false;

  private constructor(
    private readonly node: Libp2p<{ pubsub: GossipSub }>,
    private readonly o: P2PNetworkOptions,
    private readonly bootstrap: BootstrapPeer[],
    private readonly ownEnr: string,
  ) {
    this.peerId = node.peerId.toString();
    this.pubsub = node.services.pubsub;
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
      services: {
        identify: identify(),
        pubsub: gossipsub({
          globalSignaturePolicy: StrictSign,
          floodPublish: true,
          allowPublishToZeroTopicPeers: true,
          emitSelf: false,
          scoreParams: {
            appSpecificScore: (peer) => network?.penalty(peer) ?? 0,
            appSpecificWeight: 1,
          },
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

  subscribe(
    name: string,
    handler: (data: Uint8Array, from: string) => GossipVerdict | Promise<GossipVerdict>,
  ): void {
    const topic = this.topic(name);
    // The handler runs as gossipsub's topic validator, so its verdict decides forwarding:
    // only accepted messages are passed on to our mesh or offered to others as gossip.
    this.pubsub.topicValidators.set(topic, async (source, msg) => {
      const from = msg.type === 'signed' ? msg.from.toString() : source.toString();
      let verdict: GossipVerdict = 'ignore';
      try {
        verdict = await handler(msg.data, from);
      } catch (err) {
        this.o.logger.debug({ err, topic: name, from }, 'gossip handler failed; ignoring the message');
      }
      if (!Object.hasOwn(VERDICTS, verdict)) verdict = 'ignore';
      // Penalise the peer that handed it to us: honest peers validate before forwarding.
      if (verdict === 'reject') this.penalise(source.toString());
      return VERDICTS[verdict];
    });
    this.pubsub.subscribe(topic);
  }

  async publish(name: string, data: Uint8Array): Promise<number> {
    const { recipients } = await this.pubsub.publish(this.topic(name), data);
    return recipients.length;
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

  private penalise(peer: string): void {
    this.penalties.set(peer, { value: this.penalty(peer) - REJECT_PENALTY, at: Date.now() });
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
