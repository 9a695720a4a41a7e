import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyBlockHeader } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { computeTxHash } from '../../src/core/kernel/tx-hash.js';
import type { Tx } from '../../src/core/tx.js';
import { txGossipHandler } from '../../src/node/consensus.js';
import { encodeTxMessage } from '../../src/validators/messages.js';
import { simplePrivateTx } from '../helpers/txs.js';

/** A valid tx: `nullifier` makes it distinct. */
const sampleTx = (nullifier: bigint) =>
  simplePrivateTx({ feePayer: 0x1234n, anchorBlockHeader: emptyBlockHeader(), nullifier });

/** A TxService stand-in that records what reaches it and answers `verdict`. */
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

test('the tx topic handler decodes a tx when it is queued and hands it on, to be hashed, only when its turn comes', async () => {
  const built = sampleTx(0x10_0001n);
  const txs = recorder('accept');
  const handler = txGossipHandler(txs);
  const prepared = handler.prepare(encodeTxMessage(built.tx, built.hash));
  assert.equal(txs.calls.length, 0, 'nothing is validated (or hashed) before its turn');
  assert.equal(await handler.handle(prepared, 'peer'), 'accept');
  assert.equal(txs.calls.length, 1);
  const [call] = txs.calls;
  assert.equal(call!.claimedHash, built.hash);
  assert.deepEqual(call!.tx, built.tx);
  // No hash was started for it while it waited: the tx service hashes it now (a hold on bulk
  // work then holds the hashing as well).
  assert.equal(call!.hash, undefined);
  assert.equal(computeTxHash(call!.tx.data), built.hash);
});

test('a tx message that does not decode is rejected without reaching the pool', async () => {
  const txs = recorder('accept');
  const handler = txGossipHandler(txs);
  const built = sampleTx(0x10_0002n);
  const valid = encodeTxMessage(built.tx, built.hash);
  const garbage = [
    new TextEncoder().encode('not a tx'),
    // The earlier gossip form (JSON) is not the binary form.
    new TextEncoder().encode('{"data":{}}'),
    new Uint8Array(0),
    valid.subarray(0, valid.length - 1),
    Uint8Array.from([...valid, 0]),
  ];
  for (const bytes of garbage) {
    const prepared = handler.prepare(bytes);
    assert.equal(await handler.handle(prepared, 'peer'), 'reject');
  }
  assert.equal(txs.calls.length, 0);
});

test("the pool's refusal is passed on as the verdict", async () => {
  const built = sampleTx(0x10_0003n);
  const handler = txGossipHandler(recorder('ignore'));
  assert.equal(
    await handler.handle(handler.prepare(encodeTxMessage(built.tx, built.hash)), 'peer'),
    'ignore',
  );
});
