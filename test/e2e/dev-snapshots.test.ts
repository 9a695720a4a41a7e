// Dev snapshots end to end (svcDev_snapshot, svcDev_revert, svcDev_reset) on a real node with the
// manual clock: after a revert the blocks, tips (the finalized one moved back), receipts, Fee
// Juice balances, published contracts, contract storage and the pending pool are those of the
// snapshot; the chain goes on from there (in slots it had already used); a crash of the node and
// its L1 right after a revert comes back to the reverted chain, which resets to the genesis its L1
// saved when the protocol was deployed (and a restart keeps the reset); reset goes back to genesis;
// `cairn dev` does the same.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureArtifacts, loadArtifactJson } from '../../src/artifacts/npm-artifacts.js';
import {
  deploymentOf,
  devAccounts,
  NodeClient,
  parseArtifact,
  prepareTx,
  randomFr,
} from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const [alice] = devAccounts(1);
const MINT = 'mint_to_public((Field),u128)';
/** Token's public_balances map is at storage slot 5. */
const PUBLIC_BALANCES_SLOT = 5n;
const GAS = { l2Gas: 2_000_000, daGas: 100_000 };
const skipArtifacts = process.env.CAIRN_SKIP_ARTIFACTS === '1';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-dev-snapshots-'));
const dataDir = join(dir, 'data');
const args = ['--ephemeral', 'false', '--data-dir', dataDir, '--clock', 'manual', '--log-format', 'json'];

