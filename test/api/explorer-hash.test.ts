// The hashes the explorer page computes in the browser (src/api/explorer-hash.ts), run in a bare
// JavaScript context and compared with src/core's Poseidon2 and the node's own slot and nullifier
// derivations.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { EXPLORER_HASH_SCRIPT } from '../../src/api/explorer-hash.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { siloNullifier } from '../../src/core/contracts.js';
import { FR_MODULUS, toHex32 } from '../../src/core/field.js';
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot, publicDataLeafSlot } from '../../src/execution/public-storage.js';

interface BrowserHashes {
  poseidon2(inputs: bigint[]): bigint;
  mapSlot(slot: bigint, key: bigint): bigint;
  leafSlot(contract: bigint, slot: bigint): bigint;
  siloedNullifier(contract: bigint, nullifier: bigint): bigint;
  hex32(v: bigint): string;
}

/** The fragment as the page runs it: declarations in a function scope, with only the language's globals. */
const browser = runInNewContext(
  `(() => { ${EXPLORER_HASH_SCRIPT}; return { poseidon2, mapSlot, leafSlot, siloedNullifier, hex32 }; })()`,
  {},
) as BrowserHashes;

describe('explorer page hashes', () => {
  test('Poseidon2 matches the node for 0 to 7 inputs, including values near the modulus', () => {
    for (let n = 0; n <= 7; n++) {
      const inputs = Array.from({ length: n }, (_, i) =>
        i % 2 ? FR_MODULUS - BigInt(i + 1) : BigInt(i * 1_000_003 + 7),
      );
      assert.equal(browser.poseidon2(inputs), poseidon2Hash(inputs), `${n} inputs`);
    }
  });

  test('map slots, leaf slots and siloed nullifiers are the node’s', () => {
    const address = 0x2a17c6bd1e5f0b0f9d6d7d5d2c1b0a09f8e7d6c5b4a39281706f5e4d3c2b1a09n;
    const balance = mapStorageSlot(FEE_JUICE_BALANCES_SLOT, address);
    assert.equal(browser.mapSlot(FEE_JUICE_BALANCES_SLOT, address), balance);
    assert.equal(
      browser.leafSlot(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, balance),
      publicDataLeafSlot(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, balance),
    );
    assert.equal(
      browser.siloedNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, address),
      siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, address),
    );
    assert.equal(browser.hex32(5n), toHex32(5n));
  });
});
