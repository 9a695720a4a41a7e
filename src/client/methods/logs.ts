// The logs methods as declared, without their handlers (src/api/logs.ts adds them).
// Log methods (docs/logs-and-contracts.md, "Logs"): tag queries of both sets, and the earlier set's
// private logs by block range and public / contract class logs by LogFilter.
import { z } from 'zod';
import { contractClassLog, privateLog, publicLog } from '../../core/block-codecs.js';
import { bigintDec, blockHash, frHex, l2Address, txHash, uint } from '../../core/codecs.js';
import { method } from './declare.js';
import { FROM_AFTER_TO, RESOLVE_ERRORS, TX_HASH_WITH_RANGE } from './errors.js';
import { blockParameter } from './params.js';

// Restated from the layers the client may not import; src/api/logs.ts checks at compile time that
// they are the same.
/** A log's place in the chain (src/archiver/log-store.ts). */
export interface LogPosition {
  blockNumber: number;
  txIndex: number;
  /** Across the tx's private logs, then its public logs. */
  logIndex: number;
}
/** Logs per tag in one page of the tag queries (src/queries/logs.ts). */
export const LOGS_PER_TAG_PAGE = 20;
/** Logs in one page of the filter queries (src/queries/logs.ts). */
export const LOG_FILTER_PAGE = 1000;

/** Tags per svc_ tag query (docs/rpc.md, "Limits": at most 1000 tags per call, as in the earlier set). */
export const MAX_TAGS_PER_QUERY = 1000;
/** Tags per node_getLogsByTags call, and its logs-per-tag bounds (earlier set limits). */
export const MAX_LEGACY_TAGS = 1000;
export const MAX_LEGACY_LOGS_PER_TAG = 10;
/** Blocks per node_getPrivateLogs call. */
export const MAX_PRIVATE_LOG_BLOCKS = 1000;

export const u32 = uint.max(0xffffffff, 'at most 4294967295');
export const u16 = uint.max(0xffff, 'at most 65535');

export const CURSOR_FORM = 'a log cursor "<blockNumber>-<txIndexWithinBlock>-<logIndexWithinTx>"';

/** A log cursor: the string form or the object form; results after it are returned. */
export const logCursor = z
  .union(
    [
      z
        .string()
        .regex(/^\d{1,10}-\d{1,5}-\d{1,5}$/, `expected ${CURSOR_FORM}`)
        .transform((s, ctx): LogPosition => {
          const [blockNumber, txIndex, logIndex] = s.split('-').map(Number) as [number, number, number];
          if (blockNumber > 0xffffffff || txIndex > 0xffff || logIndex > 0xffff) {
            ctx.issues.push({ code: 'custom', message: `${CURSOR_FORM} is out of range`, input: s });
            return z.NEVER;
          }
          return { blockNumber, txIndex, logIndex };
        }),
      z
        .object({ blockNumber: u32, txIndexWithinBlock: u16, logIndexWithinTx: u16 })
        .strict()
        .transform(
          (c): LogPosition => ({
            blockNumber: c.blockNumber,
            txIndex: c.txIndexWithinBlock,
            logIndex: c.logIndexWithinTx,
          }),
        ),
    ],
    { error: `expected ${CURSOR_FORM} or {blockNumber, txIndexWithinBlock, logIndexWithinTx}` },
  )
  .describe(
    'Log cursor "<blockNumber>-<txIndexWithinBlock>-<logIndexWithinTx>" (or that object): only logs after it',
  );

export const tagEntry = z
  .union(
    [
      frHex.transform((tag) => ({ tag, afterLog: undefined as LogPosition | undefined })),
      z.object({ tag: frHex, afterLog: logCursor.optional() }).strict(),
    ],
    { error: 'expected a tag (0x field element) or {tag, afterLog?}' },
  )
  .describe('A tag, or {tag, afterLog} to resume after a log');

export const queryMembers = {
  tags: z
    .array(tagEntry)
    .min(1, 'at least one tag')
    .max(MAX_TAGS_PER_QUERY, `at most ${MAX_TAGS_PER_QUERY} tags per query`),
  afterLog: logCursor
    .optional()
    .describe("Only logs after this cursor, for every tag (with a tag's own afterLog, after both)"),
  fromBlock: u32.optional().describe('First block (inclusive)'),
  toBlock: u32.optional().describe('End block (exclusive)'),
  txHash: txHash.optional().describe('Only logs of this tx (not with fromBlock / toBlock)'),
  referenceBlock: blockParameter
    .optional()
    .describe('Only logs up to this block; a block the chain does not have is refused (e.g. after a reorg)'),
  includeEffects: z.boolean().optional().describe("Add the tx's note hashes and nullifiers to each result"),
};

export const privateLogsQuery = z
  .object(queryMembers)
  .strict()
  .describe('PrivateLogsQuery: siloed tags, with optional block range, tx, reference block and effects');

export const publicLogsQuery = z
  .object({ ...queryMembers, contractAddress: l2Address.describe('The emitting contract') })
  .strict()
  .describe('PublicLogsQuery: tags of one contract, with the same options as PrivateLogsQuery');

export const logResult = z
  .object({
    logData: z.array(frHex),
    blockNumber: uint,
    blockHash,
    blockTimestamp: bigintDec,
    txHash,
    txIndexWithinBlock: uint,
    logIndexWithinTx: uint,
    noteHashes: z.array(frHex).optional(),
    nullifiers: z.array(frHex).optional(),
  })
  .describe('LogResult: the log fields (tag first) with its block and tx; effects with includeEffects');

