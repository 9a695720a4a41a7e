// The genesis funding of the reference's local network: its three initial test accounts and the
// SponsoredFPC, 10^22 Fee Juice each, in their Fee Juice balance slots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import {
  INITIAL_TEST_ACCOUNTS,
  SPONSORED_FPC_ADDRESS,
  TEST_ACCOUNT_ADDRESSES,
  testAccountsGenesisData,
} from '../../src/execution/test-accounts.js';

test('four funded addresses, each with 10^22 in its balance slot', () => {
  assert.equal(INITIAL_TEST_ACCOUNTS.length, 3);
  assert.deepEqual(TEST_ACCOUNT_ADDRESSES, [...INITIAL_TEST_ACCOUNTS, SPONSORED_FPC_ADDRESS]);
  assert.deepEqual(
    testAccountsGenesisData(),
    TEST_ACCOUNT_ADDRESSES.map((a) => ({ slot: feeJuiceBalanceSlot(a), value: 10n ** 22n })),
  );
  assert.equal(new Set(testAccountsGenesisData().map((w) => w.slot)).size, 4);
});
