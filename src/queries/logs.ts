// Log queries (docs/logs-and-contracts.md, "Logs"), answered from the archiver's log index and blocks:
// by tag in both method sets, private logs by block range, and public and contract class logs
// by LogFilter.
import type { ChainReader } from '../archiver/chain-reader.js';
import { comparePositions, type LogKind, type LogPosition, type TaggedLog } from '../archiver/log-store.js';
import {
  type ContractClassLog,
  type L2Block,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  type PrivateLog,
  type PublicLog,
} from '../core/block.js';
import { invalidParams } from '../core/errors.js';
import type { Fr } from '../core/field.js';
import type { BlockRef } from './chain.js';

/** Logs per tag per page of the current set's tag queries (docs/logs-and-contracts.md). */
export const LOGS_PER_TAG_PAGE = 20;
/** Logs per answer of the earlier set's LogFilter queries (the reference's archiver page). */
export const LOG_FILTER_PAGE = 1000;

export interface TagQuery {
  tag: Fr;
  afterLog?: LogPosition | undefined;
}

export interface LogsByTagsQuery {
  tags: TagQuery[];
  /** Only logs after this position, for every tag; with a tag's own afterLog, after both. */
  afterLog?: LogPosition | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
  txHash?: Fr | undefined;
  referenceBlock?: BlockRef | undefined;
  includeEffects?: boolean | undefined;
}

export interface LogResult {
  logData: Fr[];
  blockNumber: number;
  blockHash: Fr;
  blockTimestamp: bigint;
  txHash: Fr;
  txIndexWithinBlock: number;
  logIndexWithinTx: number;
  noteHashes?: Fr[];
  nullifiers?: Fr[];
}

/** One page of logs per tag: private logs, or the public logs of one contract. */
export interface TagPageQuery {
  tags: readonly Fr[];
  /** The emitting contract of public logs; private logs without it. */
  contractAddress?: Fr | undefined;
  page: number;
  perPage: number;
  referenceBlock?: BlockRef | undefined;
}

export interface TaggedLogWithEffects {
  txHash: Fr;
  blockNumber: number;
  blockTimestamp: bigint;
  logData: Fr[];
  noteHashes: Fr[];
  firstNullifier: Fr;
}

export interface LogId {
  blockNumber: number;
  blockHash: Fr;
  txHash: Fr;
  txIndex: number;
  logIndex: number;
}

export interface LogFilter {
  txHash?: Fr | undefined;
  fromBlock?: number | undefined;
  toBlock?: number | undefined;
  afterLog?: Pick<LogId, 'blockNumber' | 'txIndex' | 'logIndex'> | undefined;
  contractAddress?: Fr | undefined;
  tag?: Fr | undefined;
}

export interface FilteredLogs<L> {
  logs: { id: LogId; log: L }[];
  maxLogsHit: boolean;
}

/** The earlier set's TxScopedL2Log. */
export interface TxScopedLog {
  txHash: Fr;
  dataStartIndexForTx: number;
  logIndexInTx: number;
  blockNumber: number;
  blockHash: Fr;
  blockTimestamp: bigint;
  isFromPublic: boolean;
  log: PrivateLog | PublicLog;
}

/** The later of two cursors; either may be absent. */
function laterOf(a: LogPosition | undefined, b: LogPosition | undefined): LogPosition | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** Block bounds of a query: [from, to). */
interface Range {
  from: number;
  to: number;
}

export class LogQueries {
  constructor(
    private readonly chain: ChainReader,
    /** Resolves a reference block to its number; throws (refused) when the chain lacks it. */
    private readonly resolve: (ref: BlockRef) => number,
  ) {}

  /** svc_getPrivateLogsByTags: per siloed tag, its private logs in chain order, a page at a time. */
  privateLogsByTags(query: LogsByTagsQuery): LogResult[][] {
    return this.byTags(query, undefined);
  }

  /** svc_getPublicLogsByTags: per tag, the public logs of one contract. */
  publicLogsByTags(query: LogsByTagsQuery & { contractAddress: Fr }): LogResult[][] {
    return this.byTags(query, query.contractAddress);
  }

