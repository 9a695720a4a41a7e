// The ABI of contract functions as compiled artifacts describe it (Noir's ABI, 4.1.2 toolchain):
// the parameter and return types, the function signature a selector is hashed from, and the
// encoding of values to fields and back. Every value travels as one or more fields: a field, an
// integer or a bool as one; a string of length N as N (one byte each); arrays and structs as
// their elements' fields in order.
import { FR_MODULUS, type Fr, toHex32 } from './field.js';

export type AbiType =
  | { kind: 'field' }
  | { kind: 'boolean' }
  | { kind: 'integer'; sign: 'signed' | 'unsigned'; width: number }
  | { kind: 'array'; length: number; type: AbiType }
  | { kind: 'string'; length: number }
  | { kind: 'struct'; path: string; fields: { name: string; type: AbiType }[] }
  | { kind: 'tuple'; fields: AbiType[] };

export interface AbiParameter {
  name: string;
  type: AbiType;
}

/** A value as given to `encodeValue` or returned by `decodeValue`. */
export type AbiValue = bigint | number | string | boolean | AbiValue[] | { [field: string]: AbiValue };

/** A bad argument: says which argument and why, in one line. */
export class AbiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AbiError';
  }
}

/** The type as it appears in a function signature (`u128`, `(Field)`, `[Field;3]`, `str<31>`). */
export function signatureType(type: AbiType): string {
  switch (type.kind) {
    case 'field':
      return 'Field';
    case 'boolean':
      return 'bool';
    case 'integer':
      return `${type.sign === 'signed' ? 'i' : 'u'}${type.width}`;
    case 'array':
      return `[${signatureType(type.type)};${type.length}]`;
    case 'string':
      return `str<${type.length}>`;
    case 'struct':
      return `(${type.fields.map((f) => signatureType(f.type)).join(',')})`;
    case 'tuple':
      return `(${type.fields.map(signatureType).join(',')})`;
  }
}

/** `name(type,type…)`, the text a function selector is hashed from. */
export function functionSignature(name: string, parameters: readonly AbiParameter[]): string {
  return `${name}(${parameters.map((p) => signatureType(p.type)).join(',')})`;
}

/** How many fields a value of the type takes. */
export function fieldCount(type: AbiType): number {
  switch (type.kind) {
    case 'field':
    case 'boolean':
    case 'integer':
      return 1;
    case 'array':
      return type.length * fieldCount(type.type);
    case 'string':
      return type.length;
    case 'struct':
      return type.fields.reduce((n, f) => n + fieldCount(f.type), 0);
    case 'tuple':
      return type.fields.reduce((n, f) => n + fieldCount(f), 0);
  }
}

/** The short name of a struct (`AztecAddress` for `aztec::…::AztecAddress`). */
export function structName(type: Extract<AbiType, { kind: 'struct' }>): string {
  return type.path.split('::').at(-1) ?? type.path;
}

/** A struct with one field (AztecAddress, EthAddress, FunctionSelector…) is written as that field. */
function singleField(type: AbiType): AbiType | undefined {
  return type.kind === 'struct' && type.fields.length === 1 ? type.fields[0]!.type : undefined;
}

function describe(type: AbiType): string {
  return type.kind === 'struct' ? structName(type) : signatureType(type);
}

/** An integer from a bigint, a safe integer number, or decimal / 0x-hex text (with a sign). */
function toBigInt(value: AbiValue, where: string, type: AbiType): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return BigInt(value);
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (/^-?(0x[0-9a-fA-F]+|[0-9]+)$/.test(text)) {
      const negative = text.startsWith('-');
      const magnitude = BigInt(negative ? text.slice(1) : text);
      return negative ? -magnitude : magnitude;
    }
  }
  throw new AbiError(`${where}: expected ${describe(type)} (a number or 0x-hex), got ${show(value)}`);
}

