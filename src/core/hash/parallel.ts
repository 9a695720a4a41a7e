// Hashes many pairs on both cores: a worker thread hashes the second half of a batch
// while this thread hashes the first, both with the native addon, meeting through shared
// memory. Synchronous for the caller. Small batches, no native addon, or a worker that is
// not ready yet (it starts in the background on first use) stay on one thread.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { poseidon2Backend, poseidon2HashPairs } from './poseidon2.js';

/**
 * The worker, as plain CommonJS so it runs the same from TypeScript sources and from dist/.
 * It loads the same addon, hashes the pairs it is sent, in shared memory, and flags
 * completion: control[0] is the job state (0 running, 1 done, -1 failed), control[1] is 1
 * once the worker is ready.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
const addon = require(workerData.addonPath);
Atomics.store(control, 1, 1);
parentPort.on('message', (job) => {
  try {
    addon.hashBatch(
      new Uint8Array(job.memory, job.inputOffset, job.pairs * 64),
      2,
      new Uint8Array(job.memory, job.outputOffset, job.pairs * 32),
    );
    Atomics.store(control, 0, 1);
  } catch {
    Atomics.store(control, 0, -1);
  }
  Atomics.notify(control, 0);
});
`;

/** Below this many pairs (~1.6 ms of hashing) a second thread does not pay for its hand-off. */
export const PARALLEL_MIN_PAIRS = 128;
/** A worker that takes longer than this for its half is given up on. */
const WORKER_TIMEOUT_MS = 5000;

interface Helper {
  worker: Worker;
  control: Int32Array;
  memory: SharedArrayBuffer;
}

let helper: Helper | undefined | null;

/** Starts the worker (once); returns it only when it has said it is ready. */
function readyHelper(): Helper | undefined {
  if (helper === undefined) startHelper();
  if (!helper || Atomics.load(helper.control, 1) !== 1) return undefined;
  return helper;
}

/** Starts the worker in the background, so it is ready by the time large batches come. */
export function startHelper(): void {
  if (helper !== undefined) return;
  helper = null;
  const backend = poseidon2Backend();
  if (availableParallelism() < 2 || backend.kind !== 'native' || backend.addonPath === undefined) return;
  try {
    const control = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { control: control.buffer, addonPath: backend.addonPath },
    });
    worker.unref();
    worker.on('error', () => {
      helper = null;
    });
    helper = { worker, control, memory: new SharedArrayBuffer(0) };
  } catch {
    helper = null;
  }
}

/** Like poseidon2HashPairs (n×64 bytes in, n×32 out), spread over two threads when large. */
export function hashPairsParallel(input: Uint8Array, output: Uint8Array): Uint8Array {
  const pairs = input.length / 64;
  const h = pairs >= PARALLEL_MIN_PAIRS ? readyHelper() : undefined;
  if (h === undefined) return poseidon2HashPairs(input, output);

  const mine = Math.ceil(pairs / 2);
  const theirs = pairs - mine;
  const need = theirs * 96;
  if (h.memory.byteLength < need) h.memory = new SharedArrayBuffer(Math.max(need, h.memory.byteLength * 2));
  const shared = new Uint8Array(h.memory);
  shared.set(input.subarray(mine * 64), 0);
  Atomics.store(h.control, 0, 0);
  h.worker.postMessage({
    memory: h.memory,
    inputOffset: 0,
    outputOffset: theirs * 64,
    pairs: theirs,
  });
  poseidon2HashPairs(input.subarray(0, mine * 64), output.subarray(0, mine * 32));
  // Wait for the worker (it runs on the other core, so this is brief).
  Atomics.wait(h.control, 0, 0, WORKER_TIMEOUT_MS);
  if (Atomics.load(h.control, 0) !== 1) {
    // The worker failed or hangs: stop using it, and do its half here.
    if (Atomics.load(h.control, 0) === 0) {
      void h.worker.terminate();
      helper = null;
    }
    poseidon2HashPairs(input.subarray(mine * 64), output.subarray(mine * 32));
    return output;
  }
  output.set(shared.subarray(theirs * 64, theirs * 96), mine * 32);
  return output;
}
