// The embedded L1: anvil (from the npm package @foundry-rs/anvil) as a child process on a loopback
// port, with its state in a file that survives restarts.
//
// anvil is started with
//   --host 127.0.0.1 --port <port|0> --chain-id <id> (--no-mining | --block-time <s>) --color never
// and one of
//   --state <file> --state-interval <s>: anvil loads the file when it exists and dumps the chain to
//     it on exit (SIGINT/SIGTERM) and every <s> seconds (for tests and stand-alone L1s);
//   --load-state <file>: anvil only loads the file; the caller saves the state when it chooses
//     (the node does, see anvil-state.ts for why).
// anvil runs in a session of its own (see the spawn below), so the owner decides when it stops;
// an owner that exits stops it on the way out (the exit hook), one killed outright leaves it to
// the next owner of its state (connect.ts stops such an orphan after saving its state).
// With port 0 anvil binds a free port itself and prints it ("Listening on 127.0.0.1:<port>"), which
// avoids the race of probing a port first. The instance is ready once it answers eth_chainId.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { createPublicClient, http } from 'viem';

/** The subset of a pino logger that startAnvil uses. */
export interface AnvilLogger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
}

export interface StartAnvilOptions {
  /** A state file anvil loads if it exists and writes periodically and on exit. Its folder is created. */
  stateFile?: string | undefined;
  /** A state file anvil loads and never writes (the caller saves the state). */
  loadStateFile?: string | undefined;
  chainId: number;
  /** Seconds between automatically mined blocks; undefined = mine only on request (`--no-mining`). */
  blockTime?: number | undefined;
  /** Loopback port; 0 (the default) lets anvil pick a free one. */
  port?: number | undefined;
  /** Seconds between periodic dumps to `stateFile` (default 5). */
  stateIntervalSeconds?: number | undefined;
  /** Timestamp of the genesis block of a fresh chain (ignored when a state is loaded). */
  genesisTimestamp?: number | bigint | undefined;
  /** Ether balance of each of anvil's dev accounts (default: anvil's 10000). */
  balanceEth?: number | undefined;
  /** Path of the anvil binary (default: the one from @foundry-rs/anvil). */
  binary?: string | undefined;
  /** How long to wait for anvil to answer (default 20 s). */
  startTimeoutMs?: number | undefined;
  /** How long stop() waits after SIGTERM before SIGKILL (default 10 s). */
  stopTimeoutMs?: number | undefined;
  logger?: AnvilLogger | undefined;
}

export interface AnvilInstance {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string;
  port: number;
  chainId: number;
  /** The file anvil writes its state to, if any (`stateFile`). */
  stateFile: string | undefined;
  /** Stops anvil gracefully (SIGTERM, so it writes its state file if it has one; SIGKILL after a timeout). Idempotent. */
  stop(): Promise<void>;
  process: ChildProcess;
}

const DEFAULT_START_TIMEOUT_MS = 20_000;
const DEFAULT_STOP_TIMEOUT_MS = 10_000;
const DEFAULT_STATE_INTERVAL_S = 5;
const LISTENING_RE = /Listening on (?:[0-9.]+|\[[0-9a-fA-F:]+\]):(\d+)/;

interface AnvilCommand {
  command: string;
  prefixArgs: string[];
  env: NodeJS.ProcessEnv;
}

