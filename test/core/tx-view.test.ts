// What the node reads from a kernel tx (src/core/tx-view.ts): the non-empty side effects per part,
// the calls in execution order, the anchor block's hash, the priority fee, the binary size, the
// proof stripped, and cairn's rule for the private part's gas.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BlockHeader, blockHeaderHash, emptyBlockHeader } from '../../src/core/block-header.js';
import { CHONK_PROOF_LENGTH } from '../../src/core/kernel/constants.js';
import {
  emptyTailForPublic,
  emptyTailForRollup,
  type PrivateKernelTailCircuitPublicInputs,
} from '../../src/core/kernel/public-inputs.js';
import {
  isEmptyL2ToL1Message,
  isEmptyPrivateLog,
  isEmptyPublicCallRequest,
  type PrivateToRollupAccumulatedData,
  type PublicCallRequest,
} from '../../src/core/kernel/side-effects.js';
import { encodeTx } from '../../src/core/kernel/tx-codec.js';
import type { Tx } from '../../src/core/tx.js';
import { buildTx, type TxSpec } from '../../src/core/tx-builder.js';
import {
  allNullifiers,
  computePrivateGasUsed,
  emptyChonkProof,
  emptySideEffects,
  hasPublicCalls,
  publicCallsOf,
  type TxSideEffects,
  txPriorityFee,
  txSize,
  txView,
  withoutProof,
} from '../../src/core/tx-view.js';
import { blockHeaderArb, tailForPublicArb, tailForRollupArb, txArb } from './kernel/arbitraries.js';

const RECIPIENT = `0x${'ab'.repeat(20)}`;

/** A header with something in it, so that its hash is not the empty header's. */
function anchorHeader(): BlockHeader {
  const h = emptyBlockHeader();
  h.lastArchive = { root: 0x1234n, nextAvailableLeafIndex: 7 };
  h.globalVariables.blockNumber = 7;
  h.globalVariables.timestamp = 1_700_000_000n;
  h.globalVariables.chainId = 31337n;
  h.globalVariables.version = 1n;
  return h;
}

/** A tx around kernel output `data` (the rest does not matter to the view). */
const txOf = (data: PrivateKernelTailCircuitPublicInputs): Tx => ({
  data,
  chonkProof: emptyChonkProof(),
  contractClassLogFields: [],
  publicFunctionCalldata: [],
});

const call = (n: bigint, isStaticCall = false): PublicCallRequest => ({
  msgSender: n,
  contractAddress: n + 1n,
  isStaticCall,
  calldataHash: n + 2n,
});

const log = (first: bigint, emittedLength: number) => ({
  fields: [first, ...new Array<bigint>(15).fill(0n)],
  emittedLength,
});

/** Every kind of side effect in `out`, each with the empty slots before it that `gaps` says. */
function fill(out: PrivateToRollupAccumulatedData, base: bigint, gaps: boolean): void {
  const at = (i: number) => (gaps ? i : 0);
  out.noteHashes[at(3)] = base + 1n;
  out.noteHashes[at(3) + 1] = base + 2n;
  out.nullifiers[at(5)] = base + 3n;
  out.l2ToL1Msgs[at(2)] = {
    message: { recipient: `0x${'AB'.repeat(20)}`, content: base + 4n },
    contractAddress: base + 5n,
  };
  out.privateLogs[at(4)] = log(base + 6n, 1);
  out.contractClassLogsHashes[0] = { logHash: { value: base + 8n, length: 3 }, contractAddress: base + 9n };
}

/** What `fill` puts in, as the view gives it. */
const filled = (base: bigint): TxSideEffects => ({
  noteHashes: [base + 1n, base + 2n],
  nullifiers: [base + 3n],
  l2ToL1Msgs: [{ recipient: RECIPIENT, content: base + 4n, sender: base + 5n }],
  privateLogs: [log(base + 6n, 1)],
  contractClassLogsHashes: [{ contractAddress: base + 9n, hash: base + 8n, length: 3 }],
  publicCallRequests: [],
});

