// Known-answer tests for the block header, checkpoint header and genesis constants. The genesis
// tree snapshots are computed here with a tiny naive Merkle helper, independent of any
// world-state code.
//
// Facts established while pinning these down (the reference protocol's 4.3 release):
// - Header field order (22 fields): lastArchive, state (l1ToL2MessageTree, then partial: noteHash,
//   nullifier, publicData; each snapshot = root, nextAvailableLeafIndex), spongeBlobHash,
//   globalVariables (chainId, version, blockNumber, slotNumber, timestamp, coinbase, feeRecipient,
//   feePerDaGas, feePerL2Gas), totalFees, totalManaUsed.
// - The genesis header is the all-zero header with only `state` set: lastArchive is {root 0, index 0}
//   (not the empty archive tree's root), every global variable is zero.
// - Genesis snapshots: nullifier and public data trees have nextAvailableLeafIndex 128, note hash and
//   L1-to-L2 trees 0. Internal merkle nodes are poseidon2Hash([left, right]) with no separator.
// - EMPTY_EPOCH_OUT_HASH is the root of a balanced height-5 tree of 32 zero leaves with
//   node = sha256ToField([left, right]).
// - The empty checkpoint header hashes (sha256ToField of 316 zero bytes) to
//   0x007802c95d2f1ade746d97350a18ddbfdb9f5bee2803436917a3cf3d6a685a3a, the value the reference's
//   own checkpoint header test pins.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  type AppendOnlyTreeSnapshot,
  BLOCK_HEADER_LENGTH,
  type BlockHeader,
  blockHeaderHash,
  blockHeaderToFields,
  CHECKPOINT_HEADER_SIZE_IN_BYTES,
  type CheckpointHeader,
  checkpointHeaderHash,
  EMPTY_EPOCH_OUT_HASH,
  emptyBlockHeader,
  emptyCheckpointHeader,
  GENESIS_ARCHIVE_ROOT,
  GENESIS_BLOCK_HEADER_HASH,
  GENESIS_CHECKPOINT_HEADER_HASH,
  genesisBlockHeader,
  type StateReference,
  serializeCheckpointHeader,
} from '../../src/core/block-header.js';
import { toHex32 } from '../../src/core/field.js';
import { poseidon2Hash, poseidon2HashWithSeparator } from '../../src/core/hash/poseidon2.js';
import { sha256ToField } from '../../src/core/hash/sha256.js';

type NodeHash = (left: bigint, right: bigint) => bigint;

const poseidonNode: NodeHash = (l, r) => poseidon2Hash([l, r]);
const shaNode: NodeHash = (l, r) => sha256ToField([l, r]);

/** Root of a tree of `height` whose first leaves are `leaves` and the rest 0. */
function naiveRoot(leaves: readonly bigint[], height: number, node: NodeHash): bigint {
  let level = [...leaves];
  let zero = 0n;
  for (let h = 0; h < height; h++) {
    if (level.length % 2 === 1) level.push(zero);
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(node(level[i]!, level[i + 1]!));
    level = next;
    zero = node(zero, zero);
  }
  return level.length === 0 ? zero : level[0]!;
}

const PREFILL = 128;

function genesisNullifierLeaves(): bigint[] {
  const leaves: bigint[] = [];
  for (let i = 0; i < PREFILL; i++) {
    const last = i === PREFILL - 1;
    const nextKey = last ? 0n : BigInt(i + 1);
    const nextIndex = last ? 0n : BigInt(i + 1);
    leaves.push(poseidon2Hash([BigInt(i), nextKey, nextIndex]));
  }
  return leaves;
}

function genesisPublicDataLeaves(): bigint[] {
  const leaves: bigint[] = [];
  for (let i = 0; i < PREFILL; i++) {
    const last = i === PREFILL - 1;
    const nextKey = last ? 0n : BigInt(i + 1);
    const nextIndex = last ? 0n : BigInt(i + 1);
    leaves.push(poseidon2Hash([BigInt(i), 0n, nextKey, nextIndex]));
  }
  return leaves;
}

interface GenesisTrees {
  nullifier: AppendOnlyTreeSnapshot;
  publicData: AppendOnlyTreeSnapshot;
  noteHash: AppendOnlyTreeSnapshot;
  l1ToL2: AppendOnlyTreeSnapshot;
}

