// Block header and checkpoint header of the reference node's checkpoint-era chain model
// (docs/chain.md, "Blocks" and "Checkpoints"), with their hashes and the genesis constants.
//
// Block header field order (BLOCK_HEADER_LENGTH = 22), as the reference serialises it to fields:
//    0  lastArchive.root                    1  lastArchive.nextAvailableLeafIndex
//    2  state.l1ToL2MessageTree.root        3  state.l1ToL2MessageTree.nextAvailableLeafIndex
//    4  state.partial.noteHashTree.root     5  state.partial.noteHashTree.nextAvailableLeafIndex
//    6  state.partial.nullifierTree.root    7  state.partial.nullifierTree.nextAvailableLeafIndex
//    8  state.partial.publicDataTree.root   9  state.partial.publicDataTree.nextAvailableLeafIndex
//   10  spongeBlobHash
//   11  globalVariables.chainId            12  globalVariables.version
//   13  globalVariables.blockNumber        14  globalVariables.slotNumber
//   15  globalVariables.timestamp          16  globalVariables.coinbase (EthAddress as a field)
//   17  globalVariables.feeRecipient       18  globalVariables.gasFees.feePerDaGas
//   19  globalVariables.gasFees.feePerL2Gas
//   20  totalFees                          21  totalManaUsed
// Block hash = poseidon2HashWithSeparator(fields, BLOCK_HEADER_HASH = 4195546849).
//
// Checkpoint header byte serialisation (CHECKPOINT_HEADER_SIZE_IN_BYTES = 316), big-endian, packed:
//   lastArchiveRoot 32 | blockHeadersHash 32 | blobsHash 32 | inHash 32 | epochOutHash 32 |
//   slotNumber 32 (as a field) | timestamp 8 (u64) | coinbase 20 | feeRecipient 32 |
//   gasFees.feePerDaGas 16 (u128) | gasFees.feePerL2Gas 16 (u128) | totalManaUsed 32
// Checkpoint hash = sha256ToField([serialisation]) (the same bytes the L1 rollup contract hashes).

import { type Fr, isFr } from './field.js';
import { poseidon2HashWithSeparator } from './hash/poseidon2.js';
import { sha256ToField } from './hash/sha256.js';

/** Number of field elements in a serialised block header. */
export const BLOCK_HEADER_LENGTH = 22;

/** Domain separator of the block header hash (`BLOCK_HEADER_HASH` in the reference constants). */
export const BLOCK_HEADER_HASH_SEPARATOR = 4195546849;

/** Number of bytes in a serialised checkpoint header. */
export const CHECKPOINT_HEADER_SIZE_IN_BYTES = 316;

/**
 * Hash of the genesis block header (block 0) with no prefilled public data (the reference
 * protocol's 4.3 constant). It is the archive tree's leaf 0 and the hash of the genesis block tip.
 */
export const GENESIS_BLOCK_HEADER_HASH =
  21694244557328181932449230888455310614586084993178835904749768133365362325861n;

/**
 * Root of the archive tree (height 30) holding only GENESIS_BLOCK_HEADER_HASH at leaf 0, with
 * node = poseidon2Hash([left, right]) (the reference protocol's 4.3 constant, no prefilled
 * public data).
 */
export const GENESIS_ARCHIVE_ROOT =
  9682850228538071369704502076456077473410427336083826595120404283897422804423n;

/**
 * Out hash of an epoch without any checkpoint: the root of the balanced out-hash tree of height 5
 * (32 leaves, all zero) with node = sha256ToField([left, right]) (the reference protocol's 4.3
 * constant).
 */
export const EMPTY_EPOCH_OUT_HASH =
  355785372471781095838790036702437931769306153278986832745847530947941691539n;

/** Hash of the all-zero checkpoint header: the hash of the genesis checkpoint tip (checkpoint 0). */
export const GENESIS_CHECKPOINT_HEADER_HASH =
  0x007802c95d2f1ade746d97350a18ddbfdb9f5bee2803436917a3cf3d6a685a3an;

export interface AppendOnlyTreeSnapshot {
  root: Fr;
  /** u32 */
  nextAvailableLeafIndex: number;
}

