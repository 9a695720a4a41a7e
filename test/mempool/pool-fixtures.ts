// Shared fixtures of the TxPool tests: minimal txs with chosen nullifiers and priority fee, and
// store environments for pools in a temp dir removed after the test file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { emptyBlockHeader } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import type { Tx } from '../../src/core/tx.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { txSize } from '../../src/core/tx-view.js';
import type { AddResult, TxPool } from '../../src/mempool/tx-pool.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';

export interface MadeTx {
  tx: Tx;
  hash: Fr;
  size: number;
}

/** The contract a fixture tx calls: every fixture tx has one app-logic public call, to it. */
const CALLED = 0x5678n;

/**
 * A minimal tx (built by the tx builder, so of the reference's kernel model, with its real hash)
 * that the pool can hold; it is not meant to pass validation (its anchor is an empty header). The
 * first nullifier is the protocol nullifier (non-revertible), the rest are revertible. `fee` is the
 * priority fee, split between DA and L2 gas. Every fixture tx makes one public call, so all have
 * the same layout (the kernel's output for public): `extraBytes` pads the size by that call's
 * calldata, in 32-byte fields (rounded up), so a tx is exactly `ceil(extraBytes / 32) * 32` bytes
 * larger than one without.
 */
export function makeTx(nullifiers: Fr[], fee: bigint, extraBytes = 0): MadeTx {
  const [first, ...rest] = nullifiers;
  assert.ok(first !== undefined, 'a tx needs a nullifier');
  const da = fee / 3n;
  const { tx, hash } = buildTx({
    feePayer: 0x1234n,
    anchorBlockHeader: emptyBlockHeader(),
    chainId: 31337,
    version: 1,
    expirationTimestamp: 1_700_000_000n,
    gasLimits: { daGas: 100_000, l2Gas: 1_000_000 },
    maxFeesPerGas: { feePerDaGas: 10n ** 30n, feePerL2Gas: 10n ** 30n },
    maxPriorityFeesPerGas: { feePerDaGas: da, feePerL2Gas: fee - da },
    protocolNullifier: first,
    nullifiers: rest,
    publicCalls: [
      { contractAddress: CALLED, selector: 1, args: new Array(Math.ceil(extraBytes / 32)).fill(7n) },
    ],
  });
  return { tx, hash, size: txSize(tx) };
}

/**
 * A maker of txs with fresh nullifiers (two each, counting up from `firstNullifier`, never shared
 * with another tx of the maker) and the given priority fee.
 */
export function freshTxMaker(firstNullifier: bigint): (fee: bigint, extraBytes?: number) => MadeTx {
  let nextNullifier = firstNullifier;
  return (fee, extraBytes = 0) => makeTx([nextNullifier++, nextNullifier++], fee, extraBytes);
}

export const add = (pool: TxPool, t: MadeTx): AddResult => pool.add(t.tx, t.hash, t.size);
export const hashes = (entries: readonly { hash: Fr }[]): Fr[] => entries.map((e) => e.hash);

/** Adds and asserts it was added without replacing or evicting anything. */
export function addOk(pool: TxPool, t: MadeTx): void {
  assert.deepEqual(add(pool, t), { kind: 'added', replaced: [], evicted: [] });
}

/** Store environments under a fresh temp dir (named after `prefix`), removed after the test file. */
export function poolStores(prefix: string): {
  dir: string;
  /** A new environment name, `${kind}-${n}` with n counting across all kinds. */
  name: (kind?: string) => string;
  /** Opens the environment `name` (a new one by default). */
  open: (name?: string) => StoreEnvironment;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let count = 0;
  const name = (kind = 'env') => `${kind}-${count++}`;
  return { dir, name, open: (envName = name()) => openEnvironment(dir, envName) };
}
