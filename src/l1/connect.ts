// The node's connection to L1. Without an L1 URL the node runs its own anvil (embedded L1)
// with its state under the data directory, and deploys the rollup's contracts on the first
// start; with one, it uses that chain and the contracts configured for it.
//
// What survives a crash: an external L1 is trusted to keep its blocks. The embedded L1 keeps
// what the node saved of it (anvil-state.ts): the state is saved every few seconds while L1
// moves, when the node stops, and before the archiver calls a proof final (`ensureDurable`).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Address,
  BaseError,
  bytesToHex,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  http,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  type DeployedL1ContractAddresses,
  type L1ContractAddresses,
  withAbsentContracts,
} from './addresses.js';
import { type AnvilInstance, startAnvil } from './anvil.js';
import { SavedL1State } from './anvil-state.js';
import {
  DEFAULT_DEPLOYER_PRIVATE_KEY,
  type DeployL1Params,
  deployL1Contracts,
  expectedL1ContractAddresses,
  l1Chain,
} from './deploy.js';
import { artifacts } from './generated/artifacts.js';

export interface L1Logger {
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface EmbeddedL1Options {
  /** Folder of the anvil state and pid files (`<dataDir>/l1`). */
  dir: string;
  chainId: number;
  /** Seconds between blocks; undefined = mine only on request (manual clock). */
  blockTime: number | undefined;
  /** Loopback port anvil listens on; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Called when anvil exits without being asked to (killed, crashed), with how it exited. */
  onUnexpectedExit?: ((how: string) => void) | undefined;
  /** Used when the contracts are not deployed yet. */
  deploy: Omit<DeployL1Params, 'proverAddress'>;
  /** Accounts the node sends L1 transactions from (publishers, prover), funded on the embedded L1. */
  fund: readonly Address[];
  /** Milliseconds between saves of the L1's state while it has new blocks (default 5000). */
  saveIntervalMs?: number | undefined;
}

export interface ExternalL1Options {
  rpcUrl: string;
  chainId: number;
  addresses: DeployedL1ContractAddresses;
}

/** How the embedded L1's time was resumed at start (its chain time waits while the node is stopped). */
export interface ResumedL1Time {
  /** The latest L1 block of the state it was resumed from, and its timestamp (seconds). */
  l1Block: bigint;
  l1Timestamp: bigint;
  /** Wall-clock seconds between the node's stop (or its last save, after a crash) and this start. */
  downSeconds: number;
}

export interface L1Connection {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly embedded: boolean;
  readonly addresses: L1ContractAddresses;
  readonly client: PublicClient;
  /** The embedded L1 resumed a saved chain: where its time resumed and how long it had been down. */
  readonly resumed?: ResumedL1Time | undefined;
  /**
   * Resolves true once L1 block `l1Block` survives a crash of the node and the L1 together: at
   * once for an external L1 (trusted to keep its blocks); for the embedded L1 once its saved
   * state holds the block (it is saved now if it does not). False if it could not be saved.
   */
  ensureDurable(l1Block: bigint): Promise<boolean>;
  /**
   * Resolves once L1 block `l1Block` survives such a crash, however long that takes: after
   * ensureDurable said false (the embedded L1 saves in its turn, on its timer).
   */
  whenDurable(l1Block: bigint): Promise<void>;
  /**
   * The embedded L1 only: saves its state now, replacing the saved one, after anvil's evm_revert
   * took it back to an earlier state (the saved state may hold blocks it no longer has, and a
   * restart would bring them back). Resolves with the saved block, undefined if it could not save.
   */
  saveAfterRevert?(): Promise<bigint | undefined>;
  /**
   * The embedded L1 only: takes it back to its state right after the node deployed the protocol
   * on it (kept since, across restarts), funding the node's accounts again. False if this data
   * directory has no genesis state (its L1 was deployed by a cairn before this was kept). The
   * caller saves the state afterwards (saveAfterRevert).
   */
  resetToGenesis?(): Promise<boolean>;
  /** Stops the embedded anvil (saving its state); nothing for an external L1. */
  close(): Promise<void>;
}

const FUNDING_WEI = 10_000n * 10n ** 18n;
const SAVE_INTERVAL_MS = 5000;

/**
 * Stops an anvil left running by a node that was killed, so two never share one state file;
 * its state is saved first (`anvil.url` names its RPC URL), so L1 blocks it mined after the
 * node's last save are kept. True if there was one.
 */
async function stopOrphan(
  pidFile: string,
  urlFile: string,
  saved: SavedL1State,
  logger: L1Logger,
): Promise<boolean> {
  if (!existsSync(pidFile)) return false;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
  const rpcUrl = existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim() : undefined;
  rmSync(pidFile, { force: true });
  rmSync(urlFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return false;
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return false; // not running
  }
  if (!command.includes('anvil')) return false;
  logger.warn(`stopping an embedded L1 (anvil, pid ${pid}) left running by an earlier node`);
  if (rpcUrl?.startsWith('http://127.0.0.1:')) {
    try {
      const block = await saved.save(rpcUrl);
      if (block !== undefined) logger.info(`saved its state at L1 block ${block}`);
    } catch (err) {
      logger.warn(`could not save its state: ${(err as Error).message}`);
    }
  }
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(`/proc/${pid}`)) return true;
  }
  process.kill(pid, 'SIGKILL');
  return true;
}

