// Public Token transfers end to end on a real `cairn start` process with the realtime clock (an L1
// block a second, up to 1,000 txs per block): the reference Token (public bytecode of the npm
// artifact, @aztec/noir-contracts.js 4.1.2) is published and constructed in one tx, 1,000,000 is
// minted to each of the 10 dev accounts, then N txs each calling
// transfer_in_public(from, to, 1, 0) — from is the tx's sender and fee payer, the 10 accounts in
// turn — are sent with svc_sendTx, 32 in flight, and the chain is watched until the pool is empty.
// Building the txs is not timed. Every sampled receipt must be `success`, and the 10 balances in
// Token's public_balances map (slot 5) must equal what was minted plus received minus sent.
// Prints (stopped_by: why each checkpoint but the last took no more txs; node_cpu_pct: the node's
// CPU over the measurement, in % of one core):
//   BENCH token-transfers send_txs_per_s=<n> e2e_txs_per_s=<n> blocks=<n> min_block=<n> max_block=<n>
//     slots=<n> empty_slots=<n> n=<n> slot_s=<n> ... mana_per_tx=<n>
//     stopped_by=mana:<n>,body:<n>,txs:<n>,time:<n> node_cpu_pct=<n> ...
//   npm run build && node --import tsx bench/token-transfers.bench.ts
// BENCH_TRANSFERS (6000) sets N, BENCH_SLOT_S (4) the slot duration (at least 2: the proposal needs
// an L1 block of its slot after the one the node builds on), BENCH_MANA_TARGET (1,000,000,000) the
// rollup's mana target. A checkpoint's room is fixed per slot: mana, twice the target (a transfer
// takes ~642k, 84% of it the fixed public tx overhead: cairn's default target of 100M holds 311
// transfers, so the bench sets 1e9, a tenth of the reference's local default of 1e10), and 512 KiB
// of body (608 bytes a transfer, ~850). While that room stops the blocks, the e2e rate is what one
// checkpoint takes over the slot's seconds; otherwise it is the node's speed.
// BENCH_LOG_LEVEL=info prints the node's checkpoint lines at the end; BENCH_CPU_PROF_DIR=<dir>
// runs the node with --cpu-prof; BENCH_CAIRN_ARGS adds `cairn start` arguments, BENCH_NODE_FLAGS
// Node flags for the node.
// Needs the npm artifacts (fetched into .cache/ on first use; CAIRN_SKIP_ARTIFACTS=1 skips the bench).
import { z } from 'zod';
import { ensureArtifacts, loadArtifactJson } from '../src/artifacts/npm-artifacts.js';
import {
  deploymentOf,
  devAccounts,
  NodeClient,
  parseArtifact,
  prepareTx,
  randomFr,
  toWire,
} from '../src/client/index.js';
import { txEffect } from '../src/core/block-codecs.js';
import {
  BLOCK_BODY_OVERHEAD_BYTES,
  CHECKPOINT_BODY_OVERHEAD_BYTES,
  MAX_CHECKPOINT_BODY_BYTES,
  txEffectBodyBytesBound,
} from '../src/core/checkpoint-body.js';
import type { Gas } from '../src/core/tx.js';
import { mapStorageSlot } from '../src/execution/public-storage.js';
import {
  benchOnNode,
  check,
  fmt,
  hex,
  log,
  nodeCpuMs,
  nodeRpc,
  percentile,
  postRetrying,
  type RpcReply,
  runLimited,
  startRealtimeNode,
  txFactory,
} from './chain-node.js';

if (process.env.CAIRN_SKIP_ARTIFACTS === '1') {
  log('token-transfers: skipped (CAIRN_SKIP_ARTIFACTS=1)');
  process.exit(0);
}

const N = Number(process.env.BENCH_TRANSFERS ?? 6000);
const SLOT_S = Number(process.env.BENCH_SLOT_S ?? 4);
const MANA_TARGET = process.env.BENCH_MANA_TARGET ?? '1000000000';
const IN_FLIGHT = 32;
/** Max fees per gas as a multiple of the min fees: room for the congestion the txs cause. */
const FEE_HEADROOM = 20n;
/** Gas limits of a tx as a multiple of what the simulated transfer used in public. */
const PUBLIC_GAS_MARGIN = 1.5;
const MINTED = 1_000_000n;
const RECEIPT_SAMPLE = 200;

