import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import {
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  type L2Block,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  RevertCode,
  type TxEffect,
} from '../../src/core/block.js';
import { txEffect } from '../../src/core/block-codecs.js';
import {
  checkpointHeaderHash,
  emptyBlockHeader,
  emptyCheckpointHeader,
  emptyGlobalVariables,
} from '../../src/core/block-header.js';
import {
  type CheckpointBody,
  CheckpointBodyError,
  type CheckpointOnL1,
  decodeCheckpointBody,
  encodeCheckpointBody,
  encodeCheckpointBodyInSlices,
  txEffectBodyBytesBound,
  verifyCheckpointBody,
} from '../../src/core/checkpoint-body.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';

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

  test('encodes to JSON and decodes to the same blocks, hashes derived', () => {
    const bytes = encodeCheckpointBody(body);
    const text = new TextDecoder().decode(bytes);
    assert.match(text, /"format":"cairn-checkpoint-body\/1"/);
    const decoded = decodeCheckpointBody(bytes);
    assert.deepEqual(decoded, body);
    verifyCheckpointBody(decoded, onL1);
  });

  test('encoding in slices gives the same bytes, pausing between slices of tx effects', async () => {
    let pauses = 0;
    const sliced = await encodeCheckpointBodyInSlices(body, async () => void pauses++);
    assert.deepEqual(sliced, encodeCheckpointBody(body));
    assert.equal(pauses, 0, 'two blocks of one tx each fit in one slice');
    // 70 tx effects in one block: a pause after each 32.
    const block = body.blocks[0]!;
    const many = Array.from({ length: 70 }, (_, i) => ({
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
    assert.throws(() => decodeCheckpointBody(new Uint8Array([0xff, 0xfe])), /not UTF-8 JSON/);
    assert.throws(() => decodeCheckpointBody(new TextEncoder().encode('{"format":"x"}')), /malformed/);
    const json = JSON.parse(new TextDecoder().decode(encodeCheckpointBody(body)));
    json.blocks = [];
    assert.throws(
      () => decodeCheckpointBody(new TextEncoder().encode(JSON.stringify(json))),
      /at least one block/,
    );
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

  test('txEffectBodyBytesBound is at least the bytes the effect takes in the encoded body', () => {
    fc.assert(
      fc.property(effectArb, (effect) => {
        const actual = JSON.stringify(z.encode(txEffect, effect)).length;
        const bound = txEffectBodyBytesBound(effect);
        assert.ok(bound >= actual, `bound ${bound} < actual ${actual}`);
        // And not wildly above it, so blocks are not cut short for nothing.
        assert.ok(bound <= actual * 1.3 + 600, `bound ${bound} far above actual ${actual}`);
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
