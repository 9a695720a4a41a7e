// The node's query components, one per topic: the read side of the chain that the method sets
// (src/api) answer from. The API does not import this record: each topic there declares the few
// members it calls (its ports), and src/api/index.ts hands it these parts of a running node.
import type { ChainQueries } from '../queries/chain.js';
import type { ContractQueries } from '../queries/contracts.js';
import type { LogQueries } from '../queries/logs.js';
import type { MessageQueries } from '../queries/messages.js';
import type { StateQueries } from '../queries/state.js';
import type { ValidatorQueries } from '../queries/validators.js';

/** The read side of the chain, one component per topic. */
export interface NodeQueries {
  chain: ChainQueries;
  state: StateQueries;
  logs: LogQueries;
  contracts: ContractQueries;
  messages: MessageQueries;
  validators: ValidatorQueries;
}
