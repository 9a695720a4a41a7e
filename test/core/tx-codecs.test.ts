// The seeds' JSON of a kernel tx (src/core/tx-codecs.ts): lossless for any tx, padding laid out
// in any way (empty items in the middle, non-empty ones after them, items that are nearly but not
// exactly empty); the hand-written encoder against z.encode (the model); and the refusals, each
// with its path and message.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { blockHeader } from '../../src/core/block-codecs.js';
import { FR_MODULUS, toBytes32, toHex32 } from '../../src/core/field.js';
import {
  CHONK_PROOF_LENGTH,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_NOTE_HASHES_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from '../../src/core/kernel/constants.js';
import {
  emptyTailForPublic,
  emptyTailForRollup,
  type PrivateKernelTailCircuitPublicInputs,
} from '../../src/core/kernel/public-inputs.js';
import {
  emptyL2ToL1Message,
  emptyPrivateLog,
  emptyPublicCallRequest,
  emptyScopedLogHash,
  type PrivateLog,
  type PrivateToPublicAccumulatedData,
  type PrivateToRollupAccumulatedData,
  type PublicCallRequest,
  type ScopedL2ToL1Message,
  type ScopedLogHash,
} from '../../src/core/kernel/side-effects.js';
import type { Tx, TxBody } from '../../src/core/kernel/tx.js';
import { encodeWireTx, fromTx, toTx, tx as txCodec } from '../../src/core/tx-codecs.js';
import { blockHeaderArb, txArb } from './kernel/arbitraries.js';

const PROOF_BYTES = CHONK_PROOF_LENGTH * 32;
const ZERO = toHex32(0n);

// ---- Arbitraries: txArb's txs with their padding laid out in every way ----------------------------

type Rnd = () => number;

/** A small deterministic generator, so that a seed replays a layout. */
function rng(seed: number): Rnd {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    return x >>> 8;
  };
}

/**
 * `items` laid out as a tail lays out a fixed-width array, or not: all used, all padding, used
 * items then padding, with holes among the used ones and stray items (random or nearly empty)
 * inside the padding, the last slot included.
 */
function layout<T>(items: T[], empty: () => T, odd: (r: Rnd) => T, r: Rnd): T[] {
  const w = items.length;
  const mode = r() % 6;
  if (mode === 0) return items;
  if (mode === 1) return items.map(() => empty());
  const k = r() % (w + 1);
  const out = items.map((x, i) => (i < k ? x : empty()));
  if (k < w && r() % 2 === 0) {
    const j = k + (r() % (w - k));
    out[j] = r() % 2 === 0 ? odd(r) : items[j]!;
  }
  if (k > 0 && r() % 2 === 0) out[r() % k] = empty();
  if (mode === 5) out[w - 1] = odd(r);
  return out;
}

// Items that are not exactly empty, with a single non-zero part.
const oddField = (r: Rnd): bigint => (r() % 2 === 0 ? 1n : FR_MODULUS - 1n);
const oddMessage = (r: Rnd): ScopedL2ToL1Message => {
  const m = emptyL2ToL1Message();
  if (r() % 2 === 0) m.message.recipient = `0x${'0'.repeat(39)}1`;
  else m.contractAddress = 1n;
  return m;
};
/** A log that emitted nothing but has a field set, or emitted fields that are all zero. */
const oddLog = (r: Rnd): PrivateLog => {
  const log = emptyPrivateLog();
  if (r() % 2 === 0) log.fields[r() % PRIVATE_LOG_SIZE_IN_FIELDS] = oddField(r);
  else log.emittedLength = 1 + (r() % PRIVATE_LOG_SIZE_IN_FIELDS);
  return log;
};
const oddLogHash = (r: Rnd): ScopedLogHash => {
  const h = emptyScopedLogHash();
  if (r() % 2 === 0) h.logHash.length = 1;
  else h.logHash.value = 1n;
  return h;
};
const oddCall = (r: Rnd): PublicCallRequest => {
  const c = emptyPublicCallRequest();
  if (r() % 2 === 0) c.isStaticCall = true;
  else c.calldataHash = 1n;
  return c;
};

