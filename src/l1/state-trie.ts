// The state root of the accounts in an anvil state dump, computed the way anvil computes the
// `stateRoot` of the blocks it mines: a Merkle-Patricia trie of keccak(address) ->
// RLP([nonce, balance, storageRoot, keccak(code)]), each storage trie keccak(slot) -> RLP(value).
// One difference from Ethereum's rule: anvil keeps the slots its dump lists with a zero value in
// the storage trie (as RLP of the empty string), so they are kept here too. The pinned anvil
// (1.7) is checked against this in test/l1/state-trie.test.ts.
import { keccak256 } from '../core/hash/keccak.js';

/** One account as anvil's state dump lists it. */
export interface DumpedAccount {
  nonce: number | string;
  balance: string;
  code?: string | undefined;
  storage?: Record<string, string> | undefined;
}

type RlpItem = Uint8Array | RlpItem[];

const EMPTY = new Uint8Array(0);

function hexBytes(hex: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex;
  return Uint8Array.from(Buffer.from(digits.length % 2 === 1 ? `0${digits}` : digits, 'hex'));
}

/** Big-endian bytes of a non-negative integer with no leading zeros (0 is empty), as RLP wants. */
function minimalBytes(value: bigint): Uint8Array {
  if (value === 0n) return EMPTY;
  return hexBytes(value.toString(16));
}

function lengthPrefix(length: number, shortBase: number): Uint8Array {
  if (length < 56) return Uint8Array.of(shortBase + length);
  const size = minimalBytes(BigInt(length));
  return Uint8Array.of(shortBase + 55 + size.length, ...size);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function rlp(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return concat([lengthPrefix(item.length, 0x80), item]);
  }
  const body = concat(item.map(rlp));
  return concat([lengthPrefix(body.length, 0xc0), body]);
}

/** A key's nibbles (half-bytes), high first. */
function nibblesOf(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4;
    out[2 * i + 1] = key[i]! & 0x0f;
  }
  return out;
}

/** Hex-prefix encoding of a path, with the leaf flag. */
function compactPath(nibbles: Uint8Array, leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2;
  const out = new Uint8Array(1 + (nibbles.length >> 1));
  out[0] = (((leaf ? 2 : 0) + odd) << 4) | (odd === 1 ? nibbles[0]! : 0);
  for (let i = odd, j = 1; i < nibbles.length; i += 2, j++) out[j] = (nibbles[i]! << 4) | nibbles[i + 1]!;
  return out;
}

interface Entry {
  path: Uint8Array;
  value: Uint8Array;
}

/** How a node appears in its parent: inline when its encoding is shorter than 32 bytes, else its hash. */
function reference(node: RlpItem): RlpItem {
  const encoded = rlp(node);
  return encoded.length < 32 ? node : keccak256(encoded);
}

/** The node over entries[lo, hi), sorted by path, which agree on their first `depth` nibbles. */
function trieNode(entries: Entry[], lo: number, hi: number, depth: number): RlpItem {
  const first = entries[lo]!.path;
  if (hi - lo === 1) return [compactPath(first.subarray(depth), true), entries[lo]!.value];
  // Sorted: the prefix the first and the last share is shared by all.
  const last = entries[hi - 1]!.path;
  let shared = 0;
  while (depth + shared < first.length && first[depth + shared] === last[depth + shared]) shared++;
  if (shared > 0) {
    return [
      compactPath(first.subarray(depth, depth + shared), false),
      reference(trieNode(entries, lo, hi, depth + shared)),
    ];
  }
  const branch: RlpItem[] = [];
  let i = lo;
  for (let nibble = 0; nibble < 16; nibble++) {
    const start = i;
    while (i < hi && entries[i]!.path[depth] === nibble) i++;
    branch.push(start === i ? EMPTY : reference(trieNode(entries, start, i, depth + 1)));
  }
  branch.push(EMPTY);
  return branch;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

/** The root of a trie of distinct 32-byte keys (hashed already) to values (RLP already). */
export function trieRoot(pairs: { key: Uint8Array; value: Uint8Array }[]): Uint8Array {
  if (pairs.length === 0) return keccak256(rlp(EMPTY));
  const sorted = [...pairs].sort((a, b) => compareBytes(a.key, b.key));
  const entries = sorted.map((p) => ({ path: nibblesOf(p.key), value: p.value }));
  return keccak256(rlp(trieNode(entries, 0, entries.length, 0)));
}

function storageRoot(storage: Record<string, string>): Uint8Array {
  const pairs = Object.entries(storage).map(([slot, value]) => ({
    key: keccak256(hexBytes(slot.slice(2).padStart(64, '0'))),
    value: rlp(minimalBytes(BigInt(value))),
  }));
  return trieRoot(pairs);
}

/** The state root of these accounts (address -> account), as anvil puts it in a block header. */
export function anvilStateRoot(accounts: Record<string, DumpedAccount>): `0x${string}` {
  const pairs = Object.entries(accounts).map(([address, account]) => ({
    key: keccak256(hexBytes(address)),
    value: rlp([
      minimalBytes(BigInt(account.nonce)),
      minimalBytes(BigInt(account.balance)),
      storageRoot(account.storage ?? {}),
      keccak256(account.code === undefined ? EMPTY : hexBytes(account.code)),
    ]),
  }));
  return `0x${Buffer.from(trieRoot(pairs)).toString('hex')}`;
}
