// Compiled contract artifacts of the reference toolchain (4.1.2 format: a Noir contract's JSON,
// `"transpiled": true`): what a client needs from one — its functions with their ABI, kind and
// selector, the public bytecode (`public_dispatch`, raw AVM code), the storage layout and the
// messages of its error selectors — and the ids the reference tools derive from it: the artifact
// hash and the private functions root, hence the class id and, with an instance's inputs, the
// address.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  AbiError,
  type AbiParameter,
  type AbiType,
  type AbiValue,
  decodeValue,
  encodeArguments,
  functionSignature,
} from './abi.js';
import { type ContractClassPublic, makeContractClass, type PrivateFunction } from './contracts.js';
import { bytesToFr, FR_MODULUS, type Fr } from './field.js';
import { poseidon2Hash } from './hash/poseidon2.js';
import { functionSelector } from './hash/selector.js';

export type FunctionKind = 'private' | 'public' | 'utility';

export interface ArtifactFunction {
  name: string;
  kind: FunctionKind;
  isInitializer: boolean;
  /** A view (`#[view]`): callable in a static call. */
  isStatic: boolean;
  /** Callable only by the contract itself. */
  isOnlySelf: boolean;
  parameters: AbiParameter[];
  /** What the function returns, if anything. */
  returnType: AbiType | undefined;
  signature: string;
  selector: number;
  /** The function's own bytecode as stored (private: gzipped ACIR; public: raw AVM code). */
  bytecode: Uint8Array<ArrayBuffer>;
  verificationKey: Uint8Array<ArrayBuffer> | undefined;
}

export interface ContractArtifact {
  name: string;
  functions: ArtifactFunction[];
  /** The contract's public bytecode: its `public_dispatch` function (empty if it has none). */
  publicBytecode: Uint8Array<ArrayBuffer>;
  /** Storage variables and their slots. */
  storage: Map<string, Fr>;
  /** Error selector → what a revert with it means. */
  errors: Map<bigint, ArtifactError>;
  /** The artifact hash the reference tools compute (computeArtifactHash). */
  artifactHash: Fr;
}

export type ArtifactError =
  | { kind: 'string'; message: string }
  | { kind: 'fmtstring'; length: number; itemTypes: AbiType[] }
  | { kind: 'custom'; type: AbiType };

/** An artifact that cannot be used: says which field is wrong. */
export class InvalidArtifactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArtifactError';
  }
}

// ---- the JSON format ------------------------------------------------------------------------

const abiType: z.ZodType<AbiType> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('field') }),
    z.object({ kind: z.literal('boolean') }),
    z.object({
      kind: z.literal('integer'),
      sign: z.enum(['signed', 'unsigned']),
      width: z.number().int().min(1).max(254),
    }),
    z.object({ kind: z.literal('array'), length: z.number().int().min(0), type: abiType }),
    z.object({ kind: z.literal('string'), length: z.number().int().min(0) }),
    z.object({
      kind: z.literal('struct'),
      path: z.string(),
      fields: z.array(z.object({ name: z.string(), type: abiType })),
    }),
    z.object({ kind: z.literal('tuple'), fields: z.array(abiType) }),
  ]),
);

/** Values in `outputs.globals` (the storage layout among them). */
type GlobalValue =
  | { kind: 'boolean'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'array'; value: GlobalValue[] }
  | { kind: 'tuple'; fields: GlobalValue[] }
  | { kind: 'integer'; value: string; sign: boolean }
  | { kind: 'struct'; fields: { name: string; value: GlobalValue }[] };

const globalValue: z.ZodType<GlobalValue> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('boolean'), value: z.boolean() }),
    z.object({ kind: z.literal('string'), value: z.string() }),
    z.object({ kind: z.literal('array'), value: z.array(globalValue) }),
    z.object({ kind: z.literal('tuple'), fields: z.array(globalValue) }),
    z.object({ kind: z.literal('integer'), value: z.string(), sign: z.boolean() }),
    z.object({
      kind: z.literal('struct'),
      fields: z.array(z.object({ name: z.string(), value: globalValue })),
    }),
  ]),
);

const errorType = z.union([
  z.object({ error_kind: z.literal('string'), string: z.string() }),
  z.object({ error_kind: z.literal('fmtstring'), length: z.number(), item_types: z.array(abiType) }),
  z.looseObject({ error_kind: z.literal('custom') }),
]);

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64');