/** Finds the anvil binary: the platform package of @foundry-rs/anvil, else its node shim. */
export function resolveAnvilBinary(): AnvilCommand {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  // e.g. @foundry-rs/anvil-linux-amd64/bin/anvil
  try {
    const binary = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${exe}`);
    return { command: binary, prefixArgs: [], env: process.env };
  } catch {
    // fall back to the package's node shim
  }
  try {
    const shim = require.resolve('@foundry-rs/anvil/bin.mjs');
    return { command: process.execPath, prefixArgs: [shim], env: { ...process.env, TARGET_TOOL: 'anvil' } };
  } catch {
    // fall through
  }
  const local = resolve('node_modules', '.bin', exe);
  if (existsSync(local)) return { command: local, prefixArgs: [], env: process.env };
  throw new Error('anvil not found: install @foundry-rs/anvil');
}

/** Live children, stopped (SIGTERM) if this process exits without stopping them. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of liveChildren) {
      try {
        child.kill('SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}

/** Starts anvil and resolves once it answers eth_chainId with `chainId`. */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const { stateFile, loadStateFile, chainId, logger } = options;
  if (stateFile !== undefined && loadStateFile !== undefined)
    throw new Error('give anvil either a state file it writes or one it only loads, not both');
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`invalid chain id ${chainId}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${port}`);
  const blockTime = options.blockTime;
  if (blockTime !== undefined && !(blockTime > 0)) throw new Error(`invalid block time ${blockTime}`);
  const stateInterval = options.stateIntervalSeconds ?? DEFAULT_STATE_INTERVAL_S;
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;

  const statePath = stateFile === undefined ? undefined : resolve(stateFile);
  if (statePath !== undefined) mkdirSync(dirname(statePath), { recursive: true });

  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--color',
    'never',
  ];
  if (statePath !== undefined) args.push('--state', statePath, '--state-interval', String(stateInterval));
  if (loadStateFile !== undefined) args.push('--load-state', resolve(loadStateFile));
  if (blockTime === undefined) args.push('--no-mining');
  else args.push('--block-time', String(blockTime));
  if (options.genesisTimestamp !== undefined) args.push('--timestamp', String(options.genesisTimestamp));
  if (options.balanceEth !== undefined) args.push('--balance', String(options.balanceEth));

  const cmd: AnvilCommand = options.binary
    ? { command: options.binary, prefixArgs: [], env: process.env }
    : resolveAnvilBinary();
  logger?.debug(`starting anvil: ${cmd.command} ${[...cmd.prefixArgs, ...args].join(' ')}`);
  // In a session of its own: a terminal's Ctrl-C (SIGINT to its whole foreground process group)
  // or hang-up must reach only the node, which saves the L1's state and then stops anvil itself.
  // Had anvil died with the node, the final save would find no L1 to read.
  const child = spawn(cmd.command, [...cmd.prefixArgs, ...args], {
    env: cmd.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  liveChildren.add(child);
  installExitHook();

  let output = '';
  let exited = false;
  let exitCode: number | null = null;
  let exitSignal: NodeJS.Signals | null = null;
  const exitPromise = new Promise<void>((resolveExit) => {
    const markExited = (): void => {
      exited = true;
      liveChildren.delete(child);
      resolveExit();
    };
    child.once('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      markExited();
    });
    child.on('error', (err) => {
      output += `\n${String(err)}`;
      // A process that could not be spawned never emits 'exit'.
      if (child.pid === undefined) markExited();
    });
  });

  let boundPort: number | undefined;
  let onPort: ((p: number) => void) | undefined;
  const onData = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    // Keep only the tail, for error messages.
    output = (output + text).slice(-8192);
    if (boundPort === undefined) {
      const m = LISTENING_RE.exec(output);
      if (m) {
        boundPort = Number(m[1]);
        onPort?.(boundPort);
      }
    }
    if (logger) {
      for (const line of text.split('\n')) if (line.trim()) logger.debug(`anvil: ${line.trimEnd()}`);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  const kill = async (): Promise<void> => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!exited) {
        logger?.warn(`anvil did not stop within ${stopTimeoutMs} ms, killing it`);
        child.kill('SIGKILL');
      }
    }, stopTimeoutMs);
    await exitPromise;
    clearTimeout(timer);
  };

  const describeExit = (): string =>
    `anvil exited (code ${exitCode}, signal ${exitSignal}) before it was ready:\n${output.trim()}`;

  try {
    const deadline = Date.now() + startTimeoutMs;
    const actualPort = await new Promise<number>((resolvePort, rejectPort) => {
      if (boundPort !== undefined) return resolvePort(boundPort);
      const timer = setTimeout(
        () => rejectPort(new Error(`anvil did not start listening within ${startTimeoutMs} ms:\n${output}`)),
        startTimeoutMs,
      );
      onPort = (p) => {
        clearTimeout(timer);
        resolvePort(p);
      };
      void exitPromise.then(() => {
        clearTimeout(timer);
        rejectPort(new Error(describeExit()));
      });
    });
    const rpcUrl = `http://127.0.0.1:${actualPort}`;
    for (;;) {
      if (exited) throw new Error(describeExit());
      try {
        const answered = await rpcChainId(rpcUrl);
        if (answered !== chainId) {
          throw new Error(`anvil answered chain id ${answered}, expected ${chainId}`);
        }
        break;
      } catch (err) {
        if (err instanceof Error && err.message.startsWith('anvil answered')) throw err;
        if (Date.now() > deadline)
          throw new Error(`anvil at ${rpcUrl} did not answer within ${startTimeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const state = statePath ?? (loadStateFile === undefined ? 'in memory' : `loaded from ${loadStateFile}`);
    logger?.info(`anvil listening on ${rpcUrl} (chain id ${chainId}, state ${state})`);

    let stopping: Promise<void> | undefined;
    return {
      rpcUrl,
      port: actualPort,
      chainId,
      stateFile: statePath,
      process: child,
      stop: () => {
        stopping ??= kill();
        return stopping;
      },
    };
  } catch (err) {
    await kill();
    throw err;
  }
}

async function rpcChainId(rpcUrl: string): Promise<number> {
  // One try with a short timeout: the caller polls until anvil answers.
  return createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 2000 }) }).getChainId();
}
