// The archiver's log index (inside the `archiver` environment, written in the same transaction
// as the blocks): private and public logs by their tag (first field), public logs by contract
// and tag, and which blocks hold logs of each kind. A log's position is (block, tx index in the
// block, log index in the tx), where the log index counts the tx's private logs first, then its
// public logs (docs/logs-and-contracts.md, "Logs"). Keys end in the position, so a range
// scan over one tag returns its logs in chain order and a cursor is a key to start after.
import type { L2Block, PrivateLog, PublicLog } from '../core/block.js';
import { bytesToFr, type Fr, frToBuffer } from '../core/field.js';
import type { Database, StoreEnvironment } from '../store/environment.js';
import { MAX_NOTE_HASHES_PER_TX } from '../world-state/types.js';
import { u32Key } from './keys.js';

/** Where a log is in the chain. */
export interface LogPosition {
  blockNumber: number;
  txIndex: number;
  /** Across the tx's private logs, then its public logs. */
  logIndex: number;
}

export type LogKind = 'private' | 'public';

/** A log found through the tag index, with what a result needs about its tx and block. */
export interface TaggedLog {
  kind: LogKind;
  position: LogPosition;
  /** The log's index among the tx's logs of its own kind. */
  indexInKind: number;
  txHash: Fr;
  blockHash: Fr;
  blockTimestamp: bigint;
  /** The note hash tree index of the tx's first note hash slot (64 slots per tx). */
  dataStartIndexForTx: number;
  /** Zero for private logs. */
  contractAddress: Fr;
  /** The emitted fields; the first is the tag. */
  fields: Fr[];
}

/** What a scan returns logs from: one tag, optionally one contract, within a position range. */
export interface TagScan {
  tag: Fr;
  /** Public logs of this contract only (via the contract index). */
  contractAddress?: Fr;
  kinds: readonly LogKind[];
  /** Only logs strictly after this position. */
  after?: LogPosition;
  fromBlock?: number;
  /** Exclusive. */
  toBlock?: number;
  /** Only logs of this tx. */
  txHash?: Fr;
  limit: number;
}

const KIND_PRIVATE = 0;
const KIND_PUBLIC = 1;
const KIND_CLASS = 2;
const POSITION_BYTES = 8;

export function positionKey(prefix: readonly Buffer[], p: LogPosition): Buffer {
  const pos = Buffer.allocUnsafe(POSITION_BYTES);
  pos.writeUInt32BE(p.blockNumber, 0);
  pos.writeUInt16BE(p.txIndex, 4);
  pos.writeUInt16BE(p.logIndex, 6);
  return Buffer.concat([...prefix, pos]);
}

function readPosition(key: Buffer, offset: number): LogPosition {
  return {
    blockNumber: key.readUInt32BE(offset),
    txIndex: key.readUInt16BE(offset + 4),
    logIndex: key.readUInt16BE(offset + 6),
  };
}

// Entry: kind 1 | txHash 32 | blockHash 32 | timestamp 8 | dataStart 8 | indexInKind 2 |
// contract 32 | fields 32 each.
const ENTRY_HEADER = 1 + 32 + 32 + 8 + 8 + 2 + 32;

function encodeEntry(log: Omit<TaggedLog, 'position'>): Buffer {
  const out = Buffer.alloc(ENTRY_HEADER + 32 * log.fields.length);
  out.writeUInt8(log.kind === 'private' ? KIND_PRIVATE : KIND_PUBLIC, 0);
  frToBuffer(log.txHash).copy(out, 1);
  frToBuffer(log.blockHash).copy(out, 33);
  out.writeBigUInt64BE(log.blockTimestamp, 65);
  out.writeBigUInt64BE(BigInt(log.dataStartIndexForTx), 73);
  out.writeUInt16BE(log.indexInKind, 81);
  frToBuffer(log.contractAddress).copy(out, 83);
  log.fields.forEach((f, i) => {
    frToBuffer(f).copy(out, ENTRY_HEADER + 32 * i);
  });
  return out;
}

const readFr = (b: Buffer, at: number): Fr => bytesToFr(b.subarray(at, at + 32));

