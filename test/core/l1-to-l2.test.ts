// L1-to-L2 messages (src/core/l1-to-l2.ts) against independent models: the message leaf and the
// Fee Juice deposit content as the L1 contracts compute them (abi encoding by viem, sha256 by
// @noble/hashes, the field reduction as Solidity's `uint256(sha256(data)) >> 8`), and the secret
// hash and message nullifier by the reference Poseidon2 (@zkpassport/poseidon2).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { poseidon2Hash as refPoseidon2 } from '@zkpassport/poseidon2';
import fc from 'fast-check';
import {
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  numberToHex,
  parseAbiParameters,
  toFunctionSelector,
} from 'viem';
import { FR_MODULUS } from '../../src/core/field.js';
import {
  computeSecretHash,
  feeJuiceDepositContent,
  type L1ToL2Message,
  l1ToL2MessageHash,
  l1ToL2MessageNullifier,
  MESSAGE_NULLIFIER_SEPARATOR,
  SECRET_HASH_SEPARATOR,
} from '../../src/core/l1-to-l2.js';

// ---- independent models --------------------------------------------------------------------------

const word = (v: bigint): Hex => numberToHex(v, { size: 32 });

/** Hash.sha256ToField in src/l1/contracts/Libraries.sol: `bytes32(uint256(sha256(data)) >> 8)`. */
function solSha256ToField(data: Hex): bigint {
  const digest = sha256(Buffer.from(data.slice(2), 'hex'));
  return BigInt(`0x${Buffer.from(digest).toString('hex')}`) >> 8n;
}

/**
 * Inbox.sendL2Message's leaf: sha256ToField(abi.encode(uint256(uint160(msg.sender)),
 * block.chainid, recipient.actor, recipient.version, content, secretHash, index)).
 */
function modelMessageHash(m: L1ToL2Message): bigint {
  return solSha256ToField(
    encodeAbiParameters(parseAbiParameters('uint256, uint256, bytes32, uint256, bytes32, bytes32, uint256'), [
      BigInt(m.sender),
      m.chainId,
      word(m.recipient),
      m.rollupVersion,
      word(m.content),
      word(m.secretHash),
      m.index,
    ]),
  );
}

const CLAIM_ABI = [
  {
    type: 'function',
    name: 'claim',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'bytes32' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

/** FeeJuicePortal.deposit's content: sha256ToField(abi.encodeWithSignature("claim(bytes32,uint256)", to, amount)). */
const modelDepositContent = (to: bigint, amount: bigint): bigint =>
  solSha256ToField(encodeFunctionData({ abi: CLAIM_ABI, functionName: 'claim', args: [word(to), amount] }));

const refSecretHash = (secret: bigint) => refPoseidon2([4_199_652_938n, secret]);
const refNullifier = (contract: bigint, messageHash: bigint, secret: bigint) =>
  refPoseidon2([57_496_191n, contract, refPoseidon2([3_754_509_616n, messageHash, secret])]);

// ---- arbitraries ---------------------------------------------------------------------------------

const P = FR_MODULUS;
const fr = fc.oneof(
  fc.bigInt({ min: 0n, max: P - 1n }),
  fc.constantFrom(0n, 1n, 5n, P - 1n, P - 2n, 2n ** 248n - 1n, 2n ** 128n),
);
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .chain((bytes) =>
    fc.constantFrom(
      `0x${Buffer.from(bytes).toString('hex')}`,
      `0x${Buffer.from(bytes).toString('hex').toUpperCase()}`,
    ),
  );
const message: fc.Arbitrary<L1ToL2Message> = fc.record({
  sender: fc.oneof(address, fc.constantFrom(`0x${'00'.repeat(20)}`, `0x${'ff'.repeat(20)}`)),
  chainId: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.constantFrom(1n, 31337n, 11155111n)),
  recipient: fr,
  rollupVersion: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 32n }), fr),
  content: fr,
  secretHash: fr,
  index: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.constantFrom(0n, 1023n, 1024n, 2048n)),
});

// ---- tests ---------------------------------------------------------------------------------------

describe('the models follow the L1 contracts', () => {
  test("Inbox.sol hashes the seven words in the model's order; FeeJuicePortal.sol the claim call", () => {
    const squash = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8').replace(/\s+/g, '');
    assert.ok(
      squash('../../src/l1/contracts/Inbox.sol').includes(
        'leaf=Hash.sha256ToField(abi.encode(uint256(uint160(msg.sender)),block.chainid,recipient.actor,recipient.version,content,secretHash,index));',
      ),
    );
    assert.ok(
      squash('../../src/l1/contracts/FeeJuicePortal.sol').includes(
        'bytes32content=Hash.sha256ToField(abi.encodeWithSignature("claim(bytes32,uint256)",to,amount));',
      ),
    );
    assert.ok(
      squash('../../src/l1/contracts/Libraries.sol').includes(
        'functionsha256ToField(bytesmemorydata)internalpurereturns(bytes32){returnbytes32(uint256(sha256(data))>>8);}',
      ),
    );
  });

  test('the abi encodings are the 7 × 32 and 4 + 2 × 32 bytes hashed', () => {
    const m: L1ToL2Message = {
      sender: `0x${'ab'.repeat(20)}`,
      chainId: 31337n,
      recipient: 5n,
      rollupVersion: 7n,
      content: 0xc0n,
      secretHash: 0x5en,
      index: 1025n,
    };
    const bytes = Buffer.concat(
      [BigInt(m.sender), m.chainId, m.recipient, m.rollupVersion, m.content, m.secretHash, m.index].map((v) =>
        Buffer.from(v.toString(16).padStart(64, '0'), 'hex'),
      ),
    );
    assert.equal(modelMessageHash(m), BigInt(`0x${Buffer.from(sha256(bytes)).toString('hex')}`) >> 8n);
    const data = encodeFunctionData({ abi: CLAIM_ABI, functionName: 'claim', args: [word(0x11n), 22n] });
    assert.equal((data.length - 2) / 2, 68);
    // The selector of claim(bytes32,uint256), then the two words.
    assert.equal(
      data,
      `${toFunctionSelector('claim(bytes32,uint256)')}${word(0x11n).slice(2)}${word(22n).slice(2)}`,
    );
  });
});

