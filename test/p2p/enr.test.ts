// Ethereum Node Records: EIP-778's example record, a round-trip property over random records,
// and rejection of anything malformed. Records with deliberate faults are built and signed here
// by hand, so the decoder's checks are reached with an otherwise valid signature.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { bytesToHex, hexToBytes, toRlp } from 'viem';
import {
  decodeEnr,
  EnrError,
  encodeEnr,
  MAX_ENR_BYTES,
  multiaddrOfEnr,
  peerIdOfEnr,
} from '../../src/p2p/enr.js';

// EIP-778, "Test Vectors".
const EIP_KEY = hexToBytes('0xb71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291');
const EIP_RECORD =
  'enr:-IS4QHCYrYZbAKWCBRlAy5zzaDZXJBGkcnh4MHcBFZntXNFrdvJjX04jRzjzCBOonrkTfj499SZuOh8R33Ls8RRcy5wBgmlkgnY0gmlwhH8AAAGJc2VjcDI1NmsxoQPKY0yuDUmstAHYpMa2_oxVtw0RW_QAdpzBQA8yWM0xOIN1ZHCCdl8';
const EIP_PUBLIC_KEY = '0x03ca634cae0d49acb401d8a4c6b6fe8c55b70d115bf400769cc1400f3258cd3138';
const EIP_NODE_ID = '0xa448f24c6d18e575453db13171562b71999873db5b286df957af199ec94617f7';

const utf8 = (s: string) => new TextEncoder().encode(s);
const bytes = (...b: number[]) => Uint8Array.from(b);

/** Signs `content` = [seq, k1, v1, ...] as given (no sorting or checks) and returns the text form. */
function signed(privateKey: Uint8Array, content: (Uint8Array | Uint8Array[])[]): string {
  const signature = secp256k1.sign(keccak_256(toRlp(content, 'bytes')), privateKey, { prehash: false });
  return `enr:${Buffer.from(toRlp([signature, ...content], 'bytes')).toString('base64url')}`;
}

function rejects(text: string, reason: RegExp): void {
  assert.throws(
    () => decodeEnr(text),
    (e: unknown) => e instanceof EnrError && reason.test(e.message),
    `expected EnrError matching ${reason} for ${text.slice(0, 40)}…`,
  );
}

const basics = (key = EIP_KEY) => [
  utf8('id'),
  utf8('v4'),
  utf8('secp256k1'),
  secp256k1.getPublicKey(key, true),
];

describe('EIP-778 example record', () => {
  test('encodes to the published text', () => {
    assert.equal(encodeEnr({ privateKey: EIP_KEY, seq: 1n, ip: '127.0.0.1', udp: 30303 }), EIP_RECORD);
  });

  test('decodes to its fields and node id', () => {
    assert.deepEqual(decodeEnr(EIP_RECORD), {
      seq: 1n,
      publicKey: hexToBytes(EIP_PUBLIC_KEY),
      nodeId: EIP_NODE_ID,
      ip: '127.0.0.1',
      udp: 30303,
    });
  });

  test('gives the libp2p peer id of the same secp256k1 key, and a multiaddr only with ip and tcp', () => {
    const expected = peerIdFromPrivateKey(privateKeyFromRaw(EIP_KEY)).toString();
    assert.match(expected, /^16Uiu2/); // secp256k1 keys are inlined in the peer id
    assert.equal(peerIdOfEnr(EIP_RECORD).toString(), expected);
    assert.throws(() => multiaddrOfEnr(EIP_RECORD), EnrError); // udp only
    const withTcp = encodeEnr({ privateKey: EIP_KEY, seq: 2n, ip: '10.0.0.7', tcp: 40400 });
    assert.equal(multiaddrOfEnr(withTcp), `/ip4/10.0.0.7/tcp/40400/p2p/${expected}`);
  });
});

describe('round trip', () => {
  const secretKey = fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .filter((k) => secp256k1.utils.isValidSecretKey(k));
  const record = fc.record(
    {
      privateKey: secretKey,
      seq: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      ip: fc.ipV4(),
      tcp: fc.integer({ min: 0, max: 0xffff }),
      udp: fc.integer({ min: 0, max: 0xffff }),
    },
    { requiredKeys: ['privateKey', 'seq'] },
  );

  test('decode(encode(r)) gives back r, with the node id and peer id of r.privateKey', () => {
    fc.assert(
      fc.property(record, (r) => {
        const text = encodeEnr(r);
        assert.equal(encodeEnr(r), text, 'deterministic');
        const publicKey = secp256k1.getPublicKey(r.privateKey, true);
        const expected: Record<string, unknown> = {
          seq: r.seq,
          publicKey,
          nodeId: bytesToHex(keccak_256(secp256k1.getPublicKey(r.privateKey, false).subarray(1))),
        };
        for (const k of ['ip', 'tcp', 'udp'] as const) if (r[k] !== undefined) expected[k] = r[k];
        assert.deepEqual(decodeEnr(text), expected);
        assert.equal(
          peerIdOfEnr(text).toString(),
          peerIdFromPrivateKey(privateKeyFromRaw(r.privateKey)).toString(),
        );
      }),
      { numRuns: 200 },
    );
  });

  test('rejects fields it cannot encode', () => {
    assert.throws(() => encodeEnr({ privateKey: new Uint8Array(32), seq: 1n }), EnrError);
    assert.throws(() => encodeEnr({ privateKey: EIP_KEY, seq: -1n }), EnrError);
    assert.throws(() => encodeEnr({ privateKey: EIP_KEY, seq: 1n << 64n }), EnrError);
    assert.throws(() => encodeEnr({ privateKey: EIP_KEY, seq: 1n, ip: '::1' }), EnrError);
    assert.throws(() => encodeEnr({ privateKey: EIP_KEY, seq: 1n, ip: '1.2.3.256' }), EnrError);
    assert.throws(() => encodeEnr({ privateKey: EIP_KEY, seq: 1n, tcp: 65536 }), EnrError);
    assert.throws(() => encodeEnr({ privateKey: EIP_KEY, seq: 1n, udp: 1.5 }), EnrError);
  });
});

