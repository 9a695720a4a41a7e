// Gossip over real libp2p networks and the cost of checking attestations. Three P2PNetworks on
// 127.0.0.1 in this process (B bootstrapped from A's ENR, C from A's and B's: a full mesh, as in
// test/e2e/network.test.ts). Once the mesh carries a probe from every node to every other:
//   - latency: C publishes 200 messages of 300 bytes one at a time, each awaited at both A and B;
//   - throughput: C publishes 5,000 messages of 2 KiB (about a tx) as fast as publish resolves, on
//     the tx topic (bulk: limited per peer, shed when a receiver's queue is full); the rate is of
//     messages delivered at both A and B, and those that never arrive are counted (shed or lost);
//     meanwhile B publishes 50 consensus messages (the attestation topic), one every 20 ms, whose
//     delivery at A and C is timed: none may be lost;
//   - receive capacity: one receiver alone on its core (bench/p2p-receiver.ts, a child process)
//     while C (this thread) publishes 10,000 messages of 2 KiB on the tx topic as fast as it can:
//     messages taken per second, those shed, and the receiver's busy time per message;
//   - tx validation: what a node does with each tx message it takes (the node's txGossipHandler:
//     decoded and its hash started on the hash worker when queued, then full validation and the
//     pool in turn), through a ValidationQueue as the network runs it, over 3,000 distinct valid
//     txs against real stores;
//   - attestations: decodeAttestation + attestationDigest + 2× signerOf (what onAttestation does
//     besides the committee look-ups), one at a time on one core; and signDigest.
// Prints one line per figure: `BENCH p2p.<name> key=value ...`. BENCH_ONLY=<part>[,<part>] runs only
// those parts: gossip (latency, throughput, consensus during the flood), capacity, tx, attestations.
//   node --import tsx bench/p2p.bench.ts
import '../src/p2p/polyfill.js';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import pino from 'pino';
import type { Address } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import {
  type CheckpointHeader,
  checkpointHeaderHash,
  emptyCheckpointHeader,
} from '../src/core/block-header.js';
import { FR_MODULUS } from '../src/core/field.js';
import { buildTx } from '../src/core/tx-builder.js';
import { devAccounts } from '../src/execution/dev-accounts.js';
import { txGossipHandler } from '../src/node/consensus.js';
import { P2PNetwork } from '../src/p2p/network.js';
import { ValidationQueue } from '../src/p2p/validation-queue.js';
import { attestationDigest, type Domain, signDigest, signerOf } from '../src/validators/committee.js';
import {
  type CheckpointAttestation,
  decodeAttestation,
  encodeAttestation,
  encodeTxMessage,
  TOPICS,
} from '../src/validators/messages.js';
import { fixedFees, openTxService, TEST_CONSTANTS } from '../test/helpers/tx-service-fixture.js';
import { check, fmt, log, percentile } from './chain-node.js';

const LATENCY_MESSAGES = Number(process.env.BENCH_LATENCY_MESSAGES ?? 200);
const LATENCY_BYTES = 300;
const THROUGHPUT_MESSAGES = Number(process.env.BENCH_THROUGHPUT_MESSAGES ?? 5000);
const THROUGHPUT_BYTES = 2048;
/** How long to keep waiting for the last throughput messages once none has arrived. */
const STALL_MS = 5_000;
/** Committee members whose attestations are checked in turn (distinct signers and payloads). */
const COMMITTEE = 48;
const VERIFY_SECONDS = Number(process.env.BENCH_VERIFY_SECONDS ?? 4);
const SIGN_SECONDS = Number(process.env.BENCH_SIGN_SECONDS ?? 2);
/** The e2e network's slot (test/e2e/network.test.ts) and attestation timeout. */
const SLOT_SECONDS = 6;
const ATTESTATION_TIMEOUT_SECONDS = 3;
/** A run that takes longer than this is stopped (networks too) and fails. */
const WATCHDOG_MS = 120_000;

