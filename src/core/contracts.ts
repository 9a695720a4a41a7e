// Contract classes and instances (reference 4.x rules): class ids, bytecode commitments, private
// function roots, contract addresses, and the events the protocol registries emit — a class
// publication (contract class log of the class registry), an instance publication (private log of
// the instance registry) and a class update (public log of the instance registry). The archiver
// parses these to index contracts; the tx builder writes them to publish contracts.
import type { ContractClassLog, PrivateLog, PublicLog } from './block.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from './constants.js';
import type { Fr } from './field.js';
import { addPoints, GRUMPKIN_GENERATOR, isOnCurve, multiplyPoint, type Point } from './grumpkin.js';
import { poseidon2Hash, poseidon2HashWithSeparator } from './hash/poseidon2.js';

/** Domain separators (each the low 32 bits of poseidon2HashBytes("az_dom_sep__" + name)). */
export const CONTRACT_SEPARATORS = {
  contractClassId: 3_923_495_515,
  privateFunctionLeaf: 1_389_398_688,
  publicBytecode: 260_313_585,
  partialAddress: 2_103_633_018,
  publicKeysHash: 777_457_226,
  contractAddressV1: 1_788_365_517,
  initializer: 385_396_519,
  functionArgs: 3_576_554_347,
  siloedNullifier: 57_496_191,
  privateLogFirstField: 2_769_976_252,
} as const;

/** First fields of the registries' events (poseidon2HashBytes("az_nr__" + name)). */
export const CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE =
  0x20f5895a4e837356c2d551743df6bf642756dcd93cd31cbd37c556c90bf7f244n;
export const CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE =
  0x174c6b3d0fd14728e4fc5e53f7b262ab943546a7e125e2ed5e9fde3cf0b3e22fn;
export const CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE =
  0x2dcffa53cd0e71da7b4a22677b3342bfc3b9043f5081bea58368ad008eaa6f37n;

export const CONTRACT_CLASS_VERSION = 1;
export const CONTRACT_INSTANCE_VERSION = 1;
/** Packed public bytecode: a length field plus 31-byte chunks, at most this many fields. */
export const MAX_PACKED_PUBLIC_BYTECODE_SIZE_IN_FIELDS = 3000;
/** Largest public bytecode that packs: 2,999 chunks of 31 bytes. */
export const MAX_PUBLIC_BYTECODE_BYTES = (MAX_PACKED_PUBLIC_BYTECODE_SIZE_IN_FIELDS - 1) * 31;
export const FUNCTION_TREE_HEIGHT = 7;
/** The instance registry's map of scheduled class updates, by contract address. */
export const UPDATED_CLASS_IDS_SLOT = 1n;
/** Seconds between scheduling a class update and its taking effect (the reference's default). */
export const DEFAULT_UPDATE_DELAY = 86_400;

// ---- siloing ---------------------------------------------------------------------------------

/** A nullifier as the tree holds it: bound to the contract that emitted it. */
export const siloNullifier = (contract: Fr, nullifier: Fr): Fr =>
  poseidon2HashWithSeparator([contract, nullifier], CONTRACT_SEPARATORS.siloedNullifier);

/** A private log's first field as it leaves the tx: the tag bound to the emitting contract. */
export const siloPrivateLogFirstField = (contract: Fr, field: Fr): Fr =>
  poseidon2HashWithSeparator([contract, field], CONTRACT_SEPARATORS.privateLogFirstField);

/** The first field of every instance publication log. */
export const CONTRACT_INSTANCE_PUBLISHED_TAG = siloPrivateLogFirstField(
  PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry,
  CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE,
);

// ---- classes ---------------------------------------------------------------------------------

export interface PrivateFunction {
  selector: number;
  vkHash: Fr;
}

