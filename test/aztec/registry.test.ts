// The reference API's registry over small fakes of its ports: exactly the 55 methods of 4.1.2's
// AztecNodeApiSchema, each handler asking the query components what cairn's own API asks and
// answering in the reference's shape; the Tx methods carry the reference's Tx JSON to and from the
// tx service.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AZTEC_NODE_API_METHODS, type AztecApiNode, buildAztecRegistry } from '../../src/aztec/index.js';
import { emptyBlockHeader } from '../../src/core/block-header.js';
import { encodeTxJson } from '../../src/core/kernel/tx-json.js';
import type { Tx } from '../../src/core/tx.js';
import { REFERENCE_CONVENTIONS } from '../../src/rpc/conventions.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { silentLogger } from '../helpers/rpc.js';
import { simplePrivateTx } from '../helpers/txs.js';

const TX = 0x1234n;
const BLOCK_HASH = 0xabcdn;
const asked: unknown[] = [];
/** The tx the fake pool holds. */
const BUILT = simplePrivateTx({
  feePayer: 0x1234n,
  anchorBlockHeader: emptyBlockHeader(),
  nullifier: 0x4000n,
});
/** What reached the fake tx service. */
const sent: { method: string; tx: Tx; claimed: bigint | undefined; options?: unknown }[] = [];

function fakeNode(): AztecApiNode {
  const unused = () => {
    throw new Error('not used by this test');
  };
  const witness = (key: bigint) => ({
    index: 7n,
    leaf: { key, value: 0n, nextKey: key + 1n, nextIndex: 8n },
    siblingPath: [1n, 2n],
  });
  return {
    queries: {
      chain: {
        tips: unused,
        latestBlockNumber: () => 3,
        block: unused,
        blocks: unused,
        publishedCheckpoints: unused,
        checkpointedBlocks: unused,
        checkpointsData: unused,
      },
      state: {
        findLeavesIndexes: unused,
        nullifierMembershipWitness: (_ref, n) => (n === 0x55n ? witness(n) : undefined),
        lowNullifierMembershipWitness: (_ref, n) => witness(n - 1n),
        publicDataWitness: unused,
        noteHashMembershipWitness: unused,
        blockHashMembershipWitness: unused,
        publicStorageAt: unused,
      },
      logs: {
        logsByTagsPage: (q) => {
          asked.push(q);
          return q.tags.map(() => []);
        },
        publicLogs: unused,
        contractClassLogs: unused,
      },
      contracts: { contractClass: unused, contract: unused },
      messages: {
        l1ToL2MessageMembershipWitness: unused,
        l1ToL2MessageCheckpoint: unused,
        isL1ToL2MessageSynced: unused,
        l2ToL1Messages: unused,
      },
      validators: { getValidatorsStats: unused, getValidatorStats: unused },
    },
    txs: {
      getTxReceipt: (hash) =>
        hash === TX
          ? {
              txHash: TX,
              status: 'proven',
              executionResult: 'success',
              transactionFee: 5n,
              blockHash: BLOCK_HASH,
              blockNumber: 2,
              slotNumber: 4,
              txIndexInBlock: 0,
              epochNumber: 1,
            }
          : hash === 0x1n
            ? { txHash: hash, status: 'pending' }
            : { txHash: hash, status: 'dropped', error: 'Tx dropped by P2P node' },
      getTxEffect: unused,
      pendingCount: 0,
      currentMinFees: unused,
      maxPriorityFees: unused,
      sendTx: async (tx, claimed) => {
        sent.push({ method: 'sendTx', tx, claimed });
        return BUILT.hash;
      },
      isValidTx: async (tx, claimed, options) => {
        sent.push({ method: 'isValidTx', tx, claimed, options });
        return { result: 'valid' };
      },
      simulatePublicCalls: unused,
      getPendingTx: (h) => (h === BUILT.hash ? BUILT.tx : undefined),
      getPendingTxs: () => [{ tx: BUILT.tx, hash: BUILT.hash }] as never,
    },
    info: {
      getNodeInfo: unused,
      isReady: unused,
      getEncodedEnr: unused,
      getAllowedPublicSetup: unused,
      getL1ContractAddresses: unused,
      registerFunctionSignatures: unused,
      getWorldStateSyncStatus: unused,
    },
  } as AztecApiNode;
}

const registry = buildAztecRegistry(fakeNode());
const dispatcher = new Dispatcher({
  port: 'public',
  registry,
  logger: silentLogger(),
  maxBatchSize: 100,
  maxResponseBytes: 1_000_000,
  openRpcInfo: { title: 't', version: '0', description: 'd' },
  conventions: REFERENCE_CONVENTIONS,
});

async function rpc(method: string, params: unknown[]) {
  const outcome = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), 'test');
  assert.notEqual(outcome.status, 204);
  return JSON.parse((outcome as { body: string }).body) as {
    result?: unknown;
    error?: { code: number; message: string };
  };
}
const hex = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;

