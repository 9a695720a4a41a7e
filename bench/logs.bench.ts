// Log queries over HTTP on a real `cairn start` process (manual clock) whose chain holds many
// private logs. The chain is built first (not measured): BENCH_TXS txs from the 10 dev accounts in
// turn, each with 32 private logs of 16 fields (the tag, then 15 random fields) and 2 note hashes.
// One log of each tx has one of 4 hot tags (in turn: TXS / 4 logs each, 25 pages at the default);
// the other 31 have a tag drawn at random from a pool of BENCH_TAGS (about 12 logs per tag, spread
// across the blocks). The txs go in rounds of TXS_PER_BLOCK (16): one JSON-RPC batch of svc_sendTx,
// then svcDev_advanceToSlot until the mempool is empty, so each block holds 16 txs (512 logs): the
// DA budget would take 47, but a checkpoint body of more than ~20 of these txs no longer fits an
// L1 proposal (see TXS_PER_BLOCK). Then each method gets its requests, CONCURRENCY in flight, each
// with a random input drawn from what the chain holds (every method is warmed up, untimed, before
// any is measured):
//   baseline-getChainId                  svc_getChainId: the HTTP + JSON-RPC floor, no log read
//   privateLogsByTags-1tag               svc_getPrivateLogsByTags, 1 pool tag
//   privateLogsByTags-100tags            the same with 100 pool tags per request (REQUESTS / 10)
//   privateLogsByTags-hot-paged          a hot tag read page by page to its end: each page's
//                                        afterLog is the last log of the one before (a request is
//                                        a page; walks of TXS / 4 / 20 + 1 pages, REQUESTS / 2 pages)
//   privateLogsByTags-includeEffects     1 pool tag with includeEffects (each result carries its tx's
//                                        note hashes and nullifiers)
//   getLogsByTags-100tags                node_getLogsByTags, 100 pool tags (10 logs per tag at most;
//                                        REQUESTS / 10)
//   getPrivateLogs-<n>blocks             node_getPrivateLogs(from, BENCH_PRIVATE_LOG_BLOCKS) from a
//                                        random block (REQUESTS / 200: replies of tens of MB)
// Every reply must be a success; the first VALIDATE of each method are checked against the block
// bodies: the logs of the tag (every one up to the page size, none left out), ordered by (blockNumber,
// txIndexWithinBlock, logIndexWithinTx), logData[0] the tag and the emitted fields; a paged walk must
// end with every log of its tag. Prints, one line per method:
//   BENCH logs-<method> rps=<n> p50_ms=<n> p99_ms=<n> n=<n> in_flight=<n> logs_per_s=<n>
//         logs_per_request=<n> kb_per_reply=<n> [tags_per_s=<n>] [node_cpu_ms_per_req=<n>]
//         (node_cpu_ms_per_req: the node process's CPU time per request, from /proc: with rps × it
//         near 1000 ms the node, not this client, is the limit)
// and on stderr how long building the chain took and the logs it holds. The client is node:http
// with keep-alive: the node and this process share the machine.
//   npm run build && node --import tsx bench/logs.bench.ts
// BENCH_TXS (2000), BENCH_TAGS (5000), BENCH_REQUESTS (2000), BENCH_CONCURRENCY (8),
// BENCH_PRIVATE_LOG_BLOCKS (100) change the shape; BENCH_ONLY=<substring> measures only the methods
// whose name contains it; BENCH_CPU_PROF_DIR=<dir> runs the node with --cpu-prof and writes its
// profile there.
import { devAccounts, NodeClient, randomFr, toWire } from '../src/client/index.js';
import {
  benchOnNode,
  check,
  fmt,
  hex,
  log,
  mineUntilEmpty,
  nodeCpuMs,
  nodeRpc,
  percentile,
  pick,
  post,
  type RpcReply,
  sendTxBatchBodies,
  startChainNode,
  txFactory,
} from './chain-node.js';

