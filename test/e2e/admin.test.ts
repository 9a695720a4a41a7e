// Admin operations on a real node (embedded L1, manual clock): the admin configuration is checked,
// applied at once and kept across a restart; pausing sync or the sequencer stops blocks while txs
// stay pending, and resuming mines them; a rollback unwinds and the chain re-syncs from L1 to the
// same block hashes (behind the finalized block only with force); keystore reloads are accepted
// or rejected by the publisher rule, and a rejected one changes nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { type CairnProcess, slotStepper, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-admin-'));
const keystorePath = join(dir, 'keystore.json');
const attesters = Array.from({ length: 4 }, () => generatePrivateKey());
const writeKeystore = (validators: Record<string, string>[]) =>
  writeFileSync(keystorePath, JSON.stringify({ validators }), { mode: 0o600 });
const args = [
  '--ephemeral',
  'false',
  '--data-dir',
  join(dir, 'data'),
  '--clock',
  'manual',
  '--keystore-path',
  keystorePath,
];
const [alice, bob] = devAccounts(2);

describe('admin operations on a real node', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const admin = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  const adminCall = (m: string, p?: unknown) => call(node.adminUrl, m, p);
  /** The next slot (its proposer builds if it can); resolves with the latest block number. */
  const nextSlot = slotStepper(() => node);
  const start = async () => {
    node = await startCairn(args);
    client = new NodeClient(node.publicUrl);
  };
  const send = async (feePayer: bigint) => {
    const t = await prepareTx(client, { feePayer, protocolNullifier: randomFr() });
    assert.equal(await pub('svc_sendTx', [t.wire]), null);
    return t.hash;
  };
  const status = async (hash: string) => (await pub('svc_getTxReceipt', [hash])).status as string;
  /** In a block: proposed, or already checkpointed (with the manual clock the proposal lands at once). */
  const inBlock = async (hash: string) =>
    assert.ok(['proposed', 'checkpointed'].includes(await status(hash)), `${hash}: ${await status(hash)}`);
  const hashesUpTo = async (n: number) => {
    const hashes: string[] = [];
    for (let b = 1; b <= n; b++) hashes.push((await pub('svc_getBlock', [b])).hash);
    return hashes;
  };

  before(async () => {
    writeKeystore(attesters.map((attester) => ({ attester })));
    await start();
    await nextSlot();
  });
  after(async () => {
    await node?.stop();
    if (process.env.E2E_NODE_LOG) writeFileSync(process.env.E2E_NODE_LOG, node?.output() ?? '');
  });

  test('getConfig shows the settings and states; setConfig refuses bad input and changes nothing', async () => {
    const config = await admin('svcAdmin_getConfig');
    assert.equal(config.minTxsPerBlock, 0);
    assert.equal(config.maxTxsPerBlock, 32);
    assert.equal(config.archiverPollingIntervalMS, 500);
    assert.equal(config.realProofs, false);
    assert.equal(config.syncState, 'running');
    assert.equal(config.sequencerState, 'running');
    assert.deepEqual(await admin('nodeAdmin_getConfig'), config);

    for (const bad of [
      { bogus: 1 },
      { minTxsPerBlock: 'two' },
      { maxTxsPerBlock: 0 },
      { coinbase: '0x12' },
      { minTxsPerBlock: 40 }, // above maxTxsPerBlock
      { realProofs: true },
      { syncState: 'paused' }, // a state, changed through pauseSync
    ]) {
      const reply = await adminCall('svcAdmin_setConfig', [bad]);
      assert.equal(reply.error?.code, -32602, JSON.stringify(bad));
    }
    assert.equal((await adminCall('svcAdmin_setConfig', [])).error?.code, -32602);
    assert.deepEqual(await admin('svcAdmin_getConfig'), config);
    // A getConfig result can be sent back whole.
    assert.equal(await admin('svcAdmin_setConfig', [config]), null);
  });

  test('setConfig applies at once: coinbase and fee recipient of the next block, mempool cap', async () => {
    const coinbase = `0x${'c0'.repeat(20)}`;
    const feeRecipient = `0x${'0'.repeat(60)}f00d`;
    assert.equal(await admin('svcAdmin_setConfig', [{ coinbase, feeRecipient }]), null);
    const block = await pub('svc_getBlock', [await nextSlot()]);
    assert.equal(block.header.globalVariables.coinbase, coinbase);
    assert.equal(block.header.globalVariables.feeRecipient, feeRecipient);

    // Two txs wait while the sequencer is paused; a cap of one evicts the lower fee.
    await admin('svcAdmin_pauseSequencer');
    const high = await prepareTx(client, {
      feePayer: alice!.address,
      protocolNullifier: randomFr(),
      feeHeadroom: 4n,
    });
    await pub('svc_sendTx', [high.wire]);
    const low = await send(bob!.address);
    assert.equal(await pub('svc_getPendingTxCount'), 2);
    await admin('nodeAdmin_setConfig', [{ maxPendingTxCount: 1 }]);
    assert.equal(await pub('svc_getPendingTxCount'), 1);
    assert.equal(await status(high.hash), 'pending');
    assert.equal(await status(low), 'dropped');
    assert.equal((await admin('svcAdmin_getConfig')).maxPendingTxCount, 1);
    await admin('svcAdmin_setConfig', [{ maxPendingTxCount: 10_000 }]);
    await admin('svcAdmin_resumeSequencer');
    await nextSlot();
    await inBlock(high.hash);
  });

  test('minTxsPerBlock applies live: no block until enough txs wait', async () => {
    await admin('svcAdmin_setConfig', [{ minTxsPerBlock: 2 }]);
    const before = await nextSlot();
    const first = await send(alice!.address);
    assert.equal(await nextSlot(), before, 'one tx is not enough for a block');
    assert.equal(await status(first), 'pending');
    const second = await send(bob!.address);
    assert.equal(await nextSlot(), before + 1);
    await inBlock(first);
    await inBlock(second);
    await admin('svcAdmin_setConfig', [{ minTxsPerBlock: 0 }]);
  });

  test('pauseSync: no blocks while txs wait, the state shows; resumeSync mines them', async () => {
    const before = await nextSlot();
    assert.equal(await admin('svcAdmin_pauseSync'), null);
    assert.equal((await pub('svc_getWorldStateSyncStatus')).syncState, 'paused');
    assert.equal((await admin('svcAdmin_getConfig')).syncState, 'paused');
    const tx = await send(alice!.address);
    await nextSlot();
    await nextSlot();
    assert.equal(await pub('svc_getBlockNumber'), before);
    assert.equal(await status(tx), 'pending');
    assert.equal(await admin('nodeAdmin_resumeSync'), null);
    assert.equal((await pub('svc_getWorldStateSyncStatus')).syncState, 'running');
    await nextSlot();
    assert.ok((await pub('svc_getBlockNumber')) > before);
    await inBlock(tx);
  });

  test('pauseSequencer: no blocks, pending txs stay; resumeSequencer mines them', async () => {
    const before = await nextSlot();
    assert.equal(await admin('svcAdmin_pauseSequencer'), null);
    assert.equal((await admin('svcAdmin_getConfig')).sequencerState, 'paused');
    const tx = await send(bob!.address);
    await nextSlot();
    await nextSlot();
    assert.equal(await pub('svc_getBlockNumber'), before);
    assert.equal(await status(tx), 'pending');
    assert.equal(await pub('svc_getPendingTxCount'), 1);
    assert.equal(await admin('svcAdmin_resumeSequencer'), null);
    assert.equal((await admin('svcAdmin_getConfig')).sequencerState, 'running');
    assert.equal(await nextSlot(), before + 1);
    await inBlock(tx);
  });

  test('rollbackTo unwinds, and the chain re-syncs from L1 to the same hashes', async () => {
    // Let the earlier blocks be proven and finalized, then build a few more.
    await admin('svcDev_advanceToNextEpoch');
    await admin('svcDev_advanceToNextEpoch');
    for (let i = 0; i < 3; i++) await nextSlot();
    // A proof is final once the embedded L1 has saved its block, in its own time: a few more L1
    // blocks on a loaded machine.
    for (let i = 0; i < 10 && (await pub('svc_getChainTips')).finalized.block.number < 1; i++) {
      await admin('svcDev_mine', [1]);
    }
    const tips = await pub('svc_getChainTips');
    const latest = tips.checkpointed.block.number;
    const finalized = tips.finalized.block.number;
    assert.ok(finalized >= 1 && latest > finalized + 1, JSON.stringify(tips));
    const hashes = await hashesUpTo(latest);

    const ahead = await adminCall('svcAdmin_rollbackTo', [latest + 5]);
    assert.equal(ahead.error?.code, -32000);
    const behind = await adminCall('svcAdmin_rollbackTo', [finalized - 1]);
    assert.equal(behind.error?.code, -32000);
    assert.match(behind.error.message, new RegExp(`${finalized - 1}.*finalized block ${finalized}`));
    assert.equal(await pub('svc_getBlockNumber'), latest, 'a refused rollback changes nothing');

    // Without resuming: the node stays at the target with sync paused.
    const target = finalized + 1;
    assert.equal(await admin('svcAdmin_rollbackTo', [target, false, false]), null);
    assert.equal(await pub('svc_getBlockNumber'), target);
    const paused = await pub('svc_getWorldStateSyncStatus');
    assert.equal(paused.syncState, 'paused');
    assert.equal(paused.latestBlockNumber, target);
    assert.equal(await pub('svc_getBlock', [target + 1]), null);
    await admin('svcDev_mine', [1]);
    assert.equal(await pub('svc_getBlockNumber'), target, 'no sync while paused');
    await admin('svcAdmin_resumeSync');
    await admin('svcDev_mine', [1]);
    assert.deepEqual(await hashesUpTo(latest), hashes);

    // nodeAdmin_rollbackTo resumes by itself; force goes behind the finalized block.
    assert.equal(await admin('nodeAdmin_rollbackTo', [finalized - 1, true]), null);
    assert.equal((await pub('svc_getWorldStateSyncStatus')).syncState, 'running');
    await admin('svcDev_mine', [1]);
    assert.deepEqual(await hashesUpTo(latest), hashes);
    const synced = await pub('svc_getWorldStateSyncStatus');
    assert.equal(synced.latestBlockNumber, latest);
    assert.equal(synced.latestBlockHash, hashes[latest - 1]);
    // The chain goes on from there.
    assert.equal(await nextSlot(), latest + 1);
  });

  test('reloadKeystore: coinbases change; an unknown publisher rejects the reload and nothing changes', async () => {
    const coinbase = `0x${'ab'.repeat(20)}`;
    await admin('svcAdmin_setConfig', [{ coinbase: null }]);
    writeKeystore(attesters.map((attester) => ({ attester, coinbase })));
    assert.equal(await admin('svcAdmin_reloadKeystore'), null);
    let block = await pub('svc_getBlock', [await nextSlot()]);
    assert.equal(block.header.globalVariables.coinbase, coinbase);

    const newcomer = generatePrivateKey();
    const unknownPublisher = generatePrivateKey();
    writeKeystore([
      ...attesters.map((attester) => ({ attester, coinbase: `0x${'11'.repeat(20)}` })),
      { attester: newcomer, publisher: unknownPublisher },
    ]);
    const rejected = await adminCall('svcAdmin_reloadKeystore');
    assert.equal(rejected.error?.code, -32000);
    assert.match(rejected.error.message, new RegExp(privateKeyToAccount(unknownPublisher).address, 'i'));
    assert.match(rejected.error.message, /not configured at startup/);
    writeFileSync(keystorePath, '{ not json');
    assert.equal((await adminCall('svcAdmin_reloadKeystore')).error?.code, -32000);
    block = await pub('svc_getBlock', [await nextSlot()]);
    assert.equal(block.header.globalVariables.coinbase, coinbase, 'the rejected reloads changed nothing');

    // A new validator naming no publisher falls back to its attester key: accepted.
    writeKeystore([...attesters.map((attester) => ({ attester })), { attester: newcomer }]);
    assert.equal(await admin('svcAdmin_reloadKeystore'), null);
    assert.match(node.output(), new RegExp(`added ${privateKeyToAccount(newcomer).address}`, 'i'));
  });

  test('admin methods are not on the public port', async () => {
    assert.equal((await call(node.publicUrl, 'svcAdmin_getConfig')).error?.code, -32601);
    assert.equal((await call(node.publicUrl, 'nodeAdmin_pauseSync')).error?.code, -32601);
    assert.equal((await call(node.publicUrl, 'nodeAdmin_getSlashPayloads')).error?.code, -32601);
  });

  test('getSlashPayloads reads the Slasher: none voted for on a chain without offenses', async () => {
    const addresses = await pub('svc_getL1ContractAddresses');
    assert.match(addresses.slashFactoryAddress, /^0x[0-9a-f]{40}$/);
    assert.deepEqual(await admin('nodeAdmin_getSlashPayloads'), []);
    assert.equal((await adminCall('nodeAdmin_getSlashPayloads', [1])).error?.code, -32602);
  });

  test('setConfig values are kept across a restart', async () => {
    await admin('svcAdmin_setConfig', [{ maxTxsPerBlock: 7, archiverPollingIntervalMS: 750 }]);
    assert.equal(await node.stop(), 0);
    await start();
    const config = await admin('svcAdmin_getConfig');
    assert.equal(config.maxTxsPerBlock, 7);
    assert.equal(config.archiverPollingIntervalMS, 750);
    assert.equal(config.coinbase, undefined, 'unset again by setConfig(null)');
    assert.match(node.output(), /maxTxsPerBlock = 7 \(saved by setConfig/);
  });
});

describe('a node without a sequencer', () => {
  let node: CairnProcess;
  before(async () => {
    node = await startCairn(['--clock', 'manual', '--sequencer', 'false']);
  });
  after(() => node?.stop());

  test('pauseSequencer and resumeSequencer answer -32002; getConfig says none', async () => {
    for (const m of ['svcAdmin_pauseSequencer', 'svcAdmin_resumeSequencer']) {
      const reply = await call(node.adminUrl, m);
      assert.equal(reply.error?.code, -32002);
      assert.match(reply.error.message, /no sequencer is running/);
    }
    assert.equal(((await result(node.adminUrl, 'svcAdmin_getConfig')) as any).sequencerState, 'none');
  });
});
