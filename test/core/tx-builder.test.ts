// The dev/test tx builder (src/core/tx-builder.ts): the kernel output it lays out (forRollup for a
// private-only tx, forPublic otherwise), the hash it states, the binary form its txs take, its
// calls, gas, defaults and refusals, and its dev proof against the dev verifier.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BlockHeader, blockHeaderHash, emptyBlockHeader } from '../../src/core/block-header.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { functionSelector } from '../../src/core/hash/selector.js';
import {
  CHONK_PROOF_LENGTH,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PROTOCOL_CONTRACTS_HASH,
  VK_TREE_ROOT,
} from '../../src/core/kernel/constants.js';
import { isForPublic } from '../../src/core/kernel/public-inputs.js';
import { emptyPublicCallRequest } from '../../src/core/kernel/side-effects.js';
import { decodeTx, encodeTx } from '../../src/core/kernel/tx-codec.js';
import { computeTxHash } from '../../src/core/kernel/tx-hash.js';
import { calldataHash, contractClassLogHash } from '../../src/core/tx.js';
import {
  buildTx,
  devProof,
  PUBLIC_CALL_GAS_ALLOWANCE,
  type PublicCallSpec,
  type TxSpec,
} from '../../src/core/tx-builder.js';
import {
  computePrivateGasUsed,
  emptyChonkProof,
  publicCallsOf,
  txView,
  withoutProof,
} from '../../src/core/tx-view.js';
import { DEV_PROOF_VERIFIER } from '../../src/mempool/validator.js';

const RECIPIENT = `0x${'ab'.repeat(20)}`;

function anchorHeader(): BlockHeader {
  const h = emptyBlockHeader();
  h.lastArchive = { root: 0x1234n, nextAvailableLeafIndex: 7 };
  h.globalVariables.blockNumber = 7;
  h.globalVariables.timestamp = 1_700_000_000n;
  return h;
}

/** A private-only tx with one of each side effect but class logs. */
const privateSpec = (): TxSpec => ({
  feePayer: 0x1234n,
  anchorBlockHeader: anchorHeader(),
  chainId: 31337,
  version: 1,
  expirationTimestamp: 1_700_000_000n,
  maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 3n },
  maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
  protocolNullifier: 0x1000n,
  noteHashes: [0x11n],
  nullifiers: [0x22n],
  privateLogs: [[0x33n, 0x34n]],
  l2ToL1Msgs: [{ recipient: RECIPIENT, content: 0x44n, sender: 0x55n }],
});

/** Both parts, every kind of side effect, setup/app/teardown calls. */
const richSpec = (): TxSpec => ({
  ...privateSpec(),
  noteHashes: [0x11n, 0x12n],
  contractClassLogs: [{ contractAddress: 3n, fields: [7n, 8n, 9n] }],
  nonRevertible: { noteHashes: [0x66n], privateLogs: [[0x77n]] },
  publicCalls: [
    { phase: 'setup', contractAddress: 5n, signature: 'balance_of_public((Field))', args: [0x1234n] },
    { contractAddress: 5n, signature: 'check_balance(u128)', args: [1n] },
    { phase: 'teardown', contractAddress: 5n, signature: 'balance_of_public((Field))', args: [0x99n] },
  ],
});

const roundTrip = (spec: TxSpec) => {
  const { tx, hash } = buildTx(spec);
  assert.equal(hash, computeTxHash(tx.data));
  const decoded = decodeTx(encodeTx({ txHash: hash, ...tx }));
  assert.deepEqual(decoded, { txHash: hash, ...tx });
};

