import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  type L2Block,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  RevertCode,
  type TxEffect,
} from '../../src/core/block.js';
import {
  blockHeaderHash,
  checkpointHeaderHash,
  emptyBlockHeader,
  emptyCheckpointHeader,
  emptyGlobalVariables,
} from '../../src/core/block-header.js';
import {
  BLOCK_BODY_OVERHEAD_BYTES,
  CHECKPOINT_BODY_OVERHEAD_BYTES,
  type CheckpointBody,
  CheckpointBodyError,
  type CheckpointOnL1,
  decodeCheckpointBody,
  encodeCheckpointBody,
  encodeCheckpointBodyFormat1,
  encodeCheckpointBodyInSlices,
  FORMAT_2_TAG,
  txEffectBodyBytesBound,
  verifyCheckpointBody,
} from '../../src/core/checkpoint-body.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { privateLogArb } from '../helpers/arbitraries.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-body-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('checkpoint body', () => {
  let body: CheckpointBody;
  let onL1: CheckpointOnL1;
  before(async () => {
    const ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const previousArchive = ws.at(0).snapshot(TreeId.ARCHIVE);
    const blocks: L2Block[] = [];
    for (let i = 0; i < 2; i++) {
      const fork = ws.fork();
      blocks.push(
        buildBlock(fork, {
          globalVariables: { ...emptyGlobalVariables(), blockNumber: i + 1, slotNumber: 3, timestamp: 1000n },
          txEffects: [
            {
              revertCode: RevertCode.OK,
              txHash: BigInt(100 + i),
              transactionFee: 5n,
              noteHashes: [BigInt(200 + i)],
              nullifiers: [BigInt(300 + i)],
              l2ToL1Msgs: [],
              publicDataWrites: [],
              privateLogs: [],
              publicLogs: [],
              contractClassLogs: [],
            },
          ],
          checkpointNumber: 1,
          indexWithinCheckpoint: i,
          ...(i === 0 ? { l1ToL2Messages: [] } : { previousSponge: blocks[0]!.header.spongeBlobHash }),
          totalManaUsed: 10n,
        }),
      );
      await ws.commit(fork);
    }
    await ws.close();
    const header = {
      ...emptyCheckpointHeader(),
      slotNumber: 3,
      lastArchiveRoot: previousArchive.root,
      timestamp: 1000n,
    };
    body = { header, blocks };
    onL1 = {
      checkpointNumber: 1,
      slot: 3,
      headerHash: checkpointHeaderHash(header),
      archive: blocks[1]!.archive.root,
      previousArchive,
    };
  });

  test('encodes to 32-byte words (format /2) and decodes to the same blocks, hashes derived', () => {
    const bytes = encodeCheckpointBody(body);
    assert.equal(bytes.length % 32, 0);
    assert.equal(BigInt(`0x${Buffer.from(bytes.subarray(0, 32)).toString('hex')}`), FORMAT_2_TAG);
    const decoded = decodeCheckpointBody(bytes);
    assert.deepEqual(decoded, body);
    verifyCheckpointBody(decoded, onL1);
  });

  test('a body in the first format (JSON) is still read', () => {
    const bytes = encodeCheckpointBodyFormat1(body);
    assert.match(new TextDecoder().decode(bytes), /"format":"cairn-checkpoint-body\/1"/);
    const decoded = decodeCheckpointBody(bytes);
    assert.deepEqual(decoded, body);
    verifyCheckpointBody(decoded, onL1);
  });

  test('encoding in slices gives the same bytes, pausing between slices of tx effects', async () => {
    let pauses = 0;
    const sliced = await encodeCheckpointBodyInSlices(body, async () => void pauses++);
    assert.deepEqual(sliced, encodeCheckpointBody(body));
    assert.equal(pauses, 0, 'two blocks of one tx each fit in one slice');
    // 140 tx effects in one block: a pause after each 64.
    const block = body.blocks[0]!;
    const many = Array.from({ length: 140 }, (_, i) => ({
      ...block.body.txEffects[0]!,
      txHash: BigInt(i + 1),
    }));
    const big = { ...body, blocks: [{ ...block, body: { txEffects: many } }, body.blocks[1]!] };
    pauses = 0;
    assert.deepEqual(
      await encodeCheckpointBodyInSlices(big, async () => void pauses++),
      encodeCheckpointBody(big),
    );
    assert.equal(pauses, 2);
  });

  test('a body that disagrees with L1 is refused, naming how', () => {
    const cases: [Partial<CheckpointOnL1>, RegExp][] = [
      [{ headerHash: 1n }, /header does not hash/],
      [{ slot: 4 }, /slot 3, L1 says 4/],
      [{ archive: 1n }, /does not end at the archive root/],
      [{ checkpointNumber: 2 }, /checkpoint 1/],
      [{ previousArchive: { root: 5n, nextAvailableLeafIndex: 1 } }, /previous archive/],
    ];
    for (const [change, pattern] of cases) {
      assert.throws(
        () => verifyCheckpointBody(body, { ...onL1, ...change }),
        (err: unknown) => err instanceof CheckpointBodyError && pattern.test(err.message),
        String(pattern),
      );
    }
    const swapped = { ...body, blocks: [body.blocks[1]!, body.blocks[0]!] };
    assert.throws(() => verifyCheckpointBody(swapped, onL1), CheckpointBodyError);
  });

  test('malformed bytes are refused with a clear error', () => {
    const refused = (bytes: Uint8Array, pattern: RegExp) =>
      assert.throws(
        () => decodeCheckpointBody(bytes),
        (err: unknown) => err instanceof CheckpointBodyError && pattern.test(err.message),
        String(pattern),
      );
    refused(new Uint8Array([0xff, 0xfe]), /neither known format/);
    refused(new Uint8Array(0), /neither known format/);
    // Format /1.
    refused(new TextEncoder().encode('{"format":"x"}'), /malformed/);
    refused(new Uint8Array([0x7b, 0xff]), /not UTF-8 JSON/);
    const json = JSON.parse(new TextDecoder().decode(encodeCheckpointBodyFormat1(body)));
    json.blocks = [];
    refused(new TextEncoder().encode(JSON.stringify(json)), /at least one block/);
    // Format /2.
    const good = encodeCheckpointBody(body);
    const word = (i: number) =>
      BigInt(`0x${Buffer.from(good.subarray(32 * i, 32 * i + 32)).toString('hex')}`);
    const withWord = (i: number, value: bigint) => {
      const out = Uint8Array.from(good);
      out.set(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'), 32 * i);
      return out;
    };
    refused(good.subarray(0, good.length - 32), /ends early/);
    refused(good.subarray(0, good.length - 1), /whole number of words/);
    refused(Uint8Array.from([...good, ...new Uint8Array(32)]), /after the last block/);
    // Word 13 is the block count; 14 and 15 the first block's checkpoint number and index.
    assert.equal(word(13), 2n);
    refused(withWord(13, 0n), /at least one block/);
    refused(withWord(13, 1n << 20n), /do not fit/);
    refused(withWord(14, 1n << 32n), /checkpointNumber.*more than/);
    refused(withWord(1, FR_MODULUS), /header.lastArchiveRoot.*not a field element/);
    // The header's coinbase (word 8) is an L1 address.
    refused(withWord(8, 1n << 160n), /header.coinbase/);
  });
});

describe('checkpoint body size bound', () => {
  // The largest field values give the longest hex; counts and lengths vary.
  const big = FR_MODULUS - 1n;
  const fields = (n: number) => Array.from({ length: n }, () => big);
  const effectArb = fc
    .record({
      noteHashes: fc.nat(64),
      nullifiers: fc.nat(64),
      l2ToL1Msgs: fc.nat(8),
      writes: fc.nat(64),
      privateLogs: fc.array(fc.integer({ min: 0, max: 16 }), { maxLength: 64 }),
      publicLogs: fc.array(fc.nat(100), { maxLength: 8 }),
      classLogs: fc.array(fc.integer({ min: 0, max: CONTRACT_CLASS_LOG_SIZE_IN_FIELDS }), { maxLength: 1 }),
    })
    .map(
      (s): TxEffect => ({
        revertCode: RevertCode.REVERTED,
        txHash: big,
        transactionFee: big,
        noteHashes: fields(s.noteHashes),
        nullifiers: fields(s.nullifiers),
        l2ToL1Msgs: fields(s.l2ToL1Msgs),
        publicDataWrites: Array.from({ length: s.writes }, () => ({ leafSlot: big, value: big })),
        privateLogs: s.privateLogs.map((n) => ({
          fields: fields(PRIVATE_LOG_SIZE_IN_FIELDS),
          emittedLength: n,
        })),
        publicLogs: s.publicLogs.map((n) => ({ contractAddress: big, fields: fields(n) })),
        contractClassLogs: s.classLogs.map((n) => ({
          contractAddress: big,
          fields: { fields: fields(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) },
          emittedLength: n,
        })),
      }),
    );

  // Field values anywhere in the field, zeros included (logs' trailing zeros are not sent).
  const value = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }));
  const values = (max: number) => fc.array(value, { maxLength: max });
  const sparseEffectArb = fc
    .record({
      revertCode: fc.constantFrom(RevertCode.OK, RevertCode.REVERTED),
      txHash: value,
      transactionFee: value,
      noteHashes: values(4),
      nullifiers: values(4),
      l2ToL1Msgs: values(2),
      publicDataWrites: fc.array(fc.record({ leafSlot: value, value }), { maxLength: 4 }),
      privateLogs: fc.array(privateLogArb(value), { maxLength: 3 }),
      publicLogs: fc.array(fc.record({ contractAddress: value, fields: values(6) }), { maxLength: 3 }),
      contractClassLogs: fc.array(
        fc.record({
          contractAddress: value,
          fields: fc.record({ fields: values(40) }),
          emittedLength: fc.integer({ min: 0, max: 40 }),
        }),
        { maxLength: 1 },
      ),
    })
    // Plain objects, as the node's are (fc.record's have no prototype).
    .map((effect) => structuredClone(effect) as TxEffect);

  test('a body of any tx effects encodes to the same bytes in slices as at once', async () => {
    const header = { ...emptyCheckpointHeader(), slotNumber: 9, timestamp: 77n };
    const blockOf = (txEffects: TxEffect[], i: number): L2Block => ({
      number: i + 1,
      hash: 0n,
      header: { ...emptyBlockHeader(), totalManaUsed: BigInt(i) },
      archive: { root: BigInt(i + 5), nextAvailableLeafIndex: i + 2 },
      body: { txEffects },
      checkpointNumber: 4,
      indexWithinCheckpoint: i,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(effectArb, { maxLength: 40 }), { minLength: 1, maxLength: 3 }),
        async (blocks) => {
          const b = { header, blocks: blocks.map(blockOf) };
          assert.deepEqual(await encodeCheckpointBodyInSlices(b, async () => {}), encodeCheckpointBody(b));
        },
      ),
      { numRuns: 25, seed: 11 },
    );
  });

  test('txEffectBodyBytesBound is at least the bytes the effect takes in the encoded body, exactly without trailing zeros', () => {
    const header = { ...emptyCheckpointHeader(), slotNumber: 9 };
    const bodyOf = (txEffects: TxEffect[]): CheckpointBody => ({
      header,
      blocks: [
        {
          number: 0,
          hash: 0n,
          header: emptyBlockHeader(),
          archive: { root: 1n, nextAvailableLeafIndex: 1 },
          body: { txEffects },
          checkpointNumber: 1,
          indexWithinCheckpoint: 0,
        },
      ],
    });
    const empty = encodeCheckpointBody(bodyOf([])).length;
    assert.ok(empty <= CHECKPOINT_BODY_OVERHEAD_BYTES + BLOCK_BODY_OVERHEAD_BYTES);
    fc.assert(
      fc.property(effectArb, (effect) => {
        const actual = encodeCheckpointBody(bodyOf([effect])).length - empty;
        assert.equal(txEffectBodyBytesBound(effect), actual);
      }),
      { numRuns: 60, seed: 7 },
    );
    fc.assert(
      fc.property(sparseEffectArb, (effect) => {
        const actual = encodeCheckpointBody(bodyOf([effect])).length - empty;
        assert.ok(txEffectBodyBytesBound(effect) >= actual);
      }),
      { numRuns: 60, seed: 8 },
    );
  });

  test("any body decodes to what was encoded (lossless, logs' trailing zeros included)", () => {
    const header = {
      ...emptyCheckpointHeader(),
      slotNumber: 9,
      timestamp: 77n,
      coinbase: `0x${'ab'.repeat(20)}`,
    };
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.oneof(effectArb, sparseEffectArb), { maxLength: 6 }), {
          minLength: 1,
          maxLength: 3,
        }),
        (blocks) => {
          const b: CheckpointBody = {
            header,
            blocks: blocks.map((txEffects, i) => {
              const blockHeader = {
                ...emptyBlockHeader(),
                totalManaUsed: BigInt(i),
                globalVariables: {
                  ...emptyGlobalVariables(),
                  blockNumber: i + 7,
                  coinbase: `0x${'0c'.repeat(20)}`,
                },
              };
              return {
                number: i + 7,
                hash: blockHeaderHash(blockHeader),
                header: blockHeader,
                archive: { root: BigInt(i + 5), nextAvailableLeafIndex: i + 8 },
                body: { txEffects },
                checkpointNumber: 4,
                indexWithinCheckpoint: i,
              };
            }),
          };
          assert.deepEqual(decodeCheckpointBody(encodeCheckpointBody(b)), b);
        },
      ),
      { numRuns: 40, seed: 12 },
    );
  });
});
