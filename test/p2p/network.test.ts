// Real libp2p networks on 127.0.0.1: bootstrap from ENRs and multiaddrs, gossip through a hub,
// a hub that rejects a message and so does not forward it, peers listed with their state, and a
// peer that restarts with the same key and port being reconnected by the others on their own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import pino from 'pino';
import { decodeEnr, encodeEnr, peerIdOfEnr } from '../../src/p2p/enr.js';
import {
  type GossipVerdict,
  loadOrCreatePeerKey,
  P2PNetwork,
  type P2PNetworkOptions,
  type PeerInfo,
} from '../../src/p2p/network.js';
import { openEnvironment } from '../../src/store/environment.js';
import { until } from '../helpers/until.js';

const TOPIC_PREFIX = '/cairn/31337/0xabc';
const TIMEOUT = { timeout: 60_000 };

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

interface Node {
  net: P2PNetwork;
  key: Uint8Array;
  /** Data (as text) each subscribed topic's handler saw, with the peer that passed it on. */
  seen: { topic: string; data: string; from: string }[];
  logs: { level: number; msg: string; peer?: string }[];
}

const running: P2PNetwork[] = [];
after(async () => {
  await Promise.all(running.map((n) => n.stop()));
});

async function start(
  bootstrap: string[],
  o: {
    key?: Uint8Array;
    port?: number;
    maxPeers?: number;
    verdict?: (data: string) => GossipVerdict;
    /** Limits for the tx topic, then subscribed as bulk (as the node does). */
    queueLimits?: P2PNetworkOptions['queueLimits'];
  } = {},
): Promise<Node> {
  const logs: Node['logs'] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const key = o.key ?? secp256k1.utils.randomSecretKey();
  const options: P2PNetworkOptions = {
    privateKey: key,
    listenHost: '127.0.0.1',
    listenPort: o.port ?? 0,
    announceHost: '127.0.0.1',
    bootstrap,
    topicPrefix: TOPIC_PREFIX,
    ...(o.maxPeers === undefined ? {} : { maxPeers: o.maxPeers }),
    ...(o.queueLimits === undefined ? {} : { queueLimits: o.queueLimits }),
    logger,
  };
  const net = await P2PNetwork.start(options);
  running.push(net);
  const node: Node = { net, key, seen: [], logs };
  for (const topic of ['tx', 'block-proposal']) {
    net.subscribe(
      topic,
      (data, from) => {
        const text = Buffer.from(data).toString();
        node.seen.push({ topic, data: text, from });
        if (text.startsWith('boom')) throw new Error('handler exploded');
        return o.verdict?.(text) ?? 'accept';
      },
      topic === 'tx' && o.queueLimits !== undefined ? 'bulk' : 'consensus',
    );
  }
  return node;
}

const connected = (n: Node) =>
  n.net
    .getPeers()
    .filter((p) => p.status === 'connected')
    .map((p) => p.id);
const saw = (n: Node, data: string, topic = 'tx') => n.seen.some((s) => s.data === data && s.topic === topic);
const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;

/**
 * Publishes `data` once a peer takes the topic: right after connecting, subscriptions may not be
 * known yet. Ids come from the content, so a retry of the same data would be a duplicate: unique
 * probes find out first.
 */
