import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  CONGESTION_MULTIPLIER_PRECISION,
  congestionMultiplier,
  DEFAULT_ETH_PER_FEE_ASSET,
  decayEthPerFeeAsset,
  FEE_ORACLE_LAG,
  type FeeModelParams,
  fakeExponential,
  type L1FeeInputs,
  MAX_MANA_MIN_FEE,
  type ManaUsageEstimate,
  MIN_ETH_PER_FEE_ASSET,
  manaMinFee,
  manaMinFeeComponents,
  minGasFees,
  nextExcessMana,
  predictManaMinFees,
  predictMinFees,
} from '../../src/core/fee-math.js';

const GWEI = 1_000_000_000n;
const params: FeeModelParams = { manaTarget: 100_000_000n, epochDuration: 4n, provingCostPerManaEth: 0n };
const l1: L1FeeInputs = { baseFee: GWEI, blobFee: 1n };
// Congestion update fraction for manaTarget 1e8: 1e8 × 854_700_854 / 1e8.
const D = 854_700_854n;

const usages: ManaUsageEstimate[] = ['none', 'target', 'limit'];
const arbL1 = fc.record({
  baseFee: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  blobFee: fc.bigInt({ min: 0n, max: 10n ** 12n }),
});
const arbParams = fc.record({
  manaTarget: fc.bigInt({ min: 0n, max: 10n ** 10n }),
  epochDuration: fc.bigInt({ min: 1n, max: 64n }),
  provingCostPerManaEth: fc.bigInt({ min: 0n, max: 10n ** 9n }),
});
const arbExcess = fc.bigInt({ min: 0n, max: 10n ** 12n });
const arbEth = fc.bigInt({ min: 0n, max: 10n ** 15n });

describe('fakeExponential', () => {
  test('numerator 0 gives the factor exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        (f, d) => {
          assert.equal(fakeExponential(f, 0n, d), f);
        },
      ),
    );
  });

  test('known answer: 1e9 · e^(1/1), summing floored Taylor terms by hand', () => {
    // Terms of acc: 1e9, 1e9, 5e8, 166_666_666, 41_666_666, 8_333_333, 1_388_888, 198_412, 24_801,
    // 2_755, 275, 25, 2, then 0. Their sum is 2_718_281_823 (vs e·1e9 = 2_718_281_828.46).
    assert.equal(fakeExponential(GWEI, 1n, 1n), 2_718_281_823n);
    // e^2 with denominator 1: acc terms 1e9, 2e9, 2e9, 1_333_333_333, 666_666_666, 266_666_666, ...
    assert.ok(Math.abs(Number(fakeExponential(GWEI, 2n, 1n)) - 1e9 * Math.exp(2)) < 100);
  });

  test('tracks factor · e^(n/d) within 1e-6 for small inputs', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 9n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (factor, d, ratio) => {
          const n = BigInt(Math.floor(ratio * Number(d)));
          const expected = Number(factor) * Math.exp(Number(n) / Number(d));
          const actual = Number(fakeExponential(factor, n, d));
          assert.ok(actual <= expected * (1 + 1e-9), `${actual} > ${expected}`);
          assert.ok(Math.abs(actual - expected) / expected < 1e-6, `${actual} vs ${expected}`);
        },
      ),
    );
  });

  test('non-decreasing in the numerator', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.bigInt({ min: 0n, max: 50_000n }),
        fc.bigInt({ min: 0n, max: 50_000n }),
        (f, d, x, y) => {
          // numerators up to 50·d keep the series short
          const [a, b] = [(x * d) / 1_000n, (y * d) / 1_000n];
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          assert.ok(fakeExponential(f, lo, d) <= fakeExponential(f, hi, d));
        },
      ),
    );
  });

  test('rejects a non-positive denominator', () => {
    assert.throws(() => fakeExponential(1n, 1n, 0n), RangeError);
  });
});

describe('congestion multiplier', () => {
  test('1.0 without excess, e at excess = update fraction, capped at e^100', () => {
    assert.equal(congestionMultiplier(0n, params.manaTarget), CONGESTION_MULTIPLIER_PRECISION);
    // numerator = denominator, so each step is acc/i on acc0 = 1e9·D; the result is floor(e·1e9).
    assert.equal(congestionMultiplier(D, params.manaTarget), 2_718_281_828n);
    const capped = congestionMultiplier(100n * D, params.manaTarget);
    assert.equal(congestionMultiplier(100n * D + 1n, params.manaTarget), capped);
    assert.equal(congestionMultiplier(10n ** 40n, params.manaTarget), capped);
    assert.ok(Math.abs(Number(capped) / (1e9 * Math.exp(100)) - 1) < 1e-9);
    assert.ok(congestionMultiplier(100n * D - 1n, params.manaTarget) < capped);
  });

  test('manaTarget 0 means no congestion pricing', () => {
    assert.equal(congestionMultiplier(10n ** 9n, 0n), CONGESTION_MULTIPLIER_PRECISION);
  });
});