const KIND_PROBE = 0;
const KIND_LATENCY = 1;
const KIND_THROUGHPUT = 2;
const KIND_CONSENSUS = 3;
const TOPIC = TOPICS.tx;
const CONSENSUS_TOPIC = TOPICS.attestation;
const CONSENSUS_MESSAGES = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A message: kind (1 byte), index (u32 BE), then random bytes up to `size`. */
function message(kind: number, index: number, size: number): Uint8Array {
  const data = randomBytes(size);
  data[0] = kind;
  data.writeUInt32BE(index, 1);
  return data;
}

interface Node {
  name: string;
  net: P2PNetwork;
  /** Senders (node names) whose probe this node has received. */
  probesFrom: Set<string>;
  /** Called for every latency message received, with its index. */
  onLatency: (index: number) => void;
  /** Throughput messages received, by index (duplicates not counted). */
  received: Uint8Array;
  receivedCount: number;
  lastReceivedAt: number;
  /** Arrival time of each consensus message, by index. */
  consensusAt: Map<number, number>;
}

const nets: P2PNetwork[] = [];
let stopping: Promise<void> | undefined;
const stopAll = () => {
  stopping ??= Promise.allSettled(nets.map((n) => n.stop())).then(() => undefined);
  return stopping;
};
const watchdog = setTimeout(() => {
  log(`p2p bench: still running after ${WATCHDOG_MS / 1000} s; stopping`);
  void stopAll().finally(() => process.exit(1));
}, WATCHDOG_MS).unref();

/** 'peer disconnected' lines the networks logged (a connection lost, e.g. to a ping timeout). */
let disconnects = 0;
const logger = pino(
  { level: 'info' },
  {
    write(line: string) {
      const record = JSON.parse(line) as { level: number; msg: string };
      if (record.msg === 'peer disconnected') disconnects++;
      if (record.level >= 40) process.stderr.write(line);
    },
  },
);
const names = new Map<string, string>(); // peer id -> node name

async function startNode(name: string, bootstrap: string[]): Promise<Node> {
  const net = await P2PNetwork.start({
    privateKey: secp256k1.utils.randomSecretKey(),
    listenHost: '127.0.0.1',
    listenPort: 0,
    announceHost: '127.0.0.1',
    bootstrap,
    topicPrefix: '/cairn/31337/0xbench',
    logger: logger.child({ node: name }),
  });
  nets.push(net);
  names.set(net.peerId, name);
  const node: Node = {
    name,
    net,
    probesFrom: new Set(),
    onLatency: () => {},
    received: new Uint8Array(THROUGHPUT_MESSAGES),
    receivedCount: 0,
    lastReceivedAt: 0,
    consensusAt: new Map(),
  };
  net.subscribe(
    TOPIC,
    (data, from) => {
      const index = Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32BE(1);
      if (data[0] === KIND_PROBE) node.probesFrom.add(names.get(from) ?? from);
      else if (data[0] === KIND_LATENCY) node.onLatency(index);
      else if (data[0] === KIND_THROUGHPUT && node.received[index] === 0) {
        node.received[index] = 1;
        node.receivedCount++;
        node.lastReceivedAt = performance.now();
      }
      return 'accept';
    },
    'bulk',
  );
  net.subscribe(CONSENSUS_TOPIC, (data) => {
    const index = Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32BE(1);
    if (data[0] === KIND_CONSENSUS && !node.consensusAt.has(index))
      node.consensusAt.set(index, performance.now());
    return 'accept';
  });
  return node;
}

// ---- gossip ---------------------------------------------------------------------------------------

