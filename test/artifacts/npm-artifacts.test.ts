// The artifact cache the AVM vectors run from (src/artifacts/npm-artifacts.ts): integrity checks,
// spec validation, a clear error when the registry cannot be reached, and, with the cache in
// place, the real Token artifact with its public dispatcher. Also checks that every vector file
// in test/avm/vectors/ names only cached artifacts and has the fields its consumers read.
// Set CAIRN_SKIP_ARTIFACTS=1 to skip the parts that need the npm registry (or its local cache).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  ARTIFACT_PACKAGES,
  ArtifactFetchError,
  artifactPath,
  ensureArtifacts,
  isCached,
  loadArtifactJson,
  matchesIntegrity,
  packageDir,
} from '../../src/artifacts/npm-artifacts.js';

const skipNetwork = process.env.CAIRN_SKIP_ARTIFACTS ? 'CAIRN_SKIP_ARTIFACTS is set' : false;
const vectorsDir = join(import.meta.dirname, '..', 'avm', 'vectors');
const scratch = mkdtempSync(join(tmpdir(), 'cairn-fetch-artifacts-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('fetch-artifacts: offline behaviour', () => {
  test('integrity strings are checked with the named hash', () => {
    const data = Buffer.from('abc');
    const sri = `sha512-${createHash('sha512').update(data).digest('base64')}`;
    assert.equal(matchesIntegrity(data, sri), true);
    assert.equal(matchesIntegrity(Buffer.from('abd'), sri), false);
    assert.throws(() => matchesIntegrity(data, 'md5-xyz'), /unsupported integrity/);
  });

  test('only pinned specs and plain file names are accepted', () => {
    assert.match(
      packageDir('@aztec/noir-contracts.js@4.1.2', '/c'),
      /@aztec[/\\]noir-contracts\.js@4\.1\.2$/,
    );
    assert.throws(() => packageDir('@aztec/noir-contracts.js', '/c'), /not a pinned package spec/);
    assert.throws(() => packageDir('@aztec/noir-contracts.js@latest', '/c'), /not a pinned package spec/);
    assert.throws(
      () => artifactPath('@aztec/noir-contracts.js@4.1.2', '../../etc/passwd', '/c'),
      /bad artifact/,
    );
  });

  test('every pinned package has an sha512 integrity and artifact JSON files', () => {
    for (const [spec, entry] of Object.entries(ARTIFACT_PACKAGES)) {
      assert.match(entry.integrity, /^sha512-[A-Za-z0-9+/]+=*$/, spec);
      assert.ok(entry.files.length > 0, spec);
      for (const f of entry.files) assert.match(f, /^artifacts\/[\w.-]+\.json$/, `${spec} ${f}`);
    }
  });

  test('an empty cache is not taken as cached', () => {
    const [spec, entry] = Object.entries(ARTIFACT_PACKAGES)[0]!;
    assert.equal(isCached(spec, entry, join(scratch, 'empty')), false);
  });

  test('an unreachable registry gives an ArtifactFetchError that says what to do', async () => {
    const packages = {
      '@aztec/protocol-contracts@4.1.2': ARTIFACT_PACKAGES['@aztec/protocol-contracts@4.1.2']!,
    };
    await assert.rejects(
      ensureArtifacts({
        cacheDir: join(scratch, 'unreachable'),
        packages,
        registry: 'http://127.0.0.1:9/',
        retries: 0,
      }),
      (err: unknown) => {
        assert.ok(err instanceof ArtifactFetchError);
        assert.equal(err.code, 'ERR_ARTIFACTS_UNAVAILABLE');
        assert.match(err.message, /could not fetch @aztec\/protocol-contracts@4\.1\.2/);
        assert.match(err.message, /fetch-artifacts\.mjs/);
        return true;
      },
    );
  });
});