describe('buildTx: the kernel output', () => {
  test('a private-only tx is built forRollup, its side effects in one list, non-revertible ones first', () => {
    const { tx } = buildTx({ ...privateSpec(), nonRevertible: { nullifiers: [0x5n], noteHashes: [0x6n] } });
    assert.equal(isForPublic(tx.data), false);
    const end = tx.data.forRollup!.end;
    assert.deepEqual(end.nullifiers.slice(0, 4), [0x1000n, 0x5n, 0x22n, 0n]);
    assert.deepEqual(end.noteHashes.slice(0, 3), [0x6n, 0x11n, 0n]);
    // Fixed width, padding empty.
    assert.equal(end.noteHashes.length, MAX_NOTE_HASHES_PER_TX);
    assert.ok(end.noteHashes.slice(2).every((h) => h === 0n));
    assert.deepEqual(end.l2ToL1Msgs[0], {
      message: { recipient: RECIPIENT, content: 0x44n },
      contractAddress: 0x55n,
    });
    assert.deepEqual(end.privateLogs[0], {
      fields: [0x33n, 0x34n, ...new Array(14).fill(0n)],
      emittedLength: 2,
    });
    assert.equal(end.privateLogs[1]!.emittedLength, 0);
    assert.deepEqual(tx.publicFunctionCalldata, []);
    const view = txView(tx);
    assert.deepEqual(view.nonRevertible.nullifiers, [0x1000n, 0x5n, 0x22n]);
    assert.deepEqual(view.revertible.nullifiers, []);
  });

  for (const phase of ['setup', 'app', 'teardown'] as const) {
    test(`a tx with a ${phase} call is built forPublic`, () => {
      const { tx } = buildTx({
        ...privateSpec(),
        publicCalls: [{ phase, contractAddress: 5n, signature: 'balance_of_public((Field))', args: [1n] }],
      });
      assert.equal(isForPublic(tx.data), true);
      const p = tx.data.forPublic!;
      const request = {
        msgSender: 0x1234n,
        contractAddress: 5n,
        isStaticCall: false,
        calldataHash: tx.publicFunctionCalldata[0]!.hash,
      };
      assert.deepEqual(
        p.nonRevertibleAccumulatedData.publicCallRequests[0],
        phase === 'setup' ? request : emptyPublicCallRequest(),
      );
      assert.deepEqual(
        p.revertibleAccumulatedData.publicCallRequests[0],
        phase === 'app' ? request : emptyPublicCallRequest(),
      );
      assert.deepEqual(
        p.publicTeardownCallRequest,
        phase === 'teardown' ? request : emptyPublicCallRequest(),
      );
      // The protocol nullifier is non-revertible, the caller's side effects revertible.
      assert.deepEqual(p.nonRevertibleAccumulatedData.nullifiers.slice(0, 2), [0x1000n, 0n]);
      assert.deepEqual(p.revertibleAccumulatedData.nullifiers.slice(0, 2), [0x22n, 0n]);
      assert.deepEqual(p.revertibleAccumulatedData.noteHashes.slice(0, 2), [0x11n, 0n]);
    });
  }

  test('the constants: the anchor header as given, chain id and version as fields, 4.1.2 roots by default', () => {
    const { tx } = buildTx(privateSpec());
    const { constants } = tx.data;
    assert.deepEqual(constants.anchorBlockHeader, anchorHeader());
    assert.equal(txView(tx).anchorBlockHash, blockHeaderHash(anchorHeader()));
    assert.equal(constants.txContext.chainId, 31337n);
    assert.equal(constants.txContext.version, 1n);
    assert.equal(constants.vkTreeRoot, VK_TREE_ROOT);
    assert.equal(constants.protocolContractsHash, PROTOCOL_CONTRACTS_HASH);
    assert.equal(tx.data.feePayer, 0x1234n);
    assert.equal(tx.data.expirationTimestamp, 1_700_000_000n);
    const other = buildTx({ ...privateSpec(), vkTreeRoot: 5n, protocolContractsHash: 6n }).tx.data.constants;
    assert.equal(other.vkTreeRoot, 5n);
    assert.equal(other.protocolContractsHash, 6n);
  });
});