function decodeEntry(b: Buffer, position: LogPosition): TaggedLog {
  const fields: Fr[] = [];
  for (let at = ENTRY_HEADER; at < b.length; at += 32) fields.push(readFr(b, at));
  return {
    kind: b.readUInt8(0) === KIND_PRIVATE ? 'private' : 'public',
    position,
    txHash: readFr(b, 1),
    blockHash: readFr(b, 33),
    blockTimestamp: b.readBigUInt64BE(65),
    dataStartIndexForTx: Number(b.readBigUInt64BE(73)),
    indexInKind: b.readUInt16BE(81),
    contractAddress: readFr(b, 83),
    fields,
  };
}

/** The tag index entry of a public log only points at its contract's entry. */
function encodePointer(contract: Fr): Buffer {
  const out = Buffer.allocUnsafe(33);
  out.writeUInt8(KIND_PUBLIC, 0);
  frToBuffer(contract).copy(out, 1);
  return out;
}

const emitted = (log: PrivateLog) => log.fields.slice(0, log.emittedLength);

export function comparePositions(a: LogPosition, b: LogPosition): number {
  return a.blockNumber - b.blockNumber || a.txIndex - b.txIndex || a.logIndex - b.logIndex;
}

export class LogStore {
  /** tag ‖ position → private entry, or a pointer (kind, contract) for a public log. */
  private readonly byTag: Database<Buffer, Buffer>;
  /** contract ‖ tag ‖ position → public entry. */
  private readonly publicByContract: Database<Buffer, Buffer>;
  /** kind ‖ block number → number of logs of that kind in the block. */
  private readonly blocksWithLogs: Database<Buffer, Buffer>;

  constructor(env: StoreEnvironment) {
    this.byTag = env.binaryDatabase('logs-by-tag');
    this.publicByContract = env.binaryDatabase('public-logs-by-contract');
    this.blocksWithLogs = env.binaryDatabase('blocks-with-logs');
  }

  /** Empties the index (before a rebuild); runs inside the chain store's write. */
  clear(): void {
    this.byTag.clearSync();
    this.publicByContract.clearSync();
    this.blocksWithLogs.clearSync();
  }

  /** Indexes a block's logs; runs inside the chain store's write. */
  addBlock(block: L2Block): void {
    this.forEachLog(block, {
      private: (key, entry) => this.byTag.putSync(key, encodeEntry(entry)),
      public: (tagKey, contractKey, entry) => {
        this.byTag.putSync(tagKey, encodePointer(entry.contractAddress));
        this.publicByContract.putSync(contractKey, encodeEntry(entry));
      },
      counts: (kind, count) => {
        const key = Buffer.concat([Buffer.of(kind), u32Key(block.number)]);
        if (count > 0) this.blocksWithLogs.putSync(key, u32Key(count));
      },
    });
  }

  /** Removes a block's logs from the index; runs inside the chain store's write. */
  removeBlock(block: L2Block): void {
    this.forEachLog(block, {
      private: (key) => this.byTag.removeSync(key),
      public: (tagKey, contractKey) => {
        this.byTag.removeSync(tagKey);
        this.publicByContract.removeSync(contractKey);
      },
      counts: (kind) =>
        this.blocksWithLogs.removeSync(Buffer.concat([Buffer.of(kind), u32Key(block.number)])),
    });
  }