const TXS = Number(process.env.BENCH_TXS ?? 2000);
const TAGS = Number(process.env.BENCH_TAGS ?? 5000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PRIVATE_LOG_BLOCKS = Number(process.env.BENCH_PRIVATE_LOG_BLOCKS ?? 100);
const ONLY = process.env.BENCH_ONLY;
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
/** Private logs per tx (the most is 64), fields per log (the most, 16), hot tags. */
const LOGS_PER_TX = 32;
const FIELDS_PER_LOG = 16;
const HOT_TAGS = 4;
const NOTE_HASHES_PER_TX = 2;
/** Logs per page of svc_ tag queries, and at most per tag of node_getLogsByTags (its default). */
const PAGE = 20;
const LEGACY_LOGS_PER_TAG = 10;
/** Tags per request of the many-tag cases. */
const MANY_TAGS = 100;
/**
 * Txs per block: each round of the build sends this many, then mines a slot. A checkpoint's body goes
 * to L1 as calldata, JSON with every field in hex (~37 KB for one of these txs); much above ~20 such
 * txs the proposal no longer fits L1 (anvil's 30M gas and ~2 MB request limits), though the DA budget
 * would take 47.
 */
const TXS_PER_BLOCK = 16;
/** Max fees per gas as a multiple of the min fees: room for the fees to move over the build. */
const FEE_HEADROOM = 100n;
/** Replies of each method checked closely. */
const VALIDATE = 20;

interface PrivateLogJson {
  fields: string[];
  emittedLength: number;
}
interface LogResult {
  logData: string[];
  blockNumber: number;
  blockHash: string;
  blockTimestamp: string;
  txHash: string;
  txIndexWithinBlock: number;
  logIndexWithinTx: number;
  noteHashes?: string[];
  nullifiers?: string[];
}
interface TxScopedLog {
  txHash: string;
  dataStartIndexForTx: number;
  logIndexInTx: number;
  blockNumber: number;
  blockHash: string;
  isFromPublic: boolean;
  log: PrivateLogJson;
}
/** A private log the chain holds, from the block bodies. */
interface KnownLog {
  blockNumber: number;
  txIndex: number;
  logIndex: number;
  /** The emitted fields, tag first. */
  fields: bigint[];
  txHash: bigint;
  blockHash: bigint;
}

const cursor = (l: { blockNumber: number; txIndex: number; logIndex: number }) =>
  `${l.blockNumber}-${l.txIndex}-${l.logIndex}`;

const node = await startChainNode(CPU_PROF_DIR);
await benchOnNode('logs', node, async () => {
  const client = new NodeClient(node.publicUrl);
  const { pub, dev } = nodeRpc(node);

  // ---- the chain (not measured) ------------------------------------------------------------------
  const chainStarted = performance.now();
  let moved = await dev('svcDev_advanceToSlot', [1]); // block 1: a chain the txs anchor on
  let slot = moved.slot!;
  const firstTxBlock = moved.l2BlockNumber + 1;
  const pool = Array.from({ length: TAGS }, randomFr);
  const hot = Array.from({ length: HOT_TAGS }, randomFr);
  const payers = devAccounts(10).map((a) => a.address);
  const spec = (i: number) => {
    const hotAt = Math.floor(Math.random() * LOGS_PER_TX);
    return {
      feePayer: payers[i % payers.length]!,
      noteHashes: Array.from({ length: NOTE_HASHES_PER_TX }, randomFr),
      privateLogs: Array.from({ length: LOGS_PER_TX }, (_, j) => [
        j === hotAt ? hot[i % HOT_TAGS]! : pick(pool),
        ...Array.from({ length: FIELDS_PER_LOG - 1 }, randomFr),
      ]),
    };
  };
  const { first, build } = await txFactory(client, { ...spec(0), feeHeadroom: FEE_HEADROOM });
  const wires = [first.wire];
  for (let i = 1; i < TXS; i++) wires.push(toWire(build(spec(i))));
  const builtMs = performance.now() - chainStarted;
  const sent = new Set(wires.map((w) => (w.txHash as string).toLowerCase()));
  const gas = first.tx.data.gasUsed;
  log(
    `chain: built ${TXS} txs (${LOGS_PER_TX} private logs of ${FIELDS_PER_LOG} fields, daGas ${gas.daGas}, l2Gas ${gas.l2Gas} each) in ${fmt(builtMs / 1000, 1)} s`,
  );

  // A round: TXS_PER_BLOCK txs as one JSON-RPC batch of svc_sendTx, then a slot mines them all.
  let sendMs = 0;
  let mineMs = 0;
  const perSlotTxs: number[] = [];
  const perSlotMs: number[] = [];
  for (const body of sendTxBatchBodies(wires, TXS_PER_BLOCK)) {
    const sendStarted = performance.now();
    const replies = JSON.parse(await post(node.publicUrl, body)) as RpcReply[];
    const errors = replies.flatMap((r) =>
      r.error ? [`${r.error.code} ${r.error.message} ${JSON.stringify(r.error.data ?? '')}`] : [],
    );
    check(errors.length === 0, `${errors.length} sendTx errors, first: ${errors[0]}`);
    sendMs += performance.now() - sendStarted;
    const mineStarted = performance.now();
    const mined = await mineUntilEmpty({ pub, dev }, slot, 3);
    mineMs += performance.now() - mineStarted;
    slot = mined.slot;
    moved = mined.moved ?? moved;
    perSlotTxs.push(...mined.perSlot.map((p) => p.mined));
    perSlotMs.push(...mined.perSlot.map((p) => p.ms));
  }
  const latestNumber = moved.l2BlockNumber;
  const tips = await pub('svc_getChainTips');

  // What the chain holds, from the block bodies: every tx sent, none reverted, and its logs.
  const logsByTag = new Map<bigint, KnownLog[]>(); // in chain order
  const tagsByBlock: bigint[][] = [];
  const effectsByTx = new Map<bigint, { noteHashes: bigint[]; nullifiers: bigint[] }>();
  let found = 0;
  let totalLogs = 0;
  for (let b = 1; b <= latestNumber; b++) {
    const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
    check(block !== null, `no block ${b}`);
    tagsByBlock[b] = [];
    for (const [txIndex, e] of (block.body?.txEffects ?? []).entries()) {
      const txHash = BigInt(e.txHash);
      effectsByTx.set(txHash, { noteHashes: e.noteHashes.map(BigInt), nullifiers: e.nullifiers.map(BigInt) });
      if (sent.has(e.txHash.toLowerCase())) {
        check(e.revertCode === 0, `tx ${e.txHash} reverted (code ${e.revertCode})`);
        found++;
      }
      for (const [logIndex, l] of e.privateLogs.entries()) {
        const fields = l.fields.slice(0, l.emittedLength).map(BigInt);
        const tag = fields[0]!;
        const known = { blockNumber: b, txIndex, logIndex, fields, txHash, blockHash: BigInt(block.hash) };
        const list = logsByTag.get(tag) ?? [];
        if (list.length === 0) logsByTag.set(tag, list);
        list.push(known);
        tagsByBlock[b]!.push(tag);
        totalLogs++;
      }
    }
  }
  check(found === TXS, `${found} of ${TXS} txs found in blocks`);
  const usedPool = pool.filter((t) => logsByTag.has(t));
  const poolCounts = usedPool.map((t) => logsByTag.get(t)!.length);
  const hotCounts = hot.map((t) => logsByTag.get(t)?.length ?? 0);
  const quarter = Math.max(1, Math.floor(perSlotMs.length / 4));
  const meanS = (xs: number[]) => fmt(xs.reduce((a, b) => a + b, 0) / xs.length / 1000, 2);
  log(
    `chain: ${TXS} txs mined in ${perSlotTxs.length} slots (${Math.min(...perSlotTxs)}–${Math.max(...perSlotTxs)} txs each; ${meanS(perSlotMs.slice(0, quarter))} s per slot in the first quarter, ${meanS(perSlotMs.slice(-quarter))} s in the last), blocks ${firstTxBlock}..${latestNumber} (proven ${tips.proven?.block.number}, finalized ${tips.finalized?.block.number})`,
  );
  log(
    `chain: ${totalLogs} private logs (~${Math.round(totalLogs / (latestNumber - firstTxBlock + 1))} per block); ${usedPool.length} of ${TAGS} pool tags used, ${Math.min(...poolCounts)}–${Math.max(...poolCounts)} logs each (median ${percentile(poolCounts, 0.5)}); ${HOT_TAGS} hot tags with ${hotCounts.join(', ')} logs`,
  );
  log(
    `chain: ready in ${fmt((performance.now() - chainStarted) / 1000, 1)} s (building txs ${fmt(builtMs / 1000, 1)} s, sending ${fmt(sendMs / 1000, 1)} s, mining ${fmt(mineMs / 1000, 1)} s)`,
  );

  // ---- the measurements ----------------------------------------------------------------------------
  /** One request's params and what its validation needs to know. */
  interface Step {
    params: unknown[];
    expect: unknown;
  }
  interface Case {
    name: string;
    method: string;
    /** Measured requests (about: a walk is not cut short). */
    requests: number;
    /** The first request of a job. */
    input(): Step;
    /** The request after a reply, for a job of many (a paged walk); undefined ends the job. */
    next?(result: unknown, expect: unknown): Step | undefined;
    /** Close checks of a reply's result (the first VALIDATE replies). */
    validate(result: unknown, expect: unknown): void;
    /** Logs in a reply. */
    logs(result: unknown): number;
    /** Tags per request, for tags_per_s. */
    tags?: number;
  }

  /** A svc_ result for one tag: `expected` in order, each result matching its log. */
  const checkLogResults = (
    results: LogResult[],
    tag: bigint,
    expected: readonly KnownLog[],
    includeEffects = false,
  ) => {
    check(
      results.length === expected.length,
      `${results.length} logs for tag ${hex(tag)}, expected ${expected.length}`,
    );
    results.forEach((r, i) => {
      const k = expected[i]!;
      const at = cursor({
        blockNumber: r.blockNumber,
        txIndex: r.txIndexWithinBlock,
        logIndex: r.logIndexWithinTx,
      });
      check(at === cursor(k), `log ${i} of tag ${hex(tag)} is at ${at}, expected ${cursor(k)}`);
      check(BigInt(r.logData[0]!) === tag, `log at ${at} has logData[0] ${r.logData[0]}, not the tag`);
      check(
        r.logData.length === k.fields.length && r.logData.every((f, j) => BigInt(f) === k.fields[j]),
        `log at ${at}: logData differs from the block's`,
      );
      check(
        BigInt(r.txHash) === k.txHash && BigInt(r.blockHash) === k.blockHash,
        `log at ${at}: tx or block`,
      );
      if (includeEffects) {
        const effects = effectsByTx.get(k.txHash)!;
        const same = (a: string[] | undefined, b: bigint[]) =>
          a !== undefined && a.length === b.length && a.every((x, j) => BigInt(x) === b[j]);
        check(same(r.noteHashes, effects.noteHashes), `log at ${at}: note hashes differ from the tx's`);
        check(same(r.nullifiers, effects.nullifiers), `log at ${at}: nullifiers differ from the tx's`);
      } else {
        check(
          r.noteHashes === undefined && r.nullifiers === undefined,
          `log at ${at}: effects not asked for`,
        );
      }
    });
  };
  const manyTags = () => Array.from({ length: MANY_TAGS }, () => pick(usedPool));
  const countNested = (r: unknown) => (r as unknown[][]).reduce((n, xs) => n + xs.length, 0);
  const firstBlock = 1;
  const cases: Case[] = [
    {
      // The floor: a JSON-RPC call that reads nothing, through the same client.
      name: 'baseline-getChainId',
      method: 'svc_getChainId',
      requests: REQUESTS,
      input: () => ({ params: [], expect: undefined }),
      validate: (r) => check(typeof r === 'number', `chain id ${JSON.stringify(r)}`),
      logs: () => 0,
    },
    {
      name: 'privateLogsByTags-1tag',
      method: 'svc_getPrivateLogsByTags',
      requests: REQUESTS,
      tags: 1,
      input: () => {
        const tag = pick(usedPool);
        return { params: [{ tags: [hex(tag)] }], expect: tag };
      },
      validate: (r, tag) => {
        const results = r as LogResult[][];
        check(results.length === 1, `${results.length} arrays for 1 tag`);
        check(results[0]!.length > 0, `no logs for tag ${hex(tag as bigint)}`);
        checkLogResults(results[0]!, tag as bigint, logsByTag.get(tag as bigint)!.slice(0, PAGE));
      },
      logs: countNested,
    },
    {
      name: 'privateLogsByTags-100tags',
      method: 'svc_getPrivateLogsByTags',
      requests: Math.ceil(REQUESTS / 10),
      tags: MANY_TAGS,
      input: () => {
        const tags = manyTags();
        return { params: [{ tags: tags.map(hex) }], expect: tags };
      },
      validate: (r, tags) => {
        const results = r as LogResult[][];
        const asked = tags as bigint[];
        check(results.length === asked.length, `${results.length} arrays for ${asked.length} tags`);
        asked.forEach((tag, i) => {
          checkLogResults(results[i]!, tag, logsByTag.get(tag)!.slice(0, PAGE));
        });
      },
      logs: countNested,
    },
    {
      // A walk: a hot tag from its first page to its (empty or short) last one.
      name: 'privateLogsByTags-hot-paged',
      method: 'svc_getPrivateLogsByTags',
      requests: Math.ceil(REQUESTS / 2),
      input: () => {
        const tag = pick(hot);
        return { params: [{ tags: [hex(tag)] }], expect: { tag, done: 0 } };
      },
      next: (r, expect) => {
        const { tag, done } = expect as { tag: bigint; done: number };
        const page = (r as LogResult[][])[0]!;
        const all = logsByTag.get(tag)!;
        if (page.length < PAGE) {
          check(
            done + page.length === all.length,
            `walk of ${hex(tag)} ended at ${done + page.length} of ${all.length}`,
          );
          return undefined;
        }
        const last = page[PAGE - 1]!;
        const afterLog = cursor({
          blockNumber: last.blockNumber,
          txIndex: last.txIndexWithinBlock,
          logIndex: last.logIndexWithinTx,
        });
        return { params: [{ tags: [{ tag: hex(tag), afterLog }] }], expect: { tag, done: done + PAGE } };
      },
      validate: (r, expect) => {
        const { tag, done } = expect as { tag: bigint; done: number };
        const results = r as LogResult[][];
        check(results.length === 1, `${results.length} arrays for 1 tag`);
        checkLogResults(results[0]!, tag, logsByTag.get(tag)!.slice(done, done + PAGE));
      },
      logs: countNested,
    },
    {
      name: 'privateLogsByTags-includeEffects',
      method: 'svc_getPrivateLogsByTags',
      requests: REQUESTS,
      tags: 1,
      input: () => {
        const tag = pick(usedPool);
        return { params: [{ tags: [hex(tag)], includeEffects: true }], expect: tag };
      },
      validate: (r, tag) => {
        const results = r as LogResult[][];
        check(results.length === 1 && results[0]!.length > 0, `no logs for tag ${hex(tag as bigint)}`);
        checkLogResults(results[0]!, tag as bigint, logsByTag.get(tag as bigint)!.slice(0, PAGE), true);
      },
      logs: countNested,
    },
    {
      name: 'getLogsByTags-100tags',
      method: 'node_getLogsByTags',
      requests: Math.ceil(REQUESTS / 10),
      tags: MANY_TAGS,
      input: () => {
        const tags = manyTags();
        return { params: [tags.map(hex)], expect: tags };
      },
      validate: (r, tags) => {
        const results = r as TxScopedLog[][];
        const asked = tags as bigint[];
        check(results.length === asked.length, `${results.length} arrays for ${asked.length} tags`);
        asked.forEach((tag, i) => {
          const expected = logsByTag.get(tag)!.slice(0, LEGACY_LOGS_PER_TAG);
          const got = results[i]!;
          check(
            got.length === expected.length,
            `${got.length} logs for ${hex(tag)}, expected ${expected.length}`,
          );
          got.forEach((g, j) => {
            const k = expected[j]!;
            const at = cursor({ blockNumber: g.blockNumber, txIndex: -1, logIndex: g.logIndexInTx });
            check(
              g.blockNumber === k.blockNumber &&
                g.logIndexInTx === k.logIndex &&
                BigInt(g.txHash) === k.txHash,
              `log ${j} of tag ${hex(tag)} is at ${at} of tx ${g.txHash}, expected ${cursor(k)}`,
            );
            check(!g.isFromPublic, `log ${at} is said to be public`);
            check(BigInt(g.log.fields[0]!) === tag, `log ${at}: fields[0] is not the tag`);
            check(
              g.log.emittedLength === k.fields.length && g.log.fields.length === FIELDS_PER_LOG,
              `log ${at}: emittedLength ${g.log.emittedLength}, ${g.log.fields.length} fields`,
            );
          });
        });
      },
      logs: countNested,
    },
    {
      name: `getPrivateLogs-${PRIVATE_LOG_BLOCKS}blocks`,
      method: 'node_getPrivateLogs',
      requests: Math.ceil(REQUESTS / 200),
      input: () => {
        const from = firstBlock + Math.floor(Math.random() * (latestNumber - firstBlock + 1));
        return { params: [from, PRIVATE_LOG_BLOCKS], expect: from };
      },
      validate: (r, from) => {
        const got = r as PrivateLogJson[];
        const expected = tagsByBlock.slice(from as number, (from as number) + PRIVATE_LOG_BLOCKS).flat();
        check(
          got.length === expected.length,
          `${got.length} logs from block ${from}, expected ${expected.length}`,
        );
        got.forEach((g, i) => {
          check(BigInt(g.fields[0]!) === expected[i], `log ${i} from block ${from} has another tag`);
        });
      },
      logs: (r) => (r as unknown[]).length,
    },
  ];
  log(
    `measuring: ${CONCURRENCY} in flight, each method warmed up first (a tenth of its requests, at most 200, untimed)`,
  );

  const selected = cases.filter((c) => ONLY === undefined || c.name.includes(ONLY));
  let id = 0;
  /**
   * Runs jobs of a case until `requests` requests are sent (a walk runs to its end), CONCURRENCY
   * jobs in flight; every reply must be a non-null success.
   */
  const run = async (c: Case, requests: number, validated: { n: number }) => {
    const latencies: number[] = [];
    let sentRequests = 0;
    let logs = 0;
    let bytes = 0;
    const cpu0 = nodeCpuMs(node);
    const started = performance.now();
    const job = async () => {
      let step: Step | undefined = c.input();
      while (step !== undefined) {
        sentRequests++;
        const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: c.method, params: step.params });
        const t0 = performance.now();
        const text = await post(node.publicUrl, body);
        latencies.push(performance.now() - t0);
        bytes += text.length;
        const reply = JSON.parse(text) as RpcReply;
        if (reply.error) {
          throw new Error(`${c.name}: ${reply.error.code} ${reply.error.message} for ${body.slice(0, 300)}`);
        }
        check(reply.result !== null && reply.result !== undefined, `${c.name}: null result for ${body}`);
        logs += c.logs(reply.result);
        if (validated.n < VALIDATE) {
          validated.n++;
          try {
            c.validate(reply.result, step.expect);
          } catch (err) {
            throw new Error(`${c.name}: ${(err as Error).message} (request ${body.slice(0, 300)})`);
          }
        }
        step = c.next?.(reply.result, step.expect);
      }
    };
    // Workers take jobs until the requests are sent.
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sentRequests < requests) await job();
      }),
    );
    const cpu1 = nodeCpuMs(node);
    return {
      ms: performance.now() - started,
      n: sentRequests,
      latencies,
      logs,
      bytes,
      cpuMs: cpu0 === undefined ? undefined : cpu1! - cpu0,
    };
  };
  // Every method is warmed up before any is measured (the first measured otherwise pays for JIT
  // and for the garbage left by building the chain).
  const validated = new Map(selected.map((c) => [c, { n: 0 }]));
  for (const c of selected) await run(c, Math.min(200, Math.ceil(c.requests / 10)), validated.get(c)!);
  for (const c of selected) {
    const { ms, n, latencies, logs, bytes, cpuMs } = await run(c, c.requests, validated.get(c)!);
    const rps = n / (ms / 1000);
    const cpu = cpuMs === undefined ? '' : ` node_cpu_ms_per_req=${fmt(cpuMs / n, 3)}`;
    const tags = c.tags ? ` tags_per_s=${Math.round(rps * c.tags)}` : '';
    console.log(
      `BENCH logs-${c.name} rps=${fmt(rps, rps < 100 ? 1 : 0)} p50_ms=${fmt(percentile(latencies, 0.5))} p99_ms=${fmt(percentile(latencies, 0.99))} n=${n} in_flight=${CONCURRENCY} logs_per_s=${Math.round(logs / (ms / 1000))} logs_per_request=${fmt(logs / n, 1)} kb_per_reply=${fmt(bytes / n / 1024, 1)}${tags}${cpu}`,
    );
  }
});
