// svc_simulatePublicCalls through the tx service: public storage overrides apply to the fork the
// tx runs on, and to the checks made before it runs (the fee payer's Fee Juice balance), but never
// to the node's state.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import type { GasFees } from '../../src/core/block-header.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { NodeError } from '../../src/core/errors.js';
import type { Fr } from '../../src/core/field.js';
import { devAccounts } from '../../src/execution/dev-accounts.js';
import { FEE_JUICE_BALANCES_SLOT, feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot, readPublicData } from '../../src/execution/public-storage.js';
import type { MinFeeSource } from '../../src/mempool/min-fees.js';
import type { TxService } from '../../src/mempool/tx-service.js';
import type { WorldState } from '../../src/world-state/world-state.js';
import { openTxService, TEST_CONSTANTS } from '../helpers/tx-service-fixture.js';
import { simplePrivateTx } from '../helpers/txs.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-simulate-'));
const [funded] = devAccounts(1);
const UNFUNDED: Fr = 0xabcdef0123n;
const constants = TEST_CONSTANTS;
const FEES: GasFees = { feePerDaGas: 0n, feePerL2Gas: 100n };
const fees: MinFeeSource = {
  current: async () => ({ slot: 1, fees: FEES }),
  predictedMinFees: async () => [FEES, FEES, FEES],
};
const OVERRIDE = 10n ** 22n;

/** The override that sets `owner`'s Fee Juice balance, as a client sends it. */
const balanceOverride = (owner: Fr, value: Fr) => ({
  publicStorage: [
    {
      contractAddress: PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
      slot: mapStorageSlot(FEE_JUICE_BALANCES_SLOT, owner),
      value,
    },
  ],
});

describe('simulatePublicCalls with public storage overrides', () => {
  let worldState: WorldState;
  let chain: ChainStore;
  let service: TxService;
  let nullifier = 0x1000n;

  before(async () => {
    ({ worldState, chain, service } = await openTxService(dir, { funded: [funded!], fees, constants }));
  });
  after(async () => {
    await worldState.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const txFrom = (feePayer: Fr) => {
    nullifier += 1n;
    return simplePrivateTx({ feePayer, anchorBlockHeader: chain.getBlock(0)!.header, nullifier }).tx;
  };

  /** The balance the simulated tx leaves its payer with: the fee payment's public data write. */
  const balanceAfter = (effect: { publicDataWrites: { leafSlot: Fr; value: Fr }[] }, owner: Fr) =>
    effect.publicDataWrites.find((w) => w.leafSlot === feeJuiceBalanceSlot(owner))?.value;

  test('an unfunded payer is refused without an override', async () => {
    await assert.rejects(service.simulatePublicCalls(txFrom(UNFUNDED), false), (err: unknown) => {
      assert.ok(err instanceof NodeError);
      assert.deepEqual(err.data, { reasons: ['Insufficient fee payer balance'] });
      return true;
    });
  });

  test("an override of an unfunded payer's balance pays the fee", async () => {
    const out = await service.simulatePublicCalls(
      txFrom(UNFUNDED),
      false,
      balanceOverride(UNFUNDED, OVERRIDE),
    );
    const fee = out.txEffect.transactionFee;
    assert.ok(fee > 0n);
    assert.equal(balanceAfter(out.txEffect, UNFUNDED), OVERRIDE - fee);
    assert.equal(out.revertReason, undefined);
  });

  test("an override of a funded payer's balance pays the fee, as before", async () => {
    const out = await service.simulatePublicCalls(
      txFrom(funded!.address),
      false,
      balanceOverride(funded!.address, OVERRIDE),
    );
    assert.equal(balanceAfter(out.txEffect, funded!.address), OVERRIDE - out.txEffect.transactionFee);
  });

  test('an override too small for the fee limit is refused like a short balance', async () => {
    await assert.rejects(
      service.simulatePublicCalls(txFrom(funded!.address), false, balanceOverride(funded!.address, 1n)),
      (err: unknown) => {
        assert.ok(err instanceof NodeError);
        assert.deepEqual(err.data, { reasons: ['Insufficient fee payer balance'] });
        return true;
      },
    );
  });

  test("overrides leave the node's state alone", async () => {
    const tx = txFrom(UNFUNDED);
    await service.simulatePublicCalls(tx, false, balanceOverride(UNFUNDED, OVERRIDE));
    const latest = worldState.at(worldState.latestBlockNumber);
    assert.equal(readPublicData(latest, feeJuiceBalanceSlot(UNFUNDED)), 0n);
    assert.deepEqual(await service.isValidTx(tx, undefined), {
      result: 'invalid',
      reason: ['Insufficient fee payer balance'],
    });
  });
});
