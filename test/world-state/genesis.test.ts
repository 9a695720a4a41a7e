import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { GENESIS_ARCHIVE_ROOT, GENESIS_BLOCK_HEADER_HASH } from '../../src/core/block-header.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-ws-genesis-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('world-state genesis (known answers)', () => {
  test('block 0 over the prefilled trees has the reference genesis roots', async () => {
    const env = openEnvironment(dir, 'world-state');
    const ws = await WorldState.open(env, { historyBlocks: 0, genesisBlockHash: genesisBlockHashOf });
    const genesis = ws.at(0);
    const hex = (t: TreeId) => `0x${genesis.snapshot(t).root.toString(16).padStart(64, '0')}`;
    assert.equal(hex(TreeId.NULLIFIER), '0x1ec3788cd1c32e54d889d67fe29e481114f9d4afe9b44b229aa29d8ad528dd31');
    assert.equal(
      hex(TreeId.PUBLIC_DATA),
      '0x23c08a6b1297210c5e24c76b9a936250a1ce2721576c26ea797c7ec35f9e46a9',
    );
    assert.equal(hex(TreeId.NOTE_HASH), '0x2ac5dda169f6bb3b9ca09bbac34e14c94d1654597db740153a1288d859a8a30a');
    assert.equal(
      hex(TreeId.L1_TO_L2_MESSAGE),
      '0x0d582c10ff8115413aa5b70564fdd2f3cefe1f33a1e43a47bc495081e91e73e5',
    );
    assert.deepEqual(genesis.snapshot(TreeId.ARCHIVE), {
      root: GENESIS_ARCHIVE_ROOT,
      nextAvailableLeafIndex: 1,
    });
    assert.equal(genesis.getLeafValue(TreeId.ARCHIVE, 0), GENESIS_BLOCK_HEADER_HASH);
    assert.deepEqual(genesis.findLeaf(TreeId.ARCHIVE, GENESIS_BLOCK_HEADER_HASH), {
      index: 0,
      blockNumber: 0,
    });
    assert.equal(genesis.snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex, 128);
    assert.deepEqual(genesis.getLeafPreimage(TreeId.NULLIFIER, 127), {
      key: 127n,
      value: 0n,
      nextKey: 0n,
      nextIndex: 0,
    });
    assert.deepEqual(genesis.findLowLeaf(TreeId.NULLIFIER, 1000n), {
      index: 127,
      leaf: { key: 127n, value: 0n, nextKey: 0n, nextIndex: 0 },
      alreadyPresent: false,
    });
    await env.close();
  });

  test('reopening does not recreate genesis', async () => {
    const env = openEnvironment(dir, 'world-state');
    const ws = await WorldState.open(env, {
      historyBlocks: 0,
      genesisBlockHash: () => {
        throw new Error('genesis must not run again');
      },
    });
    assert.equal(ws.latestBlockNumber, 0);
    assert.equal(ws.at(0).snapshot(TreeId.ARCHIVE).root, GENESIS_ARCHIVE_ROOT);
    await env.close();
  });
});
