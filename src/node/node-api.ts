// What the method sets (src/api) may use of a running node: its query components, the tx
// service, node info, the admin operations and the dev cheat codes. The API depends on this
// interface, never on the concrete CairnNode, so a handler cannot reach the node's wiring.
import type { L1RollupConstants } from '../core/time.js';
import type { TxService } from '../mempool/tx-service.js';
import type { ChainQueries } from '../queries/chain.js';
import type { ContractQueries } from '../queries/contracts.js';
import type { LogQueries } from '../queries/logs.js';
import type { MessageQueries } from '../queries/messages.js';
import type { StateQueries } from '../queries/state.js';
import type { ValidatorQueries } from '../queries/validators.js';
import type { NodeAdmin } from './admin.js';
import type { DevOperations } from './dev.js';
import type { SnapshotUploader } from './snapshots.js';
import type { NodeStatus } from './status.js';

/** The read side of the chain, one component per topic. */
export interface NodeQueries {
  chain: ChainQueries;
  state: StateQueries;
  logs: LogQueries;
  contracts: ContractQueries;
  messages: MessageQueries;
  validators: ValidatorQueries;
}

export interface NodeApi {
  readonly queries: NodeQueries;
  readonly txs: TxService;
  /** Node info, readiness, function signatures, sync status. */
  readonly info: NodeStatus;
  readonly constants: L1RollupConstants;
  readonly admin: NodeAdmin;
  readonly snapshots: SnapshotUploader;
  /** The svcDev_* cheat codes; undefined unless the node runs its own L1. */
  readonly dev: DevOperations | undefined;
}
