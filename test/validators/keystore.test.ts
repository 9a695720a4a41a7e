import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { recoverMessageAddress } from 'viem';
import { ensureDevKeystore, KeystoreError, loadKeystore } from '../../src/validators/keystore.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-keystore-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY_A = `0x${'11'.repeat(32)}`;
const KEY_B = `0x${'22'.repeat(32)}`;

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('validator keystore', () => {
  test('a dev keystore is generated once, private to its owner, and loads', () => {
    const path = join(dir, 'dev', 'keystore.json');
    assert.deepEqual(ensureDevKeystore(path, 3), { created: true });
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const first = loadKeystore(path);
    assert.equal(first.length, 3);
    assert.deepEqual(ensureDevKeystore(path, 5), { created: false });
    const again = loadKeystore(path);
    assert.deepEqual(
      again.map((v) => v.attester.address),
      first.map((v) => v.attester.address),
    );
    assert.equal(new Set(first.map((v) => v.attester.address)).size, 3);
  });

  test('defaults: publisher = attester; coinbase and fee recipient left to the node', () => {
    const [v] = loadKeystore(file('defaults.json', { validators: [{ attester: KEY_A }] }));
    assert.equal(v!.publisher.address, v!.attester.address);
    assert.equal(v!.coinbase, undefined);
    assert.equal(v!.feeRecipient, undefined);
    const [w] = loadKeystore(
      file('explicit.json', {
        validators: [
          { attester: KEY_A, publisher: KEY_B, coinbase: `0x${'AB'.repeat(20)}`, feeRecipient: '0x1234' },
        ],
      }),
    );
    assert.notEqual(w!.publisher.address, w!.attester.address);
    assert.equal(w!.coinbase, `0x${'ab'.repeat(20)}`);
    assert.equal(w!.feeRecipient, 0x1234n);
  });

  test('an attester key signs messages recoverable to its address', async () => {
    const [v] = loadKeystore(file('sign.json', { validators: [{ attester: KEY_A }] }));
    const digest = `0x${'5a'.repeat(32)}` as const;
    const signature = await v!.attester.signMessage({ message: { raw: digest } });
    assert.equal(await recoverMessageAddress({ message: { raw: digest }, signature }), v!.attester.address);
  });

  test('bad keystores are refused with a clear message', () => {
    const cases: [unknown, RegExp][] = [
      ['not json', /cannot read keystore/],
      [{ validators: [] }, /at least one validator/],
      [{ validators: [{ attester: '0x1234' }] }, /validators\.0\.attester: expected a private key/],
      [{ validators: [{ attester: KEY_A, extra: 1 }] }, /Unrecognized key/],
      [{ validators: [{ attester: KEY_A }, { attester: KEY_A }] }, /appears twice/],
      [{ validators: [{ attester: KEY_A, coinbase: '0x12' }] }, /coinbase/],
    ];
    cases.forEach(([content, pattern], i) => {
      assert.throws(
        () => loadKeystore(file(`bad${i}.json`, content)),
        (err: unknown) => err instanceof KeystoreError && pattern.test(err.message),
        String(pattern),
      );
    });
    assert.throws(() => loadKeystore(join(dir, 'missing.json')), /cannot read keystore/);
  });
});
