import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { FR_MODULUS } from '../../src/core/field.js';
import type { PublicCallRequest, Tx, TxSideEffects } from '../../src/core/tx.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { encodeWireTx, fromTx, toTx, tx as txCodec } from '../../src/core/tx-codecs.js';
import { privateLogArb } from '../helpers/arbitraries.js';

// The hand-written wire encoder against the schema's own z.encode (the model): the same JSON text,
// key order included, for any tx the node can hold.

const fr = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const u128 = fc.bigInt({ min: 0n, max: 2n ** 128n - 1n });
const ethAddress = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => `0x${Buffer.from(b).toString('hex')}`);
const gas = fc.record({ daGas: u32, l2Gas: u32 });
const gasFees = fc.record({ feePerDaGas: u128, feePerL2Gas: u128 });
const call: fc.Arbitrary<PublicCallRequest> = fc.record({
  msgSender: fr,
  contractAddress: fr,
  isStaticCall: fc.boolean(),
  calldataHash: fr,
});
const sideEffects = (minNullifiers: number): fc.Arbitrary<TxSideEffects> =>
  fc.record({
    noteHashes: fc.array(fr, { maxLength: 4 }),
    nullifiers: fc.array(fr, { minLength: minNullifiers, maxLength: 4 }),
    l2ToL1Msgs: fc.array(fc.record({ recipient: ethAddress, content: fr, sender: fr }), { maxLength: 2 }),
    privateLogs: fc.array(privateLogArb(fr), { maxLength: 2 }),
    contractClassLogsHashes: fc.constant([]),
    publicCallRequests: fc.array(call, { maxLength: 3 }),
  });
const anyTx: fc.Arbitrary<Tx> = fc.record({
  data: fc.record({
    constants: fc.record({
      anchorBlockHash: fr,
      chainId: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      version: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      gasSettings: fc.record({
        gasLimits: gas,
        teardownGasLimits: gas,
        maxFeesPerGas: gasFees,
        maxPriorityFeesPerGas: gasFees,
      }),
    }),
    feePayer: fr,
    expirationTimestamp: fc.bigInt({ min: 0n, max: 2n ** 64n }),
    gasUsed: gas,
    nonRevertible: sideEffects(1),
    revertible: sideEffects(0),
    publicTeardownCallRequest: fc.option(call, { nil: null }),
  }),
  proof: fc.uint8Array({ maxLength: 64 }),
  contractClassLogFields: fc.constant([]),
  publicFunctionCalldata: fc.array(fc.record({ values: fc.array(fr, { maxLength: 5 }), hash: fr }), {
    maxLength: 3,
  }),
});

describe('encodeWireTx', () => {
  test('writes the JSON z.encode writes, key order included, and decodes back (property)', () => {
    fc.assert(
      fc.property(anyTx, fr, (value, hash) => {
        const model = JSON.stringify(z.encode(txCodec, fromTx(value, hash)));
        const fast = JSON.stringify(encodeWireTx(value, hash));
        assert.equal(fast, model);
        const back = toTx(z.decode(txCodec, JSON.parse(fast)));
        assert.equal(back.claimedHash, hash);
        assert.deepEqual(back.tx, structuredClone(value)); // fast-check's records have no prototype
      }),
      { numRuns: 300 },
    );
  });

  test('a tx with a contract class log and a proof inside a larger buffer', () => {
    const built = buildTx({
      feePayer: 7n,
      anchorBlockHash: 9n,
      chainId: 31337,
      version: 1,
      expirationTimestamp: 2n ** 40n,
      maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
      noteHashes: [1n, 2n],
      contractClassLogs: [{ contractAddress: 5n, fields: [1n, 2n, 3n] }],
    });
    const backing = new Uint8Array(40).fill(0xee);
    backing.set([0xab, 0xcd], 10);
    const value: Tx = { ...built.tx, proof: backing.subarray(10, 12) };
    const fast = encodeWireTx(value, built.hash);
    assert.equal(JSON.stringify(fast), JSON.stringify(z.encode(txCodec, fromTx(value, built.hash))));
    assert.equal(fast.proof, '0xabcd');
  });
});