async function gossip(): Promise<void> {
  const startedAt = performance.now();
  const a = await startNode('A', []);
  const b = await startNode('B', [a.net.enr]);
  const c = await startNode('C', [a.net.enr, b.net.enr]);
  const nodes = [a, b, c];

  // The mesh: every node publishes probes until each has received one from every other.
  const meshDeadline = Date.now() + 30_000;
  let probes = 0;
  while (!nodes.every((n) => nodes.every((o) => o === n || n.probesFrom.has(o.name)))) {
    check(Date.now() < meshDeadline, 'the three networks did not form a mesh in 30 s');
    for (const n of nodes) await n.net.publish(TOPIC, message(KIND_PROBE, probes++, 32));
    await sleep(100);
  }
  const meshMs = performance.now() - startedAt;
  log(`mesh formed ${fmt(meshMs / 1000, 2)} s after the first start (${probes} probes)`);

  // ---- latency: one message at a time, C -> A and B -------------------------------------------
  const both: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < LATENCY_MESSAGES; i++) {
    const data = message(KIND_LATENCY, i, LATENCY_BYTES);
    const t0 = performance.now();
    let firstAt = 0;
    const arrived = new Promise<void>((resolve, reject) => {
      let pending = 2;
      const timer = setTimeout(() => reject(new Error(`latency message ${i} not delivered in 5 s`)), 5_000);
      for (const n of [a, b]) {
        let got = false;
        n.onLatency = (index) => {
          if (index !== i || got) return;
          got = true;
          if (firstAt === 0) firstAt = performance.now();
          if (--pending === 0) {
            clearTimeout(timer);
            resolve();
          }
        };
      }
    });
    await c.net.publish(TOPIC, data);
    await arrived;
    both.push(performance.now() - t0);
    first.push(firstAt - t0);
  }
  const ms = (x: number) => fmt(x, 2);
  console.log(
    `BENCH p2p.gossip_latency messages=${LATENCY_MESSAGES} bytes=${LATENCY_BYTES} p50_ms=${ms(percentile(both, 0.5))} p95_ms=${ms(percentile(both, 0.95))} max_ms=${ms(Math.max(...both))} first_peer_p50_ms=${ms(percentile(first, 0.5))}`,
  );

  // ---- throughput: C publishes as fast as publish resolves --------------------------------------
  const disconnectsBefore = disconnects;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  let recipientsShort = 0;
  // B's consensus messages, while C floods.
  const consensusSentAt = new Map<number, number>();
  const consensus = (async () => {
    for (let i = 0; i < CONSENSUS_MESSAGES; i++) {
      await sleep(20);
      consensusSentAt.set(i, performance.now());
      await b.net.publish(CONSENSUS_TOPIC, message(KIND_CONSENSUS, i, 1244));
    }
  })();
  for (let i = 0; i < THROUGHPUT_MESSAGES; i++) {
    const recipients = await c.net.publish(TOPIC, message(KIND_THROUGHPUT, i, THROUGHPUT_BYTES));
    if (recipients < 2) recipientsShort++;
  }
  const publishedMs = performance.now() - t0;
  await consensus;
  const receivers = [a, b];
  const done = () => receivers.every((n) => n.receivedCount === THROUGHPUT_MESSAGES);
  for (let lastCount = -1, lastChange = performance.now(); !done(); await sleep(5)) {
    const count = a.receivedCount + b.receivedCount;
    if (count !== lastCount) [lastCount, lastChange] = [count, performance.now()];
    else if (performance.now() - lastChange > STALL_MS) break;
  }
  const deliveredMs = Math.max(...receivers.map((n) => n.lastReceivedAt)) - t0;
  const cpu = process.cpuUsage(cpuBefore);
  const lost = receivers.map((n) => THROUGHPUT_MESSAGES - n.receivedCount);
  const deliveredBoth = Array.from(
    { length: THROUGHPUT_MESSAGES },
    (_, i) => a.received[i]! & b.received[i]!,
  ).reduce((s, x) => s + x, 0);
  const mib = (deliveredBoth * THROUGHPUT_BYTES) / 1024 / 1024;
  // CPU of the three nodes together (this process), over the messages C published.
  const cpuMsPerMessage = (cpu.user + cpu.system) / 1000 / THROUGHPUT_MESSAGES;
  const shed = receivers.map((n) => {
    const q = n.net.validationCounts;
    return q.rateLimited + q.full;
  });
  const highWater = Math.max(...receivers.map((n) => n.net.validationCounts.highWater));
  // Consensus messages: every one must reach A and C, however busy they are with the flood.
  for (
    let waited = 0;
    waited < STALL_MS && ![a, c].every((n) => n.consensusAt.size === CONSENSUS_MESSAGES);
    waited += 10
  )
    await sleep(10);
  const consensusLost = [a, c].map((n) => CONSENSUS_MESSAGES - n.consensusAt.size);
  const consensusLatency = [a, c].flatMap((n) =>
    [...n.consensusAt].map(([i, at]) => at - consensusSentAt.get(i)!),
  );
  console.log(
    `BENCH p2p.gossip_throughput messages=${THROUGHPUT_MESSAGES} bytes=${THROUGHPUT_BYTES} delivered_msgs_per_s=${Math.round(deliveredBoth / (deliveredMs / 1000))} publish_msgs_per_s=${Math.round(THROUGHPUT_MESSAGES / (publishedMs / 1000))} delivered_mib_per_s=${fmt(mib / (deliveredMs / 1000), 2)} publish_ms=${Math.round(publishedMs)} delivered_ms=${Math.round(deliveredMs)} not_delivered_a=${lost[0]} not_delivered_b=${lost[1]} shed_a=${shed[0]} shed_b=${shed[1]} queue_high_water=${highWater} disconnects=${disconnects - disconnectsBefore} cpu_ms_per_msg=${fmt(cpuMsPerMessage, 2)} publishes_short_of_2_recipients=${recipientsShort}`,
  );
  console.log(
    `BENCH p2p.consensus_during_flood messages=${CONSENSUS_MESSAGES} lost_a=${consensusLost[0]} lost_c=${consensusLost[1]} p50_ms=${ms(percentile(consensusLatency, 0.5))} p95_ms=${ms(percentile(consensusLatency, 0.95))} max_ms=${ms(Math.max(...consensusLatency))}`,
  );
}

