// Start-up steps of the composition root that stand on their own: restoring a snapshot into
// an empty data directory, opening the validator keystore, connecting to L1 (embedded or
// external), and what the node says about its hashing backend and dev accounts.

import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ChainReader } from '../archiver/chain-reader.js';
import type { Config } from '../config/settings.js';
import { poseidon2Backend } from '../core/hash/poseidon2.js';
import { type PublicContracts, publicInstanceOf } from '../execution/avm-calls.js';
import {
  connectEmbeddedL1,
  connectExternalL1,
  type ExternalL1Options,
  type L1Connection,
} from '../l1/connect.js';
import type { S3Settings } from '../snapshots/file-store.js';
import type { SnapshotEntry } from '../snapshots/snapshot-index.js';
import { ensureDevKeystore, loadKeystore, type Validator } from '../validators/keystore.js';
import { TreeId } from '../world-state/types.js';
import type { WorldState } from '../world-state/world-state.js';
import type { DataDir } from './data-dir.js';
import { isFreshDataDir, restoreSnapshot } from './snapshots.js';

/** S3 access for snapshot locations, from the settings. */
export function s3SettingsOf(config: Config): S3Settings {
  return {
    region: config.s3Region,
    ...(config.s3Endpoint === undefined ? {} : { endpoint: config.s3Endpoint }),
    ...(config.s3AccessKeyId === undefined ? {} : { accessKeyId: config.s3AccessKeyId }),
    ...(config.s3SecretAccessKey === undefined ? {} : { secretAccessKey: config.s3SecretAccessKey }),
  };
}

/** Says which Poseidon2 hasher runs; the pure-TypeScript one is a warning (about 10x slower). */
export function logHashingBackend(logger: Logger): void {
  const hashing = poseidon2Backend();
  if (hashing.kind === 'native')
    logger.debug(`Poseidon2: native addon (${hashing.addonPath}, ${hashing.nativePath ?? 'portable'} path)`);
  else {
    logger.warn(
      `Poseidon2: using the pure-TypeScript hasher, about 10x slower than the native addon (${hashing.reason}); ` +
        'run `npm rebuild` with g++, make and python3 available to build it',
    );
  }
}

/** With snapshotUrl and an empty data directory: restores the newest snapshot there, if any. */
export async function restoreSnapshotIfAsked(
  config: Config,
  dataDir: DataDir,
  logger: Logger,
): Promise<SnapshotEntry | undefined> {
  if (config.snapshotUrl === undefined) return undefined;
  if (config.l1RpcUrl === undefined || config.l1ContractAddresses === undefined) {
    throw new Error(
      'snapshotUrl needs l1RpcUrl and l1ContractAddresses: a snapshot belongs to a rollup deployed on an existing L1',
    );
  }
  if (!isFreshDataDir(dataDir.path)) {
    logger.info(`the data directory already holds a chain: not restoring from ${config.snapshotUrl}`);
    return undefined;
  }
  return restoreSnapshot({
    location: config.snapshotUrl,
    dataDir: dataDir.path,
    meta: {
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      rollupAddress: config.l1ContractAddresses.rollupAddress,
    },
    s3: s3SettingsOf(config),
    logger: logger.child({ component: 'snapshot' }),
  });
}

/** The validator keystore: a dev keystore of new keys unless keystorePath names one. */
export function openKeystore(config: Config, path: string, logger: Logger): Validator[] {
  if (config.keystorePath === undefined && ensureDevKeystore(path, config.devValidators).created) {
    logger.info(`created a dev keystore of ${config.devValidators} validators at ${path}`);
  }
  const validators = loadKeystore(path);
  logger.info(`validators: ${validators.map((v) => v.attester.address).join(', ')}`);
  return validators;
}

export function connectL1(
  config: Config,
  dataDir: DataDir,
  worldState: WorldState,
  validators: Validator[],
  logger: Logger,
  signal?: AbortSignal,
  onEmbeddedL1Exit?: (how: string) => void,
): Promise<L1Connection> {
  const log = {
    debug: (m: string) => logger.debug(m),
    info: (m: string) => logger.info(m),
    warn: (m: string) => logger.warn(m),
    error: (m: string) => logger.error(m),
  };
  const local = new Set(validators.map((v) => v.attester.address.toLowerCase()));
  const remote = config.remoteValidators.filter((a) => !local.has(a)) as `0x${string}`[];
  const quorum = config.slashingQuorumSize;
  if (quorum !== undefined && (quorum * 2 <= config.slashingRoundSize || quorum > config.slashingRoundSize))
    throw new Error(
      `slashingQuorumSize ${quorum} must be more than half of slashingRoundSize ${config.slashingRoundSize} and at most all of it`,
    );
  if (config.l1RpcUrl !== undefined) {
    if (remote.length > 0)
      logger.warn('remoteValidators only apply when the embedded L1 is deployed: the validator set is on L1');
    return connectExternalL1(
      {
        rpcUrl: config.l1RpcUrl,
        chainId: config.l1ChainId,
        // The setting's schema checked each is 0x + 40 hex digits.
        addresses: config.l1ContractAddresses as ExternalL1Options['addresses'],
        rollupVersion: config.rollupVersion,
      },
      log,
      signal,
    );
  }
  return connectEmbeddedL1(
    {
      dir: join(dataDir.path, 'l1'),
      chainId: config.l1ChainId,
      blockTime: config.clock === 'realtime' ? config.l1BlockTime : undefined,
      port: config.l1Port,
      onUnexpectedExit: onEmbeddedL1Exit,
      deploy: {
        slotDuration: config.slotDuration,
        epochDuration: config.epochDuration,
        proofSubmissionEpochs: config.proofSubmissionEpochs,
        targetCommitteeSize: config.targetCommitteeSize,
        manaTarget: config.manaTarget,
        rollupVersion: config.rollupVersion,
        genesisArchiveRoot: worldState.at(0).snapshot(TreeId.ARCHIVE).root,
        validators: [...validators.map((v) => v.attester.address), ...remote],
        slashingRoundSize: config.slashingRoundSize,
        slashingQuorumSize: config.slashingQuorumSize,
      },
      // Remote validators' nodes publish from their attester address unless they name a publisher.
      fund: [...new Set([...validators.map((v) => v.publisher.address), ...remote])],
    },
    log,
    signal,
  );
}

/**
 * Public execution's view of the contract index: instances as of the latest block the node has
 * (the one blocks are built on), with their original class (the executor applies class updates
 * from the instance registry's storage), and class bytecode.
 */
export function publicContractsOf(chain: ChainReader): PublicContracts {
  return {
    instance(address) {
      const found = chain.contracts.getInstance(address, {
        blockNumber: chain.latestBlockNumber,
        timestamp: 0n,
      });
      return found && publicInstanceOf(found);
    },
    bytecode: (classId) => chain.contracts.getClass(classId)?.packedBytecode,
  };
}
