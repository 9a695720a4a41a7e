// The archiver's contract index (inside the `archiver` environment, written with the blocks):
// classes published through the class registry, instances published through the instance
// registry, and the class updates it schedules. The first publication of a class or an instance
// wins; a block that is unwound takes away what it published. A malformed event (a class id or
// an address that does not follow from the contents) is skipped and reported, never indexed.
import type { L2Block } from '../core/block.js';
import {
  type ContractClassPublic,
  type ContractInstance,
  type ContractUpdate,
  PUBLIC_KEY_NAMES,
  type PublicKeys,
  parseClassPublished,
  parseInstancePublished,
  parseInstanceUpdated,
} from '../core/contracts.js';
import { type Fr, frToBuffer } from '../core/field.js';
import type { Database, StoreEnvironment } from '../store/environment.js';
import { positionKey } from './log-store.js';

/** Where an event came from, for reports about skipped ones. */
export interface SkippedEvent {
  blockNumber: number;
  txHash: Fr;
  reason: string;
}

interface StoredClass {
  blockNumber: number;
  id: string;
  artifactHash: string;
  privateFunctionsRoot: string;
  packedBytecode: string;
}

interface StoredInstance {
  blockNumber: number;
  address: string;
  salt: string;
  deployer: string;
  classId: string;
  initializationHash: string;
  /** x, y of each key in order: nullifier, incoming viewing, outgoing viewing, tagging. */
  keys: string[];
}

interface StoredUpdate {
  prev: string;
  next: string;
  timestampOfChange: string;
}

const hex = (v: bigint) => v.toString(16);
const big = (s: string) => BigInt(`0x${s}`);
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const parse = <T>(b: Buffer): T => JSON.parse(b.toString('utf8')) as T;

/** An update's key: the contract, then the update log's position in the chain. */
const updateKey = (address: Fr, blockNumber: number, txIndex: number, logIndex: number): Buffer =>
  positionKey([frToBuffer(address)], { blockNumber, txIndex, logIndex });

/** The chain position a contract query is answered at. */
export interface ContractQueryPoint {
  blockNumber: number;
  timestamp: bigint;
}

export class ContractStore {
  private readonly classes: Database<Buffer, Buffer>;
  private readonly instances: Database<Buffer, Buffer>;
  /** address ‖ block ‖ tx index ‖ log index → the update scheduled there. */
  private readonly updates: Database<Buffer, Buffer>;

  constructor(
    env: StoreEnvironment,
    private readonly onSkipped: (event: SkippedEvent) => void = () => {},
  ) {
    this.classes = env.binaryDatabase('contract-classes');
    this.instances = env.binaryDatabase('contract-instances');
    this.updates = env.binaryDatabase('contract-updates');
  }

  /** Empties the index (before a rebuild); runs inside the chain store's write. */
  clear(): void {
    this.classes.clearSync();
    this.instances.clearSync();
    this.updates.clearSync();
  }

  /** Indexes a block's contract events; runs inside the chain store's write. */
  addBlock(block: L2Block): void {
    this.forEachEvent(block, true, {
      cls: (c) => {
        const key = frToBuffer(c.id);
        if (this.classes.get(key) !== undefined) return;
        this.classes.putSync(
          key,
          json({
            blockNumber: block.number,
            id: hex(c.id),
            artifactHash: hex(c.artifactHash),
            privateFunctionsRoot: hex(c.privateFunctionsRoot),
            packedBytecode: Buffer.from(c.packedBytecode).toString('hex'),
          } satisfies StoredClass),
        );
      },
      instance: (i) => {
        const key = frToBuffer(i.address);
        if (this.instances.get(key) !== undefined) return;
        this.instances.putSync(
          key,
          json({
            blockNumber: block.number,
            address: hex(i.address),
            salt: hex(i.salt),
            deployer: hex(i.deployer),
            classId: hex(i.originalContractClassId),
            initializationHash: hex(i.initializationHash),
            keys: PUBLIC_KEY_NAMES.flatMap((k) => [hex(i.publicKeys[k].x), hex(i.publicKeys[k].y)]),
          } satisfies StoredInstance),
        );
      },
      update: (u, key) =>
        this.updates.putSync(
          key,
          json({
            prev: hex(u.prevContractClassId),
            next: hex(u.newContractClassId),
            timestampOfChange: u.timestampOfChange.toString(),
          } satisfies StoredUpdate),
        ),
    });
  }

