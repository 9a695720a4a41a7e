// cairn's kernel tail codec, field form and tx hash against the reference itself (@aztec/stdlib
// 4.1.2, installed by ensureAztecClient into .cache/aztec-client; an e2e test because that install
// runs npm). The reference's own generators make the inputs: its tail outputs of both variants for
// many seeds, its rollup and public kernel inputs, its random and mock txs; fast-check makes the
// rest (bools set, widths at their maxima), which cairn encodes and the reference decodes. For
// each: cairn decodes the reference's bytes and encodes them back byte for byte, computes the same
// fields and the same hash, and writes the same JSON. The last test rebuilds the committed vectors
// (vectors/reference-txs.json) from the reference and fails if they drift; run it with
// CAIRN_WRITE_KERNEL_VECTORS=1 to write them instead.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { FR_MODULUS } from '../../../src/core/field.js';
import { publicKernelInputsToFields, rollupKernelInputsToFields } from '../../../src/core/kernel/fields.js';
import {
  type PrivateKernelTailCircuitPublicInputs,
  toPublicKernelInputs,
  toRollupKernelInputs,
} from '../../../src/core/kernel/public-inputs.js';
import { decodeTail, encodeTail } from '../../../src/core/kernel/tail-codec.js';
import { decodeTx, encodeTx } from '../../../src/core/kernel/tx-codec.js';
import { computeTxHash } from '../../../src/core/kernel/tx-hash.js';
import { decodeTxJson, encodeTxJson } from '../../../src/core/kernel/tx-json.js';
import { AZTEC_CLIENT_DIR, type AztecReference, loadAztecReference } from '../../helpers/aztec-reference.js';
import { tailForPublicArb, tailForRollupArb, txArb } from './arbitraries.js';

const SEEDS = 30;
const VECTORS = new URL('./vectors/reference-txs.json', import.meta.url);

/** The reference modules beyond loadAztecReference's, imported by path so they share its instances. */
interface KernelReference {
  ref: AztecReference;
  factories: any;
  mocks: any;
  tail: any;
  ChonkProof: any;
  ContractClassLogFields: any;
  HashedValues: any;
  jsonStringify: (value: unknown) => string;
  bb: any;
}

async function loadKernelReference(): Promise<KernelReference> {
  const ref = await loadAztecReference((line) => process.stderr.write(`${line}\n`));
  const imp = (path: string) =>
    import(pathToFileURL(join(AZTEC_CLIENT_DIR, 'node_modules', '@aztec', path)).href);
  const [factories, mocks, tail, proof, logs, hashed, convert, bb] = await Promise.all([
    imp('stdlib/dest/tests/factories.js'),
    imp('stdlib/dest/tests/mocks.js'),
    imp('stdlib/dest/kernel/private_kernel_tail_circuit_public_inputs.js'),
    imp('stdlib/dest/proofs/chonk_proof.js'),
    imp('stdlib/dest/logs/contract_class_log.js'),
    imp('stdlib/dest/tx/hashed_values.js'),
    imp('foundation/dest/json-rpc/convert.js'),
    imp('bb.js/dest/node/index.js'),
  ]);
  return {
    ref,
    factories,
    mocks,
    tail,
    ChonkProof: proof.ChonkProof,
    ContractClassLogFields: logs.ContractClassLogFields,
    HashedValues: hashed.HashedValues,
    jsonStringify: convert.jsonStringify,
    bb,
  };
}

const bigints = (fields: any[]): bigint[] => fields.map((f) => f.toBigInt());

/** cairn's field form of a tail output's hashed inputs. */
const cairnFields = (tail: PrivateKernelTailCircuitPublicInputs): bigint[] =>
  tail.forPublic
    ? publicKernelInputsToFields(toPublicKernelInputs(tail))
    : rollupKernelInputsToFields(toRollupKernelInputs(tail));

