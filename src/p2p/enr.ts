// Ethereum Node Records (EIP-778) with the "v4" identity scheme: a signed, versioned list of
// key/value pairs that tells peers how to reach a node. The record is
// RLP([signature, seq, k1, v1, k2, v2, ...]) with keys sorted and unique, the signature being a
// secp256k1 r||s over keccak256(RLP([seq, k1, v1, ...])); its text form is `enr:` + base64url.
import './polyfill.js';
import { isIPv4 } from 'node:net';
import { publicKeyFromRaw } from '@libp2p/crypto/keys';
import type { PeerId } from '@libp2p/interface';
import { peerIdFromPublicKey } from '@libp2p/peer-id';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, fromRlp, toRlp } from 'viem';

export interface EnrFields {
  /** 32-byte secp256k1 secret key. */
  privateKey: Uint8Array;
  seq: bigint;
  /** IPv4, dotted. */
  ip?: string;
  tcp?: number;
  udp?: number;
}

export interface DecodedEnr {
  seq: bigint;
  /** 33-byte compressed secp256k1 public key. */
  publicKey: Uint8Array;
  /** 0x + keccak256 of the uncompressed public key's x||y. */
  nodeId: string;
  ip?: string;
  tcp?: number;
  udp?: number;
}

export class EnrError extends Error {
  override readonly name = 'EnrError';
}

/** EIP-778: "The maximum encoded size of a node record is 300 bytes." */
export const MAX_ENR_BYTES = 300;
const PREFIX = 'enr:';
const MAX_SEQ = (1n << 64n) - 1n;
const text = new TextEncoder();

type Rlp = Uint8Array | readonly Rlp[];

function fail(reason: string): never {
  throw new EnrError(`invalid ENR: ${reason}`);
}

/** Minimal big-endian bytes of a non-negative integer; 0 is the empty string, as RLP wants. */
function uintBytes(value: bigint): Uint8Array {
  const hex = value === 0n ? '' : value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

function readUint(bytes: Uint8Array, maxBytes: number, what: string): bigint {
  if (bytes.length > maxBytes) fail(`${what} is longer than ${maxBytes} bytes`);
  if (bytes[0] === 0) fail(`${what} has a leading zero byte`);
  return bytes.length === 0 ? 0n : BigInt(bytesToHex(bytes));
}

function port(value: number, what: string): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) fail(`${what} port ${value} is not 0..65535`);
  return uintBytes(BigInt(value));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

function nodeIdOf(compressed: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(compressed).toBytes(false);
  return bytesToHex(keccak_256(uncompressed.subarray(1)));
}

export function encodeEnr(r: EnrFields): string {
  if (!secp256k1.utils.isValidSecretKey(r.privateKey)) fail('the private key is not a valid secp256k1 key');
  if (r.seq < 0n || r.seq > MAX_SEQ) fail(`seq ${r.seq} is not a uint64`);
  const pairs: [string, Uint8Array][] = [
    ['id', text.encode('v4')],
    ['secp256k1', secp256k1.getPublicKey(r.privateKey, true)],
  ];
  if (r.ip !== undefined) {
    if (!isIPv4(r.ip)) fail(`ip '${r.ip}' is not a dotted IPv4 address`);
    pairs.push(['ip', Uint8Array.from(r.ip.split('.').map(Number))]);
  }
  if (r.tcp !== undefined) pairs.push(['tcp', port(r.tcp, 'tcp')]);
  if (r.udp !== undefined) pairs.push(['udp', port(r.udp, 'udp')]);
  // Keys are ASCII, so sorting the strings sorts their bytes.
  pairs.sort(([a], [b]) => (a < b ? -1 : 1));

  const content = [uintBytes(r.seq), ...pairs.flatMap(([k, v]) => [text.encode(k), v])];
  // RFC 6979 deterministic, low-s, over the keccak hash itself (noble would sha256 it by default).
  const signature = secp256k1.sign(keccak_256(toRlp(content, 'bytes')), r.privateKey, { prehash: false });
  const record = toRlp([signature, ...content], 'bytes');
  if (record.length > MAX_ENR_BYTES) fail(`record is ${record.length} bytes, over ${MAX_ENR_BYTES}`);
  return PREFIX + Buffer.from(record).toString('base64url');
}