/** A class as published: ids and the public bytecode (functions broadcast separately are not kept). */
export interface ContractClassPublic {
  id: Fr;
  version: number;
  artifactHash: Fr;
  privateFunctionsRoot: Fr;
  packedBytecode: Uint8Array<ArrayBuffer>;
  privateFunctions: unknown[];
  utilityFunctions: unknown[];
}

/** Bytecode as fields: its byte length, then each 31-byte chunk in bytes 1..31 of a field. */
export function bytecodeToFields(bytecode: Uint8Array): Fr[] {
  const chunks = Math.ceil(bytecode.length / 31);
  if (1 + chunks > MAX_PACKED_PUBLIC_BYTECODE_SIZE_IN_FIELDS) {
    throw new RangeError(
      `public bytecode of ${bytecode.length} bytes does not fit: at most ${MAX_PUBLIC_BYTECODE_BYTES} bytes`,
    );
  }
  const out: Fr[] = [BigInt(bytecode.length)];
  for (let i = 0; i < chunks; i++) {
    const word = Buffer.alloc(32);
    word.set(bytecode.subarray(i * 31, i * 31 + 31), 1);
    out.push(BigInt(`0x${word.toString('hex')}`));
  }
  return out;
}

/** The inverse of bytecodeToFields; undefined when the fields are not a valid packing. */
export function bytecodeFromFields(fields: readonly Fr[]): Uint8Array<ArrayBuffer> | undefined {
  const length = fields[0];
  if (length === undefined || length > BigInt(MAX_PUBLIC_BYTECODE_BYTES)) return undefined;
  const n = Number(length);
  const chunks = Math.ceil(n / 31);
  if (fields.length < 1 + chunks) return undefined;
  const out = Buffer.alloc(chunks * 31);
  for (let i = 0; i < chunks; i++) {
    const f = fields[1 + i]!;
    if (f >= 1n << 248n) return undefined;
    Buffer.from(f.toString(16).padStart(64, '0'), 'hex').copy(out, i * 31, 1);
  }
  // Bytes past the length in the last chunk, and fields past the last chunk, must be zero.
  if (out.subarray(n).some((b) => b !== 0)) return undefined;
  if (fields.slice(1 + chunks).some((f) => f !== 0n)) return undefined;
  return Uint8Array.from(out.subarray(0, n));
}

/** The commitment to a class's public bytecode: its chunks, with the length in the separator. */
export function publicBytecodeCommitment(bytecode: Uint8Array): Fr {
  const [length, ...chunks] = bytecodeToFields(bytecode);
  const separator = BigInt(CONTRACT_SEPARATORS.publicBytecode) + (length! << 32n);
  return poseidon2HashWithSeparator(chunks, separator);
}

/** The root of the private functions tree: leaves sorted by selector, height 7. */
export function privateFunctionsRoot(functions: readonly PrivateFunction[]): Fr {
  const sorted = [...functions].sort((a, b) => a.selector - b.selector);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.selector === sorted[i - 1]!.selector) {
      throw new RangeError(`private function selector 0x${sorted[i]!.selector.toString(16)} appears twice`);
    }
  }
  const size = 2 ** FUNCTION_TREE_HEIGHT;
  if (sorted.length > size) throw new RangeError(`at most ${size} private functions`);
  const empty = poseidon2Hash([0n, 0n]);
  let level = Array.from({ length: size }, (_, i) => {
    const f = sorted[i];
    return f
      ? poseidon2HashWithSeparator([BigInt(f.selector), f.vkHash], CONTRACT_SEPARATORS.privateFunctionLeaf)
      : empty;
  });
  while (level.length > 1) {
    const next: Fr[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(poseidon2Hash([level[i]!, level[i + 1]!]));
    level = next;
  }
  return level[0]!;
}

export function contractClassId(c: {
  artifactHash: Fr;
  privateFunctionsRoot: Fr;
  publicBytecodeCommitment: Fr;
}): Fr {
  return poseidon2HashWithSeparator(
    [c.artifactHash, c.privateFunctionsRoot, c.publicBytecodeCommitment],
    CONTRACT_SEPARATORS.contractClassId,
  );
}

