// Signing L1 transactions off the event loop. A proposal carries the checkpoint body in its
// calldata (~330 KB when the checkpoint is full), and viem's local signing serializes it and
// keccak-hashes it in JavaScript: 70-140 ms of the main thread per proposal on a small machine,
// during which no request is answered. Accounts made by `accountFromKey` sign their transactions
// in a worker thread instead (`signingOffThread`); messages and typed data, which are small, are
// signed here. If the worker cannot be used, signing falls back to this thread.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Hex, LocalAccount, TransactionSerializable } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount, toAccount } from 'viem/accounts';

/** The worker, as plain CommonJS (it runs the same from TypeScript sources and from dist/). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { privateKeyToAccount } = require(workerData.accountsModule);
const accounts = new Map();
parentPort.on('message', async ({ id, key, tx }) => {
  try {
    let account = accounts.get(key);
    if (account === undefined) accounts.set(key, (account = privateKeyToAccount(key)));
    parentPort.postMessage({ id, signed: await account.signTransaction(tx) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
`;

const keys = new WeakMap<PrivateKeyAccount, Hex>();

/** An account for a private key whose transactions `signingOffThread` can sign in the worker. */
export function accountFromKey(key: Hex): PrivateKeyAccount {
  const account = privateKeyToAccount(key);
  keys.set(account, key);
  return account;
}

type Pending = { resolve(signed: Hex): void; reject(err: Error): void };

let worker: { thread: Worker; pending: Map<number, Pending>; nextId: number } | null | undefined;

function signer(): NonNullable<typeof worker> | undefined {
  if (worker === undefined) {
    worker = null;
    try {
      const accountsModule = createRequire(import.meta.url).resolve('viem/accounts');
      const thread = new Worker(WORKER_SOURCE, { eval: true, workerData: { accountsModule } });
      const started = { thread, pending: new Map<number, Pending>(), nextId: 0 };
      thread.on('message', ({ id, signed, error }: { id: number; signed?: Hex; error?: string }) => {
        const job = started.pending.get(id);
        started.pending.delete(id);
        if (started.pending.size === 0) thread.unref();
        if (error === undefined) job?.resolve(signed!);
        else job?.reject(new Error(error));
      });
      const fail = (err: Error) => {
        worker = null;
        for (const job of started.pending.values()) job.reject(err);
        started.pending.clear();
      };
      thread.on('error', fail);
      thread.on('exit', (code) => fail(new Error(`the L1 signing thread stopped (exit code ${code})`)));
      // Held open only while a signature is awaited (after the listeners, which would ref it).
      thread.unref();
      worker = started;
    } catch {
      worker = null;
    }
  }
  return worker ?? undefined;
}

/** Signs in the worker; undefined when the worker is not available. */
function signInWorker(key: Hex, tx: TransactionSerializable): Promise<Hex> | undefined {
  const w = signer();
  if (w === undefined) return undefined;
  // Only the transaction's own fields cross to the worker (no account, chain or functions).
  const plain = Object.fromEntries(
    Object.entries(tx).filter(([k, v]) => k !== 'account' && k !== 'chain' && typeof v !== 'function'),
  );
  const id = w.nextId++;
  return new Promise<Hex>((resolve, reject) => {
    w.pending.set(id, { resolve, reject });
    w.thread.ref();
    try {
      w.thread.postMessage({ id, key, tx: plain });
    } catch (err) {
      w.pending.delete(id);
      if (w.pending.size === 0) w.thread.unref();
      reject(err as Error);
    }
  });
}

/**
 * The account to send transactions from: for one made by `accountFromKey`, the same account
 * with its transactions signed in the worker; any other account as it is.
 */
export function signingOffThread(account: PrivateKeyAccount): PrivateKeyAccount | LocalAccount {
  const key = keys.get(account);
  if (key === undefined) return account;
  return toAccount({
    address: account.address,
    signMessage: (args) => account.signMessage(args),
    signTypedData: (args) => account.signTypedData(args),
    async signTransaction(tx, options) {
      // A chain's own serializer cannot cross to the worker: sign here.
      if (options?.serializer !== undefined) return account.signTransaction(tx, options);
      const inWorker = signInWorker(key, tx);
      if (inWorker === undefined) return account.signTransaction(tx);
      try {
        return await inWorker;
      } catch {
        return account.signTransaction(tx);
      }
    },
  });
}
