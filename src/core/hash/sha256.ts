// SHA-256 and the protocol's "sha256 to field" reduction.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { type Fr, toBytes32 } from '../field.js';
import { assertBytes, assertFr } from './validate.js';

/** Plain SHA-256 digest (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  assertBytes(bytes, 'bytes');
  return nobleSha256(bytes);
}

/**
 * sha256 of the concatenated chunks, reduced to a field element by dropping the last digest byte
 * and prefixing a zero byte (the value is the top 31 bytes of the digest, so always < 2^248).
 * bigint chunks must be field elements and are serialised as 32 bytes big-endian; Uint8Array
 * chunks are taken as they are (normally 32-byte serialisations; other lengths are hashed verbatim,
 * e.g. a whole serialised header).
 */
export function sha256ToField(chunks: readonly (Uint8Array | bigint)[]): Fr {
  if (!Array.isArray(chunks)) throw new TypeError('chunks must be an array of Uint8Array or bigint');
  const h = nobleSha256.create();
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (typeof chunk === 'bigint') {
      assertFr(chunk, `chunks[${i}]`);
      h.update(toBytes32(chunk));
    } else {
      assertBytes(chunk, `chunks[${i}]`);
      h.update(chunk);
    }
  }
  const digest = h.digest();
  let v = 0n;
  for (let i = 0; i < 31; i++) v = (v << 8n) | BigInt(digest[i]!);
  return v;
}