describe('fetch-artifacts: the real cache', { skip: skipNetwork }, () => {
  test('ensureArtifacts fills the cache and is then idempotent', async () => {
    const first = await ensureArtifacts();
    for (const [spec, entry] of Object.entries(ARTIFACT_PACKAGES)) {
      assert.equal(isCached(spec, entry), true, spec);
      assert.deepEqual(Object.keys(first[spec]!.files).sort(), [...entry.files].sort());
    }
    const started = Date.now();
    const second = await ensureArtifacts();
    assert.deepEqual(second, first);
    assert.ok(Date.now() - started < 2000, 'a cached run does not fetch again');
  });

  test('Token has a public_dispatch whose bytecode is raw AVM code', async () => {
    await ensureArtifacts();
    const token = loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json');
    assert.equal(token.name, 'Token');
    assert.equal(token.transpiled, true);
    const dispatch = token.functions.find((f: { name: string }) => f.name === 'public_dispatch');
    assert.ok(dispatch, 'public_dispatch present');
    const code = Buffer.from(dispatch.bytecode, 'base64');
    assert.equal(code[0], 0x27, 'starts with SET_8, not gzip');
    assert.equal(code.length, 27_196);
  });

  test('every artifact a vector file names is in the fetch list and cached', async () => {
    const ensured = await ensureArtifacts();
    for (const file of readdirSync(vectorsDir).filter((f) => f.endsWith('.json'))) {
      const doc = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'));
      for (const c of doc.contracts) {
        if (!c.artifact) continue;
        const path = ensured[c.artifact.package]?.files[c.artifact.file];
        assert.ok(
          path,
          `${file}: ${c.name} names ${c.artifact.package} ${c.artifact.file}, which is not fetched`,
        );
      }
    }
  });
});

describe('vector files have the fields their consumers read', () => {
  const files = readdirSync(vectorsDir).filter((f) => f.endsWith('.json'));
  test('the six groups are there', () => {
    assert.deepEqual(files.sort(), [
      'avm-gadgets.json',
      'avm-test.json',
      'custom-bytecode.json',
      'nested-calls.json',
      'protocol-contracts.json',
      'token.json',
    ]);
  });
  for (const file of files) {
    test(file, () => {
      const doc = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'));
      assert.equal(doc.reference, '@aztec/simulator@4.1.2');
      assert.equal(doc.generatedBy, 'scripts/avm-oracle/generate.mjs');
      for (const k of ['chainId', 'version', 'blockNumber', 'timestamp', 'feePerDaGas', 'feePerL2Gas']) {
        assert.equal(typeof doc.globals[k], 'string', k);
      }
      assert.match(doc.firstNullifier, /^0x[0-9a-f]{64}$/);
      const addresses = new Set<string>();
      for (const c of doc.contracts) {
        assert.ok(c.artifact || c.bytecode || c.instanceOnly, `${c.name} has code or is instance-only`);
        assert.match(c.address, /^0x[0-9a-f]{64}$/);
        assert.match(c.classId, /^0x[0-9a-f]{64}$/);
        addresses.add(c.address);
      }
      let lastTx = -1;
      for (const s of doc.steps) {
        assert.ok(s.tx === lastTx || s.tx === lastTx + 1, `${s.name}: tx numbers go up by one`);
        lastTx = s.tx;
        assert.ok(addresses.has(s.call.address), `${s.name}: calls a listed contract`);
        for (const x of s.call.calldata) assert.match(x, /^0x[0-9a-f]+$/);
        assert.equal(typeof s.call.l2GasLimit, 'number');
        const e = s.expect;
        assert.equal(typeof e.reverted, 'boolean');
        assert.ok(Number.isInteger(e.instructions) && e.instructions >= 0);
        assert.ok(e.l2GasUsed >= 0 && e.l2GasUsed <= s.call.l2GasLimit, `${s.name}: l2 gas`);
        assert.ok(e.daGasUsed >= 0 && e.daGasUsed <= s.call.daGasLimit, `${s.name}: da gas`);
        if (e.reverted) {
          for (const k of ['storageWrites', 'nullifiers', 'noteHashes', 'publicLogs', 'l2ToL1Messages']) {
            assert.deepEqual(e[k], [], `${s.name}: a reverted call leaves no ${k}`);
          }
        }
      }
    });
  }
});
