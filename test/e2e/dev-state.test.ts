// Dev methods on the chain's state and mempool, end to end on a real node (manual clock, three
// dev accounts): svcDev_getAccounts lists the dev accounts with the Fee Juice balances public
// storage holds at the latest block, and `cairn dev accounts` prints them; svcDev_dropTx (and
// `cairn dev drop-tx`) takes a pending tx out of the mempool and refuses a mined or unknown one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { DEV_ACCOUNT_BALANCE } from '../../src/execution/dev-accounts.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';

const accounts = devAccounts(3);

describe('dev methods on state and mempool', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  const cli = (...a: string[]) => runCairn(['dev', ...a, '--admin-url', node.adminUrl]);
  /** Fee Juice of `address` as public storage holds it at the latest block. */
  const feeJuice = async (address: bigint) =>
    BigInt(
      await pub('svc_getPublicStorageAt', [
        'latest',
        toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
        toHex32(mapStorageSlot(FEE_JUICE_BALANCES_SLOT, address)),
      ]),
    );

  const send = async () => {
    const t = await prepareTx(client, { feePayer: accounts[0]!.address, noteHashes: [randomFr()] });
    await pub('svc_sendTx', [t.wire]);
    return t.hash;
  };
  const step = async () => dev('svcDev_advanceToSlot', [(await pub('svc_getSyncedL2SlotNumber')) + 1]);

  before(async () => {
    node = await startCairn(['--clock', 'manual', '--dev-accounts', '3']);
    client = new NodeClient(node.publicUrl);
    await dev('svcDev_advanceToSlot', [1]);
  });
  after(() => node?.stop());

  test('getAccounts: every dev account, its address and its Fee Juice at the latest block', async () => {
    const r = await dev('svcDev_getAccounts');
    assert.equal(r.blockNumber, await pub('svc_getBlockNumber'));
    assert.deepEqual(
      r.accounts,
      accounts.map((a) => ({
        index: a.index,
        address: toHex32(a.address),
        feeJuice: DEV_ACCOUNT_BALANCE.toString(),
      })),
    );
    for (const a of r.accounts) assert.equal(BigInt(a.feeJuice), await feeJuice(BigInt(a.address)));

    const printed = await cli('accounts');
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(
      printed.stdout,
      [
        `dev accounts at block ${r.blockNumber}:`,
        ...accounts.map((a) => `    ${a.index}  ${toHex32(a.address)}  1,000,000 FJ`),
        '',
      ].join('\n'),
    );
    const json = await cli('accounts', '--json');
    assert.deepEqual(JSON.parse(json.stdout), r);
  });

  test('dropTx: a pending tx leaves the mempool and is never mined; others stay', async () => {
    const [drop, keep] = [await send(), await send()];
    assert.equal(await dev('svcDev_dropTx', [drop]), null);
    assert.equal((await pub('svc_getTxReceipt', [drop])).status, 'dropped');
    assert.deepEqual(
      (await pub('svc_getPendingTxs', [10])).map((t: { txHash: string }) => t.txHash),
      [keep],
    );
    await step();
    assert.equal((await pub('svc_getTxReceipt', [drop])).status, 'dropped');
    assert.ok((await pub('svc_getTxReceipt', [keep])).blockNumber > 0);

    // Dropped already, mined, never seen: refused, nothing changes.
    const refusal = async (hash: string, re: RegExp) => {
      const reply = await call(node.adminUrl, 'svcDev_dropTx', [hash]);
      assert.equal(reply.error?.code, -32000, hash);
      assert.match(reply.error!.message, re);
    };
    await refusal(drop, /is not in the mempool/);
    await refusal(keep, /is mined in block \d+: only a pending tx can be dropped/);
    await refusal(toHex32(randomFr()), /is not in the mempool/);
    assert.equal((await call(node.adminUrl, 'svcDev_dropTx', ['0x12zz'])).error?.code, -32602);
    assert.ok((await pub('svc_getTxReceipt', [keep])).blockNumber > 0);

    const viaCli = await send();
    const dropped = await cli('drop-tx', viaCli);
    assert.equal(dropped.code, 0, dropped.stderr);
    assert.equal(dropped.stdout.trim(), `dropped ${viaCli}`);
    assert.equal(await pub('svc_getPendingTxCount'), 0);
    const again = await cli('drop-tx', viaCli);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^cairn dev drop-tx: tx 0x[0-9a-f]+ is not in the mempool/);
  });
});