const rawFunction = z.object({
  name: z.string().min(1),
  is_unconstrained: z.boolean(),
  custom_attributes: z.array(z.string()),
  abi: z.object({
    parameters: z.array(
      z.object({ name: z.string(), type: abiType, visibility: z.enum(['public', 'private', 'databus']) }),
    ),
    return_type: z.object({ abi_type: abiType, visibility: z.string() }).nullable(),
    error_types: z.record(z.string(), errorType),
  }),
  bytecode: base64,
  verification_key: base64.optional(),
});

const rawArtifact = z.object({
  name: z.string().min(1),
  transpiled: z.boolean().optional(),
  noir_version: z.string().optional(),
  functions: z.array(rawFunction),
  outputs: z.object({
    structs: z.record(z.string(), z.array(abiType)),
    globals: z.record(z.string(), z.array(globalValue)),
  }),
});

type RawArtifact = z.infer<typeof rawArtifact>;
type RawFunction = z.infer<typeof rawFunction>;

/** `functions[3].abi.parameters` from a zod issue path. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

function kindOf(fn: RawFunction): FunctionKind {
  if (fn.custom_attributes.includes('abi_private')) return 'private';
  if (fn.custom_attributes.includes('abi_public')) return 'public';
  if (fn.custom_attributes.includes('abi_utility')) return 'utility';
  throw new InvalidArtifactError(
    `function ${fn.name} is neither private, public nor utility (custom_attributes ${JSON.stringify(fn.custom_attributes)})`,
  );
}

/** A private function's first parameter is the kernel's context inputs, not an argument. */
function userParameters(fn: RawFunction): AbiParameter[] {
  const params = fn.abi.parameters.map(({ name, type }) => ({ name, type }));
  const first = params[0]?.type;
  return first?.kind === 'struct' && first.path.includes('ContextInputs') ? params.slice(1) : params;
}

/**
 * Return types as the reference records them for hashing: a utility function's own return type;
 * a private or public function's from the `<Contract>::<function>_abi` struct in outputs.
 */
function recordedReturnTypes(raw: RawArtifact, fn: RawFunction, kind: FunctionKind): AbiType[] {
  if (kind === 'utility') return fn.abi.return_type ? [fn.abi.return_type.abi_type] : [];
  const abiStruct = (raw.outputs.structs.functions ?? []).find(
    (s) => s.kind === 'struct' && s.path === `${raw.name}::${fn.name}_abi`,
  );
  const field =
    abiStruct?.kind === 'struct' ? abiStruct.fields.find((f) => f.name === 'return_type') : undefined;
  return field ? [field.type] : [];
}

function storageLayout(raw: RawArtifact): Map<string, Fr> {
  const out = new Map<string, Fr>();
  // A contract's layout names it: imported contracts' layouts may be listed too.
  const mine = (raw.outputs.globals.storage ?? []).find(
    (v) =>
      v.kind === 'struct' &&
      v.fields.some(
        (f) => f.name === 'contract_name' && f.value.kind === 'string' && f.value.value === raw.name,
      ),
  );
  if (mine?.kind !== 'struct') return out;
  const fields = mine.fields.find((f) => f.name === 'fields')?.value;
  if (fields?.kind !== 'struct') return out;
  for (const { name, value } of fields.fields) {
    const slot = value.kind === 'struct' ? value.fields.find((f) => f.name === 'slot')?.value : undefined;
    if (slot?.kind !== 'integer' || !/^[0-9a-fA-F]+$/.test(slot.value))
      throw new InvalidArtifactError(`storage variable ${name} has no slot`);
    out.set(name, BigInt(`0x${slot.value}`));
  }
  return out;
}

// ---- the artifact hash (the reference's computeArtifactHash) ------------------------------------

const ARTIFACT_HASH_VERSION = 1;

/** sha256, reduced into the field. */
function sha256Fr(bytes: Uint8Array): Fr {
  return bytesToFr(createHash('sha256').update(bytes).digest()) % FR_MODULUS;
}

const fr32 = (value: Fr): Buffer => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');

/** JSON with every object's keys sorted, as the reference hashes artifact metadata. */
export function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : sortedJson(v))).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** Root of a sha256 Merkle tree over `leaves`, padded with zero leaves to a power of two. */
function sha256MerkleRoot(leaves: Buffer[]): Fr {
  if (leaves.length === 0) return 0n;
  let level = [...leaves];
  const size = 2 ** Math.ceil(Math.log2(leaves.length));
  while (level.length < size) level.push(Buffer.alloc(32));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(fr32(sha256Fr(Buffer.concat([level[i]!, level[i + 1]!]))));
    level = next;
  }
  return bytesToFr(level[0]!);
}

