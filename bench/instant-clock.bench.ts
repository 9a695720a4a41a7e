// tx → receipt latency with `cairn start --clock instant` (a block as soon as a tx arrives): a
// client sends a tx, then polls its receipt every 5 ms until a block holds it; one tx at a time,
// as an app's test suite would. Also a burst of txs sent together, to see them share blocks.
// Prints:
//   BENCH instant-clock p50_ms=<n> p99_ms=<n> max_ms=<n> n=<n>
//   BENCH instant-clock-burst txs=<n> blocks=<n> all_mined_ms=<n>
//   npm run build && node --import tsx bench/instant-clock.bench.ts
// BENCH_INSTANT_TXS (100) and BENCH_INSTANT_BURST (20) change the counts.
import { devAccounts, NodeClient, randomFr, toWire } from '../src/client/index.js';
import { startCairn } from '../test/helpers/process.js';
import { benchOnNode, fmt, log, nodeRpc, percentile, txFactory } from './chain-node.js';

const N = Number(process.env.BENCH_INSTANT_TXS ?? 100);
const BURST = Number(process.env.BENCH_INSTANT_BURST ?? 20);

const node = await startCairn(['--clock', 'instant', '--log-level', process.env.BENCH_LOG_LEVEL ?? 'warn']);

await benchOnNode('instant-clock', node, async () => {
  const { pub } = nodeRpc(node);
  const client = new NodeClient(node.publicUrl);
  const accounts = devAccounts(10).map((a) => a.address);
  const spec = (i: number) => ({ feePayer: accounts[i % accounts.length]!, nullifiers: [randomFr()] });
  const { build } = await txFactory(client, spec(0));
  const minedBlock = async (hash: string): Promise<number> => {
    for (;;) {
      const r = await pub('svc_getTxReceipt', [hash]);
      if (r.status !== 'pending') {
        if (r.status === 'dropped') throw new Error(`tx ${hash} was dropped`);
        return r.blockNumber!;
      }
      await new Promise((res) => setTimeout(res, 5));
    }
  };

  const latencies: number[] = [];
  for (let i = 0; i < N; i++) {
    const wire = toWire(build(spec(i)));
    const start = performance.now();
    await pub('svc_sendTx', [wire]);
    await minedBlock(wire.txHash);
    latencies.push(performance.now() - start);
  }
  log(`one at a time: ${N} txs, each in its own block`);
  console.log(
    `BENCH instant-clock p50_ms=${fmt(percentile(latencies, 0.5), 1)} p99_ms=${fmt(percentile(latencies, 0.99), 1)} max_ms=${fmt(Math.max(...latencies), 1)} n=${N}`,
  );

  const wires = Array.from({ length: BURST }, (_, i) => toWire(build(spec(i))));
  const start = performance.now();
  await Promise.all(wires.map((w) => pub('svc_sendTx', [w])));
  const blocks = new Set(await Promise.all(wires.map((w) => minedBlock(w.txHash))));
  console.log(
    `BENCH instant-clock-burst txs=${BURST} blocks=${blocks.size} all_mined_ms=${fmt(performance.now() - start, 0)}`,
  );
});