describe('mana min fee', () => {
  test('known answer without congestion', () => {
    // sequencer wei/mana = ceil((300_000·1e9 + 393_216·1) / 1e8) = ceil(3_000_000.00393216) = 3_000_001
    // prover wei/mana = ceil(ceil(3_600_000·1e9 / 4) / 1e8) + 0 = ceil(9e14 / 1e8) = 9_000_000
    // no excess → multiplier 1e9 → congestion 0
    // to fee asset at 1e7: ceil(wei·1e12 / 1e7) = wei·1e5 → 300_000_100_000 and 900_000_000_000
    assert.deepEqual(manaMinFeeComponents(l1, params, 0n, DEFAULT_ETH_PER_FEE_ASSET), {
      sequencerCost: 300_000_100_000n,
      proverCost: 900_000_000_000n,
      congestionCost: 0n,
      congestionMultiplier: 1_000_000_000n,
    });
    assert.equal(manaMinFee(l1, params, 0n, DEFAULT_ETH_PER_FEE_ASSET), 1_200_000_100_000n);
    assert.deepEqual(minGasFees(l1, params, 0n, DEFAULT_ETH_PER_FEE_ASSET), {
      feePerDaGas: 0n,
      feePerL2Gas: 1_200_000_100_000n,
    });
  });

  test('known answer with proving cost and congestion', () => {
    // proving cost adds 7 wei/mana to the prover component: 9_000_007 → 900_000_700_000
    const withProving = { ...params, provingCostPerManaEth: 7n };
    assert.equal(
      manaMinFeeComponents(l1, withProving, 0n, DEFAULT_ETH_PER_FEE_ASSET).proverCost,
      900_000_700_000n,
    );
    // excess = D → multiplier 2_718_281_828; total 12_000_001 wei;
    // 12_000_001 · 2_718_281_828 / 1e9 = 32_619_384_654_281_828 / 1e9 → 32_619_384; minus total → 20_619_383 wei
    // → 2_061_938_300_000 fee asset; sum 300_000_100_000 + 900_000_000_000 + 2_061_938_300_000
    const c = manaMinFeeComponents(l1, params, D, DEFAULT_ETH_PER_FEE_ASSET);
    assert.equal(c.congestionCost, 2_061_938_300_000n);
    assert.equal(manaMinFee(l1, params, D, DEFAULT_ETH_PER_FEE_ASSET), 3_261_938_400_000n);
  });

  test('each component rounds up on its own', () => {
    // 2 ETH per fee asset (2e12), proving cost 1 wei: sequencer 3_000_001 wei → ceil(1_500_000.5) = 1_500_001,
    // prover 9_000_001 wei → ceil(4_500_000.5) = 4_500_001; separate sum 6_000_002, where a single
    // conversion of the 12_000_002 wei total would give 6_000_001.
    const p = { ...params, provingCostPerManaEth: 1n };
    const c = manaMinFeeComponents(l1, p, 0n, 2n * 10n ** 12n);
    assert.equal(c.sequencerCost, 1_500_001n);
    assert.equal(c.proverCost, 4_500_001n);
    assert.equal(manaMinFee(l1, p, 0n, 2n * 10n ** 12n), 6_000_002n);
  });

  test('manaTarget 0 gives a zero fee', () => {
    const zero = { ...params, manaTarget: 0n };
    assert.equal(manaMinFee({ baseFee: 10n ** 12n, blobFee: 10n ** 12n }, zero, 10n ** 9n, 1n), 0n);
    fc.assert(
      fc.property(arbL1, arbExcess, arbEth, (l, e, eth) => {
        assert.equal(manaMinFee(l, zero, e, eth), 0n);
      }),
    );
  });

  test('epochDuration below 1 is rejected', () => {
    assert.throws(
      () => manaMinFee(l1, { ...params, epochDuration: 0n }, 0n, DEFAULT_ETH_PER_FEE_ASSET),
      RangeError,
    );
  });

  test('ethPerFeeAsset is clamped at 100', () => {
    const at100 = manaMinFee(l1, params, D, MIN_ETH_PER_FEE_ASSET);
    // 12_000_001 wei / 100 · 1e12 = 1.2e17 + 1e10 (+ congestion) — far above the 1e7 price's fee
    assert.equal(
      manaMinFeeComponents(l1, params, 0n, MIN_ETH_PER_FEE_ASSET).sequencerCost,
      30_000_010_000_000_000n,
    );
    for (const eth of [-5n, 0n, 1n, 99n]) assert.equal(manaMinFee(l1, params, D, eth), at100);
    assert.ok(manaMinFee(l1, params, D, 101n) < at100);
  });

  test('capped at 2^128 − 1 for huge inputs', () => {
    const huge = { baseFee: 2n ** 200n, blobFee: 2n ** 200n };
    const c = manaMinFeeComponents(huge, params, 100n * D, 1n);
    assert.ok(c.sequencerCost + c.proverCost + c.congestionCost > MAX_MANA_MIN_FEE);
    assert.equal(manaMinFee(huge, params, 100n * D, 1n), 2n ** 128n - 1n);
    assert.equal(manaMinFee(huge, params, 0n, DEFAULT_ETH_PER_FEE_ASSET), MAX_MANA_MIN_FEE);
  });

  test('non-decreasing in excess mana', () => {
    fc.assert(
      fc.property(arbL1, arbParams, arbExcess, arbExcess, arbEth, (l, p, a, b, eth) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        assert.ok(manaMinFee(l, p, lo, eth) <= manaMinFee(l, p, hi, eth));
      }),
    );
  });

  test('non-decreasing in the L1 base fee', () => {
    fc.assert(
      fc.property(
        arbL1,
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        arbParams,
        arbExcess,
        arbEth,
        (l, extra, p, e, eth) => {
          assert.ok(manaMinFee(l, p, e, eth) <= manaMinFee({ ...l, baseFee: l.baseFee + extra }, p, e, eth));
        },
      ),
    );
  });

  test('non-increasing in ethPerFeeAsset', () => {
    fc.assert(
      fc.property(arbL1, arbParams, arbExcess, arbEth, arbEth, (l, p, e, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        assert.ok(manaMinFee(l, p, e, hi) <= manaMinFee(l, p, e, lo));
      }),
    );
  });
});

