// Shared by the benchmarks that drive a real node's chain (txs, state): the node, started with the
// manual clock and room for many txs per checkpoint, and small helpers.
import { startCairn } from '../test/helpers/process.js';

export const MAX_TXS_PER_BLOCK = 500;

export const log = (line: string) => process.stderr.write(`${line}\n`);

export const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? Number.NaN;

/** Runs `jobs` with at most `limit` in flight. */
export async function runLimited<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

/** A node on the manual clock taking one block of up to MAX_TXS_PER_BLOCK txs per checkpoint. */
export function startChainNode(cpuProfDir: string | undefined) {
  return startCairn(
    [
      '--clock',
      'manual',
      '--log-level',
      'warn',
      '--max-txs-per-block',
      String(MAX_TXS_PER_BLOCK),
      '--max-blocks-per-checkpoint',
      '1',
    ],
    {},
    cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
  );
}
