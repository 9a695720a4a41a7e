// Discovery beyond the bootstrap list: six `cairn start` processes on one L1 (node A's embedded
// anvil; manual clock, so the chain stays still), each given only the previous node's record as
// its bootstrap peer (B from A, C from B, …, a chain). Peer exchange makes them a full mesh: every
// node ends connected to the five others, as svc_getPeers and GET /status show.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CairnProcess, followerFlags, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const NODES = 6;
const common = ['--clock', 'manual', '--p2p', '--p2p-port', '0', '--p2p-listen-host', '127.0.0.1'];

describe('six nodes that each know one bootstrap peer', { timeout: 120_000 }, () => {
  const nodes: CairnProcess[] = [];
  const ids: string[] = [];
  const pub = (n: CairnProcess, m: string, p?: unknown) => result(n.publicUrl, m, p) as Promise<any>;
  const connectedIds = async (n: CairnProcess) =>
    ((await pub(n, 'svc_getPeers')) as { id: string; status: string }[])
      .filter((p) => p.status === 'connected')
      .map((p) => p.id)
      .sort();
  const status = async (n: CairnProcess) =>
    (await (await fetch(new URL('/status', n.publicUrl))).json()) as {
      p2p?: { peerId: string; connectedPeers: number };
    };

  before(async () => {
    const a = await startCairn(common, {}, [], 60_000);
    nodes.push(a);
    const follow = await followerFlags(a);
    for (let i = 1; i < NODES; i++) {
      const enr = (await pub(nodes[i - 1]!, 'svc_getEncodedEnr')) as string;
      nodes.push(
        await startCairn(
          [...common, ...follow, '--sequencer', 'false', '--p2p-bootstrap-nodes', enr],
          {},
          [],
          60_000,
        ),
      );
    }
    for (const n of nodes) ids.push((await status(n)).p2p?.peerId ?? '');
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  });

  test('every node ends connected to the five others', async () => {
    assert.ok(
      ids.every((id) => id.startsWith('16U')),
      `peer ids from GET /status: ${ids.join(' ')}`,
    );
    const t0 = Date.now();
    await until('a full mesh', async () => {
      const all = await Promise.all(nodes.map(connectedIds));
      return all.every((c) => c.length === NODES - 1) ? all : undefined;
    });
    console.log(`full mesh of ${NODES} processes ${Date.now() - t0} ms after the last started`);
    for (const [i, n] of nodes.entries()) {
      assert.deepEqual(await connectedIds(n), ids.filter((_, j) => j !== i).sort(), `node ${i}`);
      assert.deepEqual((await status(n)).p2p, { peerId: ids[i], connectedPeers: NODES - 1 });
    }
  });
});