describe('txView of a private-only tx (forRollup)', () => {
  test('all its side effects are non-revertible; no revertible part, no calls, no teardown', () => {
    const data = emptyTailForRollup();
    fill(data.forRollup.end, 0x100n, false);
    const tx = txOf(data);
    const view = txView(tx);
    assert.deepEqual(view.nonRevertible, filled(0x100n));
    assert.deepEqual(view.revertible, emptySideEffects());
    assert.equal(view.publicTeardownCallRequest, null);
    assert.equal(hasPublicCalls(tx), false);
    assert.deepEqual(publicCallsOf(tx), []);
    assert.deepEqual(allNullifiers(tx), [0x103n]);
  });

  test('items after empty slots are still seen, in slot order', () => {
    const data = emptyTailForRollup();
    fill(data.forRollup.end, 0x100n, true);
    // A second note hash after a longer gap, and one more of each kind later on.
    data.forRollup.end.noteHashes[60] = 0x1ffn;
    data.forRollup.end.nullifiers[63] = 0x2ffn;
    data.forRollup.end.privateLogs[63] = log(0x3ffn, 16);
    const view = txView(txOf(data));
    const expected = filled(0x100n);
    expected.noteHashes.push(0x1ffn);
    expected.nullifiers.push(0x2ffn);
    expected.privateLogs.push(log(0x3ffn, 16));
    assert.deepEqual(view.nonRevertible, expected);
    assert.deepEqual(view.revertible, emptySideEffects());
  });
});

