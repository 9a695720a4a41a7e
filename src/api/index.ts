// All method sets of the node, in one registry. Each topic file adds the handlers to its methods
// of both sets (svc_ and node_, or svcAdmin_ and nodeAdmin_; a method both have is one
// defineMethods call, its earlier twin's differences as an override), whose declarations — names,
// params, result schemas, words — are in src/client/methods/ so that the typed client reads the
// same ones; and it names the ports it calls: the few members of the node's parts its handlers
// use. This is the one place that hands each topic its parts of the node. Each method carries the
// example calls recorded for it on a real chain (src/client/methods/examples.ts), for rpc.discover.
import type { z } from 'zod';
import type { LogPosition } from '../archiver/log-store.js';
import type { adminConfig, adminConfigUpdate } from '../client/methods/admin.js';
import { CAIRN_EXAMPLES } from '../client/methods/examples.js';
import type * as clientLogs from '../client/methods/logs.js';
import type * as clientParams from '../client/methods/params.js';
import type * as clientValidators from '../client/methods/validators.js';
import type * as nodeAdmin from '../node/admin-config.js';
import type { BlockRef, CheckpointRef, CheckpointsQuery } from '../queries/chain.js';
import type { LOG_FILTER_PAGE, LOGS_PER_TAG_PAGE } from '../queries/logs.js';
import { MethodRegistry } from '../rpc/registry.js';
import type { ATTESTATION_STATUSES, PROPOSAL_STATUSES } from '../validators/stats.js';
import { type AdminApiPorts, adminMethods } from './admin.js';
import { type ChainApiPorts, chainMethods } from './chain.js';
import { type ContractApiPorts, contractMethods } from './contracts.js';
import { type DevApiPorts, devMethods } from './dev.js';
import { type InfoApiPorts, infoMethods } from './info.js';
import { type LogApiPorts, logMethods } from './logs.js';
import { type MessageApiPorts, messageMethods } from './messages.js';
import { type StateApiPorts, stateMethods } from './state.js';
import { type TxApiPorts, txMethods } from './txs.js';
import { type ValidatorApiPorts, validatorMethods } from './validators.js';

/**
 * The node as the method sets see it: its parts, laid out as CairnNode holds them, each only
 * as wide as the ports of the topics that use it. A running node fits it; so do a test's fakes.
 */
export interface ApiNode {
  readonly queries: {
    readonly chain: ChainApiPorts['chain'] & MessageApiPorts['chain'];
    readonly state: StateApiPorts['state'];
    readonly logs: LogApiPorts['logs'];
    readonly contracts: ContractApiPorts['contracts'];
    readonly messages: MessageApiPorts['messages'];
    readonly validators: ValidatorApiPorts['validators'];
  };
  readonly txs: TxApiPorts['txs'];
  readonly info: InfoApiPorts['info'] & ChainApiPorts['info'];
  readonly constants: ChainApiPorts['constants'];
  readonly admin: AdminApiPorts['admin'];
  readonly snapshots: AdminApiPorts['snapshots'];
  readonly dev: DevApiPorts['dev'];
}

export function buildRegistry(node: ApiNode): MethodRegistry {
  const { queries } = node;
  return new MethodRegistry()
    .add(
      ...infoMethods({ info: node.info }),
      ...chainMethods({ chain: queries.chain, constants: node.constants, info: node.info }),
      ...txMethods({ txs: node.txs }),
      ...validatorMethods({ validators: queries.validators }),
      ...stateMethods({ state: queries.state }),
      ...logMethods({ logs: queries.logs }),
      ...contractMethods({ contracts: queries.contracts }),
      ...messageMethods({ messages: queries.messages, chain: queries.chain }),
      ...adminMethods({ admin: node.admin, snapshots: node.snapshots }),
      ...devMethods({ dev: node.dev }),
    )
    .withExamples(CAIRN_EXAMPLES);
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agree<T extends true> = T;
type Codes<S extends z.ZodType> = [z.input<S>, z.output<S>];

/**
 * The method declarations live in src/client/methods/ so that the typed client can read them, and
 * a few shapes they use belong to layers the client may not import; the declarations restate
 * them. These types fail to compile when a restated shape and its original part ways.
 */
export type RestatedShapesAgree = [
  Agree<Same<clientParams.BlockRef, BlockRef>>,
  Agree<Same<clientParams.CheckpointRef, CheckpointRef>>,
  Agree<Same<clientParams.CheckpointsQuery, CheckpointsQuery>>,
  Agree<Same<clientLogs.LogPosition, LogPosition>>,
  Agree<Same<typeof clientLogs.LOGS_PER_TAG_PAGE, typeof LOGS_PER_TAG_PAGE>>,
  Agree<Same<typeof clientLogs.LOG_FILTER_PAGE, typeof LOG_FILTER_PAGE>>,
  Agree<Same<typeof clientValidators.PROPOSAL_STATUSES, typeof PROPOSAL_STATUSES>>,
  Agree<Same<typeof clientValidators.ATTESTATION_STATUSES, typeof ATTESTATION_STATUSES>>,
  Agree<Same<Codes<typeof adminConfig>, Codes<typeof nodeAdmin.adminConfig>>>,
  Agree<Same<Codes<typeof adminConfigUpdate>, Codes<typeof nodeAdmin.adminConfigUpdate>>>,
];
