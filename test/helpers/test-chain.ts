// Small real chains for archiver and node tests: a world state at genesis in a temporary
// directory, an archiver ChainStore initialized with that genesis, blocks built on the world
// state and committed to it, and tx effects whose logs are padded as blocks carry them. Each
// opener returns a `close` that closes what it opened and removes its directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainStore } from '../../src/archiver/chain-store.js';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import {
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  type ContractClassLog,
  type L2Block,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  type PrivateLog,
  type PublicLog,
  RevertCode,
  type TxEffect,
} from '../../src/core/block.js';
import { emptyGlobalVariables } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { WorldState } from '../../src/world-state/world-state.js';

// ---- stores --------------------------------------------------------------------------------------

export interface TestWorldState {
  ws: WorldState;
  /** Block 0 of `ws`, to initialize chain stores with. */
  genesis: L2Block;
  dir: string;
  /** Closes the world state and removes its directory. */
  close(): Promise<void>;
}

/** A world state keeping no history, in a new temporary directory whose name starts with `prefix`. */
export async function openTestWorldState(prefix = 'cairn-test-ws-'): Promise<TestWorldState> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisBlockHash: genesisBlockHashOf,
  });
  const close = async () => {
    await ws.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { ws, genesis: genesisBlockOf(ws), dir, close };
}

export type TestChainStoreOptions = NonNullable<ConstructorParameters<typeof ChainStore>[1]> & {
  /** How the temporary directory's name starts. */
  prefix?: string;
};

export interface TestChainStore {
  store: ChainStore;
  env: StoreEnvironment;
  /** The directory of `env`: `openEnvironment(dir, 'archiver')` opens the same store again. */
  dir: string;
  /** Closes `env` (again, if it was closed already) and removes the directory. */
  close(): Promise<void>;
}

/** An archiver ChainStore in a new temporary directory, initialized with `genesis`. */
export function openTestChainStore(genesis: L2Block, options: TestChainStoreOptions = {}): TestChainStore {
  const { prefix = 'cairn-test-chain-', ...storeOptions } = options;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = openEnvironment(dir, 'archiver');
  const store = new ChainStore(env, storeOptions);
  store.initialize(genesis);
  const close = async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { store, env, dir, close };
}

// ---- blocks --------------------------------------------------------------------------------------

export interface NextBlockOptions {
  /** Defaults to the empty global variables' timestamp (0). */
  timestamp?: bigint;
  /** Defaults to the block number. */
  slotNumber?: number;
  /** Defaults to 1. */
  checkpointNumber?: number;
  /**
   * Defaults to the block number - 1 (every block in checkpoint 1). A checkpoint's first block
   * (index 0) carries its L1-to-L2 messages: none.
   */
  indexWithinCheckpoint?: number;
}

/** Builds the block after `ws`'s latest with `txEffects` on a fork, commits the fork, returns the block. */
export async function nextBlock(
  ws: WorldState,
  txEffects: TxEffect[],
  options: NextBlockOptions = {},
): Promise<L2Block> {
  const blockNumber = ws.latestBlockNumber + 1;
  const { checkpointNumber = 1, indexWithinCheckpoint = blockNumber - 1 } = options;
  const globalVariables = {
    ...emptyGlobalVariables(),
    blockNumber,
    slotNumber: options.slotNumber ?? blockNumber,
  };
  if (options.timestamp !== undefined) globalVariables.timestamp = options.timestamp;
  const fork = ws.fork();
  const block = buildBlock(fork, {
    globalVariables,
    txEffects,
    checkpointNumber,
    indexWithinCheckpoint,
    ...(indexWithinCheckpoint === 0 ? { l1ToL2Messages: [] } : {}),
    totalManaUsed: 0n,
  });
  await ws.commit(fork);
  return block;
}

// ---- tx effects and logs -------------------------------------------------------------------------

/** A successful tx effect with a fee of 1 and nothing else, but for `overrides`. */
export function emptyTxEffect(txHash: Fr, overrides: Partial<TxEffect> = {}): TxEffect {
  return {
    revertCode: RevertCode.OK,
    txHash,
    transactionFee: 1n,
    noteHashes: [],
    nullifiers: [],
    l2ToL1Msgs: [],
    publicDataWrites: [],
    privateLogs: [],
    publicLogs: [],
    contractClassLogs: [],
    ...overrides,
  };
}

function padded(fields: readonly Fr[], size: number): Fr[] {
  if (fields.length > size) throw new Error(`a log of ${fields.length} fields does not fit in ${size}`);
  return [...fields, ...new Array<Fr>(size - fields.length).fill(0n)];
}

/** A private log emitting `fields`, padded with zeros to PRIVATE_LOG_SIZE_IN_FIELDS. */
export function privateLog(fields: readonly Fr[]): PrivateLog {
  return { fields: padded(fields, PRIVATE_LOG_SIZE_IN_FIELDS), emittedLength: fields.length };
}

/** A contract class log of `contractAddress` emitting `fields`, padded to CONTRACT_CLASS_LOG_SIZE_IN_FIELDS. */
export function classLog(contractAddress: Fr, fields: readonly Fr[]): ContractClassLog {
  return {
    contractAddress,
    fields: { fields: padded(fields, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) },
    emittedLength: fields.length,
  };
}

/** A public log of `contractAddress` (public logs are not padded). */
export function publicLog(contractAddress: Fr, fields: readonly Fr[]): PublicLog {
  return { contractAddress, fields: [...fields] };
}
