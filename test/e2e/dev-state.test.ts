// Dev methods on the chain's state and mempool, end to end on a real node (manual clock, three
// dev accounts): svcDev_getAccounts lists the dev accounts with the Fee Juice balances public
// storage holds at the latest block, and `cairn dev accounts` prints them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devAccounts } from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { DEV_ACCOUNT_BALANCE } from '../../src/execution/dev-accounts.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';

const accounts = devAccounts(3);

describe('dev methods on state and mempool', () => {
  let node: CairnProcess;
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

  before(async () => {
    node = await startCairn(['--clock', 'manual', '--dev-accounts', '3']);
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
});