export interface GasFees {
  /** u128 */
  feePerDaGas: bigint;
  /** u128 */
  feePerL2Gas: bigint;
}

export interface GlobalVariables {
  chainId: Fr;
  version: Fr;
  /** u32 */
  blockNumber: number;
  /** u32 */
  slotNumber: number;
  /** u64 */
  timestamp: bigint;
  /** EthAddress: `0x` + 40 hex digits. */
  coinbase: string;
  /** L2 (Aztec) address. */
  feeRecipient: Fr;
  gasFees: GasFees;
}

export interface PartialStateReference {
  noteHashTree: AppendOnlyTreeSnapshot;
  nullifierTree: AppendOnlyTreeSnapshot;
  publicDataTree: AppendOnlyTreeSnapshot;
}

export interface StateReference {
  l1ToL2MessageTree: AppendOnlyTreeSnapshot;
  partial: PartialStateReference;
}

export interface BlockHeader {
  /** Archive snapshot before this block. */
  lastArchive: AppendOnlyTreeSnapshot;
  /** Tree snapshots after this block. */
  state: StateReference;
  spongeBlobHash: Fr;
  globalVariables: GlobalVariables;
  totalFees: Fr;
  totalManaUsed: Fr;
}

export interface CheckpointHeader {
  lastArchiveRoot: Fr;
  blockHeadersHash: Fr;
  blobsHash: Fr;
  inHash: Fr;
  /** Root of the epoch's balanced out-hash tree over the checkpoints so far (not necessarily final). */
  epochOutHash: Fr;
  slotNumber: number;
  /** u64 */
  timestamp: bigint;
  /** EthAddress: `0x` + 40 hex digits. */
  coinbase: string;
  feeRecipient: Fr;
  gasFees: GasFees;
  totalManaUsed: Fr;
}

/** The all-zero Ethereum address. */
export const ZERO_ETH_ADDRESS = `0x${'0'.repeat(40)}`;

const U32_MAX = 0xffffffff;
export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;
const ETH_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

export function emptyAppendOnlyTreeSnapshot(): AppendOnlyTreeSnapshot {
  return { root: 0n, nextAvailableLeafIndex: 0 };
}

export function emptyGasFees(): GasFees {
  return { feePerDaGas: 0n, feePerL2Gas: 0n };
}

export function emptyStateReference(): StateReference {
  return {
    l1ToL2MessageTree: emptyAppendOnlyTreeSnapshot(),
    partial: {
      noteHashTree: emptyAppendOnlyTreeSnapshot(),
      nullifierTree: emptyAppendOnlyTreeSnapshot(),
      publicDataTree: emptyAppendOnlyTreeSnapshot(),
    },
  };
}

export function emptyGlobalVariables(): GlobalVariables {
  return {
    chainId: 0n,
    version: 0n,
    blockNumber: 0,
    slotNumber: 0,
    timestamp: 0n,
    coinbase: ZERO_ETH_ADDRESS,
    feeRecipient: 0n,
    gasFees: emptyGasFees(),
  };
}

/** A block header whose every field is zero. */
export function emptyBlockHeader(): BlockHeader {
  return {
    lastArchive: emptyAppendOnlyTreeSnapshot(),
    state: emptyStateReference(),
    spongeBlobHash: 0n,
    globalVariables: emptyGlobalVariables(),
    totalFees: 0n,
    totalManaUsed: 0n,
  };
}

/**
 * The genesis (block 0) header, built as the reference builds its initial header: the empty header
 * with only `state` set to the genesis tree snapshots. In particular `lastArchive` is all-zero
 * (root 0, next index 0) — not the empty archive tree's root — and every global variable (chain id,
 * version, block number, slot, timestamp, coinbase, fee recipient, gas fees) is zero.
 */
export function genesisBlockHeader(state: StateReference): BlockHeader {
  return { ...emptyBlockHeader(), state: cloneStateReference(state) };
}