describe('rejects malformed records', () => {
  test('every single-bit change of the example record', () => {
    const raw = Buffer.from(EIP_RECORD.slice(4), 'base64url');
    for (let i = 0; i < raw.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const changed = Buffer.from(raw);
        changed[i]! ^= 1 << bit;
        assert.throws(
          () => decodeEnr(`enr:${changed.toString('base64url')}`),
          EnrError,
          `byte ${i} bit ${bit}`,
        );
      }
    }
    // A changed value (the last byte is the udp port's) keeps the RLP valid: only the signature catches it.
    const port = Buffer.from(raw);
    port[port.length - 1]! ^= 1;
    rejects(`enr:${port.toString('base64url')}`, /bad signature/);
  });

  test('content signed by a key other than the one it names', () => {
    const other = secp256k1.utils.randomSecretKey();
    const record = signed(other, [bytes(1), ...basics(EIP_KEY)]); // claims EIP_KEY, signed by other
    rejects(record, /bad signature/);
  });

  test('wrong prefix, bad base64url, empty or oversize input', () => {
    rejects(EIP_RECORD.replace('enr:', 'ENR:'), /must start with 'enr:'/);
    rejects(EIP_RECORD.slice(4), /must start with 'enr:'/);
    rejects('enr:', /base64url/);
    rejects(`${EIP_RECORD}=`, /base64url/);
    rejects('enr:-IS4QHCY!rYZb', /base64url/);
    rejects(EIP_RECORD.replace('-', '+').replace('_', '/'), /base64url/); // plain base64's alphabet
    rejects(`${EIP_RECORD.slice(0, 20)} ${EIP_RECORD.slice(20)}`, /base64url/);
    rejects('enr:A', /base64url/); // a 6-bit tail decodes to no whole byte
    // EIP-778's limit is 300 bytes of RLP: pad an extra key's value to land on 300 and on 301.
    const padded = (n: number) => signed(EIP_KEY, [bytes(1), ...basics(), utf8('zz'), new Uint8Array(n)]);
    const size = (text: string) => Buffer.from(text.slice(4), 'base64url').length;
    const fits = Array.from({ length: 300 }, (_, n) => padded(n)).find((t) => size(t) === 300)!;
    const over = Array.from({ length: 300 }, (_, n) => padded(n)).find((t) => size(t) === 301)!;
    assert.equal(decodeEnr(fits).seq, 1n);
    rejects(over, /record is 301 bytes, over 300$/);
    assert.equal(MAX_ENR_BYTES, 300);
  });

  test('bad RLP: not a list, trailing bytes, truncated', () => {
    const text = (b: Uint8Array) => `enr:${Buffer.from(b).toString('base64url')}`;
    const raw = Buffer.from(EIP_RECORD.slice(4), 'base64url');
    rejects(text(toRlp(new Uint8Array(64), 'bytes')), /not an RLP list/);
    rejects(text(Buffer.concat([raw, bytes(0)])), /bad RLP/);
    rejects(text(raw.subarray(0, raw.length - 1)), /bad RLP/);
  });

  test('missing, unsorted, duplicate or unsupported keys, and non-canonical integers', () => {
    const [id, v4, secp, pub] = basics();
    rejects(signed(EIP_KEY, [bytes(1), secp!, pub!]), /missing key 'id'/);
    rejects(signed(EIP_KEY, [bytes(1), id!, v4!]), /missing key 'secp256k1'/);
    rejects(signed(EIP_KEY, [bytes(1), secp!, pub!, id!, v4!]), /not sorted/);
    rejects(signed(EIP_KEY, [bytes(1), id!, v4!, id!, v4!, secp!, pub!]), /not sorted and unique/);
    rejects(signed(EIP_KEY, [bytes(1), id!, utf8('v5'), secp!, pub!]), /identity scheme/);
    rejects(signed(EIP_KEY, [bytes(0, 1), id!, v4!, secp!, pub!]), /seq has a leading zero/);
    rejects(signed(EIP_KEY, [new Uint8Array(9).fill(1), id!, v4!, secp!, pub!]), /seq is longer than 8/);
    rejects(signed(EIP_KEY, [bytes(1), id!, v4!, utf8('ip'), bytes(127, 0, 1), secp!, pub!]), /ip is not 4/);
    rejects(signed(EIP_KEY, [bytes(1), id!, v4!, secp!, pub!, utf8('tcp'), bytes(1, 0, 0)]), /tcp is longer/);
    rejects(signed(EIP_KEY, [bytes(1), id!, v4!, secp!, pub!.subarray(1)]), /33-byte/);
    rejects(signed(EIP_KEY, [bytes(1), id!, v4!, secp!, pub!, utf8('udp')]), /expected \[signature/);
  });

  test('unknown keys, including list values, are kept under the signature but ignored', () => {
    const [id, v4, secp, pub] = basics();
    const eth = [bytes(1, 2, 3, 4), bytes(5)];
    const record = signed(EIP_KEY, [bytes(7), utf8('eth'), eth, id!, v4!, secp!, pub!]);
    assert.deepEqual(decodeEnr(record), { seq: 7n, publicKey: pub, nodeId: EIP_NODE_ID });
  });
});