describe('l1ToL2MessageHash', () => {
  test('matches the Inbox model on random messages', () => {
    fc.assert(
      fc.property(message, (m) => {
        assert.equal(l1ToL2MessageHash(m), modelMessageHash(m));
      }),
      { numRuns: 300 },
    );
  });

  test('a fixed message: model value, a field element below 2^248', () => {
    const m: L1ToL2Message = {
      sender: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      chainId: 31337n,
      recipient: 5n,
      rollupVersion: 1n,
      content: 0x1234n,
      secretHash: computeSecretHash(42n),
      index: 1024n,
    };
    const h = l1ToL2MessageHash(m);
    assert.equal(h, modelMessageHash(m));
    assert.ok(h < 2n ** 248n);
    // The sender's case does not matter.
    assert.equal(l1ToL2MessageHash({ ...m, sender: m.sender.toLowerCase() }), h);
  });

  test('every field of the message changes the leaf', () => {
    fc.assert(
      fc.property(message, fc.integer({ min: 0, max: 6 }), (m, which) => {
        const bump = (v: bigint) => (v === 0n ? 1n : v - 1n);
        const changed: L1ToL2Message = { ...m };
        switch (which) {
          case 0:
            changed.sender = `0x${bump(BigInt(m.sender)).toString(16).padStart(40, '0')}`;
            break;
          case 1:
            changed.chainId = bump(m.chainId);
            break;
          case 2:
            changed.recipient = bump(m.recipient);
            break;
          case 3:
            changed.rollupVersion = bump(m.rollupVersion);
            break;
          case 4:
            changed.content = bump(m.content);
            break;
          case 5:
            changed.secretHash = bump(m.secretHash);
            break;
          default:
            changed.index = bump(m.index);
        }
        assert.notEqual(l1ToL2MessageHash(changed), l1ToL2MessageHash(m));
        assert.equal(l1ToL2MessageHash(changed), modelMessageHash(changed));
      }),
      { numRuns: 100 },
    );
  });
});

describe('feeJuiceDepositContent', () => {
  test('matches the portal model on random recipients and amounts', () => {
    const amount = fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
      fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
      fc.constantFrom(0n, 1n, 2n ** 128n - 1n, 2n ** 256n - 1n),
    );
    fc.assert(
      fc.property(fr, amount, (to, amt) => {
        assert.equal(feeJuiceDepositContent(to, amt), modelDepositContent(to, amt));
      }),
      { numRuns: 300 },
    );
  });

  test('the content binds the recipient and the amount', () => {
    const base = feeJuiceDepositContent(0xabcn, 1000n);
    assert.equal(base, modelDepositContent(0xabcn, 1000n));
    assert.notEqual(feeJuiceDepositContent(0xabdn, 1000n), base);
    assert.notEqual(feeJuiceDepositContent(0xabcn, 1001n), base);
    // Not the same as hashing the two words without the selector.
    assert.notEqual(
      base,
      solSha256ToField(encodeAbiParameters(parseAbiParameters('bytes32, uint256'), [word(0xabcn), 1000n])),
    );
  });
});

describe('computeSecretHash and l1ToL2MessageNullifier', () => {
  test('the separators are the protocol constants', () => {
    assert.equal(SECRET_HASH_SEPARATOR, 4_199_652_938);
    assert.equal(MESSAGE_NULLIFIER_SEPARATOR, 3_754_509_616);
  });

  test('the secret hash is poseidon2([4199652938, secret]) by the reference Poseidon2', () => {
    for (const secret of [0n, 1n, 42n, P - 1n])
      assert.equal(computeSecretHash(secret), refSecretHash(secret));
    fc.assert(
      fc.property(fr, (secret) => {
        assert.equal(computeSecretHash(secret), refSecretHash(secret));
      }),
      { numRuns: 100 },
    );
  });

  test('the nullifier is silo(contract, poseidon2([3754509616, messageHash, secret])) with separator 57496191', () => {
    assert.equal(l1ToL2MessageNullifier(5n, 0x1234n, 42n), refNullifier(5n, 0x1234n, 42n));
    fc.assert(
      fc.property(fr, fr, fr, (contract, messageHash, secret) => {
        assert.equal(
          l1ToL2MessageNullifier(contract, messageHash, secret),
          refNullifier(contract, messageHash, secret),
        );
      }),
      { numRuns: 100 },
    );
  });

  test('the nullifier depends on the contract, the message and the secret', () => {
    const n = l1ToL2MessageNullifier(5n, 0x1234n, 42n);
    assert.notEqual(l1ToL2MessageNullifier(6n, 0x1234n, 42n), n);
    assert.notEqual(l1ToL2MessageNullifier(5n, 0x1235n, 42n), n);
    assert.notEqual(l1ToL2MessageNullifier(5n, 0x1234n, 43n), n);
    // The secret is not swapped with the message hash.
    assert.notEqual(l1ToL2MessageNullifier(5n, 42n, 0x1234n), n);
  });
});
