// Receipts: a tx the chain has is mined, with the status of the furthest tip holding its block and
// the revert reason kept for it; else a tx the pool has is pending; else it was dropped.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChainTips, IndexedTxEffect } from '../../src/archiver/types.js';
import { RevertCode, type TxEffect } from '../../src/core/block.js';
import type { Fr } from '../../src/core/field.js';
import { withoutProof } from '../../src/core/tx-view.js';
import { minedStatus, TX_DROPPED_ERROR, TxReceipts } from '../../src/mempool/receipts.js';
import type { TxStatus } from '../../src/mempool/tx-pool.js';
import { TEST_CONSTANTS } from '../helpers/tx-service-fixture.js';
import { makeTx } from './pool-fixtures.js';

const tip = (n: number) => ({
  block: { number: n, hash: BigInt(n) },
  checkpoint: { number: n, hash: BigInt(n) },
});
/** Finalized up to 2, proven 4, checkpointed 6, proposed 8. */
const TIPS: ChainTips = {
  proposed: { number: 8, hash: 8n },
  checkpointed: tip(6),
  proven: tip(4),
  finalized: tip(2),
};

const effect = (txHash: Fr, blockNumber: number, revertCode: RevertCode): IndexedTxEffect => ({
  l2BlockNumber: blockNumber,
  l2BlockHash: 0xb10c0n + BigInt(blockNumber),
  txIndexInBlock: 3,
  slotNumber: 9,
  data: {
    revertCode,
    txHash,
    transactionFee: 1234n,
    noteHashes: [],
    nullifiers: [],
    l2ToL1Msgs: [],
    publicDataWrites: [],
    privateLogs: [],
    publicLogs: [],
    contractClassLogs: [],
  } satisfies TxEffect,
});

describe('minedStatus', () => {
  test('the furthest tip at or past the block', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => minedStatus(n, TIPS)),
      ['finalized', 'finalized', 'proven', 'proven', 'checkpointed', 'checkpointed', 'proposed'],
    );
  });
});

describe('TxReceipts', () => {
  const pendingTx = makeTx([0x77n], 1n);
  const effects = new Map<Fr, IndexedTxEffect>([
    [0xa1n, effect(0xa1n, 5, RevertCode.OK)],
    [0xa2n, effect(0xa2n, 1, RevertCode.REVERTED)],
  ]);
  const pool = new Map<Fr, { status: TxStatus; tx: typeof pendingTx.tx }>([
    [pendingTx.hash, { status: 'pending', tx: pendingTx.tx }],
    // The chain has it too: the chain's answer wins.
    [0xa1n, { status: 'mined', tx: pendingTx.tx }],
  ]);
  const receipts = new TxReceipts({
    chain: { getTxEffect: (h) => effects.get(h), getTips: () => TIPS },
    pool: {
      status: (h) => pool.get(h)?.status,
      // The pool keeps txs without proofs in memory and reads the whole tx from its store.
      get: (h) => (pool.has(h) ? withoutProof(pool.get(h)!.tx) : undefined),
      getWithProof: (h) => pool.get(h)?.tx,
    },
    revertReasons: { get: (h) => (h === 0xa2n ? 'Assertion failed' : undefined) },
    constants: TEST_CONSTANTS,
  });

  test('a mined tx: its block, status from the tips and epoch from the slot', () => {
    assert.deepEqual(receipts.receipt(0xa1n, {}), {
      txHash: 0xa1n,
      status: 'checkpointed',
      executionResult: 'success',
      transactionFee: 1234n,
      blockHash: 0xb10c5n,
      blockNumber: 5,
      slotNumber: 9,
      txIndexInBlock: 3,
      epochNumber: 2,
    });
    const withEffect = receipts.receipt(0xa1n, { includeTxEffect: true });
    assert.ok('txEffect' in withEffect);
    assert.deepEqual(withEffect.txEffect, effects.get(0xa1n)!.data);
  });

  test('a reverted tx carries its kept reason', () => {
    const r = receipts.receipt(0xa2n, {});
    assert.equal(r.status, 'finalized');
    assert.ok('executionResult' in r);
    assert.equal(r.executionResult, 'reverted');
    assert.equal(r.error, 'Assertion failed');
  });

  test('a tx only in the pool is pending, with the tx when asked', () => {
    assert.deepEqual(receipts.receipt(pendingTx.hash, {}), { txHash: pendingTx.hash, status: 'pending' });
    assert.deepEqual(receipts.receipt(pendingTx.hash, { includePendingTx: true }), {
      txHash: pendingTx.hash,
      status: 'pending',
      tx: withoutProof(pendingTx.tx),
    });
    assert.deepEqual(receipts.receipt(pendingTx.hash, { includePendingTx: true, includeProof: true }), {
      txHash: pendingTx.hash,
      status: 'pending',
      tx: pendingTx.tx,
    });
  });

  test('a tx neither has was dropped', () => {
    assert.deepEqual(receipts.receipt(0xdeadn, {}), {
      txHash: 0xdeadn,
      status: 'dropped',
      error: TX_DROPPED_ERROR,
    });
  });
});