describe('dev snapshots on a real node', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  /** The next slot after the L1's: the manual clock's step. */
  const nextSlot = async () => (await pub('svc_getSyncedL2SlotNumber')) + 1;
  const step = async () => dev('svcDev_advanceToSlot', [await nextSlot()]);
  const send = async (spec: Omit<Parameters<typeof prepareTx>[1], 'feePayer'> = {}) => {
    const t = await prepareTx(client, { feePayer: alice!.address, noteHashes: [randomFr()], ...spec });
    await pub('svc_sendTx', [t.wire]);
    return t.hash;
  };
  const feeJuice = async () =>
    BigInt(
      await pub('svc_getPublicStorageAt', [
        'latest',
        toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
        toHex32(mapStorageSlot(FEE_JUICE_BALANCES_SLOT, alice!.address)),
      ]),
    );
  /**
   * Mines L1 blocks until the finalized tip is past `block`: a proof is final once the L1's saved
   * state holds it, and saves are spaced out (docs/operations.md).
   */
  const finalizedPast = (block: number) =>
    until(
      `finalized past block ${block}`,
      async () => {
        await dev('svcDev_mine', [1]);
        return (await pub('svc_getChainTips')).finalized.block.number > block;
      },
      30_000,
      200,
    );
  /** Everything a revert must bring back that the test can read through the API. */
  const view = async (txs: string[]) => ({
    tips: await pub('svc_getChainTips'),
    latest: await pub('svc_getBlock', ['latest']),
    receipts: await Promise.all(txs.map((h) => pub('svc_getTxReceipt', [h]))),
    pending: (await pub('svc_getPendingTxs', [100])).map((t: { txHash: string }) => t.txHash),
    feeJuice: await feeJuice(),
    checkpoints: await pub('svc_getCheckpointNumber'),
  });

  /** The chain and alice's Fee Juice as the node started on its new data directory. */
  let genesis: { tips: unknown; feeJuice: bigint };

  before(async () => {
    node = await startCairn(args);
    client = new NodeClient(node.publicUrl);
    genesis = { tips: await pub('svc_getChainTips'), feeJuice: await feeJuice() };
  });
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a revert brings back blocks, tips, receipts, balances and the pending pool; the finalized tip moves back', async () => {
    await step();
    const mined = await send();
    await step();
    const waiting = await send();
    const id = await dev('svcDev_snapshot');
    assert.match(id, /^0x[0-9a-f]+$/);
    const before = await view([mined, waiting]);
    assert.equal(before.receipts[1].status, 'pending');
    assert.deepEqual(before.pending, [waiting]);

    // After the snapshot: the waiting tx is mined, another tx too, and epochs are proven and final.
    await step();
    const later = await send();
    await step();
    await dev('svcDev_advanceToNextEpoch');
    await dev('svcDev_advanceToNextEpoch');
    await finalizedPast(before.tips.finalized.block.number);
    const moved = await view([mined, waiting, later]);
    assert.equal(moved.receipts[1].status, 'finalized');
    assert.ok(moved.feeJuice < before.feeJuice, 'the later txs paid fees');

    assert.equal(await dev('svcDev_revert', [id]), true);
    const reverted = await view([mined, waiting]);
    assert.deepEqual(reverted, before);
    assert.equal((await pub('svc_getTxReceipt', [later])).status, 'dropped', 'the later tx is forgotten');
    assert.equal(await pub('svc_getBlock', [before.latest.number + 1]), null);

    // The snapshot is consumed; an unknown id changes nothing.
    const again = await call(node.adminUrl, 'svcDev_revert', [id]);
    assert.equal(again.error?.code, -32000);
    assert.match(again.error!.message, new RegExp(`no dev snapshot ${id}`));
    assert.deepEqual(await view([mined, waiting]), before);
    assert.equal((await call(node.adminUrl, 'svcDev_revert', ['12'])).error?.code, -32602);
  });

  test('the chain goes on after a revert, in slots it had used before', async () => {
    let id = await dev('svcDev_snapshot');
    const from = await pub('svc_getBlockNumber');
    // Used once, then again after each revert: a validator signing twice in a slot would refuse.
    for (let round = 0; round < 3; round++) {
      const hash = await send();
      await step();
      await step();
      const receipt = await pub('svc_getTxReceipt', [hash]);
      assert.equal(receipt.blockNumber, from + 1, `round ${round}: ${receipt.status}`);
      if (round < 2) {
        assert.equal(await dev('svcDev_revert', [id]), true);
        assert.equal(await pub('svc_getBlockNumber'), from);
        // The revert consumed it: taken again for the next round, under a new id.
        const again = await dev('svcDev_snapshot');
        assert.notEqual(again, id);
        id = again;
      }
    }
  });

  test('published contracts and their storage go back too', {
    skip: skipArtifacts && 'CAIRN_SKIP_ARTIFACTS=1',
  }, async () => {
    await ensureArtifacts();
    const artifact = parseArtifact(
      loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'),
    );
    const deploy = () =>
      deploymentOf(artifact, {
        args: [alice!.address, 'Cairn Token', 'CTK', 18],
        salt: randomFr(),
        deployer: alice!.address,
      });
    const first = deploy();
    /** Publishes an instance (with the class, the first time) and runs its constructor. */
    const publish = (d: ReturnType<typeof deploy>, withClass: boolean) =>
      send({
        gasLimits: GAS,
        ...(withClass ? { publishClass: d.contractClass } : {}),
        publishInstances: [d.instance],
        publicCalls: [d.initializerCall!],
      });
    const mint = (amount: bigint) =>
      send({
        gasLimits: GAS,
        publicCalls: [{ contractAddress: first.address, signature: MINT, args: [alice!.address, amount] }],
      });
    const balance = async () =>
      BigInt(
        await pub('svc_getPublicStorageAt', [
          'latest',
          toHex32(first.address),
          toHex32(mapStorageSlot(PUBLIC_BALANCES_SLOT, alice!.address)),
        ]),
      );
    await publish(first, true);
    await step();
    await mint(1000n);
    await step();
    assert.equal(await balance(), 1000n);

    const id = await dev('svcDev_snapshot');
    const second = deploy();
    await publish(second, false);
    await mint(500n);
    await step();
    assert.equal(await balance(), 1500n);
    assert.notEqual(await pub('svc_getContract', [toHex32(second.address)]), null);

    await dev('svcDev_revert', [id]);
    assert.equal(await balance(), 1000n);
    assert.equal(await pub('svc_getContract', [toHex32(second.address)]), null);
    assert.notEqual(await pub('svc_getContract', [toHex32(first.address)]), null);
  });

  test('a crash of the node and its L1 right after a revert comes back to the reverted chain; reset then goes back to the genesis saved on disk', async () => {
    const id = await dev('svcDev_snapshot');
    const before = await pub('svc_getChainTips');
    // After the snapshot, a proof is made final: the L1's state is saved with those blocks.
    await send();
    await step();
    await dev('svcDev_advanceToNextEpoch');
    await finalizedPast(before.finalized.block.number);
    await dev('svcDev_revert', [id]);
    assert.deepEqual(await pub('svc_getChainTips'), before);

    const anvilPid = Number(readFileSync(join(dataDir, 'l1', 'anvil.pid'), 'utf8'));
    node.child.kill('SIGKILL');
    process.kill(anvilPid, 'SIGKILL');
    await node.stop('SIGKILL');
    node = await startCairn(args);
    client = new NodeClient(node.publicUrl);
    // The start's pass has read the L1 that was saved: the reverted one (a proof the snapshot had
    // may have become final meanwhile, as it would have without a crash).
    const { finalized, ...restarted } = await pub('svc_getChainTips');
    const { finalized: _f, ...expected } = before;
    assert.deepEqual(restarted, expected);
    assert.ok(finalized.block.number <= before.proven.block.number);
    // And it goes on.
    const hash = await send();
    await step();
    assert.equal((await pub('svc_getTxReceipt', [hash])).blockNumber, before.proposed.number + 1);

    // Restarted past genesis, it resets to the L1 as the node deployed it (saved on disk then).
    const pendingHash = await send();
    assert.equal((await dev('svcDev_reset')).l2BlockNumber, 0);
    assert.deepEqual(await pub('svc_getChainTips'), genesis.tips);
    assert.equal(await feeJuice(), genesis.feeJuice);
    // The mined tx and the pending one belong to the history left behind.
    for (const h of [hash, pendingHash]) assert.equal((await pub('svc_getTxReceipt', [h])).status, 'dropped');
    assert.deepEqual(await pub('svc_getPendingTxs', [100]), []);
    // The chain goes on from genesis, and a clean restart comes back to it (the reset was saved).
    const again = await send();
    await step();
    assert.equal((await pub('svc_getTxReceipt', [again])).blockNumber, 1);
    const tips = await pub('svc_getChainTips');
    assert.equal(await node.stop(), 0);
    node = await startCairn(args);
    client = new NodeClient(node.publicUrl);
    assert.deepEqual(await pub('svc_getChainTips'), tips);
  });

  test('reset goes back to genesis; cairn dev snapshot, revert and reset', async () => {
    const fresh = await startCairn(['--clock', 'manual']);
    try {
      const admin = (m: string, p?: unknown) => result(fresh.adminUrl, m, p) as Promise<any>;
      const genesis = await result(fresh.publicUrl, 'svc_getChainTips');
      await admin('svcDev_advanceToSlot', [1]);
      await admin('svcDev_advanceToSlot', [2]);
      const id = await admin('svcDev_snapshot');
      assert.equal(await result(fresh.publicUrl, 'svc_getBlockNumber'), 2);
      const reset = await admin('svcDev_reset');
      assert.equal(reset.l2BlockNumber, 0);
      assert.deepEqual(await result(fresh.publicUrl, 'svc_getChainTips'), genesis);
      assert.equal((await call(fresh.adminUrl, 'svcDev_revert', [id])).error?.code, -32000);
      // Again from genesis: slot 1 builds block 1.
      await admin('svcDev_advanceToSlot', [1]);
      assert.equal(await result(fresh.publicUrl, 'svc_getBlockNumber'), 1);
      assert.equal((await admin('svcDev_reset')).l2BlockNumber, 0);

      // The same through the CLI.
      const cli = (...a: string[]) => runCairn(['dev', ...a, '--admin-url', fresh.adminUrl]);
      const snap = await cli('snapshot');
      assert.equal(snap.code, 0, snap.stderr);
      const cliId = snap.stdout.trim();
      assert.match(cliId, /^0x[0-9a-f]+$/);
      await admin('svcDev_advanceToSlot', [1]);
      const back = await cli('revert', cliId);
      assert.equal(back.code, 0, back.stderr);
      assert.equal(back.stdout.trim(), `reverted to snapshot ${cliId}`);
      assert.equal(await result(fresh.publicUrl, 'svc_getBlockNumber'), 0);
      const unknown = await cli('revert', cliId);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, new RegExp(`^cairn dev revert: no dev snapshot ${cliId}`));
      const resetJson = await cli('reset', '--json');
      assert.equal(resetJson.code, 0, resetJson.stderr);
      assert.equal(JSON.parse(resetJson.stdout).l2BlockNumber, 0);
    } finally {
      await fresh.stop();
    }
  });
});
