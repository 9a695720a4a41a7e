// Min fees are read from their source once and kept until the next refresh (after a chain pass),
// so validations between passes do not ask L1.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GasFees } from '../../src/core/block-header.js';
import { type MinFeeSource, MinFees } from '../../src/mempool/min-fees.js';

const fee = (l2: bigint): GasFees => ({ feePerDaGas: 0n, feePerL2Gas: l2 });

/** A source whose every read answers the next slot with a higher fee. */
function countingSource(): MinFeeSource & { reads: number } {
  const source = {
    reads: 0,
    current: async () => {
      source.reads++;
      return { slot: source.reads, fees: fee(100n * BigInt(source.reads)) };
    },
    predictedMinFees: async () => [fee(1n), fee(2n)],
  };
  return source;
}

describe('MinFees', () => {
  test('the first reading reads; later ones keep it until a refresh', async () => {
    const source = countingSource();
    const fees = new MinFees(source);
    assert.deepEqual(await fees.reading(), { slot: 1, fees: fee(100n) });
    assert.deepEqual(await fees.reading(), { slot: 1, fees: fee(100n) });
    assert.equal(source.reads, 1);
    await fees.refresh();
    assert.equal(source.reads, 2);
    assert.deepEqual(fees.last, { slot: 2, fees: fee(200n) });
    assert.deepEqual(await fees.reading(), { slot: 2, fees: fee(200n) });
  });

  test('predictions are asked of the source, for the usage given, without a reading', async () => {
    const source = countingSource();
    const asked: string[] = [];
    const fees = new MinFees({
      ...source,
      predictedMinFees: async (usage) => {
        asked.push(usage);
        return [fee(1n), fee(2n)];
      },
    });
    assert.deepEqual(await fees.predicted('target'), [fee(1n), fee(2n)]);
    assert.deepEqual(asked, ['target']);
    assert.equal(source.reads, 0);
  });
});
