// Random operation sequences for the world-state property tests, and the runner that applies
// one sequence to the implementation under test and to the model, comparing after each step.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { FR_MODULUS, type Fr } from '../../src/core/field.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
import {
  type PublicDataWrite,
  TreeId,
  type WorldStateFork,
  type WorldStateOptions,
  type WorldStateReader,
} from '../../src/world-state/types.js';
import { attempt, compareReaders, prng } from './compare.js';
import { type ModelFork, WorldStateModel } from './model.js';

/** What the runner needs from the implementation (the `WorldState` class). */
export interface Subject {
  readonly latestBlockNumber: number;
  readonly oldestBlockNumber: number;
  at(blockNumber: number): WorldStateReader;
  fork(): WorldStateFork;
  commit(fork: WorldStateFork): Promise<number>;
  rollbackTo(blockNumber: number): Promise<void>;
  close(): Promise<void>;
}

export type OpenSubject = (env: StoreEnvironment, options: WorldStateOptions) => Promise<Subject>;

export type AppendTree = TreeId.L1_TO_L2_MESSAGE | TreeId.ARCHIVE;

export interface PublicDataOp {
  /** new: `slot` as given; existing: a slot already in the tree; repeat: a slot earlier in this batch. */
  kind: 'new' | 'existing' | 'repeat';
  slot: Fr;
  pick: number;
  value: Fr;
}

export type Op =
  | { op: 'fork' }
  | { op: 'noteHashes'; values: Fr[] }
  | { op: 'append'; tree: AppendTree; values: Fr[] }
  | { op: 'nullifiers'; values: Fr[]; duplicate: { fromTree: boolean; pick: number; at: number } | null }
  | { op: 'publicData'; writes: PublicDataOp[] }
  | { op: 'commit' }
  | { op: 'discard' }
  | { op: 'rollback'; pick: number; belowWindow: boolean }
  | { op: 'readOld'; pick: number }
  | { op: 'reopen' };

/** Field elements: often small (to collide with genesis keys and each other), often anywhere. */
export const fieldArb = fc.oneof(
  { arbitrary: fc.bigInt({ min: 1n, max: 3000n }), weight: 2 },
  { arbitrary: fc.bigInt({ min: 1n, max: FR_MODULUS - 1n }), weight: 3 },
);
const maybeZeroArb = fc.oneof({ arbitrary: fieldArb, weight: 6 }, { arbitrary: fc.constant(0n), weight: 1 });

export function opArb(weights: { commit: number; rollback: number }): fc.Arbitrary<Op> {
  return fc.oneof(
    { arbitrary: fc.constant<Op>({ op: 'fork' }), weight: 1 },
    {
      arbitrary: fc
        .array(maybeZeroArb, { maxLength: 64 })
        .map((values): Op => ({ op: 'noteHashes', values })),
      weight: 2,
    },
    {
      arbitrary: fc
        .record({
          tree: fc.constantFrom<AppendTree>(TreeId.L1_TO_L2_MESSAGE, TreeId.ARCHIVE),
          values: fc.array(maybeZeroArb, { maxLength: 12 }),
        })
        .map(({ tree, values }): Op => ({ op: 'append', tree, values })),
      weight: 2,
    },
    {
      arbitrary: fc
        .record({
          values: fc.array(maybeZeroArb, { maxLength: 63 }),
          duplicate: fc.option(fc.record({ fromTree: fc.boolean(), pick: fc.nat(), at: fc.nat() }), {
            freq: 4,
          }),
        })
        .map(({ values, duplicate }): Op => ({ op: 'nullifiers', values, duplicate })),
      weight: 3,
    },
    {
      arbitrary: fc
        .array(
          fc.record({
            kind: fc.constantFrom<PublicDataOp['kind']>('new', 'existing', 'repeat'),
            slot: fieldArb,
            pick: fc.nat(),
            value: maybeZeroArb,
          }),
          { minLength: 1, maxLength: 12 },
        )
        .map((writes): Op => ({ op: 'publicData', writes })),
      weight: 3,
    },
    { arbitrary: fc.constant<Op>({ op: 'commit' }), weight: weights.commit },
    { arbitrary: fc.constant<Op>({ op: 'discard' }), weight: 1 },
    {
      arbitrary: fc
        .record({ pick: fc.nat(), belowWindow: fc.boolean() })
        .map(({ pick, belowWindow }): Op => ({ op: 'rollback', pick, belowWindow })),
      weight: weights.rollback,
    },
    { arbitrary: fc.nat().map((pick): Op => ({ op: 'readOld', pick })), weight: 2 },
    { arbitrary: fc.constant<Op>({ op: 'reopen' }), weight: 1 },
  );
}

/** The keys of an indexed tree as the model fork sees them, in leaf order. */
function keysOf(fork: ModelFork, tree: TreeId.NULLIFIER | TreeId.PUBLIC_DATA): Fr[] {
  const keys: Fr[] = [];
  const size = fork.snapshot(tree).nextAvailableLeafIndex;
  for (let i = 0; i < size; i++) {
    const leaf = fork.getLeafPreimage(tree, i);
    if (leaf !== undefined) keys.push(leaf.key);
  }
  return keys;
}