export const logResults = z
  .array(z.array(logResult))
  .describe(
    `One array per tag in input order, at most ${LOGS_PER_TAG_PAGE} logs each; a full page means: ask again after the last`,
  );

export const txScopedLog = z
  .object({
    txHash,
    dataStartIndexForTx: uint,
    logIndexInTx: uint,
    blockNumber: uint,
    blockHash,
    blockTimestamp: bigintDec,
    isFromPublic: z.boolean(),
    log: z.union([privateLog, publicLog]),
  })
  .describe('TxScopedL2Log: a private or public log with its tx and block');

export const logId = z
  .object({ blockNumber: uint, blockHash, txHash, txIndex: uint, logIndex: uint })
  .describe('LogId: block, tx and index of a log');

export const logFilter = z
  .object({
    txHash: txHash.optional(),
    fromBlock: u32.optional().describe('First block (inclusive)'),
    toBlock: u32.optional().describe('End block (exclusive)'),
    afterLog: z
      .object({
        blockNumber: u32,
        blockHash: blockHash.optional(),
        txHash: txHash.optional(),
        txIndex: u16,
        logIndex: u16,
      })
      .strict()
      .optional()
      .describe('Only logs after this LogId'),
    contractAddress: l2Address.optional(),
    tag: frHex.optional().describe("The log's first field"),
  })
  .strict()
  .describe('LogFilter: every given member must match');

export const filteredLogs = <T extends z.ZodType>(log: T, name: string) =>
  z
    .object({ logs: z.array(z.object({ id: logId, log })), maxLogsHit: z.boolean() })
    .describe(
      `${name}: at most ${LOG_FILTER_PAGE} logs; maxLogsHit when more match (continue with afterLog)`,
    );

export const logsDeclarations = {
  svc_getPrivateLogsByTags: method({
    namespace: 'svc',
    name: 'getPrivateLogsByTags',
    summary: `Private logs by siloed tag: one array per tag, in input order, ${LOGS_PER_TAG_PAGE} per page`,
    params: [{ name: 'query', schema: privateLogsQuery }],
    resultName: 'logs',
    result: logResults,
    errors: [TX_HASH_WITH_RANGE, ...RESOLVE_ERRORS],
  }),
  svc_getPublicLogsByTags: method({
    namespace: 'svc',
    name: 'getPublicLogsByTags',
    summary: `Public logs of a contract by tag: one array per tag, in input order, ${LOGS_PER_TAG_PAGE} per page`,
    params: [{ name: 'query', schema: publicLogsQuery }],
    resultName: 'logs',
    result: logResults,
    errors: [TX_HASH_WITH_RANGE, ...RESOLVE_ERRORS],
  }),
  node_getLogsByTags: method({
    namespace: 'node',
    name: 'getLogsByTags',
    summary: 'Private and public logs whose first field is the tag: one array per tag, oldest first',
    params: [
      {
        name: 'tags',
        schema: z.array(frHex).max(MAX_LEGACY_TAGS, `at most ${MAX_LEGACY_TAGS} tags per call`),
        description: `The tags (a log's first field), at most ${MAX_LEGACY_TAGS}`,
      },
      {
        name: 'logsPerTag',
        optional: true,
        schema: z
          .number()
          .int()
          .min(1, 'logsPerTag is at least 1')
          .max(MAX_LEGACY_LOGS_PER_TAG, `logsPerTag is at most ${MAX_LEGACY_LOGS_PER_TAG}`)
          .describe(`Logs per tag, 1 to ${MAX_LEGACY_LOGS_PER_TAG} (default ${MAX_LEGACY_LOGS_PER_TAG})`),
      },
    ],
    resultName: 'logs',
    result: z.array(z.array(txScopedLog)),
  }),
  node_getPrivateLogs: method({
    namespace: 'node',
    name: 'getPrivateLogs',
    summary: `The private logs of up to ${MAX_PRIVATE_LOG_BLOCKS} blocks from a block number, in chain order`,
    params: [
      {
        name: 'from',
        schema: u32.min(1, 'from is at least 1 (the first block)'),
        description: 'The first block number (from 1)',
      },
      {
        name: 'limit',
        schema: uint
          .min(1, 'limit is at least 1')
          .max(MAX_PRIVATE_LOG_BLOCKS, `limit is at most ${MAX_PRIVATE_LOG_BLOCKS} blocks`),
        description: `How many blocks, 1 to ${MAX_PRIVATE_LOG_BLOCKS}`,
      },
    ],
    resultName: 'logs',
    result: z.array(privateLog),
  }),
  node_getPublicLogs: method({
    namespace: 'node',
    name: 'getPublicLogs',
    summary: 'Public logs matching a LogFilter',
    params: [{ name: 'filter', schema: logFilter }],
    resultName: 'response',
    result: filteredLogs(publicLog, 'GetPublicLogsResponse'),
    errors: [FROM_AFTER_TO],
  }),
  node_getContractClassLogs: method({
    namespace: 'node',
    name: 'getContractClassLogs',
    summary: 'Contract class logs matching a LogFilter',
    params: [{ name: 'filter', schema: logFilter }],
    resultName: 'response',
    result: filteredLogs(contractClassLog, 'GetContractClassLogsResponse'),
    errors: [FROM_AFTER_TO],
  }),
} as const;