  private byTags(query: LogsByTagsQuery, contractAddress: Fr | undefined): LogResult[][] {
    if (query.txHash !== undefined && (query.fromBlock !== undefined || query.toBlock !== undefined)) {
      throw invalidParams('txHash cannot be combined with fromBlock or toBlock');
    }
    const range = this.range(query);
    if (range === undefined) return query.tags.map(() => []);
    const kinds: LogKind[] = contractAddress === undefined ? ['private'] : ['public'];
    return query.tags.map((t) =>
      this.chain.logs
        .scan({
          tag: t.tag,
          contractAddress,
          kinds,
          after: laterOf(query.afterLog, t.afterLog),
          fromBlock: range.from,
          toBlock: range.to,
          txHash: query.txHash,
          limit: LOGS_PER_TAG_PAGE,
        })
        .map((log) => this.logResult(log, query.includeEffects === true)),
    );
  }

  /** The blocks a tag query covers, or undefined when it covers none (e.g. an unknown tx). */
  private range(query: LogsByTagsQuery): Range | undefined {
    let from = query.fromBlock ?? 1;
    let to = query.toBlock ?? Number.POSITIVE_INFINITY;
    if (query.referenceBlock !== undefined) to = Math.min(to, this.resolve(query.referenceBlock) + 1);
    if (query.txHash !== undefined) {
      const at = this.chain.getTxEffect(query.txHash);
      if (at === undefined) return undefined;
      from = Math.max(from, at.l2BlockNumber);
      to = Math.min(to, at.l2BlockNumber + 1);
    }
    to = Math.min(to, this.chain.latestBlockNumber + 1);
    return from < to ? { from, to } : undefined;
  }

  private logResult(log: TaggedLog, includeEffects: boolean): LogResult {
    const result: LogResult = {
      logData: log.fields,
      blockNumber: log.position.blockNumber,
      blockHash: log.blockHash,
      blockTimestamp: log.blockTimestamp,
      txHash: log.txHash,
      txIndexWithinBlock: log.position.txIndex,
      logIndexWithinTx: log.position.logIndex,
    };
    if (includeEffects) {
      const effect = this.chain.getTxEffect(log.txHash)?.data;
      result.noteHashes = effect?.noteHashes ?? [];
      result.nullifiers = effect?.nullifiers ?? [];
    }
    return result;
  }

  /**
   * Per tag, one page of its logs in chain order: page `page` of `perPage` logs, up to the
   * reference block; each with its tx's note hashes and first nullifier (the reference API's
   * getPrivateLogsByTags and getPublicLogsByTagsFromContract).
   */
  logsByTagsPage(query: TagPageQuery): TaggedLogWithEffects[][] {
    const to = Math.min(
      query.referenceBlock === undefined ? Number.POSITIVE_INFINITY : this.resolve(query.referenceBlock) + 1,
      this.chain.latestBlockNumber + 1,
    );
    const skip = query.page * query.perPage;
    return query.tags.map((tag) =>
      this.chain.logs
        .scan({
          tag,
          contractAddress: query.contractAddress,
          kinds: [query.contractAddress === undefined ? 'private' : 'public'],
          fromBlock: 1,
          toBlock: to,
          limit: skip + query.perPage,
        })
        .slice(skip)
        .map((log) => {
          const effect = this.chain.getTxEffect(log.txHash)?.data;
          return {
            txHash: log.txHash,
            blockNumber: log.position.blockNumber,
            blockTimestamp: log.blockTimestamp,
            logData: log.fields,
            noteHashes: effect?.noteHashes ?? [],
            firstNullifier: effect?.nullifiers[0] ?? 0n,
          };
        }),
    );
  }

  /** node_getLogsByTags: per tag, private and public logs whose first field is the tag. */
  logsByTags(tags: readonly Fr[], logsPerTag: number): TxScopedLog[][] {
    return tags.map((tag) =>
      this.chain.logs.scan({ tag, kinds: ['private', 'public'], limit: logsPerTag }).map((log) => ({
        txHash: log.txHash,
        dataStartIndexForTx: log.dataStartIndexForTx,
        logIndexInTx: log.indexInKind,
        blockNumber: log.position.blockNumber,
        blockHash: log.blockHash,
        blockTimestamp: log.blockTimestamp,
        isFromPublic: log.kind === 'public',
        log:
          log.kind === 'private'
            ? {
                fields: [...log.fields, ...Array(PRIVATE_LOG_SIZE_IN_FIELDS - log.fields.length).fill(0n)],
                emittedLength: log.fields.length,
              }
            : { contractAddress: log.contractAddress, fields: log.fields },
      })),
    );
  }

