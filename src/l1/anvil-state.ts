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
//   in a saved state, so a crash of node and L1 together can not take it back.
import { existsSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/** Parses and checks a state file; a file that is not a state (cut short, not JSON) is inconsistent. */
export function checkAnvilStateText(text: string): AnvilStateCheck {
  let state: AnvilStateJson;
  try {
    state = JSON.parse(text) as AnvilStateJson;
    if (typeof state !== 'object' || state === null || typeof state.accounts !== 'object')
      throw new Error('no accounts');
  } catch (err) {
    return {
      blockNumber: -1n,
      consistent: false,
      problem: `it is not a state file (${(err as Error).message})`,
    };
  }
  return checkAnvilState(state);
}

/** anvil's state as JSON text, through `anvil_dumpState` (which answers gzip as hex). */
export async function dumpAnvilState(rpcUrl: string, timeoutMs = 60_000): Promise<string> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (typeof body.result !== 'string')
    throw new Error(`anvil_dumpState failed: ${body.error?.message ?? 'no result'}`);
  const gz = Buffer.from(body.result.slice(2), 'hex');
  return (await promisify(gunzip)(gz)).toString('utf8');
}

export interface SavedStateLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The files of the embedded L1's saved state in its folder. */
export function stateFiles(dir: string): { current: string; previous: string; temp: string } {
  return {
    current: join(dir, 'anvil-state.json'),
    previous: join(dir, 'anvil-state.prev.json'),
    temp: join(dir, 'anvil-state.json.tmp'),
  };
}

const SAVE_ATTEMPTS = 5;

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

  constructor(
    dir: string,
    private readonly logger: SavedStateLogger,
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
      const check = checkAnvilStateText(await readFile(temp, 'utf8'));
      if (check.consistent && !existsSync(current)) await rename(temp, current);
      else await rm(temp, { force: true });
    }
    const inconsistent: { file: string; problem: string }[] = [];
    for (const file of [current, previous]) {
      if (!existsSync(file)) continue;
      const check = checkAnvilStateText(await readFile(file, 'utf8'));
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

  /** Saves anvil's state now (after a save under way). Resolves with the saved block, if any. */
  save(rpcUrl: string): Promise<bigint | undefined> {
    const run = this.saving.then(() => this.saveNow(rpcUrl));
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Resolves true once the saved state holds L1 block `block`, saving anvil's state if it does not yet. */
  async ensureSaved(rpcUrl: string, block: bigint): Promise<boolean> {
    if (this.saved !== undefined && this.saved >= block) return true;
    try {
      await this.save(rpcUrl);
    } catch (err) {
      this.logger.warn(`could not save the embedded L1's state: ${(err as Error).message}`);
    }
    return this.saved !== undefined && this.saved >= block;
  }

  /** Saves every `ms` while L1 has new blocks. */
  startTimer(rpcUrl: string, latestBlock: () => Promise<bigint>, ms: number): void {
    const tick = async (): Promise<void> => {
      try {
        const latest = await latestBlock();
        if (latest !== this.saved && latest !== this.failedAt) await this.save(rpcUrl);
      } catch (err) {
        this.logger.warn(`could not save the embedded L1's state: ${(err as Error).message}`);
      }
    };
    this.timer = setInterval(() => void tick(), ms);
    this.timer.unref();
  }

  /** Stops the timer and waits for a save under way. */
  async stopTimer(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.saving;
  }

  private async saveNow(rpcUrl: string): Promise<bigint | undefined> {
    let problem = '';
    let block = -1n;
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const text = await dumpAnvilState(rpcUrl);
      const check = checkAnvilStateText(text);
      if (check.consistent) {
        await this.write(text);
        this.saved = check.blockNumber;
        this.failedAt = undefined;
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

  /** Writes `text` as the newest state: temp file, fsync, current -> previous, temp -> current, fsync the folder. */
  private async write(text: string): Promise<void> {
    const { current, previous, temp } = this.files;
    const file = await open(temp, 'w');
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    if (existsSync(current)) await rename(current, previous);
    await rename(temp, current);
    const folder = await open(join(current, '..'), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }
}
