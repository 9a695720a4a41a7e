// Gossip over real libp2p networks and the cost of checking attestations. Three P2PNetworks on
// 127.0.0.1 in this process (B bootstrapped from A's ENR, C from A's and B's: a full mesh, as in
// test/e2e/network.test.ts). Once the mesh carries a probe from every node to every other:
//   - latency: C publishes 200 messages of 300 bytes one at a time, each awaited at both A and B;
//   - throughput: C publishes 5,000 messages of 2 KiB (about a tx) as fast as publish resolves;
//     the rate is of messages delivered at both A and B, and any that never arrive are counted lost;
//   - attestations: decodeAttestation + attestationDigest + 2× signerOf (what onAttestation does
//     besides the committee look-ups), one at a time on one core; and signDigest.
// Prints one line per figure: `BENCH p2p.<name> key=value ...`.
//   node --import tsx bench/p2p.bench.ts
import '../src/p2p/polyfill.js';
import { randomBytes } from 'node:crypto';
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
import { P2PNetwork } from '../src/p2p/network.js';
import { attestationDigest, type Domain, signDigest, signerOf } from '../src/validators/committee.js';
import {
  type CheckpointAttestation,
  decodeAttestation,
  encodeAttestation,
  TOPICS,
} from '../src/validators/messages.js';
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
const TOPIC = TOPICS.tx;

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
  };
  net.subscribe(TOPIC, (data, from) => {
    const index = Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32BE(1);
    if (data[0] === KIND_PROBE) node.probesFrom.add(names.get(from) ?? from);
    else if (data[0] === KIND_LATENCY) node.onLatency(index);
    else if (data[0] === KIND_THROUGHPUT && node.received[index] === 0) {
      node.received[index] = 1;
      node.receivedCount++;
      node.lastReceivedAt = performance.now();
    }
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
  for (let i = 0; i < THROUGHPUT_MESSAGES; i++) {
    const recipients = await c.net.publish(TOPIC, message(KIND_THROUGHPUT, i, THROUGHPUT_BYTES));
    if (recipients < 2) recipientsShort++;
  }
  const publishedMs = performance.now() - t0;
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
  console.log(
    `BENCH p2p.gossip_throughput messages=${THROUGHPUT_MESSAGES} bytes=${THROUGHPUT_BYTES} delivered_msgs_per_s=${Math.round(deliveredBoth / (deliveredMs / 1000))} publish_msgs_per_s=${Math.round(THROUGHPUT_MESSAGES / (publishedMs / 1000))} delivered_mib_per_s=${fmt(mib / (deliveredMs / 1000), 2)} publish_ms=${Math.round(publishedMs)} delivered_ms=${Math.round(deliveredMs)} lost_a=${lost[0]} lost_b=${lost[1]} disconnects=${disconnects - disconnectsBefore} cpu_ms_per_msg=${fmt(cpuMsPerMessage, 2)} publishes_short_of_2_recipients=${recipientsShort}`,
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

const benchStarted = performance.now();
try {
  await gossip();
} finally {
  await stopAll();
}
await attestations();
clearTimeout(watchdog);
log(`p2p bench: ${fmt((performance.now() - benchStarted) / 1000, 1)} s`);
