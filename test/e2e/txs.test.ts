// Transactions end to end on a real node with the manual clock: txs built with the exported
// helper for two dev accounts go pending, then mined, checkpointed, proven and finalized;
// invalid txs are rejected with their reasons and change nothing; pending txs survive a
// restart; a small mempool evicts the lowest priority fee.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-txs-'));
const dataDir = join(dir, 'data');
const args = ['--ephemeral', 'false', '--data-dir', dataDir, '--clock', 'manual', '--log-format', 'json'];
const [alice, bob] = devAccounts(2);

describe('transactions on a real node', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p);
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p);
  const start = async (extra: string[] = []) => {
    node = await startCairn([...args, ...extra]);
    client = new NodeClient(node.publicUrl);
  };
  before(() => start());
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const receipt = (hash: string, options?: object) =>
    pub('svc_getTxReceipt', options ? [hash, options] : [hash]) as Promise<any>;

  test('txs from two funded accounts: pending, then mined, checkpointed, proven and finalized', async () => {
    await dev('svcDev_advanceToSlot', [1]); // block 1 exists: expiration is checked from here on
    const a = await prepareTx(client, {
      feePayer: alice!.address,
      noteHashes: [randomFr(), randomFr()],
      nullifiers: [randomFr()],
      privateLogs: [[randomFr(), 7n]],
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
    });
    const b = await prepareTx(client, {
      feePayer: bob!.address,
      noteHashes: [randomFr()],
      l2ToL1Msgs: [{ recipient: `0x${'ab'.repeat(20)}`, content: 99n, sender: bob!.address }],
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 3n },
    });
    assert.deepEqual(await pub('svc_isValidTx', [a.wire]), { result: 'valid' });
    assert.equal(await pub('svc_sendTx', [a.wire]), null);
    assert.equal(await pub('node_sendTx', [b.wire]), null);

    // Pending: counted, listed by priority (bob pays more), proofs stripped unless asked.
    assert.equal(await pub('svc_getPendingTxCount'), 2);
    assert.equal(await pub('node_getPendingTxCount'), 2);
    const pending = (await pub('svc_getPendingTxs')) as any[];
    assert.deepEqual(
      pending.map((t) => t.txHash),
      [b.hash, a.hash],
    );
    assert.equal(pending[0].chonkProof, '0x'); // stripped: the all-zero proof
    const withProof = (await pub('svc_getTxByHash', [a.hash, { includeProof: true }])) as any;
    assert.equal(withProof.chonkProof, `0x${'0'.repeat(63)}1`); // the dev proof, its zero words left out
    assert.deepEqual(withProof.data, a.wire.data);
    assert.deepEqual(
      ((await pub('svc_getPendingTxs', [10, b.hash])) as any[]).map((t) => t.txHash),
      [a.hash],
    );
    assert.deepEqual(((await pub('svc_getTxsByHash', [[a.hash, toHex32(5n)]])) as any[]).length, 1);
    assert.deepEqual(await pub('svc_getMaxPriorityFees'), { feePerDaGas: '0', feePerL2Gas: '3' });
    assert.deepEqual(await receipt(a.hash), { txHash: a.hash, status: 'pending' });
    const pendingReceipt = await receipt(a.hash, { includePendingTx: true });
    assert.equal(pendingReceipt.tx.txHash, a.hash);
    assert.equal(pendingReceipt.tx.chonkProof, '0x');
    assert.equal(((await pub('node_getTxReceipt', [a.hash])) as any).status, 'pending');

    // Sending it again is refused as already known.
    const again = await call(node.publicUrl, 'svc_sendTx', [a.wire]);
    assert.equal(again.error?.code, -32000);

    // Slot 2: both land in one block, bob's first.
    await dev('svcDev_advanceToSlot', [2]);
    const minedA = await receipt(a.hash, { includeTxEffect: true });
    const minedB = await receipt(b.hash);
    assert.equal(minedA.status, 'checkpointed');
    assert.equal(minedA.executionResult, 'success');
    assert.equal(minedA.blockNumber, 2);
    assert.equal(minedA.slotNumber, 2);
    assert.equal(minedA.epochNumber, 0);
    assert.equal(minedB.txIndexInBlock, 0);
    assert.equal(minedA.txIndexInBlock, 1);
    assert.ok(BigInt(minedA.transactionFee) > 0n);
    assert.equal(minedA.txEffect.noteHashes.length, 2);
    assert.equal(minedA.txEffect.nullifiers.length, 2);
    assert.equal(await pub('svc_getPendingTxCount'), 0);
    assert.equal(await pub('svc_getTxByHash', [a.hash]), null);
    const effect = (await pub('svc_getTxEffect', [a.hash])) as any;
    assert.equal(effect.l2BlockNumber, 2);
    assert.equal(effect.data.transactionFee, toHex32(BigInt(minedA.transactionFee)));
    const legacy = (await pub('node_getTxReceipt', [b.hash])) as any;
    assert.equal(legacy.status, 'mined');
    assert.equal(legacy.error, '');

    // The fee moved from alice's Fee Juice to the block's fee recipient: the block's total.
    const block = (await pub('svc_getBlock', [2, { includeTransactions: true }])) as any;
    assert.equal(
      BigInt(block.header.totalFees),
      BigInt(minedA.transactionFee) + BigInt(minedB.transactionFee),
    );

    // Proven with the epoch, then finalized.
    await dev('svcDev_advanceToSlot', [3]);
    await dev('svcDev_advanceToNextEpoch');
    await dev('svcDev_mine', [1]);
    assert.equal((await receipt(a.hash)).status, 'proven');
    await dev('svcDev_mine', [2]);
    assert.equal((await receipt(a.hash)).status, 'finalized');
    // Sending a mined (and final, so no longer pooled) tx again is refused as known.
    const resent = await call(node.publicUrl, 'svc_sendTx', [a.wire]);
    assert.equal(resent.error?.code, -32000);
    assert.match(resent.error!.message, /already known: it is in block 2/);
  });

  test('a double spend, an expired tx and an underfunded fee payer are rejected and change nothing', async () => {
    const nullifier = randomFr();
    const first = await prepareTx(client, { feePayer: alice!.address, protocolNullifier: nullifier });
    await pub('svc_sendTx', [first.wire]);
    const before = await pub('svc_getPendingTxCount');

    const doubleSpend = await prepareTx(client, { feePayer: bob!.address, protocolNullifier: nullifier });
    const dup = await call(node.publicUrl, 'svc_sendTx', [doubleSpend.wire]);
    assert.equal(dup.error?.code, -32003);
    assert.deepEqual((dup.error!.data as any).reasons, [
      'Existing nullifier in a pending tx with an equal or higher priority fee',
    ]);
    const twice = randomFr();
    const inTx = await prepareTx(client, { feePayer: bob!.address, nullifiers: [twice, twice] });
    assert.deepEqual(await pub('svc_isValidTx', [inTx.wire]), {
      result: 'invalid',
      reason: ['Duplicate nullifier in tx'],
    });

    const expired = await prepareTx(client, { feePayer: alice!.address, expirationTimestamp: 1000n });
    const exp = await call(node.publicUrl, 'svc_sendTx', [expired.wire]);
    assert.equal(exp.error?.code, -32003);
    assert.deepEqual((exp.error!.data as any).reasons, ['Invalid expiration timestamp']);

    const poor = await prepareTx(client, { feePayer: randomFr() });
    const broke = await call(node.publicUrl, 'node_sendTx', [poor.wire]);
    assert.equal(broke.error?.code, -32003);
    assert.deepEqual((broke.error!.data as any).reasons, ['Insufficient fee payer balance']);
    assert.deepEqual(await pub('svc_isValidTx', [poor.wire, { skipFeeEnforcement: true }]), {
      result: 'valid',
    });

    // Several failures at once are all reported.
    const bad = structuredClone(poor.wire) as any;
    bad.data.constants.txContext.chainId = '0x1';
    bad.chonkProof = '0x';
    const many = (await pub('svc_isValidTx', [bad])) as any;
    assert.equal(many.result, 'invalid');
    for (const reason of [
      'Incorrect tx hash',
      'Incorrect L1 chain id',
      'Insufficient fee payer balance',
      'Invalid proof',
    ]) {
      assert.ok(many.reason.includes(reason), `${reason} in ${many.reason}`);
    }
    // A fee below the current min fee is "skipped".
    const cheap = await prepareTx(client, {
      feePayer: alice!.address,
      maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
    });
    assert.deepEqual(await pub('svc_isValidTx', [cheap.wire]), {
      result: 'skipped',
      reason: ['Insufficient fee per gas'],
    });

    assert.equal(await pub('svc_getPendingTxCount'), before);
    for (const t of [doubleSpend, expired, poor]) {
      assert.deepEqual(await receipt(t.hash), {
        txHash: t.hash,
        status: 'dropped',
        error: 'Tx dropped by P2P node',
      });
    }

    // Once the first is mined its nullifier is in the tree.
    await dev('svcDev_advanceToNextEpoch');
    assert.equal((await receipt(first.hash)).executionResult, 'success');
    const late = await prepareTx(client, { feePayer: bob!.address, protocolNullifier: nullifier });
    assert.deepEqual(await pub('svc_isValidTx', [late.wire]), {
      result: 'invalid',
      reason: ['Existing nullifier'],
    });
  });

  test('a public call to a contract that was never deployed reverts with the reason in the receipt', async () => {
    const t = await prepareTx(client, {
      feePayer: alice!.address,
      noteHashes: [randomFr()],
      publicCalls: [{ contractAddress: 0x1234n, signature: 'foo(Field)', args: [1n] }],
    });
    const sim = (await pub('svc_simulatePublicCalls', [t.wire])) as any;
    assert.match(sim.revertReason, /no bytecode to run at 0x1234 \(not-deployed\)/);
    assert.equal(sim.txEffect.revertCode, 1);
    assert.equal(sim.txEffect.noteHashes.length, 0); // the revertible note hash is gone
    // An instance override takes effect: the address now counts as deployed, with a class the node
    // does not have; a malformed override is refused.
    const override = (await pub('svc_simulatePublicCalls', [
      t.wire,
      false,
      { contracts: { '0x1234': { instance: { currentContractClassId: '0x99' } } } },
    ])) as any;
    assert.match(override.revertReason, /no bytecode to run at 0x1234 \(no-class\)/);
    const bad = await call(node.publicUrl, 'svc_simulatePublicCalls', [
      t.wire,
      false,
      { contracts: { '0x1234': { instance: {} } } },
    ]);
    assert.equal(bad.error?.code, -32602);
    assert.match(bad.error!.message, /currentContractClassId/);
    await pub('svc_sendTx', [t.wire]);
    await dev('svcDev_mine', [1]);
    await dev('svcDev_advanceToNextEpoch');
    const r = await receipt(t.hash);
    assert.equal(r.executionResult, 'reverted');
    assert.match(r.error, /App logic reverted: no bytecode to run at 0x1234 \(not-deployed\)/);
  });

  test('pending txs survive a restart', async () => {
    const t = await prepareTx(client, { feePayer: bob!.address, noteHashes: [randomFr()] });
    await pub('svc_sendTx', [t.wire]);
    assert.equal(await node.stop(), 0);
    await start();
    const back = (await pub('svc_getTxByHash', [t.hash])) as any;
    assert.equal(back?.txHash, t.hash);
    assert.equal((await receipt(t.hash)).status, 'pending');
    await dev('svcDev_advanceToNextEpoch');
    assert.equal((await receipt(t.hash)).executionResult, 'success');
  });

  test('a small mempool evicts the lowest priority fee', async () => {
    await node.stop();
    await start(['--mempool-max-tx-count', '2']);
    const make = (fee: bigint) =>
      prepareTx(client, {
        feePayer: alice!.address,
        maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: fee },
      });
    const [low, mid, high, lowest] = await Promise.all([make(1n), make(2n), make(3n), make(0n)]);
    await pub('svc_sendTx', [low!.wire]);
    await pub('svc_sendTx', [mid!.wire]);
    await pub('svc_sendTx', [high!.wire]);
    assert.equal(await pub('svc_getPendingTxCount'), 2);
    assert.equal((await receipt(low!.hash)).status, 'dropped');
    assert.equal((await receipt(high!.hash)).status, 'pending');
    const full = await call(node.publicUrl, 'svc_sendTx', [lowest!.wire]);
    assert.equal(full.error?.code, -32000);
    assert.match(full.error!.message, /mempool is full/);
  });
});