// The wire bounds a log's lengths (txArb draws any u32).
const fitLog = (log: PrivateLog): PrivateLog => ({
  ...log,
  emittedLength: log.emittedLength % (PRIVATE_LOG_SIZE_IN_FIELDS + 1),
});
const fitLogHash = (h: ScopedLogHash): ScopedLogHash => ({
  ...h,
  logHash: { ...h.logHash, length: h.logHash.length % (CONTRACT_CLASS_LOG_SIZE_IN_FIELDS + 1) },
});

const shapeRollupData = (d: PrivateToRollupAccumulatedData, r: Rnd): PrivateToRollupAccumulatedData => ({
  noteHashes: layout(d.noteHashes, () => 0n, oddField, r),
  nullifiers: layout(d.nullifiers, () => 0n, oddField, r),
  l2ToL1Msgs: layout(d.l2ToL1Msgs, emptyL2ToL1Message, oddMessage, r),
  privateLogs: layout(d.privateLogs.map(fitLog), emptyPrivateLog, oddLog, r),
  contractClassLogsHashes: layout(
    d.contractClassLogsHashes.map(fitLogHash),
    emptyScopedLogHash,
    oddLogHash,
    r,
  ),
});
const shapePublicData = (d: PrivateToPublicAccumulatedData, r: Rnd): PrivateToPublicAccumulatedData => ({
  ...shapeRollupData(d, r),
  publicCallRequests: layout(d.publicCallRequests, emptyPublicCallRequest, oddCall, r),
});

function shapeTail(d: PrivateKernelTailCircuitPublicInputs, r: Rnd): PrivateKernelTailCircuitPublicInputs {
  const { constants, gasUsed, feePayer, expirationTimestamp } = d;
  const common = { constants, gasUsed, feePayer, expirationTimestamp };
  if (d.forPublic === undefined)
    return { ...common, forRollup: { end: shapeRollupData(d.forRollup.end, r) } };
  const t = d.forPublic.publicTeardownCallRequest;
  const mode = r() % 3;
  return {
    ...common,
    forPublic: {
      nonRevertibleAccumulatedData: shapePublicData(d.forPublic.nonRevertibleAccumulatedData, r),
      revertibleAccumulatedData: shapePublicData(d.forPublic.revertibleAccumulatedData, r),
      publicTeardownCallRequest: mode === 0 ? t : mode === 1 ? emptyPublicCallRequest() : oddCall(r),
    },
  };
}

/** txArb's proof (non-zero words to the end), all zero, or its words cut off at any point. */
function shapeProof(proof: Uint8Array, r: Rnd): Uint8Array {
  const mode = r() % 5;
  if (mode === 0) return proof;
  const out = new Uint8Array(PROOF_BYTES);
  if (mode === 1) return out;
  const word = r() % CHONK_PROOF_LENGTH;
  if (mode === 2) out.set(proof.subarray(0, word * 32));
  if (mode === 3) out[word * 32 + 31] = 1; // a last word whose non-zero byte ends it
  if (mode === 4) out.set(toBytes32(FR_MODULUS - 1n), word * 32); // one starting with a non-zero byte
  return out;
}

function shapeClassLog(log: { fields: bigint[] }, r: Rnd): { fields: bigint[] } {
  const mode = r() % 3;
  if (mode === 0) return log;
  const fields = new Array<bigint>(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS).fill(0n);
  if (mode === 2) fields[CONTRACT_CLASS_LOG_SIZE_IN_FIELDS - 1] = oddField(r);
  return { fields };
}

