// fast-check arbitraries of the kernel tail's output and of whole txs, for the codec's property
// tests and for the reference comparison of random structures. Values lean towards the edges a
// codec gets wrong: zero (most slots are padding), small numbers, the largest values of each width
// and fields just below the modulus.
import fc from 'fast-check';
import type { BlockHeader } from '../../../src/core/block-header.js';
import { FR_MODULUS } from '../../../src/core/field.js';
import {
  CHONK_PROOF_LENGTH,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from '../../../src/core/kernel/constants.js';
import type {
  Gas,
  PrivateKernelTailCircuitPublicInputs,
  TxConstantData,
} from '../../../src/core/kernel/public-inputs.js';
import type {
  PrivateLog,
  PrivateToPublicAccumulatedData,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
  ScopedL2ToL1Message,
  ScopedLogHash,
} from '../../../src/core/kernel/side-effects.js';
import type { Tx } from '../../../src/core/kernel/tx.js';

/** A record with an ordinary prototype, like the codec's own objects (deepEqual compares prototypes). */
const rec = <T>(shape: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> =>
  fc.record(shape, { noNullPrototype: true }) as fc.Arbitrary<T>;

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

export const fieldArb: fc.Arbitrary<bigint> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0n) },
  { weight: 2, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
  { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: FR_MODULUS - 1000n, max: FR_MODULUS - 1n }) },
);

const u32Arb = fc.oneof(fc.constantFrom(0, 1, 0xffff_ffff), fc.integer({ min: 0, max: 0xffff_ffff }));
const uintArb = (max: bigint) => fc.oneof(fc.constantFrom(0n, 1n, max), fc.bigInt({ min: 0n, max }));
const ethAddressArb = fc.oneof(
  fc.constant(`0x${'0'.repeat(40)}`),
  fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
);
const fixed = <T>(arb: fc.Arbitrary<T>, n: number) => fc.array(arb, { minLength: n, maxLength: n });

const snapshotArb = rec({ root: fieldArb, nextAvailableLeafIndex: u32Arb });
const gasFeesArb = rec({ feePerDaGas: uintArb(U128_MAX), feePerL2Gas: uintArb(U128_MAX) });
const gasArb: fc.Arbitrary<Gas> = rec({ daGas: u32Arb, l2Gas: u32Arb });

export const blockHeaderArb: fc.Arbitrary<BlockHeader> = rec({
  lastArchive: snapshotArb,
  state: rec({
    l1ToL2MessageTree: snapshotArb,
    partial: rec({
      noteHashTree: snapshotArb,
      nullifierTree: snapshotArb,
      publicDataTree: snapshotArb,
    }),
  }),
  spongeBlobHash: fieldArb,
  globalVariables: rec({
    chainId: fieldArb,
    version: fieldArb,
    blockNumber: u32Arb,
    slotNumber: u32Arb,
    timestamp: uintArb(U64_MAX),
    coinbase: ethAddressArb,
    feeRecipient: fieldArb,
    gasFees: gasFeesArb,
  }),
  totalFees: fieldArb,
  totalManaUsed: fieldArb,
});

const constantsArb: fc.Arbitrary<TxConstantData> = rec({
  anchorBlockHeader: blockHeaderArb,
  txContext: rec({
    chainId: fieldArb,
    version: fieldArb,
    gasSettings: rec({
      gasLimits: gasArb,
      teardownGasLimits: gasArb,
      maxFeesPerGas: gasFeesArb,
      maxPriorityFeesPerGas: gasFeesArb,
    }),
  }),
  vkTreeRoot: fieldArb,
  protocolContractsHash: fieldArb,
});

