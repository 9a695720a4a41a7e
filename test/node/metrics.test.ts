// The metrics registry on its own: every metric docs/operations.md lists and every metric the
// Grafana dashboard queries exists, and the JSON-RPC latency histogram is well formed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { NodeMetrics } from '../../src/node/metrics.js';

const tip = { block: 3, checkpoint: 2 };
const metrics = new NodeMetrics({
  tips: () => ({ proposed: { block: 4 }, checkpointed: tip, proven: tip, finalized: tip }),
  l1Head: async () => 10n,
  l1Synced: () => 9n,
  mempool: () => ({ txs: 5, bytes: 6000 }),
  l1Up: () => false,
  p2p: () => ({ peers: 2, gossip: { consensus: 7, bulkRun: 40, rateLimited: 3, full: 1, waiting: 5 } }),
});

const names = (text: string) => new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));

describe('NodeMetrics', () => {
  test('the dashboard and the docs name only metrics that exist', async () => {
    metrics.rpc.public.record('svc_getBlockNumber', 0.3, false);
    const exposed = names(await metrics.text());
    const dashboard = JSON.parse(
      readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
    );
    const queried = new Set(
      JSON.stringify(dashboard)
        .match(/cairn_[a-z0-9_]+/g)!
        .map((n) => n.replace(/_(bucket|sum|count)$/, '')),
    );
    for (const n of queried) assert.ok(exposed.has(n), `the dashboard queries ${n}, which is not exposed`);
    const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const documented = new Set([...doc.matchAll(/`(cairn_[a-z0-9_]+)`/g)].map((m) => m[1]!));
    for (const n of exposed)
      if (!n.startsWith('cairn_process') && !n.startsWith('cairn_nodejs'))
        assert.ok(documented.has(n), `${n} is not in docs/operations.md`);
  });

  test('the dashboard filters every query by its Instance variable and names series by instance', () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
    );
    const variable = dashboard.templating.list.find((v: { name: string }) => v.name === 'instance');
    assert.ok(variable, 'an instance variable');
    assert.equal(variable.multi, true);
    assert.equal(variable.includeAll, true);
    assert.match(JSON.stringify(variable.query), /label_values\(cairn_[a-z0-9_]+, instance\)/);
    const targets = dashboard.panels.flatMap((p: { targets?: unknown[] }) => p.targets ?? []);
    assert.ok(targets.length >= 20);
    for (const t of targets as { expr: string; legendFormat: string }[]) {
      for (const m of t.expr.matchAll(/cairn_[a-z0-9_]+(\{[^}]*\})?/g)) {
        assert.ok(
          m[1]?.includes('instance=~"$instance"'),
          `${m[0]} in ${t.expr} is not filtered by instance`,
        );
      }
      assert.ok(t.legendFormat.includes('{{instance}}'), `${t.expr}: legend ${t.legendFormat}`);
      // Aggregations keep the instance apart.
      for (const by of t.expr.matchAll(/by \(([^)]*)\)/g)) assert.match(by[1]!, /\binstance\b/, t.expr);
    }
  });

  test('L1 up and the P2P gossip counters come from their sources', async () => {
    const text = await metrics.text();
    assert.match(text, /^cairn_l1_up 0$/m);
    assert.match(text, /^cairn_p2p_peers 2$/m);
    assert.match(text, /^cairn_p2p_gossip_messages_total\{outcome="validated"\} 40$/m);
    assert.match(text, /^cairn_p2p_gossip_messages_total\{outcome="rate_limited"\} 3$/m);
    assert.match(text, /^cairn_p2p_gossip_messages_total\{outcome="queue_full"\} 1$/m);
    assert.match(text, /^cairn_p2p_gossip_waiting 5$/m);
  });

  test('values come from the sources; the latency histogram is cumulative and ends with +Inf', async () => {
    const m = new NodeMetrics({
      tips: () => ({ proposed: { block: 4 }, checkpointed: tip, proven: tip, finalized: tip }),
      l1Head: async () => {
        throw new Error('L1 is down');
      },
      l1Synced: () => 9n,
      mempool: () => ({ txs: 5, bytes: 6000 }),
    });
    for (const ms of [0.2, 3, 30, 5000]) m.rpc.admin.record('svcAdmin_getConfig', ms, ms > 1000);
    const text = await m.text();
    assert.match(text, /^cairn_l2_block_number\{tip="proposed"\} 4$/m);
    assert.match(text, /^cairn_l1_block_number\{kind="synced"\} 9$/m);
    assert.doesNotMatch(text, /kind="head"/, 'no head value while L1 does not answer');
    assert.match(text, /^cairn_mempool_bytes 6000$/m);
    assert.match(text, /^cairn_rpc_errors_total\{port="admin",method="svcAdmin_getConfig"\} 1$/m);
    const buckets = [
      ...text.matchAll(
        /^cairn_rpc_request_duration_seconds_bucket\{port="admin",method="svcAdmin_getConfig",le="([^"]+)"\} (\d+)$/gm,
      ),
    ];
    const counts = buckets.map((b) => Number(b[2]));
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => a - b),
      'cumulative',
    );
    assert.equal(buckets.at(-1)![1], '+Inf');
    assert.equal(counts.at(-1), 4);
    assert.equal(buckets.find((b) => b[1] === '0.001')![2], '1', '0.2 ms is under 1 ms');
    assert.equal(buckets.find((b) => b[1] === '2.5')![2], '3', '5 s is above every bound');
  });
});
