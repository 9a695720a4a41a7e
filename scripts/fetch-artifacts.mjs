#!/usr/bin/env node
// Fetches the real, compiled 4.1.2 contract artifacts that the AVM tests run (Token, AvmTest, ...)
// from the npm registry into a git-ignored cache, `.cache/artifacts/<package>@<version>/`.
// Artifacts are never committed: the golden vectors under test/avm/vectors/ name a package and a
// file, and the tests load the bytecode from here.
//
// - Only node built-ins: `npm pack` downloads the tarball (so npm's own cache, proxy and registry
//   settings apply), the tarball's sha512 is checked against the integrity pinned below, and
//   `tar` extracts only the listed files.
// - Idempotent: a package whose marker file records the pinned integrity and whose listed files
//   are all present is not fetched again.
// - CLI: `node scripts/fetch-artifacts.mjs [--cache-dir DIR] [--force]` prints the paths.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root (this file lives in scripts/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the artifacts go unless told otherwise. `.cache/` is git-ignored. */
export const DEFAULT_CACHE_DIR = join(REPO_ROOT, '.cache', 'artifacts');

/**
 * The packages and the artifact files taken from each. The integrity strings are the registry's
 * `dist.integrity` for these exact versions (`npm view <pkg>@<ver> dist.integrity`); a tarball
 * that does not hash to them is rejected.
 */
export const ARTIFACT_PACKAGES = {
  '@aztec/noir-contracts.js@4.1.2': {
    integrity:
      'sha512-eybN3ehbwRlNr/KYV0kOjoL4ZUeIKPG7Fymu3zL+f+csDlQTkaV6fU0j8pT7QQRJj9Xh3o2U0HUYBTUsXe5HFg==',
    files: [
      'artifacts/token_contract-Token.json',
      'artifacts/auth_registry_contract-AuthRegistry.json',
      'artifacts/nft_contract-NFT.json',
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
    ],
  },
};

const MARKER = '.complete.json';

/** Raised when a package cannot be fetched or does not verify. `code` is ERR_ARTIFACTS_UNAVAILABLE. */
export class ArtifactFetchError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'ArtifactFetchError';
    this.code = 'ERR_ARTIFACTS_UNAVAILABLE';
  }
}

/** The cache folder of one package spec, e.g. `<cacheDir>/@aztec/noir-contracts.js@4.1.2`. */
export function packageDir(spec, cacheDir = DEFAULT_CACHE_DIR) {
  if (!/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+@[0-9][0-9A-Za-z.+-]*$/.test(spec)) {
    throw new Error(`not a pinned package spec: ${spec}`);
  }
  return join(cacheDir, spec);
}

/** The cached path of one artifact file (whether or not it is there yet). */
export function artifactPath(spec, file, cacheDir = DEFAULT_CACHE_DIR) {
  if (file.includes('..') || file.startsWith('/')) throw new Error(`bad artifact file name: ${file}`);
  return join(packageDir(spec, cacheDir), file);
}

/** True when `data` hashes to an SRI string such as `sha512-<base64>`. */
export function matchesIntegrity(data, integrity) {
  const m = /^(sha512|sha384|sha256|sha1)-(.+)$/.exec(integrity);
  if (!m) throw new Error(`unsupported integrity string: ${integrity}`);
  return createHash(m[1]).update(data).digest('base64') === m[2];
}

/** True when the package is cached with the pinned integrity and all listed files. */
export function isCached(spec, entry, cacheDir = DEFAULT_CACHE_DIR) {
  const dir = packageDir(spec, cacheDir);
  const marker = join(dir, MARKER);
  if (!existsSync(marker)) return false;
  try {
    const m = JSON.parse(readFileSync(marker, 'utf8'));
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
async function fetchPackage(spec, entry, cacheDir, { registry, retries, log }) {
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
    let packed;
    try {
      const { stdout } = await run('npm', args, { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
      packed = JSON.parse(stdout)[0];
    } catch (err) {
      const lines = String(err.stderr || err.message || err)
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
        `could not extract ${entry.files.join(', ')} from ${spec}: ${err.message}`,
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
 * Options: `cacheDir`, `packages` (default ARTIFACT_PACKAGES), `force` (fetch again),
 * `registry` (an npm registry URL), `retries` (npm's fetch retries, default 1), `log` (a function for progress lines; silent by default).
 */
export async function ensureArtifacts(options = {}) {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const packages = options.packages ?? ARTIFACT_PACKAGES;
  const log = options.log ?? (() => {});
  const result = {};
  for (const [spec, entry] of Object.entries(packages)) {
    if (options.force || !isCached(spec, entry, cacheDir)) {
      await fetchPackage(spec, entry, cacheDir, {
        registry: options.registry,
        retries: options.retries ?? 1,
        log,
      });
    }
    const files = {};
    for (const f of entry.files) files[f] = artifactPath(spec, f, cacheDir);
    result[spec] = { dir: packageDir(spec, cacheDir), files };
  }
  return result;
}

/** Reads one cached artifact as JSON (after `ensureArtifacts`). */
export function loadArtifactJson(spec, file, cacheDir = DEFAULT_CACHE_DIR) {
  return JSON.parse(readFileSync(artifactPath(spec, file, cacheDir), 'utf8'));
}

/**
 * The public bytecode of a cached contract artifact: its `public_dispatch` function's bytecode,
 * which the artifacts ship as base64 of raw AVM bytecode.
 */
export function publicDispatchBytecode(spec, file, cacheDir = DEFAULT_CACHE_DIR) {
  const dispatch = loadArtifactJson(spec, file, cacheDir).functions.find((f) => f.name === 'public_dispatch');
  if (dispatch === undefined) throw new Error(`${file} of ${spec} has no public_dispatch function`);
  return new Uint8Array(Buffer.from(dispatch.bytecode, 'base64'));
}

async function main(argv) {
  const opts = { log: (line) => console.error(line) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--force') opts.force = true;
    else if (a === '--cache-dir') opts.cacheDir = resolve(argv[++i]);
    else if (a === '--registry') opts.registry = argv[++i];
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/fetch-artifacts.mjs [--cache-dir DIR] [--force] [--registry URL]');
      return 0;
    } else {
      console.error(`unknown argument: ${a}`);
      return 2;
    }
  }
  try {
    const res = await ensureArtifacts(opts);
    for (const { files } of Object.values(res)) for (const p of Object.values(files)) console.log(p);
    return 0;
  } catch (err) {
    console.error(err instanceof ArtifactFetchError ? err.message : err);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