/**
 * Starts (or restarts) the embedded L1. `signal` stops start-up between steps, never in the middle
 * of deploying the contracts (a half-deployed L1 would not find its contracts at their addresses).
 */
export async function connectEmbeddedL1(
  options: EmbeddedL1Options,
  logger: L1Logger,
  signal?: AbortSignal,
): Promise<L1Connection> {
  mkdirSync(options.dir, { recursive: true });
  const pidFile = join(options.dir, 'anvil.pid');
  const urlFile = join(options.dir, 'anvil.url');
  const stoppedFile = join(options.dir, 'stopped-at');
  const saved = new SavedL1State(options.dir, logger);
  // An orphan ran the L1 on while no node watched: its time did not wait, and is resumed as it is.
  const orphaned = await stopOrphan(pidFile, urlFile, saved, logger);
  const port = options.port ?? 0;
  const loadStateFile = await saved.chooseStart();
  let anvil: AnvilInstance;
  try {
    anvil = await startAnvil({
      loadStateFile,
      chainId: options.chainId,
      blockTime: options.blockTime,
      port,
    });
  } catch (err) {
    if (/address already in use/i.test((err as Error).message))
      throw new Error(
        `cannot start the embedded L1 on 127.0.0.1:${port}: the port is in use; --l1-port sets another (0: any free port)`,
      );
    throw err;
  }
  writeFileSync(pidFile, String(anvil.process.pid));
  writeFileSync(urlFile, anvil.rpcUrl);
  let closing = false;
  anvil.process.once('exit', (code, exitSignal) => {
    if (!closing)
      options.onUnexpectedExit?.(exitSignal ? `was killed (${exitSignal})` : `exited (code ${code})`);
  });
  const close = async () => {
    closing = true;
    await saved.stopTimer();
    try {
      // What the node sent last (a proposal, a proof) is in the final save: with interval mining
      // it is mined within a block or two; anvil's pool itself is not saved.
      if (options.blockTime !== undefined)
        await untilPoolEmpty(anvil.rpcUrl, (2 * options.blockTime + 1) * 1000, logger);
      await saved.save(anvil.rpcUrl);
    } catch (err) {
      logger.warn(`could not save the embedded L1's state: ${(err as Error).message}`);
    }
    await anvil.stop();
    writeFileSync(stoppedFile, `${new Date().toISOString()}\n`);
    rmSync(pidFile, { force: true });
    rmSync(urlFile, { force: true });
  };
  try {
    signal?.throwIfAborted();
    const chain = l1Chain(options.chainId, anvil.rpcUrl);
    const client = createPublicClient({
      chain,
      transport: http(anvil.rpcUrl),
      pollingInterval: 100,
    }) as PublicClient;
    const testClient = createTestClient({ chain, mode: 'anvil', transport: http(anvil.rpcUrl) });
    // Before anything is mined: a block mined now would carry the wall clock's time.
    const resumed =
      loadStateFile === undefined || orphaned
        ? undefined
        : await resumeTime(client, stoppedAt(stoppedFile, loadStateFile));
    // Deployment mines each of its transactions itself, also with interval mining, rather than
    // wait a block time for each of them.
    const mine = () => testClient.mine({ blocks: 1 });
    const deployer = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);
    const expected = expectedL1ContractAddresses(deployer.address);
    const deployed = (await client.getCode({ address: expected.rollupAddress })) !== undefined;
    let addresses: L1ContractAddresses = expected;
    if (deployed) {
      logger.info(`L1 contracts found: rollup ${expected.rollupAddress} (embedded L1 ${anvil.rpcUrl})`);
    } else {
      addresses = await deployL1Contracts(
        { rpcUrl: anvil.rpcUrl, chainId: options.chainId, mine },
        // The embedded L1's prover account is the deployer's (anvil's funded account 0).
        { ...options.deploy, proverAddress: deployer.address },
      );
      logger.info(`L1 contracts deployed: rollup ${addresses.rollupAddress} (embedded L1 ${anvil.rpcUrl})`);
    }
    signal?.throwIfAborted();
    const fund = async () => {
      let funded = false;
      for (const account of options.fund) {
        if ((await client.getBalance({ address: account })) < FUNDING_WEI / 2n) {
          await testClient.setBalance({ address: account, value: FUNDING_WEI });
          funded = true;
        }
      }
      // A saved state must be the state of its latest block (anvil-state.ts): a block records the
      // balances just set.
      if (funded) await mine();
    };
    await fund();
    await checkRollupVersion(client, addresses.rollupAddress, BigInt(options.deploy.rollupVersion));
    const withSlasherAddress = await withSlasher(client, addresses, logger);
    const latestBlock = () => client.getBlockNumber({ cacheTime: 0 });
    if ((await latestBlock()) !== saved.savedBlock) await saved.save(anvil.rpcUrl);
    if (!deployed) await saved.keepAsGenesis();
    saved.startTimer(anvil.rpcUrl, latestBlock, options.saveIntervalMs ?? SAVE_INTERVAL_MS);
    // anvil_reset without a fork (viem's reset action always asks for one).
    const resetAnvil = testClient.request as unknown as (r: {
      method: 'anvil_reset';
      params: [];
    }) => Promise<unknown>;
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: options.chainId,
      embedded: true,
      resumed,
      addresses: withSlasherAddress,
      client,
      ensureDurable: (l1Block) => saved.ensureSaved(anvil.rpcUrl, l1Block),
      whenDurable: (l1Block) => saved.whenSaved(l1Block),
      saveAfterRevert: () => saved.saveReplaced(anvil.rpcUrl),
      resetToGenesis: async () => {
        const genesis = await saved.genesis();
        if (genesis === undefined) return false;
        // A fresh chain, then the genesis state with its blocks: nothing of the later history stays
        // (loading alone would keep storage slots genesis did not have). The caller saves it.
        await resetAnvil({ method: 'anvil_reset', params: [] });
        await testClient.loadState({ state: bytesToHex(genesis) });
        // Chain time goes on from genesis, as after a stop (the reset left anvil's clock at now).
        await continueFromLatestBlock(client);
        await fund();
        return true;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Waits (at most `ms`) until anvil's pool holds no transaction waiting to be mined. */
async function untilPoolEmpty(rpcUrl: string, ms: number, logger: L1Logger): Promise<void> {
  const deadline = Date.now() + ms;
  const pool = createTestClient({ mode: 'anvil', transport: http(rpcUrl, { retryCount: 0, timeout: 1000 }) });
  for (;;) {
    let pending = 0;
    try {
      pending = (await pool.getTxpoolStatus()).pending;
    } catch {
      return; // anvil does not answer: there is nothing to wait for
    }
    if (pending === 0) return;
    if (Date.now() > deadline) {
      logger.warn(`stopping with ${pending} L1 transaction(s) not mined: they are not in the saved state`);
      return;
    }
    await sleep(100);
  }
}

/**
 * When the embedded L1 last ran: the node's clean stop, or the save loaded now if that is later
 * (the node was killed after its last clean stop).
 */
function stoppedAt(stoppedFile: string, stateFile: string): number {
  const saved = statSync(stateFile).mtimeMs;
  try {
    const stopped = Date.parse(readFileSync(stoppedFile, 'utf8').trim());
    return Number.isFinite(stopped) ? Math.max(stopped, saved) : saved;
  } catch {
    return saved;
  }
}

/**
 * Chain time waits while the node is stopped: the L1 resumes one second after its latest block,
 * and runs in real time from there (anvil's time offset). Without it the first block after a
 * pause would jump to the wall clock, past every open proof window and slot in between: the
 * rollup would prune the unproven checkpoints and count the validators inactive.
 */
async function resumeTime(client: PublicClient, stoppedAtMs: number): Promise<ResumedL1Time> {
  const latest = await continueFromLatestBlock(client);
  return {
    l1Block: latest.number,
    l1Timestamp: latest.timestamp,
    downSeconds: Math.max(0, Math.round((Date.now() - stoppedAtMs) / 1000)),
  };
}

/** Sets anvil's clock to one second after its latest block, from where it runs on. */
async function continueFromLatestBlock(client: PublicClient) {
  const latest = await client.getBlock({ blockTag: 'latest' });
  // anvil_setTime (viem has no action for it) sets the time the next block counts from.
  const setTime = client.request as unknown as (r: {
    method: 'anvil_setTime';
    params: [number];
  }) => Promise<unknown>;
  await setTime({ method: 'anvil_setTime', params: [Number(latest.timestamp + 1n)] });
  return latest;
}

export async function connectExternalL1(
  options: ExternalL1Options & { rollupVersion: number },
  logger: L1Logger,
  signal?: AbortSignal,
): Promise<L1Connection> {
  const chainId = await waitForL1(options.rpcUrl, logger, signal);
  if (chainId !== options.chainId) {
    throw new Error(
      `the L1 at ${options.rpcUrl} has chain id ${chainId}, but l1ChainId is ${options.chainId}`,
    );
  }
  const client = createPublicClient({
    chain: l1Chain(chainId, options.rpcUrl),
    transport: http(options.rpcUrl),
  }) as PublicClient;
  if ((await client.getCode({ address: options.addresses.rollupAddress })) === undefined) {
    throw new Error(
      `no rollup contract at ${options.addresses.rollupAddress} on the L1 at ${options.rpcUrl}`,
    );
  }
  await checkRollupVersion(client, options.addresses.rollupAddress, BigInt(options.rollupVersion));
  logger.info(`L1 ${options.rpcUrl} (chain ${chainId}): rollup ${options.addresses.rollupAddress}`);
  return {
    rpcUrl: options.rpcUrl,
    chainId,
    embedded: false,
    addresses: await withSlasher(client, withAbsentContracts(options.addresses), logger),
    client,
    ensureDurable: async () => true,
    whenDurable: async () => {},
    close: async () => {},
  };
}

const PROBE_TIMEOUT_MS = 5000;
const MAX_RETRY_DELAY_MS = 10_000;

/**
 * Waits until the L1 at `rpcUrl` answers eth_chainId and returns the chain id. Each failed
 * attempt is logged and the next comes later (1 s, 2 s, 4 s … up to 10 s): an L1 that is still
 * starting, or briefly away, does not stop the node. `signal` ends the wait at once.
 */
export async function waitForL1(rpcUrl: string, logger: L1Logger, signal?: AbortSignal): Promise<number> {
  const probe = createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: PROBE_TIMEOUT_MS }) });
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await untilAborted(probe.getChainId(), signal);
    } catch (err) {
      signal?.throwIfAborted();
      const delayMs = Math.min(1000 * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
      logger.warn(
        `waiting for L1 at ${rpcUrl} (attempt ${attempt}): ${l1ErrorReason(err)}; trying again in ${delayMs / 1000} s`,
      );
      await sleep(delayMs, undefined, signal ? { signal } : {}).catch(() => signal?.throwIfAborted());
    }
  }
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Why an L1 request failed, in a few words: the system error's code (ECONNREFUSED…) when there is
 * one, else the innermost cause's message (viem's own message names the URL and the request body).
 */
