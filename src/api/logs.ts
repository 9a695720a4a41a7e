// The log methods' handlers, each added to its declaration in src/client/methods/logs.ts (names,
// params, result schema and words, shared with the typed client), and the ports they call.
import { logsDeclarations, MAX_LEGACY_LOGS_PER_TAG } from '../client/methods/logs.js';
import type { LogQueries } from '../queries/logs.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';

/** What the log methods call: the log queries by tag, by block range and by filter. */
export interface LogApiPorts {
  logs: Pick<
    LogQueries,
    | 'privateLogsByTags'
    | 'publicLogsByTags'
    | 'logsByTags'
    | 'privateLogs'
    | 'publicLogs'
    | 'contractClassLogs'
  >;
}

export function logMethods({ logs: q }: LogApiPorts): RpcMethod[] {
  return [
    defineMethod({
      ...logsDeclarations.svc_getPrivateLogsByTags,
      handler: (query) => q.privateLogsByTags(query),
    }),
    defineMethod({
      ...logsDeclarations.svc_getPublicLogsByTags,
      handler: (query) => q.publicLogsByTags(query),
    }),
    defineMethod({
      ...logsDeclarations.node_getLogsByTags,
      handler: (tags, logsPerTag) => q.logsByTags(tags, logsPerTag ?? MAX_LEGACY_LOGS_PER_TAG),
    }),
    defineMethod({
      ...logsDeclarations.node_getPrivateLogs,
      handler: (from, limit) => q.privateLogs(from, limit),
    }),
    defineMethod({ ...logsDeclarations.node_getPublicLogs, handler: (filter) => q.publicLogs(filter) }),
    defineMethod({
      ...logsDeclarations.node_getContractClassLogs,
      handler: (filter) => q.contractClassLogs(filter),
    }),
  ];
}