  /** node_getPrivateLogs: the private logs of `limit` blocks from `from`, in chain order. */
  privateLogs(from: number, limit: number): PrivateLog[] {
    const out: PrivateLog[] = [];
    const to = Math.min(from + limit, this.chain.latestBlockNumber + 1);
    for (const n of this.chain.logs.blocksWith('private', from, to, limit)) {
      for (const effect of this.chain.getBlock(n)!.body.txEffects) out.push(...effect.privateLogs);
    }
    return out;
  }

  /** node_getPublicLogs: public logs matching every member of the filter, a page at a time. */
  publicLogs(filter: LogFilter): FilteredLogs<PublicLog> {
    return this.filtered(filter, 'public', (effect) => effect.publicLogs);
  }

  /** node_getContractClassLogs: contract class logs matching the filter, a page at a time. */
  contractClassLogs(filter: LogFilter): FilteredLogs<ContractClassLog> {
    return this.filtered(filter, 'class', (effect) => effect.contractClassLogs);
  }

  private filtered<L extends { contractAddress: Fr; fields: Fr[] | { fields: Fr[] } }>(
    filter: LogFilter,
    kind: 'public' | 'class',
    logsOf: (effect: L2Block['body']['txEffects'][number]) => L[],
  ): FilteredLogs<L> {
    if (filter.fromBlock !== undefined && filter.toBlock !== undefined && filter.fromBlock > filter.toBlock) {
      throw invalidParams(
        `fromBlock (${filter.fromBlock}) must not be after toBlock (${filter.toBlock}); toBlock is exclusive`,
      );
    }
    let from = Math.max(filter.fromBlock ?? 1, filter.afterLog?.blockNumber ?? 0, 1);
    let to = Math.min(filter.toBlock ?? Number.POSITIVE_INFINITY, this.chain.latestBlockNumber + 1);
    if (filter.txHash !== undefined) {
      const at = this.chain.getTxEffect(filter.txHash);
      if (at === undefined) return { logs: [], maxLogsHit: false };
      from = Math.max(from, at.l2BlockNumber);
      to = Math.min(to, at.l2BlockNumber + 1);
    }
    const logs: FilteredLogs<L>['logs'] = [];
    const matches = (log: L, id: LogId) =>
      (filter.contractAddress === undefined || log.contractAddress === filter.contractAddress) &&
      (filter.tag === undefined || firstField(log) === filter.tag) &&
      (filter.txHash === undefined || id.txHash === filter.txHash) &&
      (filter.afterLog === undefined || comparePositions(positionOf(id), positionOf(filter.afterLog)) > 0);
    // Blocks are visited in order and only those holding logs of this kind; a page stops early.
    let next = from;
    while (next < to) {
      const blocks = this.chain.logs.blocksWith(kind, next, to, 64);
      if (blocks.length === 0) break;
      for (const n of blocks) {
        const block = this.chain.getBlock(n)!;
        for (const [txIndex, effect] of block.body.txEffects.entries()) {
          for (const [logIndex, log] of logsOf(effect).entries()) {
            const id = { blockNumber: n, blockHash: block.hash, txHash: effect.txHash, txIndex, logIndex };
            if (!matches(log, id)) continue;
            if (logs.length >= LOG_FILTER_PAGE) return { logs, maxLogsHit: true };
            logs.push({ id, log });
          }
        }
      }
      next = blocks[blocks.length - 1]! + 1;
    }
    return { logs, maxLogsHit: false };
  }
}

const positionOf = (id: Pick<LogId, 'blockNumber' | 'txIndex' | 'logIndex'>): LogPosition => ({
  blockNumber: id.blockNumber,
  txIndex: id.txIndex,
  logIndex: id.logIndex,
});

/** A log's tag: its first field (contract class logs nest theirs). */
function firstField(log: { fields: Fr[] | { fields: Fr[] } }): Fr | undefined {
  return Array.isArray(log.fields) ? log.fields[0] : log.fields.fields[0];
}