/** A class from its parts, with its id computed. */
export function makeContractClass(parts: {
  artifactHash: Fr;
  privateFunctions?: readonly PrivateFunction[];
  packedBytecode: Uint8Array<ArrayBuffer>;
}): ContractClassPublic {
  const root = privateFunctionsRoot(parts.privateFunctions ?? []);
  return {
    id: contractClassId({
      artifactHash: parts.artifactHash,
      privateFunctionsRoot: root,
      publicBytecodeCommitment: publicBytecodeCommitment(parts.packedBytecode),
    }),
    version: CONTRACT_CLASS_VERSION,
    artifactHash: parts.artifactHash,
    privateFunctionsRoot: root,
    packedBytecode: parts.packedBytecode,
    privateFunctions: [],
    utilityFunctions: [],
  };
}

/** The class registry's publication log: magic, id, version, artifact hash, root, bytecode. */
export function classPublishedLogFields(c: ContractClassPublic): Fr[] {
  return [
    CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE,
    c.id,
    BigInt(c.version),
    c.artifactHash,
    c.privateFunctionsRoot,
    ...bytecodeToFields(c.packedBytecode),
  ];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string } | undefined;

/**
 * A class publication, if the log is one (undefined otherwise). The class id is recomputed
 * from the artifact hash, the private functions root and the bytecode, and must match.
 */
export function parseClassPublished(log: ContractClassLog): Parsed<ContractClassPublic> {
  const fields = log.fields.fields;
  if (log.contractAddress !== PROTOCOL_CONTRACT_ADDRESSES.classRegistry) return undefined;
  if (fields[0] !== CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE) return undefined;
  const [, id, version, artifactHash, root] = fields as Fr[];
  if (version !== BigInt(CONTRACT_CLASS_VERSION)) {
    return { ok: false, reason: `class version ${version} is not ${CONTRACT_CLASS_VERSION}` };
  }
  const packedBytecode = bytecodeFromFields(fields.slice(5));
  if (packedBytecode === undefined) return { ok: false, reason: 'the packed bytecode is malformed' };
  const recomputed = contractClassId({
    artifactHash: artifactHash!,
    privateFunctionsRoot: root!,
    publicBytecodeCommitment: publicBytecodeCommitment(packedBytecode),
  });
  if (recomputed !== id) {
    return {
      ok: false,
      reason: `class id 0x${id!.toString(16)} does not match its contents (0x${recomputed.toString(16)})`,
    };
  }
  return {
    ok: true,
    value: {
      id: id!,
      version: CONTRACT_CLASS_VERSION,
      artifactHash: artifactHash!,
      privateFunctionsRoot: root!,
      packedBytecode,
      privateFunctions: [],
      utilityFunctions: [],
    },
  };
}

// ---- instances -------------------------------------------------------------------------------

export interface PublicKeys {
  masterNullifierPublicKey: Point;
  masterIncomingViewingPublicKey: Point;
  masterOutgoingViewingPublicKey: Point;
  masterTaggingPublicKey: Point;
}

/** The four public keys, in the order they are hashed and logged. */
export const PUBLIC_KEY_NAMES = [
  'masterNullifierPublicKey',
  'masterIncomingViewingPublicKey',
  'masterOutgoingViewingPublicKey',
  'masterTaggingPublicKey',
] as const;

const point = (x: Fr, y: Fr): Point => ({ x, y, isInfinite: false });

