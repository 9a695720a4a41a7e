// The reference's published contract artifacts (Token, AuthRegistry, AvmTest, ...), version 4.1.2,
// fetched from the npm registry into a git-ignored cache, `.cache/artifacts/<package>@<version>/`.
// The running node needs the genesis contracts' bytecode (node/genesis-artifacts.ts), the CLI names
// cached artifacts in its examples, and the tests and benches run the others. Artifacts are never
// committed; `node scripts/fetch-artifacts.mjs` is the command-line front of this module.
//
// - Only node built-ins: `npm pack` downloads the tarball (so npm's own cache, proxy and registry
//   settings apply), the tarball's sha512 is checked against the integrity pinned below, and
//   `tar` extracts only the listed files.
// - Idempotent: a package whose marker file records the pinned integrity and whose listed files
//   are all present is not fetched again.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One package's pinned tarball integrity and the artifact files taken from it. */
export interface ArtifactPackage {
  integrity: string;
  files: readonly string[];
}

/** Where a package's files are in the cache, by file name. */
export type CachedArtifacts = Record<string, { dir: string; files: Record<string, string> }>;

export interface EnsureArtifactsOptions {
  cacheDir?: string | undefined;
  packages?: Record<string, ArtifactPackage> | undefined;
  /** Fetch again even when cached. */
  force?: boolean | undefined;
  /** An npm registry URL. */
  registry?: string | undefined;
  /** npm's fetch retries (default 1). */
  retries?: number | undefined;
  /** Progress lines; silent by default. */
  log?: ((line: string) => void) | undefined;
}

/** The repository root (this file lives in src/artifacts/, or compiled in dist/artifacts/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the artifacts go unless told otherwise. `.cache/` is git-ignored. */
export const DEFAULT_CACHE_DIR = join(REPO_ROOT, '.cache', 'artifacts');

/**
 * The packages and the artifact files taken from each. The integrity strings are the registry's
 * `dist.integrity` for these exact versions (`npm view <pkg>@<ver> dist.integrity`); a tarball
 * that does not hash to them is rejected.
 */
export const ARTIFACT_PACKAGES: Record<string, ArtifactPackage> = {
  '@aztec/noir-contracts.js@4.1.2': {
    integrity:
      'sha512-eybN3ehbwRlNr/KYV0kOjoL4ZUeIKPG7Fymu3zL+f+csDlQTkaV6fU0j8pT7QQRJj9Xh3o2U0HUYBTUsXe5HFg==',
    files: [
      'artifacts/token_contract-Token.json',
      'artifacts/auth_registry_contract-AuthRegistry.json',
      'artifacts/nft_contract-NFT.json',
      'artifacts/sponsored_fpc_contract-SponsoredFPC.json',
    ],
  },
  '@aztec/noir-test-contracts.js@4.1.2': {
    integrity:
      'sha512-ccO/fZmDKvsH8xh1Z3WmiC++r39NZRxOLmEJ7Y45gXq5xKSt2Y+HdVezxjJeztxMWI/GKB+fIfVqKg+WuR+anA==',
    files: [
      'artifacts/avm_test_contract-AvmTest.json',
      'artifacts/avm_gadgets_test_contract-AvmGadgetsTest.json',
      'artifacts/parent_contract-Parent.json',
      'artifacts/child_contract-Child.json',
      'artifacts/static_parent_contract-StaticParent.json',
      'artifacts/static_child_contract-StaticChild.json',
    ],
  },
  '@aztec/protocol-contracts@4.1.2': {
    integrity:
      'sha512-q88cgeY/UccF7gEnz+6Nj/7kNEc+0V8VR+w48QXdgQEVjlWDtBKIzH/DCQ/JGYJFCDQOw8wTuRHGaA40/57iSg==',
    files: [
      'artifacts/AuthRegistry.json',
      'artifacts/FeeJuice.json',
      'artifacts/ContractInstanceRegistry.json',
      'artifacts/ContractClassRegistry.json',
      'artifacts/MultiCallEntrypoint.json',
      'artifacts/PublicChecks.json',
    ],
  },
};

const MARKER = '.complete.json';

/** Raised when a package cannot be fetched or does not verify. `code` is ERR_ARTIFACTS_UNAVAILABLE. */
export class ArtifactFetchError extends Error {
  override name = 'ArtifactFetchError';
  readonly code = 'ERR_ARTIFACTS_UNAVAILABLE';
}

/** The cache folder of one package spec, e.g. `<cacheDir>/@aztec/noir-contracts.js@4.1.2`. */
export function packageDir(spec: string, cacheDir = DEFAULT_CACHE_DIR): string {
  if (!/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+@[0-9][0-9A-Za-z.+-]*$/.test(spec)) {
    throw new Error(`not a pinned package spec: ${spec}`);
  }
  return join(cacheDir, spec);
}

/** The cached path of one artifact file (whether or not it is there yet). */
export function artifactPath(spec: string, file: string, cacheDir = DEFAULT_CACHE_DIR): string {
  if (file.includes('..') || file.startsWith('/')) throw new Error(`bad artifact file name: ${file}`);
  return join(packageDir(spec, cacheDir), file);
}

/** True when `data` hashes to an SRI string such as `sha512-<base64>`. */
export function matchesIntegrity(data: Uint8Array, integrity: string): boolean {
  const m = /^(sha512|sha384|sha256|sha1)-(.+)$/.exec(integrity);
  if (!m) throw new Error(`unsupported integrity string: ${integrity}`);
  return createHash(m[1]!).update(data).digest('base64') === m[2];
}