/** A tx body of the given variant, and a hash for it (txArb's: the codec does not check it). */
const bodyArb = (variant: 'forRollup' | 'forPublic'): fc.Arbitrary<[TxBody, bigint]> =>
  fc
    .tuple(
      txArb.filter((t) => t.data[variant] !== undefined),
      fc.integer(),
    )
    .map(([{ txHash, ...t }, seed]: [Tx, number]): [TxBody, bigint] => {
      const r = rng(seed);
      return [
        {
          data: shapeTail(t.data, r),
          chonkProof: shapeProof(t.chonkProof, r),
          contractClassLogFields: t.contractClassLogFields.map((l) => shapeClassLog(l, r)),
          publicFunctionCalldata: t.publicFunctionCalldata,
        },
        txHash,
      ];
    });

const VARIANTS = ['forRollup', 'forPublic'] as const;
const RUNS = 60;

const decode = (json: z.input<typeof txCodec>) => toTx(z.decode(txCodec, json));

// ---- Round trips ------------------------------------------------------------------------------------

describe('tx JSON: round trips', () => {
  for (const variant of VARIANTS) {
    test(`${variant}: decoding encodeWireTx's JSON gives the tx back (property)`, () => {
      fc.assert(
        fc.property(bodyArb(variant), ([body, hash]) => {
          const wire = encodeWireTx(body, hash);
          assert.ok(wire.data[variant] !== undefined);
          assert.deepStrictEqual(decode(wire), { tx: body, claimedHash: hash });
        }),
        { numRuns: RUNS },
      );
    });

    test(`${variant}: encodeWireTx writes what z.encode writes, key order included (property)`, () => {
      fc.assert(
        fc.property(bodyArb(variant), ([body, hash]) => {
          const fast = encodeWireTx(body, hash);
          const model = z.encode(txCodec, fromTx(body, hash));
          assert.deepStrictEqual(fast, model);
          assert.equal(JSON.stringify(fast), JSON.stringify(model));
        }),
        { numRuns: RUNS },
      );
    });

    test(`${variant}: the JSON text survives JSON.stringify / JSON.parse and is canonical (property)`, () => {
      fc.assert(
        fc.property(bodyArb(variant), ([body, hash]) => {
          const text = JSON.stringify(encodeWireTx(body, hash));
          const back = decode(JSON.parse(text));
          assert.deepStrictEqual(back.tx, body);
          assert.equal(JSON.stringify(encodeWireTx(back.tx, hash)), text);
        }),
        { numRuns: RUNS },
      );
    });
  }

  test('a claimed hash is returned as claimedHash; without one it is undefined', () => {
    const body = sampleBody();
    const withHash = encodeWireTx(body, 0xabcn);
    assert.equal(withHash.txHash, toHex32(0xabcn));
    assert.equal(decode(withHash).claimedHash, 0xabcn);
    assert.equal(decode({ ...withHash, txHash: '0xAbC' }).claimedHash, 0xabcn);
    const { txHash: _omitted, ...withoutHash } = withHash;
    const back = decode(withoutHash);
    assert.equal(back.claimedHash, undefined);
    assert.deepStrictEqual(back.tx, body);
    assert.equal('txHash' in back.tx, false);
  });

  test("anchorBlockHeader's JSON is svc_getBlockHeader's, and every header survives both (property)", () => {
    const body = sampleBody();
    fc.assert(
      fc.property(blockHeaderArb, (header) => {
        const asBlockHeader = z.encode(blockHeader, header);
        assert.deepStrictEqual(z.decode(blockHeader, asBlockHeader), header);
        const withHeader: TxBody = {
          ...body,
          data: { ...body.data, constants: { ...body.data.constants, anchorBlockHeader: header } },
        };
        const wire = encodeWireTx(withHeader, 1n);
        assert.equal(JSON.stringify(wire.data.constants.anchorBlockHeader), JSON.stringify(asBlockHeader));
        assert.deepStrictEqual(decode(wire).tx.data.constants.anchorBlockHeader, header);
      }),
      { numRuns: 300 },
    );
  });
});

// ---- Compaction, by example ------------------------------------------------------------------------