const MINT = 'mint_to_public((Field),u128)';
const TRANSFER = 'transfer_in_public((Field),(Field),u128,Field)';
/** Token's public_balances map is at storage slot 5. */
const PUBLIC_BALANCES_SLOT = 5n;
/** Enough for the constructor (625,506 L2 gas on the AVM) on top of the private part. */
const DEPLOY_GAS: Gas = { l2Gas: 2_000_000, daGas: 100_000 };

await ensureArtifacts();
const tokenArtifact = parseArtifact(
  loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'),
);

const node = await startRealtimeNode(SLOT_S, 2 * N, ['--mana-target', MANA_TARGET]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Receipt {
  status: string;
  executionResult?: string;
  error?: string;
  blockNumber?: number;
}

await benchOnNode('token-transfers', node, async () => {
  const { pub } = nodeRpc(node);
  const client = new NodeClient(node.publicUrl);
  const accounts = devAccounts(10).map((a) => a.address);
  const admin = accounts[0]!;
  while ((await pub('svc_getBlockNumber')) < 1) await sleep(200); // a block to anchor on

  /** Waits until none of the txs is pending; their receipts. */
  const mined = async (hashes: string[], what: string): Promise<Receipt[]> => {
    const deadline = Date.now() + 30 * SLOT_S * 1000;
    for (;;) {
      const receipts = await Promise.all(hashes.map((h) => pub('svc_getTxReceipt', [h])));
      if (receipts.every((r) => r.status !== 'pending')) {
        for (const r of receipts) {
          check(r.status !== 'dropped', `${what}: dropped: ${r.error}`);
          check(r.executionResult === 'success', `${what}: ${r.executionResult} ${r.error ?? ''}`);
        }
        return receipts;
      }
      if (Date.now() > deadline) throw new Error(`${what}: not mined after ${30 * SLOT_S} s`);
      await sleep(250);
    }
  };
  const sendAndMine = async (specs: Parameters<typeof prepareTx>[1][], what: string) => {
    const hashes: string[] = [];
    for (const spec of specs) {
      const t = await prepareTx(client, { feeHeadroom: FEE_HEADROOM, ...spec });
      await pub('svc_sendTx', [t.wire]);
      hashes.push(t.hash);
    }
    return mined(hashes, what);
  };

  // ---- deploy Token and mint (not timed) ------------------------------------------------------------
  const deployment = deploymentOf(tokenArtifact, {
    args: [admin, 'Cairn Token', 'CTK', 18],
    salt: randomFr(),
    deployer: admin,
  });
  const token = deployment.address;
  // One tx publishes the class and the instance and runs the constructor.
  await sendAndMine(
    [
      {
        feePayer: admin,
        gasLimits: DEPLOY_GAS,
        publishClass: deployment.contractClass,
        publishInstances: [deployment.instance],
        publicCalls: [deployment.initializerCall!],
      },
    ],
    'deploy',
  );
  await sendAndMine(
    accounts.map((to) => ({
      feePayer: admin,
      gasLimits: DEPLOY_GAS,
      publicCalls: [{ contractAddress: token, signature: MINT, args: [to, MINTED] }],
    })),
    'mint',
  );
  log(`Token ${hex(token)} deployed; ${MINTED} minted to each of ${accounts.length} accounts`);

  // ---- one transfer simulated: its gas ----------------------------------------------------------
  // Transfer i goes from account i mod 10 to another account, a different one in each round of 10.
  const fromOf = (i: number) => accounts[i % accounts.length]!;
  const toOf = (i: number) =>
    accounts[(i + 1 + (Math.floor(i / accounts.length) % (accounts.length - 1))) % accounts.length]!;
  const transfer = (i: number) => ({
    feePayer: fromOf(i),
    publicCalls: [{ contractAddress: token, signature: TRANSFER, args: [fromOf(i), toOf(i), 1n, 0n] }],
  });
  const probe = await prepareTx(client, { ...transfer(0), gasLimits: DEPLOY_GAS });
  const sim = await pub('svc_simulatePublicCalls', [probe.wire, true]);
  check(sim.revertReason === undefined, `the simulated transfer reverted: ${sim.revertReason}`);
  const privateGas = probe.tx.data.gasUsed;
  const gasLimits: Gas = {
    l2Gas: privateGas.l2Gas + Math.ceil(PUBLIC_GAS_MARGIN * sim.gasUsed.publicGas.l2Gas),
    daGas: privateGas.daGas + Math.ceil(PUBLIC_GAS_MARGIN * sim.gasUsed.publicGas.daGas),
  };
  log(
    `a transfer uses ${sim.gasUsed.totalGas.l2Gas} L2 gas (mana) and ${sim.gasUsed.totalGas.daGas} DA gas ` +
      `(public ${sim.gasUsed.publicGas.l2Gas} / ${sim.gasUsed.publicGas.daGas}); limits ${gasLimits.l2Gas} / ${gasLimits.daGas}`,
  );

  // ---- build the transfers (not timed) ------------------------------------------------------------
  const t0 = performance.now();
  const { first, build } = await txFactory(client, { ...transfer(0), gasLimits, feeHeadroom: FEE_HEADROOM });
  const hashes: string[] = [];
  const bodies = Array.from({ length: N }, (_, i) => {
    const wire = i === 0 ? first.wire : toWire(build({ ...transfer(i), gasLimits }));
    hashes.push(wire.txHash as string);
    return JSON.stringify({ jsonrpc: '2.0', id: i, method: 'svc_sendTx', params: [wire] });
  });
  const expected = new Map<bigint, bigint>(accounts.map((a) => [a, MINTED]));
  for (let i = 0; i < N; i++) {
    expected.set(fromOf(i), expected.get(fromOf(i))! - 1n);
    expected.set(toOf(i), expected.get(toOf(i))! + 1n);
  }
  log(`built ${N} transfers in ${fmt(performance.now() - t0, 0)} ms`);

  // ---- send, then wait for the pool to drain ----------------------------------------------------
  // Kept-alive connections the node closed as a request went out are retried once and counted.
  const resets = { count: 0 };
  const postOnce = (body: string) => postRetrying(node.publicUrl, body, resets);
  const latencies: number[] = [];
  const startBlock = await pub('svc_getBlockNumber');
  const cpuBefore = nodeCpuMs(node);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const sent = performance.now();
        const reply = JSON.parse(await postOnce(body)) as RpcReply;
        if (reply.error) throw new Error(`sendTx: ${reply.error.code} ${reply.error.message}`);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const sendMs = performance.now() - started;
  const drainDeadline = Date.now() + (N / 20) * 1000 + 120_000;
  while ((await pub('svc_getPendingTxCount')) > 0) {
    if (Date.now() > drainDeadline) throw new Error('the pool did not drain: block production stalled');
    await sleep(100);
  }
  const drainedMs = performance.now() - started;
  const cpuAfter = nodeCpuMs(node);
  // The node's CPU over the measurement, in % of one core (the machine has 2).
  const nodeCpuPct =
    cpuBefore === undefined || cpuAfter === undefined
      ? Number.NaN
      : ((cpuAfter - cpuBefore) / drainedMs) * 100;

  // ---- what the chain did (read after the measurement) ------------------------------------------
  const { rollupManaLimit } = await pub('svc_getL1Constants');
  const endBlock = await pub('svc_getBlockNumber');
  const blocks: { txs: number; mana: bigint; slot: number; checkpoint: number; bodyBytes: number }[] = [];
  for (let b = startBlock + 1; b <= endBlock; b++) {
    const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
    check(block !== null, `no block ${b}`);
    const effects = block.body?.txEffects ?? [];
    blocks.push({
      txs: effects.length,
      mana: BigInt(block.header.totalManaUsed),
      slot: Number(block.header.globalVariables.slotNumber),
      checkpoint: block.checkpointNumber,
      bodyBytes: effects.reduce((n, e) => n + txEffectBodyBytesBound(z.decode(txEffect, e)), 0),
    });
  }
  const inBlocks = blocks.reduce((s, b) => s + b.txs, 0);
  check(inBlocks === N, `${inBlocks} txs in blocks ${startBlock + 1}..${endBlock}, sent ${N}`);
  const sizes = blocks.map((b) => b.txs);
  const full = sizes.slice(0, -1); // the last block takes what is left
  const slots = blocks.length === 0 ? 0 : blocks.at(-1)!.slot - blocks[0]!.slot + 1;
  // Why each checkpoint but the last stopped taking txs: no room for another transfer's mana or
  // body bytes (the sequencer's bound), the block's tx cap, or else building time.
  const checkpoints = new Map<number, { txs: number; mana: bigint; bodyBytes: number; blocks: number }>();
  for (const b of blocks) {
    const c = checkpoints.get(b.checkpoint) ?? { txs: 0, mana: 0n, bodyBytes: 0, blocks: 0 };
    checkpoints.set(b.checkpoint, {
      txs: c.txs + b.txs,
      mana: c.mana + b.mana,
      bodyBytes: c.bodyBytes + b.bodyBytes,
      blocks: c.blocks + 1,
    });
  }
  const stops = { mana: 0, body: 0, txs: 0, time: 0 };
  for (const c of [...checkpoints.values()].slice(0, -1)) {
    const bodyRoom =
      MAX_CHECKPOINT_BODY_BYTES - CHECKPOINT_BODY_OVERHEAD_BYTES - c.blocks * BLOCK_BODY_OVERHEAD_BYTES;
    if (BigInt(rollupManaLimit) - c.mana < BigInt(sim.gasUsed.totalGas.l2Gas)) stops.mana++;
    else if (bodyRoom - c.bodyBytes < c.bodyBytes / c.txs) stops.body++;
    else if (c.txs >= 1000 * c.blocks) stops.txs++;
    else stops.time++;
  }
  const bodyPerTx = blocks.reduce((n, b) => n + b.bodyBytes, 0) / Math.max(1, inBlocks);
  log(
    `blocks ${startBlock + 1}..${endBlock}: ${blocks.map((b) => `${b.txs} txs / ${fmt(Number(b.mana) / 1e6, 1)}M mana / ${fmt(b.bodyBytes / 1024, 0)} KiB (slot ${b.slot})`).join(', ')}`,
  );
  log(
    `checkpoint room: ${fmt(rollupManaLimit / 1e6, 0)}M mana (${Math.floor(rollupManaLimit / sim.gasUsed.totalGas.l2Gas)} transfers), ` +
      `${fmt((MAX_CHECKPOINT_BODY_BYTES - CHECKPOINT_BODY_OVERHEAD_BYTES - BLOCK_BODY_OVERHEAD_BYTES) / 1024, 0)} KiB of body in one block ` +
      `(${Math.floor((MAX_CHECKPOINT_BODY_BYTES - CHECKPOINT_BODY_OVERHEAD_BYTES - BLOCK_BODY_OVERHEAD_BYTES) / bodyPerTx)} transfers at ${fmt(bodyPerTx, 0)} bytes each)`,
  );

  // ---- receipts and balances ----------------------------------------------------------------------
  const sample = Array.from({ length: Math.min(RECEIPT_SAMPLE, N) }, (_, k) =>
    k === 0 ? N - 1 : Math.floor(Math.random() * N),
  );
  const receipts = await runLimited(
    sample.map((i) => () => pub('svc_getTxReceipt', [hashes[i]!])),
    8,
  );
  receipts.forEach((r, k) => {
    const mined = r.status !== 'pending' && r.status !== 'dropped' ? r : undefined;
    check(
      mined?.executionResult === 'success',
      `transfer ${sample[k]}: ${r.status} ${mined?.executionResult ?? ''} ${mined?.error ?? ''}`,
    );
  });
  for (const [account, want] of expected) {
    const stored = await pub('svc_getPublicStorageAt', [
      'latest',
      hex(token),
      hex(mapStorageSlot(PUBLIC_BALANCES_SLOT, account)),
    ]);
    check(BigInt(stored) === want, `balance of ${hex(account)}: ${BigInt(stored)}, expected ${want}`);
  }

  console.log(
    `BENCH token-transfers send_txs_per_s=${Math.round(N / (sendMs / 1000))} e2e_txs_per_s=${Math.round(N / (drainedMs / 1000))} ` +
      `blocks=${blocks.length} min_block=${full.length > 0 ? Math.min(...full) : sizes[0]} max_block=${Math.max(...sizes)} ` +
      `slots=${slots} empty_slots=${Math.max(0, slots - blocks.length)} n=${N} slot_s=${SLOT_S} ` +
      `send_p50_ms=${fmt(percentile(latencies, 0.5), 1)} send_p99_ms=${fmt(percentile(latencies, 0.99), 1)} ` +
      `mana_per_tx=${sim.gasUsed.totalGas.l2Gas} stopped_by=mana:${stops.mana},body:${stops.body},txs:${stops.txs},time:${stops.time} ` +
      `node_cpu_pct=${fmt(nodeCpuPct, 0)} receipts_checked=${receipts.length} connection_resets=${resets.count}`,
  );
  // BENCH_LOG_LEVEL=info: the node's checkpoint lines (txs built and finishing time) and warnings.
  if (process.env.BENCH_LOG_LEVEL !== undefined) {
    log(
      node
        .output()
        .split('\n')
        .filter((l) => /checkpoint|"level":(40|50)|WARN|ERROR/.test(l))
        .join('\n'),
    );
  }
});
