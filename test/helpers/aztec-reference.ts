// The reference node client, `createAztecNodeClient` of @aztec/stdlib 4.1.2, and the reference's
// own classes that the /aztec tests check cairn's answers with (block and header hashes, witnesses,
// Poseidon2), and the stock wallet beside them (aztec-wallet.ts). They are never a dependency of
// cairn: test/aztec-client/ pins them (a package.json naming exactly the 4.1.2 packages, Node 22
// from npm and fake-indexeddb, and its package-lock.json, whose integrity hashes npm checks), and
// `ensureAztecClient` installs exactly that lock from the npm registry into the git-ignored
// `.cache/aztec-client/` (~60 s, ~1 GB, once: a cache holding the same lock and stdlib 4.1.2 is
// used as is). `loadAztecReference` then imports the modules by file path under that folder, so
// that the reference's own modules, which import each other by package name, and the test share
// one instance of each file.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';

const run = promisify(execFile);

export const AZTEC_VERSION = '4.1.2';
/** The committed pin: package.json and package-lock.json. */
export const AZTEC_CLIENT_PIN_DIR = join(REPO_ROOT, 'test', 'aztec-client');
/** Where the pinned install lives (`.cache/` is git-ignored). */
export const AZTEC_CLIENT_DIR = join(REPO_ROOT, '.cache', 'aztec-client');

const PIN_FILES = ['package.json', 'package-lock.json'] as const;

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** The lock files agree (as JSON: npm may write the same lock with other whitespace). */
function sameJson(a: string, b: string): boolean {
  try {
    return isDeepStrictEqual(readJson(a), readJson(b));
  } catch {
    return false;
  }
}

/** True when `dir` holds the pinned install: both pin files as committed and stdlib 4.1.2. */
export function isAztecClientInstalled(dir = AZTEC_CLIENT_DIR): boolean {
  const stdlib = join(dir, 'node_modules', '@aztec', 'stdlib', 'package.json');
  if (!existsSync(stdlib)) return false;
  try {
    if ((readJson(stdlib) as { version?: string }).version !== AZTEC_VERSION) return false;
  } catch {
    return false;
  }
  return PIN_FILES.every((f) => sameJson(join(dir, f), join(AZTEC_CLIENT_PIN_DIR, f)));
}

/** The first lines of npm's error, without its chatter, for an error message. */
function npmError(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  const lines = String(e.stderr || e.message || err)
    .split('\n')
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim())
    .filter((l) => l && !/complete log of this run|^npm warn/i.test(l));
  return lines.slice(0, 4).join(' / ') || String(err);
}

/** The longest an install may take (npm is stopped then); a lock older than this is stale. */
const INSTALL_TIMEOUT_MS = 600_000;

async function npm(args: string[], cwd: string): Promise<void> {
  await run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: INSTALL_TIMEOUT_MS });
}

/** Whether process `pid` runs (a signal 0 checks without sending anything). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` holding `.cache/aztec-client.lock` (a file naming this process), so that test files
 * run at once install the client once: the others wait, then find it installed. A lock whose
 * process is gone, or older than the longest install, is taken over.
 */
