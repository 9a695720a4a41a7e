import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fr } from '../../src/core/field.js';
import { computeTxHash, type Tx } from '../../src/core/tx.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { txGossipHandler } from '../../src/node/consensus.js';
import { encodeTxMessage } from '../../src/validators/messages.js';

function recorder(verdict: 'accept' | 'ignore') {
  const calls: { tx: Tx; claimedHash: Fr | undefined; hash: Promise<Fr> | undefined }[] = [];
  return {
    calls,
    receiveFromPeer: async (tx: Tx, claimedHash: Fr | undefined, hash?: Promise<Fr>) => {
      calls.push({ tx, claimedHash, hash });
      return verdict;
    },
  };
}

test('the tx topic handler decodes a tx when it is queued, hashes it meanwhile, and hands both on', async () => {
  const built = buildTx({
    feePayer: 0x1234n,
    anchorBlockHash: 7n,
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1000n },
    protocolNullifier: 0x10_0001n,
    noteHashes: [0x20_0001n],
  });
  const txs = recorder('accept');
  const handler = txGossipHandler(txs);
  const prepared = handler.prepare(encodeTxMessage(built.tx, built.hash));
  assert.equal(txs.calls.length, 0, 'nothing is validated before its turn');
  assert.equal(await handler.handle(prepared, 'peer'), 'accept');
  assert.equal(txs.calls.length, 1);
  const [call] = txs.calls;
  assert.equal(call!.claimedHash, built.hash);
  assert.deepEqual(call!.tx, built.tx);
  assert.equal(await call!.hash, computeTxHash(built.tx.data));
});

test('a tx message that does not decode is rejected without reaching the pool', async () => {
  const txs = recorder('accept');
  const handler = txGossipHandler(txs);
  for (const garbage of ['not json', '{"data":{}}', '']) {
    const prepared = handler.prepare(new TextEncoder().encode(garbage));
    assert.equal(await handler.handle(prepared, 'peer'), 'reject');
  }
  assert.equal(txs.calls.length, 0);
});

test("the pool's refusal is passed on as the verdict", async () => {
  const built = buildTx({
    feePayer: 0x1234n,
    anchorBlockHash: 7n,
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1000n },
    protocolNullifier: 0x10_0002n,
  });
  const handler = txGossipHandler(recorder('ignore'));
  assert.equal(
    await handler.handle(handler.prepare(encodeTxMessage(built.tx, built.hash)), 'peer'),
    'ignore',
  );
});
