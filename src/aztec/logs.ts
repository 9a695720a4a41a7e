// The reference API's log methods: tagged logs a page at a time (how a wallet discovers its
// notes) and public and contract class logs by filter, answered by cairn's log queries.
import { z } from 'zod';
import { RESOLVE_ERRORS } from '../client/methods/errors.js';
import { logsDeclarations } from '../client/methods/logs.js';
import type { LogQueries } from '../queries/logs.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { aztecAddress, blockHash, fr, integer } from './params.js';
import { txScopedL2Log } from './schemas.js';
import { MAX_LOGS_PER_TAG, MAX_RPC_LEN } from './versions.js';

/** What the log methods call. */
export interface AztecLogApiPorts {
  logs: Pick<LogQueries, 'logsByTagsPage' | 'publicLogs' | 'contractClassLogs'>;
}

const tags = {
  name: 'tags',
  schema: z.array(fr).max(MAX_RPC_LEN, `at most ${MAX_RPC_LEN} tags per call`).describe('Tags'),
};
const page = {
  name: 'page',
  schema: integer(0).describe(`Page of ${MAX_LOGS_PER_TAG} logs per tag, from 0`),
  optional: true,
} as const;
const referenceBlock = {
  name: 'referenceBlock',
  schema: blockHash.describe('Only logs up to this block (by hash)'),
  optional: true,
} as const;
const pages = z
  .array(z.array(txScopedL2Log))
  .describe(`One array per tag in input order, at most ${MAX_LOGS_PER_TAG} logs each`);

export function aztecLogMethods({ logs: q }: AztecLogApiPorts): RpcMethod[] {
  return [
    defineMethod({
      namespace: 'node',
      name: 'getPrivateLogsByTags',
      summary: 'Private logs by siloed tag, a page at a time, up to a reference block',
      params: [tags, page, referenceBlock],
      resultName: 'logs',
      result: pages,
      errors: RESOLVE_ERRORS,
      handler: (t, p, ref) =>
        q.logsByTagsPage({
          tags: t,
          page: p ?? 0,
          perPage: MAX_LOGS_PER_TAG,
          referenceBlock: ref === undefined ? undefined : { kind: 'hash', hash: ref },
        }),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getPublicLogsByTagsFromContract',
      summary: 'Public logs of one contract by tag, a page at a time, up to a reference block',
      params: [{ name: 'contractAddress', schema: aztecAddress }, tags, page, referenceBlock],
      resultName: 'logs',
      result: pages,
      errors: RESOLVE_ERRORS,
      handler: (contractAddress, t, p, ref) =>
        q.logsByTagsPage({
          tags: t,
          contractAddress,
          page: p ?? 0,
          perPage: MAX_LOGS_PER_TAG,
          referenceBlock: ref === undefined ? undefined : { kind: 'hash', hash: ref },
        }),
    }),
    defineMethod({
      ...logsDeclarations.node_getPublicLogs,
      handler: (filter) => q.publicLogs(filter),
    }),
    defineMethod({
      ...logsDeclarations.node_getContractClassLogs,
      handler: (filter) => q.contractClassLogs(filter),
    }),
  ];
}
