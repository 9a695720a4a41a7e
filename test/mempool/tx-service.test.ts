// The node's tx service against real stores (no L1): the pool settles with the chain after each
// pass — txs in new blocks become mined, txs of unwound blocks come back as pending, and pending
// txs that can no longer be included (nullifier landed, expired) leave it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import type { GasFees } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { BlockBuilder } from '../../src/execution/block-builder.js';
import { devAccounts } from '../../src/execution/dev-accounts.js';
import { executeTx } from '../../src/execution/executor.js';
import type { MinFeeSource } from '../../src/mempool/min-fees.js';
import { TxService } from '../../src/mempool/tx-service.js';
import { openEnvironment } from '../../src/store/environment.js';
import type { WorldState } from '../../src/world-state/world-state.js';
import { silentLogger } from '../helpers/rpc.js';
import { openTxService, TEST_CONSTANTS } from '../helpers/tx-service-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-tx-service-'));
const [payer] = devAccounts(1);
const constants = TEST_CONSTANTS;
const FEES: GasFees = { feePerDaGas: 0n, feePerL2Gas: 100n };

/** Min fees without L1: a fixed fee, and a next slot the test moves. */
const fees: MinFeeSource & { slot: number } = {
  slot: 1,
  current: async () => ({ slot: fees.slot, fees: FEES }),
  predictedMinFees: async () => [FEES, FEES, FEES],
};

