// Backend selection (native addon vs TypeScript fallback), exercised in child processes because
// the choice is made once per process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNativePoseidon2 } from '../../../src/core/hash/native.js';

const hashModule = fileURLToPath(new URL('../../../src/core/hash/poseidon2.ts', import.meta.url));
const fieldModule = fileURLToPath(new URL('../../../src/core/field.ts', import.meta.url));

interface ChildReport {
  kind?: string;
  nativePath?: string;
  error?: string;
  known?: boolean;
  batchOk?: boolean;
  rejectOk?: boolean;
  warnings: { name: string; code?: string; message: string }[];
}

// The child hashes a few values through the hashing module, records process warnings and prints a
// JSON report on its last line.
const childScript = `
import * as H from ${JSON.stringify(hashModule)};
import { toBytes32, fromBytes32, FR_MODULUS } from ${JSON.stringify(fieldModule)};
const warnings = [];
process.on('warning', (w) => warnings.push({ name: w.name, code: w.code, message: w.message }));
const report = { warnings };
try {
  report.known = H.poseidon2Hash([1n, 2n]) === 0x038682aa1cb5ae4e0a3f13da432a95c77c5c111f6f030faf9cad641ce1ed7383n;
  for (let i = 0; i < 5; i++) H.poseidon2Hash([BigInt(i)]);
  const pairs = [[1n, 2n], [FR_MODULUS - 1n, 0n], [3n, 4n]];
  const buf = new Uint8Array(pairs.length * 64);
  pairs.forEach(([a, b], i) => { buf.set(toBytes32(a), i * 64); buf.set(toBytes32(b), i * 64 + 32); });
  const out = H.poseidon2HashPairs(buf);
  const fields = H.poseidon2HashBatchFields(pairs.flat(), 2);
  report.batchOk = pairs.every(([a, b], i) => fromBytes32(out, i * 32) === H.poseidon2Hash([a, b]) && fields[i] === H.poseidon2Hash([a, b]));
  buf.set(toBytes32(FR_MODULUS), 64 + 32);
  const target = new Uint8Array(96).fill(9);
  try { H.poseidon2HashBatch(buf, 2, target); report.rejectOk = false; }
  catch (e) { report.rejectOk = e instanceof RangeError && target.every((b) => b === 9); }
  report.kind = H.poseidon2Backend().kind;
  report.nativePath = H.poseidon2Backend().nativePath;
} catch (e) {
  report.error = e instanceof Error ? e.message : String(e);
}
setTimeout(() => console.log(JSON.stringify(report)), 20);
`;

function runChild(env: Record<string, string | undefined>): ChildReport {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.CAIRN_POSEIDON2;
  delete childEnv.CAIRN_POSEIDON2_ADDON;
  delete childEnv.CAIRN_POSEIDON2_PATH;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', childScript], {
    env: childEnv,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `child failed: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as ChildReport;
}

// As in poseidon2.test.ts, a missing addon is a failure unless CAIRN_POSEIDON2=ts was asked for.
const loaded = loadNativePoseidon2();
const nativeSkip =
  process.env.CAIRN_POSEIDON2 === 'ts' && !loaded.ok
    ? 'CAIRN_POSEIDON2=ts and the addon is not available'
    : false;
const adxSupported = loaded.ok && (loaded.addon.supportedPaths?.().includes('adx') ?? false);

describe('backend selection', () => {
  test('default: the native addon, no warning', { skip: nativeSkip }, () => {
    const r = runChild({});
    assert.equal(r.error, undefined);
    assert.equal(r.kind, 'native');
    assert.equal(r.known, true);
    assert.equal(r.batchOk, true);
    assert.equal(r.rejectOk, true);
    assert.deepEqual(r.warnings, []);
  });

  test('CAIRN_POSEIDON2=ts forces the TypeScript fallback without a warning', () => {
    const r = runChild({ CAIRN_POSEIDON2: 'ts' });
    assert.equal(r.error, undefined);
    assert.equal(r.kind, 'ts');
    assert.equal(r.known, true);
    assert.equal(r.batchOk, true);
    assert.equal(r.rejectOk, true);
    assert.deepEqual(r.warnings, []);
  });

  test('a missing addon falls back to TypeScript with exactly one warning', () => {
    const r = runChild({ CAIRN_POSEIDON2_ADDON: '/nonexistent/poseidon2.node' });
    assert.equal(r.error, undefined);
    assert.equal(r.kind, 'ts');
    assert.equal(r.known, true);
    assert.equal(r.batchOk, true);
    assert.equal(r.rejectOk, true);
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.code, 'CAIRN_POSEIDON2_FALLBACK');
    assert.match(r.warnings[0]!.message, /TypeScript fallback/);
  });

  test('CAIRN_POSEIDON2=native refuses to fall back', () => {
    const r = runChild({ CAIRN_POSEIDON2: 'native', CAIRN_POSEIDON2_ADDON: '/nonexistent/poseidon2.node' });
    assert.match(r.error ?? '', /CAIRN_POSEIDON2=native/);
    assert.deepEqual(r.warnings, []);
  });

  test('default: the adx path where the CPU has BMI2/ADX, else portable', { skip: nativeSkip }, () => {
    const r = runChild({});
    assert.equal(r.nativePath, adxSupported ? 'adx' : 'portable');
  });

  test('CAIRN_POSEIDON2_PATH=portable selects the portable multiplication', { skip: nativeSkip }, () => {
    const r = runChild({ CAIRN_POSEIDON2_PATH: 'portable' });
    assert.equal(r.error, undefined);
    assert.equal(r.kind, 'native');
    assert.equal(r.nativePath, 'portable');
    assert.equal(r.known, true);
    assert.equal(r.batchOk, true);
    assert.deepEqual(r.warnings, []);
  });

  test('CAIRN_POSEIDON2_PATH=adx selects the mulx/adcx/adox multiplication', {
    skip: nativeSkip || (adxSupported ? false : 'this CPU lacks BMI2/ADX: the adx path cannot run here'),
  }, () => {
    const r = runChild({ CAIRN_POSEIDON2_PATH: 'adx' });
    assert.equal(r.error, undefined);
    assert.equal(r.kind, 'native');
    assert.equal(r.nativePath, 'adx');
    assert.equal(r.known, true);
    assert.equal(r.batchOk, true);
    assert.deepEqual(r.warnings, []);
  });

  test('an unknown CAIRN_POSEIDON2_PATH makes the addon unusable: TypeScript with a warning saying why', () => {
    const r = runChild({ CAIRN_POSEIDON2_PATH: 'fast' });
    assert.equal(r.kind, 'ts');
    assert.equal(r.known, true);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0]!.message, /CAIRN_POSEIDON2_PATH/);
  });

  test('an unknown CAIRN_POSEIDON2 value is an error', () => {
    const r = runChild({ CAIRN_POSEIDON2: 'fast' });
    assert.match(r.error ?? '', /CAIRN_POSEIDON2 must be/);
  });
});
