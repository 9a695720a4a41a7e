// Known answers from the reference (@aztec/stdlib 4.1.2), checked without it: one tx of each
// variant as its Tx.toBuffer() and its tx hash (vectors/reference-txs.json, which
// reference.process.test.ts rebuilds from the reference). cairn decodes each, encodes it back to
// the same bytes and computes the same hash over the 1,281 or 2,784 fields of its kernel inputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { toHex32 } from '../../../src/core/field.js';
import { publicKernelInputsToFields, rollupKernelInputsToFields } from '../../../src/core/kernel/fields.js';
import { toPublicKernelInputs, toRollupKernelInputs } from '../../../src/core/kernel/public-inputs.js';
import { decodeTail, encodeTail } from '../../../src/core/kernel/tail-codec.js';
import { decodeTx, encodeTx } from '../../../src/core/kernel/tx-codec.js';
import { computeTxHash, computeTxHashOffThread } from '../../../src/core/kernel/tx-hash.js';
import { decodeTxJson, encodeTxJson } from '../../../src/core/kernel/tx-json.js';

const vectors = JSON.parse(
  readFileSync(new URL('./vectors/reference-txs.json', import.meta.url), 'utf8'),
) as {
  txs: { variant: 'rollup' | 'public'; txHash: string; size: number; bytes: string }[];
};

describe("the reference's txs, recorded", () => {
  test('one of each variant is recorded', () => {
    assert.deepEqual(
      vectors.txs.map((v) => v.variant),
      ['rollup', 'public'],
    );
  });

  for (const v of vectors.txs) {
    test(`the ${v.variant} tx decodes, encodes back to the same bytes and hashes to the reference's hash`, () => {
      const bytes = Buffer.from(v.bytes, 'base64');
      assert.equal(bytes.length, v.size);
      const tx = decodeTx(bytes);
      assert.deepEqual(encodeTx(tx), bytes);
      assert.equal(toHex32(tx.txHash), v.txHash);
      assert.equal(toHex32(computeTxHash(tx.data)), v.txHash);

      if (v.variant === 'rollup') {
        assert.ok(tx.data.forRollup && !tx.data.forPublic);
        assert.equal(rollupKernelInputsToFields(toRollupKernelInputs(tx.data)).length, 1281);
      } else {
        assert.ok(tx.data.forPublic && !tx.data.forRollup);
        assert.equal(publicKernelInputsToFields(toPublicKernelInputs(tx.data)).length, 2784);
      }

      // The tail output alone, as the JSON form carries it.
      const tailBytes = encodeTail(tx.data);
      assert.deepEqual(decodeTail(tailBytes), tx.data);
      assert.deepEqual(bytes.subarray(32, 32 + tailBytes.length), tailBytes);

      const json = JSON.parse(JSON.stringify(encodeTxJson(tx)));
      const { body, txHash } = decodeTxJson(json);
      assert.deepEqual({ txHash, ...body }, tx);
    });
  }

  test('the hash worker computes the same hashes, for both variants at once', async () => {
    const txs = vectors.txs.map((v) => decodeTx(Buffer.from(v.bytes, 'base64')));
    const hashes = await Promise.all(txs.map((tx) => computeTxHashOffThread(tx.data)));
    assert.deepEqual(
      hashes.map(toHex32),
      vectors.txs.map((v) => v.txHash),
    );
  });

  test('the recorded txs carry what their variant has', () => {
    const [rollup, pub] = vectors.txs.map((v) => decodeTx(Buffer.from(v.bytes, 'base64')));
    assert.equal(rollup!.data.forRollup!.end.noteHashes.filter((h) => h !== 0n).length, 64);
    assert.equal(rollup!.publicFunctionCalldata.length, 1);
    const p = pub!.data.forPublic!;
    assert.equal(p.revertibleAccumulatedData.publicCallRequests.length, 32);
    assert.notEqual(p.publicTeardownCallRequest.contractAddress, 0n);
    assert.equal(pub!.contractClassLogFields.length, 1);
    assert.deepEqual(
      pub!.publicFunctionCalldata.map((c) => c.values.length),
      [0, 1, 5],
    );
  });
});
