// The gossip codecs: txs (the reference's binary form), and validators' block proposals,
// checkpoint proposals (carrying a real checkpoint body) and attestations round-trip, and whatever
// a peer could send that is not one of them is a MessageError.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { L2Block } from '../../src/core/block.js';
import {
  type CheckpointHeader,
  checkpointHeaderHash,
  emptyBlockHeader,
} from '../../src/core/block-header.js';
import {
  decodeCheckpointBody,
  encodeCheckpointBody,
  encodeCheckpointBodyFormat1,
} from '../../src/core/checkpoint-body.js';
import { FR_MODULUS, toBytes32 } from '../../src/core/field.js';
import { TAIL_FOR_ROLLUP_SIZE_IN_BYTES } from '../../src/core/kernel/constants.js';
import { encodeTx } from '../../src/core/kernel/tx-codec.js';
import { computeTxHash } from '../../src/core/kernel/tx-hash.js';
import { buildTx } from '../../src/core/tx-builder.js';
import {
  type BlockProposal,
  type CheckpointAttestation,
  type CheckpointProposal,
  decodeAttestation,
  decodeBlockProposal,
  decodeCheckpointProposal,
  decodeTxMessage,
  encodeAttestation,
  encodeBlockProposal,
  encodeCheckpointProposal,
  encodeTxMessage,
  MessageError,
  TOPICS,
} from '../../src/validators/messages.js';
import { bodyFixture } from './fixtures.js';

const SIG = `0x${'ab'.repeat(64)}1b` as const;
const SIG2 = `0x${'cd'.repeat(64)}1c` as const;
const utf8 = (s: string) => new TextEncoder().encode(s);
const asJson = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
const toBytes = (value: unknown) => utf8(JSON.stringify(value));

const fr = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });
const uintArb = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const sigArb = fc
  .uint8Array({ minLength: 65, maxLength: 65 })
  .map((b) => `0x${Buffer.from(b).toString('hex')}` as `0x${string}`);
const addressArb = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => `0x${Buffer.from(b).toString('hex')}`);
const u128 = fc.bigInt({ min: 0n, max: 2n ** 128n - 1n });
// fc.record builds objects without a prototype; the codecs build plain ones.
const plain = <T extends object>(r: T): T => ({ ...r });
const headerArb: fc.Arbitrary<CheckpointHeader> = fc
  .record({
    lastArchiveRoot: fr,
    blockHeadersHash: fr,
    blobsHash: fr,
    inHash: fr,
    epochOutHash: fr,
    slotNumber: fc.integer({ min: 0, max: 0xffffffff }),
    timestamp: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    coinbase: addressArb,
    feeRecipient: fr,
    gasFees: fc.record({ feePerDaGas: u128, feePerL2Gas: u128 }).map(plain),
    totalManaUsed: fr,
  })
  .map(plain);

/** Asserts `fn` throws a MessageError whose message starts with `what: `. */
function rejects(fn: () => unknown, what: string, label: string): void {
  assert.throws(
    fn,
    (err: unknown) => {
      assert.ok(err instanceof MessageError, `${label}: ${String(err)} is not a MessageError`);
      assert.equal(err.name, 'MessageError');
      assert.ok(err.message.startsWith(`${what}: `), `${label}: ${err.message}`);
      return true;
    },
    label,
  );
}

/** Inputs no decoder may accept: not UTF-8, not JSON, not an object. */
const notMessages: [string, Uint8Array][] = [
  ['empty', new Uint8Array()],
  ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])],
  ['not JSON', utf8('hello')],
  ['truncated JSON', utf8('{"slot":1')],
  ['null', utf8('null')],
  ['array', utf8('[]')],
  ['number', utf8('42')],
  ['string', utf8('"block"')],
  ['empty object', utf8('{}')],
];

