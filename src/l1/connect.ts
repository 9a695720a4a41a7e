// The node's connection to L1. Without an L1 URL the node runs its own anvil (embedded L1)
// with its state under the data directory, and deploys the rollup's contracts on the first
// start; with one, it uses that chain and the contracts configured for it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Address,
  BaseError,
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
import {
  DEFAULT_DEPLOYER_PRIVATE_KEY,
  type DeployL1Params,
  deployL1Contracts,
  expectedL1ContractAddresses,
  l1Chain,
} from './deploy.js';
import { artifacts } from './generated/artifacts.js';

export interface L1Logger {
  info(message: string): void;
  warn(message: string): void;
}

export interface EmbeddedL1Options {
  /** Folder of the anvil state and pid files (`<dataDir>/l1`). */
  dir: string;
  chainId: number;
  /** Seconds between blocks; undefined = mine only on request (manual clock). */
  blockTime: number | undefined;
  /** Used when the contracts are not deployed yet. */
  deploy: Omit<DeployL1Params, 'proverAddress'>;
  /** Accounts the node sends L1 transactions from (publishers, prover), funded on the embedded L1. */
  fund: readonly Address[];
}

export interface ExternalL1Options {
  rpcUrl: string;
  chainId: number;
  addresses: DeployedL1ContractAddresses;
}

export interface L1Connection {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly embedded: boolean;
  readonly addresses: L1ContractAddresses;
  readonly client: PublicClient;
  /** Stops the embedded anvil (writing its state); nothing for an external L1. */
  close(): Promise<void>;
}

const FUNDING_WEI = 10_000n * 10n ** 18n;

/** Stops an anvil left running by a node that was killed, so two never share one state file. */
async function stopOrphan(pidFile: string, logger: L1Logger): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return;
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return; // not running
  }
  if (!command.includes('anvil')) return;
  logger.warn(`stopping an embedded L1 (anvil, pid ${pid}) left running by an earlier node`);
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(`/proc/${pid}`)) return;
  }
  process.kill(pid, 'SIGKILL');
}

export async function connectEmbeddedL1(options: EmbeddedL1Options, logger: L1Logger): Promise<L1Connection> {
  mkdirSync(options.dir, { recursive: true });
  const pidFile = join(options.dir, 'anvil.pid');
  await stopOrphan(pidFile, logger);
  const anvil: AnvilInstance = await startAnvil({
    stateFile: join(options.dir, 'anvil-state.json'),
    chainId: options.chainId,
    blockTime: options.blockTime,
  });
  writeFileSync(pidFile, String(anvil.process.pid));
  const close = async () => {
    await anvil.stop();
    rmSync(pidFile, { force: true });
  };
  try {
    const chain = l1Chain(options.chainId, anvil.rpcUrl);
    const client = createPublicClient({
      chain,
      transport: http(anvil.rpcUrl),
      pollingInterval: 100,
    }) as PublicClient;
    const testClient = createTestClient({ chain, mode: 'anvil', transport: http(anvil.rpcUrl) });
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
    for (const account of options.fund) {
      if ((await client.getBalance({ address: account })) < FUNDING_WEI / 2n) {
        await testClient.setBalance({ address: account, value: FUNDING_WEI });
      }
    }
    await checkRollupVersion(client, addresses.rollupAddress, BigInt(options.deploy.rollupVersion));
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: options.chainId,
      embedded: true,
      addresses: await withSlasher(client, addresses, logger),
      client,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export async function connectExternalL1(
  options: ExternalL1Options & { rollupVersion: number },
  logger: L1Logger,
): Promise<L1Connection> {
  const probe = createPublicClient({ transport: http(options.rpcUrl) });
  let chainId: number;
  try {
    chainId = await probe.getChainId();
  } catch (err) {
    throw new Error(`cannot reach the L1 at ${options.rpcUrl}: ${(err as Error).message}`);
  }
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
    close: async () => {},
  };
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
