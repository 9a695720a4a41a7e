// Poseidon2 on the hash worker: the same answers as on this thread, in any number and mix, when
// the worker is stopped mid-way, and without a worker at all (TypeScript backend, child process).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FR_MODULUS } from '../../../src/core/field.js';
import {
  hashWorkerCount,
  hashWorkerRunning,
  poseidon2HashOffThread,
  stopHashWorker,
} from '../../../src/core/hash/hash-worker.js';
import { poseidon2Backend, poseidon2Hash } from '../../../src/core/hash/poseidon2.js';

/** Deterministic field lists of 0..40 elements, some near the modulus. */
function lists(count: number, seed: number): bigint[][] {
  let x = BigInt(seed) * 0x9e3779b97f4a7c15n + 1n;
  const next = () => {
    x = (x * 6364136223846793005n + 1442695040888963407n) % (1n << 256n);
    return x % FR_MODULUS;
  };
  return Array.from({ length: count }, (_, i) =>
    Array.from({ length: i % 41 }, (_, k) => (k === 0 && i % 7 === 0 ? FR_MODULUS - 1n : next())),
  );
}

const canUseWorker = poseidon2Backend().kind === 'native' && availableParallelism() >= 2;

describe('poseidon2HashOffThread', () => {
  test('answers as poseidon2Hash does, for requests made together and one by one', async () => {
    const many = lists(300, 1);
    const together = await Promise.all(many.map((fields) => poseidon2HashOffThread(fields)));
    assert.deepEqual(
      together,
      many.map((fields) => poseidon2Hash(fields)),
    );
    for (const fields of lists(20, 2))
      assert.equal(await poseidon2HashOffThread(fields), poseidon2Hash(fields));
    assert.equal(hashWorkerRunning(), canUseWorker);
  });

  test('large requests made together are spread over one worker per core, with the same answers', async () => {
    // Kernel-input-sized lists (2,785 fields), as many as to keep every worker busy.
    const big = Array.from({ length: 6 }, (_, i) => lists(1, 10 + i)[0]!.concat(lists(70, 20 + i).flat()));
    for (const fields of big) assert.ok(fields.length > 1000);
    const got = await Promise.all(big.map((fields) => poseidon2HashOffThread(fields)));
    assert.deepEqual(
      got,
      big.map((fields) => poseidon2Hash(fields)),
    );
    assert.equal(hashWorkerCount(), canUseWorker ? Math.min(availableParallelism(), 8) : 0);
  });

  test('a value outside the field rejects with the error poseidon2Hash throws; the others are answered', async () => {
    const good = lists(40, 3);
    const bad = [1n, FR_MODULUS];
    let expected: unknown;
    try {
      poseidon2Hash(bad);
    } catch (err) {
      expected = err;
    }
    assert.ok(expected instanceof Error);
    const results = await Promise.allSettled([...good, bad].map((fields) => poseidon2HashOffThread(fields)));
    assert.deepEqual(
      results.slice(0, good.length).map((r) => (r.status === 'fulfilled' ? r.value : r.reason)),
      good.map((fields) => poseidon2Hash(fields)),
    );
    const last = results.at(-1)!;
    assert.equal(last.status, 'rejected');
    assert.equal((last as PromiseRejectedResult).reason.message, (expected as Error).message);
  });

  test('a worker stopped with hashes owed: they are computed here, and the next request starts a new worker', async () => {
    const many = lists(200, 4);
    const pending = many.map((fields) => poseidon2HashOffThread(fields));
    // Sent at the next turn; stop right after, while the worker is busy with them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    stopHashWorker();
    assert.equal(hashWorkerRunning(), false);
    assert.deepEqual(
      await Promise.all(pending),
      many.map((fields) => poseidon2Hash(fields)),
    );
    assert.equal(await poseidon2HashOffThread([5n, 6n]), poseidon2Hash([5n, 6n]));
    assert.equal(hashWorkerRunning(), canUseWorker);
  });

  test('without the native addon the hashes are computed on this thread, with the same answers', () => {
    const workerModule = fileURLToPath(new URL('../../../src/core/hash/hash-worker.ts', import.meta.url));
    const hashModule = fileURLToPath(new URL('../../../src/core/hash/poseidon2.ts', import.meta.url));
    const script = `
      import { poseidon2HashOffThread, hashWorkerRunning } from ${JSON.stringify(workerModule)};
      import { poseidon2Hash } from ${JSON.stringify(hashModule)};
      const inputs = [[], [1n], [1n, 2n], [3n, 4n, 5n, 6n]];
      const got = await Promise.all(inputs.map((f) => poseidon2HashOffThread(f)));
      console.log(JSON.stringify({ same: got.every((h, i) => h === poseidon2Hash(inputs[i])), worker: hashWorkerRunning() }));
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, CAIRN_POSEIDON2: 'ts' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').at(-1)!), { same: true, worker: false });
  });
});
