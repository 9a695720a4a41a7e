// Sustained tx throughput on a real `cairn start` process with the manual clock: N txs (2 note
// hashes, 2 nullifiers — the protocol one plus one more — and the fee payment, from the 10 dev
// accounts in turn) are built up front, then
//   admission: sent with svc_sendTx, CONCURRENCY requests in flight (and again, N more, as
//              JSON-RPC batches of BATCH requests, BATCH_CONCURRENCY batches in flight);
//   building:  svcDev_advanceToSlot, slot after slot, until the mempool is empty (each call
//              mines L1, builds and applies the checkpoint's block, proposes it to L1 and syncs
//              it back; a checkpoint holds what fits its mana limit, about 400 such txs);
// and every tx is checked to be in a block with executionResult success. Prints:
//   BENCH txs-send[-batch] txs_per_s=<n> p50_ms=<n> p99_ms=<n> n=<n> ...
//   BENCH txs-build[-batch] txs_per_s=<n> slots=<n> ms_per_slot=<n> n=<n>
//   BENCH txs-sustained[-batch] txs_per_s=<n> n=<n>
//   BENCH txs-empty-slot ms_per_slot=<n> slots=<n>   (the fixed cost of a slot: L1, proposal, sync)
//   npm run build && node --import tsx bench/txs.bench.ts
// BENCH_TXS (2000), BENCH_CONCURRENCY (16), BENCH_BATCH (50), BENCH_BATCH_CONCURRENCY (2) change
// the shape; BENCH_CPU_PROF_DIR=<dir> runs the node with --cpu-prof and writes its profile there.
import {
  devAccounts,
  type MethodName,
  type MethodResult,
  NodeClient,
  randomFr,
  toWire,
} from '../src/client/index.js';
import {
  benchOnNode,
  fmt,
  log,
  mineUntilEmpty,
  type ParamsArg,
  percentile,
  type RpcReply,
  runLimited,
  sendTxBatchBodies,
  startChainNode,
  txFactory,
} from './chain-node.js';

const N = Number(process.env.BENCH_TXS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const BATCH = Number(process.env.BENCH_BATCH ?? 50);
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 2);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
/** Max fees per gas as a multiple of the min fees: room for the congestion the bench causes. */
const FEE_HEADROOM = 10n;
/** Receipts checked one by one (every tx is also found in a block body). */
const RECEIPT_SAMPLE = 100;

