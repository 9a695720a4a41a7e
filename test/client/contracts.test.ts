// The client's contract helpers that need no node: revert data read back from a receipt's error,
// storage slots of variables and map entries, and public calls built from an artifact.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ensureArtifacts, loadArtifactJson } from '../../src/artifacts/npm-artifacts.js';
import {
  type ContractArtifact,
  decodeRevertReason,
  findFunction,
  mapStorageSlot,
  parseArtifact,
  publicCall,
  revertDataOf,
  storageSlot,
} from '../../src/client/index.js';

describe('client contract helpers', () => {
  test("revertDataOf reads the data a receipt's error ends with", () => {
    assert.deepEqual(revertDataOf('App logic reverted: Assertion failed (revert data 0x01, 0x0a)'), [
      '0x01',
      '0x0a',
    ]);
    assert.deepEqual(revertDataOf('App logic reverted: out of gas'), []);
    assert.deepEqual(revertDataOf('(revert data 0x01) and more'), []);
  });

  describe('with the Token artifact', {
    skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
  }, () => {
    let token: ContractArtifact;
    before(async () => {
      await ensureArtifacts();
      token = parseArtifact(
        loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'),
      );
    });

    test('storage slots: a variable is its layout slot, a map entry hashes each key in', () => {
      assert.equal(storageSlot(token, 'total_supply'), 4n);
      assert.equal(storageSlot(token, 'public_balances', [7n]), mapStorageSlot(5n, 7n));
      assert.equal(storageSlot(token, 'minters', [1n, 2n]), mapStorageSlot(mapStorageSlot(2n, 1n), 2n));
      assert.throws(
        () => storageSlot(token, 'balance'),
        /has no storage variable balance; it has: admin, minters/,
      );
    });

    test('public calls carry the selector and the encoded arguments; private functions are refused', () => {
      const mint = findFunction(token, 'mint_to_public');
      const call = publicCall(9n, mint, ['0x05', 10], { msgSender: 3n, isStaticCall: true });
      assert.deepEqual(call, {
        contractAddress: 9n,
        selector: mint.selector,
        args: [5n, 10n],
        msgSender: 3n,
        isStaticCall: true,
      });
      assert.throws(
        () => publicCall(9n, findFunction(token, 'transfer'), []),
        /transfer is a private function/,
      );
    });

    test("a receipt's error decodes to the contract's message when the artifact knows the selector", () => {
      const error =
        'App logic reverted: Assertion failed (revert data 0x000000000000000000000000000000000000000000000000820abc023de5f12e)';
      assert.equal(decodeRevertReason(error, token), 'caller is not minter');
      assert.equal(
        decodeRevertReason('App logic reverted: out of gas', token),
        'App logic reverted: out of gas',
      );
    });
  });
});