  /** Removes what a block published; runs inside the chain store's write. */
  removeBlock(block: L2Block): void {
    const publishedHere = (db: Database<Buffer, Buffer>, key: Buffer) => {
      const stored = db.get(key);
      if (stored !== undefined && parse<{ blockNumber: number }>(stored).blockNumber >= block.number) {
        db.removeSync(key);
      }
    };
    this.forEachEvent(block, false, {
      cls: (c) => publishedHere(this.classes, frToBuffer(c.id)),
      instance: (i) => publishedHere(this.instances, frToBuffer(i.address)),
      update: (_u, key) => this.updates.removeSync(key),
    });
  }

  private forEachEvent(
    block: L2Block,
    report: boolean,
    visit: {
      cls(c: ContractClassPublic): void;
      instance(i: ContractInstance): void;
      update(u: ContractUpdate, key: Buffer): void;
    },
  ): void {
    block.body.txEffects.forEach((effect, txIndex) => {
      const skipped = (reason: string) => {
        if (report) this.onSkipped({ blockNumber: block.number, txHash: effect.txHash, reason });
      };
      for (const log of effect.contractClassLogs) {
        const parsed = parseClassPublished(log);
        if (parsed?.ok) visit.cls(parsed.value);
        else if (parsed) skipped(`class publication skipped: ${parsed.reason}`);
      }
      for (const log of effect.privateLogs) {
        const parsed = parseInstancePublished(log);
        if (parsed?.ok) visit.instance(parsed.value);
        else if (parsed) skipped(`instance publication skipped: ${parsed.reason}`);
      }
      effect.publicLogs.forEach((log, logIndex) => {
        const parsed = parseInstanceUpdated(log);
        if (parsed?.ok) {
          visit.update(parsed.value, updateKey(parsed.value.address, block.number, txIndex, logIndex));
        } else if (parsed) skipped(`class update skipped: ${parsed.reason}`);
      });
    });
  }

  getClass(id: Fr): ContractClassPublic | undefined {
    const stored = this.classes.get(frToBuffer(id));
    if (stored === undefined) return undefined;
    const c = parse<StoredClass>(stored);
    return {
      id: big(c.id),
      version: 1,
      artifactHash: big(c.artifactHash),
      privateFunctionsRoot: big(c.privateFunctionsRoot),
      packedBytecode: new Uint8Array(Buffer.from(c.packedBytecode, 'hex')),
      privateFunctions: [],
      utilityFunctions: [],
    };
  }

  /**
   * The instance at an address as of a block: undefined unless published at or before it, with
   * its current class — the last update scheduled at or before the block decides: its new class
   * once the block's time reaches the update's time of change, its previous class before.
   */
  getInstance(address: Fr, at: ContractQueryPoint): ContractInstance | undefined {
    const stored = this.instances.get(frToBuffer(address));
    if (stored === undefined) return undefined;
    const s = parse<StoredInstance>(stored);
    if (s.blockNumber > at.blockNumber) return undefined;
    const original = big(s.classId);
    const keys = Object.fromEntries(
      PUBLIC_KEY_NAMES.map((k, j) => [
        k,
        { x: big(s.keys[2 * j]!), y: big(s.keys[2 * j + 1]!), isInfinite: false },
      ]),
    ) as unknown as PublicKeys;
    return {
      version: 1,
      address,
      salt: big(s.salt),
      deployer: big(s.deployer),
      originalContractClassId: original,
      currentContractClassId: this.currentClassId(address, original, at),
      initializationHash: big(s.initializationHash),
      publicKeys: keys,
    };
  }

  private currentClassId(address: Fr, original: Fr, at: ContractQueryPoint): Fr {
    const [last] = Array.from(
      this.updates.getRange({
        start: updateKey(address, at.blockNumber, 0xffff, 0xffff),
        end: updateKey(address, 0, 0, 0),
        reverse: true,
        limit: 1,
      }),
    );
    // The end key is exclusive in a reverse scan; an update at block 0 cannot exist.
    if (last === undefined) return original;
    const u = parse<StoredUpdate>(last.value);
    if (at.timestamp >= BigInt(u.timestampOfChange)) return big(u.next);
    const prev = big(u.prev);
    return prev === 0n ? original : prev;
  }
}
