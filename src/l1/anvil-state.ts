// The embedded L1's saved state: the node, not anvil, decides when anvil's state is written to
// disk, and writes only states it has checked.
//
// Why: anvil's own periodic dump (--state-interval) reads its blocks and then its accounts, while
// its miner writes the accounts of a new block before the block itself. A dump taken in between
// holds the storage of a transaction without the block that carries it (and its events); loaded
// after a crash, the rollup then reports a checkpoint that no L1 block proposes, and a node
// following it stalls. And a dump every few seconds lags behind what the node has seen, so a
// crash of both could lose an L1 block the node had already called final.
//
// So anvil only loads (--load-state), and the node dumps it through `anvil_dumpState`:
// - A dump is kept only if it is consistent: the state root of its accounts is the state root of
//   its latest block (`checkAnvilState`). A dump that raced the miner is taken again.
// - Writes are atomic: a temporary file, fsync, then renames; the previous state is kept as
//   `anvil-state.prev.json`.
// - At start, the newest consistent file is loaded; an inconsistent one is set aside (and said so
//   at error level), so the L1 resumes from the newest consistent state.
// - The archiver asks for a save before it calls a proof final (`ensureSaved`): what is final is
//   in a saved state, so a crash of node and L1 together can not take it back. Saving takes
//   about 5% of the time at most, asked for or not: once a dump takes long (a long L1 history),
//   an asked-for save waits its turn, and finality waits with it.
import { existsSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { gunzip } from 'node:zlib';
import { anvilStateRoot, type DumpedAccount } from './state-trie.js';

/** The parts of anvil's state file that the check reads. */
export interface AnvilStateJson {
  best_block_number?: number | string;
  block?: { number?: number | string };
  accounts: Record<string, DumpedAccount>;
  blocks?: { header: { number: string; stateRoot: string } }[];
}

export interface AnvilStateCheck {
  /** The latest block of the saved chain. */
  blockNumber: bigint;
  consistent: boolean;
  /** Why it is not consistent. */
  problem?: string;
}

/** Whether a saved state's accounts are exactly the state after its latest block. */
export function checkAnvilState(state: AnvilStateJson): AnvilStateCheck {
  const best = BigInt(state.best_block_number ?? state.block?.number ?? 0);
  if (best === 0n) {
    // Nothing mined: no account can have sent a transaction yet.
    const sender = Object.entries(state.accounts).find(([, a]) => BigInt(a.nonce) !== 0n);
    return sender === undefined
      ? { blockNumber: 0n, consistent: true }
      : {
          blockNumber: 0n,
          consistent: false,
          problem: `account ${sender[0]} has sent transactions, but no block was saved`,
        };
  }
  const headers = (state.blocks ?? []).map((b) => b.header).filter((h) => BigInt(h.number) === best);
  if (headers.length === 0)
    return { blockNumber: best, consistent: false, problem: `its latest block ${best} is not in it` };
  const root = anvilStateRoot(state.accounts);
  if (headers.some((h) => h.stateRoot.toLowerCase() === root)) return { blockNumber: best, consistent: true };
  return {
    blockNumber: best,
    consistent: false,
    problem:
      `its accounts are not the state of its latest block ${best} (state root ${root}, ` +
      `the block's ${headers[0]!.stateRoot}): it holds storage of transactions that no saved block carries`,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index just after the JSON value that starts at or after `i` in `bytes`. */
function skipValue(bytes: Uint8Array, i: number): number {
  while (isSpace(bytes[i])) i++;
  const first = bytes[i];
  if (first === undefined) throw new Error('the file ends early');
  if (first === QUOTE) {
    // The next quote not escaped (an odd number of backslashes before it escapes it).
    for (let j = bytes.indexOf(QUOTE, i + 1); j !== -1; j = bytes.indexOf(QUOTE, j + 1)) {
      let backslashes = 0;
      while (bytes[j - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return j + 1;
    }
    throw new Error('the file ends early');
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === QUOTE) i = skipValue(bytes, i) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
    }
    throw new Error('the file ends early');
  }
  while (
    i < bytes.length &&
    !isSpace(bytes[i]) &&
    bytes[i] !== 0x2c &&
    bytes[i] !== 0x7d &&
    bytes[i] !== 0x5d
  )
    i++;
  return i;
}

/**
 * The members (name -> [start, end) of the value) of the JSON object at `start`, or the elements
 * of the JSON array there: the structure of a large document without parsing its values.
 */
function membersOf(bytes: Uint8Array, start: number): { name: string; from: number; to: number }[] {
  let i = start;
  while (isSpace(bytes[i])) i++;
  const open = bytes[i];
  if (open !== 0x7b && open !== 0x5b) throw new Error('expected an object or an array');
  const members: { name: string; from: number; to: number }[] = [];
  i++;
  for (;;) {
    while (isSpace(bytes[i]) || bytes[i] === 0x2c) i++;
    if (bytes[i] === 0x7d || bytes[i] === 0x5d) return members;
    let name = '';
    if (open === 0x7b) {
      const end = skipValue(bytes, i);
      name = JSON.parse(Buffer.from(bytes.subarray(i, end)).toString('utf8')) as string;
      i = end;
      while (isSpace(bytes[i])) i++;
      if (bytes[i] !== 0x3a) throw new Error(`expected ':' after "${name}"`);
      i++;
    }
    while (isSpace(bytes[i])) i++;
    const to = skipValue(bytes, i);
    members.push({ name, from: i, to });
    i = to;
  }
}

const parseSlice = (bytes: Uint8Array, m: { from: number; to: number }): unknown =>
  JSON.parse(Buffer.from(bytes.subarray(m.from, m.to)).toString('utf8'));

/**
 * Checks a state file's bytes; one that is not a state (cut short, not JSON) is inconsistent.
 * Only the accounts and the block headers are parsed: a long chain's file is far larger than
 * what fits in one string, mostly blocks and transactions.
 */
export function checkAnvilStateBytes(file: Uint8Array | string): AnvilStateCheck {
  const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  let state: AnvilStateJson;
  try {
    const top = new Map(membersOf(bytes, 0).map((m) => [m.name, m]));
    const accounts = top.get('accounts');
    if (accounts === undefined) throw new Error('no accounts');
    const best = top.get('best_block_number');
    const block = top.get('block');
    const blocks = top.get('blocks');
    state = {
      accounts: parseSlice(bytes, accounts) as AnvilStateJson['accounts'],
      ...(best === undefined ? {} : { best_block_number: parseSlice(bytes, best) as number }),
      ...(block === undefined ? {} : { block: parseSlice(bytes, block) as AnvilStateJson['block'] }),
      blocks:
        blocks === undefined
          ? []
          : membersOf(bytes, blocks.from).map((b) => {
              const header = membersOf(bytes, b.from).find((m) => m.name === 'header');
              if (header === undefined) throw new Error('a block without a header');
              return { header: parseSlice(bytes, header) as { number: string; stateRoot: string } };
            }),
    };
  } catch (err) {
    return {
      blockNumber: -1n,
      consistent: false,
      problem: `it is not a state file (${(err as Error).message})`,
    };
  }
  return checkAnvilState(state);
}

/** The workerData members that make this module, loaded in a worker, do a job (end of the file). */
const CHECK_JOB = 'cairnAnvilStateCheck';
const DUMP_JOB = 'cairnAnvilStateDump';

/** State files from this size on are checked in a worker thread (about 15 ms of checking per MB). */
const OFF_THREAD_BYTES = 2 * 1024 * 1024;

/** A job's failure inside the worker (as opposed to a worker that could not run at all). */
class WorkerJobError extends Error {}

/** Runs this module in a worker thread with `job` as its workerData and resolves with its answer. */
function inWorker<T>(job: Record<string, unknown>): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.once('message', (answer: { ok: T } | { failed: string }) => {
      void worker.terminate();
      if ('failed' in answer) reject(new WorkerJobError(answer.failed));
      else resolvePromise(answer.ok);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the L1 state worker ended (${code}) without an answer`)));
  });
}

/** checkAnvilStateBytes in a worker thread, which runs this module (see the end of the file). */
export function checkAnvilStateInWorker(bytes: Uint8Array): Promise<AnvilStateCheck> {
  return inWorker({ [CHECK_JOB]: bytes });
}

/** A dump of anvil's state and what checkAnvilStateBytes says of it. */
export interface CheckedDump {
  bytes: Uint8Array;
  check: AnvilStateCheck;
}

/**
 * dumpAnvilState and checkAnvilStateBytes in a worker thread: a dump is tens of MB of JSON-quoted
 * hex and a hundred MB or more once unzipped, and parsing, decoding and copying it on the event
 * loop held it for 50–150 ms per save. The bytes come back transferred, not copied.
 */
export function dumpAndCheckInWorker(rpcUrl: string): Promise<CheckedDump> {
  return inWorker({ [DUMP_JOB]: rpcUrl });
}

/**
 * Checks a large state in a worker thread, so that a long chain's check (mostly hashing its
 * storage tries) does not hold up the event loop; a small one, or one whose worker cannot run
 * (the TypeScript sources under tsx), is checked in place.
 */
export async function checkAnvilStateOffThread(
  bytes: Uint8Array,
  minBytes = OFF_THREAD_BYTES,
): Promise<AnvilStateCheck> {
  if (bytes.length >= minBytes && workerRuns) {
    try {
      return await checkAnvilStateInWorker(bytes);
    } catch {
      // Not tried again: checked in place from now on.
      workerRuns = false;
    }
  }
  return checkAnvilStateBytes(bytes);
}

/** Dumps and checks anvil's state in a worker thread, or in place where a worker cannot run. */
export async function dumpAndCheck(rpcUrl: string): Promise<CheckedDump> {
  if (workerRuns) {
    try {
      return await dumpAndCheckInWorker(rpcUrl);
    } catch (err) {
      if (err instanceof WorkerJobError) throw new Error(err.message);
      // Not tried again: done in place from now on.
      workerRuns = false;
    }
  }
  const bytes = await dumpAnvilState(rpcUrl);
  return { bytes, check: await checkAnvilStateOffThread(bytes) };
}

/** Whether the worker can run here (until it failed once). */
let workerRuns = true;

/** anvil's state as JSON (bytes), through `anvil_dumpState` (which answers gzip as hex). */
export async function dumpAnvilState(rpcUrl: string, timeoutMs = 60_000): Promise<Buffer> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (typeof body.result !== 'string')
    throw new Error(`anvil_dumpState failed: ${body.error?.message ?? 'no result'}`);
  return promisify(gunzip)(await hexToBytesInSlices(body.result, 2));
}

/** Hex characters decoded per turn of the event loop (~5 ms): a dump's hex runs to tens of MB. */
const HEX_CHARS_PER_SLICE = 1 << 21;

/** Decodes `hex` from `start` (an even number of hex digits) in slices, yielding between them. */
export async function hexToBytesInSlices(hex: string, start = 0): Promise<Buffer> {
  const out = Buffer.allocUnsafe((hex.length - start) >>> 1);
  let written = 0;
  for (let at = start; at < hex.length; at += HEX_CHARS_PER_SLICE) {
    const slice = hex.slice(at, Math.min(hex.length, at + HEX_CHARS_PER_SLICE));
    const bytes = out.write(slice, written, 'hex');
    if (bytes * 2 !== slice.length) throw new Error(`not hex at character ${at + bytes * 2}`);
    written += bytes;
    if (at + HEX_CHARS_PER_SLICE < hex.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

export interface SavedStateLogger {
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The files of the embedded L1's saved state in its folder. */
export function stateFiles(dir: string): {
  current: string;
  previous: string;
  temp: string;
  genesis: string;
} {
  return {
    current: join(dir, 'anvil-state.json'),
    previous: join(dir, 'anvil-state.prev.json'),
    temp: join(dir, 'anvil-state.json.tmp'),
    // The L1 as the node deployed it, before any checkpoint: what svcDev_reset goes back to.
    genesis: join(dir, 'anvil-genesis-state.json'),
  };
}

const SAVE_ATTEMPTS = 5;
/** Saves start at most once per this many times the last save's duration (about 5% of the time). */
const SAVE_BUDGET_FACTOR = 20;
/** A save shorter than this is made whenever asked for. */
const CHEAP_SAVE_MS = 250;

/**
 * The embedded L1's state on disk: picks the state to start from, and saves anvil's state when
 * asked, on a timer and before the L1 stops.
 */
export class SavedL1State {
  private readonly files: ReturnType<typeof stateFiles>;
  /** The latest block of the newest consistent state on disk. */
  private saved: bigint | undefined;
  /** The save under way: saves never overlap. */
  private saving: Promise<void> = Promise.resolve();
  /** The L1 block at which the last save found no consistent state (not tried again until L1 moves). */
  private failedAt: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerStopped = true;
  /** When the last save ended and how long it took (ms): an asked-for save waits SAVE_BUDGET_FACTOR times as long. */
  private lastSave = { endedAt: 0, tookMs: 0 };
  /** Told once a save holds their block (see whenSaved). */
  private waiters: { block: bigint; resolve: () => void }[] = [];

  constructor(
    dir: string,
    private readonly logger: SavedStateLogger,
    /** Below this duration (ms) a save is made whenever asked for (tests lower it). */
    private readonly cheapSaveMs = CHEAP_SAVE_MS,
  ) {
    this.files = stateFiles(dir);
  }

  /** The latest L1 block the saved state holds; undefined before the first save. */
  get savedBlock(): bigint | undefined {
    return this.saved;
  }

  /**
   * Chooses the state to start anvil from, and returns its file (undefined: none, a new chain).
   * A save cut short between its renames is completed first. Then the newest consistent state
   * wins: newer inconsistent ones are renamed aside (kept for inspection) and said so at error
   * level; the L1 resumes from the consistent one, which loses the L1 blocks after it, as an L1
   * reorg would, and the archiver unwinds what it had of them. With no consistent state at all,
   * the newest is loaded anyway, at error level: the archiver then reports where the rollup
   * disagrees with its events.
   */
  async chooseStart(): Promise<string | undefined> {
    const { current, previous, temp } = this.files;
    if (existsSync(temp)) {
      // Written and synced in full before the renames begin; only a complete, consistent one counts.
      const check = await checkAnvilStateOffThread(await readFile(temp));
      if (check.consistent && !existsSync(current)) await rename(temp, current);
      else await rm(temp, { force: true });
    }
    const inconsistent: { file: string; problem: string }[] = [];
    for (const file of [current, previous]) {
      if (!existsSync(file)) continue;
      const check = await checkAnvilStateOffThread(await readFile(file));
      if (!check.consistent) {
        inconsistent.push({ file, problem: check.problem ?? '' });
        continue;
      }
      for (const bad of inconsistent) {
        const aside = bad.file.replace(
          /\.json$/,
          `.inconsistent-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
        );
        await rename(bad.file, aside);
        this.logger.error(
          `the embedded L1's saved state ${bad.file} is inconsistent: ${bad.problem}. It was moved to ` +
            `${aside}; the L1 resumes from ${file} (L1 block ${check.blockNumber}): later L1 blocks are ` +
            'lost, as in an L1 reorg, and the node syncs again from there',
        );
      }
      this.saved = check.blockNumber;
      // The state in use is the newest: the next save moves it to `previous`.
      if (file !== current) await rename(file, current);
      return current;
    }
    if (inconsistent.length === 0) return undefined;
    this.logger.error(
      `the embedded L1 has no consistent saved state (${inconsistent.map((b) => `${b.file}: ${b.problem}`).join('; ')}); ` +
        `it starts from ${inconsistent[0]!.file} anyway: its rollup may count checkpoints or proofs that none of its blocks hold`,
    );
    if (inconsistent[0]!.file !== current) await rename(inconsistent[0]!.file, current);
    return current;
  }

  /**
   * Keeps the state just saved as the L1's genesis: called once, when the node has deployed the
   * protocol on a new L1 and saved it, before any checkpoint.
   */
  async keepAsGenesis(): Promise<void> {
    await this.saving;
    await this.writeFile(this.files.genesis, await readFile(this.files.current));
  }

  /** The genesis state kept by keepAsGenesis (JSON bytes); undefined if there is none. */
  async genesis(): Promise<Uint8Array | undefined> {
    return existsSync(this.files.genesis) ? readFile(this.files.genesis) : undefined;
  }

  /** Saves anvil's state now (after a save under way). Resolves with the saved block, if any. */
  save(rpcUrl: string): Promise<bigint | undefined> {
    const run = this.saving.then(() => this.saveNow(rpcUrl));
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Saves anvil's state now as a new history (after a save under way): anvil went back to an
   * earlier state (evm_revert), so the saved state may hold blocks it no longer has, and what was
   * known saved no longer counts. Resolves with the saved block, undefined if it could not save.
   */
  saveReplaced(rpcUrl: string): Promise<bigint | undefined> {
    const run = this.saving.then(() => {
      this.saved = undefined;
      this.failedAt = undefined;
      return this.saveNow(rpcUrl);
    });
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Resolves true once the saved state holds L1 block `block`, saving anvil's state if it does not
   * yet — at once while saves are cheap, else only when the save budget allows (false until then).
   */
  async ensureSaved(rpcUrl: string, block: bigint): Promise<boolean> {
    if (this.saved !== undefined && this.saved >= block) return true;
    const { endedAt, tookMs } = this.lastSave;
    if (tookMs >= this.cheapSaveMs && Date.now() - endedAt < SAVE_BUDGET_FACTOR * tookMs) return false;
    try {
      await this.save(rpcUrl);
    } catch (err) {
      this.logger.warn(`could not save the embedded L1's state: ${(err as Error).message}`);
    }
    return this.saved !== undefined && this.saved >= block;
  }

  /**
   * Resolves once a save holds L1 block `block` (at once if one does): what a refused
   * ensureSaved waits for, as the timer's saves go on. Never resolves if no save ever does.
   */
  whenSaved(block: bigint): Promise<void> {
    if (this.saved !== undefined && this.saved >= block) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ block, resolve }));
  }

  /**
   * Saves while L1 has new blocks: `ms` after the previous save, or 20 times as long as it took
   * if that is longer (a save costs about 0.7 ms per L1 block of history, see
   * docs/performance.md), so saving takes at most about 5% of the time.
   */
  startTimer(rpcUrl: string, latestBlock: () => Promise<bigint>, ms: number): void {
    this.timerStopped = false;
    const tick = async (): Promise<void> => {
      const started = Date.now();
      try {
        const latest = await latestBlock();
        if (latest !== this.saved && latest !== this.failedAt) await this.save(rpcUrl);
      } catch (err) {
        this.logger.warn(`could not save the embedded L1's state: ${(err as Error).message}`);
      }
      if (this.timerStopped) return;
      this.timer = setTimeout(() => void tick(), Math.max(ms, SAVE_BUDGET_FACTOR * (Date.now() - started)));
      this.timer.unref();
    };
    this.timer = setTimeout(() => void tick(), ms);
    this.timer.unref();
  }

  /** Stops the timer and waits for a save under way. */
  async stopTimer(): Promise<void> {
    this.timerStopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.saving;
  }

  private async saveNow(rpcUrl: string): Promise<bigint | undefined> {
    const started = Date.now();
    try {
      return await this.dumpAndWrite(rpcUrl);
    } finally {
      this.lastSave = { endedAt: Date.now(), tookMs: Date.now() - started };
    }
  }

  private async dumpAndWrite(rpcUrl: string): Promise<bigint | undefined> {
    let problem = '';
    let block = -1n;
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const started = Date.now();
      const { bytes: dumped, check } = await dumpAndCheck(rpcUrl);
      this.logger.debug?.(
        `dumped and checked the embedded L1's state (${(dumped.length / 2 ** 20).toFixed(1)} MB) in ${Date.now() - started} ms`,
      );
      // The same block as the saved state is the same state: kept as it is (and the previous one with it).
      if (check.consistent && check.blockNumber === this.saved) return check.blockNumber;
      if (check.consistent) {
        await this.write(dumped);
        this.saved = check.blockNumber;
        this.failedAt = undefined;
        this.tellWaiters(check.blockNumber);
        return check.blockNumber;
      }
      // A block was being mined while anvil dumped: once it is done, a dump is consistent again.
      problem = check.problem ?? '';
      block = check.blockNumber;
      await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
    }
    this.failedAt = block;
    this.logger.warn(
      `the embedded L1's state was not saved: ${SAVE_ATTEMPTS} dumps in a row were inconsistent (the last: ${problem})`,
    );
    return undefined;
  }

  private tellWaiters(saved: bigint): void {
    const told = this.waiters.filter((w) => w.block <= saved);
    this.waiters = this.waiters.filter((w) => w.block > saved);
    for (const w of told) w.resolve();
  }

  /** Writes `state` as the newest state: temp file, fsync, current -> previous, temp -> current, fsync the folder. */
  private async write(state: Uint8Array): Promise<void> {
    const { current, previous, temp } = this.files;
    await writeSynced(temp, state);
    if (existsSync(current)) await rename(current, previous);
    await rename(temp, current);
    await syncFolder(current);
  }

  /** Writes `bytes` to `path` atomically: a synced temporary file renamed over it. */
  private async writeFile(path: string, bytes: Uint8Array): Promise<void> {
    await writeSynced(`${path}.tmp`, bytes);
    await rename(`${path}.tmp`, path);
    await syncFolder(path);
  }
}

async function writeSynced(path: string, bytes: Uint8Array): Promise<void> {
  const file = await open(path, 'w');
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Makes the renames in the folder of `path` durable. */
async function syncFolder(path: string): Promise<void> {
  const folder = await open(join(path, '..'), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

// In a worker of inWorker: do the job in workerData, answer, and end.
if (!isMainThread && parentPort !== null) {
  const job = (workerData ?? {}) as Record<string, unknown>;
  const port = parentPort;
  if (job[CHECK_JOB] !== undefined) {
    port.postMessage({ ok: checkAnvilStateBytes(job[CHECK_JOB] as Uint8Array) });
  } else if (typeof job[DUMP_JOB] === 'string') {
    try {
      const dumped = await dumpAnvilState(job[DUMP_JOB]);
      const check = checkAnvilStateBytes(dumped);
      // Transferred whole: a copy if the bytes are a view into a larger buffer.
      const bytes =
        dumped.byteOffset === 0 && dumped.byteLength === dumped.buffer.byteLength
          ? dumped
          : Uint8Array.from(dumped);
      port.postMessage({ ok: { bytes, check } }, [bytes.buffer as ArrayBuffer]);
    } catch (err) {
      port.postMessage({ failed: (err as Error).message });
    }
  }
}
