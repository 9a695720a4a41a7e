// The reference node's native world state (`NativeWorldStateService` of @aztec/world-state 4.1.2,
// C++ trees on LMDB), loaded from a folder outside the repository and driven through the same
// message channel its node uses. Never a dependency of cairn: the packages are found with
// createRequire from `<dir>/package.json` and imported by absolute path.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bytesToFr, type Fr, frToBuffer } from '../../src/core/field.js';
import { TREE_IDS, TreeId, type TreeSnapshot } from '../../src/world-state/types.js';
import { type Block, paddedNoteHashes, paddedNullifiers } from './blocks.js';

/** Where the reference's packages are installed: `CAIRN_REFNATIVE_DIR`, default `~/refnative`. */
export function referenceDir(): string {
  const dir = process.env.CAIRN_REFNATIVE_DIR;
  return dir !== undefined && dir !== '' ? dir : join(homedir(), 'refnative');
}

/** The message types used here (WorldStateMessageType of @aztec/world-state 4.1.2, checked at load). */
interface MessageTypes {
  GET_TREE_INFO: number;
  GET_STATE_REFERENCE: number;
  GET_SIBLING_PATH: number;
  APPEND_LEAVES: number;
  BATCH_INSERT: number;
  SEQUENTIAL_INSERT: number;
  SYNC_BLOCK: number;
  CREATE_FORK: number;
  DELETE_FORK: number;
  UNWIND_BLOCKS: number;
  GET_STATUS: number;
}

/** `[root, size]` as the C++ side sends and takes a tree's state. */
type TreeStateRef = [Buffer, bigint | number];

interface TreeMeta {
  root: Buffer;
  size: bigint | number;
}
interface StatusFull {
  meta: {
    nullifierTreeMeta: TreeMeta;
    noteHashTreeMeta: TreeMeta;
    publicDataTreeMeta: TreeMeta;
    messageTreeMeta: TreeMeta;
    archiveTreeMeta: TreeMeta;
  };
}

interface Channel {
  call(type: number, body: object): Promise<unknown>;
}
interface SiblingPathLike {
  toBufferArray(): Buffer[];
}
interface CommittedReads {
  getSiblingPath(tree: number, index: bigint): Promise<SiblingPathLike>;
}
interface Service {
  getCommitted(): CommittedReads;
  close(): Promise<void>;
}
interface ServiceClass {
  new: (
    rollupAddress: unknown,
    dataDir: string,
    sizes: Record<string, number>,
    prefilledPublicData?: unknown[],
  ) => Promise<Service>;
}

export interface ReferenceModule {
  dir: string;
  version: string;
  service: ServiceClass;
  types: MessageTypes;
  zeroAddress: unknown;
}

/** The glibc this process runs on (from Node's diagnostic report), or undefined. */
export function runtimeGlibc(): string | undefined {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header;
  return header?.glibcVersionRuntime;
}

/**
 * Imports @aztec/world-state from `dir`. Throws with a one-line reason when it is not there; a
 * native add-on that cannot load (glibc < 2.38) fails here or when the first instance opens.
 */
export async function loadReference(dir: string): Promise<ReferenceModule> {
  const manifest = join(dir, 'node_modules', '@aztec', 'world-state', 'package.json');
  if (!existsSync(manifest)) throw new Error(`@aztec/world-state is not installed in ${dir}`);
  const require = createRequire(join(dir, 'package.json'));
  const version = (require(manifest) as { version: string }).version;
  // The reference's logger reads LOG_LEVEL when it loads; its info lines would drown the figures.
  process.env.LOG_LEVEL ??= 'warn';
  const nativeEntry = require.resolve('@aztec/world-state/native');
  const native = (await import(pathToFileURL(nativeEntry).href)) as { NativeWorldStateService: ServiceClass };
  // message.js is not exported by the package; it sits next to the entry point.
  const message = (await import(pathToFileURL(join(dirname(nativeEntry), 'message.js')).href)) as {
    WorldStateMessageType: Record<string, number>;
  };
  const eth = (await import(pathToFileURL(require.resolve('@aztec/foundation/eth-address')).href)) as {
    EthAddress: { ZERO: unknown };
  };
  const names: (keyof MessageTypes)[] = [
    'GET_TREE_INFO',
    'GET_STATE_REFERENCE',
    'GET_SIBLING_PATH',
    'APPEND_LEAVES',
    'BATCH_INSERT',
    'SEQUENTIAL_INSERT',
    'SYNC_BLOCK',
    'CREATE_FORK',
    'DELETE_FORK',
    'UNWIND_BLOCKS',
    'GET_STATUS',
  ];
  const types = {} as MessageTypes;
  for (const name of names) {
    const value = message.WorldStateMessageType[name];
    if (typeof value !== 'number') throw new Error(`@aztec/world-state ${version} has no message ${name}`);
    types[name] = value;
  }
  return { dir, version, service: native.NativeWorldStateService, types, zeroAddress: eth.EthAddress.ZERO };
}