/** The 22 field elements of a block header, in the reference's order. */
export function blockHeaderToFields(header: BlockHeader): Fr[] {
  const g = header.globalVariables;
  const s = header.state;
  const fields: Fr[] = [
    ...snapshotToFields(header.lastArchive, 'lastArchive'),
    ...snapshotToFields(s.l1ToL2MessageTree, 'state.l1ToL2MessageTree'),
    ...snapshotToFields(s.partial.noteHashTree, 'state.partial.noteHashTree'),
    ...snapshotToFields(s.partial.nullifierTree, 'state.partial.nullifierTree'),
    ...snapshotToFields(s.partial.publicDataTree, 'state.partial.publicDataTree'),
    checkFr(header.spongeBlobHash, 'spongeBlobHash'),
    checkFr(g.chainId, 'globalVariables.chainId'),
    checkFr(g.version, 'globalVariables.version'),
    BigInt(checkU32(g.blockNumber, 'globalVariables.blockNumber')),
    BigInt(checkU32(g.slotNumber, 'globalVariables.slotNumber')),
    checkUint(g.timestamp, U64_MAX, 'globalVariables.timestamp'),
    ethAddressToField(g.coinbase, 'globalVariables.coinbase'),
    checkFr(g.feeRecipient, 'globalVariables.feeRecipient'),
    checkUint(g.gasFees.feePerDaGas, U128_MAX, 'globalVariables.gasFees.feePerDaGas'),
    checkUint(g.gasFees.feePerL2Gas, U128_MAX, 'globalVariables.gasFees.feePerL2Gas'),
    checkFr(header.totalFees, 'totalFees'),
    checkFr(header.totalManaUsed, 'totalManaUsed'),
  ];
  if (fields.length !== BLOCK_HEADER_LENGTH) {
    throw new Error(`block header serialised to ${fields.length} fields, expected ${BLOCK_HEADER_LENGTH}`);
  }
  return fields;
}

/** Where blockHeaderFromFields reads fields from: each call takes the next one, checked. */
export interface FieldSource {
  fr(what: string): Fr;
  u32(what: string): number;
  uint(max: bigint, what: string): bigint;
  ethAddress(what: string): string;
}

/** The block header whose fields `source` yields, in blockHeaderToFields's order. */
export function blockHeaderFromFields(source: FieldSource): BlockHeader {
  const snapshot = (what: string): AppendOnlyTreeSnapshot => ({
    root: source.fr(`${what}.root`),
    nextAvailableLeafIndex: source.u32(`${what}.nextAvailableLeafIndex`),
  });
  const lastArchive = snapshot('lastArchive');
  const l1ToL2MessageTree = snapshot('state.l1ToL2MessageTree');
  const noteHashTree = snapshot('state.partial.noteHashTree');
  const nullifierTree = snapshot('state.partial.nullifierTree');
  const publicDataTree = snapshot('state.partial.publicDataTree');
  const spongeBlobHash = source.fr('spongeBlobHash');
  const globalVariables: GlobalVariables = {
    chainId: source.fr('globalVariables.chainId'),
    version: source.fr('globalVariables.version'),
    blockNumber: source.u32('globalVariables.blockNumber'),
    slotNumber: source.u32('globalVariables.slotNumber'),
    timestamp: source.uint(U64_MAX, 'globalVariables.timestamp'),
    coinbase: source.ethAddress('globalVariables.coinbase'),
    feeRecipient: source.fr('globalVariables.feeRecipient'),
    gasFees: {
      feePerDaGas: source.uint(U128_MAX, 'globalVariables.gasFees.feePerDaGas'),
      feePerL2Gas: source.uint(U128_MAX, 'globalVariables.gasFees.feePerL2Gas'),
    },
  };
  return {
    lastArchive,
    state: { l1ToL2MessageTree, partial: { noteHashTree, nullifierTree, publicDataTree } },
    spongeBlobHash,
    globalVariables,
    totalFees: source.fr('totalFees'),
    totalManaUsed: source.fr('totalManaUsed'),
  };
}

/** The block hash: Poseidon2 of the 22 header fields with the BLOCK_HEADER_HASH separator. */
export function blockHeaderHash(header: BlockHeader): Fr {
  return poseidon2HashWithSeparator(blockHeaderToFields(header), BLOCK_HEADER_HASH_SEPARATOR);
}

