// Compares a world-state reader (the real implementation) against the model, tree by tree,
// using a seeded PRNG to pick the leaves, values and keys that are probed.
import assert from 'node:assert/strict';
import { FR_MODULUS, type Fr } from '../../src/core/field.js';
import { isIndexedTree, TREE_HEIGHTS, TREE_IDS, type WorldStateReader } from '../../src/world-state/types.js';
import { indexedLeafHash, rootFromPath } from './model.js';

/** A small deterministic PRNG (mulberry32) for the probes. */
export function prng(seed: number): { int(maxExclusive: number): number; field(): Fr } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (maxExclusive) => Math.floor(next() * maxExclusive),
    field: () => {
      // Mostly small keys (near the genesis keys and the test's small values), sometimes anywhere.
      if (next() < 0.5) return BigInt(Math.floor(next() * 600));
      let v = 0n;
      for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(Math.floor(next() * 2 ** 32));
      return v % FR_MODULUS;
    },
  };
}

export type Prng = ReturnType<typeof prng>;

/** Runs `fn`, returning its result or the error it threw. */
export function attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: Error } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/**
 * Asserts that `real` reads exactly what `model` reads, for every tree: snapshots, sibling
 * paths (which must also fold back to the root), leaf values and preimages, findLeaf on present
 * and absent values and findLowLeaf on random keys. With `newer` (the model at a later block
 * or a fork), values and keys that only exist there are probed too: they must not be found here.
 */
export function compareReaders(
  real: WorldStateReader,
  model: WorldStateReader,
  rng: Prng,
  label: string,
  probes = 2,
  newer?: WorldStateReader,
): void {
  assert.equal(real.blockNumber, model.blockNumber, `${label}: blockNumber`);
  for (const tree of TREE_IDS) {
    const where = `${label}, tree ${tree}`;
    const snap = model.snapshot(tree);
    assert.deepEqual(real.snapshot(tree), snap, `${where}: snapshot`);
    const size = snap.nextAvailableLeafIndex;

    // Leaves: the first, the last, a few random ones, and one past the end.
    const indices = new Set<number>();
    if (size > 0) {
      indices.add(0);
      indices.add(size - 1);
      for (let i = 0; i < probes; i++) indices.add(rng.int(size));
    }
    for (const i of indices) {
      const path = real.getSiblingPath(tree, i);
      assert.equal(path.length, TREE_HEIGHTS[tree], `${where}: path length at ${i}`);
      const value = real.getLeafValue(tree, i);
      assert.equal(value, model.getLeafValue(tree, i), `${where}: leaf value at ${i}`);
      assert.equal(rootFromPath(value!, i, path), snap.root, `${where}: path of leaf ${i} folds to the root`);
      assert.deepEqual(path, model.getSiblingPath(tree, i), `${where}: sibling path at ${i}`);
      if (isIndexedTree(tree)) {
        assert.deepEqual(
          real.getLeafPreimage(tree, i),
          model.getLeafPreimage(tree, i),
          `${where}: preimage ${i}`,
        );
      }
    }
    // Past the last leaf every position up to the capacity has a path, and an empty leaf (0, for
    // the indexed trees too) folds with it to the root: just past the end, within the last
    // subtree of 64, anywhere, and the last position.
    const capacity = 2 ** TREE_HEIGHTS[tree];
    const pastEnd = new Set([size, size + 1 + rng.int(64), size + rng.int(capacity - size), capacity - 1]);
    for (const i of pastEnd) {
      if (i >= capacity) continue;
      const path = real.getSiblingPath(tree, i);
      assert.deepEqual(path, model.getSiblingPath(tree, i), `${where}: sibling path past the end at ${i}`);
      assert.equal(rootFromPath(0n, i, path), snap.root, `${where}: empty leaf ${i} folds to the root`);
    }
    assert.throws(
      () => real.getSiblingPath(tree, capacity),
      `${where}: sibling path beyond the capacity must throw`,
    );
    assert.equal(real.getLeafValue(tree, size), undefined, `${where}: leaf value past the end`);
    if (isIndexedTree(tree))
      assert.equal(real.getLeafPreimage(tree, size), undefined, `${where}: preimage past end`);

    // findLeaf on values present (taken from random leaves), absent (random) and zero.
    const values: Fr[] = [0n, rng.field(), rng.field()];
    for (let p = 0; p < probes && size > 0; p++) {
      const i = rng.int(size);
      const present = isIndexedTree(tree) ? model.getLeafPreimage(tree, i)?.key : model.getLeafValue(tree, i);
      if (present !== undefined) values.push(present);
    }
    const laterValues: Fr[] = [];
    const newerSize = newer?.snapshot(tree).nextAvailableLeafIndex ?? 0;
    for (let p = 0; p < probes && newer && newerSize > size; p++) {
      const i = p === 0 ? newerSize - 1 : size + rng.int(newerSize - size);
      const later = isIndexedTree(tree) ? newer.getLeafPreimage(tree, i)?.key : newer.getLeafValue(tree, i);
      if (later !== undefined) laterValues.push(later);
    }
    values.push(...laterValues);
    for (const v of values) {
      assert.deepEqual(real.findLeaf(tree, v), model.findLeaf(tree, v), `${where}: findLeaf(${v})`);
      // Witness paths equal the model's; the folds above already tie the model's paths to the root.
      const witness = real.getMembershipWitness(tree, v);
      assert.deepEqual(witness, model.getMembershipWitness(tree, v), `${where}: getMembershipWitness(${v})`);
      if (isIndexedTree(tree)) {
        assert.deepEqual(
          real.getIndexedLeafWitness(tree, v),
          model.getIndexedLeafWitness(tree, v),
          `${where}: getIndexedLeafWitness(${v})`,
        );
      }
    }

    if (isIndexedTree(tree)) {
      const keys: Fr[] = [0n, FR_MODULUS - 1n, rng.field(), rng.field(), ...laterValues];
      for (let p = 0; p < probes && size > 0; p++) {
        const leaf = model.getLeafPreimage(tree, rng.int(size));
        if (leaf !== undefined) keys.push(leaf.key, leaf.key + 1n, leaf.key === 0n ? 0n : leaf.key - 1n);
      }
      for (const [n, k] of keys.entries()) {
        if (k >= FR_MODULUS) continue;
        assert.deepEqual(
          real.findLowLeaf(tree, k),
          model.findLowLeaf(tree, k),
          `${where}: findLowLeaf(${k})`,
        );
        const witness = real.getLowLeafWitness(tree, k);
        assert.deepEqual(witness, model.getLowLeafWitness(tree, k), `${where}: getLowLeafWitness(${k})`);
        if (n === 2) {
          const leafHash = indexedLeafHash(tree, witness.leaf);
          assert.equal(
            rootFromPath(leafHash, witness.index, witness.siblingPath),
            snap.root,
            `${where}: low(${k})`,
          );
        }
      }
    }
  }
}
