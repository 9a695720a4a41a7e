// What the node says about itself: node info and the setup allow-list (getNodeInfo and its
// siblings), readiness, the world state's sync status, function signatures registered for
// logs, and the health payload of GET /status.
import type { Logger } from 'pino';
import type { Archiver } from '../archiver/archiver.js';
import type { ChainReader } from '../archiver/chain-reader.js';
import {
  type AllowedElement,
  PROTOCOL_CONTRACT_ADDRESSES,
  type ProtocolContractAddresses,
} from '../core/constants.js';
import { invalidParams } from '../core/errors.js';
import { toHex32 } from '../core/field.js';
import { functionSelector } from '../core/hash/selector.js';
import { NODE_VERSION } from '../core/version.js';
import type { L1ContractAddresses } from '../l1/addresses.js';
import type { P2PNetwork } from '../p2p/network.js';
import type { WorldState } from '../world-state/world-state.js';
import type { NodeAdmin } from './admin.js';
import { allowedPublicSetup } from './admin-config.js';
import type { FunctionSignatureBook } from './function-signatures.js';
import type { L1Health } from './l1-health.js';
import type { SnapshotUploader } from './snapshots.js';

export interface NodeInfo {
  nodeVersion: string;
  l1ChainId: number;
  rollupVersion: number;
  enr?: string;
  l1ContractAddresses: L1ContractAddresses;
  protocolContractAddresses: ProtocolContractAddresses;
  /** Whether tx proofs are verified for real; cairn's only verifier is the dev verifier. */
  realProofs: boolean;
  txsLimits: { gas: { daGas: number; l2Gas: number } };
}

export type NodeState = 'starting' | 'running' | 'stopping' | 'stopped';

/** Where the node is in its life; the composition root moves it, the status reads it. */
export class Lifecycle {
  state: NodeState = 'starting';
  readonly startedAt = Date.now();
}

/** How L1 time moves: realtime (anvil mines on an interval) or manual (only the dev methods mine). */
export interface Clock {
  mode: 'realtime' | 'manual' | 'instant';
}

export interface NodeStatusOptions {
  lifecycle: Lifecycle;
  clock: Clock;
  /** The live configuration is the admin's. */
  admin: NodeAdmin;
  l1Addresses: L1ContractAddresses;
  chain: ChainReader;
  worldState: WorldState;
  archiver: Archiver;
  l1Health: L1Health;
  snapshots: SnapshotUploader;
  signatures: FunctionSignatureBook;
  /** Undefined while P2P is off. */
  network: P2PNetwork | undefined;
  logger: Logger;
}

export class NodeStatus {
  constructor(private readonly o: NodeStatusOptions) {}

  /** Function signatures known to the node, by selector. */
  get signatures(): FunctionSignatureBook {
    return this.o.signatures;
  }

  /** Ready to accept transactions: started, not shutting down, and its L1 answers. */
  isReady(): boolean {
    return this.o.lifecycle.state === 'running' && this.o.l1Health.reachable;
  }

  getNodeInfo(): NodeInfo {
    const config = this.o.admin.config;
    const enr = this.getEncodedEnr();
    return {
      nodeVersion: NODE_VERSION,
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      ...(enr === undefined ? {} : { enr }),
      l1ContractAddresses: this.getL1ContractAddresses(),
      protocolContractAddresses: { ...PROTOCOL_CONTRACT_ADDRESSES },
      realProofs: false,
      txsLimits: { gas: { daGas: config.txMaxDaGas, l2Gas: config.txMaxL2Gas } },
    };
  }

  /** The node record for peer discovery; none while P2P is off. */
  getEncodedEnr(): string | undefined {
    return this.o.network?.enr;
  }

  getL1ContractAddresses(): L1ContractAddresses {
    return { ...this.o.l1Addresses };
  }

  getAllowedPublicSetup(): AllowedElement[] {
    return allowedPublicSetup(this.o.admin.config);
  }

  /** Names selectors in logs; a malformed signature is the caller's mistake (-32602). */
  async registerFunctionSignatures(signatures: readonly string[]): Promise<void> {
    const { signatures: book, logger } = this.o;
    let added: number;
    try {
      added = book.register(signatures);
    } catch (err) {
      if (err instanceof RangeError || err instanceof TypeError) throw invalidParams(err.message);
      throw err;
    }
    logger.info({ given: signatures.length, added }, 'registered contract function signatures');
    if (logger.isLevelEnabled('debug')) {
      for (const signature of signatures)
        logger.debug(`known selector: ${book.describe(functionSelector(signature))}`);
    }
  }

  /** The signature known for each selector, or null. */
  functionSignatures(selectors: readonly number[]): (string | null)[] {
    return selectors.map((selector) => this.o.signatures.signatureOf(selector) ?? null);
  }

  getWorldStateSyncStatus() {
    const { chain, worldState, admin } = this.o;
    const latest = worldState.latestBlockNumber;
    const block = chain.getBlock(latest);
    return {
      latestBlockNumber: latest,
      latestBlockHash: block ? toHex32(block.hash) : '',
      finalizedBlockNumber: chain.getTips().finalized.block.number,
      oldestHistoricBlockNumber: worldState.oldestBlockNumber,
      treesAreSynched: latest === chain.latestBlockNumber,
      syncState: admin.states().syncState,
    };
  }

  /**
   * Health for GET /status: `ok` (HTTP 200) while the node runs, reaches its L1 and is not
   * catching up with it; `problems` says what is wrong otherwise.
   */
  status(): { ok: boolean } & Record<string, unknown> {
    const { lifecycle, clock, admin, archiver, l1Health, snapshots, network, chain, worldState } = this.o;
    const sync = archiver.syncProgress;
    const l1 = l1Health.report();
    const problems: string[] = [];
    if (lifecycle.state !== 'running') problems.push(`the node is ${lifecycle.state}`);
    if (!l1.reachable) problems.push(`L1 unreachable: ${l1.failedPolls} polls failed in a row`);
    if (sync.catchingUp) problems.push(`catching up with L1 (at L1 block ${sync.l1Block} of ${l1.head})`);
    return {
      ok: problems.length === 0,
      ...(problems.length === 0 ? {} : { problems }),
      status: lifecycle.state,
      nodeVersion: NODE_VERSION,
      uptimeSeconds: Math.floor((Date.now() - lifecycle.startedAt) / 1000),
      clock: clock.mode,
      ...admin.states(),
      snapshotUpload: snapshots.current,
      l1,
      l1Sync: { l1Block: Number(sync.l1Block), catchingUp: sync.catchingUp },
      ...(network === undefined
        ? {}
        : { p2p: { peerId: network.peerId, connectedPeers: network.getPeers(false).length } }),
      chain: {
        latestBlock: chain.latestBlockNumber,
        latestCheckpoint: chain.latestCheckpointNumber,
      },
      worldState: {
        latestBlock: worldState.latestBlockNumber,
        oldestBlock: worldState.oldestBlockNumber,
      },
    };
  }
}