describe("the kernel tail's output and the tx against the reference (4.1.2)", { timeout: 900_000 }, () => {
  let k: KernelReference;

  before(async () => {
    k = await loadKernelReference();
  });
  after(async () => {
    // bb.js's WASM workers would keep the process alive.
    await k?.bb.Barretenberg.destroySingleton();
    k?.bb.BarretenbergSync.destroySingleton();
  });

  /** Checks one reference tail output: bytes both ways, fields, hash. */
  async function checkTail(refTail: any, what: string): Promise<void> {
    const bytes: Buffer = refTail.toBuffer();
    const tail = decodeTail(bytes);
    assert.equal(tail.forPublic !== undefined, refTail.forPublic !== undefined, what);
    assert.deepEqual(encodeTail(tail), bytes, `${what}: re-encoded bytes`);
    const refInputs = refTail.publicInputs();
    const fields = cairnFields(tail);
    assert.equal(fields.length, tail.forPublic ? 2784 : 1281, what);
    assert.deepEqual(fields, bigints(refInputs.toFields()), `${what}: toFields`);
    assert.equal(computeTxHash(tail), (await refInputs.hash()).toBigInt(), `${what}: hash`);
  }

  test(`the reference's tail outputs of both variants, seeds 1 to ${SEEDS}`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      for (const forPublic of [false, true]) {
        await checkTail(
          k.factories.makePrivateKernelTailCircuitPublicInputs(seed, forPublic),
          `seed ${seed} ${forPublic}`,
        );
      }
    }
  });

  test("the reference's rollup and public kernel inputs hash and flatten as cairn's", async () => {
    const { PrivateKernelTailCircuitPublicInputs: Tail } = k.tail;
    for (let seed = 1; seed <= SEEDS / 2; seed++) {
      const rollup = k.factories.makePrivateToRollupKernelCircuitPublicInputs(seed);
      const asTail = new Tail(
        rollup.constants,
        rollup.gasUsed,
        rollup.feePayer,
        rollup.expirationTimestamp,
        undefined,
        new k.tail.PartialPrivateTailPublicInputsForRollup(rollup.end),
      );
      const mine = decodeTail(asTail.toBuffer());
      assert.deepEqual(cairnFields(mine), bigints(rollup.toFields()), `rollup seed ${seed}`);
      assert.equal(computeTxHash(mine), (await rollup.hash()).toBigInt(), `rollup seed ${seed}`);

      const pub = k.factories.makePrivateToPublicKernelCircuitPublicInputs(seed);
      const partial = new k.tail.PartialPrivateTailPublicInputsForPublic(
        pub.nonRevertibleAccumulatedData,
        pub.revertibleAccumulatedData,
        pub.publicTeardownCallRequest,
      );
      const pubTail = new Tail(
        pub.constants,
        pub.gasUsed,
        pub.feePayer,
        pub.expirationTimestamp,
        partial,
        undefined,
      );
      const minePub = decodeTail(pubTail.toBuffer());
      assert.deepEqual(cairnFields(minePub), bigints(pub.toFields()), `public seed ${seed}`);
      assert.equal(computeTxHash(minePub), (await pub.hash()).toBigInt(), `public seed ${seed}`);
    }
  });

  /** Checks one reference tx: both binary directions, its hash, and its JSON both ways. */
  async function checkTx(refTx: any, what: string): Promise<void> {
    const bytes: Buffer = refTx.toBuffer();
    const tx = decodeTx(bytes);
    assert.deepEqual(encodeTx(tx), bytes, `${what}: re-encoded bytes`);
    const hash = refTx.getTxHash().toBigInt();
    assert.equal(tx.txHash, hash, `${what}: carried hash`);
    assert.equal(computeTxHash(tx.data), hash, `${what}: computed hash`);
    const refJson = JSON.parse(k.jsonStringify(refTx));
    assert.deepEqual(encodeTxJson(tx), refJson, `${what}: cairn's JSON is the reference's`);
    const { body, txHash } = decodeTxJson(refJson);
    assert.equal(txHash, hash);
    assert.deepEqual({ txHash: hash, ...body }, tx, `${what}: the reference's JSON decodes`);
    const parsed = await k.ref.Tx.schema.parseAsync(encodeTxJson(tx));
    assert.deepEqual(parsed.toBuffer(), bytes, `${what}: the reference's schema reads cairn's JSON`);
  }

  test("the reference's random and mock txs, both variants", async () => {
    for (let i = 0; i < 5; i++) {
      const tx = k.ref.Tx.random({ randomProof: true });
      await tx.recomputeHash();
      await checkTx(tx, `Tx.random ${i}`);
    }
    const shapes: Record<string, unknown>[] = [
      {},
      { hasPublicTeardownCallRequest: true },
      { numberOfNonRevertiblePublicCallRequests: 0, numberOfRevertiblePublicCallRequests: 3 },
      { numberOfNonRevertiblePublicCallRequests: 2, numberOfRevertiblePublicCallRequests: 0 },
      { numberOfRevertibleNullifiers: 5, publicCalldataSize: 7, hasPublicTeardownCallRequest: true },
      {
        numberOfNonRevertiblePublicCallRequests: 0,
        numberOfRevertiblePublicCallRequests: 0,
        hasPublicTeardownCallRequest: true,
      },
    ];
    for (const [i, shape] of shapes.entries()) {
      await checkTx(await k.mocks.mockTx(i + 1, shape), `mockTx ${JSON.stringify(shape)}`);
    }
    for (let seed = 1; seed <= 3; seed++)
      await checkTx(await k.mocks.mockTxForRollup(seed), `mockTxForRollup ${seed}`);
  });

  test('random tail outputs cairn encodes, the reference reads, re-encodes and hashes alike', async () => {
    const { PrivateKernelTailCircuitPublicInputs: Tail } = k.tail;
    await fc.assert(
      fc.asyncProperty(fc.oneof(tailForRollupArb, tailForPublicArb), async (tail) => {
        const bytes = encodeTail(tail);
        const refTail = Tail.fromBuffer(bytes);
        assert.deepEqual(refTail.toBuffer(), bytes);
        const refInputs = refTail.publicInputs();
        assert.deepEqual(cairnFields(tail), bigints(refInputs.toFields()));
        assert.equal(computeTxHash(tail), (await refInputs.hash()).toBigInt());
      }),
      { numRuns: 25 },
    );
  });

  test("random txs cairn encodes are the reference's, in bytes and in JSON", async () => {
    await fc.assert(
      fc.asyncProperty(txArb, async (tx) => {
        const bytes = encodeTx(tx);
        const refTx = k.ref.Tx.fromBuffer(bytes);
        assert.deepEqual(refTx.toBuffer(), bytes);
        assert.deepEqual(JSON.parse(k.jsonStringify(refTx)), encodeTxJson(tx));
      }),
      { numRuns: 10 },
    );
  });

  test('where cairn is stricter: a bool byte the reference reads as true would not encode back', () => {
    const bytes = Buffer.from(k.factories.makePrivateKernelTailCircuitPublicInputs(1, false).toBuffer());
    bytes[0] = 2;
    // The reference takes 2 as "for public" and then runs out of bytes; for the teardown call's
    // isStaticCall it would read 2 as true and write back 1.
    assert.throws(() => decodeTail(bytes), /isForPublic is a bool but holds 2/);
    const pub = Buffer.from(k.factories.makePrivateKernelTailCircuitPublicInputs(1, true).toBuffer());
    pub[pub.length - 33] = 2;
    assert.equal(k.tail.PrivateKernelTailCircuitPublicInputs.fromBuffer(pub).toBuffer()[pub.length - 33], 1);
    assert.throws(() => decodeTail(pub), /isStaticCall is a bool but holds 2/);
  });

  test('the committed vectors are what the reference makes now', async () => {
    const vectors = await buildVectors(k);
    if (process.env.CAIRN_WRITE_KERNEL_VECTORS === '1') {
      writeFileSync(VECTORS, `${JSON.stringify(vectors, null, 2)}\n`);
      return;
    }
    assert.deepEqual(JSON.parse(readFileSync(VECTORS, 'utf8')), vectors);
  });
});

