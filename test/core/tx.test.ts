// Transactions: the tx hash, the wire codec, the canonical serialization, the gas and fee
// arithmetic, and the dev/test tx builder.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { poseidon2Hash as refPoseidon2Hash } from '@zkpassport/poseidon2';
import fc from 'fast-check';
import { z } from 'zod';
import { FR_MODULUS, fromBytes32, toHex32 } from '../../src/core/field.js';
import { poseidon2HashWithSeparator } from '../../src/core/hash/poseidon2.js';
import { functionSelector } from '../../src/core/hash/selector.js';
import {
  calldataHash,
  computePrivateGasUsed,
  computeTxHash,
  contractClassLogHash,
  effectiveFeesPerGas,
  emptySideEffects,
  feeFor,
  type GasSettings,
  PRIVATE_TX_HASH_SEPARATOR,
  PUBLIC_CALLDATA_SEPARATOR,
  PUBLIC_TX_HASH_SEPARATOR,
  publicCallsOf,
  serializeTx,
  type Tx,
  type TxData,
  txDataToFields,
  txFeeLimit,
  txSize,
} from '../../src/core/tx.js';
import { buildTx, PUBLIC_CALL_GAS_ALLOWANCE, type TxSpec } from '../../src/core/tx-builder.js';
import { tx as txCodec } from '../../src/core/tx-codecs.js';

const RECIPIENT = `0x${'ab'.repeat(20)}`;

/** The fixed settings both specs share. */
const BASE = {
  feePayer: 0x1234n,
  anchorBlockHash: 0xabcdefn,
  chainId: 31337,
  version: 1,
  expirationTimestamp: 1_700_000_000n,
  maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 3n },
  maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
  protocolNullifier: 0x1000n,
} satisfies Partial<TxSpec>;

/** The fixed private-only tx of the known-answer vector. */
const katSpec = (): TxSpec => ({
  ...BASE,
  noteHashes: [0x11n],
  nullifiers: [0x22n],
  privateLogs: [[0x33n, 0x34n]],
  l2ToL1Msgs: [{ recipient: RECIPIENT, content: 0x44n, sender: 0x55n }],
});

/** A tx touching every part of the data: both parts, all side-effect kinds, setup/app/teardown calls. */
const richSpec = (): TxSpec => ({
  ...BASE,
  noteHashes: [0x11n, 0x12n],
  nullifiers: [0x22n],
  privateLogs: [[0x33n, 0x34n]],
  l2ToL1Msgs: [{ recipient: RECIPIENT, content: 0x44n, sender: 0x55n }],
  contractClassLogs: [{ contractAddress: 3n, fields: [7n, 8n, 9n] }],
  nonRevertible: { noteHashes: [0x66n], privateLogs: [[0x77n]] },
  publicCalls: [
    { phase: 'setup', contractAddress: 5n, signature: 'balance_of_public((Field))', args: [0x1234n] },
    { contractAddress: 5n, signature: 'check_balance(u128)', args: [1n] },
    { phase: 'teardown', contractAddress: 5n, signature: 'balance_of_public((Field))', args: [0x99n] },
  ],
});

const ZERO_FEES = { feePerDaGas: 0n, feePerL2Gas: 0n };

const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);

