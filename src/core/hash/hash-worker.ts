// Poseidon2 hashes computed on a worker thread, for callers that can wait: a tx's hash is half of
// the time it takes to validate (~220 µs of ~450 µs), and txs from peers arrive many at once
// (src/node/consensus.ts, txGossipHandler). Requests made before the event loop's next turn travel to the worker as one
// message. Without the native addon or a second core, or after the worker fails, the hashes are
// computed here instead, with the same results.
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
}

/** undefined: not started; null: not usable (hash on this thread). */
let helper: Helper | undefined | null;
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

/** Stops using the worker: whatever it was given is hashed here. */
function giveUp(h: Helper): void {
  if (helper === h) helper = null;
  for (const batch of h.sent.values()) for (const request of batch.requests) hashHere(request);
  h.sent.clear();
  void h.worker.terminate();
}

function startHelper(): Helper | null {
  const backend = poseidon2Backend();
  if (availableParallelism() < 2 || backend.kind !== 'native' || backend.addonPath === undefined) return null;
  try {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { addonPath: backend.addonPath } });
    worker.unref();
    const h: Helper = { worker, sent: new Map(), nextId: 0 };
    worker.on('message', (answer: { id: number; hashes?: Fr[]; error?: string }) => {
      const batch = h.sent.get(answer.id);
      if (batch === undefined) return;
      h.sent.delete(answer.id);
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

/** Hashes per message to the worker: answers come back in small batches, so the first requests
 * are answered (and their txs validated here) while the worker hashes the rest. */
const BATCH = 16;

function send(): void {
  const requests = gathering;
  gathering = [];
  if (helper === undefined) helper = startHelper();
  const h = helper;
  if (h === null) {
    for (const request of requests) hashHere(request);
    return;
  }
  // Keep the process alive while answers are owed, not while the worker idles.
  h.worker.ref();
  for (let start = 0; start < requests.length; start += BATCH) {
    const batch = requests.slice(start, start + BATCH);
    if (helper !== h) {
      // Given up on the way (giveUp hashed what had been sent): the rest is hashed here.
      for (const request of batch) hashHere(request);
      continue;
    }
    const id = h.nextId++;
    h.sent.set(id, { requests: batch });
    try {
      h.worker.postMessage({ id, lists: batch.map((r) => r.fields) });
    } catch {
      giveUp(h);
    }
  }
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
  const h = helper;
  helper = undefined;
  if (h) giveUp(h);
}

/** Whether hashes currently go to a worker thread (false until the first request, or without one). */
export const hashWorkerRunning = (): boolean => Boolean(helper);
