// Shared by the benchmarks that drive a real node's chain (txs, state, logs): the node, started with
// the manual clock and room for many txs per checkpoint, a keep-alive JSON-RPC client for it, and
// small helpers.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import {
  buildTx,
  type MethodName,
  type MethodParams,
  type MethodResult,
  type NodeClient,
  type PreparedTxSpec,
  prepareTx,
} from '../src/client/index.js';
import { toHex32 } from '../src/core/field.js';
import type { Tx } from '../src/core/tx.js';
import { type CairnProcess, startCairn } from '../test/helpers/process.js';

export const MAX_TXS_PER_BLOCK = 500;
/** Clock ticks per second of /proc/<pid>/stat CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

export const log = (line: string) => process.stderr.write(`${line}\n`);

export const fmt = (x: number, digits = 2) => x.toFixed(digits);
export const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
export const hex = (x: bigint) => toHex32(x);

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

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

/**
 * A node on the realtime clock as the load benches run it: `slotSeconds`-second slots, an L1 block
 * a second, up to 1,000 txs per block and room for `poolTxs` pending txs, then `args`; BENCH_LOG_LEVEL
 * (warn), BENCH_CAIRN_ARGS (more `cairn start` arguments), BENCH_CPU_PROF_DIR and BENCH_NODE_FLAGS
 * (Node flags for the node) from the environment.
 */
export function startRealtimeNode(slotSeconds: number, poolTxs: number, args: string[] = []) {
  const words = (value: string | undefined) => value?.split(' ').filter((a) => a !== '') ?? [];
  const cpuProfDir = process.env.BENCH_CPU_PROF_DIR;
  return startCairn(
    [
      '--slot-duration',
      String(slotSeconds),
      '--l1-block-time',
      '1',
      '--max-txs-per-block',
      '1000',
      // The default cap is 10,000 pending txs.
      '--mempool-max-tx-count',
      String(Math.max(10_000, poolTxs)),
      '--log-level',
      process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...args,
      ...words(process.env.BENCH_CAIRN_ARGS),
    ],
    {},
    [
      ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
      ...words(process.env.BENCH_NODE_FLAGS),
    ],
  );
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
export type Moved = MethodResult<'svcDev_advanceToSlot'>;

/**
 * POSTs a JSON body over a keep-alive connection and resolves with the reply's text (node:http
 * rather than fetch: it costs this process a third of the CPU per request, which matters with
 * the node on the same machine).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
export function post(url: string, body: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 500)}`));
          else resolve(text);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `post`, retried once on a new connection when the node closes a kept-alive one as the request
 * goes out (ECONNRESET), as HTTP clients do; `resets.count` counts the retries.
 */
export async function postRetrying(url: string, body: string, resets: { count: number }): Promise<string> {
  try {
    return await post(url, body);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
    resets.count++;
    return post(url, body);
  }
}

/** A method's params as one array, as the JSON body carries them (left out when all are optional). */
export type ParamsArg<M extends MethodName> =
  [] extends MethodParams<M> ? [] | [params: MethodParams<M>] : [params: MethodParams<M>];

async function rpc<M extends MethodName>(
  url: string,
  method: M,
  params: readonly unknown[] = [],
): Promise<MethodResult<M>> {
  const reply = JSON.parse(
    await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })),
  ) as RpcReply;
  if (reply.error) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
  return reply.result as MethodResult<M>;
}

/**
 * JSON-RPC calls through `post`, typed by the methods' declarations (as NodeClient.request):
 * `pub` to the node's public port, `dev` (svcDev_) to its admin port.
 */
export function nodeRpc(node: CairnProcess) {
  return {
    pub: <M extends MethodName>(method: M, ...params: ParamsArg<M>) =>
      rpc(node.publicUrl, method, params[0] as readonly unknown[] | undefined),
    dev: <M extends MethodName>(method: M, ...params: ParamsArg<M>) =>
      rpc(node.adminUrl, method, params[0] as readonly unknown[] | undefined),
  };
}

/** The node process's CPU time (user + system, all threads) in ms, where /proc has it. */
export function nodeCpuMs(node: CairnProcess): number | undefined {
  try {
    const fields = readFileSync(`/proc/${node.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Runs a bench's `body` against `node`, then stops the node and exits the process: with 1 if the
 * body threw (`<name> bench failed: <stack>` on stderr, then the node's last output) or the node
 * did not exit with 0 (its last output on stderr), else 0. BENCH_NODE_LOG=<file>: the node's whole
 * output is written there once it has stopped.
 */
export async function benchOnNode(name: string, node: CairnProcess, body: () => Promise<void>) {
  let failed = false;
  try {
    await body();
  } catch (err) {
    failed = true;
    log(`${name} bench failed: ${(err as Error).stack ?? err}`);
  } finally {
    const code = await node.stop();
    if (code !== 0) {
      failed = true;
      log(`cairn exited with ${code}:\n${node.output().slice(-4000)}`);
    } else if (failed) log(`cairn's last output:\n${node.output().slice(-4000)}`);
    const logFile = process.env.BENCH_NODE_LOG;
    if (logFile) writeFileSync(logFile, node.output());
  }
  process.exit(failed ? 1 : 0);
}

/**
 * Many txs for the node's chain, built locally: the chain parameters (anchor block, chain id,
 * version, fees with `feeHeadroom`, expiration) are fetched once with the first tx, so building
 * is not what a bench times.
 */
export async function txFactory(client: NodeClient, firstSpec: PreparedTxSpec) {
  const first = await prepareTx(client, firstSpec);
  const { constants, expirationTimestamp } = first.tx.data;
  const { txContext } = constants;
  const build = (spec: Omit<PreparedTxSpec, 'feeHeadroom'>): Tx =>
    buildTx({
      ...spec,
      anchorBlockHeader: constants.anchorBlockHeader,
      chainId: Number(txContext.chainId),
      version: Number(txContext.version),
      expirationTimestamp,
      maxFeesPerGas: txContext.gasSettings.maxFeesPerGas,
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
  rpc: Pick<ReturnType<typeof nodeRpc>, 'pub' | 'dev'>,
  slot: number,
  maxSlots: number,
): Promise<{ perSlot: { ms: number; mined: number }[]; slot: number; moved: Moved | undefined }> {
  const perSlot: { ms: number; mined: number }[] = [];
  let moved: Moved | undefined;
  let pending = await rpc.pub('svc_getPendingTxCount');
  while (pending > 0) {
    if (perSlot.length > maxSlots) throw new Error(`${pending} txs never mined`);
    const t0 = performance.now();
    moved = await rpc.dev('svcDev_advanceToSlot', [++slot]);
    const ms = performance.now() - t0;
    const left = await rpc.pub('svc_getPendingTxCount');
    perSlot.push({ ms, mined: pending - left });
    pending = left;
  }
  return { perSlot, slot, moved };
}