async function withInstallLock<T>(log: (line: string) => void, fn: () => Promise<T>): Promise<T> {
  const lock = `${AZTEC_CLIENT_DIR}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  let said = false;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = Number.NaN;
    let age = 0;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if ((Number.isInteger(holder) && holder > 0 && !running(holder)) || age > INSTALL_TIMEOUT_MS) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!said)
      log(`aztec-reference: waiting for process ${holder}, which is installing the reference client ...`);
    said = true;
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Makes sure `.cache/aztec-client/` holds exactly the pinned install, installing it from the npm
 * registry if not, and returns the folder. The install runs in a fresh sibling folder that
 * replaces the old one only once complete, so an interrupted install leaves nothing that passes
 * `isAztecClientInstalled`, and under a lock, so that test files run at once install it once.
 * The install is `npm install` with the committed lock in place, which takes every version and
 * integrity from the lock; the lock it leaves must still equal the committed one, or the install
 * fails. (Not `npm ci`: npm leaves the platform-specific optional packages of
 * @crate-crypto/node-eth-kzg for other platforms out of the lock it writes, and `npm ci` then
 * refuses that lock as out of sync with package.json.)
 */
export async function ensureAztecClient(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<string> {
  if (isAztecClientInstalled()) return AZTEC_CLIENT_DIR;
  await withInstallLock(log, async () => {
    if (isAztecClientInstalled()) return; // another process installed it while this one waited
    await install(log);
  });
  return AZTEC_CLIENT_DIR;
}

async function install(log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const fresh = `${AZTEC_CLIENT_DIR}.installing-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  try {
    for (const f of PIN_FILES) writeFileSync(join(fresh, f), readFileSync(join(AZTEC_CLIENT_PIN_DIR, f)));
    log(
      `aztec-reference: installing the reference's client and wallet (${AZTEC_VERSION}) from the npm ` +
        'registry into .cache/aztec-client (~60 s and ~1 GB, once) ...',
    );
    try {
      await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], fresh);
    } catch (err) {
      throw new Error(
        `could not install @aztec/stdlib@${AZTEC_VERSION} from test/aztec-client/ into ${fresh}: ${npmError(err)}`,
        { cause: err },
      );
    }
    if (!sameJson(join(fresh, 'package-lock.json'), join(AZTEC_CLIENT_PIN_DIR, 'package-lock.json'))) {
      throw new Error(
        `the installed package-lock.json in ${fresh} differs from test/aztec-client/package-lock.json: ` +
          'npm resolved other packages than the committed lock pins. Regenerate the lock (npm install ' +
          '--package-lock-only --ignore-scripts in a copy of test/aztec-client/) and review the change.',
      );
    }
    if (!isAztecClientInstalled(fresh)) {
      throw new Error(`npm finished, but ${fresh} does not hold @aztec/stdlib@${AZTEC_VERSION}`);
    }
    const old = `${AZTEC_CLIENT_DIR}.old-${process.pid}`;
    if (existsSync(AZTEC_CLIENT_DIR)) renameSync(AZTEC_CLIENT_DIR, old);
    renameSync(fresh, AZTEC_CLIENT_DIR);
    rmSync(old, { recursive: true, force: true });
  } catch (err) {
    rmSync(fresh, { recursive: true, force: true });
    throw err;
  }
  log(`aztec-reference: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The reference modules the /aztec tests use. Their types stay `any`: the packages are not
 * dependencies of cairn, so the type checker does not see them.
 */
export interface AztecReference {
  /** `createAztecNodeClient(url)`: the stock client, with its zod schemas and versioning. */
  createAztecNodeClient: (url: string, ...rest: any[]) => any;
  /** The 55 methods' schemas, by name (without the `node_` prefix). */
  AztecNodeApiSchema: Record<string, any>;
  Fr: any;
  BlockHeader: any;
  L2Block: any;
  BlockHash: any;
  SiblingPath: any;
  MembershipWitness: any;
  NullifierMembershipWitness: any;
  PublicDataWitness: any;
  MerkleTreeId: any;
  SiloedTag: any;
  Tag: any;
  TxHash: any;
  /** The reference's Tx (`Tx.random()` makes one that encodes as a real client would send it). */
  Tx: any;
  AztecAddress: any;
  EthAddress: any;
  /** `@aztec/foundation/crypto/poseidon`: poseidon2Hash, poseidon2HashWithSeparator, … */
  poseidon: any;
  /** `computeRootFromSiblingPath(leaf, path, index, hasher?)` (Poseidon2 by default). */
  computeRootFromSiblingPath: (leaf: Buffer, path: Buffer[], index: number) => Promise<Buffer>;
  /** `@aztec/stdlib/hash`: computePublicDataTreeLeafSlot, siloNullifier, … */
  hash: any;
  /** `@aztec/constants`: tree heights, the generators, … */
  constants: any;
  /** The reference's package.json versions, as installed. */
  versions: Record<string, string>;
}

let loaded: Promise<AztecReference> | undefined;
/** bb.js, once imported: its WASM workers keep the process alive until `closeAztecReference`. */
let barretenberg: any;

/**
 * Installs the pinned client if needed (`ensureAztecClient`) and imports the reference modules,
 * with bb.js on its WASM backend (the native one needs a newer glibc than some machines have) and
 * without its CRS download (no proving here, and the download needs more than the npm registry).
 */
export function loadAztecReference(log?: (line: string) => void): Promise<AztecReference> {
  loaded ??= load(log).catch((err) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
}

/** Stops bb.js's WASM workers (else the test process does not exit); loading again starts them. */
export async function closeAztecReference(): Promise<void> {
  if (barretenberg === undefined) return;
  await barretenberg.Barretenberg.destroySingleton();
  barretenberg.BarretenbergSync.destroySingleton();
  barretenberg = undefined;
  loaded = undefined;
}

async function load(log?: (line: string) => void): Promise<AztecReference> {
  const dir = await ensureAztecClient(log);
  const pkg = (name: string) => join(dir, 'node_modules', '@aztec', name);
  const imp = (name: string, file: string) => import(pathToFileURL(join(pkg(name), file)).href);
  const versions: Record<string, string> = {};
  for (const name of ['stdlib', 'foundation', 'bb.js', 'constants']) {
    versions[name] = (readJson(join(pkg(name), 'package.json')) as { version: string }).version;
    if (versions[name] !== AZTEC_VERSION) {
      throw new Error(`@aztec/${name} is ${versions[name]} in ${dir}, expected ${AZTEC_VERSION}`);
    }
  }

  // The reference's logger (pino) reads LOG_LEVEL when first imported: quiet unless asked for.
  process.env.LOG_LEVEL ??= 'silent';
  // bb.js first, so that Poseidon2 (through Barretenberg's singletons) runs on WASM.
  const bb = await imp('bb.js', 'dest/node/index.js');
  barretenberg = bb;
  bb.Barretenberg.prototype.initSRSChonk = async () => {};
  await bb.Barretenberg.initSingleton({ backend: bb.BackendType.Wasm });
  await bb.BarretenbergSync.initSingleton({ backend: bb.BackendType.Wasm });

  const [node, tx, block, blockHash, trees, nullifierWitness, publicDataWitness, treeId, logs] =
    await Promise.all([
      imp('stdlib', 'dest/interfaces/aztec-node.js'),
      imp('stdlib', 'dest/tx/index.js'),
      imp('stdlib', 'dest/block/l2_block.js'),
      imp('stdlib', 'dest/block/block_hash.js'),
      imp('foundation', 'dest/trees/index.js'),
      imp('stdlib', 'dest/trees/nullifier_membership_witness.js'),
      imp('stdlib', 'dest/trees/public_data_witness.js'),
      imp('stdlib', 'dest/trees/merkle_tree_id.js'),
      imp('stdlib', 'dest/logs/index.js'),
    ]);
  const [bn254, poseidon, address, ethAddress, constants, hash] = await Promise.all([
    imp('foundation', 'dest/curves/bn254/index.js'),
    imp('foundation', 'dest/crypto/poseidon/index.js'),
    imp('stdlib', 'dest/aztec-address/index.js'),
    imp('foundation', 'dest/eth-address/index.js'),
    imp('constants', 'dest/constants.js'),
    imp('stdlib', 'dest/hash/index.js'),
  ]);
  return {
    createAztecNodeClient: node.createAztecNodeClient,
    AztecNodeApiSchema: node.AztecNodeApiSchema,
    Fr: bn254.Fr,
    BlockHeader: tx.BlockHeader,
    L2Block: block.L2Block,
    BlockHash: blockHash.BlockHash,
    SiblingPath: trees.SiblingPath,
    MembershipWitness: trees.MembershipWitness,
    NullifierMembershipWitness: nullifierWitness.NullifierMembershipWitness,
    PublicDataWitness: publicDataWitness.PublicDataWitness,
    MerkleTreeId: treeId.MerkleTreeId,
    SiloedTag: logs.SiloedTag,
    Tag: logs.Tag,
    TxHash: tx.TxHash,
    Tx: tx.Tx,
    AztecAddress: address.AztecAddress,
    EthAddress: ethAddress.EthAddress,
    poseidon,
    computeRootFromSiblingPath: trees.computeRootFromSiblingPath,
    hash,
    constants,
    versions,
  };
}
