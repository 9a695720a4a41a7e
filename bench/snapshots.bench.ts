import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { devAccounts, NodeClient, randomFr, toWire } from '../src/client/index.js';
import { type CairnProcess, followerFlags, startCairn } from '../test/helpers/process.js';
import { startS3 } from '../test/snapshots/servers.js';
import {
  benchOnNode,
  check,
  fmt,
  log,
  MAX_TXS_PER_BLOCK,
  mineUntilEmpty,
  nodeRpc,
  pick,
  post,
  type RpcReply,
  sendTxBatchBodies,
  txFactory,
} from './chain-node.js';

const TXS = Number(process.env.BENCH_TXS ?? 960);
const LOGS_PER_TX = 32;
const FIELDS_PER_LOG = 16;
const NULLIFIERS_PER_TX = 16;
const NOTE_HASHES_PER_TX = 4;
/**
 * Txs per round: a checkpoint body of more than ~13 of these txs (~38 KB of JSON each) passes the
 * sequencer's 512 KiB bound, and the rest would wait a slot.
 */
const TXS_PER_BLOCK = 12;
/** Max fees per gas as a multiple of the min fees: room for the fees to move over the build. */
const FEE_HEADROOM = 100n;
const BUCKET = 'snapshots';
/** How often /status and the followers' tips are polled. */
const POLL_MS = 50;
/** The most a follower may take to reach the source's tips. */
const FOLLOWER_TIMEOUT_MS = 300_000;

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => fmt(bytes / MB, 1);

interface UploadStatus {
  state: 'idle' | 'backing-up' | 'uploading';
  lastResult?: { at: string; ok: boolean; message: string };
}

/** The pino `time` (ms) of the first JSON log line in `text` whose msg starts with `prefix`. */
function logTime(text: string, prefix: string): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith('{') || !line.includes(prefix)) continue;
    try {
      const record = JSON.parse(line) as { time?: number; msg?: string };
      if (record.msg?.startsWith(prefix)) return record.time;
    } catch {
      // not a log record
    }
  }
  return undefined;
}

/** Bytes of a gzip file once uncompressed. */
async function gunzippedBytes(path: string): Promise<number> {
  let bytes = 0;
  for await (const chunk of createReadStream(path).pipe(createGunzip())) bytes += (chunk as Buffer).length;
  return bytes;
}