let cachedTrees: GenesisTrees | undefined;
function genesisTrees(): GenesisTrees {
  cachedTrees ??= {
    nullifier: { root: naiveRoot(genesisNullifierLeaves(), 42, poseidonNode), nextAvailableLeafIndex: 128 },
    publicData: { root: naiveRoot(genesisPublicDataLeaves(), 40, poseidonNode), nextAvailableLeafIndex: 128 },
    noteHash: { root: naiveRoot([], 42, poseidonNode), nextAvailableLeafIndex: 0 },
    l1ToL2: { root: naiveRoot([], 36, poseidonNode), nextAvailableLeafIndex: 0 },
  };
  return cachedTrees;
}

function genesisState(): StateReference {
  const t = genesisTrees();
  return {
    l1ToL2MessageTree: t.l1ToL2,
    partial: { noteHashTree: t.noteHash, nullifierTree: t.nullifier, publicDataTree: t.publicData },
  };
}

// Genesis tree roots (reference protocol 4.3, no prefilled public data), for world-state known-answer tests.
const NULLIFIER_ROOT = 0x1ec3788cd1c32e54d889d67fe29e481114f9d4afe9b44b229aa29d8ad528dd31n;
const PUBLIC_DATA_ROOT = 0x23c08a6b1297210c5e24c76b9a936250a1ce2721576c26ea797c7ec35f9e46a9n;
const NOTE_HASH_ROOT = 0x2ac5dda169f6bb3b9ca09bbac34e14c94d1654597db740153a1288d859a8a30an;
const L1_TO_L2_ROOT = 0x0d582c10ff8115413aa5b70564fdd2f3cefe1f33a1e43a47bc495081e91e73e5n;

describe('genesis tree snapshots (naive merkle)', () => {
  it('computes the known genesis tree roots', () => {
    const t = genesisTrees();
    assert.equal(toHex32(t.nullifier.root), toHex32(NULLIFIER_ROOT));
    assert.equal(toHex32(t.publicData.root), toHex32(PUBLIC_DATA_ROOT));
    assert.equal(toHex32(t.noteHash.root), toHex32(NOTE_HASH_ROOT));
    assert.equal(toHex32(t.l1ToL2.root), toHex32(L1_TO_L2_ROOT));
  });
});

describe('block header', () => {
  it('the genesis header hashes to GENESIS_BLOCK_HEADER_HASH', () => {
    const header = genesisBlockHeader(genesisState());
    assert.equal(blockHeaderHash(header), GENESIS_BLOCK_HEADER_HASH);
  });

  it('the genesis header has zero lastArchive and zero global variables', () => {
    const header = genesisBlockHeader(genesisState());
    assert.deepEqual(header.lastArchive, { root: 0n, nextAvailableLeafIndex: 0 });
    assert.deepEqual(header.globalVariables, emptyBlockHeader().globalVariables);
    assert.equal(header.spongeBlobHash, 0n);
    assert.equal(header.totalFees, 0n);
    assert.equal(header.totalManaUsed, 0n);
    assert.equal(header.state.partial.nullifierTree.nextAvailableLeafIndex, 128);
    assert.equal(header.state.partial.publicDataTree.nextAvailableLeafIndex, 128);
  });

  it('the archive tree holding only the genesis header hash has root GENESIS_ARCHIVE_ROOT', () => {
    const header = genesisBlockHeader(genesisState());
    assert.equal(naiveRoot([blockHeaderHash(header)], 30, poseidonNode), GENESIS_ARCHIVE_ROOT);
  });

  it('a nonzero lastArchive (e.g. the empty archive root) would not give the genesis hash', () => {
    const header = genesisBlockHeader(genesisState());
    header.lastArchive = { root: naiveRoot([], 30, poseidonNode), nextAvailableLeafIndex: 0 };
    assert.notEqual(blockHeaderHash(header), GENESIS_BLOCK_HEADER_HASH);
  });

  it('serialises the 22 fields in the reference order', () => {
    const header: BlockHeader = {
      lastArchive: { root: 1n, nextAvailableLeafIndex: 2 },
      state: {
        l1ToL2MessageTree: { root: 3n, nextAvailableLeafIndex: 4 },
        partial: {
          noteHashTree: { root: 5n, nextAvailableLeafIndex: 6 },
          nullifierTree: { root: 7n, nextAvailableLeafIndex: 8 },
          publicDataTree: { root: 9n, nextAvailableLeafIndex: 10 },
        },
      },
      spongeBlobHash: 11n,
      globalVariables: {
        chainId: 12n,
        version: 13n,
        blockNumber: 14,
        slotNumber: 15,
        timestamp: 16n,
        coinbase: `0x${'0'.repeat(38)}11`,
        feeRecipient: 18n,
        gasFees: { feePerDaGas: 19n, feePerL2Gas: 20n },
      },
      totalFees: 21n,
      totalManaUsed: 22n,
    };
    const fields = blockHeaderToFields(header);
    assert.equal(fields.length, BLOCK_HEADER_LENGTH);
    assert.deepEqual(
      fields,
      Array.from({ length: 22 }, (_, i) => BigInt(i + 1)),
    );
    assert.equal(blockHeaderHash(header), poseidon2HashWithSeparator(fields, 4195546849));
  });

  it('rejects malformed values', () => {
    const bad = emptyBlockHeader();
    bad.globalVariables.coinbase = '0x1234';
    assert.throws(() => blockHeaderToFields(bad), TypeError);
    const neg = emptyBlockHeader();
    neg.globalVariables.blockNumber = -1;
    assert.throws(() => blockHeaderToFields(neg), RangeError);
    const big = emptyBlockHeader();
    big.totalFees = 1n << 254n;
    assert.throws(() => blockHeaderToFields(big), RangeError);
  });

  it('genesisBlockHeader does not alias the given state', () => {
    const state = genesisState();
    const header = genesisBlockHeader(state);
    header.state.partial.nullifierTree.nextAvailableLeafIndex = 999;
    assert.equal(state.partial.nullifierTree.nextAvailableLeafIndex, 128);
  });
});

