// The index.json that lists a rollup's snapshots. One folder per (L1 chain, rollup version, rollup
// contract), so a node can never pick up another deployment's databases.
import { z } from 'zod';
import type { FileStore } from './file-store.js';
import { joinLocation, parseLocation } from './location.js';

export interface SnapshotEntry {
  l2BlockNumber: number;
  /** 0x followed by 64 lowercase hex digits. */
  l2BlockHash: string;
  l1BlockNumber: number;
  /** Unix time in milliseconds. */
  timestamp: number;
  schemaVersions: { archiver: number; worldState: number };
  /** Database name ('archiver', 'world-state') -> full URL of its gzip file. */
  dataUrls: Record<string, string>;
  /** Database name -> sha256 of the uncompressed file (lowercase hex, no 0x). */
  sha256: Record<string, string>;
}

export interface SnapshotMeta {
  l1ChainId: number;
  rollupVersion: number;
  /** 0x followed by 40 hex digits; stored lowercase. */
  rollupAddress: string;
}

export interface SnapshotIndex extends SnapshotMeta {
  /** Newest first. */
  snapshots: SnapshotEntry[];
}

export const INDEX_KEY = 'index.json';

const uint = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const databaseName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a lowercase database name like world-state');
const dataUrl = z.string().refine(
  (text) => {
    try {
      parseLocation(text);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'expected a file://, s3:// or http(s):// URL' },
);

export const snapshotEntrySchema = z
  .strictObject({
    l2BlockNumber: uint,
    l2BlockHash: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits'),
    l1BlockNumber: uint,
    timestamp: uint,
    schemaVersions: z.strictObject({ archiver: uint, worldState: uint }),
    dataUrls: z.record(databaseName, dataUrl),
    sha256: z.record(databaseName, z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits')),
  })
  .superRefine((entry, ctx) => {
    const urls = Object.keys(entry.dataUrls).sort();
    const sums = Object.keys(entry.sha256).sort();
    if (urls.length === 0)
      ctx.addIssue({ code: 'custom', message: 'a snapshot needs at least one database' });
    // Every file must be verifiable, and every digest must belong to a file.
    if (urls.join(',') !== sums.join(',')) {
      ctx.addIssue({
        code: 'custom',
        message: `dataUrls (${urls.join(', ')}) and sha256 (${sums.join(', ')}) must name the same databases`,
      });
    }
  });

export const snapshotIndexSchema = z.strictObject({
  l1ChainId: uint.min(1),
  rollupVersion: uint,
  rollupAddress: z.string().regex(/^0x[0-9a-f]{40}$/, 'expected 0x followed by 40 lowercase hex digits'),
  snapshots: z.array(snapshotEntrySchema),
});

/** The folder (key prefix) of one deployment's snapshots. */
export function snapshotFolder(meta: SnapshotMeta): string {
  return `cairn-${meta.l1ChainId}-${meta.rollupVersion}-${meta.rollupAddress.toLowerCase()}`;
}

export async function readIndex(store: FileStore, folder: string): Promise<SnapshotIndex | undefined> {
  const text = await store.readText(`${folder}/${INDEX_KEY}`);
  if (text === undefined) return undefined;
  const where = joinLocation(store.location, folder, INDEX_KEY);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`snapshot index ${where} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = snapshotIndexSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`snapshot index ${where} is invalid:\n${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Writes the index (validated first, so a bad one is never published); returns its URL. */
export async function writeIndex(store: FileStore, folder: string, index: SnapshotIndex): Promise<string> {
  const valid = snapshotIndexSchema.parse(index);
  // no-store: a cached index would hide new snapshots from nodes for the cache lifetime.
  return store.write(`${folder}/${INDEX_KEY}`, `${JSON.stringify(valid, null, 2)}\n`, {
    contentType: 'application/json',
    cacheControl: 'no-store',
  });
}

/**
 * Returns `existing` (or a fresh index) with `entry` first. Refuses an index of another
 * deployment, which would mean the folder name and its content disagree.
 */
export function addToIndex(
  existing: SnapshotIndex | undefined,
  meta: SnapshotMeta,
  entry: SnapshotEntry,
): SnapshotIndex {
  const rollupAddress = meta.rollupAddress.toLowerCase();
  if (existing !== undefined) {
    const theirs = `chain ${existing.l1ChainId}, version ${existing.rollupVersion}, rollup ${existing.rollupAddress}`;
    const ours = `chain ${meta.l1ChainId}, version ${meta.rollupVersion}, rollup ${rollupAddress}`;
    if (theirs.toLowerCase() !== ours) {
      throw new Error(`snapshot index belongs to ${theirs}, not to ${ours}`);
    }
  }
  const valid = snapshotEntrySchema.parse(entry);
  // A re-upload of the same block replaces its older entry, whose files were overwritten.
  const others = (existing?.snapshots ?? []).filter((s) => s.l2BlockHash !== valid.l2BlockHash);
  return snapshotIndexSchema.parse({
    l1ChainId: meta.l1ChainId,
    rollupVersion: meta.rollupVersion,
    rollupAddress,
    snapshots: [valid, ...others],
  });
}
