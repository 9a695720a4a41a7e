// The archiver's index of L1-to-L2 messages (inside the `archiver` environment): every message
// sent to the inbox, by its leaf (the message hash), with its global leaf index and the L1 block
// that carried it. Messages are recorded as soon as L1 has them — before the checkpoint that
// inserts them exists — and forgotten when an L1 reorg takes their L1 block away.
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../core/block.js';
import { type Fr, frToBuffer } from '../core/field.js';
import type { MessageSentEvent } from '../l1/rollup-client.js';
import type { Database, StoreEnvironment } from '../store/environment.js';
import { u64Key } from './keys.js';

/** The checkpoint (inbox group n holds indexes (n − 1)·1024 … n·1024 − 1) whose first block inserts the message with this global index. */
export const checkpointOfMessageIndex = (index: bigint): number =>
  Number(index / BigInt(L1_TO_L2_MESSAGES_PER_CHECKPOINT)) + 1;

export interface KnownMessage {
  index: bigint;
  l1BlockNumber: bigint;
}

export class MessageStore {
  /** leaf → index ‖ L1 block. */
  private readonly byLeaf: Database<Buffer, Buffer>;
  /** L1 block ‖ index → leaf, to forget the messages of reorged L1 blocks. */
  private readonly byL1Block: Database<Buffer, Buffer>;

  constructor(private readonly env: StoreEnvironment) {
    this.byLeaf = env.binaryDatabase('l1-to-l2-messages');
    this.byL1Block = env.binaryDatabase('l1-to-l2-messages-by-l1-block');
  }

  /** Records messages (again, harmlessly, if L1 blocks are read twice). */
  add(events: readonly MessageSentEvent[]): void {
    if (events.length === 0) return;
    this.env.write(() => {
      for (const e of events) {
        this.byLeaf.putSync(frToBuffer(e.leaf), Buffer.concat([u64Key(e.index), u64Key(e.l1BlockNumber)]));
        this.byL1Block.putSync(Buffer.concat([u64Key(e.l1BlockNumber), u64Key(e.index)]), frToBuffer(e.leaf));
      }
    });
  }

  get(leaf: Fr): KnownMessage | undefined {
    const value = this.byLeaf.get(frToBuffer(leaf));
    return value === undefined
      ? undefined
      : { index: value.readBigUInt64BE(0), l1BlockNumber: value.readBigUInt64BE(8) };
  }

  /** Forgets the messages sent in L1 blocks after `l1BlockNumber`; returns how many. */
  removeAfterL1Block(l1BlockNumber: bigint): number {
    return this.env.write(() => this.removeAfterL1BlockInWrite(l1BlockNumber));
  }

  /** As removeAfterL1Block, inside a write the caller runs (with other changes). */
  removeAfterL1BlockInWrite(l1BlockNumber: bigint): number {
    const doomed = Array.from(this.byL1Block.getRange({ start: u64Key(l1BlockNumber + 1n) }));
    for (const { key, value } of doomed) {
      this.byL1Block.removeSync(key);
      this.byLeaf.removeSync(value);
    }
    return doomed.length;
  }
}
