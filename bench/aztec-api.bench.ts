// The reference API at /aztec against cairn's own at / for the same reads, on one `cairn start`
// process: node_getPublicStorageAt and node_getL2Tips as the stock client sends them (a JSON-RPC
// batch array of one call, to /aztec) and svc_getPublicStorageAt / svc_getChainTips as single
// calls to /. Short rounds alternate the order; each figure is the median over the rounds:
//   BENCH aztec.<method> connections=<n> rounds=<n> root_req_per_s=<n> aztec_req_per_s=<n> ratio=<n>
// (ratio: /aztec's rate over /'s)
//   npm run build && node --import tsx bench/aztec-api.bench.ts
// BENCH_ROUNDS and BENCH_ROUND_S set the rounds and the seconds of each side's turn (default 8 and 3).
import autocannon from 'autocannon';
import { startCairn } from '../test/helpers/process.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 3);
const CONNECTIONS = 32;

async function rate(url: string, body: unknown, duration: number): Promise<number> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate' },
    body: JSON.stringify(body),
    connections: CONNECTIONS,
    duration,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
  }
  return result.requests.average;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const call = (method: string, params: unknown[]) => ({ jsonrpc: '2.0', id: 1, method, params });
// The FeeJuice contract's storage at a slot: a read of the public data tree at the latest block.
const FEE_JUICE = '0x0000000000000000000000000000000000000000000000000000000000000005';
const SLOT = '0x0000000000000000000000000000000000000000000000000000000000000001';

const node = await startCairn(['--log-level', 'warn']);
try {
  const aztec = `${node.publicUrl}/aztec`;
  const cases: { name: string; root: unknown; aztec: unknown }[] = [
    {
      name: 'getPublicStorageAt',
      root: call('svc_getPublicStorageAt', ['latest', FEE_JUICE, SLOT]),
      aztec: [call('node_getPublicStorageAt', ['latest', FEE_JUICE, SLOT])],
    },
    { name: 'getL2Tips', root: call('svc_getChainTips', []), aztec: [call('node_getL2Tips', [])] },
  ];
  for (const c of cases) {
    await rate(node.publicUrl, c.root, 1);
    await rate(aztec, c.aztec, 1);
    const rounds: { root: number; aztec: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['root', 'aztec'] as const) : (['aztec', 'root'] as const);
      const r = { root: 0, aztec: 0 };
      for (const which of order) {
        r[which] = await rate(which === 'root' ? node.publicUrl : aztec, c[which], ROUND_S);
      }
      rounds.push(r);
      process.stderr.write(
        `${c.name} round ${round + 1}: / ${Math.round(r.root)}/s, /aztec ${Math.round(r.aztec)}/s, ratio ${(r.aztec / r.root).toFixed(2)}\n`,
      );
    }
    console.log(
      `BENCH aztec.${c.name} connections=${CONNECTIONS} rounds=${ROUNDS} ` +
        `root_req_per_s=${Math.round(median(rounds.map((r) => r.root)))} ` +
        `aztec_req_per_s=${Math.round(median(rounds.map((r) => r.aztec)))} ` +
        `ratio=${median(rounds.map((r) => r.aztec / r.root)).toFixed(2)}`,
    );
  }
} finally {
  await node.stop();
}
