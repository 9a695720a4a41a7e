// State queries over HTTP on a real `cairn start` process (manual clock) whose chain holds at
// least BENCH_NULLIFIERS (100,000) nullifiers. The chain is built first (not measured): txs from the
// 10 dev accounts in turn, each with 64 random nullifiers (the protocol one plus 63) and 8 random
// note hashes, sent as JSON-RPC batches of svc_sendTx, then mined with svcDev_advanceToSlot until
// the mempool is empty (a checkpoint holds about 130 such txs: 200M mana at ~1.5M each). Then each
// witness method gets REQUESTS requests, CONCURRENCY in flight, each with a random input drawn
// from what the chain holds, against `latest` unless noted (every method is warmed up, untimed,
// before any is measured):
//   baseline-getChainId                  svc_getChainId: the HTTP + JSON-RPC floor, no state read
//   getNullifierMembershipWitness        a present nullifier
//   getLowNullifierMembershipWitness     a random (absent) value
//   getPublicDataWitness-present         a dev account's Fee Juice balance slot (written by every tx)
//   getPublicDataWitness-absent          a random (absent) slot
//   getNoteHashMembershipWitness         a present note hash
//   getBlockHashMembershipWitness        the hash of a random earlier block
//   getPublicStorageAt                   Fee Juice (0x05), slot mapStorageSlot(1, dev account)
//   findLeavesIndexes                    nullifier tree, FIND_BATCH present nullifiers per request
//   getNullifierSiblingPath              (node_) a random leaf index below the tree size
//   getNullifierMembershipWitness-old    at a block about halfway back, a nullifier it holds
// Every reply must be a success with a non-null result; the first VALIDATE of each method are
// checked more closely (the leaf asked for, path lengths, low leaf ordering, block of a leaf) —
// roots are not recomputed (the world-state tests do that). Prints, one line per method:
//   BENCH state-<method> rps=<n> p50_ms=<n> p99_ms=<n> n=<n> in_flight=<n> [leaves_per_s=<n>]
//         [node_cpu_ms_per_req=<n>]   (the node process's CPU time per request, from /proc: with
//                                     rps × it near 1000 ms the node, not this client, is the limit)
// and on stderr how long building the chain took. The client is node:http with keep-alive: the
// node and this process share the machine, and fetch costs this side about 3 times the CPU.
//   npm run build && node --import tsx bench/state.bench.ts
// BENCH_NULLIFIERS (100000), BENCH_REQUESTS (2000), BENCH_CONCURRENCY (8) change the shape;
// BENCH_ONLY=<substring> measures only the methods whose name contains it;
// BENCH_CPU_PROF_DIR=<dir> runs the node with --cpu-prof and writes its profile there.
import { devAccounts, type MethodResult, NodeClient, randomFr, toWire } from '../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../src/core/constants.js';
import { feeJuiceBalanceSlot } from '../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../src/execution/public-storage.js';
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
  runLimited,
  sendTxBatchBodies,
  startChainNode,
  txFactory,
} from './chain-node.js';