describe('tx messages', () => {
  const base = {
    feePayer: 0x1234n,
    anchorBlockHeader: { ...emptyBlockHeader(), totalFees: 5n },
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1000n },
  };
  /** A private-only tx with a side effect of each kind, and a tx with calls in the three phases. */
  const privateOnly = buildTx({
    ...base,
    protocolNullifier: 0x51n,
    noteHashes: [0x52n],
    nullifiers: [0x53n],
    privateLogs: [[1n, 2n]],
    l2ToL1Msgs: [{ recipient: `0x${'cd'.repeat(20)}`, content: 3n, sender: 4n }],
    contractClassLogs: [{ contractAddress: 5n, fields: [6n, FR_MODULUS - 1n] }],
  });
  const withCalls = buildTx({
    ...base,
    protocolNullifier: 0x61n,
    nullifiers: [0x62n],
    publicCalls: [
      { phase: 'setup', contractAddress: 7n, selector: 1, args: [8n] },
      { contractAddress: 9n, selector: 2, args: [10n, 11n], isStaticCall: true },
      { phase: 'teardown', contractAddress: 12n, selector: 3 },
    ],
  });

  test("round trip, in the reference's binary form (Tx.toBuffer: the hash first)", () => {
    for (const { tx, hash } of [privateOnly, withCalls]) {
      const bytes = encodeTxMessage(tx, hash);
      assert.deepEqual(Buffer.from(bytes), encodeTx({ txHash: hash, ...tx }));
      assert.deepEqual(Buffer.from(bytes.subarray(0, 32)), Buffer.from(toBytes32(hash)));
      assert.deepEqual(decodeTxMessage(bytes), { tx, claimedHash: hash });
    }
    // The hash a message claims is carried as it is (validation compares it with the computed one).
    const claimed = computeTxHash(privateOnly.tx.data) + 1n;
    assert.equal(decodeTxMessage(encodeTxMessage(privateOnly.tx, claimed)).claimedHash, claimed);
  });

  test('malformed input is a MessageError', () => {
    const good = encodeTxMessage(privateOnly.tx, privateOnly.hash);
    const changed = (at: number, values: number[]) => {
      const copy = Uint8Array.from(good);
      copy.set(values, at);
      return copy;
    };
    const proofLengthAt = 32 + TAIL_FOR_ROLLUP_SIZE_IN_BYTES;
    const cases: [string, Uint8Array][] = [
      // What the earlier cairn gossiped (JSON), and other things that are not a tx.
      ...notMessages,
      ['a tx as JSON', toBytes({ data: { constants: { chainId: 31337 } }, proof: '0x' })],
      ['a trailing byte', Uint8Array.from([...good, 0])],
      ['the last byte missing', good.subarray(0, good.length - 1)],
      ['a claimed hash past the modulus', changed(0, [...toBytes32(FR_MODULUS - 1n).slice(0, 31), 0xff])],
      ['a proof of 1,934 fields', changed(proofLengthAt, [0, 0, 0x07, 0x8e])],
      [
        'a proof field past the modulus',
        changed(proofLengthAt + 4, [...toBytes32(FR_MODULUS - 1n).slice(0, 31), 0xff]),
      ],
    ];
    // Every prefix is refused (sampled: a tx is > 100 KB).
    for (let n = 0; n < good.length; n += 997) cases.push([`the first ${n} bytes`, good.subarray(0, n)]);
    for (const [label, bytes] of cases) rejects(() => decodeTxMessage(bytes), 'tx', label);
    // The message whose bytes were changed decodes once they are put back.
    assert.deepEqual(decodeTxMessage(Uint8Array.from(good)).tx, privateOnly.tx);
  });

  test('a tx is no other message, and no other message is a tx', () => {
    const bytes = encodeTxMessage(withCalls.tx, withCalls.hash);
    rejects(() => decodeBlockProposal(bytes), 'block proposal', 'tx as a block proposal');
    rejects(() => decodeCheckpointProposal(bytes), 'checkpoint proposal', 'tx as a checkpoint proposal');
    rejects(() => decodeAttestation(bytes), 'checkpoint attestation', 'tx as an attestation');
    const proposal = encodeBlockProposal({
      slot: 1,
      checkpointNumber: 1,
      indexWithinCheckpoint: 0,
      blockNumber: 1,
      blockHash: 1n,
      archiveRoot: 2n,
      txHashes: [withCalls.hash],
      signature: SIG,
    });
    rejects(() => decodeTxMessage(proposal), 'tx', 'block proposal as a tx');
  });
});

