// The validation context of the latest block: the next block and slot, the min fees read, the
// live setup allow-list, and for a dry-run check the pending txs sharing a nullifier (not itself).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GasFees } from '../../src/core/block-header.js';
import type { AllowedElement } from '../../src/core/constants.js';
import { slotStart } from '../../src/core/time.js';
import { TxPool } from '../../src/mempool/tx-pool.js';
import { ValidationContexts } from '../../src/mempool/validation-context.js';
import type { WorldStateReader } from '../../src/world-state/types.js';
import { TEST_CONSTANTS } from '../helpers/tx-service-fixture.js';
import { addOk, makeTx, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-validation-context-test-');
const FEES: GasFees = { feePerDaGas: 1n, feePerL2Gas: 2n };
const RULES = {
  constants: TEST_CONSTANTS,
  chainId: 31337,
  rollupVersion: 7,
  txsLimits: { daGas: 10, l2Gas: 20 },
};

function contexts() {
  const pool = TxPool.open(stores.open(), {
    maxTxCount: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
  });
  const states: number[] = [];
  const reader = {} as WorldStateReader;
  const worldState = {
    latestBlockNumber: 41,
    at: (n: number) => {
      states.push(n);
      return reader;
    },
  };
  const built = new ValidationContexts({
    ...RULES,
    worldState,
    fees: { reading: async () => ({ fees: FEES, slot: 9 }) },
    pool,
    allowedSetup: [],
  });
  return { built, pool, states, reader };
}

describe('ValidationContexts.latest', () => {
  test('the latest state, the next block, the next slot and its min fees', async () => {
    const { built, states, reader } = contexts();
    const context = await built.latest(false);
    assert.equal(context.state, reader);
    assert.deepEqual(states, [41]);
    assert.equal(context.nextBlockNumber, 42);
    assert.equal(context.nextSlotTimestamp, slotStart(9, TEST_CONSTANTS));
    assert.deepEqual(context.currentMinFees, FEES);
    assert.equal(context.chainId, 31337);
    assert.equal(context.rollupVersion, 7);
    assert.deepEqual(context.txsLimits, RULES.txsLimits);
    assert.equal(context.pendingConflicts, undefined);
  });

  test('a changed allow-list is used from the next context on', async () => {
    const { built } = contexts();
    const allowed: AllowedElement[] = [{ address: 0x1n, selector: 0x2 }];
    built.allowedSetup = allowed;
    assert.equal((await built.latest(false)).allowedSetup, allowed);
  });

  test('with the pool: the pending txs sharing a nullifier, the tx itself left out', async () => {
    const { built, pool } = contexts();
    const low = makeTx([0x900n], 3n);
    const high = makeTx([0x901n, 0x900n], 8n);
    const other = makeTx([0x902n], 5n);
    for (const t of [low, other]) addOk(pool, t);
    pool.add(high.tx, high.hash, high.size); // replaces low: shares 0x900 and pays more
    addOk(pool, makeTx([0x903n, 0x904n], 1n));
    const conflicts = (await built.latest(true)).pendingConflicts!;
    assert.deepEqual(conflicts([0x900n, 0x902n], 0n), [
      { hash: high.hash, priorityFee: 8n },
      { hash: other.hash, priorityFee: 5n },
    ]);
    assert.deepEqual(conflicts([0x900n, 0x902n], high.hash), [{ hash: other.hash, priorityFee: 5n }]);
  });
});
