import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type L2Block, RevertCode } from '../../src/core/block.js';
import {
  checkpointHeaderHash,
  emptyCheckpointHeader,
  emptyGlobalVariables,
} from '../../src/core/block-header.js';
import {
  type CheckpointBody,
  CheckpointBodyError,
  type CheckpointOnL1,
  decodeCheckpointBody,
  encodeCheckpointBody,
  verifyCheckpointBody,
} from '../../src/core/checkpoint-body.js';
import { buildBlock } from '../../src/sequencer/block-builder.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf, TreeId, WorldState } from '../../src/world-state/index.js';

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