// ---- attestations -----------------------------------------------------------------------------------

const randomFr = () => BigInt(`0x${randomBytes(32).toString('hex')}`) % FR_MODULUS;

/** Runs `round` (one unit of work) for at least `seconds` after a short warm-up; units per second. */
async function rate(seconds: number, round: (i: number) => Promise<void> | void): Promise<number> {
  for (let i = 0, until = performance.now() + 300; performance.now() < until; i++) await round(i);
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    await round(n++);
    elapsed = performance.now() - start;
  } while (elapsed < seconds * 1000);
  return n / (elapsed / 1000);
}

async function attestations(): Promise<void> {
  const domain: Domain = { chainId: 31337, rollup: `0x${randomBytes(20).toString('hex')}` as Address };
  const members: PrivateKeyAccount[] = Array.from({ length: COMMITTEE }, () =>
    privateKeyToAccount(generatePrivateKey()),
  );
  const proposer = members[0]!;
  const wires: Uint8Array[] = [];
  for (let i = 0; i < COMMITTEE; i++) {
    const slot = 1000 + i;
    const header: CheckpointHeader = {
      ...emptyCheckpointHeader(),
      lastArchiveRoot: randomFr(),
      blockHeadersHash: randomFr(),
      blobsHash: randomFr(),
      inHash: randomFr(),
      epochOutHash: randomFr(),
      slotNumber: slot,
      timestamp: 1_800_000_000n + BigInt(slot * SLOT_SECONDS),
      coinbase: `0x${randomBytes(20).toString('hex')}`,
      feeRecipient: randomFr(),
      totalManaUsed: 1_000_000n,
    };
    const payload = {
      checkpointNumber: 500 + i,
      slot,
      archive: randomFr(),
      headerHash: checkpointHeaderHash(header),
    };
    const digest = attestationDigest(domain, payload);
    const a: CheckpointAttestation = {
      ...payload,
      header,
      signature: await signDigest(members[i]!, digest),
      proposerSignature: await signDigest(proposer, digest),
    };
    wires.push(encodeAttestation(a));
  }
  const bytes = wires.reduce((s, w) => s + w.length, 0) / wires.length;

  // The whole check, as a receiving node does it, one attestation at a time.
  const verifyPerS = await rate(VERIFY_SECONDS, async (i) => {
    const a = decodeAttestation(wires[i % COMMITTEE]!);
    const digest = attestationDigest(domain, a);
    const [attester, prop] = await Promise.all([
      signerOf(digest, a.signature),
      signerOf(digest, a.proposerSignature),
    ]);
    if (attester !== members[i % COMMITTEE]!.address.toLowerCase() || prop !== proposer.address.toLowerCase())
      throw new Error(`attestation ${i % COMMITTEE} did not verify`);
  });
  // Its parts, for where the time goes (onAttestation also hashes the header to check headerHash).
  const decoded = wires.map(decodeAttestation);
  const digests = decoded.map((a) => attestationDigest(domain, a));
  const us = (perS: number) => fmt(1e6 / perS, 1);
  const decodePerS = await rate(1, (i) => void decodeAttestation(wires[i % COMMITTEE]!));
  const digestPerS = await rate(1, (i) => void attestationDigest(domain, decoded[i % COMMITTEE]!));
  const headerHashPerS = await rate(1, (i) => void checkpointHeaderHash(decoded[i % COMMITTEE]!.header));
  const recoverPerS = await rate(1, async (i) => {
    await signerOf(digests[i % COMMITTEE]!, decoded[i % COMMITTEE]!.signature);
  });
  console.log(
    `BENCH p2p.attestation_verify attestations_per_s=${Math.round(verifyPerS)} us_each=${us(verifyPerS)} per_${SLOT_SECONDS}s_slot=${Math.round(verifyPerS * SLOT_SECONDS)} per_${ATTESTATION_TIMEOUT_SECONDS}s_timeout=${Math.round(verifyPerS * ATTESTATION_TIMEOUT_SECONDS)} bytes=${Math.round(bytes)} decode_us=${us(decodePerS)} digest_us=${us(digestPerS)} signer_of_us=${us(recoverPerS)} header_hash_us=${us(headerHashPerS)}`,
  );

  const signPerS = await rate(SIGN_SECONDS, async (i) => {
    await signDigest(members[i % COMMITTEE]!, digests[i % COMMITTEE]!);
  });
  console.log(`BENCH p2p.sign_digest signatures_per_s=${Math.round(signPerS)} us_each=${us(signPerS)}`);
}