/** The LMDB map size of each tree, in KiB (what NativeWorldStateService.tmp uses: 10 GiB). */
const MAP_SIZE_KB = 10 * 1024 * 1024;

const nullifierLeaf = (value: Fr) => ({ nullifier: frToBuffer(value) });
const publicDataLeaf = (w: { slot: Fr; value: Fr }) => ({
  slot: frToBuffer(w.slot),
  value: frToBuffer(w.value),
});

/** One reference world state, opened on a folder. */
export class ReferenceWorldState {
  private constructor(
    private readonly mod: ReferenceModule,
    private readonly service: Service,
    private readonly channel: Channel,
    private latest: number,
  ) {}

  /** Opens (creating when empty) a reference world state in `dataDir`. */
  static async open(mod: ReferenceModule, dataDir: string): Promise<ReferenceWorldState> {
    const sizes = {
      archiveTreeMapSizeKb: MAP_SIZE_KB,
      nullifierTreeMapSizeKb: MAP_SIZE_KB,
      noteHashTreeMapSizeKb: MAP_SIZE_KB,
      messageTreeMapSizeKb: MAP_SIZE_KB,
      publicDataTreeMapSizeKb: MAP_SIZE_KB,
    };
    const service = await mod.service.new(mod.zeroAddress, dataDir, sizes, []);
    // The service's message channel (a protected field): block syncs, unwinds and forks go
    // through it exactly as the service's own methods send them.
    const channel = (service as unknown as { instance: Channel }).instance;
    const ref = new ReferenceWorldState(mod, service, channel, 0);
    const status = (await channel.call(mod.types.GET_STATUS, { canonical: true })) as {
      unfinalizedBlockNumber: number | bigint;
    };
    ref.latest = Number(status.unfinalizedBlockNumber);
    return ref;
  }

  get latestBlockNumber(): number {
    return this.latest;
  }

  /** The committed root and size of every tree. */
  async snapshots(): Promise<Record<TreeId, TreeSnapshot>> {
    const out = {} as Record<TreeId, TreeSnapshot>;
    for (const tree of TREE_IDS) {
      const info = (await this.channel.call(this.mod.types.GET_TREE_INFO, {
        treeId: tree,
        revision: { forkId: 0, blockNumber: 0, includeUncommitted: false },
      })) as { root: Buffer; size: number | bigint };
      out[tree] = { root: bytesToFr(info.root), nextAvailableLeafIndex: Number(info.size) };
    }
    return out;
  }

  /**
   * SYNC_BLOCK: what the reference's node does with a block it syncs (the block's leaves, padded
   * per tx as its handleL2BlockAndMessages pads them, and its state reference). The C++ side
   * refuses the block when `stateRef` differs from the roots it computes. Returns every tree's
   * root and size after the block.
   */
  async syncBlock(block: Block, stateRef: Map<number, TreeStateRef>): Promise<Record<TreeId, TreeSnapshot>> {
    const number = this.latest + 1;
    const status = (await this.channel.call(this.mod.types.SYNC_BLOCK, {
      blockNumber: number,
      blockHeaderHash: frToBuffer(block.archiveLeaf),
      paddedL1ToL2Messages: block.l1ToL2Messages.map(frToBuffer),
      paddedNoteHashes: paddedNoteHashes(block).map(frToBuffer),
      paddedNullifiers: paddedNullifiers(block).map(nullifierLeaf),
      publicDataWrites: block.publicData.map(publicDataLeaf),
      blockStateRef: stateRef,
      canonical: true,
    })) as StatusFull;
    this.latest = number;
    const m = status.meta;
    const snap = (meta: TreeMeta): TreeSnapshot => ({
      root: bytesToFr(meta.root),
      nextAvailableLeafIndex: Number(meta.size),
    });
    return {
      [TreeId.NULLIFIER]: snap(m.nullifierTreeMeta),
      [TreeId.NOTE_HASH]: snap(m.noteHashTreeMeta),
      [TreeId.PUBLIC_DATA]: snap(m.publicDataTreeMeta),
      [TreeId.L1_TO_L2_MESSAGE]: snap(m.messageTreeMeta),
      [TreeId.ARCHIVE]: snap(m.archiveTreeMeta),
    };
  }

