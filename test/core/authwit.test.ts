// The authwit message hash against the reference's, as the Token vectors record it (the hash
// alice stores in the AuthRegistry to let bob move 100 of her tokens to carol with nonce 7).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { authwitInnerHash, authwitMessageHash } from '../../src/core/authwit.js';
import type { VectorFile } from '../avm/vectors.js';

const vectors: VectorFile = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test', 'avm', 'vectors', 'token.json'), 'utf8'),
);

describe('authwit hashes', () => {
  test("equal the reference's for the Token vectors' authorized transfer", () => {
    const authorize = vectors.steps.find((s) => s.name.startsWith('AuthRegistry.set_authorized'))!;
    const transfer = vectors.steps.find((s) => s.name.includes('by bob with authwit'))!;
    const [selector, ...args] = transfer.call.calldata.map(BigInt);
    const inner = authwitInnerHash(BigInt(transfer.call.sender), Number(selector), args);
    const message = authwitMessageHash(
      BigInt(transfer.call.address),
      BigInt(vectors.globals.chainId!),
      BigInt(vectors.globals.version!),
      inner,
    );
    assert.equal(message, BigInt(authorize.call.calldata[1]!));
    // Another caller, amount or consumer gives another hash.
    assert.notEqual(authwitInnerHash(BigInt(authorize.call.sender), Number(selector), args), inner);
    assert.notEqual(authwitMessageHash(5n, BigInt(vectors.globals.chainId!), 1n, inner), message);
  });
});
