// Peer exchange: how a node finds peers beyond its bootstrap list. A node asks each peer it
// connects to, and then a few random peers every round, which peers they are connected to; it
// dials those it is not connected to while it has room for more peers.
//
// The protocol: the asker opens a stream on PEER_EXCHANGE_PROTOCOL and sends nothing; the other
// side answers with one frame and closes. A frame is a 4-byte big-endian length followed by that
// many bytes of UTF-8 JSON: {"peers":[{"id":"<peer id>","addrs":["/ip4/…/tcp/…", …]}, …]}. The
// addresses are those the peer store holds for each peer, which identify filled with the
// addresses the peer announces. Everything received is checked: the frame's size, its shape, each
// peer id and each address (IPv4, IPv6 or DNS with TCP only); a peer whose answer is not a valid
// frame is not asked again for a while.
import './polyfill.js';
import { setMaxListeners } from 'node:events';
import type {
  Connection,
  Libp2p,
  PeerId,
  Stream,
  StreamCloseEvent,
  StreamMessageEvent,
} from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import type { Logger } from 'pino';

export const PEER_EXCHANGE_PROTOCOL = '/cairn/peer-exchange/1';

/** Most peers an answer may list. */
export const MAX_ANSWER_PEERS = 32;
/** Most addresses an answer may list per peer. */
export const MAX_ANSWER_ADDRS = 8;
/** Largest answer (the JSON after the length prefix), in bytes. */
export const MAX_ANSWER_BYTES = 32 * 1024;
/** Addresses longer than this (as text) are dropped. */
const MAX_ADDR_CHARS = 256;
/** Peer ids longer than this (as text) are dropped; real ones are 46–60 characters. */
const MAX_ID_CHARS = 128;
/** Addresses we send per peer. */
const SHARED_ADDRS = 4;

const DEFAULT_INTERVAL_MS = 10_000;
/** Peers asked per round. */
const ASKS_PER_ROUND = 3;
/** Dials started from one answer. */
const DIALS_PER_ANSWER = 4;
/** Dials in flight at once. */
const MAX_PARALLEL_DIALS = 8;
const DIAL_TIMEOUT_MS = 5_000;
/** How long an ask (opening the stream and reading the answer) may take. */
const ASK_TIMEOUT_MS = 5_000;
/** A peer is asked at most this often. */
const MIN_ASK_GAP_MS = 2_000;
/** A peer whose answer was not a valid frame is not asked again for this long. */
const BAD_ANSWER_BACKOFF_MS = 10 * 60_000;
/** An asker is answered at most this often; sooner asks are reset. */
const MIN_ANSWER_GAP_MS = 500;
/** A peer that failed to dial is retried after 30 s, doubling per failure up to 10 min. */
const REDIAL_BASE_MS = 30_000;
const REDIAL_MAX_MS = 10 * 60_000;
/** Peers remembered as having failed to dial; the oldest entry goes first. */
const MAX_FAILED = 1_024;

const HOSTS = new Set(['ip4', 'ip6', 'dns', 'dns4', 'dns6']);
const UNSPECIFIED = new Set(['0.0.0.0', '::']);

export interface PeerExchangeOptions {
  node: Libp2p;
  /** The node dials learned peers only while it has fewer connected peers than this. */
  maxPeers: number;
  logger: Logger;
  /**
   * Base time between rounds (default 10 s, with ±25% jitter); a quarter of it while the node has
   * fewer than half of maxPeers.
   */
  intervalMs?: number;
}

/** A peer learned from an answer, with its addresses ready to dial (each ends in /p2p/<id>). */
export interface LearnedPeer {
  peerId: PeerId;
  addrs: Multiaddr[];
}

/** An answer that is not a valid frame: its sender is not asked again for a while. */
export class BadAnswerError extends Error {
  override readonly name = 'BadAnswerError';
}

/**
 * The dialable form of an address received for peer `id`: /ip4|ip6|dns|dns4|dns6/<host>/tcp/<port>,
 * optionally followed by /p2p/<id> (that same id). Undefined for anything else.
 */
