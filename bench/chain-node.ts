// Shared by the benchmarks that drive a real node's chain (txs, state): the node, started with the
// manual clock and room for many txs per checkpoint, and small helpers.
import { buildTx, type NodeClient, type PreparedTxSpec, prepareTx } from '../src/client/index.js';
import type { Tx } from '../src/core/tx.js';
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

export interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** What svcDev_advanceToSlot answers. */
export interface Moved {
  l1BlockNumber: string;
  l2BlockNumber: number;
  slot?: number;
}

/**
 * Many txs for the node's chain, built locally: the chain parameters (anchor block, chain id,
 * version, fees with `feeHeadroom`, expiration) are fetched once with the first tx, so building
 * is not what a bench times.
 */
export async function txFactory(client: NodeClient, firstSpec: PreparedTxSpec) {
  const first = await prepareTx(client, firstSpec);
  const { constants, expirationTimestamp } = first.tx.data;
  const build = (spec: Omit<PreparedTxSpec, 'feeHeadroom'>): Tx =>
    buildTx({
      ...spec,
      anchorBlockHash: constants.anchorBlockHash,
      chainId: constants.chainId,
      version: constants.version,
      expirationTimestamp,
      maxFeesPerGas: constants.gasSettings.maxFeesPerGas,
    }).tx;
  return { first, build };
}

/** JSON-RPC batch bodies of svc_sendTx, `size` txs each. */
export function sendTxBatchBodies(wires: readonly unknown[], size: number): string[] {
  const bodies: string[] = [];
  for (let i = 0; i < wires.length; i += size) {
    bodies.push(
      JSON.stringify(
        wires
          .slice(i, i + size)
          .map((wire, j) => ({ jsonrpc: '2.0', id: i + j, method: 'svc_sendTx', params: [wire] })),
      ),
    );
  }
  return bodies;
}

/**
 * Advances slot by slot from `slot` until the mempool is empty (at most `maxSlots` slots):
 * the time and the txs mined of each slot, the last slot and what the last advance answered.
 */
export async function mineUntilEmpty(
  rpc: {
    pub: <T>(method: string, params?: unknown[]) => Promise<T>;
    dev: (method: string, params?: unknown[]) => Promise<Moved>;
  },
  slot: number,
  maxSlots: number,
): Promise<{ perSlot: { ms: number; mined: number }[]; slot: number; moved: Moved | undefined }> {
  const perSlot: { ms: number; mined: number }[] = [];
  let moved: Moved | undefined;
  let pending = await rpc.pub<number>('svc_getPendingTxCount');
  while (pending > 0) {
    if (perSlot.length > maxSlots) throw new Error(`${pending} txs never mined`);
    const t0 = performance.now();
    moved = await rpc.dev('svcDev_advanceToSlot', [++slot]);
    const ms = performance.now() - t0;
    const left = await rpc.pub<number>('svc_getPendingTxCount');
    perSlot.push({ ms, mined: pending - left });
    pending = left;
  }
  return { perSlot, slot, moved };
}
