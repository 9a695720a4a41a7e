// The data directory: created on start, locked so that two nodes never share it,
// and for --ephemeral a fresh temporary directory that is removed on exit.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface DataDir {
  readonly path: string;
  readonly ephemeral: boolean;
  /**
   * The pid of the node that held the directory last and never released it: that node was
   * killed or crashed (its stores recover on open; the node checks what they hold).
   */
  readonly uncleanShutdownOf: number | undefined;
  /** Releases the lock; removes the directory when ephemeral. */
  release(): void;
}

const LOCK_FILE = 'cairn.lock';
/** Directories this process holds, so that two nodes in one process cannot share one either. */
const heldHere = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A killed process stays in the process table until its parent reaps it, and in a container
 * whose init does not reap, that can take a while: it answers kill(pid, 0) but holds nothing.
 */
function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state ...", comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return false; // no /proc (not Linux), or the process just went: kill(pid, 0) decided
  }
}

/** What a node says when another process holds its data directory. */
const inUse = (dir: string, pid: number) =>
  `data directory ${dir} is in use by another cairn process (pid ${pid}): stop that node, or give this one another --data-dir`;

/**
 * The pid of another live process that holds `configured`'s lock, without taking the lock: the
 * CLI asks before it checks ports, so that a second node on one directory says that first.
 * openDataDir still takes the lock (a node that starts in between is refused there).
 */
export function dataDirHolder(configured: string): number | undefined {
  const path = resolve(configured);
  if (heldHere.has(path)) return process.pid;
  let holder: number;
  try {
    holder = Number.parseInt(readFileSync(join(path, LOCK_FILE), 'utf8'), 10);
  } catch {
    return undefined; // no lock (or no directory yet)
  }
  return Number.isInteger(holder) && holder !== process.pid && processAlive(holder) ? holder : undefined;
}

/** The error of a directory `holder` holds, as openDataDir and the CLI's preflight word it. */
export function dataDirInUseMessage(configured: string, holder: number): string {
  const path = resolve(configured);
  return holder === process.pid
    ? `data directory ${path} is already in use by this process`
    : inUse(path, holder);
}

function takeLock(dir: string): { lockPath: string; staleHolder: number | undefined } {
  const lockPath = join(dir, LOCK_FILE);
  let staleHolder: number | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { lockPath, staleHolder };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new Error(inUse(dir, holder));
      }
      // A lock left by a process that no longer runs: take it over.
      staleHolder = Number.isInteger(holder) ? holder : 0;
      unlinkSync(lockPath);
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}

export function openDataDir(configured: string, ephemeral: boolean): DataDir {
  const path = ephemeral ? mkdtempSync(join(tmpdir(), 'cairn-')) : resolve(configured);
  mkdirSync(path, { recursive: true });
  if (heldHere.has(path)) throw new Error(dataDirInUseMessage(path, process.pid));
  const { lockPath, staleHolder } = takeLock(path);
  heldHere.add(path);
  let released = false;
  return {
    path,
    ephemeral,
    uncleanShutdownOf: staleHolder,
    release() {
      if (released) return;
      released = true;
      heldHere.delete(path);
      if (ephemeral) rmSync(path, { recursive: true, force: true });
      else rmSync(lockPath, { force: true });
    },
  };
}