/** A small tx with public calls: a few items of each kind, some nearly empty. */
function sampleBody(): TxBody {
  const data = emptyTailForPublic();
  const part = data.forPublic.revertibleAccumulatedData;
  part.nullifiers[2] = 5n; // after two empty slots
  part.privateLogs[3]!.fields[2] = 9n; // emitted nothing, but a field is set
  part.publicCallRequests[0] = { ...emptyPublicCallRequest(), contractAddress: 4n };
  data.forPublic.nonRevertibleAccumulatedData.nullifiers[0] = 1n;
  data.expirationTimestamp = 2n ** 64n - 1n;
  const chonkProof = new Uint8Array(PROOF_BYTES);
  chonkProof[2 * 32] = 0x12; // word 2 starts non-zero
  const classLog = new Array<bigint>(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS).fill(0n);
  classLog[1] = 3n;
  return {
    data,
    chonkProof,
    contractClassLogFields: [{ fields: classLog }],
    publicFunctionCalldata: [{ values: [1n, 0n], hash: 3n }],
  };
}

describe('tx JSON: compaction', () => {
  test('the all-zero txs of both variants: empty arrays, "0x" proof, null teardown', () => {
    const proof = new Uint8Array(PROOF_BYTES);
    const emptyRollupEnd = {
      noteHashes: [],
      nullifiers: [],
      l2ToL1Msgs: [],
      privateLogs: [],
      contractClassLogsHashes: [],
    };
    const rollup: TxBody = {
      data: emptyTailForRollup(),
      chonkProof: proof,
      contractClassLogFields: [],
      publicFunctionCalldata: [],
    };
    const wire = encodeWireTx(rollup, 0n);
    assert.deepStrictEqual(wire.data.forRollup, { end: emptyRollupEnd });
    assert.equal(wire.chonkProof, '0x');
    assert.equal(wire.data.expirationTimestamp, '0');
    assert.deepStrictEqual(decode(wire).tx, rollup);

    const pub: TxBody = { ...rollup, data: emptyTailForPublic() };
    const pubWire = encodeWireTx(pub, 0n);
    const emptyPart = { ...emptyRollupEnd, publicCallRequests: [] };
    assert.deepStrictEqual(pubWire.data.forPublic, {
      nonRevertibleAccumulatedData: emptyPart,
      revertibleAccumulatedData: emptyPart,
      publicTeardownCallRequest: null,
    });
    assert.deepStrictEqual(decode(pubWire).tx, pub);
  });

  test('items before the last non-empty one stay, so do nearly empty ones; trailing zeros go', () => {
    const body = sampleBody();
    const wire = encodeWireTx(body, 0n);
    const part = wire.data.forPublic!.revertibleAccumulatedData;
    assert.deepStrictEqual(part.nullifiers, [ZERO, ZERO, toHex32(5n)]);
    assert.equal(part.privateLogs.length, 4);
    assert.deepStrictEqual(part.privateLogs[0], { fields: [], emittedLength: 0 });
    assert.deepStrictEqual(part.privateLogs[3], { fields: [ZERO, ZERO, toHex32(9n)], emittedLength: 0 });
    assert.equal(part.publicCallRequests.length, 1);
    assert.deepStrictEqual(wire.data.forPublic!.nonRevertibleAccumulatedData.nullifiers, [toHex32(1n)]);
    assert.equal(wire.data.expirationTimestamp, (2n ** 64n - 1n).toString());
    assert.equal(wire.chonkProof, `0x${'0'.repeat(128)}12${'0'.repeat(62)}`);
    assert.deepStrictEqual(wire.contractClassLogFields, [{ fields: [ZERO, toHex32(3n)] }]);
    // Calldata is not padding: its zeros stay.
    assert.deepStrictEqual(wire.publicFunctionCalldata, [{ values: [toHex32(1n), ZERO], hash: toHex32(3n) }]);
    assert.deepStrictEqual(decode(wire).tx, body);
  });

  test('a teardown call that is not all zero is written, a static flag alone included', () => {
    const body = sampleBody();
    assert.ok(body.data.forPublic);
    body.data.forPublic.publicTeardownCallRequest = { ...emptyPublicCallRequest(), isStaticCall: true };
    const wire = encodeWireTx(body, 0n);
    assert.deepStrictEqual(wire.data.forPublic!.publicTeardownCallRequest, {
      msgSender: ZERO,
      contractAddress: ZERO,
      isStaticCall: true,
      calldataHash: ZERO,
    });
    assert.deepStrictEqual(decode(wire).tx, body);
  });

  test('short input is padded: fields to their size, arrays to their width, the proof to its length', () => {
    const wire: any = encodeWireTx(sampleBody(), 0n);
    wire.chonkProof = '0x01';
    assert.equal(z.safeDecode(txCodec, wire).success, false); // not a whole word
    wire.chonkProof = `0x${'0'.repeat(63)}1`;
    const { tx } = decode(wire);
    assert.equal(tx.chonkProof.length, PROOF_BYTES);
    assert.equal(tx.chonkProof[31], 1);
    const part = tx.data.forPublic!.revertibleAccumulatedData;
    assert.equal(part.nullifiers.length, 64);
    assert.equal(part.privateLogs.length, MAX_PRIVATE_LOGS_PER_TX);
    assert.deepStrictEqual(part.privateLogs[63], emptyPrivateLog());
    assert.equal(part.privateLogs[3]!.fields.length, PRIVATE_LOG_SIZE_IN_FIELDS);
    assert.equal(part.publicCallRequests.length, MAX_ENQUEUED_CALLS_PER_TX);
    assert.equal(tx.contractClassLogFields[0]!.fields.length, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    // Each padding item is its own object.
    assert.notEqual(part.privateLogs[10], part.privateLogs[11]);
  });
});

// ---- Refusals --------------------------------------------------------------------------------------

type Json = any;

/** Decoding `json` fails with an issue at `path` whose message matches `message`. */
function refused(json: Json, path: string, message: RegExp): void {
  const result = z.safeDecode(txCodec, json);
  assert.equal(result.success, false, 'decoded');
  const issues = result.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  assert.ok(
    issues.some((i) => i.path === path && message.test(i.message)),
    `no issue at "${path}" matching ${message}: ${JSON.stringify(issues)}`,
  );
}

const publicJson = (): Json => structuredClone(encodeWireTx(sampleBody(), 7n));
const rollupJson = (): Json =>
  structuredClone(
    encodeWireTx(
      {
        data: emptyTailForRollup(),
        chonkProof: new Uint8Array(PROOF_BYTES),
        contractClassLogFields: [],
        publicFunctionCalldata: [],
      },
      7n,
    ),
  );
const REV = 'data.forPublic.revertibleAccumulatedData';
const hexes = (n: number, v = 1n) => new Array<string>(n).fill(toHex32(v));

describe('tx JSON: refusals', () => {
  test('the base JSON decodes (so each refusal below is the mutation alone)', () => {
    assert.equal(z.safeDecode(txCodec, publicJson()).success, true);
    assert.equal(z.safeDecode(txCodec, rollupJson()).success, true);
  });

  test('both variants at once, or neither', () => {
    const both = publicJson();
    both.data.forRollup = rollupJson().data.forRollup;
    refused(both, 'data', /exactly one of forRollup .* and forPublic .*got both/);
    const neither = rollupJson();
    delete neither.data.forRollup;
    refused(neither, 'data', /exactly one of forRollup .* and forPublic .*got neither/);
  });

  test('more items than a fixed width holds', () => {
    const notes = publicJson();
    notes.data.forPublic.revertibleAccumulatedData.noteHashes = hexes(MAX_NOTE_HASHES_PER_TX + 1);
    refused(notes, `${REV}.noteHashes`, /too many note hashes: at most 64/);
    const logs = rollupJson();
    logs.data.forRollup.end.privateLogs = new Array(MAX_PRIVATE_LOGS_PER_TX + 1).fill({
      fields: [],
      emittedLength: 0,
    });
    refused(logs, 'data.forRollup.end.privateLogs', /too many private logs: at most 64/);
    const calls = publicJson();
    const call = calls.data.forPublic.revertibleAccumulatedData.publicCallRequests[0];
    calls.data.forPublic.revertibleAccumulatedData.publicCallRequests = new Array(
      MAX_ENQUEUED_CALLS_PER_TX + 1,
    ).fill(call);
    refused(calls, `${REV}.publicCallRequests`, /too many public call requests: at most 32/);
    const classLogs = publicJson();
    classLogs.contractClassLogFields = new Array(MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX + 1).fill({
      fields: [],
    });
    refused(classLogs, 'contractClassLogFields', /too many contract class logs: at most 2/);
  });

  test('a private log with more fields than its size, or emitting more than them', () => {
    const fields = publicJson();
    fields.data.forPublic.revertibleAccumulatedData.privateLogs[0].fields = hexes(
      PRIVATE_LOG_SIZE_IN_FIELDS + 1,
    );
    refused(fields, `${REV}.privateLogs.0.fields`, /a private log has at most 16 fields/);
    const emitted = publicJson();
    emitted.data.forPublic.revertibleAccumulatedData.privateLogs[0].emittedLength =
      PRIVATE_LOG_SIZE_IN_FIELDS + 1;
    refused(emitted, `${REV}.privateLogs.0.emittedLength`, /emittedLength is at most 16/);
  });

  test('a contract class log (or its hash) longer than its size', () => {
    const fields = publicJson();
    fields.contractClassLogFields[0].fields = hexes(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS + 1);
    refused(fields, 'contractClassLogFields.0.fields', /a contract class log has at most 3023 fields/);
    const hash = rollupJson();
    hash.data.forRollup.end.contractClassLogsHashes = [
      { logHash: { value: ZERO, length: CONTRACT_CLASS_LOG_SIZE_IN_FIELDS + 1 }, contractAddress: ZERO },
    ];
    refused(
      hash,
      'data.forRollup.end.contractClassLogsHashes.0.logHash.length',
      /a contract class log's length is at most 3023/,
    );
  });

  test('bad hex, and a field element not below the modulus', () => {
    const hex = publicJson();
    hex.data.feePayer = '0x12g4';
    refused(hex, 'data.feePayer', /expected 0x followed by 1 to 64 hex digits/);
    const big = publicJson();
    big.data.forPublic.nonRevertibleAccumulatedData.nullifiers[0] = toHex32(FR_MODULUS);
    refused(
      big,
      'data.forPublic.nonRevertibleAccumulatedData.nullifiers.0',
      /not below the BN254 scalar field modulus/,
    );
    const recipient = rollupJson();
    recipient.data.forRollup.end.l2ToL1Msgs = [
      { message: { recipient: '0x1234', content: ZERO }, contractAddress: ZERO },
    ];
    refused(recipient, 'data.forRollup.end.l2ToL1Msgs.0.message.recipient', /40 hex digits/);
  });

  test('a proof that is not whole 32-byte words, too long, or with a word not below the modulus', () => {
    for (const proof of [`0x${'ab'.repeat(33)}`, '0x1', `0x${'0'.repeat(62)}`]) {
      const odd = publicJson();
      odd.chonkProof = proof;
      refused(odd, 'chonkProof', /whole number of 32-byte words/);
    }
    const long = publicJson();
    long.chonkProof = `0x${'00'.repeat(32 * (CHONK_PROOF_LENGTH + 1))}`;
    refused(long, 'chonkProof', /chonkProof has at most 1935 words/);
    const big = publicJson();
    big.chonkProof = `0x${'00'.repeat(32)}${toHex32(FR_MODULUS).slice(2)}`;
    refused(big, 'chonkProof', /chonkProof word 1 is not below the BN254 scalar field modulus/);
    const text = publicJson();
    text.chonkProof = `0x${'zz'.repeat(32)}`;
    refused(text, 'chonkProof', /expected 0x followed by hex digits/);
    // The largest proof there is decodes.
    const full = publicJson();
    full.chonkProof = `0x${toHex32(FR_MODULUS - 1n)
      .slice(2)
      .repeat(CHONK_PROOF_LENGTH)}`;
    assert.equal(decode(full).tx.chonkProof.length, PROOF_BYTES);
  });

  test('calldata over its budget, in values or in calls', () => {
    const values = publicJson();
    values.publicFunctionCalldata = [
      { values: hexes(8000), hash: ZERO },
      { values: hexes(MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS - 8000 + 1), hash: ZERO },
    ];
    refused(values, 'publicFunctionCalldata', /at most 16000 calldata values in all, got 16001/);
    values.publicFunctionCalldata[1].values.pop();
    assert.equal(z.safeDecode(txCodec, values).success, true);
    const calls = publicJson();
    calls.publicFunctionCalldata = new Array(MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX + 1).fill({
      values: [],
      hash: ZERO,
    });
    refused(calls, 'publicFunctionCalldata', /too many calldata entries: at most 65/);
  });

  test('unknown keys, at the top, in the data and in the anchor header', () => {
    const top = publicJson();
    top.proof = '0x';
    refused(top, '', /Unrecognized key: "proof"/);
    const call = publicJson();
    call.data.forPublic.revertibleAccumulatedData.publicCallRequests[0].selector = '0x1';
    refused(call, `${REV}.publicCallRequests.0`, /Unrecognized key: "selector"/);
    const header = publicJson();
    header.data.constants.anchorBlockHeader.globalVariables.gasFees.extra = '1';
    refused(header, 'data.constants.anchorBlockHeader.globalVariables.gasFees', /Unrecognized key: "extra"/);
  });

  test('integers out of their types: u32 gas, u64 expiration, u128 fees, the header', () => {
    const gas = publicJson();
    gas.data.gasUsed.l2Gas = 2 ** 32;
    refused(gas, 'data.gasUsed.l2Gas', /<=4294967295/);
    const gasText = publicJson();
    gasText.data.gasUsed.daGas = '5';
    refused(gasText, 'data.gasUsed.daGas', /expected number/);
    const expiry = publicJson();
    expiry.data.expirationTimestamp = (2n ** 64n).toString();
    refused(expiry, 'data.expirationTimestamp', /expected a u64: at most 18446744073709551615/);
    const fee = publicJson();
    fee.data.constants.txContext.gasSettings.maxFeesPerGas.feePerL2Gas = (2n ** 128n).toString();
    refused(fee, 'data.constants.txContext.gasSettings.maxFeesPerGas.feePerL2Gas', /expected a u128/);
    const block = publicJson();
    block.data.constants.anchorBlockHeader.globalVariables.blockNumber = 2 ** 32;
    refused(
      block,
      'data.constants.anchorBlockHeader',
      /globalVariables\.blockNumber must be an integer in \[0, 2\^32\)/,
    );
    const headerFee = publicJson();
    headerFee.data.constants.anchorBlockHeader.globalVariables.gasFees.feePerDaGas = (2n ** 128n).toString();
    refused(headerFee, 'data.constants.anchorBlockHeader', /globalVariables\.gasFees\.feePerDaGas/);
  });
});

describe('tx JSON: schema document', () => {
  test('rpc.discover can render it: described, strict, with both variants', () => {
    const schema = z.toJSONSchema(txCodec, { io: 'input', target: 'draft-7' }) as Json;
    assert.match(schema.description, /exactly one of forRollup \/ forPublic/);
    assert.equal(schema.additionalProperties, false);
    const data = schema.properties.data;
    assert.deepStrictEqual(Object.keys(data.properties), [
      'constants',
      'gasUsed',
      'feePayer',
      'expirationTimestamp',
      'forRollup',
      'forPublic',
    ]);
    const header = data.properties.constants.properties.anchorBlockHeader;
    assert.equal(header.properties.globalVariables.properties.gasFees.additionalProperties, false);
    assert.equal(
      data.properties.forRollup.properties.end.properties.noteHashes.maxItems,
      MAX_NOTE_HASHES_PER_TX,
    );
  });
});
