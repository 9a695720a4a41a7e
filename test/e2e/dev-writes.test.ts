// Out-of-band state writes end to end (svcDev_setStorageAt, svcDev_setBalance, `cairn dev
// set-storage` / `set-balance`) on a real node with the manual clock: the value reads back once the
// method returns, and the write has a receipt; validation uses it (a payer whose balance was set to
// 0 cannot pay); it stays through a forced rollback that re-reads the chain from L1 and re-executes
// it (so replay accepts the blocks that carry writes), a restart and the instant clock; bad values
// change nothing; a node without a sequencer refuses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const [alice, bob] = devAccounts(2);
const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-dev-writes-'));
const args = ['--ephemeral', 'false', '--data-dir', join(dir, 'data'), '--clock', 'manual'];
const CONTRACT = 0x1234n;
const SLOT = 0x77n;

describe('dev writes to the state', () => {
  let node: CairnProcess;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  const storage = async (contract: bigint, slot: bigint) =>
    BigInt(await pub('svc_getPublicStorageAt', ['latest', toHex32(contract), toHex32(slot)]));
  const feeJuice = (who: bigint) =>
    storage(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, mapStorageSlot(FEE_JUICE_BALANCES_SLOT, who));
  const txFrom = async (payer: bigint) =>
    (await prepareTx(new NodeClient(node.publicUrl), { feePayer: payer, noteHashes: [randomFr()] })).wire;

  before(async () => {
    node = await startCairn(args);
    await dev('svcDev_advanceToSlot', [1]);
  });
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('setStorageAt: the value reads back when it returns; the write has a receipt', async () => {
    assert.equal(await storage(CONTRACT, SLOT), 0n);
    const written = await dev('svcDev_setStorageAt', [toHex32(CONTRACT), toHex32(SLOT), '0x2a']);
    assert.equal(await storage(CONTRACT, SLOT), 0x2an);
    const receipt = await pub('svc_getTxReceipt', [written.txHash]);
    assert.equal(receipt.blockNumber, written.blockNumber);
    assert.equal(receipt.executionResult, 'success');
    assert.equal(BigInt(receipt.transactionFee), 0n);
    // Another slot of the same contract is untouched.
    assert.equal(await storage(CONTRACT, SLOT + 1n), 0n);
  });

  test('setBalance: validation sees it (a balance of 0 cannot pay), and the CLI sets it back', async () => {
    await dev('svcDev_setBalance', [toHex32(bob!.address), '0']);
    assert.equal(await feeJuice(bob!.address), 0n);
    const refused = await call(node.publicUrl, 'svc_sendTx', [await txFrom(bob!.address)]);
    assert.equal(refused.error?.code, -32003);
    assert.match(JSON.stringify(refused.error?.data), /Insufficient fee payer balance/);

    const amount = 5n * 10n ** 24n;
    const cli = await runCairn([
      'dev',
      'set-balance',
      'account:1',
      amount.toString(),
      '--admin-url',
      node.adminUrl,
    ]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(
      cli.stdout,
      /^Fee Juice of 0x[0-9a-f]{64} set to 5,000,000 FJ in block \d+ \(write 0x[0-9a-f]{64}\)\n$/,
    );
    assert.equal(await feeJuice(bob!.address), amount);
    const accounts = await dev('svcDev_getAccounts');
    assert.equal(accounts.accounts[1].feeJuice, amount.toString());
    await pub('svc_sendTx', [await txFrom(bob!.address)]);

    const storageCli = await runCairn([
      'dev',
      'set-storage',
      toHex32(CONTRACT),
      '0x78',
      '7',
      '--admin-url',
      node.adminUrl,
      '--json',
    ]);
    assert.equal(storageCli.code, 0, storageCli.stderr);
    assert.equal(typeof JSON.parse(storageCli.stdout).blockNumber, 'number');
    assert.equal(await storage(CONTRACT, 0x78n), 7n);
  });

  test('bad values are -32602 and change nothing', async () => {
    const before = await pub('svc_getBlockNumber');
    const tooBig = await call(node.adminUrl, 'svcDev_setBalance', [
      toHex32(alice!.address),
      (1n << 128n).toString(),
    ]);
    assert.equal(tooBig.error?.code, -32602);
    assert.match(tooBig.error!.message, /u128/);
    const notField = await call(node.adminUrl, 'svcDev_setStorageAt', [toHex32(CONTRACT), '0xzz', '0x1']);
    assert.equal(notField.error?.code, -32602);
    assert.equal(await pub('svc_getBlockNumber'), before);
    const cli = await runCairn(['dev', 'set-balance', 'account:1', '-5', '--admin-url', node.adminUrl]);
    assert.equal(cli.code, 1);
  });

  test('the writes stay: a forced rollback re-reads and re-executes the chain from L1, and a restart', async () => {
    await dev('svcDev_advanceToNextEpoch');
    await dev('svcDev_mine', [2]);
    await result(node.adminUrl, 'svcAdmin_rollbackTo', [0, true]);
    await until('the chain read again from L1', async () => {
      await dev('svcDev_mine', [1]);
      return (await pub('svc_getChainTips')).checkpointed.block.number > 2;
    });
    assert.equal(await storage(CONTRACT, SLOT), 0x2an);
    assert.equal((await feeJuice(bob!.address)) > 0n, true);

    assert.equal(await node.stop(), 0);
    node = await startCairn(args);
    assert.equal(await storage(CONTRACT, SLOT), 0x2an);
    assert.equal(await storage(CONTRACT, 0x78n), 7n);
  });

  test('with the instant clock too; a revert takes a write back', async () => {
    await dev('svcDev_setClock', ['instant']);
    const id = await dev('svcDev_snapshot');
    await dev('svcDev_setStorageAt', [toHex32(CONTRACT), toHex32(SLOT), '0x2b']);
    assert.equal(await storage(CONTRACT, SLOT), 0x2bn);
    await dev('svcDev_revert', [id]);
    assert.equal(await storage(CONTRACT, SLOT), 0x2an);
  });

  test('a node without a sequencer refuses: nothing would build the block', async () => {
    const other = await startCairn(['--clock', 'manual', '--sequencer', 'false']);
    try {
      const reply = await call(other.adminUrl, 'svcDev_setStorageAt', [
        toHex32(CONTRACT),
        toHex32(SLOT),
        '0x1',
      ]);
      assert.equal(reply.error?.code, -32002);
      assert.match(reply.error!.message, /no sequencer/);
    } finally {
      await other.stop();
    }
  });
});
