#!/usr/bin/env node
// The `cairn` command.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config/load.js';
import { NODE_VERSION } from '../core/version.js';
import { createLogger } from '../node/logger.js';
import { bannerStyleFor, setBannerStyle } from './banner.js';
import { addChainCommands } from './chain.js';
import { addContractCommand } from './contract.js';
import { addDevCommand } from './dev.js';
import { wrapHelp } from './help-layout.js';
import { addL1Command } from './l1.js';
import type { RunningNode } from './serve.js';
import { addStartOptions } from './start-help.js';
import { addTxCommand } from './tx.js';

/** The start command's options (one per setting, and --config) and its help, grouped by topic. */
function addSettingOptions(cmd: Command): void {
  addStartOptions(cmd);
}

function writeReadyFile(path: string, running: RunningNode): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const urls = { public: running.publicUrl, admin: running.adminUrl, l1: running.l1Url };
  writeFileSync(tmp, `${JSON.stringify(urls)}\n`);
  renameSync(tmp, path);
}

async function start(opts: Record<string, unknown>): Promise<void> {
  const { config: configFile, ...flags } = opts;
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig({
      flags,
      env: process.env,
      ...(typeof configFile === 'string' ? { configFile } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`cairn: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const { config, warnings } = loaded;
  const logger = createLogger(config.logLevel, config.logFormat);
  setBannerStyle(bannerStyleFor(config.logFormat, process.stdout));
  for (const warning of warnings) logger.warn(warning);
  logger.info({ version: NODE_VERSION, node: process.version }, 'starting cairn');

  // Signals are handled from the start. The first during start-up stops it between its steps
  // (or while it waits for L1): what was started (the embedded L1) is stopped and the process
  // exits. A second signal, at any time, exits at once.
  let running: RunningNode | undefined;
  let stopping = false;
  const startup = new AbortController();
  let startupExitCode = 0;
  let failedWhileStopping = false;
  const shutdown = async (reason: string, exitCode: number) => {
    // A terminal that closes while the node stops (its window, or the session of a pipeline that
    // Ctrl-C ended) is no request to hurry: only a second Ctrl-C or SIGTERM cuts the stop short.
    if (reason === 'SIGHUP' && (stopping || startup.signal.aborted)) return;
    // An error during the stop (one of its own steps failing) does not cut it short either: the
    // stop goes on to close the stores, and the process exits with code 1.
    if (exitCode !== 0 && stopping) {
      failedWhileStopping = true;
      return;
    }
    if (stopping || startup.signal.aborted) {
      logger.warn(`${reason} again: exiting without waiting`);
      process.exit(1);
    }
    if (running === undefined) {
      startupExitCode = exitCode;
      logger.info(`${reason} during start-up: stopping start-up`);
      startup.abort(new StartupStopped(reason));
      return;
    }
    stopping = true;
    logger.info({ reason }, 'shutting down: refusing new requests, finishing those in flight');
    setTimeout(() => {
      logger.error(`shutdown took longer than ${config.shutdownTimeoutMs} ms; exiting anyway`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      await running.close();
    } catch (err) {
      logger.error({ err }, 'error while shutting down');
      exitCode = 1;
    }
    if (config.readyFile) rmSync(config.readyFile, { force: true });
    logger.info('bye');
    process.exit(failedWhileStopping ? 1 : exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  // A closed terminal: the same clean stop (the default would end the process without one).
  process.on('SIGHUP', () => void shutdown('SIGHUP', 0));
  // The output's reader may be gone (a pipeline's `tee` ended by the same Ctrl-C, a closed
  // terminal): a failed write to stdout or stderr is no error of the node's (the logger says once
  // that logging stopped), and must not end it in the middle of its stop.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    void shutdown('uncaught exception', 1);
  });
  process.on('unhandledRejection', (err) => {
    logger.fatal({ err }, 'unhandled promise rejection');
    void shutdown('unhandled rejection', 1);
  });

  try {
    // The node's code loads here, only for `start`: the other commands stay quick to answer.
    const { serve } = await import('./serve.js');
    running = await serve(config, logger, {
      signal: startup.signal,
      onFatal: (reason) => void shutdown(reason, 1),
    });
  } catch (err) {
    if (startup.signal.aborted) {
      logger.info('start-up stopped; bye');
      process.exit(startupExitCode);
    }
    // What goes wrong at start-up is usually the environment (a port, an L1, a data directory):
    // one line says it. The stack is for bugs, and at debug level for the rest.
    const bug = err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError;
    if (bug) logger.fatal({ err }, `cannot start: ${(err as Error).message}`);
    else {
      logger.debug({ err }, 'start-up failed');
      logger.fatal(`cannot start: ${(err as Error).message ?? String(err)}`);
    }
    process.exit(1);
  }
  if (startup.signal.aborted) {
    // The signal came as the last step (listening) finished: stop what started.
    stopping = true;
    await running.close().catch((err: unknown) => logger.error({ err }, 'error while shutting down'));
    logger.info('start-up stopped; bye');
    process.exit(startupExitCode);
  }
  if (config.readyFile) writeReadyFile(config.readyFile, running);
}

/** Why start-up was stopped: a signal came before the node was running. */
class StartupStopped extends Error {
  override name = 'StartupStopped';
  constructor(reason: string) {
    super(`start-up stopped by ${reason}`);
  }
}

const program = new Command('cairn')
  .description('cairn: a node for a layer-2 rollup chain, served over JSON-RPC 2.0')
  .version(NODE_VERSION, '-v, --version');

const startCmd = program
  .command('start')
  .description('Start a node: public JSON-RPC on --port, admin JSON-RPC on --admin-port')
  .helpOption('-h, --help', 'List every setting with its default and environment variable');
addSettingOptions(startCmd);
startCmd.action((opts: Record<string, unknown>) => start(opts));
addTxCommand(program);
addContractCommand(program);
addChainCommands(program);
addL1Command(program);
addDevCommand(program);
wrapHelp(program);

await program.parseAsync(process.argv);