describe('block proposals', () => {
  const proposal: BlockProposal = {
    slot: 12,
    checkpointNumber: 3,
    indexWithinCheckpoint: 1,
    blockNumber: 7,
    blockHash: 0x1234n,
    archiveRoot: FR_MODULUS - 1n,
    txHashes: [1n, 2n, 0x99n],
    signature: SIG,
  };

  test('round trip', () => {
    assert.deepEqual(decodeBlockProposal(encodeBlockProposal(proposal)), proposal);
    assert.deepEqual(decodeBlockProposal(encodeBlockProposal({ ...proposal, txHashes: [] })), {
      ...proposal,
      txHashes: [],
    });
    // Fields travel as 32-byte hex.
    const wire = asJson(encodeBlockProposal(proposal));
    assert.equal(wire.blockHash, `0x${'0'.repeat(60)}1234`);
    fc.assert(
      fc.property(
        fc
          .record({
            slot: uintArb,
            checkpointNumber: uintArb,
            indexWithinCheckpoint: uintArb,
            blockNumber: uintArb,
            blockHash: fr,
            archiveRoot: fr,
            txHashes: fc.array(fr, { maxLength: 8 }),
            signature: sigArb,
          })
          .map(plain),
        (p) => {
          assert.deepEqual(decodeBlockProposal(encodeBlockProposal(p)), p);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('malformed input is a MessageError', () => {
    const wire = asJson(encodeBlockProposal(proposal));
    const cases: [string, Uint8Array][] = [
      ...notMessages,
      ['slot as a string', toBytes({ ...wire, slot: '12' })],
      ['negative slot', toBytes({ ...wire, slot: -1 })],
      ['fractional slot', toBytes({ ...wire, slot: 1.5 })],
      ['slot past 2^53', toBytes({ ...wire, slot: 2 ** 53 })],
      ['block number null', toBytes({ ...wire, blockNumber: null })],
      ['block hash as a number', toBytes({ ...wire, blockHash: 5 })],
      ['block hash 0x', toBytes({ ...wire, blockHash: '0x' })],
      ['block hash of 65 digits', toBytes({ ...wire, blockHash: `0x1${'0'.repeat(64)}` })],
      ['block hash past the field', toBytes({ ...wire, blockHash: `0x${FR_MODULUS.toString(16)}` })],
      ['archive not hex', toBytes({ ...wire, archiveRoot: '0xgg' })],
      ['tx hashes not an array', toBytes({ ...wire, txHashes: '0x1' })],
      ['a tx hash not hex', toBytes({ ...wire, txHashes: ['0x1', 'x'] })],
      ['4097 tx hashes', toBytes({ ...wire, txHashes: Array.from({ length: 4097 }, () => '0x1') })],
      ['missing signature', toBytes({ ...wire, signature: undefined })],
      ['missing slot', toBytes({ ...wire, slot: undefined })],
      ['64-byte signature', toBytes({ ...wire, signature: SIG.slice(0, -2) })],
      ['66-byte signature', toBytes({ ...wire, signature: `${SIG}00` })],
      ['signature without 0x', toBytes({ ...wire, signature: SIG.slice(2) })],
      ['signature not hex', toBytes({ ...wire, signature: `0x${'zz'.repeat(65)}` })],
      ['signature as bytes', toBytes({ ...wire, signature: [...Buffer.alloc(65)] })],
      ['an extra field', toBytes({ ...wire, proposer: '0x00' })],
      ['an extra __proto__ field', utf8(`{"__proto__":{"x":1},${JSON.stringify(wire).slice(1)}`)],
    ];
    for (const [label, bytes] of cases) rejects(() => decodeBlockProposal(bytes), 'block proposal', label);
    // 4096 tx hashes still decode.
    const max = { ...wire, txHashes: Array.from({ length: 4096 }, () => '0x1') };
    assert.equal(decodeBlockProposal(toBytes(max)).txHashes.length, 4096);
  });
});

describe('checkpoint proposals', () => {
  let header: CheckpointHeader;
  let blocks: L2Block[];
  let body: Uint8Array;
  let proposal: CheckpointProposal;

  before(async () => {
    ({ header, blocks, body } = await bodyFixture(5));
    proposal = {
      checkpointNumber: 1,
      slot: 5,
      archive: blocks[0]!.archive.root,
      headerHash: checkpointHeaderHash(header),
      header,
      body,
      signature: SIG,
    };
  });

  test('round trip: the header comes from the body', () => {
    const decoded = decodeCheckpointProposal(encodeCheckpointProposal(proposal));
    assert.deepEqual(
      { ...decoded, body: new Uint8Array(decoded.body) },
      { ...proposal, body: new Uint8Array(body) },
    );
    assert.deepEqual(decoded.header, header);
    assert.equal(checkpointHeaderHash(decoded.header), decoded.headerHash);
    // The body bytes are carried exactly; they decode to the same blocks.
    assert.deepEqual(Buffer.from(decoded.body), Buffer.from(body));
    assert.deepEqual(decodeCheckpointBody(decoded.body).blocks, blocks);
    // The header given with the proposal is not sent: the body's is authoritative.
    const other = { ...proposal, header: { ...header, slotNumber: 77 } };
    assert.deepEqual(decodeCheckpointProposal(encodeCheckpointProposal(other)).header, header);
    const wire = asJson(encodeCheckpointProposal(proposal));
    assert.deepEqual(Object.keys(wire).sort(), [
      'archive',
      'body',
      'checkpointNumber',
      'headerHash',
      'signature',
      'slot',
    ]);
    assert.equal(wire.body, Buffer.from(body).toString('base64'));
  });

  test('round trip of the other fields (property)', () => {
    fc.assert(
      fc.property(
        uintArb,
        uintArb,
        fr,
        fr,
        sigArb,
        (checkpointNumber, slot, archive, headerHash, signature) => {
          const p = { ...proposal, checkpointNumber, slot, archive, headerHash, signature };
          const d = decodeCheckpointProposal(encodeCheckpointProposal(p));
          assert.deepEqual(
            [d.checkpointNumber, d.slot, d.archive, d.headerHash, d.signature],
            [checkpointNumber, slot, archive, headerHash, signature],
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  test('malformed input, or a body that is not a checkpoint body, is a MessageError', () => {
    const wire = asJson(encodeCheckpointProposal(proposal));
    const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
    // Nodes write bodies as words (format /2) and still read JSON (format /1): both kinds of damage.
    const parsedBody = JSON.parse(
      new TextDecoder().decode(encodeCheckpointBodyFormat1(decodeCheckpointBody(body))),
    ) as Record<string, unknown>;
    const cases: [string, Uint8Array][] = [
      ...notMessages,
      ['checkpoint number as a string', toBytes({ ...wire, checkpointNumber: '1' })],
      ['negative slot', toBytes({ ...wire, slot: -5 })],
      ['archive past the field', toBytes({ ...wire, archive: `0x${(FR_MODULUS + 1n).toString(16)}` })],
      ['header hash missing', toBytes({ ...wire, headerHash: undefined })],
      ['body not base64', toBytes({ ...wire, body: '***not base64***' })],
      ['body as bytes', toBytes({ ...wire, body: [...body.slice(0, 8)] })],
      ['empty body', toBytes({ ...wire, body: '' })],
      ['body not JSON', toBytes({ ...wire, body: b64('not json') })],
      ['body not UTF-8', toBytes({ ...wire, body: b64(new Uint8Array([0xff, 0xfe])) })],
      ['body JSON but not a body', toBytes({ ...wire, body: b64('{"a checkpoint":"body"}') })],
      ['body of words cut short', toBytes({ ...wire, body: b64(body.subarray(0, body.length - 32)) })],
      [
        'body of words with one word too many',
        toBytes({ ...wire, body: b64(Buffer.concat([body, Buffer.alloc(32)])) }),
      ],
      [
        'body of another format',
        toBytes({ ...wire, body: b64(JSON.stringify({ ...parsedBody, format: 'x/2' })) }),
      ],
      ['body without blocks', toBytes({ ...wire, body: b64(JSON.stringify({ ...parsedBody, blocks: [] })) })],
      [
        'body with an extra field',
        toBytes({ ...wire, body: b64(JSON.stringify({ ...parsedBody, extra: 1 })) }),
      ],
      [
        'body without header',
        toBytes({ ...wire, body: b64(JSON.stringify({ ...parsedBody, header: undefined })) }),
      ],
      ['64-byte signature', toBytes({ ...wire, signature: SIG.slice(0, -2) })],
      ['66-byte signature', toBytes({ ...wire, signature: `${SIG}ff` })],
      ['an extra field', toBytes({ ...wire, header: parsedBody.header })],
      ['an extra field (proposer)', toBytes({ ...wire, proposer: '0x01' })],
    ];
    for (const [label, bytes] of cases)
      rejects(() => decodeCheckpointProposal(bytes), 'checkpoint proposal', label);
  });

  test('a body that is a checkpoint body decodes even if it is not this proposal\u2019s (checked later)', () => {
    const otherHeader = { ...header, slotNumber: 6 };
    const otherBody = encodeCheckpointBody({ header: otherHeader, blocks });
    const d = decodeCheckpointProposal(encodeCheckpointProposal({ ...proposal, body: otherBody }));
    assert.equal(d.header.slotNumber, 6);
    assert.notEqual(checkpointHeaderHash(d.header), d.headerHash);
  });
});

describe('attestations', () => {
  let header: CheckpointHeader;
  let attestation: CheckpointAttestation;
  before(async () => {
    ({ header } = await bodyFixture(5));
    attestation = {
      checkpointNumber: 1,
      slot: 5,
      archive: 0xa1n,
      headerHash: checkpointHeaderHash(header),
      header,
      signature: SIG,
      proposerSignature: SIG2,
    };
  });

  test('round trip', () => {
    assert.deepEqual(decodeAttestation(encodeAttestation(attestation)), attestation);
    fc.assert(
      fc.property(
        fc
          .record({
            checkpointNumber: uintArb,
            slot: uintArb,
            archive: fr,
            headerHash: fr,
            header: headerArb,
            signature: sigArb,
            proposerSignature: sigArb,
          })
          .map(plain),
        (a) => {
          assert.deepEqual(decodeAttestation(encodeAttestation(a)), a);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a checksummed coinbase comes back lowercase', () => {
    const mixed = { ...attestation, header: { ...header, coinbase: `0x${'AbCd'.repeat(10)}` } };
    assert.equal(decodeAttestation(encodeAttestation(mixed)).header.coinbase, `0x${'abcd'.repeat(10)}`);
  });

  test('malformed input is a MessageError', () => {
    const wire = asJson(encodeAttestation(attestation));
    const h = wire.header as Record<string, unknown>;
    const cases: [string, Uint8Array][] = [
      ...notMessages,
      ['slot as a string', toBytes({ ...wire, slot: '5' })],
      ['header missing', toBytes({ ...wire, header: undefined })],
      ['header null', toBytes({ ...wire, header: null })],
      ['header field missing', toBytes({ ...wire, header: { ...h, inHash: undefined } })],
      ['header coinbase too short', toBytes({ ...wire, header: { ...h, coinbase: '0x1234' } })],
      ['header timestamp negative', toBytes({ ...wire, header: { ...h, timestamp: '-1' } })],
      ['header timestamp not decimal', toBytes({ ...wire, header: { ...h, timestamp: '0x10' } })],
      ['header hash not hex', toBytes({ ...wire, headerHash: 'header' })],
      ['64-byte signature', toBytes({ ...wire, signature: SIG.slice(0, -2) })],
      ['66-byte proposer signature', toBytes({ ...wire, proposerSignature: `${SIG2}00` })],
      ['proposer signature missing', toBytes({ ...wire, proposerSignature: undefined })],
      ['an extra field', toBytes({ ...wire, attester: '0x01' })],
      ['a body', toBytes({ ...wire, body: 'e30=' })],
    ];
    for (const [label, bytes] of cases)
      rejects(() => decodeAttestation(bytes), 'checkpoint attestation', label);
  });

  test('an extra field inside the attestation header is a MessageError', () => {
    const wire = asJson(encodeAttestation(attestation));
    const header = { ...(wire.header as Record<string, unknown>), extra: 1 };
    rejects(() => decodeAttestation(toBytes({ ...wire, header })), 'checkpoint attestation', 'header extra');
  });

  test('decoders do not accept one another\u2019s messages', () => {
    const a = encodeAttestation(attestation);
    rejects(() => decodeBlockProposal(a), 'block proposal', 'attestation as a block proposal');
    rejects(() => decodeCheckpointProposal(a), 'checkpoint proposal', 'attestation as a checkpoint proposal');
    const b = encodeBlockProposal({
      slot: 1,
      checkpointNumber: 1,
      indexWithinCheckpoint: 0,
      blockNumber: 1,
      blockHash: 1n,
      archiveRoot: 2n,
      txHashes: [],
      signature: SIG,
    });
    rejects(() => decodeAttestation(b), 'checkpoint attestation', 'block proposal as an attestation');
  });

  test('topic names', () => {
    assert.deepEqual(TOPICS, {
      tx: 'tx',
      blockProposal: 'block-proposal',
      checkpointProposal: 'checkpoint-proposal',
      attestation: 'checkpoint-attestation',
    });
  });
});
