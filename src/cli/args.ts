// Argument parsers shared by the CLI's commands (commander calls them per option value).
import { InvalidArgumentError } from 'commander';
import { FR_MODULUS, type Fr } from '../core/field.js';

/** A field element, as 0x hex or decimal. */
export function field(text: string): Fr {
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]+)$/.test(text))
    throw new InvalidArgumentError(`not a field element: ${text}`);
  const value = BigInt(text);
  if (value >= FR_MODULUS) throw new InvalidArgumentError(`not below the field modulus: ${text}`);
  return value;
}

/** A number above zero (e.g. seconds). */
export function positiveNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a number above 0, got ${text}`);
  return n;
}

/** Gas limits: `L2` or `L2,DA` (DA defaults to a tx's most, 786,432). */
export function gasLimit(text: string): { l2Gas: number; daGas: number } {
  const m = /^(\d+)(?:,(\d+))?$/.exec(text);
  if (!m) throw new InvalidArgumentError(`expected L2 gas, or L2,DA gas (e.g. 2000000,100000), got ${text}`);
  return { l2Gas: Number(m[1]), daGas: Number(m[2] ?? 786_432) };
}

/** A block number (0 or more). */
export function blockNumber(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a block number, got ${text}`);
  return n;
}