describe('computeTxHash', () => {
  test('known-answer vector: pins the hash definition (field order, counts, separator)', () => {
    const { tx, hash } = buildTx(katSpec());
    // The data fields, written out by hand: constants, fee payer, expiration, gas used, then each
    // part's lists with their counts (non-revertible first), then the teardown flag.
    const expectedFields = [
      0xabcdefn, // anchor block hash
      31337n,
      1n,
      736n, // gasLimits.daGas (= gas used: no public calls)
      488_900n, // gasLimits.l2Gas
      0n,
      0n, // teardown gas limits
      2n,
      3n, // max fees per gas
      1n,
      1n, // max priority fees per gas
      0x1234n, // fee payer
      1_700_000_000n,
      736n, // gas used: 96 + (1 + 2 + 1 + 16) * 32
      488_900n, // 440000 + 9200 + 2 * 16000 + 5200 + 2500
      // non-revertible: no note hashes, the protocol nullifier, no msgs/logs/class logs/calls
      0n,
      1n,
      0x1000n,
      0n,
      0n,
      0n,
      0n,
      // revertible
      1n,
      0x11n,
      1n,
      0x22n,
      1n,
      BigInt(RECIPIENT),
      0x44n,
      0x55n,
      1n,
      2n,
      0x33n,
      0x34n,
      ...new Array(14).fill(0n),
      0n,
      0n,
      // no teardown
      0n,
    ];
    assert.deepEqual(txDataToFields(tx.data), expectedFields);
    // Independent Poseidon2 (the separator is the first input).
    assert.equal(hash, refPoseidon2Hash([BigInt(PRIVATE_TX_HASH_SEPARATOR), ...expectedFields]));
    // The literal pins the hash definition: if this changes, every tx hash on the chain changes.
    assert.equal(hash, 12355911257925729073348980903310943480335239028312843922861737841548742039516n);
    assert.equal(computeTxHash(tx.data), hash);
  });

  test('private-only txs use PRIVATE_TX_HASH_SEPARATOR', () => {
    const { tx, hash } = buildTx(katSpec());
    assert.equal(hash, poseidon2HashWithSeparator(txDataToFields(tx.data), PRIVATE_TX_HASH_SEPARATOR));
    assert.notEqual(hash, poseidon2HashWithSeparator(txDataToFields(tx.data), PUBLIC_TX_HASH_SEPARATOR));
  });

  for (const phase of ['setup', 'app', 'teardown'] as const) {
    test(`txs with a ${phase} public call use PUBLIC_TX_HASH_SEPARATOR`, () => {
      const { tx, hash } = buildTx({
        ...katSpec(),
        publicCalls: [{ phase, contractAddress: 5n, signature: 'balance_of_public((Field))', args: [1n] }],
      });
      assert.equal(hash, poseidon2HashWithSeparator(txDataToFields(tx.data), PUBLIC_TX_HASH_SEPARATOR));
      assert.notEqual(hash, poseidon2HashWithSeparator(txDataToFields(tx.data), PRIVATE_TX_HASH_SEPARATOR));
    });
  }

  test('any change to any field of the data changes the hash', () => {
    const base = buildTx(richSpec()).tx.data;
    const baseHash = computeTxHash(base);
    type Mutation = (d: TxData, k: bigint) => void;
    const mutations: [string, Mutation][] = [
      ['anchorBlockHash', (d, k) => (d.constants.anchorBlockHash += k)],
      ['chainId', (d, k) => (d.constants.chainId += Number(k))],
      ['version', (d, k) => (d.constants.version += Number(k))],
      ['gasLimits.daGas', (d, k) => (d.constants.gasSettings.gasLimits.daGas += Number(k))],
      ['gasLimits.l2Gas', (d, k) => (d.constants.gasSettings.gasLimits.l2Gas += Number(k))],
      ['teardown daGas', (d, k) => (d.constants.gasSettings.teardownGasLimits.daGas += Number(k))],
      ['teardown l2Gas', (d, k) => (d.constants.gasSettings.teardownGasLimits.l2Gas += Number(k))],
      ['maxFee da', (d, k) => (d.constants.gasSettings.maxFeesPerGas.feePerDaGas += k)],
      ['maxFee l2', (d, k) => (d.constants.gasSettings.maxFeesPerGas.feePerL2Gas += k)],
      ['priority da', (d, k) => (d.constants.gasSettings.maxPriorityFeesPerGas.feePerDaGas += k)],
      ['priority l2', (d, k) => (d.constants.gasSettings.maxPriorityFeesPerGas.feePerL2Gas += k)],
      ['feePayer', (d, k) => (d.feePayer += k)],
      ['expiration', (d, k) => (d.expirationTimestamp += k)],
      ['gasUsed.daGas', (d, k) => (d.gasUsed.daGas += Number(k))],
      ['gasUsed.l2Gas', (d, k) => (d.gasUsed.l2Gas += Number(k))],
      ['a revertible note hash', (d, k) => (d.revertible.noteHashes[1]! += k)],
      ['a non-revertible note hash', (d, k) => (d.nonRevertible.noteHashes[0]! += k)],
      ['an extra note hash', (d, k) => d.revertible.noteHashes.push(k)],
      ['the protocol nullifier', (d, k) => (d.nonRevertible.nullifiers[0]! += k)],
      ['a revertible nullifier', (d, k) => (d.revertible.nullifiers[0]! += k)],
      [
        'a nullifier moved between parts',
        (d) => {
          d.nonRevertible.nullifiers.push(d.revertible.nullifiers.shift()!);
        },
      ],
      [
        'message recipient',
        (d, k) =>
          (d.revertible.l2ToL1Msgs[0]!.recipient =
            `0x${(BigInt(RECIPIENT) + k).toString(16).padStart(40, '0')}`),
      ],
      ['message content', (d, k) => (d.revertible.l2ToL1Msgs[0]!.content += k)],
      ['message sender', (d, k) => (d.revertible.l2ToL1Msgs[0]!.sender += k)],
      ['private log field', (d, k) => (d.revertible.privateLogs[0]!.fields[15]! += k)],
      ['private log emittedLength', (d, k) => (d.revertible.privateLogs[0]!.emittedLength += Number(k))],
      ['class log address', (d, k) => (d.revertible.contractClassLogsHashes[0]!.contractAddress += k)],
      ['class log hash', (d, k) => (d.revertible.contractClassLogsHashes[0]!.hash += k)],
      ['class log length', (d, k) => (d.revertible.contractClassLogsHashes[0]!.length += Number(k))],
      ['setup msgSender', (d, k) => (d.nonRevertible.publicCallRequests[0]!.msgSender += k)],
      ['setup contract', (d, k) => (d.nonRevertible.publicCallRequests[0]!.contractAddress += k)],
      ['app static flag', (d) => (d.revertible.publicCallRequests[0]!.isStaticCall = true)],
      ['app calldata hash', (d, k) => (d.revertible.publicCallRequests[0]!.calldataHash += k)],
      ['teardown calldata hash', (d, k) => (d.publicTeardownCallRequest!.calldataHash += k)],
      ['teardown removed', (d) => (d.publicTeardownCallRequest = null)],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...mutations), fc.bigInt({ min: 1n, max: 1000n }), ([name, mutate], k) => {
        const data = structuredClone(base);
        mutate(data, k);
        assert.notEqual(computeTxHash(data), baseHash, `mutating ${name} by ${k} left the hash unchanged`);
      }),
      { numRuns: 150 },
    );
    // Every mutation at least once.
    for (const [name, mutate] of mutations) {
      const data = structuredClone(base);
      mutate(data, 1n);
      assert.notEqual(computeTxHash(data), baseHash, name);
    }
  });

  test('calldataHash and contractClassLogHash are the separator/padded Poseidon2 hashes', () => {
    assert.equal(calldataHash([1n, 2n]), refPoseidon2Hash([BigInt(PUBLIC_CALLDATA_SEPARATOR), 1n, 2n]));
    const padded = [7n, 8n, ...new Array(3021).fill(0n)];
    assert.equal(contractClassLogHash([7n, 8n]), refPoseidon2Hash(padded));
    assert.equal(contractClassLogHash(padded), contractClassLogHash([7n, 8n]));
  });
});