const messageArb: fc.Arbitrary<ScopedL2ToL1Message> = rec({
  message: rec({ recipient: ethAddressArb, content: fieldArb }),
  contractAddress: fieldArb,
});
const privateLogArb: fc.Arbitrary<PrivateLog> = rec({
  fields: fixed(fieldArb, PRIVATE_LOG_SIZE_IN_FIELDS),
  emittedLength: u32Arb,
});
const logHashArb: fc.Arbitrary<ScopedLogHash> = rec({
  logHash: rec({ value: fieldArb, length: u32Arb }),
  contractAddress: fieldArb,
});
export const callArb: fc.Arbitrary<PublicCallRequest> = rec({
  msgSender: fieldArb,
  contractAddress: fieldArb,
  isStaticCall: fc.boolean(),
  calldataHash: fieldArb,
});

const rollupDataArb: fc.Arbitrary<PrivateToRollupAccumulatedData> = rec({
  noteHashes: fixed(fieldArb, MAX_NOTE_HASHES_PER_TX),
  nullifiers: fixed(fieldArb, MAX_NULLIFIERS_PER_TX),
  l2ToL1Msgs: fixed(messageArb, MAX_L2_TO_L1_MSGS_PER_TX),
  privateLogs: fixed(privateLogArb, MAX_PRIVATE_LOGS_PER_TX),
  contractClassLogsHashes: fixed(logHashArb, MAX_CONTRACT_CLASS_LOGS_PER_TX),
});
const publicDataArb: fc.Arbitrary<PrivateToPublicAccumulatedData> = fc
  .tuple(rollupDataArb, fixed(callArb, MAX_ENQUEUED_CALLS_PER_TX))
  .map(([data, publicCallRequests]) => ({ ...data, publicCallRequests }));

const commonArb = rec({
  constants: constantsArb,
  gasUsed: gasArb,
  feePayer: fieldArb,
  expirationTimestamp: uintArb(U64_MAX),
});

export const tailForRollupArb: fc.Arbitrary<PrivateKernelTailCircuitPublicInputs> = fc
  .tuple(commonArb, rollupDataArb)
  .map(([common, end]) => ({ ...common, forRollup: { end } }));

export const tailForPublicArb: fc.Arbitrary<PrivateKernelTailCircuitPublicInputs> = fc
  .tuple(commonArb, publicDataArb, publicDataArb, callArb)
  .map(([common, nonRevertibleAccumulatedData, revertibleAccumulatedData, publicTeardownCallRequest]) => ({
    ...common,
    forPublic: { nonRevertibleAccumulatedData, revertibleAccumulatedData, publicTeardownCallRequest },
  }));

export const tailArb = fc.oneof(tailForRollupArb, tailForPublicArb);

/** A proof's words: each below the modulus (a few near it), mostly as the reference's random proofs. */
const proofArb = fc
  .tuple(fc.integer({ min: 0, max: 0xffff_ffff }), fc.array(fc.nat(CHONK_PROOF_LENGTH - 1), { maxLength: 4 }))
  .map(([seed, nearModulus]) => {
    const bytes = Buffer.alloc(CHONK_PROOF_LENGTH * 32);
    let x = seed;
    for (let i = 0; i < bytes.length; i++) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      bytes[i] = i % 32 === 0 ? 0 : x >>> 24;
    }
    for (const i of nearModulus)
      bytes.write((FR_MODULUS - 1n - BigInt(i)).toString(16).padStart(64, '0'), i * 32, 'hex');
    return new Uint8Array(bytes);
  });

const classLogArb = fc.array(fieldArb, { maxLength: 40 }).map((head) => ({
  fields: [...head, ...new Array<bigint>(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS - head.length).fill(0n)],
}));

export const txArb: fc.Arbitrary<Tx> = rec({
  txHash: fieldArb,
  data: tailArb,
  chonkProof: proofArb,
  contractClassLogFields: fc.array(classLogArb, { maxLength: 2 }),
  publicFunctionCalldata: fc.array(rec({ values: fc.array(fieldArb, { maxLength: 12 }), hash: fieldArb }), {
    maxLength: 6,
  }),
});
