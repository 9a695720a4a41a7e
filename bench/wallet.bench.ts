// The stock aztec.js 4.1.2 wallet on cairn (docs/aztec-js.md's wallet), timed on the workload the
// reference's local network was timed on here: from wallet creation to the last read, deploy a
// fresh Schnorr account through the SponsoredFPC, deploy the Token, mint_to_private,
// mint_to_public, a private transfer, transfer_in_public, then two private and two public balance
// reads. The node runs with `--clock instant`, already started, with the two accounts already
// deployed (test/aztec-client/wallet-bench.mjs, in a Node 22 process). Also the node's start, from
// spawning `cairn start` to its ready file. Prints per step and the medians over the rounds:
//   BENCH wallet.<step> ms=<median>
//   BENCH wallet.total ms=<median> rounds=<n>  BENCH wallet.node_start ms=<median>
//   npm run build && node --import tsx bench/wallet.bench.ts      (BENCH_ROUNDS, default 3)
import { walletScripts } from '../test/helpers/aztec-wallet.js';
import { type CairnProcess, startCairn } from '../test/helpers/process.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const scripts = await walletScripts((line) => console.error(line));
const steps = new Map<string, number[]>();
const starts: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    const node: CairnProcess = await startCairn(['--clock', 'instant', '--log-format', 'json']);
    starts.push(performance.now() - t0);
    try {
      const url = `${node.publicUrl}/aztec`;
      const setup = await scripts.run('wallet-bench.mjs', [url, 'setup']);
      if (setup.code !== 0) throw new Error(`setup failed:\n${setup.stderr.slice(-3000)}`);
      const timed = await scripts.run('wallet-bench.mjs', [url, 'timed']);
      if (timed.code !== 0) throw new Error(`timed run failed:\n${timed.stderr.slice(-3000)}`);
      for (const r of timed.records) {
        steps.set(r.step, [...(steps.get(r.step) ?? []), r.ms]);
        const cpu = r.cpuMs === undefined ? '' : ` (wallet CPU ${r.cpuMs} ms)`;
        console.error(`round ${round + 1}: ${r.step} ${r.ms} ms${cpu}`);
      }
    } finally {
      await node.stop();
    }
  }
} finally {
  scripts.close();
}
for (const [step, ms] of steps) {
  const name = step.replace(/[^a-z0-9_]+/gi, '_').replace(/_+$/, '');
  console.log(`BENCH wallet.${name} ms=${median(ms)}${step === 'total' ? ` rounds=${ms.length}` : ''}`);
}
console.log(`BENCH wallet.node_start ms=${Math.round(median(starts))}`);
process.exit(0);