function resolveNullifiers(op: Extract<Op, { op: 'nullifiers' }>, fork: ModelFork): Fr[] {
  const values = [...op.values];
  const dup = op.duplicate;
  if (dup === null) return values;
  const nonZero = values.filter((v) => v !== 0n);
  let copy: Fr;
  if (dup.fromTree || nonZero.length === 0) {
    const keys = keysOf(fork, TreeId.NULLIFIER).filter((k) => k !== 0n);
    copy = keys[dup.pick % keys.length]!;
  } else {
    copy = nonZero[dup.pick % nonZero.length]!;
  }
  values.splice(dup.at % (values.length + 1), 0, copy);
  return values;
}

function resolveWrites(writes: readonly PublicDataOp[], fork: ModelFork): PublicDataWrite[] {
  const keys = keysOf(fork, TreeId.PUBLIC_DATA);
  const out: PublicDataWrite[] = [];
  for (const w of writes) {
    let slot = w.slot;
    if (w.kind === 'existing') slot = keys[w.pick % keys.length]!;
    if (w.kind === 'repeat' && out.length > 0) slot = out[w.pick % out.length]!.slot;
    out.push({ slot, value: w.value });
  }
  return out;
}

function describeError(r: { ok: boolean; error?: Error }): string {
  return r.ok ? 'accepted' : `rejected (${r.error?.message})`;
}

/** Applies `ops` to a fresh implementation (in a temp dir) and to the model, comparing after every step. */
export async function runSequence(
  open: OpenSubject,
  options: WorldStateOptions,
  ops: readonly Op[],
  seed: number,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-ws-prop-'));
  let env = openEnvironment(dir, 'world-state');
  let real = await open(env, options);
  const model = new WorldStateModel(options);
  const rng = prng(seed);
  let fork: { real: WorldStateFork; model: ModelFork } | undefined;
  const ensureFork = () => {
    fork ??= { real: real.fork(), model: model.fork() };
    return fork;
  };

  const check = (label: string) => {
    const latest = model.latestBlockNumber;
    const oldest = model.oldestBlockNumber;
    assert.equal(real.latestBlockNumber, latest, `${label}: latestBlockNumber`);
    assert.equal(real.oldestBlockNumber, oldest, `${label}: oldestBlockNumber`);
    compareReaders(real.at(latest), model.at(latest), rng, `${label}, block ${latest}`, 2, fork?.model);
    if (fork) compareReaders(fork.real, fork.model, rng, `${label}, fork`);
    assert.throws(() => real.at(latest + 1), `${label}: at(latest + 1) must throw`);
    if (oldest > 0) {
      assert.throws(
        () => real.at(oldest - 1).snapshot(TreeId.ARCHIVE),
        (e: Error) => new RegExp(`\\b${oldest}\\b`).test(e.message),
        `${label}: reading block ${oldest - 1} must throw naming the oldest block ${oldest}`,
      );
    }
  };

  try {
    check('genesis');
    for (const [step, op] of ops.entries()) {
      const label = `step ${step} (${op.op})`;
      switch (op.op) {
        case 'fork':
          fork = { real: real.fork(), model: model.fork() };
          break;
        case 'noteHashes': {
          const f = ensureFork();
          f.model.appendNoteHashes(op.values);
          f.real.appendNoteHashes(op.values);
          break;
        }
        case 'append': {
          const f = ensureFork();
          f.model.appendLeaves(op.tree, op.values);
          f.real.appendLeaves(op.tree, op.values);
          break;
        }
        case 'nullifiers': {
          const f = ensureFork();
          const values = resolveNullifiers(op, f.model);
          const m = attempt(() => f.model.insertNullifiers(values));
          const r = attempt(() => f.real.insertNullifiers(values));
          assert.equal(
            r.ok,
            m.ok,
            `${label}: insertNullifiers([${values.join(', ')}]) ${describeError(r)} by the implementation, ` +
              `${describeError(m)} by the model`,
          );
          break;
        }
        case 'publicData': {
          const f = ensureFork();
          const writes = resolveWrites(op.writes, f.model);
          f.model.writePublicData(writes);
          f.real.writePublicData(writes);
          break;
        }
        case 'commit': {
          const f = ensureFork();
          const expected = model.commit(f.model);
          assert.equal(await real.commit(f.real), expected, `${label}: commit returns the new block number`);
          fork = undefined;
          break;
        }
        case 'discard':
          fork = undefined;
          break;
        case 'rollback': {
          fork = undefined;
          const oldest = model.oldestBlockNumber;
          const latest = model.latestBlockNumber;
          if (op.belowWindow && oldest > 0) {
            const target = oldest - 1 - (op.pick % oldest);
            await assert.rejects(real.rollbackTo(target), `${label}: rollbackTo(${target}) below the window`);
            assert.throws(() => model.rollbackTo(target));
          } else {
            const target = oldest + (op.pick % (latest - oldest + 1));
            model.rollbackTo(target);
            await real.rollbackTo(target);
          }
          break;
        }
        case 'readOld': {
          const oldest = model.oldestBlockNumber;
          const b = oldest + (op.pick % (model.latestBlockNumber - oldest + 1));
          compareReaders(
            real.at(b),
            model.at(b),
            rng,
            `${label}, old block ${b}`,
            2,
            model.at(model.latestBlockNumber),
          );
          break;
        }
        case 'reopen':
          fork = undefined;
          await real.close();
          await env.close();
          env = openEnvironment(dir, 'world-state');
          real = await open(env, options);
          break;
      }
      check(label);
    }
  } finally {
    await real.close();
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