describe('wire codec', () => {
  const wireOf = (tx: Tx): any => JSON.parse(JSON.stringify(z.encode(txCodec, tx as any)));

  test('encode then decode gives the same tx', () => {
    const { tx } = buildTx({ ...richSpec(), proof: Uint8Array.from([1, 2, 3, 0xff]) });
    const wire = wireOf(tx);
    assert.equal(typeof wire.data.feePayer, 'string');
    assert.equal(wire.data.feePayer, toHex32(0x1234n));
    assert.equal(wire.proof, '0x010203ff');
    assert.equal(wire.data.expirationTimestamp, '1700000000');
    const decoded = z.decode(txCodec, wire);
    assert.deepEqual(decoded, tx);
    assert.equal(computeTxHash(decoded.data), computeTxHash(tx.data));
  });

  test('encode then decode round-trips with the tx hash', () => {
    const { tx, hash } = buildTx(katSpec());
    const decoded = z.decode(txCodec, wireOf({ ...tx, txHash: hash } as any));
    assert.equal(decoded.txHash, hash);
    const { txHash: _, ...rest } = decoded;
    assert.deepEqual(rest, tx);
  });

  test('private log fields are zero-padded to 16 and class log fields to 3023 on decode', () => {
    const { tx } = buildTx(richSpec());
    const wire = wireOf(tx);
    wire.data.revertible.privateLogs[0].fields = ['0x33', '0x34'];
    wire.contractClassLogFields[0].fields = ['0x7', '0x8', '0x9'];
    const decoded = z.decode(txCodec, wire);
    const log = decoded.data.revertible.privateLogs[0]!;
    assert.equal(log.fields.length, 16);
    assert.deepEqual(log.fields, [0x33n, 0x34n, ...new Array(14).fill(0n)]);
    assert.equal(log.emittedLength, 2);
    assert.equal(decoded.contractClassLogFields[0]!.fields.length, 3023);
    assert.deepEqual(decoded.contractClassLogFields[0]!.fields.slice(0, 4), [7n, 8n, 9n, 0n]);
    assert.ok(decoded.contractClassLogFields[0]!.fields.slice(3).every((f) => f === 0n));
    // ...which is the same tx as the fully padded one.
    assert.deepEqual(decoded, tx);
  });

  const rejects = (wire: unknown, pattern: RegExp) => {
    const result = txCodec.safeDecode(wire as any);
    assert.equal(result.success, false, 'decoding should fail');
    assert.ok(result.error instanceof z.ZodError);
    assert.match(JSON.stringify(result.error.issues), pattern);
  };

  test('accepts exactly 64 note hashes in all across both parts', () => {
    const { tx } = buildTx({ ...katSpec(), noteHashes: [] });
    const wire = wireOf(tx);
    wire.data.nonRevertible.noteHashes = new Array(40).fill('0x1');
    wire.data.revertible.noteHashes = new Array(24).fill('0x2');
    assert.equal(txCodec.safeDecode(wire).success, true);
  });

  test('rejects more than 64 note hashes in all across both parts (each part within 64)', () => {
    const { tx } = buildTx({ ...katSpec(), noteHashes: [] });
    const wire = wireOf(tx);
    wire.data.nonRevertible.noteHashes = new Array(40).fill('0x1');
    wire.data.revertible.noteHashes = new Array(25).fill('0x2');
    rejects(wire, /at most 64 note hashes in all, got 65/);
  });

  test('rejects a tx without a non-revertible nullifier', () => {
    const wire = wireOf(buildTx(katSpec()).tx);
    wire.data.nonRevertible.nullifiers = [];
    rejects(wire, /at least one non-revertible nullifier/);
  });

  test('rejects a private log with emittedLength above 16 (16 accepted)', () => {
    const wire = wireOf(buildTx(katSpec()).tx);
    wire.data.revertible.privateLogs[0].emittedLength = 16;
    assert.equal(txCodec.safeDecode(wire).success, true);
    wire.data.revertible.privateLogs[0].emittedLength = 17;
    rejects(wire, /emittedLength is at most 16/);
  });

  test('rejects a private log with more than 16 fields', () => {
    const wire = wireOf(buildTx(katSpec()).tx);
    wire.data.revertible.privateLogs[0].fields = new Array(17).fill('0x1');
    rejects(wire, /a private log has at most 16 fields/);
  });

  test('rejects bad hex', () => {
    for (const bad of ['0xzz', '1234', '0x', `0x${'1'.repeat(65)}`]) {
      const wire = wireOf(buildTx(katSpec()).tx);
      wire.data.revertible.noteHashes = [bad];
      rejects(wire, /expected 0x followed by 1 to 64 hex digits/);
    }
    const wire = wireOf(buildTx(katSpec()).tx);
    wire.proof = '0x123';
    rejects(wire, /even number of hex digits/);
  });

  test('rejects a field element not below the modulus (modulus - 1 accepted)', () => {
    const wire = wireOf(buildTx(katSpec()).tx);
    wire.data.revertible.noteHashes = [toHex32(FR_MODULUS - 1n)];
    assert.equal(txCodec.safeDecode(wire).success, true);
    wire.data.revertible.noteHashes = [toHex32(FR_MODULUS)];
    rejects(wire, /not below the BN254 scalar field modulus/);
    const wire2 = wireOf(buildTx(katSpec()).tx);
    wire2.data.feePayer = `0x${'f'.repeat(64)}`;
    rejects(wire2, /not below the BN254 scalar field modulus/);
  });

  test('rejects unknown keys at every level (strict)', () => {
    const edits: ((w: any) => void)[] = [
      (w) => (w.extra = 1),
      (w) => (w.data.extra = 1),
      (w) => (w.data.constants.extra = 1),
      (w) => (w.data.constants.gasSettings.extra = 1),
      (w) => (w.data.constants.gasSettings.maxFeesPerGas.extra = '1'),
      (w) => (w.data.revertible.extra = []),
      (w) => (w.data.revertible.privateLogs[0].extra = 1),
      (w) => (w.data.revertible.l2ToL1Msgs[0].extra = 1),
    ];
    for (const edit of edits) {
      const wire = wireOf(buildTx(katSpec()).tx);
      edit(wire);
      rejects(wire, /unrecognized_keys/);
    }
  });
});