async function post(url: string, body: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

async function rpc<M extends MethodName>(
  url: string,
  method: M,
  params: readonly unknown[] = [],
): Promise<MethodResult<M>> {
  const reply = (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as RpcReply;
  if (reply.error) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
  return reply.result as MethodResult<M>;
}

const node = await startChainNode(CPU_PROF_DIR);
await benchOnNode('txs', node, async () => {
  const client = new NodeClient(node.publicUrl);
  // Typed by the methods' declarations, over fetch (as the batches below).
  const pub = <M extends MethodName>(method: M, ...params: ParamsArg<M>) =>
    rpc(node.publicUrl, method, params[0] as readonly unknown[] | undefined);
  const dev = <M extends MethodName>(method: M, ...params: ParamsArg<M>) =>
    rpc(node.adminUrl, method, params[0] as readonly unknown[] | undefined);

  let moved = await dev('svcDev_advanceToSlot', [1]); // block 1: a chain the txs anchor on
  let slot = moved.slot!;

  // ---- build the txs (not timed): chain parameters fetched once, then buildTx locally ---------
  const accounts = devAccounts(10);
  const buildStarted = performance.now();
  const spec = (i: number) => ({
    feePayer: accounts[i % accounts.length]!.address,
    noteHashes: [randomFr(), randomFr()],
    nullifiers: [randomFr()],
  });
  const { first, build: buildSpec } = await txFactory(client, { ...spec(0), feeHeadroom: FEE_HEADROOM });
  const { constants } = first.tx.data;
  const build = (i: number) => buildSpec(spec(i));
  const makeSet = (offset: number) =>
    Array.from({ length: N }, (_, i) => {
      const wire = i === 0 && offset === 0 ? first.wire : toWire(build(offset + i));
      return { hash: (wire.txHash as string).toLowerCase(), wire };
    });
  const singles = makeSet(0);
  const batched = makeSet(N);
  const gas = first.tx.data.gasUsed;
  log(
    `built ${2 * N} txs in ${fmt(performance.now() - buildStarted, 0)} ms (l2Gas ${gas.l2Gas}, daGas ${gas.daGas} each; max fees ${constants.txContext.gasSettings.maxFeesPerGas.feePerL2Gas}/${constants.txContext.gasSettings.maxFeesPerGas.feePerDaGas} per l2/da gas)`,
  );
  // Request bodies are serialized up front too: what is timed is the node's work.
  const singleBodies = singles.map((t, i) =>
    JSON.stringify({ jsonrpc: '2.0', id: i, method: 'svc_sendTx', params: [t.wire] }),
  );
  const batchBodies = sendTxBatchBodies(
    batched.map((t) => t.wire),
    BATCH,
  );

  /** Sends the bodies, `limit` in flight; every reply must be a success. */
  const admit = async (name: string, bodies: string[], limit: number, perBody: number) => {
    const latencies: number[] = [];
    const errors: string[] = [];
    const started = performance.now();
    await runLimited(
      bodies.map((body) => async () => {
        const t0 = performance.now();
        const reply = await post(node.publicUrl, body);
        latencies.push(performance.now() - t0);
        for (const r of (Array.isArray(reply) ? reply : [reply]) as RpcReply[]) {
          if (r.error)
            errors.push(`${r.error.code} ${r.error.message} ${JSON.stringify(r.error.data ?? '')}`);
        }
      }),
      limit,
    );
    const ms = performance.now() - started;
    if (errors.length > 0) throw new Error(`${name}: ${errors.length} sendTx errors, first: ${errors[0]}`);
    const pending = await pub('svc_getPendingTxCount');
    if (pending !== N) throw new Error(`${name}: ${pending} pending txs after sending ${N}`);
    const n = bodies.length * perBody;
    console.log(
      `BENCH ${name} txs_per_s=${Math.round(n / (ms / 1000))} p50_ms=${fmt(percentile(latencies, 0.5), 1)} p99_ms=${fmt(percentile(latencies, 0.99), 1)} n=${N} in_flight=${limit}${perBody > 1 ? ` batch=${perBody}` : ''}`,
    );
    return ms;
  };

  /** Advances slot by slot until the mempool is empty; checks every tx landed successfully. */
  const buildAll = async (name: string, txs: { hash: string }[]) => {
    const firstBlock = moved.l2BlockNumber + 1;
    const mined = await mineUntilEmpty({ pub, dev }, slot, 4 * Math.ceil(N / 100) + 10).catch((err) => {
      throw new Error(`${name}: ${(err as Error).message}`);
    });
    const { perSlot } = mined;
    slot = mined.slot;
    moved = mined.moved ?? moved;
    const ms = perSlot.reduce((s, p) => s + p.ms, 0);
    log(
      `${name}: ${perSlot.map((p) => `${p.mined} txs in ${fmt(p.ms, 0)} ms`).join(', ')} (up to block ${moved.l2BlockNumber})`,
    );

    // Every tx is in a block body, with no revert; a sample of receipts says success too.
    const wanted = new Set(txs.map((t) => t.hash));
    let found = 0;
    const blockSizes: number[] = [];
    for (let b = firstBlock; b <= moved.l2BlockNumber; b++) {
      const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
      if (block === null) throw new Error(`${name}: no block ${b}`);
      const effects = block.body?.txEffects ?? [];
      blockSizes.push(effects.length);
      for (const e of effects) {
        if (!wanted.has(e.txHash.toLowerCase())) continue;
        if (e.revertCode !== 0) throw new Error(`${name}: tx ${e.txHash} reverted (code ${e.revertCode})`);
        found++;
      }
    }
    if (found !== N) throw new Error(`${name}: ${found} of ${N} txs found in blocks ${firstBlock}..`);
    for (let i = 0; i < RECEIPT_SAMPLE; i++) {
      const t = txs[Math.floor((i * txs.length) / RECEIPT_SAMPLE)]!;
      const r = await pub('svc_getTxReceipt', [t.hash]);
      if (r.status === 'pending' || r.status === 'dropped' || r.executionResult !== 'success') {
        throw new Error(`${name}: receipt of ${t.hash}: ${JSON.stringify(r)}`);
      }
    }
    log(
      `${name}: all ${N} txs in blocks (txs per block: ${blockSizes.join(', ')}); ${RECEIPT_SAMPLE} receipts ok`,
    );
    console.log(
      `BENCH ${name} txs_per_s=${Math.round(N / (ms / 1000))} slots=${perSlot.length} ms_per_slot=${Math.round(ms / perSlot.length)} max_txs_per_slot=${Math.max(...perSlot.map((p) => p.mined))} n=${N}`,
    );
    return ms;
  };

  const sendMs = await admit('txs-send', singleBodies, CONCURRENCY, 1);
  const buildMs = await buildAll('txs-build', singles);
  console.log(`BENCH txs-sustained txs_per_s=${Math.round(N / ((sendMs + buildMs) / 1000))} n=${N}`);

  const batchSendMs = await admit('txs-send-batch', batchBodies, BATCH_CONCURRENCY, BATCH);
  const batchBuildMs = await buildAll('txs-build-batch', batched);
  console.log(
    `BENCH txs-sustained-batch txs_per_s=${Math.round(N / ((batchSendMs + batchBuildMs) / 1000))} n=${N}`,
  );

  // The fixed cost of a slot with nothing to build: L1 mining, an empty block, proposal, sync.
  const empty: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    moved = await dev('svcDev_advanceToSlot', [++slot]);
    empty.push(performance.now() - t0);
  }
  console.log(
    `BENCH txs-empty-slot ms_per_slot=${Math.round(empty.reduce((s, x) => s + x, 0) / empty.length)} slots=${empty.length}`,
  );
});
