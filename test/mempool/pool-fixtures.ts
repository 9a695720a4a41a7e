// Shared fixtures of the TxPool tests: minimal txs with chosen nullifiers and priority fee, and
// store environments for pools in a temp dir removed after the test file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Fr } from '../../src/core/field.js';
import { computeTxHash, emptyGas, emptySideEffects, type Tx, txSize } from '../../src/core/tx.js';
import type { AddResult, TxPool } from '../../src/mempool/tx-pool.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';

export interface MadeTx {
  tx: Tx;
  hash: Fr;
  size: number;
}

/**
 * A minimal tx of the valid shape. The first nullifier is non-revertible, the rest revertible.
 * `fee` is the priority fee, split between DA and L2 gas; `proofBytes` pads the size.
 */
export function makeTx(nullifiers: Fr[], fee: bigint, proofBytes = 0): MadeTx {
  const [first, ...rest] = nullifiers;
  assert.ok(first !== undefined, 'a tx needs a nullifier');
  const da = fee / 3n;
  const tx: Tx = {
    data: {
      constants: {
        anchorBlockHash: 7n,
        chainId: 31337,
        version: 1,
        gasSettings: {
          gasLimits: { daGas: 100_000, l2Gas: 1_000_000 },
          teardownGasLimits: emptyGas(),
          maxFeesPerGas: { feePerDaGas: 10n ** 30n, feePerL2Gas: 10n ** 30n },
          maxPriorityFeesPerGas: { feePerDaGas: da, feePerL2Gas: fee - da },
        },
      },
      feePayer: 0x1234n,
      expirationTimestamp: 1_700_000_000n,
      gasUsed: { daGas: 1_000, l2Gas: 500_000 },
      nonRevertible: { ...emptySideEffects(), nullifiers: [first] },
      revertible: { ...emptySideEffects(), nullifiers: rest },
      publicTeardownCallRequest: null,
    },
    proof: new Uint8Array(proofBytes).fill(0xab),
    contractClassLogFields: [],
    publicFunctionCalldata: [],
  };
  return { tx, hash: computeTxHash(tx.data), size: txSize(tx) };
}

/**
 * A maker of txs with fresh nullifiers (two each, counting up from `firstNullifier`, never shared
 * with another tx of the maker) and the given priority fee.
 */
export function freshTxMaker(firstNullifier: bigint): (fee: bigint, proofBytes?: number) => MadeTx {
  let nextNullifier = firstNullifier;
  return (fee, proofBytes = 0) => makeTx([nextNullifier++, nextNullifier++], fee, proofBytes);
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
