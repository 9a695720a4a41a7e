// Transactions (src/core/tx.ts): the hashes a tx's data commits to (calldata, class logs) and the
// gas and fee arithmetic. The tx's model, hash and binary form are the kernel's (test/core/kernel/);
// what the node reads from a tx is tested in tx-view.test.ts, the builder in tx-builder.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { poseidon2Hash as refPoseidon2Hash } from '@zkpassport/poseidon2';
import fc from 'fast-check';
import {
  calldataHash,
  contractClassLogHash,
  effectiveFeesPerGas,
  feeFor,
  type GasSettings,
  PUBLIC_CALLDATA_SEPARATOR,
  txFeeLimit,
} from '../../src/core/tx.js';

const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);

describe('calldataHash and contractClassLogHash', () => {
  test('are the separator/padded Poseidon2 hashes', () => {
    assert.equal(calldataHash([1n, 2n]), refPoseidon2Hash([BigInt(PUBLIC_CALLDATA_SEPARATOR), 1n, 2n]));
    assert.equal(calldataHash([]), refPoseidon2Hash([BigInt(PUBLIC_CALLDATA_SEPARATOR)]));
    const padded = [7n, 8n, ...new Array(3021).fill(0n)];
    assert.equal(contractClassLogHash([7n, 8n]), refPoseidon2Hash(padded));
    assert.equal(contractClassLogHash(padded), contractClassLogHash([7n, 8n]));
  });
});

describe('gas and fees', () => {
  const settings = (max: [bigint, bigint], priority: [bigint, bigint]): GasSettings => ({
    gasLimits: { daGas: 1000, l2Gas: 2000 },
    teardownGasLimits: { daGas: 50, l2Gas: 60 },
    maxFeesPerGas: { feePerDaGas: max[0], feePerL2Gas: max[1] },
    maxPriorityFeesPerGas: { feePerDaGas: priority[0], feePerL2Gas: priority[1] },
  });

  test('effectiveFeesPerGas is the fee plus the priority fee, capped per dimension by the max', () => {
    const gasFees = { feePerDaGas: 5n, feePerL2Gas: 60n };
    // DA: 5 + 3 = 8 <= 10; L2: 60 + 50 = 110 capped to 100.
    assert.deepEqual(effectiveFeesPerGas(settings([10n, 100n], [3n, 50n]), gasFees), {
      feePerDaGas: 8n,
      feePerL2Gas: 100n,
    });
    // DA capped (5 + 9 = 14 > 12), L2 exactly at the max (60 + 40 = 100).
    assert.deepEqual(effectiveFeesPerGas(settings([12n, 100n], [9n, 40n]), gasFees), {
      feePerDaGas: 12n,
      feePerL2Gas: 100n,
    });
    // No priority fee: the block's fee.
    assert.deepEqual(effectiveFeesPerGas(settings([10n, 100n], [0n, 0n]), gasFees), gasFees);
  });

  test('effectiveFeesPerGas never exceeds the max (property)', () => {
    const fee = fc.bigInt({ min: 0n, max: 10n ** 20n });
    fc.assert(
      fc.property(fee, fee, fee, fee, fee, fee, (m0, m1, p0, p1, g0, g1) => {
        const eff = effectiveFeesPerGas(settings([m0, m1], [p0, p1]), { feePerDaGas: g0, feePerL2Gas: g1 });
        assert.equal(eff.feePerDaGas, bigMin(g0 + p0, m0));
        assert.equal(eff.feePerL2Gas, bigMin(g1 + p1, m1));
      }),
    );
  });

  test('feeFor is gas times fee per gas in both dimensions', () => {
    assert.equal(feeFor({ daGas: 7, l2Gas: 11 }, { feePerDaGas: 8n, feePerL2Gas: 100n }), 56n + 1100n);
    assert.equal(feeFor({ daGas: 0, l2Gas: 0 }, { feePerDaGas: 8n, feePerL2Gas: 100n }), 0n);
    // No number overflow: gas as bigint.
    assert.equal(
      feeFor({ daGas: 0xffffffff, l2Gas: 0xffffffff }, { feePerDaGas: 10n ** 30n, feePerL2Gas: 1n }),
      0xffffffffn * 10n ** 30n + 0xffffffffn,
    );
  });

  test('txFeeLimit is the gas limits times the max fees (teardown limits are inside the gas limits)', () => {
    assert.equal(txFeeLimit(settings([10n, 100n], [3n, 50n])), 1000n * 10n + 2000n * 100n);
    assert.equal(txFeeLimit(settings([0n, 0n], [3n, 50n])), 0n);
  });
});