export function decodeEnr(enrText: string): DecodedEnr {
  if (typeof enrText !== 'string' || !enrText.startsWith(PREFIX)) fail(`must start with '${PREFIX}'`);
  const body = enrText.slice(PREFIX.length);
  // Buffer's decoder skips junk silently, so insist on the canonical alphabet and round trip.
  if (!/^[A-Za-z0-9_-]+$/.test(body)) fail('not unpadded base64url');
  const record = Uint8Array.from(Buffer.from(body, 'base64url'));
  if (Buffer.from(record).toString('base64url') !== body) fail('not canonical base64url');
  if (record.length > MAX_ENR_BYTES) fail(`record is ${record.length} bytes, over ${MAX_ENR_BYTES}`);

  let items: Rlp;
  try {
    items = fromRlp(record, 'bytes');
  } catch (e) {
    fail(`bad RLP (${(e as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(items)) fail('the record is not an RLP list');
  if (items.length < 2 || items.length % 2 !== 0) fail('expected [signature, seq, key, value, ...]');
  const [signature, seqBytes, ...rest] = items;
  if (!(signature instanceof Uint8Array) || signature.length !== 64) fail('signature is not 64 bytes');
  if (!(seqBytes instanceof Uint8Array)) fail('seq is not a byte string');
  const seq = readUint(seqBytes, 8, 'seq');

  const values = new Map<string, Rlp>();
  let previous: Uint8Array | undefined;
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i];
    if (!(key instanceof Uint8Array)) fail('a key is not a byte string');
    if (previous !== undefined && compareBytes(previous, key) >= 0) fail('keys are not sorted and unique');
    previous = key;
    values.set(Buffer.from(key).toString('latin1'), rest[i + 1]!);
  }

  const id = values.get('id');
  if (id === undefined) fail("missing key 'id'");
  if (!(id instanceof Uint8Array) || Buffer.from(id).toString('latin1') !== 'v4') {
    fail("unsupported identity scheme (expected id 'v4')");
  }
  const publicKey = values.get('secp256k1');
  if (publicKey === undefined) fail("missing key 'secp256k1'");
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 33) fail('secp256k1 is not a 33-byte key');
  let nodeId: string;
  try {
    nodeId = nodeIdOf(publicKey);
  } catch {
    fail('secp256k1 is not a point on the curve');
  }

  // fromRlp accepts only canonical RLP, so re-encoding the content gives back the signed bytes.
  const signed = keccak_256(toRlp(items.slice(1), 'bytes'));
  let valid = false;
  try {
    valid = secp256k1.verify(signature, signed, publicKey, { prehash: false });
  } catch {}
  if (!valid) fail('bad signature');

  const decoded: DecodedEnr = { seq, publicKey, nodeId };
  const ip = values.get('ip');
  if (ip !== undefined) {
    if (!(ip instanceof Uint8Array) || ip.length !== 4) fail('ip is not 4 bytes');
    decoded.ip = ip.join('.');
  }
  for (const name of ['tcp', 'udp'] as const) {
    const value = values.get(name);
    if (value === undefined) continue;
    if (!(value instanceof Uint8Array)) fail(`${name} is not a byte string`);
    decoded[name] = Number(readUint(value, 2, name));
  }
  return decoded;
}

/** The libp2p peer id of the record's secp256k1 key (libp2p derives it from the public key). */
export function peerIdOfEnr(enrText: string): PeerId {
  return peerIdFromPublicKey(publicKeyFromRaw(decodeEnr(enrText).publicKey));
}

/** `/ip4/<ip>/tcp/<tcp>/p2p/<peerId>`: what libp2p dials to reach the record's node. */
export function multiaddrOfEnr(enrText: string): string {
  const r = decodeEnr(enrText);
  if (r.ip === undefined || r.tcp === undefined) fail('the record has no ip and tcp port to dial');
  return `/ip4/${r.ip}/tcp/${r.tcp}/p2p/${peerIdFromPublicKey(publicKeyFromRaw(r.publicKey))}`;
}
