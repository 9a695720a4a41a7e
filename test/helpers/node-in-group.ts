// A `cairn start` in a process group of its own, as a terminal runs it: a signal to the group
// (Ctrl-C sends SIGINT to the whole foreground group) reaches the node and every child that
// stayed in its group. For the tests of stops and restarts on one data directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { CAIRN_BIN, FREE_PORTS, readyUrls } from './process.js';

export interface GroupNode {
  readonly child: ChildProcess;
  readonly publicUrl: string;
  readonly adminUrl: string;
  output(): string;
  /** Sends `signal` to the node's whole process group; resolves with the node's exit code. */
  signalGroup(signal: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the node has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * A realtime dev chain that moves fast: L1 blocks of 1 s, slots of 4 s, epochs of 2 slots (so a
 * proof window, one epoch, is 8 s).
 */
export const FAST_REALTIME = [
  '--clock',
  'realtime',
  '--l1-block-time',
  '1',
  '--slot-duration',
  '4',
  '--epoch-duration',
  '2',
];

/** Starts `cairn start --data-dir <dataDir> <args>` on free ports in a new process group. */
export async function startInGroup(
  dataDir: string,
  args: string[],
  readyTimeoutMs = 60_000,
): Promise<GroupNode> {
  const readyFile = `${dataDir}.ready.json`;
  rmSync(readyFile, { force: true });
  const child = spawn(
    process.execPath,
    [CAIRN_BIN, 'start', '--data-dir', dataDir, ...FREE_PORTS, '--ready-file', readyFile, ...args],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const urls = await readyUrls(
    child,
    readyFile,
    () => output,
    readyTimeoutMs,
    () => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  );
  return {
    child,
    publicUrl: urls.public,
    adminUrl: urls.admin,
    output: () => output,
    exited,
    async signalGroup(signal) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
      return exited;
    },
  };
}

/** Whether a process with this pid is running (not a zombie). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