export function dialableAddr(text: string, id: string): Multiaddr | undefined {
  if (text.length > MAX_ADDR_CHARS) return undefined;
  try {
    const [host, tcp, p2p, ...rest] = multiaddr(text).getComponents();
    if (host === undefined || tcp === undefined || rest.length > 0) return undefined;
    if (!HOSTS.has(host.name) || !host.value || UNSPECIFIED.has(host.value)) return undefined;
    if (tcp.name !== 'tcp') return undefined;
    const port = Number(tcp.value);
    if (!Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
    if (p2p !== undefined && (p2p.name !== 'p2p' || p2p.value !== id)) return undefined;
    return multiaddr(`/${host.name}/${host.value}/tcp/${port}/p2p/${id}`);
  } catch {
    return undefined;
  }
}

/** The answer frame (length prefix included) listing `peers`, dropping peers beyond the size limits. */
export function encodeAnswer(peers: readonly { id: string; addrs: readonly string[] }[]): Uint8Array {
  const list = peers
    .slice(0, MAX_ANSWER_PEERS)
    .map((p) => ({ id: p.id, addrs: p.addrs.slice(0, SHARED_ADDRS) }));
  let body = Buffer.from(JSON.stringify({ peers: list }));
  while (body.length > MAX_ANSWER_BYTES && list.length > 0) {
    list.pop();
    body = Buffer.from(JSON.stringify({ peers: list }));
  }
  const frame = Buffer.alloc(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/**
 * The peers in an answer's JSON (the bytes after the length prefix). Throws BadAnswerError when
 * it is not JSON of the right shape or lists too many peers; entries that are not a valid peer id
 * with at least one dialable address are skipped and counted as `skipped`.
 */
export function decodeAnswer(body: Uint8Array): { peers: LearnedPeer[]; skipped: number } {
  if (body.length > MAX_ANSWER_BYTES) throw new BadAnswerError(`answer of ${body.length} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new BadAnswerError('answer is not UTF-8 JSON');
  }
  const list = (json as { peers?: unknown } | null)?.peers;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Array.isArray(list))
    throw new BadAnswerError('answer has no peers list');
  if (list.length > MAX_ANSWER_PEERS) throw new BadAnswerError(`answer lists ${list.length} peers`);
  const peers: LearnedPeer[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const entry of list as unknown[]) {
    const peer = learnedPeer(entry);
    if (peer === undefined || seen.has(peer.peerId.toString())) skipped++;
    else {
      seen.add(peer.peerId.toString());
      peers.push(peer);
    }
  }
  return { peers, skipped };
}

function learnedPeer(entry: unknown): LearnedPeer | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { id, addrs } = entry as { id?: unknown; addrs?: unknown };
  if (typeof id !== 'string' || id.length > MAX_ID_CHARS || !Array.isArray(addrs)) return undefined;
  if (addrs.length > MAX_ANSWER_ADDRS) return undefined;
  let peerId: PeerId;
  try {
    peerId = peerIdFromString(id);
  } catch {
    return undefined;
  }
  // The canonical text of the id, so that '/p2p/<id>' in an address compares equal.
  const canonical = peerId.toString();
  if (canonical !== id) return undefined;
  const out = new Map<string, Multiaddr>();
  for (const a of addrs) {
    const addr = typeof a === 'string' ? dialableAddr(a, canonical) : undefined;
    if (addr !== undefined) out.set(addr.toString(), addr);
  }
  return out.size === 0 ? undefined : { peerId, addrs: [...out.values()] };
}

/**
 * Reads one answer frame from `stream` and resolves with its JSON bytes (at most MAX_ANSWER_BYTES).
 * It listens to the stream's events rather than iterating it, as the answer and the other side's
 * close may both be in before it starts: the stream then holds the answer (handed back by protocol
 * negotiation, which reads ahead) and delivers it to the first 'message' listener, with 'end'
 * possibly dispatched already.
 */
function readAnswer(stream: Stream, signal: AbortSignal): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    let length = -1;
    let done = false;
    const finish = (err: Error | undefined, body?: Uint8Array) => {
      if (done) return;
      done = true;
      stream.removeEventListener('message', onMessage);
      stream.removeEventListener('end', onEnd);
      stream.removeEventListener('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (err === undefined) resolve(body!);
      else reject(err);
    };
    const onEnd = () => finish(new BadAnswerError(`answer ends after ${buffer.length} bytes`));
    /** Nothing more will come: 'end' was dispatched and the buffered data is delivered. */
    const checkEnded = () => {
      if (stream.readableEnded && stream.readBufferLength === 0) onEnd();
    };
    const onMessage = (e: StreamMessageEvent) => {
      buffer = Buffer.concat([buffer, e.data.subarray()]);
      if (length < 0 && buffer.length >= 4) length = buffer.readUInt32BE(0);
      if (length > MAX_ANSWER_BYTES) finish(new BadAnswerError(`answer announces ${length} bytes`));
      else if (length >= 0 && buffer.length > 4 + length)
        finish(new BadAnswerError('bytes after the answer'));
      else if (length >= 0 && buffer.length === 4 + length) finish(undefined, buffer.subarray(4));
      else checkEnded();
    };
    const onClose = (e: StreamCloseEvent) => {
      if (e.error !== undefined) finish(e.error);
    };
    const onAbort = () => finish(new Error('peer exchange timed out'));
    signal.addEventListener('abort', onAbort, { once: true });
    stream.addEventListener('end', onEnd);
    stream.addEventListener('close', onClose);
    // Adding the listener queues the delivery of buffered data; the check runs after it.
    stream.addEventListener('message', onMessage);
    queueMicrotask(checkEnded);
    if (signal.aborted) onAbort();
  });
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export class PeerExchange {
  private readonly node: Libp2p;
  private readonly maxPeers: number;
  private readonly logger: Logger;
  private readonly intervalMs: number;
  /** Aborts asks and dials in flight on stop(). */
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** Peers being asked. */
  private readonly asking = new Set<string>();
  /** When each connected peer may be asked next. */
  private readonly nextAskAt = new Map<string, number>();
  /** When each connected peer was last answered. */
  private readonly answeredAt = new Map<string, number>();
  /** Peers being dialled. */
  private readonly dialing = new Set<string>();
  /** Peers that failed to dial: failures in a row and when to try again. */
  private readonly failed = new Map<string, { failures: number; retryAt: number }>();

  private readonly onIdentify = (e: CustomEvent<{ peerId: PeerId; protocols: string[] }>) => {
    if (e.detail.protocols.includes(PEER_EXCHANGE_PROTOCOL)) void this.ask(e.detail.peerId);
  };

  private readonly onDisconnect = (e: CustomEvent<PeerId>) => {
    const id = e.detail.toString();
    this.nextAskAt.delete(id);
    this.answeredAt.delete(id);
  };

  constructor(o: PeerExchangeOptions) {
    this.node = o.node;
    this.maxPeers = o.maxPeers;
    this.logger = o.logger;
    this.intervalMs = o.intervalMs ?? DEFAULT_INTERVAL_MS;
    // Every ask, dial and answer in flight listens to it.
    setMaxListeners(Number.POSITIVE_INFINITY, this.stopping.signal);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.node.addEventListener('peer:identify', this.onIdentify);
    this.node.addEventListener('peer:disconnect', this.onDisconnect);
    await this.node.handle(PEER_EXCHANGE_PROTOCOL, (stream, connection) => this.answer(stream, connection), {
      maxInboundStreams: 2,
      maxOutboundStreams: 2,
    });
    this.schedule();
  }

  async stop(): Promise<void> {
    if (!this.started || this.stopping.signal.aborted) return;
    this.stopping.abort();
    clearTimeout(this.timer);
    this.node.removeEventListener('peer:identify', this.onIdentify);
    this.node.removeEventListener('peer:disconnect', this.onDisconnect);
    await this.node.unhandle(PEER_EXCHANGE_PROTOCOL).catch(() => {});
  }

  /**
   * A signal that aborts after `ms` or on stop(); call `clear` when done. Not
   * AbortSignal.any([..., AbortSignal.timeout(ms)]): Node 20 may collect the timeout signal held
   * only by the combined one, which then never aborts (nodejs/node#57736).
   */
  private deadline(ms: number, what: string): { signal: AbortSignal; clear: () => void } {
    const controller = new AbortController();
    const abort = () => controller.abort(new Error(`${what} timed out`));
    const timer = setTimeout(abort, ms).unref();
    const onStop = () => controller.abort(new Error('peer exchange stopped'));
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    const clear = () => {
      clearTimeout(timer);
      this.stopping.signal.removeEventListener('abort', onStop);
    };
    return { signal: controller.signal, clear };
  }

  private schedule(): void {
    if (this.stopping.signal.aborted) return;
    const base = this.node.getPeers().length < this.maxPeers / 2 ? this.intervalMs / 4 : this.intervalMs;
    const delay = base * (0.75 + Math.random() / 2);
    // unref: a forgotten stop() must not keep the process alive.
    this.timer = setTimeout(() => {
      this.round()
        .catch((err: Error) => this.logger.debug({ err: err.message }, 'peer exchange round failed'))
        .finally(() => this.schedule());
    }, delay).unref();
  }

  /** Asks a few random connected peers that speak the protocol. */
  private async round(): Promise<void> {
    if (this.node.getPeers().length >= this.maxPeers) return;
    let asked = 0;
    for (const peer of shuffled(this.node.getPeers())) {
      if (asked >= ASKS_PER_ROUND || this.stopping.signal.aborted) break;
      const id = peer.toString();
      if (this.asking.has(id) || (this.nextAskAt.get(id) ?? 0) > Date.now()) continue;
      const stored = await this.node.peerStore.get(peer).catch(() => undefined);
      if (!stored?.protocols.includes(PEER_EXCHANGE_PROTOCOL)) continue;
      asked++;
      void this.ask(peer);
    }
  }

  /** Asks `peer` for its peers and dials some of them; never throws. */
  private async ask(peer: PeerId): Promise<void> {
    const id = peer.toString();
    const now = Date.now();
    if (this.stopping.signal.aborted || this.asking.has(id) || (this.nextAskAt.get(id) ?? 0) > now) return;
    if (this.node.getPeers().length >= this.maxPeers) return;
    this.asking.add(id);
    this.nextAskAt.set(id, now + MIN_ASK_GAP_MS);
    const { signal, clear } = this.deadline(ASK_TIMEOUT_MS, 'peer exchange');
    let stream: Stream | undefined;
    try {
      stream = await this.node.dialProtocol(peer, PEER_EXCHANGE_PROTOCOL, { signal });
      const { peers, skipped } = decodeAnswer(await readAnswer(stream, signal));
      this.logger.debug({ peer: id, peers: peers.length, skipped }, 'peer exchange answer');
      this.consider(peers);
      // The other side has sent its answer and closes its end; closing ours ends the stream.
      const done = stream;
      done
        .close({ signal })
        .catch((err: Error) => done.abort(err))
        .finally(clear);
    } catch (err) {
      clear();
      stream?.abort(err as Error);
      if (err instanceof BadAnswerError) {
        this.nextAskAt.set(id, Date.now() + BAD_ANSWER_BACKOFF_MS);
        this.logger.info({ peer: id, reason: err.message }, 'peer exchange answer ignored');
      } else if (!this.stopping.signal.aborted) {
        this.logger.debug({ peer: id, err: (err as Error).message }, 'peer exchange ask failed');
      }
    } finally {
      this.asking.delete(id);
    }
  }

  /** Dials learned peers this node is not connected to, within the limits. */
  private consider(peers: readonly LearnedPeer[]): void {
    let started = 0;
    for (const p of shuffled(peers)) {
      if (this.stopping.signal.aborted || started >= DIALS_PER_ANSWER) break;
      if (this.dialing.size >= MAX_PARALLEL_DIALS) break;
      if (this.node.getPeers().length + this.dialing.size >= this.maxPeers) break;
      const id = p.peerId.toString();
      if (p.peerId.equals(this.node.peerId) || this.dialing.has(id)) continue;
      if (this.node.getConnections(p.peerId).length > 0) continue;
      if ((this.failed.get(id)?.retryAt ?? 0) > Date.now()) continue;
      started++;
      this.dial(id, p.addrs);
    }
  }

  private dial(id: string, addrs: Multiaddr[]): void {
    this.dialing.add(id);
    this.logger.debug({ peer: id, addrs: addrs.map(String) }, 'dialling a peer learned by exchange');
    const { signal, clear } = this.deadline(DIAL_TIMEOUT_MS, 'dial');
    this.node
      .dial(addrs, { signal })
      .then(() => {
        this.failed.delete(id);
      })
      .catch((err: Error) => {
        if (this.stopping.signal.aborted) return;
        const failures = (this.failed.get(id)?.failures ?? 0) + 1;
        const backoff = Math.min(REDIAL_BASE_MS * 2 ** (failures - 1), REDIAL_MAX_MS);
        this.failed.delete(id); // re-insert, so the map's order is oldest first
        if (this.failed.size >= MAX_FAILED) this.failed.delete(this.failed.keys().next().value!);
        this.failed.set(id, { failures, retryAt: Date.now() + backoff });
        this.logger.debug({ peer: id, failures, err: err.message }, 'dial of a learned peer failed');
      })
      .finally(() => {
        clear();
        this.dialing.delete(id);
      });
  }

  /** Answers with up to MAX_ANSWER_PEERS random connected peers other than the asker. */
  private async answer(stream: Stream, connection: Connection): Promise<void> {
    const asker = connection.remotePeer.toString();
    const now = Date.now();
    if (now - (this.answeredAt.get(asker) ?? Number.NEGATIVE_INFINITY) < MIN_ANSWER_GAP_MS) {
      stream.abort(new Error('asked too often'));
      return;
    }
    this.answeredAt.set(asker, now);
    const { signal, clear } = this.deadline(ASK_TIMEOUT_MS, 'peer exchange answer');
    try {
      const peers: { id: string; addrs: string[] }[] = [];
      for (const peer of shuffled(this.node.getPeers())) {
        if (peers.length >= MAX_ANSWER_PEERS) break;
        if (peer.equals(connection.remotePeer)) continue;
        const stored = await this.node.peerStore.get(peer, { signal }).catch(() => undefined);
        const id = peer.toString();
        const addrs = (stored?.addresses ?? [])
          .map((a) => dialableAddr(a.multiaddr.toString(), id)?.toString())
          .filter((a): a is string => a !== undefined)
          .map((a) => a.slice(0, a.lastIndexOf('/p2p/'))); // the id is sent once, beside them
        if (addrs.length > 0) peers.push({ id, addrs: [...new Set(addrs)] });
      }
      signal.throwIfAborted();
      stream.send(encodeAnswer(peers));
      await stream.close({ signal });
    } catch (err) {
      stream.abort(err as Error);
    } finally {
      clear();
    }
  }
}
