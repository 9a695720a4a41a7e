// Peer exchange between real libp2p networks on 127.0.0.1: six networks in a chain, each given
// only the previous one as its bootstrap peer, end fully connected; answers that are junk (not
// JSON, oversized, truncated, silent, too long a list, bad entries) are ignored without a crash and
// without dialling anything they name, while a valid entry in the same answer is dialled.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { identify } from '@libp2p/identify';
import type { Stream } from '@libp2p/interface';
import { noise } from '@libp2p/noise';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { tcp } from '@libp2p/tcp';
import { yamux } from '@libp2p/yamux';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createLibp2p, type Libp2p } from 'libp2p';
import pino from 'pino';
import { P2PNetwork } from '../../src/p2p/network.js';
import {
  BadAnswerError,
  decodeAnswer,
  dialableAddr,
  encodeAnswer,
  MAX_ANSWER_BYTES,
  MAX_ANSWER_PEERS,
  PEER_EXCHANGE_PROTOCOL,
} from '../../src/p2p/peer-exchange.js';
import { until } from '../helpers/until.js';

const TIMEOUT = { timeout: 30_000 };

interface Log {
  level: number;
  msg: string;
  peer?: string;
  reason?: string;
  skipped?: number;
}

const running: { stop(): void | Promise<void> }[] = [];
after(async () => {
  await Promise.all(running.map((n) => n.stop()));
});

