// JSON-RPC transport throughput: a real `cairn start` process (running its embedded L1 and chain
// in realtime), loaded over loopback by autocannon from this process. Prints one line per figure:
//   BENCH rpc.<name> req_per_s=<n> p50_ms=<n> p99_ms=<n>
//   npm run build && node --import tsx bench/rpc.bench.ts
import autocannon from 'autocannon';
import { startCairn } from '../test/helpers/process.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 32;

const node = await startCairn(['--log-level', 'warn']);
try {
  const cases: [string, unknown][] = [
    ['svc_getNodeInfo', { jsonrpc: '2.0', id: 1, method: 'svc_getNodeInfo', params: [] }],
    ['svc_getChainId', { jsonrpc: '2.0', id: 1, method: 'svc_getChainId', params: [] }],
    ['svc_getChainTips', { jsonrpc: '2.0', id: 1, method: 'svc_getChainTips', params: [] }],
    ['svc_getBlock_latest', { jsonrpc: '2.0', id: 1, method: 'svc_getBlock', params: ['latest'] }],
    [
      'batch10_getNodeInfo',
      Array.from({ length: 10 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'svc_getNodeInfo',
        params: [],
      })),
    ],
  ];
  for (const [name, body] of cases) {
    const result = await autocannon({
      url: node.publicUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    if (result.errors > 0 || result.non2xx > 0) {
      throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
    }
    console.log(
      `BENCH rpc.${name} req_per_s=${Math.round(result.requests.average)} p50_ms=${result.latency.p50} p99_ms=${result.latency.p99}`,
    );
  }
} finally {
  await node.stop();
}