/** True when the package is cached with the pinned integrity and all listed files. */
export function isCached(spec: string, entry: ArtifactPackage, cacheDir = DEFAULT_CACHE_DIR): boolean {
  const dir = packageDir(spec, cacheDir);
  const marker = join(dir, MARKER);
  if (!existsSync(marker)) return false;
  try {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as { integrity?: string };
    if (m.integrity !== entry.integrity) return false;
  } catch {
    return false;
  }
  return entry.files.every((f) => existsSync(join(dir, f)));
}

/**
 * Downloads one package with `npm pack`, checks its integrity, and extracts the listed files into
 * the cache. Files are extracted into a temporary folder first and moved into place, and the
 * marker is written last, so an interrupted run leaves nothing that passes `isCached`.
 */
async function fetchPackage(
  spec: string,
  entry: ArtifactPackage,
  cacheDir: string,
  { registry, retries, log }: { registry: string | undefined; retries: number; log: (line: string) => void },
): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'cairn-artifacts-'));
  try {
    const args = [
      'pack',
      spec,
      '--pack-destination',
      tmp,
      '--json',
      `--fetch-retries=${retries}`,
      '--loglevel=error',
    ];
    if (registry) args.push(`--registry=${registry}`);
    log(`fetching ${spec} with npm pack ...`);
    let packed: { filename: string; integrity: string };
    try {
      const { stdout } = await run('npm', args, { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
      packed = (JSON.parse(stdout) as { filename: string; integrity: string }[])[0]!;
    } catch (err) {
      const e = err as { stderr?: string; message?: string };
      const lines = String(e.stderr || e.message || err)
        .split('\n')
        .map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim())
        .filter((l) => l && !/complete log of this run|^npm warn/i.test(l));
      const detail = lines.slice(0, 2).join(' / ') || 'npm pack failed';
      throw new ArtifactFetchError(
        `could not fetch ${spec} from the npm registry${registry ? ` (${registry})` : ''}: ${detail}. ` +
          'The AVM tests need the real contract artifacts; run `node scripts/fetch-artifacts.mjs` once the ' +
          'registry is reachable (npm serves them from its own cache afterwards).',
        { cause: err },
      );
    }
    const tarball = join(tmp, packed.filename);
    const data = readFileSync(tarball);
    if (!matchesIntegrity(data, entry.integrity)) {
      throw new ArtifactFetchError(
        `integrity mismatch for ${spec}: the tarball does not hash to the pinned ${entry.integrity}` +
          ` (npm reported ${packed.integrity})`,
      );
    }
    const out = join(tmp, 'x');
    mkdirSync(out);
    try {
      await run('tar', ['-xzf', tarball, '-C', out, ...entry.files.map((f) => `package/${f}`)], {
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (err) {
      throw new ArtifactFetchError(
        `could not extract ${entry.files.join(', ')} from ${spec}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    const dir = packageDir(spec, cacheDir);
    for (const f of entry.files) {
      const dest = join(dir, f);
      mkdirSync(dirname(dest), { recursive: true });
      renameSync(join(out, 'package', f), dest);
    }
    writeFileSync(
      join(dir, MARKER),
      `${JSON.stringify({ spec, integrity: entry.integrity, files: entry.files, fetchedAt: new Date().toISOString() }, null, 2)}\n`,
    );
    log(`cached ${entry.files.length} artifact(s) of ${spec} in ${dir}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Makes sure every listed artifact is in the cache, fetching what is missing, and returns
 * `{ [spec]: { dir, files: { [file]: absolutePath } } }`.
 */
export async function ensureArtifacts(options: EnsureArtifactsOptions = {}): Promise<CachedArtifacts> {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const packages = options.packages ?? ARTIFACT_PACKAGES;
  const log = options.log ?? (() => {});
  const result: CachedArtifacts = {};
  for (const [spec, entry] of Object.entries(packages)) {
    if (options.force || !isCached(spec, entry, cacheDir)) {
      await fetchPackage(spec, entry, cacheDir, {
        registry: options.registry,
        retries: options.retries ?? 1,
        log,
      });
    }
    const files: Record<string, string> = {};
    for (const f of entry.files) files[f] = artifactPath(spec, f, cacheDir);
    result[spec] = { dir: packageDir(spec, cacheDir), files };
  }
  return result;
}

/** Reads one cached artifact as JSON (after `ensureArtifacts`). */
// biome-ignore lint/suspicious/noExplicitAny: an artifact is JSON of the reference's own shape, checked by its reader
export function loadArtifactJson(spec: string, file: string, cacheDir = DEFAULT_CACHE_DIR): any {
  return JSON.parse(readFileSync(artifactPath(spec, file, cacheDir), 'utf8'));
}

/**
 * The public bytecode of a cached contract artifact: its `public_dispatch` function's bytecode,
 * which the artifacts ship as base64 of raw AVM bytecode.
 */
export function publicDispatchBytecode(spec: string, file: string, cacheDir = DEFAULT_CACHE_DIR): Uint8Array {
  const artifact = loadArtifactJson(spec, file, cacheDir) as {
    functions: { name: string; bytecode: string }[];
  };
  const dispatch = artifact.functions.find((f) => f.name === 'public_dispatch');
  if (dispatch === undefined) throw new Error(`${file} of ${spec} has no public_dispatch function`);
  return new Uint8Array(Buffer.from(dispatch.bytecode, 'base64'));
}