/** A checkpoint header whose every field is zero. */
export function emptyCheckpointHeader(): CheckpointHeader {
  return {
    lastArchiveRoot: 0n,
    blockHeadersHash: 0n,
    blobsHash: 0n,
    inHash: 0n,
    epochOutHash: 0n,
    slotNumber: 0,
    timestamp: 0n,
    coinbase: ZERO_ETH_ADDRESS,
    feeRecipient: 0n,
    gasFees: emptyGasFees(),
    totalManaUsed: 0n,
  };
}

/** The 316-byte serialisation of a checkpoint header (see the layout at the top of this file). */
export function serializeCheckpointHeader(header: CheckpointHeader): Uint8Array {
  const out = new Uint8Array(CHECKPOINT_HEADER_SIZE_IN_BYTES);
  let offset = 0;
  const put = (value: bigint, width: number): void => {
    let v = value;
    for (let i = width - 1; i >= 0; i--) {
      out[offset + i] = Number(v & 0xffn);
      v >>= 8n;
    }
    offset += width;
  };
  put(checkFr(header.lastArchiveRoot, 'lastArchiveRoot'), 32);
  put(checkFr(header.blockHeadersHash, 'blockHeadersHash'), 32);
  put(checkFr(header.blobsHash, 'blobsHash'), 32);
  put(checkFr(header.inHash, 'inHash'), 32);
  put(checkFr(header.epochOutHash, 'epochOutHash'), 32);
  put(BigInt(checkU32(header.slotNumber, 'slotNumber')), 32);
  put(checkUint(header.timestamp, U64_MAX, 'timestamp'), 8);
  put(ethAddressToField(header.coinbase, 'coinbase'), 20);
  put(checkFr(header.feeRecipient, 'feeRecipient'), 32);
  put(checkUint(header.gasFees.feePerDaGas, U128_MAX, 'gasFees.feePerDaGas'), 16);
  put(checkUint(header.gasFees.feePerL2Gas, U128_MAX, 'gasFees.feePerL2Gas'), 16);
  put(checkFr(header.totalManaUsed, 'totalManaUsed'), 32);
  if (offset !== CHECKPOINT_HEADER_SIZE_IN_BYTES) {
    throw new Error(
      `checkpoint header serialised to ${offset} bytes, expected ${CHECKPOINT_HEADER_SIZE_IN_BYTES}`,
    );
  }
  return out;
}

/** The checkpoint hash: sha256ToField of the 316-byte serialisation. */
export function checkpointHeaderHash(header: CheckpointHeader): Fr {
  return sha256ToField([serializeCheckpointHeader(header)]);
}

/** An EthAddress (`0x` + 40 hex digits) read as a field element. */
export function ethAddressToField(address: string, what = 'address'): Fr {
  if (typeof address !== 'string' || !ETH_ADDRESS_RE.test(address)) {
    throw new TypeError(`${what} must be 0x followed by 40 hex digits`);
  }
  return BigInt(address);
}

function cloneStateReference(s: StateReference): StateReference {
  return {
    l1ToL2MessageTree: { ...s.l1ToL2MessageTree },
    partial: {
      noteHashTree: { ...s.partial.noteHashTree },
      nullifierTree: { ...s.partial.nullifierTree },
      publicDataTree: { ...s.partial.publicDataTree },
    },
  };
}

function snapshotToFields(snapshot: AppendOnlyTreeSnapshot, what: string): [Fr, Fr] {
  return [
    checkFr(snapshot.root, `${what}.root`),
    BigInt(checkU32(snapshot.nextAvailableLeafIndex, `${what}.nextAvailableLeafIndex`)),
  ];
}

function checkFr(value: Fr, what: string): Fr {
  if (typeof value !== 'bigint' || !isFr(value)) {
    throw new RangeError(`${what} must be a field element (bigint in [0, modulus))`);
  }
  return value;
}

function checkU32(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > U32_MAX) {
    throw new RangeError(`${what} must be an integer in [0, 2^32)`);
  }
  return value;
}

function checkUint(value: bigint, max: bigint, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > max) {
    throw new RangeError(`${what} must be a bigint in [0, ${max}]`);
  }
  return value;
}
