// GET /metrics on the admin port: Prometheus text with the chain's tips, L1, mempool, JSON-RPC
// calls per method and the sequencer's outcomes, whose values move as blocks come; behind the
// admin API key; not on the public port.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';

/** `name{labels} value` lines of the exposition text, by their full left-hand side. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

const KEY = 'metrics-test-api-key-0123456789';

describe('GET /metrics', () => {
  let node: CairnProcess;
  const scrape = async () => {
    const res = await fetch(`${node.adminUrl}/metrics`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    return samples(await res.text());
  };

  before(async () => {
    node = await startCairn(['--clock', 'instant', '--admin-api-key', KEY]);
  });
  after(async () => {
    await node?.stop();
  });

  test('the chain, L1, mempool, calls and outcomes, moving as blocks come', async () => {
    const before = await scrape();
    assert.equal(before.get('cairn_l2_block_number{tip="proposed"}'), 0);
    assert.equal(before.get('cairn_mempool_txs'), 0);
    assert.ok(
      before.get('cairn_l1_block_number{kind="head"}')! >=
        before.get('cairn_l1_block_number{kind="synced"}')!,
    );
    assert.ok(before.has('cairn_process_cpu_seconds_total'), 'process metrics');

    for (let i = 0; i < 2; i++) {
      const sent = await runCairn(
        ['tx', '--nullifiers', '1', '--send', '--wait'],
        { CAIRN_RPC_URL: node.publicUrl },
        60_000,
      );
      assert.equal(sent.code, 0, sent.stderr);
    }
    const after = await scrape();
    assert.equal(after.get('cairn_l2_block_number{tip="proposed"}'), 2);
    assert.ok(after.get('cairn_checkpoint_number{tip="checkpointed"}')! >= 1);
    assert.ok(
      after.get('cairn_l1_block_number{kind="synced"}')! >
        before.get('cairn_l1_block_number{kind="synced"}')!,
    );
    assert.equal(after.get('cairn_rpc_requests_total{port="public",method="svc_sendTx"}'), 2);
    assert.equal(after.get('cairn_rpc_errors_total{port="public",method="svc_sendTx"}'), 0);
    assert.equal(after.get('cairn_rpc_request_duration_seconds_count{port="public",method="svc_sendTx"}'), 2);
    assert.equal(
      after.get('cairn_rpc_request_duration_seconds_bucket{port="public",method="svc_sendTx",le="+Inf"}'),
      2,
    );
    assert.equal(after.get('cairn_sequencer_outcomes_total{outcome="published"}'), 2);
    assert.equal(after.get('cairn_world_state_commit_seconds_count'), 2);
  });

  test('a method that does not exist is counted as (unknown); errors are counted', async () => {
    await fetch(node.publicUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'svc_noSuchMethod', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'svc_getBlock', params: ['not a block'] },
      ]),
    });
    const m = await scrape();
    assert.equal(m.get('cairn_rpc_errors_total{port="public",method="(unknown)"}'), 1);
    assert.equal(m.get('cairn_rpc_errors_total{port="public",method="svc_getBlock"}'), 1);
    assert.ok(![...m.keys()].some((k) => k.includes('svc_noSuchMethod')));
  });

  test('behind the admin API key, and not on the public port', async () => {
    assert.equal((await fetch(`${node.adminUrl}/metrics`)).status, 401);
    assert.equal((await fetch(`${node.publicUrl}/metrics`)).status, 404);
  });
});