/** The outputs as the reference reads them: events and functions structs ordered by path, descending. */
function canonicalOutputs(raw: RawArtifact): RawArtifact['outputs'] {
  const structs: Record<string, AbiType[]> = {};
  for (const [key, list] of Object.entries(raw.outputs.structs)) {
    structs[key] =
      key === 'events' || key === 'functions'
        ? [...list].sort((a, b) => ((a as { path?: string }).path! > (b as { path?: string }).path! ? -1 : 1))
        : list;
  }
  return { structs, globals: raw.outputs.globals };
}

function functionTreeRoot(raw: RawArtifact, functions: ArtifactFunction[], kind: FunctionKind): Fr {
  const leaves = functions
    .filter((f) => f.kind === kind)
    .sort((a, b) => a.selector - b.selector)
    .map((f) => {
      const rawFn = raw.functions.find((r) => r.name === f.name)!;
      const metadataHash = sha256Fr(Buffer.from(sortedJson(recordedReturnTypes(raw, rawFn, kind)), 'utf8'));
      const selector = Buffer.alloc(4);
      selector.writeUInt32BE(f.selector);
      return fr32(
        sha256Fr(
          Buffer.concat([
            Buffer.from([ARTIFACT_HASH_VERSION]),
            selector,
            fr32(metadataHash),
            fr32(sha256Fr(f.bytecode)),
          ]),
        ),
      );
    });
  return sha256MerkleRoot(leaves);
}

function computeArtifactHash(raw: RawArtifact, functions: ArtifactFunction[]): Fr {
  const metadataHash = sha256Fr(
    Buffer.from(sortedJson({ name: raw.name, outputs: canonicalOutputs(raw) }), 'utf8'),
  );
  return sha256Fr(
    Buffer.concat([
      Buffer.from([ARTIFACT_HASH_VERSION]),
      fr32(functionTreeRoot(raw, functions, 'private')),
      fr32(functionTreeRoot(raw, functions, 'utility')),
      fr32(metadataHash),
    ]),
  );
}

// ---- loading --------------------------------------------------------------------------------

/** Reads an artifact's JSON (already parsed); throws InvalidArtifactError naming what is wrong. */
export function parseArtifact(json: unknown): ContractArtifact {
  const parsed = rawArtifact.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = fieldPath(issue.path);
    throw new InvalidArtifactError(
      `not a contract artifact of the 4.x toolchain: ${where === '' ? '' : `${where}: `}${issue.message}`,
    );
  }
  const raw = parsed.data;
  const functions: ArtifactFunction[] = raw.functions.map((fn) => {
    const kind = kindOf(fn);
    const parameters = userParameters(fn);
    const signature = functionSignature(fn.name, parameters);
    return {
      name: fn.name,
      kind,
      isInitializer: fn.custom_attributes.includes('abi_initializer'),
      isStatic: fn.custom_attributes.includes('abi_view'),
      isOnlySelf: fn.custom_attributes.includes('abi_only_self'),
      parameters,
      returnType: fn.abi.return_type?.abi_type ?? recordedReturnTypes(raw, fn, kind)[0],
      signature,
      selector: functionSelector(signature),
      bytecode: Uint8Array.from(Buffer.from(fn.bytecode, 'base64')),
      verificationKey:
        fn.verification_key === undefined
          ? undefined
          : Uint8Array.from(Buffer.from(fn.verification_key, 'base64')),
    };
  });
  const dispatch = functions.find((f) => f.kind === 'public' && f.name === 'public_dispatch');
  if (functions.some((f) => f.kind === 'public') && raw.transpiled !== true)
    throw new InvalidArtifactError(
      'its public bytecode is not transpiled to AVM code ("transpiled" is not true)',
    );
  const errors = new Map<bigint, ArtifactError>();
  for (const fn of raw.functions) {
    for (const [selector, e] of Object.entries(fn.abi.error_types)) {
      if (!/^[0-9]+$/.test(selector)) continue;
      const key = BigInt(selector);
      if (e.error_kind === 'string') errors.set(key, { kind: 'string', message: e.string });
      else if (e.error_kind === 'fmtstring')
        errors.set(key, { kind: 'fmtstring', length: e.length, itemTypes: e.item_types });
      else {
        const { error_kind: _k, ...type } = e;
        const t = abiType.safeParse(type);
        if (t.success) errors.set(key, { kind: 'custom', type: t.data });
      }
    }
  }
  return {
    name: raw.name,
    functions,
    publicBytecode: dispatch?.bytecode ?? new Uint8Array(0),
    storage: storageLayout(raw),
    errors,
    artifactHash: computeArtifactHash(raw, functions),
  };
}