describe('next excess mana', () => {
  test('accumulates usage above the target and clamps at 0', () => {
    assert.equal(nextExcessMana(0n, 1_500n, 1_000n), 500n);
    assert.equal(nextExcessMana(500n, 200n, 1_000n), 0n); // 500 + 200 − 1000 < 0
    assert.equal(nextExcessMana(0n, 3_000n, 1_000n), 2_000n);
    assert.equal(nextExcessMana(2_000n, 0n, 1_000n), 1_000n);
    assert.equal(nextExcessMana(0n, 0n, 1_000n), 0n);
    assert.equal(nextExcessMana(1_000n, 0n, 1_000n), 0n);
  });

  test('never negative', () => {
    fc.assert(
      fc.property(arbExcess, arbExcess, arbExcess, (e, used, target) => {
        const next = nextExcessMana(e, used, target);
        assert.ok(next >= 0n);
        assert.equal(next, e + used > target ? e + used - target : 0n);
      }),
    );
  });
});

describe('min fee predictions', () => {
  test('length is 1 + FEE_ORACLE_LAG and entry 0 is the current fee', () => {
    const fees = predictManaMinFees([l1], params, 0n, DEFAULT_ETH_PER_FEE_ASSET, 'target');
    assert.equal(fees.length, 1 + FEE_ORACLE_LAG);
    assert.equal(fees.length, 3);
    assert.equal(fees[0], manaMinFee(l1, params, 0n, DEFAULT_ETH_PER_FEE_ASSET));
  });

  test('known answer: target usage keeps the excess; the price decays 1% per slot', () => {
    // eth 1e7 → 9_900_000 → 9_801_000.
    // slot 1: ceil(3_000_001e12 / 9.9e6) = ceil(303_030_404_040.4) = 303_030_404_041,
    //         ceil(9e18 / 9.9e6) = ceil(909_090_909_090.9) = 909_090_909_091 → 1_212_121_313_132
    // slot 2: ceil(3_000_001e12 / 9.801e6) = 306_091_317_213, ceil(9e18 / 9.801e6) = 918_273_645_547
    //         → 1_224_364_962_760
    assert.deepEqual(predictManaMinFees([l1], params, 0n, DEFAULT_ETH_PER_FEE_ASSET, 'target'), [
      1_200_000_100_000n,
      1_212_121_313_132n,
      1_224_364_962_760n,
    ]);
    assert.deepEqual(predictMinFees([l1], params, 0n, DEFAULT_ETH_PER_FEE_ASSET, 'target'), [
      { feePerDaGas: 0n, feePerL2Gas: 1_200_000_100_000n },
      { feePerDaGas: 0n, feePerL2Gas: 1_212_121_313_132n },
      { feePerDaGas: 0n, feePerL2Gas: 1_224_364_962_760n },
    ]);
  });

  test('usage estimates advance the excess by 0, target or 2·target per slot', () => {
    const T = params.manaTarget;
    const eth = DEFAULT_ETH_PER_FEE_ASSET;
    const e1 = decayEthPerFeeAsset(eth);
    const e2 = decayEthPerFeeAsset(e1);
    assert.equal(e1, 9_900_000n);
    assert.equal(e2, 9_801_000n);
    // limit from 0: excess T, then 2T
    assert.deepEqual(predictManaMinFees([l1], params, 0n, eth, 'limit'), [
      manaMinFee(l1, params, 0n, eth),
      manaMinFee(l1, params, T, e1),
      manaMinFee(l1, params, 2n * T, e2),
    ]);
    // none from 5T: 4T, then 3T
    assert.deepEqual(predictManaMinFees([l1], params, 5n * T, eth, 'none'), [
      manaMinFee(l1, params, 5n * T, eth),
      manaMinFee(l1, params, 4n * T, e1),
      manaMinFee(l1, params, 3n * T, e2),
    ]);
  });

  test('uses the per-slot L1 fees and reuses the last entry when short', () => {
    const a = { baseFee: GWEI, blobFee: 1n };
    const b = { baseFee: 2n * GWEI, blobFee: 5n };
    const c = { baseFee: 3n * GWEI, blobFee: 9n };
    const eth = DEFAULT_ETH_PER_FEE_ASSET;
    const e1 = decayEthPerFeeAsset(eth);
    const e2 = decayEthPerFeeAsset(e1);
    assert.deepEqual(predictManaMinFees([a, b, c, a], params, 0n, eth, 'target'), [
      manaMinFee(a, params, 0n, eth),
      manaMinFee(b, params, 0n, e1),
      manaMinFee(c, params, 0n, e2),
    ]);
    assert.deepEqual(predictManaMinFees([a, b], params, 0n, eth, 'target'), [
      manaMinFee(a, params, 0n, eth),
      manaMinFee(b, params, 0n, e1),
      manaMinFee(b, params, 0n, e2),
    ]);
    assert.throws(() => predictManaMinFees([], params, 0n, eth, 'target'), RangeError);
  });

  test('the decayed price is clamped at 100', () => {
    assert.equal(decayEthPerFeeAsset(101n), 100n); // 101 · 9_900 / 10_000 = 99 → 100
    assert.equal(decayEthPerFeeAsset(0n), 100n);
    assert.deepEqual(predictManaMinFees([l1], params, 0n, 100n, 'target'), [
      manaMinFee(l1, params, 0n, 100n),
      manaMinFee(l1, params, 0n, 100n),
      manaMinFee(l1, params, 0n, 100n),
    ]);
  });

  test("entry 0 is the current fee; 'none' ≤ 'target' ≤ 'limit' entrywise", () => {
    fc.assert(
      fc.property(
        fc.array(arbL1, { minLength: 1, maxLength: 4 }),
        arbParams,
        arbExcess,
        arbEth,
        (ls, p, e, eth) => {
          const [none, target, limit] = usages.map((u) => predictManaMinFees(ls, p, e, eth, u));
          for (const fees of [none!, target!, limit!]) {
            assert.equal(fees.length, 1 + FEE_ORACLE_LAG);
            assert.equal(fees[0], manaMinFee(ls[0]!, p, e, eth));
          }
          for (let i = 0; i <= FEE_ORACLE_LAG; i++) {
            assert.ok(none![i]! <= target![i]!, `none > target at ${i}`);
            assert.ok(target![i]! <= limit![i]!, `target > limit at ${i}`);
          }
        },
      ),
    );
  });

  test("with steady L1 fees, 'target' and 'limit' predictions never fall", () => {
    fc.assert(
      fc.property(
        arbL1,
        arbParams,
        arbExcess,
        arbEth,
        fc.constantFrom<ManaUsageEstimate>('target', 'limit'),
        (l, p, e, eth, u) => {
          const [f0, f1, f2] = predictManaMinFees([l], p, e, eth, u);
          assert.ok(f0! <= f1! && f1! <= f2!);
        },
      ),
    );
  });
});
