// cairn's codec of the reference's tx, on its own: any tail output, tx and JSON form survives a
// round trip; bytes cut short, corrupted, padded or claiming more than a tx can hold are refused
// with a KernelCodecError (never a RangeError from a buffer read, never a hang); values outside
// their types are refused when encoding. The comparison with the reference itself is in
// reference.process.test.ts, its recorded answers in vectors.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FR_MODULUS } from '../../../src/core/field.js';
import { KernelCodecError } from '../../../src/core/kernel/bytes.js';
import {
  CHONK_PROOF_LENGTH,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
  PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
  TAIL_FOR_PUBLIC_SIZE_IN_BYTES,
  TAIL_FOR_ROLLUP_SIZE_IN_BYTES,
} from '../../../src/core/kernel/constants.js';
import { publicKernelInputsToFields, rollupKernelInputsToFields } from '../../../src/core/kernel/fields.js';
import {
  emptyTailForPublic,
  emptyTailForRollup,
  type PrivateKernelTailCircuitPublicInputs,
  toPublicKernelInputs,
  toRollupKernelInputs,
} from '../../../src/core/kernel/public-inputs.js';
import { decodeTail, encodeTail } from '../../../src/core/kernel/tail-codec.js';
import type { Tx } from '../../../src/core/kernel/tx.js';
import { decodeTx, encodeTx } from '../../../src/core/kernel/tx-codec.js';
import { decodeTxJson, encodeTxJson } from '../../../src/core/kernel/tx-json.js';
import { tailArb, tailForPublicArb, tailForRollupArb, txArb } from './arbitraries.js';

/** Decodes `bytes`: a value that encodes back to exactly them, or a KernelCodecError. */
function decodesExactlyOrRefuses<T>(
  bytes: Buffer,
  decode: (b: Uint8Array) => T,
  encode: (v: T) => Buffer,
): void {
  let value: T;
  try {
    value = decode(bytes);
  } catch (err) {
    assert.ok(err instanceof KernelCodecError, `not a KernelCodecError: ${String(err)}`);
    return;
  }
  assert.deepEqual(encode(value), bytes);
}

const refuses = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof KernelCodecError && pattern.test(err.message));

/** A small tx with public calls, for the targeted refusals. */
function sampleTx(): Tx {
  return {
    txHash: 5n,
    data: emptyTailForPublic(),
    chonkProof: new Uint8Array(CHONK_PROOF_LENGTH * 32),
    contractClassLogFields: [{ fields: new Array<bigint>(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS).fill(7n) }],
    publicFunctionCalldata: [{ values: [1n, 2n], hash: 3n }],
  };
}

