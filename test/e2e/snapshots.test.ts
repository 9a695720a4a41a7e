// Snapshots end to end: a node (embedded L1, manual clock) uploads snapshots of its archiver and
// world-state stores to a local S3 (s3rver) and to a directory; a second node, started on the same
// L1 with --snapshot-url, restores the newest one, checks it and syncs to the same tips; a
// corrupted snapshot stops a new node from starting and leaves its data directory empty.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { openFileStore } from '../../src/snapshots/file-store.js';
import { readIndex } from '../../src/snapshots/snapshot-index.js';
import { type CairnProcess, followerFlags, slotStepper, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { type LocalS3, startS3 } from '../snapshots/servers.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-snapshots-'));
const BUCKET = 'snapshots';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('snapshots on real nodes', () => {
  let s3: LocalS3;
  let source: CairnProcess;
  const followers: CairnProcess[] = [];
  let s3Flags: string[];
  let l1Flags: string[];
  let folder: string;
  const pub = (m: string, p?: unknown) => result(source.publicUrl, m, p) as Promise<any>;
  const admin = (m: string, p?: unknown) => result(source.adminUrl, m, p) as Promise<any>;
  /** The next slot (its proposer builds if it can); resolves with the latest block number. */
  const nextBlock = slotStepper(() => source);
  /** Waits until the upload under way has ended; returns how it ended. */
  const uploaded = async () => {
    for (let i = 0; i < 200; i++) {
      const status = (await (await fetch(new URL('/status', source.adminUrl))).json()) as any;
      if (status.snapshotUpload.state === 'idle' && status.snapshotUpload.lastResult)
        return status.snapshotUpload.lastResult;
      await sleep(100);
    }
    throw new Error('the snapshot upload did not end');
  };
  const upload = async (location: string) => {
    assert.equal(await admin('svcAdmin_startSnapshotUpload', [location]), null);
    const outcome = await uploaded();
    assert.equal(outcome.ok, true, outcome.message);
  };
  const follower = async (flags: string[]) => {
    const node = await startCairn([...l1Flags, '--sequencer', 'false', ...flags]);
    followers.push(node);
    return node;
  };
  const tipsOf = (node: CairnProcess) => result(node.publicUrl, 'svc_getChainTips') as Promise<any>;
  /**
   * Waits until `node` and the source report the same tips, reading both each time: the source
   * owns the embedded L1 and calls a proof final only once the L1's saved state holds its block,
   * so its finalized tip can move after a follower's (which counts the finality depth alone). With
   * the manual clock the source then asks itself for the pass that makes it final.
   */
  const sameTips = async (node: CairnProcess) => {
    for (let i = 0; i < 100; i++) {
      const [want, got] = await Promise.all([tipsOf(source), tipsOf(node)]);
      if (JSON.stringify(got) === JSON.stringify(want)) return;
      await sleep(200);
    }
    assert.deepEqual(await tipsOf(node), await tipsOf(source));
  };

  before(async () => {
    s3 = await startS3(join(dir, 's3'));
    await s3.createBucket(BUCKET);
    s3Flags = [
      '--s3-endpoint',
      s3.endpoint,
      '--s3-access-key-id',
      'S3RVER',
      '--s3-secret-access-key',
      'S3RVER',
    ];
    source = await startCairn(['--clock', 'manual', ...s3Flags]);
    const info = await pub('svc_getNodeInfo');
    const a = info.l1ContractAddresses;
    l1Flags = await followerFlags(source);
    folder = `cairn-${info.l1ChainId}-${info.rollupVersion}-${a.rollupAddress.toLowerCase()}`;
  });
  after(async () => {
    for (const node of followers) await node.stop();
    await source?.stop();
    await s3?.close();
  });

  test('bad locations and a second upload while one runs are refused', async () => {
    const noBlocks = await call(source.adminUrl, 'svcAdmin_startSnapshotUpload', [`file://${dir}/early`]);
    assert.equal(noBlocks.error?.code, -32000);
    await nextBlock();
    for (const bad of ['ftp://host/x', 'file://relative/path', 'https://example.com/snapshots', '']) {
      const reply = await call(source.adminUrl, 'svcAdmin_startSnapshotUpload', [bad]);
      assert.equal(reply.error?.code, -32602, bad);
    }
    assert.equal(await admin('nodeAdmin_startSnapshotUpload', [`s3://${BUCKET}/net`]), null);
    const second = await call(source.adminUrl, 'svcAdmin_startSnapshotUpload', [`s3://${BUCKET}/net`]);
    assert.equal(second.error?.code, -32000);
    assert.match(second.error.message, /already in progress/);
    assert.equal((await uploaded()).ok, true);
  });

  test('uploads to S3 list the snapshots newest first in index.json', async () => {
    await nextBlock();
    await nextBlock();
    await upload(`s3://${BUCKET}/net`);
    const index = await readIndex(openFileStore(`s3://${BUCKET}/net`, s3.settings), folder);
    assert.ok(index);
    assert.deepEqual(
      index.snapshots.map((s) => s.l2BlockNumber),
      [3, 1],
    );
    const newest = index.snapshots[0]!;
    assert.equal(newest.l2BlockHash, (await pub('svc_getBlock', [3])).hash);
    assert.deepEqual(Object.keys(newest.dataUrls).sort(), ['archiver', 'world-state']);
    assert.match(newest.dataUrls.archiver!, new RegExp(`^s3://${BUCKET}/net/${folder}/archiver-`));
    assert.match(source.output(), /snapshot: sync paused; copying/);
    assert.equal((await pub('svc_getWorldStateSyncStatus')).syncState, 'running', 'sync resumed');
  });

  test('a new node bootstraps from the newest S3 snapshot and follows the chain', async () => {
    await nextBlock();
    const node = await follower(['--snapshot-url', `s3://${BUCKET}/net`, ...s3Flags]);
    assert.match(node.output(), /snapshot of block 3 restored and checked/);
    await sameTips(node);
    await nextBlock();
    await sameTips(node);
    const status = (await result(node.publicUrl, 'svc_getWorldStateSyncStatus')) as any;
    assert.equal(status.latestBlockHash, (await pub('svc_getWorldStateSyncStatus')).latestBlockHash);
  });

  test('file:// snapshots work the same; a corrupted one stops the node and leaves no data', async () => {
    const location = join(dir, 'files');
    await upload(`file://${location}`);
    const node = await follower(['--snapshot-url', `file://${location}`]);
    assert.match(node.output(), /restored and checked/);
    await sameTips(node);

    const files = join(location, folder);
    const worldState = readdirSync(files).find((f) => f.startsWith('world-state-'))!;
    const raw = gunzipSync(readFileSync(join(files, worldState)));
    const middle = raw.length >> 1;
    raw[middle] = raw[middle]! ^ 0xff;
    writeFileSync(join(files, worldState), gzipSync(raw));
    const dataDir = join(dir, 'corrupt-data');
    await assert.rejects(
      startCairn([
        ...l1Flags,
        '--sequencer',
        'false',
        '--ephemeral',
        'false',
        '--data-dir',
        dataDir,
        '--snapshot-url',
        `file://${location}`,
      ]),
      /sha256/,
    );
    assert.equal(existsSync(join(dataDir, 'world-state', 'data.mdb')), false);
    assert.equal(existsSync(join(dataDir, 'archiver', 'data.mdb')), false);
  });
});
