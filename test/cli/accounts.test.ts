// Dev account numbers, one rule: `N` or `account:N`, checked against the dev accounts of the node
// talked to (its genesis funds them), with that node's range in the error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { accountAddressText, accountArg, checkNamedAccounts, isAccountText } from '../../src/cli/accounts.js';
import { NodeClient, RpcError } from '../../src/client/node-client.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { devAccounts } from '../../src/execution/dev-accounts.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';

/** A node whose genesis funded `count` dev accounts; `pruned`: block 0 is no longer readable. */
function fakeNode(count: number, pruned = false) {
  const funded = new Set(
    devAccounts(count).map((a) => toHex32(mapStorageSlot(FEE_JUICE_BALANCES_SLOT, a.address))),
  );
  const calls: unknown[][] = [];
  const client = new NodeClient('http://unused');
  client.call = (async (method: string, params: unknown[] = []) => {
    calls.push(params);
    assert.equal(method, 'svc_getPublicStorageAt');
    const [block, contract, slot] = params as [number, string, string];
    assert.equal(block, 0, 'the genesis state');
    assert.equal(contract, toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice));
    if (pruned) throw new RpcError(-32000, 'block 0 is no longer in the world state');
    return toHex32(funded.has(slot) ? 10n ** 24n : 0n);
  }) as NodeClient['call'];
  return { client, calls };
}

describe('dev account numbers', () => {
  test('N and account:N are the one form; anything else is refused with the forms', () => {
    assert.equal(accountArg('3'), 3);
    assert.equal(accountArg('account:3'), 3);
    assert.equal(accountArg(' account:999 '), 999);
    for (const bad of ['-1', '1.5', 'x', 'account:', 'account:x', 'account:1000', '1000', ''])
      assert.throws(
        () => accountArg(bad),
        (err: Error) =>
          err instanceof InvalidArgumentError &&
          err.message ===
            `expected a dev account, N or account:N, N a dev account of the node (0..9 with the default --dev-accounts 10); got ${bad}`,
        bad,
      );
    assert.equal(isAccountText('12'), true);
    assert.equal(isAccountText('account:x'), true, 'refused as an account, not read as an address');
    assert.equal(isAccountText('0x12'), false);
    assert.equal(accountAddressText('account:2'), toHex32(devAccounts(3)[2]!.address));
    assert.equal(accountAddressText('0x2'), undefined);
  });

  // The numbers named so far (3 and 999 above, 2) stay named in this process: the checks below
  // name more and see them all.
  test('checked against the node: its range in the error', async () => {
    await assert.rejects(
      checkNamedAccounts(fakeNode(12).client),
      /^Error: there is no dev account 999: this node's dev accounts are 0\.\.11 \(--dev-accounts 12\)$/,
    );
    await assert.rejects(
      checkNamedAccounts(fakeNode(3).client),
      /^Error: there is no dev account 3: this node's dev accounts are 0\.\.2 \(--dev-accounts 3\)$/,
    );
    await assert.rejects(
      checkNamedAccounts(fakeNode(0).client),
      /^Error: there is no dev account 2: this node has no dev accounts \(--dev-accounts 0\)$/,
    );
    await checkNamedAccounts(fakeNode(1000).client);
  });

  test('a node that no longer has its genesis state cannot be checked: the numbers pass', async () => {
    const node = fakeNode(12, true);
    await checkNamedAccounts(node.client);
    assert.equal(node.calls.length, 1, 'one question, then no more');
  });
});
