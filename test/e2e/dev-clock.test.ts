// The clock switched at run time (svcDev_setClock, `cairn dev clock`) on a node started with the
// manual clock: to instant, a tx pending from before gets its block at once and each new tx one of
// its own; back to manual, txs wait; to realtime, L1 mines on its own, and from there to instant
// it stops. With the instant clock, an app test suite's pattern — snapshot, txs, revert, again —
// mines each round's txs at once, in the slots of the round before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const [alice] = devAccounts(1);

describe('switching the clock at run time', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  const send = async () => {
    const t = await prepareTx(client, { feePayer: alice!.address, noteHashes: [randomFr()] });
    await pub('svc_sendTx', [t.wire]);
    return t.hash;
  };
  const mined = (hash: string) =>
    until(`tx ${hash} in a block`, async () => (await pub('svc_getTxReceipt', [hash])).blockNumber, 20_000);
  /** The latest L1 block, read straight from the L1. */
  const l1Head = async () => {
    const url = /embedded L1 (http:\/\/[0-9.:]+)/.exec(node.output())![1]!;
    return BigInt((await result(url, 'eth_blockNumber', [])) as string);
  };

  before(async () => {
    node = await startCairn(['--clock', 'manual']);
    client = new NodeClient(node.publicUrl);
    await dev('svcDev_advanceToSlot', [1]);
  });
  after(() => node?.stop());

  test('manual to instant: the pending tx gets its block at once, then every new tx', async () => {
    const waiting = await send();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await pub('svc_getTxReceipt', [waiting])).status, 'pending', 'manual: it waits');

    assert.equal(await dev('svcDev_setClock', ['instant']), null);
    const first = await mined(waiting);
    const next = await send();
    assert.ok((await mined(next)) > first);
  });

  test('instant to manual: txs wait again', async () => {
    await dev('svcDev_setClock', ['manual']);
    const waiting = await send();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await pub('svc_getTxReceipt', [waiting])).status, 'pending');
    await dev('svcDev_advanceToSlot', [(await pub('svc_getSyncedL2SlotNumber')) + 1]);
    assert.ok((await mined(waiting)) > 0);
  });

  test('realtime mines on its own; from there instant stops it', async () => {
    const cli = await runCairn(['dev', 'clock', 'realtime', '--admin-url', node.adminUrl]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(cli.stdout.trim(), 'clock: realtime');
    const start = await l1Head();
    await until('L1 mining on its own', async () => (await l1Head()) > start + 1n, 20_000, 250);

    await dev('svcDev_setClock', ['instant']);
    const stopped = await l1Head();
    // Realtime mines every 2 s.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(await l1Head(), stopped);
    const hash = await send();
    assert.ok((await mined(hash)) > 0);
  });

  test('instant: snapshot, txs, revert, again — each round mined at once in the same slots', async () => {
    await dev('svcDev_setClock', ['instant']);
    const from = await pub('svc_getBlockNumber');
    let id = await dev('svcDev_snapshot');
    for (let round = 0; round < 3; round++) {
      // One tx a round: each round's slot is the one the round before used last.
      const a = await send();
      assert.equal(await mined(a), from + 1, `round ${round}`);
      assert.equal(await dev('svcDev_revert', [id]), true);
      assert.equal(await pub('svc_getBlockNumber'), from);
      assert.equal((await pub('svc_getTxReceipt', [a])).status, 'dropped');
      id = await dev('svcDev_snapshot');
    }
  });

  test('an unknown mode is -32602 and changes nothing', async () => {
    const reply = await call(node.adminUrl, 'svcDev_setClock', ['sometimes']);
    assert.equal(reply.error?.code, -32602);
    const hash = await send();
    assert.ok((await mined(hash)) > 0, 'still instant');
    const cli = await runCairn(['dev', 'clock', 'sometimes', '--admin-url', node.adminUrl]);
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /expected realtime, manual, instant, got sometimes/);
  });
});