describe('buildTx: hash and binary form', () => {
  test('the stated hash is computeTxHash of the data, and the tx round-trips through encodeTx/decodeTx', () => {
    roundTrip(privateSpec());
    roundTrip(richSpec());
    roundTrip({ ...privateSpec(), publicCalls: [{ phase: 'teardown', contractAddress: 5n, selector: 1 }] });
  });

  test('for random side effects and calls (property)', () => {
    // Side effects as a kernel emits them: never a zero note hash or nullifier, never a log that
    // emitted nothing (those would be empty slots, absent from the tx as the node reads it).
    const fr = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });
    const nonZero = fc.bigInt({ min: 1n, max: FR_MODULUS - 1n });
    const frs = (max: number) => fc.array(fr, { maxLength: max });
    const nonZeros = (max: number) => fc.array(nonZero, { maxLength: max });
    const callArb: fc.Arbitrary<PublicCallSpec> = fc.record({
      phase: fc.constantFrom('setup' as const, 'app' as const),
      contractAddress: fr,
      selector: fc.integer({ min: 0, max: 0xffff_ffff }),
      args: frs(6),
      isStaticCall: fc.boolean(),
    });
    fc.assert(
      fc.property(
        nonZeros(5),
        nonZeros(5),
        fc.array(fc.array(fr, { minLength: 1, maxLength: 16 }), { maxLength: 3 }),
        fc.array(callArb, { maxLength: 4 }),
        fc.boolean(),
        frs(3),
        (noteHashes, nullifiers, privateLogs, publicCalls, teardown, classLog) => {
          const spec: TxSpec = {
            ...privateSpec(),
            protocolNullifier: undefined,
            noteHashes,
            nullifiers,
            privateLogs,
            contractClassLogs: classLog.length > 0 ? [{ contractAddress: 9n, fields: classLog }] : [],
            publicCalls: [
              ...publicCalls,
              ...(teardown ? [{ phase: 'teardown' as const, contractAddress: 5n, selector: 9 }] : []),
            ],
          };
          roundTrip(spec);
          const { tx } = buildTx(spec);
          assert.equal(isForPublic(tx.data), publicCalls.length > 0 || teardown);
          assert.deepEqual(
            tx.data.gasUsed,
            computePrivateGasUsed([txView(tx).nonRevertible, txView(tx).revertible], isForPublic(tx.data)),
          );
          const g = tx.data.constants.txContext.gasSettings;
          assert.ok(g.gasLimits.l2Gas >= tx.data.gasUsed.l2Gas + g.teardownGasLimits.l2Gas);
          assert.ok(g.gasLimits.daGas >= tx.data.gasUsed.daGas + g.teardownGasLimits.daGas);
          assert.equal(tx.publicFunctionCalldata.length, publicCalls.length + (teardown ? 1 : 0));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('buildTx: calls, gas and side effects', () => {
  test('calldata hashes match the requests; setup, app and teardown calldata in that order', () => {
    const sel = (s: string) => BigInt(functionSelector(s));
    const { tx } = buildTx({
      ...privateSpec(),
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
    const calls = publicCallsOf(tx);
    assert.deepEqual(
      calls.map((c) => c.calldataHash),
      tx.publicFunctionCalldata.map((c) => c.hash),
    );
    assert.deepEqual(
      calls.map((c) => c.contractAddress),
      [12n, 14n, 10n, 13n, 11n],
    );
    const view = txView(tx);
    assert.deepEqual(
      view.nonRevertible.publicCallRequests.map((c) => c.contractAddress),
      [12n, 14n],
    );
    assert.deepEqual(
      view.revertible.publicCallRequests.map((c) => c.contractAddress),
      [10n, 13n],
    );
    assert.equal(view.publicTeardownCallRequest?.contractAddress, 11n);
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
    const view = txView(tx);
    const { gasSettings } = tx.data.constants.txContext;
    assert.deepEqual(tx.data.gasUsed, computePrivateGasUsed([view.nonRevertible, view.revertible], true));
    // Hand computation: 2 + 1 note hashes, 2 nullifiers, 1 message, 2 private logs, a class log of 3.
    // L2: 540000 + 3*9200 + 2*16000 + 5200 + 2*2500 + 73000 = 682800.
    // DA fields: 3 + 2 + 1 + 2*16 + (3 + 1) = 42; DA gas: 96 + 42*32 = 1440.
    assert.deepEqual(tx.data.gasUsed, { daGas: 1440, l2Gas: 682_800 });
    assert.deepEqual(gasSettings.teardownGasLimits, PUBLIC_CALL_GAS_ALLOWANCE);
    // Two calls besides the teardown.
    assert.deepEqual(gasSettings.gasLimits, {
      daGas: tx.data.gasUsed.daGas + 3 * PUBLIC_CALL_GAS_ALLOWANCE.daGas,
      l2Gas: tx.data.gasUsed.l2Gas + 3 * PUBLIC_CALL_GAS_ALLOWANCE.l2Gas,
    });
    // A private-only tx: the private overhead and limits equal to what it used.
    const priv = buildTx(privateSpec()).tx;
    // L2: 440000 + 9200 + 2*16000 + 5200 + 2500 = 488900; DA: 96 + (1 + 2 + 1 + 16)*32 = 736.
    assert.deepEqual(priv.data.gasUsed, { daGas: 736, l2Gas: 488_900 });
    assert.deepEqual(priv.data.constants.txContext.gasSettings.gasLimits, priv.data.gasUsed);
    assert.deepEqual(priv.data.constants.txContext.gasSettings.teardownGasLimits, { daGas: 0, l2Gas: 0 });
  });

  test('explicit gas limits, teardown limits and priority fees are kept', () => {
    const { tx } = buildTx({
      ...privateSpec(),
      gasLimits: { daGas: 5000, l2Gas: 900_000 },
      teardownGasLimits: { daGas: 10, l2Gas: 20 },
      maxPriorityFeesPerGas: { feePerDaGas: 4n, feePerL2Gas: 5n },
    });
    const g = tx.data.constants.txContext.gasSettings;
    assert.deepEqual(g.gasLimits, { daGas: 5000, l2Gas: 900_000 });
    assert.deepEqual(g.teardownGasLimits, { daGas: 10, l2Gas: 20 });
    assert.deepEqual(g.maxFeesPerGas, { feePerDaGas: 2n, feePerL2Gas: 3n });
    assert.deepEqual(g.maxPriorityFeesPerGas, { feePerDaGas: 4n, feePerL2Gas: 5n });
  });

  test('the protocol nullifier comes first among the non-revertible nullifiers; a random one by default', () => {
    const { tx } = buildTx({
      ...privateSpec(),
      nonRevertible: { nullifiers: [0x5n] },
      publicCalls: [{ contractAddress: 5n, selector: 1 }],
    });
    assert.deepEqual(txView(tx).nonRevertible.nullifiers, [0x1000n, 0x5n]);
    assert.deepEqual(txView(tx).revertible.nullifiers, [0x22n]);
    const { protocolNullifier: _, ...spec } = privateSpec();
    const a = buildTx(spec);
    const b = buildTx(spec);
    const first = (t: typeof a.tx) => t.data.forRollup!.end.nullifiers[0]!;
    assert.notEqual(first(a.tx), first(b.tx));
    assert.notEqual(first(a.tx), 0n);
    assert.notEqual(a.hash, b.hash);
    assert.ok(first(a.tx) < FR_MODULUS);
  });

  test('private logs padded to 16 with their emitted length; recipients lowercased; class logs hashed', () => {
    const { tx } = buildTx({
      ...privateSpec(),
      l2ToL1Msgs: [{ recipient: `0x${'AB'.repeat(20)}`, content: 1n, sender: 2n }],
      contractClassLogs: [{ contractAddress: 3n, fields: [7n, 8n] }],
    });
    const view = txView(tx);
    assert.deepEqual(view.nonRevertible.privateLogs, [
      { fields: [0x33n, 0x34n, ...new Array(14).fill(0n)], emittedLength: 2 },
    ]);
    assert.equal(tx.data.forRollup!.end.l2ToL1Msgs[0]!.message.recipient, RECIPIENT);
    assert.deepEqual(view.nonRevertible.contractClassLogsHashes, [
      { contractAddress: 3n, hash: contractClassLogHash([7n, 8n]), length: 2 },
    ]);
    assert.equal(tx.contractClassLogFields.length, 1);
    assert.equal(tx.contractClassLogFields[0]!.fields.length, 3023);
    assert.deepEqual(tx.contractClassLogFields[0]!.fields.slice(0, 3), [7n, 8n, 0n]);
  });
});

describe('buildTx: refusals', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => BigInt(i + 1));

  test('a part with more items than the kernel output has slots is a RangeError; the full part is built', () => {
    const cases: [string, (n: number) => Partial<TxSpec>, number][] = [
      ['note hashes', (n) => ({ noteHashes: many(n) }), MAX_NOTE_HASHES_PER_TX],
      // The protocol nullifier takes a slot.
      [
        'nullifiers',
        (n) => ({ nullifiers: [], nonRevertible: { nullifiers: many(n - 1) } }),
        MAX_NULLIFIERS_PER_TX,
      ],
      [
        'L2-to-L1 messages',
        (n) => ({ l2ToL1Msgs: many(n).map((content) => ({ recipient: RECIPIENT, content, sender: 1n })) }),
        MAX_L2_TO_L1_MSGS_PER_TX,
      ],
      ['private logs', (n) => ({ privateLogs: many(n).map((f) => [f]) }), MAX_PRIVATE_LOGS_PER_TX],
      [
        'contract class logs',
        (n) => ({ contractClassLogs: many(n).map((f) => ({ contractAddress: 3n, fields: [f] })) }),
        1,
      ],
      [
        'public calls',
        (n) => ({ publicCalls: many(n).map((a) => ({ contractAddress: a, selector: 1 })) }),
        MAX_ENQUEUED_CALLS_PER_TX,
      ],
    ];
    for (const [what, extra, max] of cases) {
      assert.doesNotThrow(() => buildTx({ ...privateSpec(), ...extra(max) }), what);
      assert.throws(() => buildTx({ ...privateSpec(), ...extra(max + 1) }), RangeError, what);
    }
  });

  test('a private-only tx has one list: both parts together must fit', () => {
    const spec = { ...privateSpec(), noteHashes: many(40), nonRevertible: { noteHashes: many(25) } };
    assert.throws(() => buildTx(spec), RangeError);
    assert.doesNotThrow(() => buildTx({ ...spec, nonRevertible: { noteHashes: many(24) } }));
  });

  test("refuses a proof of any length but the ChonkProof's", () => {
    assert.throws(() => buildTx({ ...privateSpec(), proof: Uint8Array.of(1) }), /1935 fields/);
    assert.doesNotThrow(() => buildTx({ ...privateSpec(), proof: devProof() }));
  });

  test('refuses what would be an empty slot: a zero note hash or nullifier, a log of no fields', () => {
    assert.throws(
      () => buildTx({ ...privateSpec(), noteHashes: [5n, 0n] }),
      /note hash of a tx cannot be zero/,
    );
    assert.throws(() => buildTx({ ...privateSpec(), nullifiers: [0n] }), /nullifier of a tx cannot be zero/);
    assert.throws(
      () => buildTx({ ...privateSpec(), nonRevertible: { nullifiers: [0n] } }),
      /nullifier of a tx cannot be zero/,
    );
    assert.throws(() => buildTx({ ...privateSpec(), privateLogs: [[]] }), /at least one field/);
    assert.doesNotThrow(() => buildTx({ ...privateSpec(), privateLogs: [[0n]], noteHashes: [5n] }));
  });

  test('refuses oversized logs, two teardowns and a call without selector', () => {
    assert.throws(() => buildTx({ ...privateSpec(), privateLogs: [new Array(17).fill(1n)] }), RangeError);
    assert.doesNotThrow(() => buildTx({ ...privateSpec(), privateLogs: [new Array(16).fill(1n)] }));
    assert.throws(
      () =>
        buildTx({
          ...privateSpec(),
          contractClassLogs: [{ contractAddress: 3n, fields: new Array(3024).fill(1n) }],
        }),
      RangeError,
    );
    assert.throws(
      () =>
        buildTx({
          ...privateSpec(),
          publicCalls: [
            { phase: 'teardown', contractAddress: 5n, selector: 1 },
            { phase: 'teardown', contractAddress: 5n, selector: 2 },
          ],
        }),
      /at most one teardown/,
    );
    assert.throws(() => buildTx({ ...privateSpec(), publicCalls: [{ contractAddress: 5n }] }), TypeError);
  });
});

describe('devProof', () => {
  test('is CHONK_PROOF_LENGTH words, the first 1; the default proof of a built tx', () => {
    const proof = devProof();
    assert.equal(proof.length, CHONK_PROOF_LENGTH * 32);
    assert.equal(proof[31], 1);
    assert.ok(proof.every((b, i) => i === 31 || b === 0));
    assert.deepEqual(buildTx(privateSpec()).tx.chonkProof, proof);
    const given = devProof();
    given[63] = 2;
    assert.equal(buildTx({ ...privateSpec(), proof: given }).tx.chonkProof, given);
  });

  test('DEV_PROOF_VERIFIER accepts devProof and refuses emptyChonkProof', () => {
    const { tx } = buildTx(privateSpec());
    assert.equal(DEV_PROOF_VERIFIER.verify(tx), true);
    assert.equal(DEV_PROOF_VERIFIER.verify({ ...tx, chonkProof: emptyChonkProof() }), false);
    assert.equal(DEV_PROOF_VERIFIER.verify(withoutProof(tx)), false);
    assert.equal(DEV_PROOF_VERIFIER.realProofs, false);
  });
});