describe('txView of a tx with public calls (forPublic)', () => {
  test('splits the side effects and calls into their parts and keeps the teardown call', () => {
    const data = emptyTailForPublic();
    const { nonRevertibleAccumulatedData: nr, revertibleAccumulatedData: r } = data.forPublic;
    fill(nr, 0x100n, false);
    fill(r, 0x200n, false);
    nr.publicCallRequests[0] = call(0x10n);
    r.publicCallRequests[0] = call(0x20n);
    r.publicCallRequests[1] = call(0x30n, true);
    data.forPublic.publicTeardownCallRequest = call(0x40n);
    const tx = txOf(data);
    const view = txView(tx);
    assert.deepEqual(view.nonRevertible, { ...filled(0x100n), publicCallRequests: [call(0x10n)] });
    assert.deepEqual(view.revertible, {
      ...filled(0x200n),
      publicCallRequests: [call(0x20n), call(0x30n, true)],
    });
    assert.deepEqual(view.publicTeardownCallRequest, call(0x40n));
    assert.equal(hasPublicCalls(tx), true);
    // Execution order: setup, app logic, teardown.
    assert.deepEqual(publicCallsOf(tx), [call(0x10n), call(0x20n), call(0x30n, true), call(0x40n)]);
    assert.deepEqual(allNullifiers(tx), [0x103n, 0x203n]);
  });

  test('drops empty padding items, and sees non-empty items placed after an empty slot', () => {
    const data = emptyTailForPublic();
    const { nonRevertibleAccumulatedData: nr, revertibleAccumulatedData: r } = data.forPublic;
    fill(nr, 0x100n, true);
    fill(r, 0x200n, true);
    nr.publicCallRequests[5] = call(0x10n);
    r.publicCallRequests[3] = call(0x20n);
    r.publicCallRequests[31] = call(0x30n);
    // A call request that is all zero but static is not empty.
    r.publicCallRequests[10] = { ...call(0n), contractAddress: 0n, calldataHash: 0n, isStaticCall: true };
    const view = txView(txOf(data));
    assert.deepEqual(view.nonRevertible, { ...filled(0x100n), publicCallRequests: [call(0x10n)] });
    assert.deepEqual(
      view.revertible.publicCallRequests.map((c) => [c.contractAddress, c.isStaticCall]),
      [
        [0x21n, false],
        [0n, true],
        [0x31n, false],
      ],
    );
    assert.deepEqual({ ...view.revertible, publicCallRequests: [] }, filled(0x200n));
  });

  test('an all-zero teardown request is no teardown', () => {
    const data = emptyTailForPublic();
    data.forPublic.revertibleAccumulatedData.publicCallRequests[0] = call(0x20n);
    const tx = txOf(data);
    assert.equal(txView(tx).publicTeardownCallRequest, null);
    assert.deepEqual(publicCallsOf(tx), [call(0x20n)]);
    // Still a tx with a public phase: the variant says so, not the calls.
    assert.equal(hasPublicCalls(txOf(emptyTailForPublic())), true);
  });

  test("a private log is empty when it emitted nothing, whatever its fields hold (the reference's rule)", () => {
    const data = emptyTailForPublic();
    data.forPublic.revertibleAccumulatedData.privateLogs[0] = log(0x99n, 0);
    data.forPublic.revertibleAccumulatedData.privateLogs[1] = log(0n, 2);
    assert.deepEqual(txView(txOf(data)).revertible.privateLogs, [log(0n, 2)]);
  });

  test('random outputs: each part holds exactly the non-empty slots, in order (property)', () => {
    const nonEmpty = (d: PrivateToRollupAccumulatedData) => ({
      noteHashes: d.noteHashes.filter((h) => h !== 0n),
      nullifiers: d.nullifiers.filter((h) => h !== 0n),
      l2ToL1Msgs: d.l2ToL1Msgs.filter((m) => !isEmptyL2ToL1Message(m)).map((m) => m.message.content),
      privateLogs: d.privateLogs.filter((l) => !isEmptyPrivateLog(l)),
    });
    const seen = (p: TxSideEffects) => ({
      noteHashes: p.noteHashes,
      nullifiers: p.nullifiers,
      l2ToL1Msgs: p.l2ToL1Msgs.map((m) => m.content),
      privateLogs: p.privateLogs,
    });
    fc.assert(
      fc.property(tailForPublicArb, (data) => {
        const view = txView(txOf(data));
        const p = data.forPublic!;
        assert.deepEqual(seen(view.nonRevertible), nonEmpty(p.nonRevertibleAccumulatedData));
        assert.deepEqual(seen(view.revertible), nonEmpty(p.revertibleAccumulatedData));
        const calls = [
          ...p.nonRevertibleAccumulatedData.publicCallRequests,
          ...p.revertibleAccumulatedData.publicCallRequests,
          p.publicTeardownCallRequest,
        ].filter((c) => !isEmptyPublicCallRequest(c));
        assert.deepEqual(publicCallsOf(txOf(data)), calls);
      }),
      { numRuns: 50 },
    );
    fc.assert(
      fc.property(tailForRollupArb, (data) => {
        const view = txView(txOf(data));
        assert.deepEqual(seen(view.nonRevertible), nonEmpty(data.forRollup!.end));
        assert.deepEqual(view.revertible, emptySideEffects());
        assert.deepEqual(view.nonRevertible.publicCallRequests, []);
      }),
      { numRuns: 50 },
    );
  });
});

describe('txView: constants', () => {
  test('anchorBlockHash is the hash of the anchor block header', () => {
    const data = emptyTailForRollup();
    data.constants.anchorBlockHeader = anchorHeader();
    assert.equal(txView(txOf(data)).anchorBlockHash, blockHeaderHash(anchorHeader()));
    assert.notEqual(blockHeaderHash(anchorHeader()), blockHeaderHash(emptyBlockHeader()));
    fc.assert(
      fc.property(blockHeaderArb, (header) => {
        const d = emptyTailForPublic();
        d.constants.anchorBlockHeader = header;
        assert.equal(txView(txOf(d)).anchorBlockHash, blockHeaderHash(header));
      }),
      { numRuns: 30 },
    );
  });

  test('the constants, fee payer, expiration and gas used are the kernel output’s', () => {
    const data = emptyTailForRollup();
    data.constants.txContext = {
      chainId: 31337n,
      version: 2n,
      gasSettings: {
        gasLimits: { daGas: 1, l2Gas: 2 },
        teardownGasLimits: { daGas: 3, l2Gas: 4 },
        maxFeesPerGas: { feePerDaGas: 5n, feePerL2Gas: 6n },
        maxPriorityFeesPerGas: { feePerDaGas: 7n, feePerL2Gas: 8n },
      },
    };
    data.constants.vkTreeRoot = 0x11n;
    data.constants.protocolContractsHash = 0x12n;
    data.feePayer = 0x13n;
    data.expirationTimestamp = 0x14n;
    data.gasUsed = { daGas: 15, l2Gas: 16 };
    const view = txView(txOf(data));
    assert.equal(view.chainId, 31337n);
    assert.equal(view.version, 2n);
    assert.deepEqual(view.gasSettings, data.constants.txContext.gasSettings);
    assert.equal(view.vkTreeRoot, 0x11n);
    assert.equal(view.protocolContractsHash, 0x12n);
    assert.equal(view.feePayer, 0x13n);
    assert.equal(view.expirationTimestamp, 0x14n);
    assert.deepEqual(view.gasUsed, { daGas: 15, l2Gas: 16 });
  });

  test('the view is derived once per kernel output and kept', () => {
    const data = emptyTailForRollup();
    const view = txView(txOf(data));
    assert.equal(txView(txOf(data)), view);
    assert.notEqual(txView(txOf(emptyTailForRollup())), view);
  });
});