  /**
   * The state reference of `block` on the latest block, computed by the reference itself on a
   * throwaway fork with its sequencer's operations (appendLeaves, batchInsert per tx,
   * sequentialInsert, each answering with witnesses: ~20 s for 16,384 nullifiers).
   */
  async stateRefOf(block: Block): Promise<Map<number, TreeStateRef>> {
    const t = this.mod.types;
    const { forkId } = (await this.channel.call(t.CREATE_FORK, {
      latest: true,
      blockNumber: 0,
      canonical: true,
    })) as { forkId: number };
    try {
      const notes = paddedNoteHashes(block);
      if (notes.length > 0)
        await this.channel.call(t.APPEND_LEAVES, {
          leaves: notes.map(frToBuffer),
          forkId,
          treeId: TreeId.NOTE_HASH,
        });
      if (block.l1ToL2Messages.length > 0)
        await this.channel.call(t.APPEND_LEAVES, {
          leaves: block.l1ToL2Messages.map(frToBuffer),
          forkId,
          treeId: TreeId.L1_TO_L2_MESSAGE,
        });
      const nullifiers = paddedNullifiers(block);
      for (let start = 0; start < nullifiers.length; start += 64) {
        await this.channel.call(t.BATCH_INSERT, {
          leaves: nullifiers.slice(start, start + 64).map(nullifierLeaf),
          treeId: TreeId.NULLIFIER,
          forkId,
          subtreeDepth: 6,
        });
      }
      if (block.publicData.length > 0)
        await this.channel.call(t.SEQUENTIAL_INSERT, {
          leaves: block.publicData.map(publicDataLeaf),
          treeId: TreeId.PUBLIC_DATA,
          forkId,
        });
      const { state } = (await this.channel.call(t.GET_STATE_REFERENCE, {
        revision: { forkId, blockNumber: 0, includeUncommitted: true },
      })) as { state: Record<string, TreeStateRef> };
      const out = new Map<number, TreeStateRef>();
      for (const tree of [TreeId.NULLIFIER, TreeId.NOTE_HASH, TreeId.PUBLIC_DATA, TreeId.L1_TO_L2_MESSAGE]) {
        const entry = state[String(tree)];
        if (entry === undefined) throw new Error(`the reference's state reference lacks tree ${tree}`);
        out.set(tree, [entry[0], BigInt(entry[1])]);
      }
      return out;
    } finally {
      await this.channel.call(t.DELETE_FORK, { forkId });
    }
  }

  /** UNWIND_BLOCKS: removes the blocks after `blockNumber` (cairn's rollbackTo). */
  async unwindTo(blockNumber: number): Promise<void> {
    if (blockNumber >= this.latest) return;
    await this.channel.call(this.mod.types.UNWIND_BLOCKS, { toBlockNumber: blockNumber, canonical: true });
    this.latest = blockNumber;
  }

  /** The committed reads the reference's node serves (its MerkleTreesFacade). */
  committed(): CommittedReads {
    return this.service.getCommitted();
  }

  close(): Promise<void> {
    return this.service.close();
  }
}

/** The state reference (four trees; the archive is not part of it) as SYNC_BLOCK takes it. */
export function stateRefFrom(snapshots: Record<TreeId, TreeSnapshot>): Map<number, TreeStateRef> {
  const out = new Map<number, TreeStateRef>();
  for (const tree of [TreeId.NULLIFIER, TreeId.NOTE_HASH, TreeId.PUBLIC_DATA, TreeId.L1_TO_L2_MESSAGE]) {
    const s = snapshots[tree];
    out.set(tree, [frToBuffer(s.root), BigInt(s.nextAvailableLeafIndex)]);
  }
  return out;
}