// ---- receive capacity: one receiver on its own thread -----------------------------------------------

const CAPACITY_MESSAGES = Number(process.env.BENCH_CAPACITY_MESSAGES ?? 10_000);

interface ReceiverReport {
  received: number;
  shed: number;
  busyMs: number;
}

async function receiveCapacity(): Promise<void> {
  const worker = fork(new URL('./p2p-receiver.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  let latest: ReceiverReport = { received: 0, shed: 0, busyMs: 0 };
  let stopped!: () => void;
  const stoppedP = new Promise<void>((r) => (stopped = r));
  const enr = await new Promise<string>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: { enr?: string; stopped?: boolean } & Partial<ReceiverReport>) => {
      if (m.enr !== undefined) resolve(m.enr);
      else if (m.stopped) stopped();
      else latest = m as ReceiverReport;
    });
  });
  const c = await startNode('C2', [enr]);
  try {
    // Until the receiver takes C's messages (the mesh is up).
    const meshDeadline = Date.now() + 30_000;
    for (let i = 0; latest.received === 0; i++) {
      check(Date.now() < meshDeadline, 'the receiver took no message in 30 s');
      await c.net.publish(TOPIC, message(KIND_PROBE, i, 32));
      await sleep(100);
    }
    await sleep(200);
    const before = latest;
    const t0 = performance.now();
    for (let i = 0; i < CAPACITY_MESSAGES; i++)
      await c.net.publish(TOPIC, message(KIND_THROUGHPUT, i, THROUGHPUT_BYTES));
    const publishedMs = performance.now() - t0;
    let endAt = t0;
    for (let last = -1, lastChange = performance.now(); ; await sleep(20)) {
      const taken = latest.received - before.received + latest.shed - before.shed;
      if (taken !== last) [last, lastChange, endAt] = [taken, performance.now(), performance.now()];
      if (taken >= CAPACITY_MESSAGES || performance.now() - lastChange > 2000) break;
    }
    const received = latest.received - before.received;
    const shed = latest.shed - before.shed;
    const busyMs = latest.busyMs - before.busyMs;
    console.log(
      `BENCH p2p.receive_capacity messages=${CAPACITY_MESSAGES} bytes=${THROUGHPUT_BYTES} received_msgs_per_s=${Math.round(received / ((endAt - t0) / 1000))} received=${received} shed=${shed} not_arrived=${CAPACITY_MESSAGES - received - shed} receiver_busy_us_per_msg=${fmt((busyMs * 1000) / Math.max(1, received + shed), 0)} publish_msgs_per_s=${Math.round(CAPACITY_MESSAGES / (publishedMs / 1000))}`,
    );
  } finally {
    worker.send('stop');
    await stoppedP;
  }
}