describe('txPriorityFee', () => {
  test('is the sum of the max priority fees per gas of both dimensions', () => {
    const data = emptyTailForPublic();
    data.constants.txContext.gasSettings.maxPriorityFeesPerGas = { feePerDaGas: 3n, feePerL2Gas: 40n };
    data.constants.txContext.gasSettings.maxFeesPerGas = { feePerDaGas: 1000n, feePerL2Gas: 1000n };
    assert.equal(txPriorityFee(txOf(data)), 43n);
    assert.equal(txPriorityFee(txOf(emptyTailForPublic())), 0n);
  });
});

/** A spec the builder accepts; the size tests vary it. */
const spec = (): TxSpec => ({
  feePayer: 0x1234n,
  anchorBlockHeader: anchorHeader(),
  chainId: 31337,
  version: 1,
  expirationTimestamp: 1_700_000_000n,
  maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 3n },
  protocolNullifier: 0x1000n,
});

describe('txSize', () => {
  test('is the length of encodeTx for random txs (property)', () => {
    fc.assert(
      fc.property(txArb, (tx) => {
        assert.equal(txSize(tx), encodeTx(tx).length);
      }),
      { numRuns: 40 },
    );
  });

  test('is the length of encodeTx for built txs of every shape', () => {
    const specs: TxSpec[] = [
      spec(),
      { ...spec(), noteHashes: Array.from({ length: 64 }, (_, i) => BigInt(i + 1)) },
      { ...spec(), publicCalls: [{ contractAddress: 5n, selector: 1, args: [1n, 2n, 3n] }] },
      { ...spec(), publicCalls: [{ phase: 'teardown', contractAddress: 5n, selector: 1 }] },
      {
        ...spec(),
        publicCalls: [
          { contractAddress: 5n, selector: 1, args: [] },
          {
            phase: 'setup',
            contractAddress: 6n,
            selector: 2,
            args: Array.from({ length: 40 }, (_, i) => BigInt(i)),
          },
        ],
        contractClassLogs: [{ contractAddress: 3n, fields: [1n, 2n] }],
      },
    ];
    for (const s of specs) {
      const { tx, hash } = buildTx(s);
      assert.equal(txSize(tx), encodeTx({ txHash: hash, ...tx }).length);
    }
  });

  test('side effects in their fixed-width slots cost nothing; class log fields and calldata are counted', () => {
    const base = txSize(buildTx(spec()).tx);
    // The kernel output has a fixed width: note hashes fill slots that were there already.
    assert.equal(txSize(buildTx({ ...spec(), noteHashes: [1n, 2n, 3n] }).tx), base);
    // A class log brings its 3,023 fields.
    const withLog = buildTx({ ...spec(), contractClassLogs: [{ contractAddress: 3n, fields: [1n] }] }).tx;
    assert.equal(txSize(withLog) - base, 3023 * 32);
    // A call's calldata: its length (u32), its values (the selector first) and its hash.
    const oneCall = txSize(
      buildTx({ ...spec(), publicCalls: [{ contractAddress: 5n, selector: 1, args: [1n, 2n] }] }).tx,
    );
    const twoCalls = txSize(
      buildTx({
        ...spec(),
        publicCalls: [
          { contractAddress: 5n, selector: 1, args: [1n, 2n] },
          { contractAddress: 5n, selector: 1, args: [1n] },
        ],
      }).tx,
    );
    assert.equal(twoCalls - oneCall, 4 + 2 * 32 + 32);
  });

  test('does not depend on the proof’s bytes (its length is fixed)', () => {
    const { tx } = buildTx(spec());
    assert.equal(txSize(withoutProof(tx)), txSize(tx));
  });
});

