// Database snapshots: an upload copies the archiver and world-state stores while sync is paused
// (so both are at the same block), resumes sync, then uploads the copies, gzip-compressed, with an
// index.json entry; a new node bootstraps from the newest compatible snapshot of a location, checks
// it, then syncs the rest from L1.
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type ChainStore, INDEX_VERSION } from '../archiver/chain-store.js';
import { invalidParams, refused } from '../core/errors.js';
import { toHex32 } from '../core/field.js';
import type { S3Settings } from '../snapshots/file-store.js';
import { openFileStore } from '../snapshots/file-store.js';
import { parseLocation, type SnapshotLocation, SnapshotLocationError } from '../snapshots/location.js';
import {
  addToIndex,
  readIndex,
  type SnapshotEntry,
  type SnapshotMeta,
  snapshotFolder,
  writeIndex,
} from '../snapshots/snapshot-index.js';
import { downloadFile, uploadFile } from '../snapshots/transfer.js';
import { TreeId } from '../world-state/types.js';
import { WORLD_STATE_SCHEMA_VERSION, type WorldState } from '../world-state/world-state.js';
import type { ChainDriver } from './chain-driver.js';

/** The databases a snapshot holds, by the name of their environment under the data directory. */
export const SNAPSHOT_DATABASES = ['archiver', 'world-state'] as const;

const SCHEMA_VERSIONS = { archiver: INDEX_VERSION, worldState: WORLD_STATE_SCHEMA_VERSION };

/** Logs transfer progress at most every few seconds. */
function progressLogger(logger: Logger, what: string): (done: number, total?: number) => void {
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (now - last < 3000 && done !== total) return;
    last = now;
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
    logger.info(`snapshot: ${what} ${mb(done)}${total ? ` of ${mb(total)}` : ''}`);
  };
}

function locationOf(text: string): SnapshotLocation {
  try {
    return parseLocation(text);
  } catch (err) {
    if (err instanceof SnapshotLocationError) throw invalidParams(err.message);
    throw err;
  }
}

export interface SnapshotUploadStatus {
  state: 'idle' | 'backing-up' | 'uploading';
  location?: string;
  lastResult?: { at: string; ok: boolean; message: string };
}

export interface SnapshotUploaderOptions {
  driver: ChainDriver;
  chain: ChainStore;
  worldState: WorldState;
  /** Where the backups are staged before upload (same disk as the stores). */
  dataDir: string;
  meta: () => SnapshotMeta;
  s3: S3Settings;
  logger: Logger;
}

export class SnapshotUploader {
  private status: SnapshotUploadStatus = { state: 'idle' };

  constructor(private readonly o: SnapshotUploaderOptions) {}

  /** What the uploader is doing, and how the last upload ended. */
  get current(): SnapshotUploadStatus {
    return { ...this.status };
  }

  /** Checks the request and starts the upload in the background; returns at once. */
  start(locationText: string): void {
    const location = locationOf(locationText);
    if (location.kind === 'http')
      throw invalidParams('http(s) snapshot locations are read-only: upload to file:// or s3://');
    if (this.status.state !== 'idle')
      throw refused(`Snapshot upload already in progress (to ${this.status.location})`);
    if (this.o.chain.latestBlockNumber === 0)
      throw refused('Cannot take a snapshot: the node has no blocks past genesis yet');
    this.status = { ...this.status, state: 'backing-up', location: locationText };
    // finish() puts the state back to idle, which lets the next upload start.
    void this.upload(location).then(
      (url) => this.finish(true, `snapshot uploaded: ${url}`),
      (err) => this.finish(false, `snapshot upload to ${locationText} failed: ${(err as Error).message}`),
    );
  }

  private finish(ok: boolean, message: string): void {
    if (ok) this.o.logger.info(message);
    else this.o.logger.error(message);
    this.status = { state: 'idle', lastResult: { at: new Date().toISOString(), ok, message } };
  }

