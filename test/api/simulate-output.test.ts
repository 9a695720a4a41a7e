// What svc_simulatePublicCalls and node_simulatePublicCalls put on the wire for a real simulation:
// the current set adds the fee the tx would pay as a decimal string, the receipt's form; the tx
// effect keeps the 0x form of every tx effect; the earlier set's output is the reference's shape.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { txMethods } from '../../src/api/txs.js';
import { toHex32 } from '../../src/core/field.js';
import { fromTx } from '../../src/core/tx-codecs.js';
import { devAccounts } from '../../src/execution/dev-accounts.js';
import { encodeResult, type RpcMethod } from '../../src/rpc/registry.js';
import {
  fixedFees,
  openTxService,
  TEST_CONSTANTS,
  type TxServiceFixture,
} from '../helpers/tx-service-fixture.js';
import { simplePrivateTx } from '../helpers/txs.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-simulate-output-'));
const [payer] = devAccounts(1);
const constants = TEST_CONSTANTS;

describe('the simulation output on the wire', () => {
  let fixture: TxServiceFixture;
  let methods: Map<string, RpcMethod>;
  let nullifier = 0x5000n;

  before(async () => {
    fixture = await openTxService(dir, {
      funded: [payer!],
      fees: fixedFees({ feePerDaGas: 0n, feePerL2Gas: 100n }),
      constants,
    });
    methods = new Map(txMethods({ txs: fixture.service }).map((m) => [m.fullName, m]));
  });
  after(async () => {
    await fixture.worldState.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh private tx from the funded payer, as the handlers receive it (decoded). */
  const wireTx = () => {
    nullifier += 1n;
    const { tx, hash } = simplePrivateTx({
      feePayer: payer!.address,
      anchorBlockHeader: fixture.chain.getBlock(0)!.header,
      nullifier,
    });
    return fromTx(tx, hash);
  };

  /** Runs a method's handler and encodes its result as the dispatcher does. */
  const simulate = async (name: string, ...params: unknown[]) => {
    const method = methods.get(name)!;
    const encoded = encodeResult(method, await method.handler(...params));
    assert.ok(encoded.ok, encoded.ok ? '' : encoded.error);
    return encoded.json as Record<string, any>;
  };

  test('svc_simulatePublicCalls gives transactionFee as a decimal string, like the receipt', async () => {
    const out = await simulate('svc_simulatePublicCalls', wireTx(), false);
    assert.match(out.transactionFee, /^[1-9][0-9]*$/);
    // The same amount as the tx effect's, which keeps the 0x form of every tx effect.
    assert.match(out.txEffect.transactionFee, /^0x[0-9a-f]{64}$/);
    assert.equal(toHex32(BigInt(out.transactionFee)), out.txEffect.transactionFee);
  });

  test('with skipFeeEnforcement no fee is charged: transactionFee "0"', async () => {
    const out = await simulate('svc_simulatePublicCalls', wireTx(), true);
    assert.equal(out.transactionFee, '0');
  });

  test('node_simulatePublicCalls keeps the reference shape, without a top-level transactionFee', async () => {
    const out = await simulate('node_simulatePublicCalls', wireTx(), false);
    assert.equal('transactionFee' in out, false);
    assert.deepEqual(Object.keys(out).sort(), [
      'debugLogs',
      'gasUsed',
      'globalVariables',
      'publicReturnValues',
      'txEffect',
    ]);
    assert.ok(BigInt(out.txEffect.transactionFee) > 0n);
  });

  test('the receipt schema encodes the fee the same way', () => {
    const receipt = methods.get('node_getTxReceipt')!;
    const encoded = encodeResult(receipt, {
      txHash: 1n,
      status: 'mined',
      error: '',
      executionResult: 'success',
      transactionFee: 1209520000000n,
      blockHash: 2n,
      blockNumber: 3,
    });
    assert.ok(encoded.ok);
    assert.equal((encoded.json as { transactionFee: string }).transactionFee, '1209520000000');
  });
});
