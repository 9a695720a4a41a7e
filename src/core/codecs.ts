// Wire codecs (docs/rpc.md, "Values"): each is a zod codec whose input side is the JSON form
// accepted on the wire and whose output side is the value the node works with.
// `z.decode` turns params into values; `z.encode` turns results into JSON. The
// OpenRPC document shows the input side, so the schemas here are the contract.
import { z } from 'zod';
import { FR_MODULUS, toHex32 } from './field.js';

const HEX_1_64 = /^0x[0-9a-fA-F]{1,64}$/;

function fieldCodec(description: string) {
  return z
    .codec(z.string().regex(HEX_1_64, 'expected 0x followed by 1 to 64 hex digits'), z.bigint(), {
      decode: (text, ctx) => {
        const value = BigInt(text);
        if (value >= FR_MODULUS) {
          ctx.issues.push({
            code: 'custom',
            message: 'value is not below the BN254 scalar field modulus',
            input: text,
          });
          return z.NEVER;
        }
        return value;
      },
      encode: (value) => toHex32(value),
    })
    .describe(description);
}

/** A BN254 field element. */
export const frHex = fieldCodec('Field element: 0x followed by 1 to 64 hex digits, below the BN254 modulus');
/** An L2 (contract or account) address. */
export const l2Address = fieldCodec('L2 address: a field element as 0x-prefixed hex');
/** A transaction hash. */
export const txHash = fieldCodec('Transaction hash: a field element as 0x-prefixed hex');
/** A block hash (archive tree leaf). */
export const blockHash = fieldCodec('Block hash: a field element as 0x-prefixed hex');

/** An Ethereum (L1) address; the node works with the lowercase form. */
export const ethAddress = z
  .codec(z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected 0x followed by 40 hex digits'), z.string(), {
    decode: (text) => text.toLowerCase(),
    encode: (value) => value.toLowerCase(),
  })
  .describe('Ethereum address: 0x followed by 40 hex digits');

/** A non-negative big integer: a decimal string, or a JSON integer up to 2^53 - 1. */
export const bigintDec = z
  .codec(
    z.union([
      z.string().regex(/^(0|[1-9][0-9]*)$/, 'expected a decimal string without sign or leading zeros'),
      z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    ]),
    z.bigint().min(0n),
    {
      decode: (value) => BigInt(value),
      encode: (value) => value.toString(10),
    },
  )
  .describe('Non-negative integer as a decimal string (a JSON integer up to 2^53-1 is accepted too)');

/** A non-negative integer carried as a JSON number (block numbers, counts, tree ids). */
export const uint = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Slot numbers: a JSON number on output; a JSON integer or a decimal string on input. */
export const slotNumber = z
  .codec(
    z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^(0|[1-9][0-9]*)$/)]),
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    {
      decode: (value, ctx) => {
        const n = typeof value === 'number' ? value : Number(value);
        if (!Number.isSafeInteger(n)) {
          ctx.issues.push({ code: 'custom', message: 'slot number is too large', input: value });
          return z.NEVER;
        }
        return n;
      },
      encode: (value) => value,
    },
  )
  .describe('Slot number: a JSON integer or a decimal string');

/** Arbitrary bytes as 0x-prefixed hex (proofs, bytecode). */
export const bytesHex = z
  .codec(
    z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x followed by an even number of hex digits'),
    z.instanceof(Uint8Array),
    {
      decode: (text) => Uint8Array.from(Buffer.from(text.slice(2), 'hex')),
      encode: (bytes) => `0x${Buffer.from(bytes).toString('hex')}`,
    },
  )
  .describe('Bytes: 0x followed by an even number of hex digits');

/** A 4-byte function selector: 0x followed by up to 8 hex digits; a number in the node. */
export const functionSelectorHex = z
  .codec(
    z.string().regex(/^0x[0-9a-fA-F]{1,8}$/, 'expected a 4-byte function selector as 0x-prefixed hex'),
    uint,
    {
      decode: (text) => Number.parseInt(text.slice(2), 16),
      encode: (value) => `0x${value.toString(16).padStart(8, '0')}`,
    },
  )
  .describe('Function selector: 0x followed by 8 hex digits');

/** A public function allowed in a tx's setup phase, named by contract address or class id. */
export const allowedElement = z
  .object({
    address: l2Address.optional(),
    classId: frHex.optional(),
    selector: functionSelectorHex,
    onlySelf: z.boolean().optional(),
    rejectNullMsgSender: z.boolean().optional(),
    calldataLength: uint.optional(),
  })
  .strict()
  .refine((e) => (e.address === undefined) !== (e.classId === undefined), {
    message: 'an allowed element names exactly one of address or classId',
  })
  .describe('A public function allowed in the setup phase: {address | classId, selector, flags}');

/** The rollup's contracts on L1 that cairn deploys (config input and, extended, the API's L1ContractAddresses). */
export const deployedL1ContractAddresses = z
  .object({
    rollupAddress: ethAddress,
    registryAddress: ethAddress,
    inboxAddress: ethAddress,
    outboxAddress: ethAddress,
    feeJuiceAddress: ethAddress,
    feeJuicePortalAddress: ethAddress,
    /** The rollup's Slasher: read from the rollup; when given, it must match. */
    slashFactoryAddress: ethAddress.optional(),
  })
  .strict();