function show(value: AbiValue): string {
  const text = JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Encodes `value` as `type`, appending its fields to `out`. `where` names it in errors. */
export function encodeValue(type: AbiType, value: AbiValue, where: string, out: Fr[] = []): Fr[] {
  switch (type.kind) {
    case 'field': {
      const v = toBigInt(value, where, type);
      if (v < 0n || v >= FR_MODULUS) throw new AbiError(`${where}: ${show(value)} is not a field element`);
      out.push(v);
      return out;
    }
    case 'boolean': {
      if (value === true || value === 'true' || value === 1 || value === '1' || value === 1n) out.push(1n);
      else if (value === false || value === 'false' || value === 0 || value === '0' || value === 0n)
        out.push(0n);
      else throw new AbiError(`${where}: expected bool (true or false), got ${show(value)}`);
      return out;
    }
    case 'integer': {
      const v = toBigInt(value, where, type);
      const w = BigInt(type.width);
      const [min, max] =
        type.sign === 'signed' ? [-(1n << (w - 1n)), (1n << (w - 1n)) - 1n] : [0n, (1n << w) - 1n];
      if (v < min || v > max)
        throw new AbiError(
          `${where}: ${show(value)} is out of range for ${signatureType(type)} (${min}..${max})`,
        );
      // Signed integers are two's complement in their width.
      out.push(v < 0n ? (1n << w) + v : v);
      return out;
    }
    case 'string': {
      if (typeof value !== 'string') throw new AbiError(`${where}: expected a string, got ${show(value)}`);
      const bytes = Buffer.from(value, 'utf8');
      if (bytes.length > type.length)
        throw new AbiError(`${where}: "${value}" is ${bytes.length} bytes, longer than str<${type.length}>`);
      for (let i = 0; i < type.length; i++) out.push(BigInt(bytes[i] ?? 0));
      return out;
    }
    case 'array': {
      if (!Array.isArray(value))
        throw new AbiError(`${where}: expected an array of ${type.length}, got ${show(value)}`);
      if (value.length !== type.length)
        throw new AbiError(`${where}: expected ${type.length} elements, got ${value.length}`);
      value.forEach((v, i) => {
        encodeValue(type.type, v, `${where}[${i}]`, out);
      });
      return out;
    }
    case 'tuple': {
      if (!Array.isArray(value) || value.length !== type.fields.length)
        throw new AbiError(`${where}: expected a tuple of ${type.fields.length}, got ${show(value)}`);
      value.forEach((v, i) => {
        encodeValue(type.fields[i]!, v, `${where}.${i}`, out);
      });
      return out;
    }
    case 'struct': {
      const only = singleField(type);
      if (only !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        try {
          return encodeValue(only, value, where, out);
        } catch (err) {
          if (!(err instanceof AbiError)) throw err;
          throw new AbiError(`${where}: expected ${structName(type)} (0x-hex), got ${show(value)}`);
        }
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new AbiError(`${where}: expected a ${structName(type)} object, got ${show(value)}`);
      const given = Object.keys(value);
      const unknown = given.filter((k) => !type.fields.some((f) => f.name === k));
      if (unknown.length > 0)
        throw new AbiError(`${where}: ${structName(type)} has no field ${unknown.join(', ')}`);
      for (const f of type.fields) {
        if (!(f.name in value)) throw new AbiError(`${where}: ${structName(type)} needs field ${f.name}`);
        encodeValue(f.type, value[f.name]!, `${where}.${f.name}`, out);
      }
      return out;
    }
  }
}

/** Encodes a function's arguments, in order; errors name the function and the parameter. */
export function encodeArguments(
  functionName: string,
  parameters: readonly AbiParameter[],
  args: readonly AbiValue[],
): Fr[] {
  if (args.length !== parameters.length) {
    throw new AbiError(
      `${functionName} takes ${parameters.length} argument(s) (${parameters.map((p) => `${p.name}: ${describe(p.type)}`).join(', ')}), got ${args.length}`,
    );
  }
  const out: Fr[] = [];
  parameters.forEach((p, i) => {
    encodeValue(p.type, args[i]!, `${functionName} argument ${p.name}`, out);
  });
  return out;
}

/**
 * Decodes a value of `type` from `fields` at `offset`; returns it and the offset after it. Fields
 * and addresses come back as 0x-hex text, integers as bigints (signed ones with their sign),
 * strings as text, structs as objects (a one-field struct as its field).
 */
export function decodeValue(
  type: AbiType,
  fields: readonly Fr[],
  offset = 0,
): { value: AbiValue; next: number } {
  const need = fieldCount(type);
  if (offset + need > fields.length)
    throw new AbiError(`expected ${need} field(s) for ${describe(type)}, have ${fields.length - offset}`);
  switch (type.kind) {
    case 'field':
      return { value: toHex32(fields[offset]!), next: offset + 1 };
    case 'boolean':
      return { value: fields[offset]! !== 0n, next: offset + 1 };
    case 'integer': {
      const w = BigInt(type.width);
      const raw = fields[offset]! & ((1n << w) - 1n);
      const value = type.sign === 'signed' && raw >= 1n << (w - 1n) ? raw - (1n << w) : raw;
      return { value, next: offset + 1 };
    }
    case 'string': {
      const bytes = fields.slice(offset, offset + type.length).map((f) => Number(f & 0xffn));
      const end = bytes.indexOf(0);
      return {
        value: Buffer.from(end < 0 ? bytes : bytes.slice(0, end)).toString('utf8'),
        next: offset + type.length,
      };
    }
    case 'array': {
      const out: AbiValue[] = [];
      let at = offset;
      for (let i = 0; i < type.length; i++) {
        const d = decodeValue(type.type, fields, at);
        out.push(d.value);
        at = d.next;
      }
      return { value: out, next: at };
    }
    case 'tuple': {
      const out: AbiValue[] = [];
      let at = offset;
      for (const t of type.fields) {
        const d = decodeValue(t, fields, at);
        out.push(d.value);
        at = d.next;
      }
      return { value: out, next: at };
    }
    case 'struct': {
      // aztec-nr's FieldCompressedString: up to 31 bytes of text in one field.
      if (structName(type) === 'FieldCompressedString' && type.fields.length === 1) {
        const bytes = Buffer.from(fields[offset]!.toString(16).padStart(62, '0'), 'hex');
        return { value: bytes.toString('utf8').replace(/\0+$/u, '').replace(/^\0+/u, ''), next: offset + 1 };
      }
      if (singleField(type) !== undefined) return decodeValue(type.fields[0]!.type, fields, offset);
      const out: { [field: string]: AbiValue } = {};
      let at = offset;
      for (const f of type.fields) {
        const d = decodeValue(f.type, fields, at);
        out[f.name] = d.value;
        at = d.next;
      }
      return { value: out, next: at };
    }
  }
}

/** JSON text of a decoded value: bigints as decimal strings when large, numbers when safe. */
export function abiValueToJson(value: AbiValue): unknown {
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(abiValueToJson);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abiValueToJson(v)]));
  return value;
}
