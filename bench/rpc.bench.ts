// JSON-RPC transport throughput: a real `cairn start` process (running its embedded L1 and chain
// in realtime), loaded over loopback by autocannon from this process. Prints one line per figure:
//   BENCH rpc.<name> req_per_s=<n> p50_ms=<n> p99_ms=<n>
// and the side-by-side case, cairn's svc_getBlockNumber against a bare node:http JSON-RPC server
// (bench/bare-rpc-server.ts, its own process) answering a constant, both at 64 connections:
//   BENCH rpc.overhead_ratio connections=64 rounds=<n> bare_req_per_s=<n> cairn_req_per_s=<n> ratio=<n>
// (medians over the rounds; ratio is cairn's rate over the bare server's)
//   npm run build && node --import tsx bench/rpc.bench.ts
// BENCH_DURATION_S sets the seconds per case (default 5), BENCH_RATIO_ROUNDS and BENCH_RATIO_S the
// rounds of the side-by-side case and the seconds of each server's turn in one (default 12 and 3),
// BENCH_ONLY=ratio runs only that case, BENCH_CPU_PROF_DIR has the node write a CPU profile there.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startCairn } from '../test/helpers/process.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const RATIO_ROUNDS = Number(process.env.BENCH_RATIO_ROUNDS ?? 12);
const RATIO_S = Number(process.env.BENCH_RATIO_S ?? 3);
const ONLY_RATIO = process.env.BENCH_ONLY === 'ratio';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
const CONNECTIONS = 32;
const RATIO_CONNECTIONS = 64;

async function load(url: string, body: unknown, connections: number, duration: number) {
  const name = JSON.stringify(body).slice(0, 60);
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    duration,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
  }
  return result;
}

/** Starts bench/bare-rpc-server.ts as a child process and waits for its URL. */
async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'bare-rpc-server.ts')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  return { url, child };
}

const node = await startCairn(
  ['--log-level', 'warn'],
  {},
  CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [],
);
const bare = await startBare();
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
  for (const [name, body] of ONLY_RATIO ? [] : cases) {
    const result = await load(node.publicUrl, body, CONNECTIONS, DURATION_S);
    console.log(
      `BENCH rpc.${name} req_per_s=${Math.round(result.requests.average)} p50_ms=${result.latency.p50} p99_ms=${result.latency.p99}`,
    );
  }

  // Side by side: the same request to both servers in short rounds, the order alternating (bare
  // first, then cairn first), after a warm-up of each. The figure is the median of the rounds'
  // ratios, so a burst of other work on the machine moves one round, not the result.
  const request = { jsonrpc: '2.0', id: 1, method: 'svc_getBlockNumber', params: [] };
  await load(bare.url, request, RATIO_CONNECTIONS, 1);
  await load(node.publicUrl, request, RATIO_CONNECTIONS, 1);
  const rounds: { bare: number; cairn: number }[] = [];
  for (let round = 0; round < RATIO_ROUNDS; round++) {
    const order = round % 2 === 0 ? ['bare', 'cairn'] : ['cairn', 'bare'];
    const rate: Record<string, number> = {};
    for (const which of order) {
      const r = await load(which === 'bare' ? bare.url : node.publicUrl, request, RATIO_CONNECTIONS, RATIO_S);
      rate[which] = r.requests.average;
    }
    rounds.push({ bare: rate.bare!, cairn: rate.cairn! });
    process.stderr.write(
      `round ${round + 1}: bare ${Math.round(rate.bare!)}/s, cairn ${Math.round(rate.cairn!)}/s, ` +
        `ratio ${(rate.cairn! / rate.bare!).toFixed(2)}\n`,
    );
  }
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  console.log(
    `BENCH rpc.overhead_ratio connections=${RATIO_CONNECTIONS} rounds=${RATIO_ROUNDS} ` +
      `bare_req_per_s=${Math.round(median(rounds.map((r) => r.bare)))} ` +
      `cairn_req_per_s=${Math.round(median(rounds.map((r) => r.cairn)))} ` +
      `ratio=${median(rounds.map((r) => r.cairn / r.bare)).toFixed(2)}`,
  );
} finally {
  bare.child.kill('SIGTERM');
  await node.stop();
}