/** The keys of a contract that holds no keys of its own (the protocol's default keys). */
export const DEFAULT_PUBLIC_KEYS: PublicKeys = {
  masterNullifierPublicKey: point(
    0x01498945581e0eb9f8427ad6021184c700ef091d570892c437d12c7d90364bbdn,
    0x170ae506787c5c43d6ca9255d571c10fa9ffa9d141666e290c347c5c9ab7e344n,
  ),
  masterIncomingViewingPublicKey: point(
    0x00c044b05b6ca83b9c2dbae79cc1135155956a64e136819136e9947fe5e5866cn,
    0x1c1f0ca244c7cd46b682552bff8ae77dea40b966a71de076ec3b7678f2bdb151n,
  ),
  masterOutgoingViewingPublicKey: point(
    0x1b00316144359e9a3ec8e49c1cdb7eeb0cedd190dfd9dc90eea5115aa779e287n,
    0x080ffc74d7a8b0bccb88ac11f45874172f3847eb8b92654aaa58a3d2b8dc7833n,
  ),
  masterTaggingPublicKey: point(
    0x019c111f36ad3fc1d9b7a7a14344314d2864b94f030594cd67f753ef774a1efbn,
    0x2039907fe37f08d10739255141bb066c506a12f7d1e8dfec21abc58494705b6fn,
  ),
};

export interface ContractInstance {
  version: number;
  salt: Fr;
  deployer: Fr;
  originalContractClassId: Fr;
  currentContractClassId: Fr;
  initializationHash: Fr;
  publicKeys: PublicKeys;
  address: Fr;
}

/** Hash of the four keys (x, y, is-infinite each); 0 when every key is (0, 0). */
export function publicKeysHash(keys: PublicKeys): Fr {
  const points = PUBLIC_KEY_NAMES.map((k) => keys[k]);
  if (points.every((p) => p.x === 0n && p.y === 0n)) return 0n;
  return poseidon2HashWithSeparator(
    points.flatMap((p) => [p.x, p.y, p.isInfinite ? 1n : 0n]),
    CONTRACT_SEPARATORS.publicKeysHash,
  );
}

export const saltedInitializationHash = (i: { salt: Fr; initializationHash: Fr; deployer: Fr }): Fr =>
  poseidon2HashWithSeparator([i.salt, i.initializationHash, i.deployer], CONTRACT_SEPARATORS.partialAddress);

export const partialAddress = (classId: Fr, salted: Fr): Fr =>
  poseidon2HashWithSeparator([classId, salted], CONTRACT_SEPARATORS.partialAddress);

/** The hash of an initializer call (0 for a contract without one). */
export function initializationHash(selector: number | undefined, args: readonly Fr[] = []): Fr {
  if (selector === undefined) return 0n;
  return poseidon2HashWithSeparator(
    [BigInt(selector), functionArgsHash(args)],
    CONTRACT_SEPARATORS.initializer,
  );
}

/** The hash of a call's arguments (without the selector): 0 when there are none. */
export function functionArgsHash(args: readonly Fr[]): Fr {
  return args.length === 0 ? 0n : poseidon2HashWithSeparator(args, CONTRACT_SEPARATORS.functionArgs);
}

/** The address: x of preaddress·G + ivpk, where preaddress binds the keys and the partial address. */
export function contractAddress(i: Omit<ContractInstance, 'address' | 'currentContractClassId'>): Fr {
  const preaddress = poseidon2HashWithSeparator(
    [publicKeysHash(i.publicKeys), partialAddress(i.originalContractClassId, saltedInitializationHash(i))],
    CONTRACT_SEPARATORS.contractAddressV1,
  );
  const ivpk = i.publicKeys.masterIncomingViewingPublicKey;
  const sum = addPoints(multiplyPoint(GRUMPKIN_GENERATOR, preaddress), ivpk);
  return sum.x;
}

/**
 * An instance of a class, with its address computed. By default the salt is 0, the deployer is 0
 * (anyone may publish it: a universal deployment), there is no initializer and the keys are the
 * protocol's defaults.
 */