describe('kernel tail public inputs: the binary form', () => {
  test('any tail output encodes to its fixed size and decodes back to itself', () => {
    fc.assert(
      fc.property(tailArb, (tail) => {
        const bytes = encodeTail(tail);
        assert.equal(
          bytes.length,
          tail.forPublic ? TAIL_FOR_PUBLIC_SIZE_IN_BYTES : TAIL_FOR_ROLLUP_SIZE_IN_BYTES,
        );
        assert.deepEqual(decodeTail(bytes), tail);
      }),
      { numRuns: 40 },
    );
  });

  test('toFields has the widths the hash covers: 1,281 for rollup, 2,784 for public', () => {
    const rollup = emptyTailForRollup();
    const pub = emptyTailForPublic();
    assert.equal(rollupKernelInputsToFields(toRollupKernelInputs(rollup)).length, 1281);
    assert.equal(
      rollupKernelInputsToFields(toRollupKernelInputs(rollup)).length,
      PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
    );
    assert.equal(
      publicKernelInputsToFields(toPublicKernelInputs(pub)).length,
      PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
    );
    fc.assert(
      fc.property(tailForRollupArb, tailForPublicArb, (r, p) => {
        if (r.forRollup) assert.equal(rollupKernelInputsToFields(toRollupKernelInputs(r)).length, 1281);
        if (p.forPublic) assert.equal(publicKernelInputsToFields(toPublicKernelInputs(p)).length, 2784);
      }),
      { numRuns: 10 },
    );
  });

  test('every prefix of an encoding is refused', () => {
    fc.assert(
      fc.property(tailArb, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (tail, cut) => {
        const bytes = encodeTail(tail);
        refuses(() => decodeTail(bytes.subarray(0, Math.floor(cut * bytes.length))), /needs \d+ bytes/);
      }),
      { numRuns: 60 },
    );
  });

  test('corrupted bytes decode to a value that encodes back to them, or are refused', () => {
    fc.assert(
      fc.property(
        tailArb,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (tail, edits) => {
          const bytes = Buffer.from(encodeTail(tail));
          for (const [at, value] of edits) bytes[at % bytes.length] = value;
          decodesExactlyOrRefuses(bytes, decodeTail, encodeTail);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a bool byte other than 0 and 1, a field at the modulus and trailing bytes are refused', () => {
    const bytes = Buffer.from(encodeTail(emptyTailForRollup()));
    refuses(() => decodeTail(Buffer.concat([bytes, Buffer.alloc(1)])), /1 bytes after its end/);
    const flag = Buffer.from(bytes);
    flag[0] = 2;
    refuses(() => decodeTail(flag), /isForPublic is a bool but holds 2/);
    const modulus = Buffer.from(bytes);
    modulus.write(FR_MODULUS.toString(16).padStart(64, '0'), 1, 'hex');
    refuses(
      () => decodeTail(modulus),
      /anchorBlockHeader.lastArchive.root is not below the field modulus \(at byte 1 /,
    );
    // A rollup output read as a public one runs out of bytes.
    const flipped = Buffer.from(bytes);
    flipped[0] = 1;
    refuses(() => decodeTail(flipped), /needs \d+ bytes/);
  });

  test('encoding refuses arrays off their width and values outside their types', () => {
    const short = emptyTailForRollup();
    short.forRollup.end.noteHashes.pop();
    assert.throws(() => encodeTail(short), /forRollup.end.noteHashes must have exactly 64 items, got 63/);
    assert.throws(
      () => rollupKernelInputsToFields(toRollupKernelInputs(short)),
      /noteHashes must have exactly 64/,
    );
    const big = emptyTailForPublic();
    big.forPublic.revertibleAccumulatedData.privateLogs[3]!.emittedLength = 2 ** 32;
    assert.throws(
      () => encodeTail(big),
      /revertibleAccumulatedData.privateLogs.emittedLength must be an integer/,
    );
    const both = { ...emptyTailForRollup(), forPublic: emptyTailForPublic().forPublic };
    assert.throws(
      () => encodeTail(both as unknown as PrivateKernelTailCircuitPublicInputs),
      /exactly one of/,
    );
    const fee = emptyTailForRollup();
    fee.feePayer = FR_MODULUS;
    assert.throws(() => encodeTail(fee), /feePayer must be a field element/);
  });
});

describe('a whole tx: the binary form', () => {
  test('any tx decodes back to itself', () => {
    fc.assert(
      fc.property(txArb, (tx) => assert.deepEqual(decodeTx(encodeTx(tx)), tx)),
      { numRuns: 30 },
    );
  });

  test('truncated or corrupted txs are refused or decode exactly', () => {
    fc.assert(
      fc.property(
        txArb,
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        (tx, cut, edits) => {
          const bytes = encodeTx(tx);
          refuses(() => decodeTx(bytes.subarray(0, Math.floor(cut * bytes.length))), /needs \d+ bytes/);
          const corrupted = Buffer.from(bytes);
          for (const [at, value] of edits) corrupted[at % corrupted.length] = value;
          decodesExactlyOrRefuses(corrupted, decodeTx, encodeTx);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('lengths and counts beyond what a tx can hold are refused before anything is read', () => {
    const bytes = encodeTx(sampleTx());
    const proofAt = 32 + TAIL_FOR_PUBLIC_SIZE_IN_BYTES;
    const logsAt = proofAt + 4 + CHONK_PROOF_LENGTH * 32;
    const callsAt = logsAt + 1 + CONTRACT_CLASS_LOG_SIZE_IN_FIELDS * 32;
    const edit = (at: number, write: (b: Buffer) => void) => {
      const b = Buffer.from(bytes);
      write(b.subarray(at));
      return b;
    };
    refuses(
      () => decodeTx(edit(proofAt, (b) => b.writeUInt32BE(1934))),
      /chonkProof.length is 1934, not 1935/,
    );
    refuses(
      () => decodeTx(edit(proofAt, (b) => b.writeUInt32BE(0xffff_ffff))),
      /chonkProof.length is 4294967295/,
    );
    refuses(
      () => decodeTx(edit(logsAt, (b) => b.writeUInt8(3))),
      /contractClassLogFields.count is 3, more than 2/,
    );
    refuses(
      () => decodeTx(edit(callsAt, (b) => b.writeUInt8(66))),
      /publicFunctionCalldata.count is 66, more than 65/,
    );
    refuses(
      () => decodeTx(edit(callsAt + 1, (b) => b.writeUInt32BE(0xffff_ffff))),
      /values.length \(all calls together\) is 4294967295, more than 16000/,
    );
    const proofField = edit(proofAt + 4 + 32 * 10, (b) => b.fill(0xff, 0, 32));
    refuses(() => decodeTx(proofField), /chonkProof field 10 is not below the field modulus/);
  });

  test('calldata over 16,000 values in all is refused on both sides', () => {
    const tx = sampleTx();
    tx.publicFunctionCalldata = [
      { values: new Array<bigint>(10_000).fill(1n), hash: 1n },
      { values: new Array<bigint>(6_001).fill(1n), hash: 2n },
    ];
    assert.throws(() => encodeTx(tx), /more than 16000 values/);
    tx.publicFunctionCalldata[1]!.values.pop();
    const bytes = encodeTx(tx);
    assert.deepEqual(decodeTx(bytes), tx);
    const second = bytes.length - 32 - 6_000 * 32 - 4;
    const over = Buffer.from(bytes);
    over.writeUInt32BE(6_001, second);
    refuses(() => decodeTx(over), /is 6001, more than 6000/);
  });
});

describe('a whole tx: the JSON form', () => {
  test('any tx survives JSON, text included', () => {
    fc.assert(
      fc.property(txArb, (tx) => {
        const json = encodeTxJson(tx);
        const { body, txHash } = decodeTxJson(JSON.parse(JSON.stringify(json)));
        assert.equal(txHash, tx.txHash);
        assert.deepEqual({ txHash, ...body }, tx);
        assert.deepEqual(encodeTxJson({ ...body, txHash: tx.txHash }), json);
      }),
      { numRuns: 20 },
    );
  });

  test('malformed JSON is refused with the path of what is wrong', () => {
    const good = encodeTxJson(sampleTx());
    const bad = (patch: Record<string, unknown>, pattern: RegExp) =>
      refuses(() => decodeTxJson({ ...good, ...patch }), pattern);
    refuses(() => decodeTxJson(null), /the tx must be an object/);
    refuses(() => decodeTxJson([]), /the tx must be an object/);
    bad({ data: undefined }, /data must be a base64 string/);
    bad({ data: `${good.data.slice(0, -4)}!!!!` }, /data must be standard padded base64/);
    assert.match(good.chonkProof, /==$/);
    bad({ chonkProof: good.chonkProof.slice(0, -2) }, /chonkProof must be standard padded base64/);
    bad({ data: Buffer.from([1, 2, 3]).toString('base64') }, /kernel tail public inputs: .* needs/);
    bad({ chonkProof: Buffer.alloc(8).toString('base64') }, /chonkProof.length is 0/);
    bad({ txHash: 'abc' }, /txHash must be 0x followed by 1 to 64 hex digits/);
    bad({ txHash: `0x${'f'.repeat(64)}` }, /txHash is not below the field modulus/);
    bad({ txHash: `0x${'0'.repeat(65)}` }, /txHash must be 0x/);
    bad({ contractClassLogFields: {} }, /contractClassLogFields must be an array/);
    bad({ contractClassLogFields: [1] }, /contractClassLogFields\[0\] must be an object/);
    bad(
      { contractClassLogFields: [{ fields: ['0x1'] }] },
      /contractClassLogFields\[0\].fields must have exactly 3023/,
    );
    const fields = [...good.contractClassLogFields[0]!.fields];
    fields[17] = '17';
    bad({ contractClassLogFields: [{ fields }] }, /contractClassLogFields\[0\].fields\[17\] must be 0x/);
    bad(
      { publicFunctionCalldata: [{ values: ['0x1', 2], hash: '0x3' }] },
      /publicFunctionCalldata\[0\].values.*\[1\] must be 0x/,
    );
    bad({ publicFunctionCalldata: [{ values: [] }] }, /publicFunctionCalldata\[0\].hash must be 0x/);
    bad({ publicFunctionCalldata: new Array(66).fill({ values: [], hash: '0x0' }) }, /at most 65 items/);
    // Without a txHash, or with keys the reference does not define, a tx is still a tx.
    const { txHash: _unused, ...rest } = good;
    assert.equal(decodeTxJson({ ...rest, extra: 1 }).txHash, undefined);
  });
});