// ---- tx validation ----------------------------------------------------------------------------------

const TX_MESSAGES = Number(process.env.BENCH_TX_MESSAGES ?? 3000);

async function txValidation(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-gossip-txs-'));
  const [payer] = devAccounts(1);
  const { worldState, chain, service } = await openTxService(dir, {
    funded: [payer!],
    fees: fixedFees({ feePerDaGas: 0n, feePerL2Gas: 100n }),
    constants: TEST_CONSTANTS,
    maxTxCount: TX_MESSAGES + 100,
    maxBytes: 1 << 30,
  });
  try {
    const anchor = chain.getBlock(0)!.header;
    const wires = Array.from({ length: TX_MESSAGES }, (_, i) => {
      const built = buildTx({
        feePayer: payer!.address,
        anchorBlockHeader: anchor,
        chainId: 31337,
        version: 1,
        expirationTimestamp: 2n ** 40n,
        maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1000n },
        protocolNullifier: 0x10_0000n + BigInt(i),
        noteHashes: [0x20_0000n + BigInt(i)],
      });
      return encodeTxMessage(built.tx, built.hash);
    });
    const bytes = wires.reduce((s, w) => s + w.length, 0) / wires.length;
    const queue = new ValidationQueue({ maxPending: TX_MESSAGES, ratePerPeer: 1e9, burstPerPeer: 1e9 });
    const handler = txGossipHandler(service);
    let accepted = 0;
    let done = 0;
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      for (const wire of wires) {
        // As P2PNetwork does: prepared (decoded, hash started) when queued, handled in turn.
        let prepared: ReturnType<typeof handler.prepare>;
        queue.offer({
          priority: 'bulk',
          peer: 'C',
          prepare: () => {
            prepared = handler.prepare(wire);
          },
          run: async () => {
            if ((await handler.handle(prepared, 'C')) === 'accept') accepted++;
            if (++done === TX_MESSAGES) resolve();
          },
        });
      }
    });
    const seconds = (performance.now() - t0) / 1000;
    check(accepted === TX_MESSAGES, `only ${accepted} of ${TX_MESSAGES} txs accepted`);
    console.log(
      `BENCH p2p.tx_validation messages=${TX_MESSAGES} bytes=${Math.round(bytes)} msgs_per_s=${Math.round(TX_MESSAGES / seconds)} us_each=${fmt((seconds * 1e6) / TX_MESSAGES, 0)}`,
    );
  } finally {
    await worldState.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = (part: string) => ONLY === undefined || ONLY.includes(part);
const benchStarted = performance.now();
try {
  if (runs('gossip')) await gossip();
  if (runs('capacity')) await receiveCapacity();
} finally {
  await stopAll();
}
if (runs('tx')) await txValidation();
if (runs('attestations')) await attestations();
clearTimeout(watchdog);
log(`p2p bench: ${fmt((performance.now() - benchStarted) / 1000, 1)} s`);