describe('withoutProof and emptyChonkProof', () => {
  test('emptyChonkProof is CHONK_PROOF_LENGTH zero words', () => {
    const proof = emptyChonkProof();
    assert.equal(proof.length, CHONK_PROOF_LENGTH * 32);
    assert.ok(proof.every((b) => b === 0));
  });

  test('withoutProof gives a copy with the empty proof and leaves the tx as it was', () => {
    const { tx, hash } = buildTx({ ...spec(), noteHashes: [5n] });
    const proof = Uint8Array.from(tx.chonkProof);
    assert.ok(proof.some((b) => b !== 0));
    const stripped = withoutProof(tx);
    assert.deepEqual(stripped.chonkProof, emptyChonkProof());
    assert.deepEqual({ ...stripped, chonkProof: proof }, tx);
    assert.deepEqual(tx.chonkProof, proof, 'the original keeps its proof');
    // The proof is not part of the hash or of what the node reads.
    assert.equal(stripped.data, tx.data);
    assert.equal(txView(stripped), txView(tx));
    assert.equal(encodeTx({ txHash: hash, ...stripped }).length, encodeTx({ txHash: hash, ...tx }).length);
  });
});

describe('computePrivateGasUsed', () => {
  const parts = (withCall: boolean): TxSideEffects[] => [
    {
      ...emptySideEffects(),
      noteHashes: [1n],
      nullifiers: [2n, 3n],
      privateLogs: [{ fields: new Array(16).fill(1n), emittedLength: 16 }],
    },
    {
      ...emptySideEffects(),
      noteHashes: [4n],
      nullifiers: [5n],
      l2ToL1Msgs: [{ recipient: RECIPIENT, content: 1n, sender: 1n }],
      privateLogs: [{ fields: new Array(16).fill(0n), emittedLength: 1 }],
      contractClassLogsHashes: [{ contractAddress: 3n, hash: 9n, length: 5 }],
      publicCallRequests: withCall ? [call(1n)] : [],
    },
  ];

  test('of a private-only tx (hand computation)', () => {
    // 2 note hashes, 3 nullifiers, 1 message, 2 private logs, 1 class log of 5 fields.
    // L2: 440000 + 2*9200 + 3*16000 + 5200 + 2*2500 + 73000 = 589600.
    // DA fields: 2 + 3 + 1 + 2*16 + (5 + 1) = 44; DA gas: 96 + 44*32 = 1504.
    assert.deepEqual(computePrivateGasUsed(parts(false), false), { daGas: 1504, l2Gas: 589_600 });
  });

  test('with public calls: the public overhead (+100000 L2); the calls themselves cost nothing here', () => {
    assert.deepEqual(computePrivateGasUsed(parts(true), true), { daGas: 1504, l2Gas: 689_600 });
    assert.deepEqual(computePrivateGasUsed(parts(false), true), { daGas: 1504, l2Gas: 689_600 });
  });

  test('of the minimal tx (one nullifier) and of nothing', () => {
    const minimal = [{ ...emptySideEffects(), nullifiers: [1n] }];
    assert.deepEqual(computePrivateGasUsed(minimal, false), { daGas: 96 + 32, l2Gas: 440_000 + 16_000 });
    assert.deepEqual(computePrivateGasUsed([], false), { daGas: 96, l2Gas: 440_000 });
  });
});