export function makeContractInstance(parts: {
  classId: Fr;
  salt?: Fr;
  deployer?: Fr;
  initializationHash?: Fr;
  publicKeys?: PublicKeys;
}): ContractInstance {
  const base = {
    version: CONTRACT_INSTANCE_VERSION,
    salt: parts.salt ?? 0n,
    deployer: parts.deployer ?? 0n,
    originalContractClassId: parts.classId,
    initializationHash: parts.initializationHash ?? 0n,
    publicKeys: parts.publicKeys ?? DEFAULT_PUBLIC_KEYS,
  };
  return { ...base, currentContractClassId: parts.classId, address: contractAddress(base) };
}

/** The instance registry's publication log (15 fields; the first is the siloed tag). */
export function instancePublishedLogFields(i: ContractInstance): Fr[] {
  return [
    CONTRACT_INSTANCE_PUBLISHED_TAG,
    i.address,
    BigInt(i.version),
    i.salt,
    i.originalContractClassId,
    i.initializationHash,
    ...PUBLIC_KEY_NAMES.flatMap((k) => [i.publicKeys[k].x, i.publicKeys[k].y]),
    i.deployer,
  ];
}

/**
 * An instance publication, if the private log is one. The keys must be points on the curve and
 * the address must follow from the instance's contents.
 */
export function parseInstancePublished(log: PrivateLog): Parsed<ContractInstance> {
  const f = log.fields;
  if (f[0] !== CONTRACT_INSTANCE_PUBLISHED_TAG) return undefined;
  if (log.emittedLength < 15) return { ok: false, reason: 'the instance publication log is too short' };
  const version = f[2]!;
  if (version !== BigInt(CONTRACT_INSTANCE_VERSION)) {
    return { ok: false, reason: `instance version ${version} is not ${CONTRACT_INSTANCE_VERSION}` };
  }
  const keys = Object.fromEntries(
    PUBLIC_KEY_NAMES.map((k, j) => [k, point(f[6 + 2 * j]!, f[7 + 2 * j]!)]),
  ) as unknown as PublicKeys;
  for (const k of PUBLIC_KEY_NAMES) {
    if (!isOnCurve(keys[k])) return { ok: false, reason: `${k} is not a point on the curve` };
  }
  const instance: ContractInstance = {
    version: CONTRACT_INSTANCE_VERSION,
    address: f[1]!,
    salt: f[3]!,
    originalContractClassId: f[4]!,
    currentContractClassId: f[4]!,
    initializationHash: f[5]!,
    publicKeys: keys,
    deployer: f[14]!,
  };
  const expected = contractAddress(instance);
  if (expected !== instance.address) {
    return {
      ok: false,
      reason: `address 0x${instance.address.toString(16)} does not follow from the instance (0x${expected.toString(16)})`,
    };
  }
  return { ok: true, value: instance };
}

// ---- updates ---------------------------------------------------------------------------------

export interface ContractUpdate {
  address: Fr;
  /** The class before the update; 0 when the contract was never updated before. */
  prevContractClassId: Fr;
  newContractClassId: Fr;
  /** Unix seconds from which the new class applies. */
  timestampOfChange: bigint;
}

export function instanceUpdatedLogFields(u: ContractUpdate): Fr[] {
  return [
    CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE,
    u.address,
    u.prevContractClassId,
    u.newContractClassId,
    u.timestampOfChange,
  ];
}

/** A class update, if the public log is one. */
export function parseInstanceUpdated(log: PublicLog): Parsed<ContractUpdate> {
  if (log.contractAddress !== PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry) return undefined;
  if (log.fields[0] !== CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE) return undefined;
  if (log.fields.length < 5) return { ok: false, reason: 'the update log is too short' };
  const [, address, prev, next, at] = log.fields as Fr[];
  if (at! >= 1n << 64n) return { ok: false, reason: 'the update time does not fit in 64 bits' };
  return {
    ok: true,
    value: {
      address: address!,
      prevContractClassId: prev!,
      newContractClassId: next!,
      timestampOfChange: at!,
    },
  };
}
