#!/usr/bin/env node
// The `cairn` command.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config/load.js';
import { NODE_VERSION } from '../core/version.js';
import { createLogger } from '../node/logger.js';
import { addChainCommands } from './chain.js';
import { addContractCommand } from './contract.js';
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
  writeFileSync(tmp, `${JSON.stringify({ public: running.publicUrl, admin: running.adminUrl })}\n`);
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
  for (const warning of warnings) logger.warn(warning);
  logger.info({ version: NODE_VERSION, node: process.version }, 'starting cairn');

  // Signals are handled from the start: one that arrives while the node is still starting
  // shuts it down as soon as it has started (or failed), so no child process (the embedded L1)
  // is left behind.
  let running: RunningNode | undefined;
  let stopping = false;
  let pendingExit: { reason: string; code: number } | undefined;
  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) {
      logger.warn(`${reason} again: exiting without waiting`);
      process.exit(1);
    }
    if (running === undefined) {
      pendingExit ??= { reason, code: exitCode };
      logger.info({ reason }, 'shutting down once start-up has finished');
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
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
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
    running = await serve(config, logger);
  } catch (err) {
    logger.fatal({ err }, `cannot start: ${(err as Error).message}`);
    process.exit(pendingExit ? pendingExit.code : 1);
  }
  if (pendingExit) {
    await shutdown(pendingExit.reason, pendingExit.code);
    return;
  }
  if (config.readyFile) writeReadyFile(config.readyFile, running);
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

await program.parseAsync(process.argv);