/** A function by name; the error lists the functions there are. */
export function findFunction(
  artifact: ContractArtifact,
  name: string,
  kind?: FunctionKind,
): ArtifactFunction {
  const fn = artifact.functions.find((f) => f.name === name && (kind === undefined || f.kind === kind));
  if (fn === undefined) {
    // The public functions are the ones a node runs: those are listed.
    const names = artifact.functions
      .filter((f) => f.kind === (kind ?? 'public') && f.name !== 'public_dispatch')
      .map((f) => f.name);
    throw new AbiError(
      `${artifact.name} has no ${kind ?? ''}${kind ? ' ' : ''}function ${name}; its ${kind ?? 'public'} functions are: ${names.join(', ')}`,
    );
  }
  return fn;
}

/** The calldata of a public call: the selector, then the encoded arguments. */
export function publicCalldata(fn: ArtifactFunction, args: readonly AbiValue[]): Fr[] {
  return [BigInt(fn.selector), ...encodeArguments(fn.name, fn.parameters, args)];
}

/** A function's return value from the fields a call returned (undefined if it returns nothing). */
export function decodeReturn(fn: ArtifactFunction, fields: readonly Fr[]): AbiValue | undefined {
  return fn.returnType === undefined ? undefined : decodeValue(fn.returnType, fields).value;
}

/**
 * What revert data means: a Noir assertion reverts with `[error selector, …]`; its message comes
 * from the artifact. Undefined when the selector is not the artifact's.
 */
export function revertMessage(artifact: ContractArtifact, revertData: readonly Fr[]): string | undefined {
  return revertMessageOf(artifact.errors, revertData);
}

/** What revert data means, given a table of errors by selector (revertMessage). */
export function revertMessageOf(
  errors: ReadonlyMap<bigint, ArtifactError>,
  revertData: readonly Fr[],
): string | undefined {
  const [selector, ...rest] = revertData;
  if (selector === undefined) return undefined;
  const e = errors.get(selector);
  if (e === undefined) return undefined;
  if (e.kind === 'string') return e.message;
  if (e.kind === 'custom') {
    try {
      return JSON.stringify(decodeValue(e.type, rest).value, (_k, v) =>
        typeof v === 'bigint' ? v.toString() : v,
      );
    } catch {
      return undefined;
    }
  }
  // A formatted message: its text (one byte per field), then the values it formats.
  if (rest.length < e.length) return undefined;
  const text = Buffer.from(rest.slice(0, e.length).map((f) => Number(f & 0xffn))).toString('utf8');
  const items: string[] = [];
  let at = e.length;
  for (const type of e.itemTypes) {
    try {
      const d = decodeValue(type, rest, at);
      items.push(JSON.stringify(d.value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
      at = d.next;
    } catch {
      break;
    }
  }
  return items.length === 0 ? text : `${text} (${items.join(', ')})`;
}

// ---- the class ------------------------------------------------------------------------------

/** A verification key's hash: Poseidon2 over its fields (the key is 32-byte big-endian fields). */
export function verificationKeyHash(key: Uint8Array): Fr {
  if (key.length % 32 !== 0)
    throw new InvalidArtifactError(`a verification key of ${key.length} bytes is not whole fields`);
  const fields: Fr[] = [];
  for (let i = 0; i < key.length; i += 32) fields.push(bytesToFr(key.subarray(i, i + 32)));
  return poseidon2Hash(fields);
}

/** The private functions as a class commits to them: selector and verification key hash. */
export function privateFunctionsOf(artifact: ContractArtifact): PrivateFunction[] {
  return artifact.functions
    .filter((f) => f.kind === 'private')
    .map((f) => {
      if (f.verificationKey === undefined)
        throw new InvalidArtifactError(`private function ${f.name} has no verification_key`);
      return { selector: f.selector, vkHash: verificationKeyHash(f.verificationKey) };
    });
}

/** The contract class the reference tools derive from the artifact (same id). */
export function contractClassOf(artifact: ContractArtifact): ContractClassPublic {
  return makeContractClass({
    artifactHash: artifact.artifactHash,
    privateFunctions: privateFunctionsOf(artifact),
    packedBytecode: artifact.publicBytecode,
  });
}