const work = mkdtempSync(join(tmpdir(), 'cairn-bench-snapshots-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/**
 * startCairn, waiting up to FOLLOWER_TIMEOUT_MS for the node to listen: a node syncs what L1 holds
 * (up to archiverBatchSize L1 blocks) before it listens, which for the whole chain takes longer
 * than startCairn's default wait.
 */
function startFollower(args: string[]): Promise<CairnProcess> {
  return startCairn(args, {}, [], FOLLOWER_TIMEOUT_MS);
}

const sourceDataDir = join(work, 'source');
const fileLocation = join(work, 'files');

const s3 = await startS3(join(work, 's3'));
await s3.createBucket(BUCKET);
const s3Flags = [
  '--s3-endpoint',
  s3.endpoint,
  '--s3-access-key-id',
  'S3RVER',
  '--s3-secret-access-key',
  'S3RVER',
];
// As bench/chain-node.ts's node, with its data where this bench can measure it and info logs (the
// snapshot lines are at info).
const node = await startCairn([
  '--clock',
  'manual',
  '--log-level',
  'info',
  '--max-txs-per-block',
  String(MAX_TXS_PER_BLOCK),
  '--max-blocks-per-checkpoint',
  '1',
  '--ephemeral',
  'false',
  '--data-dir',
  sourceDataDir,
  ...s3Flags,
]);
await benchOnNode('snapshots', node, async () => {
  const client = new NodeClient(node.publicUrl);
  const { pub, dev } = nodeRpc(node);
  const followers: CairnProcess[] = [];
  try {
    // ---- the chain (not measured) ----------------------------------------------------------------
    const chainStarted = performance.now();
    let moved = await dev('svcDev_advanceToSlot', [1]); // block 1: a chain the txs anchor on
    let slot = moved.slot!;
    const payers = devAccounts(10).map((a) => a.address);
    const tagPool = Array.from({ length: 5000 }, randomFr);
    const spec = (i: number) => ({
      feePayer: payers[i % payers.length]!,
      protocolNullifier: randomFr(),
      nullifiers: Array.from({ length: NULLIFIERS_PER_TX - 1 }, randomFr),
      noteHashes: Array.from({ length: NOTE_HASHES_PER_TX }, randomFr),
      privateLogs: Array.from({ length: LOGS_PER_TX }, () => [
        pick(tagPool),
        ...Array.from({ length: FIELDS_PER_LOG - 1 }, randomFr),
      ]),
    });
    const { first, build } = await txFactory(client, { ...spec(0), feeHeadroom: FEE_HEADROOM });
    const wires = [first.wire];
    for (let i = 1; i < TXS; i++) wires.push(toWire(build(spec(i))));
    const builtMs = performance.now() - chainStarted;
    let mineMs = 0;
    let slots = 0;
    for (const body of sendTxBatchBodies(wires, TXS_PER_BLOCK)) {
      const replies = JSON.parse(await post(node.publicUrl, body)) as RpcReply[];
      const errors = replies.flatMap((r) => (r.error ? [`${r.error.code} ${r.error.message}`] : []));
      check(errors.length === 0, `${errors.length} sendTx errors, first: ${errors[0]}`);
      const mineStarted = performance.now();
      const mined = await mineUntilEmpty({ pub, dev }, slot, 3);
      mineMs += performance.now() - mineStarted;
      slot = mined.slot;
      slots += mined.perSlot.length;
      moved = mined.moved ?? moved;
    }
    const latest = moved.l2BlockNumber;
    const sourceTips = JSON.stringify(await pub('svc_getChainTips'));
    log(
      `chain: ${TXS} txs (${LOGS_PER_TX} private logs of ${FIELDS_PER_LOG} fields, ${NULLIFIERS_PER_TX} nullifiers, ${NOTE_HASHES_PER_TX} note hashes each) in blocks 2..${latest} (${slots} slots), ready in ${fmt((performance.now() - chainStarted) / 1000, 1)} s (building txs ${fmt(builtMs / 1000, 1)} s, mining ${fmt(mineMs / 1000, 1)} s)`,
    );

    // ---- uploads -----------------------------------------------------------------------------------
    const status = async () =>
      ((await (await fetch(new URL('/status', node.adminUrl))).json()) as { snapshotUpload: UploadStatus })
        .snapshotUpload;
    const upload = async (name: string, location: string) => {
      const logFrom = node.output().length;
      const before = (await status()).lastResult?.at;
      const requestedAt = Date.now();
      check(
        (await new NodeClient(node.adminUrl).request('svcAdmin_startSnapshotUpload', location)) === null,
        'startSnapshotUpload answered something else than null',
      );
      let outcome: UploadStatus['lastResult'];
      for (const deadline = Date.now() + 120_000; outcome === undefined; await sleep(POLL_MS)) {
        check(Date.now() < deadline, `the upload to ${location} did not end`);
        const s = await status();
        if (s.state === 'idle' && s.lastResult && s.lastResult.at !== before) outcome = s.lastResult;
      }
      check(outcome.ok, outcome.message);
      const text = node.output().slice(logFrom);
      const paused = logTime(text, 'snapshot: sync paused');
      const resumed = logTime(text, 'snapshot: copies made, sync resumed');
      check(paused !== undefined && resumed !== undefined, `no pause log lines for ${name}:\n${text}`);
      const done = Date.parse(outcome.at);
      return {
        totalMs: done - requestedAt,
        toPauseMs: paused - requestedAt,
        pauseMs: resumed - paused,
        uploadMs: done - resumed,
      };
    };

    const file = await upload('file', `file://${fileLocation}`);
    // The files of the (only) snapshot in the file:// location, by store.
    const [folder] = readdirSync(fileLocation);
    check(folder !== undefined, `nothing in ${fileLocation}`);
    const stores = await Promise.all(
      (['archiver', 'world-state'] as const).map(async (store) => {
        const gz = readdirSync(join(fileLocation, folder)).find((f) => f.startsWith(`${store}-`));
        check(gz !== undefined, `no ${store} file in ${folder}`);
        const path = join(fileLocation, folder, gz);
        return {
          store,
          liveBytes: statSync(join(sourceDataDir, store, 'data.mdb')).size,
          copyBytes: await gunzippedBytes(path),
          gzBytes: statSync(path).size,
        };
      }),
    );
    const s3Upload = await upload('s3', `s3://${BUCKET}/net`);
    const copyBytes = stores.reduce((n, s) => n + s.copyBytes, 0);
    const gzBytes = stores.reduce((n, s) => n + s.gzBytes, 0);
    for (const [name, u] of [
      ['file', file],
      ['s3', s3Upload],
    ] as const) {
      console.log(
        `BENCH snapshot-upload-${name} total_ms=${u.totalMs} request_to_pause_ms=${u.toPauseMs} pause_ms=${u.pauseMs} upload_ms=${u.uploadMs} mb=${mb(copyBytes)} gz_mb=${mb(gzBytes)} gz_mb_per_s=${fmt(gzBytes / MB / (u.uploadMs / 1000), 1)}`,
      );
    }
    for (const s of stores) {
      console.log(
        `BENCH snapshot-files store=${s.store} live_mb=${mb(s.liveBytes)} copy_mb=${mb(s.copyBytes)} gz_mb=${mb(s.gzBytes)} ratio=${fmt(s.copyBytes / s.gzBytes, 2)}`,
      );
    }

    // ---- followers ---------------------------------------------------------------------------------
    const l1Flags = await followerFlags(node);
    const sourceWorldState = (await pub('svc_getWorldStateSyncStatus')).latestBlockHash;
    /** Starts a follower with `flags`; times its start and its reaching the source's tips. */
    const follow = async (flags: string[]) => {
      const spawnedAt = Date.now();
      const t0 = performance.now();
      const f = await startFollower(['--log-level', 'info', ...l1Flags, '--sequencer', 'false', ...flags]);
      followers.push(f);
      const readyMs = performance.now() - t0;
      for (;;) {
        if (JSON.stringify(await new NodeClient(f.publicUrl).request('svc_getChainTips')) === sourceTips)
          break;
        check(performance.now() - t0 < FOLLOWER_TIMEOUT_MS, `follower ${flags.join(' ')} did not catch up`);
        await sleep(POLL_MS);
      }
      const syncedMs = performance.now() - t0;
      const ws = await new NodeClient(f.publicUrl).request('svc_getWorldStateSyncStatus');
      check(ws.latestBlockHash === sourceWorldState, 'the follower world state differs from the source');
      const restoring = logTime(f.output(), 'restoring the snapshot of block');
      const restored = logTime(f.output(), 'snapshot of block');
      const code = await f.stop();
      check(code === 0, `follower exited with ${code}:\n${f.output().slice(-4000)}`);
      return {
        readyMs,
        syncedMs,
        restoreMs: restoring !== undefined && restored !== undefined ? restored - restoring : undefined,
        restoreStartMs: restoring !== undefined ? restoring - spawnedAt : undefined,
      };
    };
    const fromSnapshot = await follow(['--snapshot-url', `file://${fileLocation}`]);
    check(fromSnapshot.restoreMs !== undefined, 'the follower did not restore the snapshot');
    const fromL1 = await follow([]);
    console.log(
      `BENCH snapshot-follower ready_ms=${Math.round(fromSnapshot.readyMs)} synced_ms=${Math.round(fromSnapshot.syncedMs)} restore_ms=${fromSnapshot.restoreMs} blocks=${latest}`,
    );
    console.log(
      `BENCH snapshot-follower-l1 ready_ms=${Math.round(fromL1.readyMs)} synced_ms=${Math.round(fromL1.syncedMs)} blocks=${latest}`,
    );

    // ---- summary -----------------------------------------------------------------------------------
    log(
      `stores: ${stores.map((s) => `${s.store} ${mb(s.liveBytes)} MiB live, ${mb(s.copyBytes)} MiB copied, ${mb(s.gzBytes)} MiB gzipped`).join('; ')}`,
    );
    for (const [name, u] of [
      ['file://', file],
      ['S3', s3Upload],
    ] as const) {
      log(
        `upload to ${name}: ${fmt(u.totalMs / 1000, 2)} s in all; sync paused ${u.pauseMs} ms (${u.toPauseMs} ms after the request), then ${fmt(u.uploadMs / 1000, 2)} s compressing and uploading ${mb(gzBytes)} MiB`,
      );
    }
    log(
      `follower from the snapshot: ready after ${fmt(fromSnapshot.readyMs / 1000, 2)} s (restoring ${fmt(fromSnapshot.restoreMs / 1000, 2)} s, begun ${fromSnapshot.restoreStartMs} ms after spawn), at the source's tips after ${fmt(fromSnapshot.syncedMs / 1000, 2)} s`,
    );
    log(
      `follower from L1: ready after ${fmt(fromL1.readyMs / 1000, 2)} s, at the source's tips (${latest} blocks) after ${fmt(fromL1.syncedMs / 1000, 2)} s (${fmt(fromL1.syncedMs / fromSnapshot.syncedMs, 1)}× the snapshot's)`,
    );
  } finally {
    for (const f of followers) await f.stop();
    await s3.close();
  }
});