/**
 * One tx of each variant, built deterministically: the reference's tail output for a seed, a
 * proof of small fields with some just below the modulus, a class log (public variant) and a few
 * calls' calldata, hashed by the reference (`Tx.create`).
 */
async function buildVectors(k: KernelReference): Promise<unknown> {
  const { Fr } = k.ref;
  const proof = (offset: number) =>
    new k.ChonkProof(
      Array.from({ length: 1935 }, (_, i) =>
        i % 97 === 0 ? new Fr(FR_MODULUS - 1n - BigInt(i)) : new Fr(BigInt(offset + i)),
      ),
    );
  const calldata = async (sizes: number[]) =>
    Promise.all(
      sizes.map((n, c) =>
        k.HashedValues.fromCalldata(Array.from({ length: n }, (_, i) => new Fr(BigInt(0x7000 + c * 16 + i)))),
      ),
    );
  const rollup = await k.ref.Tx.create({
    data: k.factories.makePrivateKernelTailCircuitPublicInputs(0x11, false),
    chonkProof: proof(0x10000),
    contractClassLogFields: [],
    publicFunctionCalldata: await calldata([2]),
  });
  const classLog = Array.from({ length: 3023 }, (_, i) => new Fr(i < 64 ? BigInt(0x6000 + i) : 0n));
  const pub = await k.ref.Tx.create({
    data: k.factories.makePrivateKernelTailCircuitPublicInputs(0x22, true),
    chonkProof: proof(0x20000),
    contractClassLogFields: [new k.ContractClassLogFields(classLog)],
    publicFunctionCalldata: await calldata([0, 1, 5]),
  });
  const entry = (variant: string, tx: any) => ({
    variant,
    txHash: tx.getTxHash().toString(),
    size: tx.toBuffer().length,
    bytes: tx.toBuffer().toString('base64'),
  });
  return {
    about:
      "Two txs of the reference (@aztec/stdlib 4.1.2): its Tx.toBuffer() as base64 and its tx hash. Made by test/core/kernel/reference.process.test.ts (CAIRN_WRITE_KERNEL_VECTORS=1) from the reference's makePrivateKernelTailCircuitPublicInputs(0x11, false) and (0x22, true).",
    txs: [entry('rollup', rollup), entry('public', pub)],
  };
}
