// The reference's binary forms of witnesses, sent as base64 (its JSON carries a Buffer as base64
// of the class's toBuffer()): a sibling path is a 4-byte big-endian count followed by 32-byte
// nodes; a membership witness is the leaf index as 32 bytes followed by the path's nodes.
import { z } from 'zod';
import { FR_MODULUS } from '../core/field.js';

const FIELD_BYTES = 32;

function fieldBytes(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(FIELD_BYTES * 2, '0'), 'hex');
}

function readField(buf: Buffer, at: number): bigint {
  if (at + FIELD_BYTES > buf.length) throw new Error('buffer ends inside a field element');
  const value = BigInt(`0x${buf.subarray(at, at + FIELD_BYTES).toString('hex')}`);
  if (value >= FR_MODULUS) throw new Error('value is not below the BN254 scalar field modulus');
  return value;
}

export function encodeSiblingPath(path: readonly bigint[]): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(path.length);
  return Buffer.concat([count, ...path.map(fieldBytes)]);
}

export function decodeSiblingPath(buf: Buffer): bigint[] {
  if (buf.length < 4) throw new Error('a sibling path starts with a 4-byte count');
  const count = buf.readUInt32BE(0);
  if (buf.length !== 4 + count * FIELD_BYTES)
    throw new Error(`expected ${count} 32-byte nodes after the count`);
  return Array.from({ length: count }, (_, i) => readField(buf, 4 + i * FIELD_BYTES));
}

export interface MembershipWitness {
  leafIndex: bigint;
  siblingPath: bigint[];
}

export function encodeMembershipWitness(w: MembershipWitness): Buffer {
  return Buffer.concat([fieldBytes(w.leafIndex), ...w.siblingPath.map(fieldBytes)]);
}

/** A membership witness of a tree of `height` (the reference's form does not carry the path's length). */
export function decodeMembershipWitness(buf: Buffer, height: number): MembershipWitness {
  if (buf.length !== (height + 1) * FIELD_BYTES) throw new Error(`expected ${height + 1} 32-byte values`);
  return {
    leafIndex: BigInt(`0x${buf.subarray(0, FIELD_BYTES).toString('hex')}`),
    siblingPath: Array.from({ length: height }, (_, i) => readField(buf, (i + 1) * FIELD_BYTES)),
  };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A value sent as base64 of its binary form. */
function base64Of<T>(description: string, encode: (value: T) => Buffer, decode: (buf: Buffer) => T) {
  return z
    .codec(z.string().regex(BASE64, 'expected base64'), z.custom<T>(), {
      decode: (text, ctx) => {
        try {
          return decode(Buffer.from(text, 'base64'));
        } catch (err) {
          ctx.issues.push({ code: 'custom', message: (err as Error).message, input: text });
          return z.NEVER;
        }
      },
      encode: (value) => encode(value).toString('base64'),
    })
    .describe(description);
}

export const siblingPathBase64 = base64Of<bigint[]>(
  'SiblingPath: base64 of a 4-byte count and the 32-byte nodes, leaf level first',
  encodeSiblingPath,
  decodeSiblingPath,
);

export const membershipWitnessBase64 = (height: number) =>
  base64Of<MembershipWitness>(
    `MembershipWitness: base64 of the 32-byte leaf index and the ${height} 32-byte nodes of its path`,
    encodeMembershipWitness,
    (buf) => decodeMembershipWitness(buf, height),
  );

/** Bytes as base64 (packed bytecode, proofs). */
export const bytesBase64 = base64Of<Uint8Array>(
  'Bytes as base64',
  (bytes) => Buffer.from(bytes),
  (buf) => new Uint8Array(buf),
);