  private forEachLog(
    block: L2Block,
    visit: {
      private(key: Buffer, entry: Omit<TaggedLog, 'position'>): void;
      public(tagKey: Buffer, contractKey: Buffer, entry: Omit<TaggedLog, 'position'>): void;
      counts(kind: number, count: number): void;
    },
  ): void {
    const effects = block.body.txEffects;
    const noteHashEnd = block.header.state.partial.noteHashTree.nextAvailableLeafIndex;
    const firstDataIndex = noteHashEnd - effects.length * MAX_NOTE_HASHES_PER_TX;
    let privateCount = 0;
    let publicCount = 0;
    let classCount = 0;
    effects.forEach((effect, txIndex) => {
      const common = {
        txHash: effect.txHash,
        blockHash: block.hash,
        blockTimestamp: block.header.globalVariables.timestamp,
        dataStartIndexForTx: firstDataIndex + txIndex * MAX_NOTE_HASHES_PER_TX,
      };
      effect.privateLogs.forEach((log, i) => {
        const fields = emitted(log);
        const tag = frToBuffer(fields[0] ?? 0n);
        const key = positionKey([tag], { blockNumber: block.number, txIndex, logIndex: i });
        visit.private(key, { ...common, kind: 'private', indexInKind: i, contractAddress: 0n, fields });
      });
      const offset = effect.privateLogs.length;
      effect.publicLogs.forEach((log: PublicLog, i) => {
        const tag = frToBuffer(log.fields[0] ?? 0n);
        const position = { blockNumber: block.number, txIndex, logIndex: offset + i };
        visit.public(
          positionKey([tag], position),
          positionKey([frToBuffer(log.contractAddress), tag], position),
          {
            ...common,
            kind: 'public',
            indexInKind: i,
            contractAddress: log.contractAddress,
            fields: log.fields,
          },
        );
      });
      privateCount += effect.privateLogs.length;
      publicCount += effect.publicLogs.length;
      classCount += effect.contractClassLogs.length;
    });
    visit.counts(KIND_PRIVATE, privateCount);
    visit.counts(KIND_PUBLIC, publicCount);
    visit.counts(KIND_CLASS, classCount);
  }

  /**
   * Logs with one tag in chain order, within the scan's bounds, at most `limit`. A tx filter
   * is applied after the key range, which the caller narrows to the tx's block first.
   */
  scan(s: TagScan): TaggedLog[] {
    const tag = frToBuffer(s.tag);
    const prefix = s.contractAddress === undefined ? [tag] : [frToBuffer(s.contractAddress), tag];
    const db = s.contractAddress === undefined ? this.byTag : this.publicByContract;
    const from = Math.max(s.fromBlock ?? 0, 0);
    let start = positionKey(prefix, { blockNumber: from, txIndex: 0, logIndex: 0 });
    if (s.after && comparePositions(s.after, { blockNumber: from, txIndex: 0, logIndex: 0 }) >= 0) {
      // Keys are fixed length, so the key of the cursor followed by a zero byte sorts just after it.
      start = Buffer.concat([positionKey(prefix, s.after), Buffer.of(0)]);
    }
    const end =
      s.toBlock !== undefined && s.toBlock <= 0xffffffff
        ? positionKey(prefix, { blockNumber: s.toBlock, txIndex: 0, logIndex: 0 })
        : Buffer.concat([...prefix, Buffer.alloc(POSITION_BYTES, 0xff), Buffer.of(0)]);
    if (s.limit <= 0 || Buffer.compare(start, end) >= 0) return [];
    const positionAt = prefix.length * 32;
    const out: TaggedLog[] = [];
    for (const { key, value } of db.getRange({ start, end })) {
      const position = readPosition(key, positionAt);
      const kind = value.readUInt8(0) === KIND_PRIVATE ? 'private' : 'public';
      if (!s.kinds.includes(kind)) continue;
      const entry =
        value.length === 33 ? this.publicByContract.get(Buffer.concat([value.subarray(1), key])) : value;
      if (entry === undefined) continue;
      const log = decodeEntry(entry, position);
      if (s.txHash !== undefined && log.txHash !== s.txHash) continue;
      out.push(log);
      if (out.length >= s.limit) break;
    }
    return out;
  }

  /**
   * Numbers of the blocks in [from, to) holding logs of a kind, in order, at most `limit`:
   * range scans over logs visit only these blocks.
   */
  blocksWith(kind: LogKind | 'class', from: number, to: number, limit: number): number[] {
    const k = kind === 'private' ? KIND_PRIVATE : kind === 'public' ? KIND_PUBLIC : KIND_CLASS;
    if (from >= to) return [];
    const start = Buffer.concat([Buffer.of(k), u32Key(Math.max(from, 0))]);
    const end = Buffer.concat([Buffer.of(k), u32Key(Math.min(to, 0xffffffff))]);
    return Array.from(this.blocksWithLogs.getRange({ start, end, limit }), (e) => e.key.readUInt32BE(1));
  }
}
