// L1 transactions signed in the worker thread are byte for byte what viem signs locally.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Hex, TransactionSerializable } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { accountFromKey, signingOffThread } from '../../src/l1/signer.js';

const KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

test('a transaction signed off the thread equals the local signature', async () => {
  const account = accountFromKey(KEY);
  const offThread = signingOffThread(account);
  assert.notEqual(offThread, account, 'a keyed account signs in the worker');
  assert.equal(offThread.address, account.address);
  const txs: TransactionSerializable[] = [
    {
      type: 'eip1559',
      chainId: 31337,
      nonce: 7,
      to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      // A full checkpoint's body is ~330 KB of calldata.
      data: `0x${randomBytes(330_000).toString('hex')}`,
      gas: 30_000_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
      value: 0n,
    },
    { type: 'legacy', chainId: 31337, nonce: 0, to: account.address, gasPrice: 1n, gas: 21_000n, value: 5n },
  ];
  for (const tx of txs) {
    assert.equal(await offThread.signTransaction!(tx), await account.signTransaction(tx));
  }
  // Messages are signed the same way too.
  assert.equal(
    await offThread.signMessage!({ message: 'cairn' }),
    await account.signMessage({ message: 'cairn' }),
  );
});

test('an account made without its key is used as it is', () => {
  const account = privateKeyToAccount(KEY);
  assert.equal(signingOffThread(account), account);
});