describe('the reference API registry', () => {
  test("serves exactly 4.1.2's 55 methods, all as node_*", () => {
    const names = registry
      .all()
      .map((m) => m.fullName)
      .sort();
    assert.equal(AZTEC_NODE_API_METHODS.length, 55);
    assert.deepEqual(names, AZTEC_NODE_API_METHODS.map((m) => `node_${m}`).sort());
  });

  test('the low nullifier of a nullifier in the tree is its own leaf; of one not in the tree, the leaf below', async () => {
    const own = await rpc('node_getLowNullifierMembershipWitness', ['latest', hex(0x55n)]);
    assert.deepEqual(own.result, {
      index: '7',
      leafPreimage: { leaf: { nullifier: hex(0x55n) }, nextKey: hex(0x56n), nextIndex: '8' },
      siblingPath: Buffer.concat([
        Buffer.from([0, 0, 0, 2]),
        Buffer.alloc(31),
        Buffer.from([1]),
        Buffer.alloc(31),
        Buffer.from([2]),
      ]).toString('base64'),
    });
    const low = await rpc('node_getLowNullifierMembershipWitness', [3, hex(0x99n)]);
    assert.equal(
      (low.result as { leafPreimage: { leaf: { nullifier: string } } }).leafPreimage.leaf.nullifier,
      hex(0x98n),
    );
  });

  test('tag queries ask for the page and reference block given, 10 logs a page', async () => {
    asked.length = 0;
    await rpc('node_getPrivateLogsByTags', [[hex(1n), hex(2n)], 3, hex(BLOCK_HASH)]);
    await rpc('node_getPublicLogsByTagsFromContract', [hex(9n), [hex(1n)]]);
    assert.deepEqual(asked, [
      { tags: [1n, 2n], page: 3, perPage: 10, referenceBlock: { kind: 'hash', hash: BLOCK_HASH } },
      { tags: [1n], contractAddress: 9n, page: 0, perPage: 10, referenceBlock: undefined },
    ]);
    const tooMany = await rpc('node_getPrivateLogsByTags', [
      Array.from({ length: 101 }, (_, i) => hex(BigInt(i))),
    ]);
    assert.equal(tooMany.error?.code, -32701);
  });

  test("receipts in the reference's shape: mined, pending, and dropped for an unknown tx", async () => {
    assert.deepEqual((await rpc('node_getTxReceipt', [hex(TX)])).result, {
      txHash: hex(TX),
      status: 'proven',
      executionResult: 'success',
      blockHash: hex(BLOCK_HASH),
      blockNumber: 2,
      epochNumber: 1,
      transactionFee: '5',
    });
    assert.deepEqual((await rpc('node_getTxReceipt', [hex(1n)])).result, {
      txHash: hex(1n),
      status: 'pending',
    });
    assert.deepEqual((await rpc('node_getTxReceipt', [hex(2n)])).result, {
      txHash: hex(2n),
      status: 'dropped',
      error: 'Tx dropped by P2P node',
    });
  });

  test("the Tx methods take and give the reference's Tx JSON, the same tx the tx service holds", async () => {
    const json = JSON.parse(JSON.stringify(encodeTxJson({ txHash: BUILT.hash, ...BUILT.tx })));
    sent.length = 0;
    // No result member: the reference's server leaves out a void result.
    assert.deepEqual(await rpc('node_sendTx', [json]), { jsonrpc: '2.0', id: 1 });
    assert.deepEqual(await rpc('node_isValidTx', [json, { isSimulation: true }]), {
      jsonrpc: '2.0',
      id: 1,
      result: { result: 'valid' },
    });
    // The hash claimed beside the tx is passed on; without one, none is claimed.
    const { txHash: _, ...unclaimed } = json;
    await rpc('node_sendTx', [unclaimed]);
    assert.deepEqual(sent, [
      { method: 'sendTx', tx: BUILT.tx, claimed: BUILT.hash },
      { method: 'isValidTx', tx: BUILT.tx, claimed: BUILT.hash, options: { isSimulation: true } },
      { method: 'sendTx', tx: BUILT.tx, claimed: undefined },
    ]);
    // What the pool holds comes back in the same form, with its hash.
    assert.deepEqual((await rpc('node_getTxByHash', [hex(BUILT.hash)])).result, json);
    assert.equal((await rpc('node_getTxByHash', [hex(0x77n)])).result, undefined);
    assert.deepEqual((await rpc('node_getTxsByHash', [[hex(0x77n), hex(BUILT.hash)]])).result, [json]);
    assert.deepEqual((await rpc('node_getPendingTxs', [])).result, [json]);
  });

  test('a Tx that does not decode is refused as invalid input naming what is wrong, before the service', async () => {
    const json = JSON.parse(JSON.stringify(encodeTxJson({ txHash: BUILT.hash, ...BUILT.tx })));
    sent.length = 0;
    const cases: [unknown, RegExp][] = [
      [{}, /expected string, received undefined \(tx\.data\)/],
      [{ ...json, data: json.data.slice(0, 40) }, /anchorBlockHeader\.lastArchive\.root needs 32 bytes/],
      [{ ...json, chonkProof: Buffer.alloc(8).toString('base64') }, /chonkProof\.length is 0, not 1935/],
    ];
    for (const [bad, what] of cases) {
      for (const method of ['node_sendTx', 'node_isValidTx', 'node_simulatePublicCalls']) {
        const reply = await rpc(method, [bad]);
        assert.equal(reply.error?.code, -32701, method);
        assert.match(reply.error?.message ?? '', what, method);
      }
    }
    assert.deepEqual(sent, []);
  });
});