describe('serializeTx and txSize', () => {
  test('the size grows by exactly 32 bytes per extra note hash', () => {
    const sizes = [0, 1, 2, 5].map((n) =>
      txSize(buildTx({ ...katSpec(), noteHashes: Array.from({ length: n }, (_, i) => BigInt(i + 1)) }).tx),
    );
    assert.equal(sizes[1]! - sizes[0]!, 32);
    assert.equal(sizes[2]! - sizes[1]!, 32);
    assert.equal(sizes[3]! - sizes[0]!, 5 * 32);
  });

  test('proof bytes are counted one for one', () => {
    const a = buildTx({ ...katSpec(), proof: new Uint8Array(1) }).tx;
    const b = buildTx({ ...katSpec(), proof: new Uint8Array(1001) }).tx;
    assert.equal(txSize(b) - txSize(a), 1000);
  });

  test('the layout: length-prefixed data fields, proof, class-log fields and calldata', () => {
    const { tx } = buildTx({ ...katSpec(), proof: Uint8Array.from([9, 8, 7]) });
    const bytes = serializeTx(tx);
    const fields = txDataToFields(tx.data);
    assert.equal(bytes.readUInt32BE(0), fields.length);
    assert.equal(fromBytes32(bytes, 4), fields[0]);
    let at = 4 + 32 * fields.length;
    assert.equal(bytes.readUInt32BE(at), 3);
    assert.deepEqual([...bytes.subarray(at + 4, at + 7)], [9, 8, 7]);
    at += 7;
    assert.equal(bytes.readUInt32BE(at), 0); // no class logs
    assert.equal(bytes.readUInt32BE(at + 4), 0); // no calldata
    assert.equal(bytes.length, at + 8);
    assert.equal(txSize(tx), bytes.length);
  });

  test('txSize is the length of serializeTx for txs of every shape', () => {
    const specs = [
      katSpec(),
      { ...katSpec(), proof: new Uint8Array(777) },
      { ...katSpec(), noteHashes: Array.from({ length: 9 }, (_, i) => BigInt(i + 1)) },
      { ...katSpec(), publicCalls: [{ contractAddress: 5n, selector: 1, args: [1n, 2n, 3n] }] },
      {
        ...katSpec(),
        publicCalls: [
          { contractAddress: 5n, selector: 1, args: [] },
          { contractAddress: 6n, selector: 2, args: Array.from({ length: 40 }, (_, i) => BigInt(i)) },
        ],
        contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }],
      },
    ];
    for (const spec of specs) {
      const { tx } = buildTx(spec);
      assert.equal(txSize(tx), serializeTx(tx).length);
    }
  });

  test('class-log fields and calldata (values and hash) are counted', () => {
    const base = buildTx(katSpec()).tx;
    const withCall = buildTx({
      ...katSpec(),
      publicCalls: [{ contractAddress: 5n, selector: 1, args: [1n, 2n] }],
    }).tx;
    // data gains one call request (4 fields); calldata: count 4 + (values: 4 + 3*32) + hash 32.
    assert.equal(txSize(withCall) - txSize(base), 4 * 32 + (4 + 3 * 32 + 32));
    const withLog = buildTx({ ...katSpec(), contractClassLogs: [{ contractAddress: 3n, fields: [1n] }] }).tx;
    // data gains one class log hash (3 fields); the log's fields: 4 + 3023 * 32.
    assert.equal(txSize(withLog) - txSize(base), 3 * 32 + 4 + 3023 * 32);
  });
});