  private async upload(location: SnapshotLocation): Promise<string> {
    const { driver, chain, worldState, logger } = this.o;
    const staging = mkdtempSync(join(this.o.dataDir, 'snapshot-'));
    try {
      // Both stores are copied with no pass running, so they hold the same block.
      const wasPaused = driver.isSyncPaused;
      await driver.pauseSync();
      const files: Record<string, string> = {};
      let entry: Omit<SnapshotEntry, 'dataUrls' | 'sha256'>;
      try {
        // Between passes, so that no rollback (or dev operation) runs while the copies are made.
        entry = await driver.between(async () => {
          const tip = chain.getTips().proposed;
          logger.info(
            `snapshot: sync paused; copying the archiver and world-state stores at block ${tip.number}`,
          );
          files.archiver = await chain.backup(join(staging, 'archiver'));
          files['world-state'] = await worldState.backup(join(staging, 'world-state'));
          return {
            l2BlockNumber: tip.number,
            l2BlockHash: toHex32(tip.hash),
            l1BlockNumber: Number(chain.l1SyncPoint?.blockNumber ?? 0n),
            timestamp: Date.now(),
            schemaVersions: SCHEMA_VERSIONS,
          };
        });
      } finally {
        if (!wasPaused) driver.resumeSync();
      }
      logger.info('snapshot: copies made, sync resumed; uploading');
      this.status = { ...this.status, state: 'uploading' };
      const meta = this.o.meta();
      const store = openFileStore(location, this.o.s3);
      const folder = snapshotFolder(meta);
      const stamp = new Date(entry.timestamp).toISOString().replace(/[:.]/g, '-');
      const dataUrls: Record<string, string> = {};
      const sha256: Record<string, string> = {};
      for (const name of SNAPSHOT_DATABASES) {
        const key = `${folder}/${name}-${stamp}-${entry.l2BlockHash}.db.gz`;
        const sent = await uploadFile(store, key, files[name]!, {
          onProgress: progressLogger(logger, `uploading ${name}`),
        });
        dataUrls[name] = sent.url;
        sha256[name] = sent.sha256;
      }
      const index = addToIndex(await readIndex(store, folder), meta, { ...entry, dataUrls, sha256 });
      return await writeIndex(store, folder, index);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
}

/** True when the data directory holds neither store yet (a snapshot may be restored into it). */
export function isFreshDataDir(dataDir: string): boolean {
  return SNAPSHOT_DATABASES.every((name) => {
    const dir = join(dataDir, name);
    return !existsSync(dir) || readdirSync(dir).length === 0;
  });
}

/**
 * Downloads the newest snapshot of this deployment (and store layout) from `location` into the
 * data directory, checking each file's sha256. Returns the entry restored, or undefined when the
 * location has none (the node then syncs from L1). The caller checks the restored stores with
 * `verifyRestoredSnapshot` once it has opened them.
 */
export async function restoreSnapshot(o: {
  location: string;
  dataDir: string;
  meta: SnapshotMeta;
  s3: S3Settings;
  logger: Logger;
}): Promise<SnapshotEntry | undefined> {
  const { logger } = o;
  const location = parseLocation(o.location);
  const store = openFileStore(location, o.s3);
  const folder = snapshotFolder(o.meta);
  const index = await readIndex(store, folder);
  if (index === undefined) {
    logger.warn(`no snapshot index at ${o.location} for ${folder}: syncing from L1`);
    return undefined;
  }
  const entry = index.snapshots.find(
    (s) =>
      s.schemaVersions.archiver === SCHEMA_VERSIONS.archiver &&
      s.schemaVersions.worldState === SCHEMA_VERSIONS.worldState &&
      SNAPSHOT_DATABASES.every((name) => s.dataUrls[name] !== undefined && s.sha256[name] !== undefined),
  );
  if (entry === undefined) {
    logger.warn(
      `none of the ${index.snapshots.length} snapshots at ${o.location} has this node's store layout: syncing from L1`,
    );
    return undefined;
  }
  logger.info(
    `restoring the snapshot of block ${entry.l2BlockNumber} (${new Date(entry.timestamp).toISOString()}) from ${o.location}`,
  );
  const staging = join(o.dataDir, '.snapshot-download');
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const name of SNAPSHOT_DATABASES) {
      await downloadFile(entry.dataUrls[name]!, join(staging, name, 'data.mdb'), {
        s3: o.s3,
        expectedSha256: entry.sha256[name]!,
        onProgress: progressLogger(logger, `downloading ${name}`),
      });
    }
    for (const name of SNAPSHOT_DATABASES) {
      rmSync(join(o.dataDir, name), { recursive: true, force: true });
      renameSync(join(staging, name), join(o.dataDir, name));
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return entry;
}

/**
 * Checks restored stores against their index entry: the archiver holds the block with that hash
 * as its latest, and the world state is at that block with the archive root its header names.
 * Throws on any difference.
 */
export function verifyRestoredSnapshot(
  entry: SnapshotEntry,
  chain: ChainStore,
  worldState: WorldState,
): void {
  const block = chain.getBlock(entry.l2BlockNumber);
  const problems: string[] = [];
  if (block === undefined || toHex32(block.hash) !== entry.l2BlockHash)
    problems.push(`the archiver has no block ${entry.l2BlockNumber} with hash ${entry.l2BlockHash}`);
  else if (chain.latestBlockNumber !== entry.l2BlockNumber)
    problems.push(`the archiver's latest block is ${chain.latestBlockNumber}, not ${entry.l2BlockNumber}`);
  if (worldState.latestBlockNumber !== entry.l2BlockNumber)
    problems.push(`the world state is at block ${worldState.latestBlockNumber}, not ${entry.l2BlockNumber}`);
  else if (block !== undefined) {
    const root = worldState.at(entry.l2BlockNumber).snapshot(TreeId.ARCHIVE).root;
    if (root !== block.archive.root)
      problems.push('the world-state archive root differs from the block header');
  }
  if (problems.length > 0)
    throw new Error(`the restored snapshot does not check out: ${problems.join('; ')}`);
}
