// Starts the built `cairn` command as a child process, as a user would run it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { result } from './rpc.js';

/** Flags for a node on free ports: public, admin and the embedded L1's. */
export const FREE_PORTS = ['--port', '0', '--admin-port', '0', '--l1-port', '0'];

export const CAIRN_BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface CairnProcess {
  readonly child: ChildProcess;
  readonly publicUrl: string;
  readonly adminUrl: string;
  readonly readyFile: string;
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cairn <args>` to completion (for commands expected to exit). */
export function runCairn(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 20_000,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CAIRN_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.join(' ')} did not exit within ${timeoutMs} ms\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Waits until a started `cairn start` writes its ready file, and returns the URLs in it. If the
 * node exits or `timeoutMs` passes first, `giveUp` cleans up and the error carries the output.
 */
export async function readyUrls(
  child: ChildProcess,
  readyFile: string,
  output: () => string,
  timeoutMs: number,
  giveUp: () => void,
): Promise<{ public: string; admin: string }> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      giveUp();
      throw new Error(`cairn did not become ready (exit ${child.exitCode}):\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return JSON.parse(readFileSync(readyFile, 'utf8')) as { public: string; admin: string };
}

/**
 * Starts `cairn start --ephemeral --port 0 --admin-port 0 --l1-port 0 --ready-file …` and waits until it listens.
 * `nodeFlags` go to Node itself (e.g. --cpu-prof, which NODE_OPTIONS does not allow).
 */
export async function startCairn(
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
  nodeFlags: string[] = [],
  /** How long to wait for the node to listen (it syncs what L1 holds first). */
  readyTimeoutMs = 20_000,
): Promise<CairnProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  const readyFile = join(dir, 'ready.json');
  const args = ['start', '--ephemeral', ...FREE_PORTS, '--ready-file', readyFile, ...extraArgs];
  const child = spawn(process.execPath, [...nodeFlags, CAIRN_BIN, ...args], {
    env: { ...process.env, ...env },
  });
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
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  );
  return {
    child,
    publicUrl: urls.public,
    adminUrl: urls.admin,
    readyFile,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      const code = await exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * For a node with the manual clock: a function that moves L1 to the next slot — after the last one
 * it moved to and after the slot L1 is in (other steps mine L1 blocks too) — so that the slot's
 * proposer builds; it resolves with the latest block number. `node` is read at each call, so the
 * node may be restarted in between.
 */
export function slotStepper(node: () => CairnProcess): () => Promise<number> {
  let slot = 0;
  return async () => {
    const { publicUrl, adminUrl } = node();
    slot = Math.max(slot, ((await result(publicUrl, 'svc_getSyncedL2SlotNumber')) as number | null) ?? 0) + 1;
    await result(adminUrl, 'svcDev_advanceToSlot', [slot]);
    return (await result(publicUrl, 'svc_getBlockNumber')) as number;
  };
}

/**
 * Flags that make another node follow `node`'s embedded L1: its L1 URL (from the node's output)
 * and its rollup contracts.
 */
export async function followerFlags(node: CairnProcess): Promise<string[]> {
  const info = (await result(node.publicUrl, 'svc_getNodeInfo')) as {
    l1ContractAddresses: Record<string, string>;
  };
  const a = info.l1ContractAddresses;
  const l1Url = /embedded L1 (http:\/\/[0-9.:]+)/.exec(node.output())?.[1];
  if (l1Url === undefined) throw new Error('the node runs no embedded L1 (no URL in its output)');
  const addresses = {
    rollupAddress: a.rollupAddress,
    registryAddress: a.registryAddress,
    inboxAddress: a.inboxAddress,
    outboxAddress: a.outboxAddress,
    feeJuiceAddress: a.feeJuiceAddress,
    feeJuicePortalAddress: a.feeJuicePortalAddress,
  };
  return ['--l1-rpc-url', l1Url, '--l1-contract-addresses', JSON.stringify(addresses)];
}
