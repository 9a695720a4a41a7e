// The validator keystore: a JSON file of validators, each an attester key (signs proposals
// and attestations) with an optional publisher key (sends L1 transactions; the attester key
// when absent), coinbase (L1 address paid for blocks) and fee recipient (L2 address paid fees).
//
//   { "validators": [ { "attester": "0x<32-byte key>", "publisher": "0x…", "coinbase": "0x<20 bytes>", "feeRecipient": "0x…" } ] }
//
// A dev node with no keystore gets one of freshly generated keys, written with mode 0600.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import { z } from 'zod';
import { ethAddress, l2Address } from '../core/codecs.js';
import { accountFromKey } from '../l1/signer.js';

const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected a private key: 0x followed by 64 hex digits')
  .transform((k) => k.toLowerCase() as Hex);

const keystoreFile = z
  .object({
    validators: z
      .array(
        z
          .object({
            attester: privateKey,
            publisher: privateKey.optional(),
            coinbase: ethAddress.optional(),
            feeRecipient: l2Address.optional(),
          })
          .strict(),
      )
      .min(1, 'a keystore holds at least one validator'),
  })
  .strict();

export interface Validator {
  /** Signs proposals and attestations; its address identifies the validator. */
  attester: PrivateKeyAccount;
  /** Sends this validator's L1 transactions. */
  publisher: PrivateKeyAccount;
  /** L1 address credited for its blocks; unset: the node's coinbase setting, else the attester's address. */
  coinbase?: string;
  /** L2 address credited with fees; unset: the node's feeRecipient setting, else 0. */
  feeRecipient?: bigint;
}

/**
 * The keystore's validators in use: read at start, replaced by a keystore reload. One holder
 * shared by the parts that sign, so a reload reaches them all without a reference to the node.
 */
export class ValidatorKeys {
  constructor(
    /** The keystore file a reload reads. */
    readonly path: string,
    private validators: readonly Validator[],
  ) {}

  get current(): readonly Validator[] {
    return this.validators;
  }

  replace(validators: readonly Validator[]): void {
    this.validators = validators;
  }
}

export class KeystoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeystoreError';
  }
}

/** Reads and checks a keystore file. */
export function loadKeystore(path: string): Validator[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new KeystoreError(`cannot read keystore ${path}: ${(err as Error).message}`);
  }
  const parsed = keystoreFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new KeystoreError(`invalid keystore ${path}: ${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  const validators = parsed.data.validators.map((v) => {
    const attester = accountFromKey(v.attester);
    return {
      attester,
      publisher: v.publisher ? accountFromKey(v.publisher) : attester,
      ...(v.coinbase === undefined ? {} : { coinbase: v.coinbase }),
      ...(v.feeRecipient === undefined ? {} : { feeRecipient: v.feeRecipient }),
    };
  });
  const seen = new Set<string>();
  for (const v of validators) {
    const address = v.attester.address.toLowerCase();
    if (seen.has(address))
      throw new KeystoreError(`invalid keystore ${path}: validator ${address} appears twice`);
    seen.add(address);
  }
  return validators;
}

/** Writes a keystore of `count` new validators (mode 0600) unless the file exists. */
export function ensureDevKeystore(path: string, count: number): { created: boolean } {
  if (existsSync(path)) return { created: false };
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError('a dev keystore needs at least one validator');
  mkdirSync(dirname(path), { recursive: true });
  const file = { validators: Array.from({ length: count }, () => ({ attester: generatePrivateKey() })) };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return { created: true };
}
