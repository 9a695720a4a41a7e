import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { FEE_JUICE_BALANCES_SLOT, feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot, publicDataLeafSlot } from '../../src/execution/public-storage.js';

const direct = (owner: bigint) =>
  publicDataLeafSlot(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, mapStorageSlot(FEE_JUICE_BALANCES_SLOT, owner));

test('feeJuiceBalanceSlot gives the hashed slot for every owner, first time, again, and after its memo fills', () => {
  // More owners than the memo keeps, so it is cleared on the way; each answer is checked twice.
  const owners = Array.from({ length: 5000 }, (_, i) => 0x1234_0000n + BigInt(i) * 7919n);
  for (const owner of owners) assert.equal(feeJuiceBalanceSlot(owner), direct(owner));
  for (const owner of [...owners].reverse()) assert.equal(feeJuiceBalanceSlot(owner), direct(owner));
  assert.notEqual(feeJuiceBalanceSlot(1n), feeJuiceBalanceSlot(2n));
});