describe('gas and fees', () => {
  const data = (withPublicCall: boolean): TxData => ({
    constants: {
      anchorBlockHash: 1n,
      chainId: 1,
      version: 1,
      gasSettings: {
        gasLimits: { daGas: 0, l2Gas: 0 },
        teardownGasLimits: { daGas: 0, l2Gas: 0 },
        maxFeesPerGas: ZERO_FEES,
        maxPriorityFeesPerGas: ZERO_FEES,
      },
    },
    feePayer: 1n,
    expirationTimestamp: 0n,
    gasUsed: { daGas: 0, l2Gas: 0 },
    nonRevertible: {
      ...emptySideEffects(),
      noteHashes: [1n],
      nullifiers: [2n, 3n],
      privateLogs: [{ fields: new Array(16).fill(1n), emittedLength: 16 }],
    },
    revertible: {
      ...emptySideEffects(),
      noteHashes: [4n],
      nullifiers: [5n],
      l2ToL1Msgs: [{ recipient: RECIPIENT, content: 1n, sender: 1n }],
      privateLogs: [{ fields: new Array(16).fill(0n), emittedLength: 1 }],
      contractClassLogsHashes: [{ contractAddress: 3n, hash: 9n, length: 5 }],
      publicCallRequests: withPublicCall
        ? [{ msgSender: 1n, contractAddress: 5n, isStaticCall: false, calldataHash: 1n }]
        : [],
    },
    publicTeardownCallRequest: null,
  });

  test('computePrivateGasUsed of a private-only tx (hand computation)', () => {
    // 2 note hashes, 3 nullifiers, 1 message, 2 private logs, 1 class log of 5 fields.
    // L2: 440000 + 2*9200 + 3*16000 + 5200 + 2*2500 + 73000 = 589600.
    // DA fields: 2 + 3 + 1 + 2*16 + (5 + 1) = 44; DA gas: 96 + 44*32 = 1504.
    assert.deepEqual(computePrivateGasUsed(data(false)), { daGas: 1504, l2Gas: 589_600 });
  });

  test('computePrivateGasUsed with public calls uses the public overhead (+100000 L2)', () => {
    assert.deepEqual(computePrivateGasUsed(data(true)), { daGas: 1504, l2Gas: 689_600 });
    const teardownOnly = data(false);
    teardownOnly.publicTeardownCallRequest = {
      msgSender: 1n,
      contractAddress: 5n,
      isStaticCall: false,
      calldataHash: 1n,
    };
    assert.deepEqual(computePrivateGasUsed(teardownOnly), { daGas: 1504, l2Gas: 689_600 });
  });

  test('computePrivateGasUsed of the minimal tx (one nullifier)', () => {
    const { tx } = buildTx({ ...katSpec(), noteHashes: [], nullifiers: [], privateLogs: [], l2ToL1Msgs: [] });
    assert.deepEqual(computePrivateGasUsed(tx.data), { daGas: 96 + 32, l2Gas: 440_000 + 16_000 });
  });

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

describe('buildTx', () => {
  test('calldata hashes match the requests; setup, app and teardown calldata in that order', () => {
    const sel = (s: string) => BigInt(functionSelector(s));
    const { tx } = buildTx({
      ...katSpec(),
      publicCalls: [
        { contractAddress: 10n, selector: 0xa1, args: [1n] },
        { phase: 'teardown', contractAddress: 11n, selector: 0xbb, args: [2n] },
        { phase: 'setup', contractAddress: 12n, signature: 'balance_of_public((Field))', args: [3n] },
        { phase: 'app', contractAddress: 13n, selector: 0xa2, msgSender: 77n, isStaticCall: true },
        { phase: 'setup', contractAddress: 14n, selector: 0x52, args: [4n, 5n] },
      ],
    });
    assert.deepEqual(
      tx.publicFunctionCalldata.map((c) => c.values),
      [[sel('balance_of_public((Field))'), 3n], [0x52n, 4n, 5n], [0xa1n, 1n], [0xa2n], [0xbbn, 2n]],
    );
    for (const c of tx.publicFunctionCalldata) assert.equal(c.hash, calldataHash(c.values));
    const calls = publicCallsOf(tx.data);
    assert.deepEqual(
      calls.map((c) => c.calldataHash),
      tx.publicFunctionCalldata.map((c) => c.hash),
    );
    assert.deepEqual(
      calls.map((c) => c.contractAddress),
      [12n, 14n, 10n, 13n, 11n],
    );
    assert.deepEqual(
      tx.data.nonRevertible.publicCallRequests.map((c) => c.contractAddress),
      [12n, 14n],
    );
    assert.deepEqual(
      tx.data.revertible.publicCallRequests.map((c) => c.contractAddress),
      [10n, 13n],
    );
    assert.equal(tx.data.publicTeardownCallRequest?.contractAddress, 11n);
    // msgSender defaults to the fee payer; isStaticCall to false.
    assert.deepEqual(
      calls.map((c) => [c.msgSender, c.isStaticCall]),
      [
        [0x1234n, false],
        [0x1234n, false],
        [0x1234n, false],
        [77n, true],
        [0x1234n, false],
      ],
    );
  });

  test('gasUsed is computePrivateGasUsed; default gas limits cover it plus per-call allowances and teardown', () => {
    const { tx } = buildTx(richSpec());
    const { gasSettings } = tx.data.constants;
    assert.deepEqual(tx.data.gasUsed, computePrivateGasUsed(tx.data));
    assert.deepEqual(gasSettings.teardownGasLimits, PUBLIC_CALL_GAS_ALLOWANCE);
    // Two non-teardown calls.
    assert.deepEqual(gasSettings.gasLimits, {
      daGas: tx.data.gasUsed.daGas + 2 * PUBLIC_CALL_GAS_ALLOWANCE.daGas + PUBLIC_CALL_GAS_ALLOWANCE.daGas,
      l2Gas: tx.data.gasUsed.l2Gas + 2 * PUBLIC_CALL_GAS_ALLOWANCE.l2Gas + PUBLIC_CALL_GAS_ALLOWANCE.l2Gas,
    });
    assert.ok(gasSettings.gasLimits.l2Gas >= tx.data.gasUsed.l2Gas + gasSettings.teardownGasLimits.l2Gas);
    assert.ok(gasSettings.gasLimits.daGas >= tx.data.gasUsed.daGas + gasSettings.teardownGasLimits.daGas);
  });

  test('gasUsed stays consistent for random side effects (property)', () => {
    const frs = (max: number) => fc.array(fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }), { maxLength: max });
    fc.assert(
      fc.property(
        frs(5),
        frs(5),
        fc.array(frs(16), { maxLength: 3 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        (noteHashes, nullifiers, privateLogs, teardown, appCalls) => {
          const { tx, hash } = buildTx({
            ...katSpec(),
            noteHashes,
            nullifiers,
            privateLogs,
            publicCalls: [
              ...Array.from({ length: appCalls }, (_, i) => ({ contractAddress: 5n, selector: i })),
              ...(teardown ? [{ phase: 'teardown' as const, contractAddress: 5n, selector: 9 }] : []),
            ],
          });
          assert.equal(hash, computeTxHash(tx.data));
          assert.deepEqual(tx.data.gasUsed, computePrivateGasUsed(tx.data));
          const g = tx.data.constants.gasSettings;
          assert.ok(g.gasLimits.l2Gas >= tx.data.gasUsed.l2Gas + g.teardownGasLimits.l2Gas);
          assert.ok(g.gasLimits.daGas >= tx.data.gasUsed.daGas + g.teardownGasLimits.daGas);
          assert.equal(tx.publicFunctionCalldata.length, appCalls + (teardown ? 1 : 0));
        },
      ),
      { numRuns: 40 },
    );
  });

  test('explicit gas limits and teardown limits are kept', () => {
    const { tx } = buildTx({
      ...katSpec(),
      gasLimits: { daGas: 5000, l2Gas: 900_000 },
      teardownGasLimits: { daGas: 10, l2Gas: 20 },
    });
    assert.deepEqual(tx.data.constants.gasSettings.gasLimits, { daGas: 5000, l2Gas: 900_000 });
    assert.deepEqual(tx.data.constants.gasSettings.teardownGasLimits, { daGas: 10, l2Gas: 20 });
  });

  test('the protocol nullifier comes first among the non-revertible nullifiers; a random one by default', () => {
    const { tx } = buildTx({ ...katSpec(), nonRevertible: { nullifiers: [0x5n] } });
    assert.deepEqual(tx.data.nonRevertible.nullifiers, [0x1000n, 0x5n]);
    assert.deepEqual(tx.data.revertible.nullifiers, [0x22n]);
    const { protocolNullifier: _, ...spec } = katSpec();
    const a = buildTx(spec);
    const b = buildTx(spec);
    assert.notEqual(a.tx.data.nonRevertible.nullifiers[0], b.tx.data.nonRevertible.nullifiers[0]);
    assert.notEqual(a.hash, b.hash);
    assert.ok(a.tx.data.nonRevertible.nullifiers[0]! < FR_MODULUS);
  });

  test('private logs are padded to 16 with their emitted length; recipients lowercased; class logs hashed', () => {
    const { tx } = buildTx({
      ...katSpec(),
      l2ToL1Msgs: [{ recipient: `0x${'AB'.repeat(20)}`, content: 1n, sender: 2n }],
      contractClassLogs: [{ contractAddress: 3n, fields: [7n, 8n] }],
    });
    assert.deepEqual(tx.data.revertible.privateLogs, [
      { fields: [0x33n, 0x34n, ...new Array(14).fill(0n)], emittedLength: 2 },
    ]);
    assert.equal(tx.data.revertible.l2ToL1Msgs[0]!.recipient, RECIPIENT);
    assert.deepEqual(tx.data.revertible.contractClassLogsHashes, [
      { contractAddress: 3n, hash: contractClassLogHash([7n, 8n]), length: 2 },
    ]);
    assert.equal(tx.contractClassLogFields.length, 1);
    assert.equal(tx.contractClassLogFields[0]!.fields.length, 3023);
    assert.deepEqual(tx.contractClassLogFields[0]!.fields.slice(0, 3), [7n, 8n, 0n]);
    assert.deepEqual(tx.proof, Uint8Array.of(1));
  });

  test('refuses oversized logs, two teardowns and a call without selector', () => {
    assert.throws(() => buildTx({ ...katSpec(), privateLogs: [new Array(17).fill(1n)] }), RangeError);
    assert.throws(
      () =>
        buildTx({
          ...katSpec(),
          contractClassLogs: [{ contractAddress: 3n, fields: new Array(3024).fill(1n) }],
        }),
      RangeError,
    );
    assert.throws(
      () =>
        buildTx({
          ...katSpec(),
          publicCalls: [
            { phase: 'teardown', contractAddress: 5n, selector: 1 },
            { phase: 'teardown', contractAddress: 5n, selector: 2 },
          ],
        }),
      /at most one teardown/,
    );
    assert.throws(() => buildTx({ ...katSpec(), publicCalls: [{ contractAddress: 5n }] }), TypeError);
  });
});