describe('tx service: the pool follows the chain', () => {
  let worldState: WorldState;
  let chain: ChainStore;
  let service: TxService;

  before(async () => {
    ({ worldState, chain, service } = await openTxService(dir, { funded: [payer!], fees, constants }));
  });
  after(async () => {
    await worldState.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const makeTx = (nullifier: Fr, expirationTimestamp = 2n ** 40n, anchorBlock = 0) =>
    buildTx({
      feePayer: payer!.address,
      anchorBlockHeader: chain.getBlock(anchorBlock)!.header,
      chainId: 31337,
      version: 1,
      expirationTimestamp,
      maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1000n },
      protocolNullifier: nullifier,
      noteHashes: [nullifier + 1n],
    });

  /** Builds the next block with these txs, as the sequencer would, and stores it as proposed. */
  async function propose(txs: { tx: any; hash: Fr }[]) {
    const fork = worldState.fork();
    const number = worldState.latestBlockNumber + 1;
    const globals = {
      chainId: 31337n,
      version: 1n,
      blockNumber: number,
      slotNumber: number,
      timestamp: 1_000_000n + BigInt(8 * number),
      coinbase: `0x${'00'.repeat(20)}`,
      feeRecipient: 0x77n,
      gasFees: FEES,
    };
    const builder = new BlockBuilder(fork, {
      globalVariables: globals,
      checkpointNumber: number,
      indexWithinCheckpoint: 0,
      l1ToL2Messages: [],
    });
    for (const t of txs) builder.addTx(executeTx(fork, t.tx, t.hash, globals).effect);
    const block = builder.finish(0n);
    await worldState.commit(fork);
    chain.addProposedBlock(block);
  }

  test('onAccepted hears of every tx the pool takes, from a client or a peer, and not of a refused one', async () => {
    const heard: Fr[] = [];
    service.onAccepted((hash) => heard.push(hash));
    const fromClient = makeTx(0x5101n);
    const fromPeer = makeTx(0x5102n);
    await service.sendTx(fromClient.tx, fromClient.hash);
    assert.equal(await service.receiveFromPeer(fromPeer.tx, fromPeer.hash), 'accept');
    const misnamed = makeTx(0x5103n);
    assert.equal(await service.receiveFromPeer(misnamed.tx, misnamed.hash + 1n), 'ignore');
    assert.deepEqual(heard, [fromClient.hash, fromPeer.hash]);
    // Mine them, so the tests below start from an empty pool.
    await propose([fromClient, fromPeer]);
    await service.afterPass();
  });

  test('while the admission hold is taken a client tx waits to be checked; it is taken once released', async () => {
    const t = makeTx(0x5201n);
    const release = service.admissionHold.take();
    let done = false;
    const sent = service.sendTx(t.tx, t.hash).then((h) => {
      done = true;
      return h;
    });
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(done, false);
    assert.equal(service.getPendingTx(t.hash), undefined, 'not checked, not in the pool while held');
    release();
    assert.equal(await sent, t.hash);
    assert.notEqual(service.getPendingTx(t.hash), undefined);
    await propose([t]);
    await service.afterPass();
  });

  test('mined with its block; pending again when the block is unwound; mined again when rebuilt', async () => {
    const a = makeTx(0xa1n);
    await service.sendTx(a.tx, a.hash);
    assert.equal(service.pool.status(a.hash), 'pending');
    assert.equal(service.getTxReceipt(a.hash).status, 'pending');
    assert.equal(service.getHeldTx(a.hash)?.status, 'pending');

    await propose([a]);
    await service.afterPass();
    assert.equal(service.pool.status(a.hash), 'mined');
    assert.equal(service.pendingCount, 0);
    // Held until its block is finalized: the tx body, as sent (for svc_getTxPublicCalls).
    const held = service.getHeldTx(a.hash);
    assert.equal(held?.status, 'mined');
    assert.deepEqual(held?.tx.data, a.tx.data);
    assert.equal(service.getPendingTx(a.hash), undefined);
    assert.equal(service.getHeldTx(0x1234n), undefined);
    const mined = service.getTxReceipt(a.hash);
    assert.equal(mined.status, 'proposed');

    // The block is dropped (e.g. its checkpoint was pruned): the tx is pending again.
    chain.unwindBlocksAfter(0);
    await worldState.rollbackTo(0);
    await service.afterPass();
    assert.equal(service.pool.status(a.hash), 'pending');
    assert.equal(service.getTxReceipt(a.hash).status, 'pending');

    // A new block 1 that holds it again: mined again, though block 1 was settled before.
    await propose([a]);
    await service.afterPass();
    assert.equal(service.pool.status(a.hash), 'mined');
  });

  test('a pending tx whose nullifier lands in another tx leaves the pool', async () => {
    const b = makeTx(0xb1n);
    await service.sendTx(b.tx, b.hash);
    const rival = makeTx(0xb1n, 2n ** 40n + 1n); // same nullifier, different tx
    assert.notEqual(rival.hash, b.hash);
    await propose([rival]);
    await service.afterPass();
    assert.equal(service.pool.status(b.hash), undefined);
    assert.deepEqual(service.getTxReceipt(b.hash), {
      txHash: b.hash,
      status: 'dropped',
      error: 'Tx dropped by P2P node',
    });
  });

  test('a pending tx that expires before the next slot leaves the pool', async () => {
    const slot5 = 1_000_000n + 5n * 8n;
    const c = makeTx(0xc1n, slot5);
    await service.sendTx(c.tx, c.hash);
    await service.afterPass();
    assert.equal(service.pool.status(c.hash), 'pending');
    fees.slot = 6; // the next slot starts after its expiration
    await service.afterPass();
    assert.equal(service.pool.status(c.hash), undefined);
  });

  test('a pending tx whose anchor block leaves the chain leaves the pool', async () => {
    const base = chain.latestBlockNumber;
    await propose([]);
    const anchored = makeTx(0xd1n, 2n ** 40n, base + 1);
    await service.sendTx(anchored.tx, anchored.hash);
    await service.afterPass();
    assert.equal(service.pool.status(anchored.hash), 'pending');
    chain.unwindBlocksAfter(base);
    await worldState.rollbackTo(base);
    await service.afterPass();
    assert.equal(service.pool.status(anchored.hash), undefined);
  });

  test('after a restart, the first pass checks every pending tx against the nullifier tree', async () => {
    const e = makeTx(0xe1n);
    await service.sendTx(e.tx, e.hash);
    await service.afterPass();
    // The rival lands while this service does not settle (as if the node stopped before its pass).
    const rival = makeTx(0xe1n, 2n ** 40n + 1n);
    await propose([rival]);
    const restarted = new TxService({
      env: openEnvironment(dir, 'mempool'),
      worldState,
      chain,
      fees,
      constants,
      chainId: 31337,
      rollupVersion: 1,
      txsLimits: { daGas: 786_432, l2Gas: 6_540_000 },
      allowedSetup: [],
      maxTxCount: 100,
      maxBytes: 1 << 24,
      logger: silentLogger(),
    });
    assert.equal(restarted.pool.status(e.hash), 'pending');
    await restarted.afterPass();
    assert.equal(restarted.pool.status(e.hash), undefined);
  });
});