export function l1ErrorReason(err: unknown): string {
  let reason = err instanceof BaseError ? err.shortMessage : String(err);
  let cause: unknown = err;
  for (let depth = 0; cause instanceof Error && depth < 8; depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    if (!(cause instanceof BaseError)) reason = cause.message.split('\n')[0] ?? cause.message;
    cause = cause.cause;
  }
  return reason;
}

/**
 * The addresses with the rollup's Slasher, read from the rollup; without it for a rollup deployed
 * before cairn had one (slashing votes are then off).
 */
async function withSlasher(
  client: PublicClient,
  addresses: L1ContractAddresses,
  logger: L1Logger,
): Promise<L1ContractAddresses> {
  const { slashFactoryAddress: _, ...rest } = addresses;
  let slasher: Address;
  try {
    slasher = await client.readContract({
      address: addresses.rollupAddress,
      abi: artifacts.Rollup.abi,
      functionName: 'getSlasher',
    });
  } catch (err) {
    // A rollup without getSlasher reverts; anything else (the L1 unreachable) is an error.
    if (!(err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError))) throw err;
    logger.warn(
      `the rollup at ${addresses.rollupAddress} has no slasher (deployed by an older cairn): slash payloads are off`,
    );
    return rest;
  }
  const given = addresses.slashFactoryAddress;
  if (given !== undefined && given.toLowerCase() !== slasher.toLowerCase())
    throw new Error(
      `slashFactoryAddress ${given} is not the slasher of the rollup at ${addresses.rollupAddress} (${slasher})`,
    );
  return { ...rest, slashFactoryAddress: slasher };
}

async function checkRollupVersion(client: PublicClient, rollup: Address, expected: bigint): Promise<void> {
  const version = await client.readContract({
    address: rollup,
    abi: artifacts.Rollup.abi,
    functionName: 'getVersion',
  });
  if (version !== expected) {
    throw new Error(
      `the rollup at ${rollup} has version ${version}, but rollupVersion is ${expected}; ` +
        'set rollupVersion to match, or use a new data directory for a new rollup',
    );
  }
}