const TARGET_NULLIFIERS = Number(process.env.BENCH_NULLIFIERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ONLY = process.env.BENCH_ONLY;
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
/** Nullifiers per tx: the protocol nullifier plus 63 (the most a tx may carry). */
const NULLIFIERS_PER_TX = 64;
const NOTE_HASHES_PER_TX = 8;
/** svc_sendTx requests per JSON-RPC batch while building the chain, and batches in flight. */
const SEND_BATCH = 50;
const SEND_BATCH_CONCURRENCY = 2;
/** Max fees per gas as a multiple of the min fees: full checkpoints make the fees rise. */
const FEE_HEADROOM = 100n;
/** Values per findLeavesIndexes request. */
const FIND_BATCH = 100;
/** Replies of each method checked closely. */
const VALIDATE = 20;
/** Untimed requests before each measurement. */
const WARMUP = Math.min(200, Math.ceil(REQUESTS / 10));
/** Sibling path lengths (tree heights). */
const NULLIFIER_HEIGHT = 42;
const NOTE_HASH_HEIGHT = 42;
const PUBLIC_DATA_HEIGHT = 40;
const ARCHIVE_HEIGHT = 30;

interface IndexedWitness {
  index: string;
  leafPreimage: {
    leaf: { nullifier?: string; slot?: string; value?: string };
    nextKey: string;
    nextIndex: string;
  };
  siblingPath: string[];
}
interface MembershipWitness {
  leafIndex: string;
  siblingPath: string[];
}
interface LeafInBlock {
  l2BlockNumber: number;
  l2BlockHash: string;
  data: string;
}

const node = await startChainNode(CPU_PROF_DIR);
await benchOnNode('state', node, async () => {
  const client = new NodeClient(node.publicUrl);
  const { pub, dev } = nodeRpc(node);

  // ---- the chain (not measured) ------------------------------------------------------------------
  const chainStarted = performance.now();
  let moved = await dev('svcDev_advanceToSlot', [1]); // block 1: a chain the txs anchor on
  let slot = moved.slot!;
  const firstTxBlock = moved.l2BlockNumber + 1;
  const txCount = Math.ceil(TARGET_NULLIFIERS / NULLIFIERS_PER_TX);
  const accounts = devAccounts(10);
  const payers = accounts.map((a) => a.address);
  const spec = (i: number) => ({
    feePayer: payers[i % payers.length]!,
    protocolNullifier: randomFr(),
    nullifiers: Array.from({ length: NULLIFIERS_PER_TX - 1 }, randomFr),
    noteHashes: Array.from({ length: NOTE_HASHES_PER_TX }, randomFr),
  });
  const { first, build } = await txFactory(client, { ...spec(0), feeHeadroom: FEE_HEADROOM });
  const wires = [first.wire];
  for (let i = 1; i < txCount; i++) wires.push(toWire(build(spec(i))));
  const builtMs = performance.now() - chainStarted;
  const sent = new Set(wires.map((w) => (w.txHash as string).toLowerCase()));
  const gas = first.tx.data.gasUsed;
  log(
    `chain: built ${txCount} txs (${NULLIFIERS_PER_TX} nullifiers, ${NOTE_HASHES_PER_TX} note hashes, l2Gas ${gas.l2Gas} each) in ${fmt(builtMs / 1000, 1)} s`,
  );

  const sendStarted = performance.now();
  const batches = sendTxBatchBodies(wires, SEND_BATCH);
  const sendErrors: string[] = [];
  await runLimited(
    batches.map((body) => async () => {
      for (const r of JSON.parse(await post(node.publicUrl, body)) as RpcReply[]) {
        if (r.error)
          sendErrors.push(`${r.error.code} ${r.error.message} ${JSON.stringify(r.error.data ?? '')}`);
      }
    }),
    SEND_BATCH_CONCURRENCY,
  );
  check(sendErrors.length === 0, `${sendErrors.length} sendTx errors, first: ${sendErrors[0]}`);
  const pending = await pub('svc_getPendingTxCount');
  check(pending === txCount, `${pending} pending txs after sending ${txCount}`);
  const sendMs = performance.now() - sendStarted;

  const mineStarted = performance.now();
  const mined = await mineUntilEmpty({ pub, dev }, slot, 4 * Math.ceil(txCount / 100) + 10);
  slot = mined.slot;
  moved = mined.moved ?? moved;
  const perSlot = mined.perSlot.map((p) => `${p.mined} in ${fmt(p.ms / 1000, 1)} s`);
  const mineMs = performance.now() - mineStarted;
  const latestNumber = moved.l2BlockNumber;

  // What the chain holds, from the block bodies: every tx sent, none reverted.
  const blockHashes: string[] = []; // by block number
  const nullifiersByBlock: bigint[][] = [[]];
  const nullifierBlock = new Map<bigint, number>();
  const noteHashes: bigint[] = [];
  let found = 0;
  let latest: NonNullable<MethodResult<'svc_getBlock'>> | undefined;
  for (let b = 1; b <= latestNumber; b++) {
    const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
    check(block !== null, `no block ${b}`);
    blockHashes[b] = block.hash;
    nullifiersByBlock[b] = [];
    for (const e of block.body?.txEffects ?? []) {
      if (!sent.has(e.txHash.toLowerCase())) continue;
      check(e.revertCode === 0, `tx ${e.txHash} reverted (code ${e.revertCode})`);
      found++;
      for (const n of e.nullifiers) {
        nullifiersByBlock[b]!.push(BigInt(n));
        nullifierBlock.set(BigInt(n), b);
      }
      for (const h of e.noteHashes) noteHashes.push(BigInt(h));
    }
    latest = block;
  }
  check(found === txCount, `${found} of ${txCount} txs found in blocks`);
  check(latest !== undefined && latest.number === latestNumber, 'latest block not found');
  const latestByTag = await pub('svc_getBlock', ['latest']);
  check(latestByTag !== null, 'no latest block');
  check(latestByTag.hash === latest.hash, `latest is ${latestByTag.number}, expected ${latestNumber}`);
  const nullifierTreeSize = latest.header.state.partial.nullifierTree.nextAvailableLeafIndex;
  const nullifiers = [...nullifierBlock.keys()];
  check(
    nullifiers.length >= TARGET_NULLIFIERS && nullifierTreeSize >= TARGET_NULLIFIERS,
    `${nullifiers.length} nullifiers sent, nullifier tree size ${nullifierTreeSize}: want ${TARGET_NULLIFIERS}`,
  );
  log(
    `chain: ${txCount} txs mined in ${perSlot.length} slots (${perSlot.join(', ')}), blocks ${firstTxBlock}..${latestNumber}`,
  );
  log(
    `chain: nullifier tree ${nullifierTreeSize} leaves (${nullifiers.length} sent), note hash tree ${latest.header.state.partial.noteHashTree.nextAvailableLeafIndex} leaves (${noteHashes.length} sent)`,
  );
  log(
    `chain: ready in ${fmt((performance.now() - chainStarted) / 1000, 1)} s (building txs ${fmt(builtMs / 1000, 1)} s, sending ${fmt(sendMs / 1000, 1)} s, mining ${fmt(mineMs / 1000, 1)} s)`,
  );

  // Fee payers' balance slots: present in the public data tree, with a non-zero balance.
  const balanceSlots = payers.map((p) => feeJuiceBalanceSlot(p));
  const balances = new Map<bigint, bigint>();
  for (const slot of balanceSlots) {
    const w = await pub('svc_getPublicDataWitness', ['latest', hex(slot)]);
    check(w !== null, `no witness for balance slot ${hex(slot)}`);
    check(BigInt(w.leafPreimage.leaf.slot!) === slot, `balance slot ${hex(slot)} not in the tree`);
    check(BigInt(w.leafPreimage.leaf.value!) > 0n, `balance slot ${hex(slot)} holds 0`);
    balances.set(slot, BigInt(w.leafPreimage.leaf.value!));
  }
  // The older reference block: about halfway through the blocks holding the txs.
  const oldBlock = firstTxBlock + Math.floor((latestNumber - firstTxBlock) / 2);
  const oldNullifiers = nullifiersByBlock.slice(0, oldBlock + 1).flat();
  const newerNullifier = nullifiersByBlock.slice(oldBlock + 1).flat()[0];

  // ---- the measurements ----------------------------------------------------------------------------
  interface Case {
    name: string;
    method: string;
    /** Params of one random request, and what its validation needs to know. */
    input(): { params: unknown[]; expect: unknown };
    /** Close checks of a reply's result (the first VALIDATE replies). */
    validate(result: unknown, expect: unknown): void;
    /** Leaves per request, for leaves_per_s. */
    leaves?: number;
  }
  const indexedChecks = (w: IndexedWitness, height: number) => {
    check(w.siblingPath.length === height, `sibling path of ${w.siblingPath.length}, expected ${height}`);
    check(BigInt(w.index) >= 0n, 'negative index');
  };
  /** The low leaf of an absent key: key < asked, and the next key above it (or 0, the end). */
  const lowLeafChecks = (w: IndexedWitness, key: bigint, leafKey: bigint) => {
    const next = BigInt(w.leafPreimage.nextKey);
    check(leafKey < key, `low leaf ${hex(leafKey)} is not below ${hex(key)}`);
    check(next === 0n || next > key, `low leaf's next key ${hex(next)} is not above ${hex(key)}`);
  };
  const cases: Case[] = [
    {
      // The floor: a JSON-RPC call that reads no state, through the same client.
      name: 'baseline-getChainId',
      method: 'svc_getChainId',
      input: () => ({ params: [], expect: undefined }),
      validate: (r) => check(typeof r === 'number', `chain id ${JSON.stringify(r)}`),
    },
    {
      name: 'getNullifierMembershipWitness',
      method: 'svc_getNullifierMembershipWitness',
      input: () => {
        const n = pick(nullifiers);
        return { params: ['latest', hex(n)], expect: n };
      },
      validate: (r, n) => {
        const w = r as IndexedWitness;
        indexedChecks(w, NULLIFIER_HEIGHT);
        check(BigInt(w.leafPreimage.leaf.nullifier!) === n, 'witness of another nullifier');
        check(Number(w.index) < nullifierTreeSize, `index ${w.index} beyond the tree`);
      },
    },
    {
      name: 'getLowNullifierMembershipWitness',
      method: 'svc_getLowNullifierMembershipWitness',
      input: () => {
        const n = randomFr();
        return { params: ['latest', hex(n)], expect: n };
      },
      validate: (r, n) => {
        const w = r as IndexedWitness;
        indexedChecks(w, NULLIFIER_HEIGHT);
        lowLeafChecks(w, n as bigint, BigInt(w.leafPreimage.leaf.nullifier!));
      },
    },
    {
      name: 'getPublicDataWitness-present',
      method: 'svc_getPublicDataWitness',
      input: () => {
        const slot = pick(balanceSlots);
        return { params: ['latest', hex(slot)], expect: slot };
      },
      validate: (r, slot) => {
        const w = r as IndexedWitness;
        indexedChecks(w, PUBLIC_DATA_HEIGHT);
        check(BigInt(w.leafPreimage.leaf.slot!) === slot, 'witness of another slot');
        check(BigInt(w.leafPreimage.leaf.value!) === balances.get(slot as bigint), 'balance changed');
      },
    },
    {
      name: 'getPublicDataWitness-absent',
      method: 'svc_getPublicDataWitness',
      input: () => {
        const slot = randomFr();
        return { params: ['latest', hex(slot)], expect: slot };
      },
      validate: (r, slot) => {
        const w = r as IndexedWitness;
        indexedChecks(w, PUBLIC_DATA_HEIGHT);
        lowLeafChecks(w, slot as bigint, BigInt(w.leafPreimage.leaf.slot!));
      },
    },
    {
      name: 'getNoteHashMembershipWitness',
      method: 'svc_getNoteHashMembershipWitness',
      input: () => {
        const h = pick(noteHashes);
        return { params: ['latest', hex(h)], expect: h };
      },
      validate: (r) => {
        const w = r as MembershipWitness;
        check(w.siblingPath.length === NOTE_HASH_HEIGHT, `sibling path of ${w.siblingPath.length}`);
      },
    },
    {
      name: 'getBlockHashMembershipWitness',
      method: 'svc_getBlockHashMembershipWitness',
      input: () => {
        const b = 1 + Math.floor(Math.random() * (latestNumber - 1));
        return { params: ['latest', blockHashes[b]], expect: b };
      },
      validate: (r, b) => {
        const w = r as MembershipWitness;
        check(w.siblingPath.length === ARCHIVE_HEIGHT, `sibling path of ${w.siblingPath.length}`);
        check(Number(w.leafIndex) === b, `block ${b}'s hash at archive leaf ${w.leafIndex}`);
      },
    },
    {
      name: 'getPublicStorageAt',
      method: 'svc_getPublicStorageAt',
      input: () => {
        const i = Math.floor(Math.random() * payers.length);
        return {
          params: ['latest', hex(PROTOCOL_CONTRACT_ADDRESSES.feeJuice), hex(mapStorageSlot(1n, payers[i]!))],
          expect: balances.get(balanceSlots[i]!),
        };
      },
      validate: (r, balance) => check(BigInt(r as string) === balance, `balance ${r}, expected ${balance}`),
    },
    {
      name: 'findLeavesIndexes',
      method: 'svc_findLeavesIndexes',
      leaves: FIND_BATCH,
      input: () => {
        const values = Array.from({ length: FIND_BATCH }, () => pick(nullifiers));
        return { params: ['latest', 0, values.map(hex)], expect: values };
      },
      validate: (r, values) => {
        const found = r as (LeafInBlock | null)[];
        const asked = values as bigint[];
        check(found.length === asked.length, `${found.length} results for ${asked.length} values`);
        found.forEach((f, i) => {
          check(f !== null, `nullifier ${hex(asked[i]!)} not found`);
          const b = nullifierBlock.get(asked[i]!)!;
          check(f.l2BlockNumber === b, `nullifier of block ${b} said to be in ${f.l2BlockNumber}`);
          check(f.l2BlockHash === blockHashes[b], `block ${b}'s hash differs`);
          check(Number(f.data) < nullifierTreeSize, `index ${f.data} beyond the tree`);
        });
      },
    },
    {
      name: 'getNullifierSiblingPath',
      method: 'node_getNullifierSiblingPath',
      input: () => ({
        params: ['latest', String(Math.floor(Math.random() * nullifierTreeSize))],
        expect: undefined,
      }),
      validate: (r) => {
        const path = r as string[];
        check(path.length === NULLIFIER_HEIGHT, `sibling path of ${path.length}`);
      },
    },
    {
      name: 'getNullifierMembershipWitness-old',
      method: 'svc_getNullifierMembershipWitness',
      input: () => {
        const n = pick(oldNullifiers);
        return { params: [oldBlock, hex(n)], expect: n };
      },
      validate: (r, n) => {
        const w = r as IndexedWitness;
        indexedChecks(w, NULLIFIER_HEIGHT);
        check(BigInt(w.leafPreimage.leaf.nullifier!) === n, 'witness of another nullifier');
      },
    },
  ];

  // At the older block, a nullifier of a later block is absent.
  if (newerNullifier !== undefined) {
    const w = await pub('svc_getNullifierMembershipWitness', [oldBlock, hex(newerNullifier)]);
    check(w === null || w === undefined, `a nullifier of a block after ${oldBlock} has a witness there`);
  }
  log(
    `measuring: ${REQUESTS} requests per method, ${CONCURRENCY} in flight (after ${WARMUP} untimed); older reference block ${oldBlock} of ${latestNumber}`,
  );

  const selected = cases.filter((c) => ONLY === undefined || c.name.includes(ONLY));
  const prepared = selected.map((c) => ({
    c,
    requests: Array.from({ length: WARMUP + REQUESTS }, (_, i) => {
      const { params, expect } = c.input();
      return { body: JSON.stringify({ jsonrpc: '2.0', id: i, method: c.method, params }), expect };
    }),
    validated: 0,
  }));
  type Prepared = (typeof prepared)[number];
  /** Sends the requests, CONCURRENCY in flight; every reply must be a non-null success. */
  const run = async (p: Prepared, requests: Prepared['requests']) => {
    const latencies: number[] = [];
    const cpu0 = nodeCpuMs(node);
    const started = performance.now();
    await runLimited(
      requests.map((req) => async () => {
        const t0 = performance.now();
        const text = await post(node.publicUrl, req.body);
        latencies.push(performance.now() - t0);
        const reply = JSON.parse(text) as RpcReply;
        if (reply.error) {
          throw new Error(`${p.c.name}: ${reply.error.code} ${reply.error.message} for ${req.body}`);
        }
        check(
          reply.result !== null && reply.result !== undefined,
          `${p.c.name}: null result for ${req.body}`,
        );
        if (p.validated < VALIDATE) {
          p.validated++;
          try {
            p.c.validate(reply.result, req.expect);
          } catch (err) {
            throw new Error(`${p.c.name}: ${(err as Error).message} (request ${req.body.slice(0, 300)})`);
          }
        }
      }),
      CONCURRENCY,
    );
    const cpu1 = nodeCpuMs(node);
    return {
      ms: performance.now() - started,
      latencies,
      cpuMs: cpu0 === undefined ? undefined : cpu1! - cpu0,
    };
  };
  // Every method is warmed up before any is measured (the first measured otherwise pays for JIT
  // and for the garbage left by building the chain).
  for (const p of prepared) await run(p, p.requests.slice(0, WARMUP));
  for (const p of prepared) {
    const { c } = p;
    const { ms, latencies, cpuMs } = await run(p, p.requests.slice(WARMUP));
    const rps = REQUESTS / (ms / 1000);
    const cpu = cpuMs === undefined ? '' : ` node_cpu_ms_per_req=${fmt(cpuMs / REQUESTS, 3)}`;
    const leaves = c.leaves
      ? ` leaves_per_s=${Math.round(rps * c.leaves)} leaves_per_request=${c.leaves}`
      : '';
    console.log(
      `BENCH state-${c.name} rps=${Math.round(rps)} p50_ms=${fmt(percentile(latencies, 0.5))} p99_ms=${fmt(percentile(latencies, 0.99))} n=${REQUESTS} in_flight=${CONCURRENCY}${leaves}${cpu}`,
    );
  }
});
