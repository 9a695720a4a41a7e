import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { z } from 'zod';
import {
  blockData,
  blockResponse,
  chainTips,
  checkpointData,
  checkpointResponse,
  l1RollupConstants,
  l2Block,
  l2TipsEarlier,
  worldStateSyncStatus,
} from '../../src/client/methods/chain-schemas.js';
import { RevertCode } from '../../src/core/block.js';
import { emptyCheckpointHeader, emptyGlobalVariables } from '../../src/core/block-header.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { WorldState } from '../../src/world-state/world-state.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-chain-schemas-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('block and checkpoint wire shapes', () => {
  test('a real block round-trips through L2Block and BlockResponse', async () => {
    const ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const fork = ws.fork();
    const block = buildBlock(fork, {
      globalVariables: {
        ...emptyGlobalVariables(),
        chainId: 31337n,
        version: 1n,
        blockNumber: 1,
        slotNumber: 12,
        timestamp: 1_700_000_096n,
        coinbase: `0x${'ab'.repeat(20)}`,
        gasFees: { feePerDaGas: 0n, feePerL2Gas: 12345678901234567890n },
      },
      txEffects: [
        {
          revertCode: RevertCode.OK,
          txHash: 0xabcn,
          transactionFee: 77n,
          noteHashes: [0x1001n],
          nullifiers: [0x2001n],
          l2ToL1Msgs: [0x3001n],
          publicDataWrites: [{ leafSlot: 0x4001n, value: 9n }],
          privateLogs: [{ fields: Array.from({ length: 16 }, (_, i) => BigInt(i)), emittedLength: 3 }],
          publicLogs: [{ contractAddress: 0x99n, fields: [1n, 2n] }],
          contractClassLogs: [],
        },
      ],
      checkpointNumber: 1,
      indexWithinCheckpoint: 0,
      l1ToL2Messages: [],
      totalManaUsed: 1000n,
    });
    await ws.close();

    const legacy = z.encode(l2Block, block) as Record<string, any>;
    const json = JSON.parse(JSON.stringify(legacy));
    assert.match(json.header.lastArchive.root, /^0x[0-9a-f]{64}$/);
    assert.equal(json.header.globalVariables.slotNumber, 12);
    assert.equal(json.header.globalVariables.timestamp, '1700000096');
    assert.equal(json.header.globalVariables.gasFees.feePerL2Gas, '12345678901234567890');
    assert.equal(json.header.globalVariables.coinbase, `0x${'ab'.repeat(20)}`);
    assert.equal(json.body.txEffects[0].txHash, `0x${'0'.repeat(61)}abc`);
    assert.equal(json.header.state.partial.nullifierTree.nextAvailableLeafIndex, 192);
    const back = z.decode(l2Block, json);
    assert.deepEqual(back.header, block.header);
    assert.deepEqual(back.body, block.body);

    const response = z.encode(blockResponse, {
      ...block,
      l1: { published: false },
    });
    assert.equal((response as { body?: unknown }).body !== undefined, true);
    assert.deepEqual((response as { l1: unknown }).l1, { published: false });
    const data = z.encode(blockData, { ...block, blockHash: block.hash });
    assert.equal((data as { blockHash: string }).blockHash, `0x${block.hash.toString(16).padStart(64, '0')}`);
  });

  test('checkpoints and tips encode; the schemas render for OpenRPC', () => {
    const header = { ...emptyCheckpointHeader(), slotNumber: 3 };
    const archive = { root: 5n, nextAvailableLeafIndex: 3 };
    const l1 = { blockNumber: 10n, timestamp: 20n, blockHash: `0x${'0'.repeat(64)}` };
    const cp = {
      number: 1,
      header,
      archive,
      checkpointOutHash: 0n,
      startBlock: 1,
      blockCount: 2,
      feeAssetPriceModifier: 0n,
    };
    assert.equal(
      (z.encode(checkpointResponse, cp) as { feeAssetPriceModifier: string }).feeAssetPriceModifier,
      '0',
    );
    z.encode(checkpointData, { ...cp, checkpointNumber: 1, attestations: [], l1 });
    const id = { number: 2, hash: 7n };
    const tip = { block: id, checkpoint: { number: 1, hash: 8n } };
    z.encode(chainTips, { proposed: id, checkpointed: tip, proven: tip, finalized: tip });
    z.encode(l2TipsEarlier, { latest: id, pending: id, proven: id });
    for (const schema of [
      l2Block,
      blockResponse,
      blockData,
      checkpointResponse,
      checkpointData,
      chainTips,
      l1RollupConstants,
      worldStateSyncStatus,
    ]) {
      assert.ok(z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }));
    }
  });
});