describe('checkpoint header', () => {
  it('the empty header serialises to 316 zero bytes', () => {
    const bytes = serializeCheckpointHeader(emptyCheckpointHeader());
    assert.equal(bytes.length, CHECKPOINT_HEADER_SIZE_IN_BYTES);
    assert.ok(bytes.every((b) => b === 0));
  });

  it('the empty header hashes to GENESIS_CHECKPOINT_HEADER_HASH', () => {
    // Independent: sha256 of 316 zero bytes, top 31 bytes as the value.
    const digest = createHash('sha256').update(Buffer.alloc(316)).digest();
    const expected = BigInt(`0x${digest.subarray(0, 31).toString('hex')}`);
    assert.equal(expected, GENESIS_CHECKPOINT_HEADER_HASH);
    assert.equal(checkpointHeaderHash(emptyCheckpointHeader()), GENESIS_CHECKPOINT_HEADER_HASH);
    assert.equal(
      toHex32(GENESIS_CHECKPOINT_HEADER_HASH),
      '0x007802c95d2f1ade746d97350a18ddbfdb9f5bee2803436917a3cf3d6a685a3a',
    );
  });

  it('lays out fields with the reference byte widths', () => {
    const header: CheckpointHeader = {
      lastArchiveRoot: 0x01n,
      blockHeadersHash: 0x02n,
      blobsHash: 0x03n,
      inHash: 0x04n,
      epochOutHash: 0x05n,
      slotNumber: 0x06,
      timestamp: 0x0102030405060708n,
      coinbase: `0x${'ab'.repeat(20)}`,
      feeRecipient: 0x09n,
      gasFees: { feePerDaGas: 0x0an, feePerL2Gas: 0x0bn },
      totalManaUsed: 0x0cn,
    };
    const hex = Buffer.from(serializeCheckpointHeader(header)).toString('hex');
    const word = (v: number, bytes: number) => v.toString(16).padStart(bytes * 2, '0');
    const expected =
      word(1, 32) +
      word(2, 32) +
      word(3, 32) +
      word(4, 32) +
      word(5, 32) +
      word(6, 32) +
      '0102030405060708' +
      'ab'.repeat(20) +
      word(9, 32) +
      word(10, 16) +
      word(11, 16) +
      word(12, 32);
    assert.equal(hex, expected);
    assert.equal(checkpointHeaderHash(header), sha256ToField([Buffer.from(expected, 'hex')]));
  });
});

describe('EMPTY_EPOCH_OUT_HASH', () => {
  it('is the root of a balanced sha256ToField tree of 32 zero leaves', () => {
    const leaves = new Array<bigint>(32).fill(0n);
    assert.equal(naiveRoot(leaves, 5, shaNode), EMPTY_EPOCH_OUT_HASH);
  });
});