async function publishUntilSent(n: Node, topic: string, data: string): Promise<void> {
  let sent = 0;
  const end = Date.now() + 20_000;
  while (sent === 0 && Date.now() < end) {
    sent = await n.net.publish(topic, Buffer.from(unique('probe')));
    if (sent === 0) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(sent > 0, `no peer takes ${topic}`);
  assert.ok((await n.net.publish(topic, Buffer.from(data))) > 0, `'${data}' reached no peer`);
}

describe('three networks bootstrapped from ENRs (a star around A)', () => {
  let a: Node;
  let b: Node;
  let c: Node;
  let deadEnr: string;
  let deadId: string;

  before(async () => {
    // A rejects 'bad…' messages; everyone else accepts all.
    a = await start([], { verdict: (d) => (d.startsWith('bad') ? 'reject' : 'accept') });
    deadEnr = encodeEnr({
      privateKey: secp256k1.utils.randomSecretKey(),
      seq: 1n,
      ip: '127.0.0.1',
      tcp: await closedPort(),
    });
    deadId = peerIdOfEnr(deadEnr).toString();
    // One peer at most for B and C: peer exchange would otherwise connect them through A.
    b = await start([a.net.enr], { maxPeers: 1 });
    c = await start([a.net.enr, deadEnr], { maxPeers: 1 });
    await until('A, B and C are connected', () => connected(a).length === 2 && connected(c).length === 1);
  });

  test('the ENR carries the announced host, the bound port and the peer id, and is stable', () => {
    const enr = decodeEnr(a.net.enr);
    assert.equal(enr.ip, '127.0.0.1');
    assert.equal(peerIdOfEnr(a.net.enr).toString(), a.net.peerId);
    assert.deepEqual(a.net.multiaddrs, [`/ip4/127.0.0.1/tcp/${enr.tcp}/p2p/${a.net.peerId}`]);
    assert.ok(enr.tcp! > 0);
    assert.equal(a.net.enr, a.net.enr);
  });

  test('getPeers lists connected peers with their ids and scores; connections are logged', () => {
    assert.deepEqual(connected(a).sort(), [b.net.peerId, c.net.peerId].sort());
    assert.deepEqual(connected(b), [a.net.peerId]);
    assert.deepEqual(connected(c), [a.net.peerId]); // B and C know nothing of each other
    for (const p of a.net.getPeers()) {
      assert.equal(p.status, 'connected');
      assert.equal(typeof (p as { score: number }).score, 'number');
    }
    const logged = a.logs.filter((l) => l.level === 30 && l.msg === 'peer connected').map((l) => l.peer);
    assert.deepEqual(logged.sort(), [b.net.peerId, c.net.peerId].sort());
  });

  test('a message published by C reaches A, and B through A', TIMEOUT, async () => {
    const data = unique('tx');
    await publishUntilSent(c, 'tx', data);
    await until('A and B received it', () => saw(a, data) && saw(b, data));
    assert.deepEqual(
      [...a.seen, ...b.seen].filter((s) => s.data === data).map((s) => s.from),
      [c.net.peerId, a.net.peerId],
      'handlers get the peer that passed it on (gossip is unsigned), once each',
    );
    assert.ok(!saw(c, data), 'no echo to the publisher');
    // Topics are separate: the same bytes on another topic arrive as that topic.
    const proposal = unique('proposal');
    await publishUntilSent(c, 'block-proposal', proposal);
    await until('B received the proposal', () => saw(b, proposal, 'block-proposal'));
    assert.ok(!saw(b, proposal, 'tx'));
  });

  test(
    'a message A rejects or whose handler throws is not forwarded to B; C is penalised',
    TIMEOUT,
    async () => {
      const bad = unique('bad');
      const boom = unique('boom');
      await publishUntilSent(c, 'tx', bad);
      await publishUntilSent(c, 'tx', boom);
      await until("A's handler saw both", () => saw(a, bad) && saw(a, boom));
      // B's only path from C runs through A, and messages on it arrive in order: once B has a later
      // message, it would also have had the earlier ones, had A forwarded them.
      const later = unique('later');
      await publishUntilSent(c, 'tx', later);
      await until('B received the later message', () => saw(b, later));
      assert.ok(!saw(b, bad), 'A forwarded a message it rejected');
      assert.ok(!saw(b, boom), 'A forwarded a message whose handler threw');
      assert.ok(a.logs.some((l) => l.level === 20 && l.msg.startsWith('gossip handler failed')));
      const score = () =>
        a.net.getPeers().find((p) => p.id === c.net.peerId) as { score: number } | undefined;
      await until("C's score at A drops below 0", () => (score()?.score ?? 0) < 0);
      assert.equal(a.net.getPeers().find((p) => p.id === b.net.peerId)?.status, 'connected');
    },
  );

  test(
    'with includePending, a bootstrap peer that is down is listed as cached, with dial attempts',
    TIMEOUT,
    async () => {
      assert.ok(!c.net.getPeers().some((p) => p.id === deadId), 'not among connected peers');
      const dead = () => c.net.getPeers(true).find((p) => p.id === deadId);
      // It is re-dialled every 2 s or so, so the count keeps growing.
      await until('it was dialled twice', () => {
        const p = dead();
        return p?.status === 'cached' && p.dialAttempts >= 2;
      });
      const p = dead() as Extract<PeerInfo, { status: 'cached' }>;
      const { tcp } = decodeEnr(deadEnr);
      assert.deepEqual(
        { ...p, dialAttempts: 0 },
        {
          status: 'cached',
          id: deadId,
          addresses: [`/ip4/127.0.0.1/tcp/${tcp}/p2p/${deadId}`],
          enr: deadEnr,
          dialAttempts: 0,
        },
      );
      assert.deepEqual(
        c.net
          .getPeers(true)
          .filter((p) => p.status === 'connected')
          .map((p) => p.id),
        [a.net.peerId],
      );
    },
  );
});

describe('multiaddr bootstrap and a restarting peer', () => {
  test('B restarts with the same key and port; A and C see it connected again', TIMEOUT, async () => {
    const a = await start([]);
    const b = await start([a.net.multiaddrs[0]!]);
    const c = await start([a.net.multiaddrs[0]!, b.net.multiaddrs[0]!]);
    await until('C is connected to A and B', () => connected(c).length === 2);
    await until('A is connected to B and C', () => connected(a).length === 2);

    const port = Number(decodeEnr(b.net.enr).tcp);
    await b.net.stop();
    await until(
      'A and C lost B',
      () => !connected(a).includes(b.net.peerId) && !connected(c).includes(b.net.peerId),
    );
    await until('C lists B as a cached bootstrap peer it keeps dialling', () => {
      const p = c.net.getPeers(true).find((x) => x.id === b.net.peerId);
      return p?.status === 'cached' && p.dialAttempts > 0 && p.enr === '';
    });

    const b2 = await start([a.net.multiaddrs[0]!], { key: b.key, port });
    assert.equal(b2.net.peerId, b.net.peerId);
    assert.equal(decodeEnr(b2.net.enr).tcp, port);
    await until('A and C see B connected again', () => {
      return connected(a).includes(b.net.peerId) && connected(c).includes(b.net.peerId);
    });
    const data = unique('after-restart');
    await publishUntilSent(b2, 'tx', data);
    await until('A and C received it', () => saw(a, data) && saw(c, data));
  });
});

describe('peers that misbehave', () => {
  const scoreAt = (n: Node, peer: string) =>
    (n.net.getPeers().find((p) => p.id === peer) as { score: number } | undefined)?.score;

  test('a peer that sends invalid messages is graylisted, disconnected and refused', TIMEOUT, async () => {
    const a = await start([], { verdict: (d) => (d.startsWith('bad') ? 'reject' : 'accept') });
    const d = await start([a.net.enr]);
    await until('D is connected to A', () => connected(a).includes(d.net.peerId));
    await publishUntilSent(d, 'tx', unique('fine'));
    for (let i = 0; i < 4 && connected(a).includes(d.net.peerId); i++) {
      await d.net.publish('tx', Buffer.from(unique('bad')));
      await new Promise((r) => setTimeout(r, 100));
    }
    await until('A disconnects D', () => !connected(a).includes(d.net.peerId));
    assert.ok(
      a.logs.some(
        (l) =>
          l.level === 40 && l.msg.startsWith('disconnecting a peer graylisted') && l.peer === d.net.peerId,
      ),
    );
    // D keeps dialling its bootstrap peer; A refuses it.
    await new Promise((r) => setTimeout(r, 3000));
    assert.ok(!connected(a).includes(d.net.peerId), 'A let D back in');
  });

  test(
    'a peer that floods txs past its rate is shed and pruned, its consensus messages still count; one that keeps flooding is disconnected',
    TIMEOUT,
    async () => {
      // 20 a second, bursts of 20: twenty bursts (400 messages) past the limit graylist a peer.
      const a = await start([], { queueLimits: { ratePerPeer: 20, burstPerPeer: 20 } });
      const d = await start([a.net.enr]);
      await until('D is connected to A', () => connected(a).includes(d.net.peerId));
      await publishUntilSent(d, 'tx', unique('first'));
      const flood = Array.from({ length: 100 }, () => unique('flood'));
      for (const data of flood) await d.net.publish('tx', Buffer.from(data));
      await until('A shed most of the flood', () => a.net.validationCounts.rateLimited >= 60);
      await until("D's score at A is negative", () => (scoreAt(a, d.net.peerId) ?? 0) < 0);
      const taken = flood.filter((x) => saw(a, x)).length;
      assert.ok(taken <= 40, `A took ${taken} of 100 flood messages at 20 a second`);
      assert.ok((scoreAt(a, d.net.peerId) ?? 0) > -50, 'one burst past the limit is far from graylisted');
      // Still connected, and a proposal from D is taken at once.
      assert.ok(connected(a).includes(d.net.peerId));
      const proposal = unique('proposal');
      await d.net.publish('block-proposal', Buffer.from(proposal));
      await until('A took the proposal', () => saw(a, proposal, 'block-proposal'));
      // Flooding on: graylisted, then disconnected.
      for (let i = 0; i < 600 && connected(a).includes(d.net.peerId); i++)
        await d.net.publish('tx', Buffer.from(unique('flood')));
      await until('A disconnects D', () => !connected(a).includes(d.net.peerId));
      assert.ok(
        a.logs.some((l) => l.msg.startsWith('disconnecting a peer graylisted') && l.peer === d.net.peerId),
      );
    },
  );
});

describe('standalone', () => {
  test('publishing with no peers resolves 0; bad bootstrap entries fail start', TIMEOUT, async () => {
    const lone = await start([]);
    assert.equal(await lone.net.publish('tx', Buffer.from('nobody')), 0);
    await assert.rejects(start(['/ip4/127.0.0.1/tcp/1']), /neither an ENR nor a multiaddr with \/p2p\//);
    await assert.rejects(start(['enr:garbage']), /invalid ENR/);
  });

  test(
    'announce waits for a peer to subscribe: a tx announced before any peer arrives still reaches one',
    TIMEOUT,
    async () => {
      const first = await start([]);
      const data = unique('early-tx');
      // Announced while the node has no peer at all; publish would send it to no one, once for good.
      const reached = first.net.announce('tx', Buffer.from(data));
      await new Promise((r) => setTimeout(r, 1500));
      const later = await start([first.net.enr]);
      assert.ok((await reached) >= 1, 'the announcement reached the peer that came later');
      await until('the later peer received it', () => saw(later, data));
    },
  );

  test('a bootstrap list naming the node itself is fine', TIMEOUT, async () => {
    const key = secp256k1.utils.randomSecretKey();
    const self = encodeEnr({ privateKey: key, seq: 1n, ip: '127.0.0.1', tcp: await closedPort() });
    const n = await start([self], { key });
    assert.deepEqual(n.net.getPeers(true), []);
  });

  test('loadOrCreatePeerKey keeps one key per store and makes a new one for a new store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-p2p-key-'));
    try {
      const env = openEnvironment(join(dir, 'one'), 'p2p');
      const key = loadOrCreatePeerKey(env);
      assert.equal(key.length, 32);
      assert.ok(secp256k1.utils.isValidSecretKey(key));
      assert.deepEqual(loadOrCreatePeerKey(env), key);
      await env.close();
      const reopened = openEnvironment(join(dir, 'one'), 'p2p');
      assert.deepEqual(loadOrCreatePeerKey(reopened), key, 'persisted');
      await reopened.close();
      const other = openEnvironment(join(dir, 'two'), 'p2p');
      assert.notDeepEqual(loadOrCreatePeerKey(other), key);
      await other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