async function start(bootstrap: string[]): Promise<{ net: P2PNetwork; logs: Log[] }> {
  const logs: Log[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const net = await P2PNetwork.start({
    privateKey: secp256k1.utils.randomSecretKey(),
    listenHost: '127.0.0.1',
    listenPort: 0,
    announceHost: '127.0.0.1',
    bootstrap,
    topicPrefix: '/cairn/31337/0xabc',
    logger,
  });
  running.push(net);
  return { net, logs };
}

const connected = (net: P2PNetwork) =>
  net
    .getPeers()
    .filter((p) => p.status === 'connected')
    .map((p) => p.id);

const randomPeerId = () =>
  peerIdFromPrivateKey(privateKeyFromRaw(secp256k1.utils.randomSecretKey())).toString();

function frame(body: Uint8Array | string): Uint8Array {
  const bytes = Buffer.from(body);
  const out = Buffer.alloc(4 + bytes.length);
  out.writeUInt32BE(bytes.length, 0);
  bytes.copy(out, 4);
  return out;
}

/** A bare libp2p host whose peer-exchange handler does whatever `answer` does with the stream. */
async function rawPeer(answer: (stream: Stream) => void | Promise<void>): Promise<Libp2p> {
  const node = await createLibp2p({
    privateKey: privateKeyFromRaw(secp256k1.utils.randomSecretKey()),
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  });
  await node.handle(PEER_EXCHANGE_PROTOCOL, async (stream) => {
    try {
      await answer(stream);
    } catch {
      stream.abort(new Error('test peer failed'));
    }
  });
  running.push(node);
  return node;
}

/** A raw peer that sends `bytes` and closes. */
const sender = (bytes: Uint8Array) =>
  rawPeer(async (stream) => {
    stream.send(bytes);
    await stream.close();
  });

describe('answers', () => {
  test('an answer decodes to the peers it lists, with dialable addresses only', () => {
    const a = randomPeerId();
    const b = randomPeerId();
    const f = encodeAnswer([
      { id: a, addrs: ['/ip4/10.0.0.1/tcp/40400', '/dns/node.example/tcp/1'] },
      { id: b, addrs: ['/ip6/::1/tcp/2', `/ip4/1.2.3.4/tcp/3/p2p/${b}`] },
    ]);
    assert.equal(Buffer.from(f).readUInt32BE(0), f.length - 4);
    const { peers, skipped } = decodeAnswer(f.subarray(4));
    assert.equal(skipped, 0);
    assert.deepEqual(
      peers.map((p) => [p.peerId.toString(), p.addrs.map(String)]),
      [
        [a, [`/ip4/10.0.0.1/tcp/40400/p2p/${a}`, `/dns/node.example/tcp/1/p2p/${a}`]],
        [b, [`/ip6/::1/tcp/2/p2p/${b}`, `/ip4/1.2.3.4/tcp/3/p2p/${b}`]],
      ],
    );
  });

  test('only IP or DNS with TCP, a real port, and no other peer id make a dialable address', () => {
    const id = randomPeerId();
    for (const bad of [
      '/ip4/127.0.0.1/udp/1',
      '/ip4/127.0.0.1',
      '/ip4/0.0.0.0/tcp/1',
      '/ip6/::/tcp/1',
      '/ip4/127.0.0.1/tcp/0',
      '/ip4/127.0.0.1/tcp/1/ws',
      '/unix/tmp%2Fsock',
      `/ip4/127.0.0.1/tcp/1/p2p/${randomPeerId()}`,
      `/p2p/${id}`,
      'not a multiaddr',
      '',
      `/dns/${'a'.repeat(300)}/tcp/1`,
    ])
      assert.equal(dialableAddr(bad, id), undefined, bad);
    assert.equal(dialableAddr('/dns4/x.example/tcp/9', id)?.toString(), `/dns4/x.example/tcp/9/p2p/${id}`);
  });

  test('malformed answers throw BadAnswerError; bad entries are skipped', () => {
    const text = (s: string) => Buffer.from(s);
    for (const bad of ['', 'nope', '[]', 'null', '{"peers":{}}', '{}', '"x"']) {
      assert.throws(() => decodeAnswer(text(bad)), BadAnswerError, bad);
    }
    assert.throws(() => decodeAnswer(Uint8Array.of(0xff, 0xfe)), BadAnswerError);
    assert.throws(() => decodeAnswer(new Uint8Array(MAX_ANSWER_BYTES + 1)), BadAnswerError);
    const many = Array.from({ length: MAX_ANSWER_PEERS + 1 }, () => ({ id: randomPeerId(), addrs: [] }));
    assert.throws(() => decodeAnswer(text(JSON.stringify({ peers: many }))), BadAnswerError);
    const good = randomPeerId();
    const { peers, skipped } = decodeAnswer(
      text(
        JSON.stringify({
          peers: [
            null,
            7,
            'x',
            { id: 'Qm-not-an-id', addrs: ['/ip4/1.2.3.4/tcp/1'] },
            { id: randomPeerId() },
            { id: randomPeerId(), addrs: ['/ip4/1.2.3.4/udp/1'] },
            { id: randomPeerId(), addrs: Array(9).fill('/ip4/1.2.3.4/tcp/1') },
            { id: good, addrs: ['/ip4/1.2.3.4/tcp/1', 5, null] },
            { id: good, addrs: ['/ip4/1.2.3.4/tcp/2'] },
          ],
        }),
      ),
    );
    assert.deepEqual(
      peers.map((p) => p.peerId.toString()),
      [good],
    );
    assert.equal(skipped, 8);
  });

  test('an answer that would be too large drops peers until it fits', () => {
    const long = `/dns/${'a'.repeat(200)}/tcp/1`;
    const peers = Array.from({ length: 64 }, () => ({
      id: randomPeerId(),
      addrs: [long, long, long, long, long],
    }));
    const f = encodeAnswer(peers);
    assert.ok(f.length - 4 <= MAX_ANSWER_BYTES, `${f.length}`);
    const listed = JSON.parse(Buffer.from(f.subarray(4)).toString()).peers;
    assert.ok(listed.length > 0 && listed.length <= MAX_ANSWER_PEERS);
    assert.ok(listed.every((p: { addrs: string[] }) => p.addrs.length === 4));
  });
});

describe('discovery', () => {
  test(
    'six networks in a chain, each bootstrapped from the previous one only, end fully connected',
    TIMEOUT,
    async () => {
      const t0 = Date.now();
      const nodes: P2PNetwork[] = [];
      for (let i = 0; i < 6; i++) {
        const { net } = await start(i === 0 ? [] : [nodes[i - 1]!.enr]);
        nodes.push(net);
      }
      const ids = nodes.map((n) => n.peerId);
      await until(
        'every network is connected to the five others',
        () => nodes.every((n) => connected(n).length === 5),
        25_000,
      );
      for (const [i, n] of nodes.entries()) {
        assert.deepEqual(connected(n).sort(), ids.filter((_, j) => j !== i).sort());
      }
      console.log(`full mesh of 6 after ${Date.now() - t0} ms`);
    },
  );

  test(
    'junk answers are ignored without a crash or a dial; a valid entry beside them is dialled',
    TIMEOUT,
    async () => {
      const target = await start([]);
      const bogus = randomPeerId();
      const selfKey = secp256k1.utils.randomSecretKey();
      const selfId = peerIdFromPrivateKey(privateKeyFromRaw(selfKey)).toString();
      const junk = {
        notJson: await sender(frame('{"peers": [')),
        oversized: await sender(
          Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xf0]), Buffer.alloc(4096, 7)]),
        ),
        truncated: await sender(frame('{"peers":[]}').subarray(0, 9)),
        trailing: await sender(Buffer.concat([frame('{"peers":[]}'), Buffer.from('more')])),
        tooMany: await sender(
          frame(
            JSON.stringify({
              peers: Array.from({ length: 40 }, () => ({ id: bogus, addrs: ['/ip4/127.0.0.1/tcp/9'] })),
            }),
          ),
        ),
        // Never answers: the ask times out.
        silent: await rawPeer(() => new Promise<void>(() => {})),
      };
      const mixed = await sender(
        frame(
          JSON.stringify({
            peers: [
              { id: 'not-an-id', addrs: ['/ip4/127.0.0.1/tcp/9'] },
              { id: bogus, addrs: ['/ip4/127.0.0.1/udp/9', '/unix/x', 'junk', '/ip4/0.0.0.0/tcp/9'] },
              { id: selfId, addrs: ['/ip4/127.0.0.1/tcp/9'] },
              { id: target.net.peerId, addrs: target.net.multiaddrs },
              'garbage',
              null,
            ],
          }),
        ),
      );
      const addrOf = (n: Libp2p) => n.getMultiaddrs()[0]!.toString();
      const bootstrap = [...Object.values(junk), mixed].map(addrOf);
      const logs: Log[] = [];
      const net = await P2PNetwork.start({
        privateKey: selfKey,
        listenHost: '127.0.0.1',
        listenPort: 0,
        announceHost: '127.0.0.1',
        bootstrap,
        topicPrefix: '/cairn/31337/0xabc',
        logger: pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
      });
      running.push(net);

      await until('the valid entry is dialled and connected', () =>
        connected(net).includes(target.net.peerId),
      );
      const ignored = () => logs.filter((l) => l.msg === 'peer exchange answer ignored');
      const junkIds = ['notJson', 'oversized', 'truncated', 'trailing', 'tooMany'].map((k) =>
        junk[k as keyof typeof junk].peerId.toString(),
      );
      await until('every junk answer is ignored', () =>
        junkIds.every((id) => ignored().some((l) => l.peer === id)),
      );
      await until('the silent peer times out', () =>
        logs.some((l) => l.msg === 'peer exchange ask failed' && l.peer === junk.silent.peerId.toString()),
      );
      const dialled = logs.filter((l) => l.msg === 'dialling a peer learned by exchange').map((l) => l.peer);
      assert.deepEqual(dialled, [target.net.peerId], 'only the valid entry was dialled');
      const answer = logs.find((l) => l.msg === 'peer exchange answer' && l.peer === mixed.peerId.toString());
      // Our own id is valid but never dialled; the rest are skipped when decoded.
      assert.equal(answer?.skipped, 4);
      // Still running and connected to everyone that is up.
      assert.equal(connected(net).length, 8);
      assert.ok(!net.getPeers(true).some((p) => p.id === bogus));
    },
  );
});
