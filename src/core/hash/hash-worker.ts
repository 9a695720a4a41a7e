// Poseidon2 hashes computed on worker threads, one per core, for callers that can wait: a tx's
// hash is hundreds of permutations (the reference's kernel inputs, 1,281 or 2,784 fields), and its
// calldata and class logs thousands more, which admission must not run on the event loop; txs
// from peers arrive many at once (src/node/consensus.ts, txGossipHandler). Requests made before
// the event loop's next turn travel in batches to the least busy worker. Without the native addon
// or a second core, or after the workers fail, the hashes are computed here instead, with the same
// results.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Fr } from '../field.js';
import { poseidon2Backend, poseidon2Hash } from './poseidon2.js';

/**
 * The worker, as plain CommonJS so it runs the same from TypeScript sources and from dist/. It
 * loads the addon the main thread checked, and answers each batch of field lists with their
 * hashes (or the error's message).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const addon = require(workerData.addonPath);
parentPort.on('message', ({ id, lists }) => {
  try {
    parentPort.postMessage({ id, hashes: lists.map((fields) => addon.hash(fields)) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
});
`;

interface Request {
  fields: readonly Fr[];
  resolve: (hash: Fr) => void;
  reject: (err: unknown) => void;
}

interface Batch {
  requests: Request[];
}

interface Helper {
  worker: Worker;
  /** Batches sent and not answered yet, by id. */
  sent: Map<number, Batch>;
  nextId: number;
  /** Fields sent and not answered yet: how busy this worker is. */
  load: number;
}

interface Batch {
  requests: Request[];
  fields: number;
}

/** undefined: not started; null: not usable (hash on this thread). */
let helpers: Helper[] | undefined | null;
/** Requests of this turn, sent together at its end. */
let gathering: Request[] = [];

/** Hashes `fields` on this thread, settling the request. */
function hashHere(request: Request): void {
  try {
    request.resolve(poseidon2Hash(request.fields));
  } catch (err) {
    request.reject(err);
  }
}

/** Stops using a worker: whatever it was given is hashed here. */
function giveUp(h: Helper): void {
  if (helpers) {
    helpers = helpers.filter((other) => other !== h);
    if (helpers.length === 0) helpers = null;
  }
  for (const batch of h.sent.values()) for (const request of batch.requests) hashHere(request);
  h.sent.clear();
  h.load = 0;
  void h.worker.terminate();
}

/**
 * One worker per core: a tx's hash is one long sponge (hundreds of permutations) that cannot be
 * split, so txs arriving together are hashed in parallel, one per worker. The event loop mostly
 * waits meanwhile.
 */
function startHelpers(): Helper[] | null {
  const backend = poseidon2Backend();
  const cores = availableParallelism();
  if (cores < 2 || backend.kind !== 'native' || backend.addonPath === undefined) return null;
  const started: Helper[] = [];
  for (let i = 0; i < Math.min(cores, MAX_WORKERS); i++) {
    const h = startHelper(backend.addonPath);
    if (h) started.push(h);
  }
  return started.length > 0 ? started : null;
}

const MAX_WORKERS = 8;

function startHelper(addonPath: string): Helper | null {
  try {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { addonPath } });
    worker.unref();
    const h: Helper = { worker, sent: new Map(), nextId: 0, load: 0 };
    // An unref made before the thread is up does not hold for its port: again once it is, unless
    // it has work by then (a worker never given any would keep the process alive).
    worker.once('online', () => {
      if (h.sent.size === 0) worker.unref();
    });
    worker.on('message', (answer: { id: number; hashes?: Fr[]; error?: string }) => {
      const batch = h.sent.get(answer.id);
      if (batch === undefined) return;
      h.sent.delete(answer.id);
      h.load -= batch.fields;
      if (h.sent.size === 0) worker.unref();
      if (answer.hashes === undefined) {
        // A bad input (the addon checks ranges): find out which here, with this thread's errors.
        for (const request of batch.requests) hashHere(request);
        return;
      }
      const { hashes } = answer;
      batch.requests.forEach((request, i) => {
        request.resolve(hashes[i]!);
      });
    });
    worker.on('error', () => giveUp(h));
    worker.on('exit', () => giveUp(h));
    return h;
  } catch {
    return null;
  }
}

/**
 * What one message to a worker carries at most: answers come back in small batches, so the first
 * requests are answered (and their txs validated here) while the workers hash the rest; and a
 * batch of a few large requests is a share of the work another worker can take.
 */
const BATCH = 16;
const BATCH_FIELDS = 4096;

/** Sends a batch to the least busy worker; false if there is none left. */
function dispatch(requests: Request[], fields: number): boolean {
  while (helpers) {
    const h = helpers.reduce((best, other) => (other.load < best.load ? other : best));
    const id = h.nextId++;
    h.sent.set(id, { requests, fields });
    h.load += fields;
    // Keep the process alive while answers are owed, not while the worker idles.
    h.worker.ref();
    try {
      h.worker.postMessage({ id, lists: requests.map((r) => r.fields) });
      return true;
    } catch {
      h.sent.delete(id);
      giveUp(h);
    }
  }
  return false;
}

function send(): void {
  const requests = gathering;
  gathering = [];
  if (helpers === undefined) helpers = startHelpers();
  let batch: Request[] = [];
  let fields = 0;
  const flush = () => {
    if (batch.length === 0) return;
    if (!dispatch(batch, fields)) for (const request of batch) hashHere(request);
    batch = [];
    fields = 0;
  };
  for (const request of requests) {
    batch.push(request);
    fields += request.fields.length;
    if (batch.length >= BATCH || fields >= BATCH_FIELDS) flush();
  }
  flush();
}

/** `poseidon2Hash(fields)`, computed on the hash worker when there is one. */
export function poseidon2HashOffThread(fields: readonly Fr[]): Promise<Fr> {
  return new Promise<Fr>((resolve, reject) => {
    if (gathering.length === 0) setImmediate(send);
    gathering.push({ fields, resolve, reject });
  });
}

/**
 * Stops the worker; hashes it still owes are computed on this thread. The next request starts a
 * new worker.
 */
export function stopHashWorker(): void {
  const stopping = helpers ?? [];
  helpers = undefined;
  for (const h of stopping) giveUp(h);
}

/** Whether hashes currently go to a worker thread (false until the first request, or without one). */
export const hashWorkerRunning = (): boolean => Boolean(helpers && helpers.length > 0);

/** How many hash workers run (0 until the first request, or without any). */
export const hashWorkerCount = (): number => helpers?.length ?? 0;
