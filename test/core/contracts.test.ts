// Contract classes, instances and the registries' events: known answers from the reference
// implementation, bytecode packing (round trip, edge lengths, malformed packings), the bytecode
// commitment, class id and private functions root against independent models built on the
// @zkpassport/poseidon2 reference hash, and the event builders against their parsers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { poseidon2Hash as refHash } from '@zkpassport/poseidon2';
import fc from 'fast-check';
import {
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  type ContractClassLog,
  PRIVATE_LOG_SIZE_IN_FIELDS,
  type PrivateLog,
  type PublicLog,
} from '../../src/core/block.js';
import {
  bytecodeFromFields,
  bytecodeToFields,
  CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE,
  CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE,
  CONTRACT_INSTANCE_PUBLISHED_TAG,
  CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE,
  CONTRACT_SEPARATORS,
  type ContractUpdate,
  classPublishedLogFields,
  contractAddress,
  contractClassId,
  DEFAULT_PUBLIC_KEYS,
  initializationHash,
  instancePublishedLogFields,
  instanceUpdatedLogFields,
  MAX_PUBLIC_BYTECODE_BYTES,
  makeContractClass,
  makeContractInstance,
  type PublicKeys,
  parseClassPublished,
  parseInstancePublished,
  parseInstanceUpdated,
  partialAddress,
  privateFunctionsRoot,
  publicBytecodeCommitment,
  publicKeysHash,
  saltedInitializationHash,
  siloPrivateLogFirstField,
} from '../../src/core/contracts.js';
import { FR_MODULUS, type Fr } from '../../src/core/field.js';
import {
  addPoints,
  GRUMPKIN_GENERATOR,
  isOnCurve,
  multiplyPoint,
  type Point,
} from '../../src/core/grumpkin.js';
import { poseidon2HashWithSeparator } from '../../src/core/hash/poseidon2.js';
import { functionSelector } from '../../src/core/hash/selector.js';

const SEED = 0xc0c0;
const opts = (numRuns: number) => ({ numRuns, seed: SEED });

const point = (x: Fr, y: Fr): Point => ({ x, y, isInfinite: false });
const keys = (pts: [Point, Point, Point, Point]): PublicKeys => ({
  masterNullifierPublicKey: pts[0],
  masterIncomingViewingPublicKey: pts[1],
  masterOutgoingViewingPublicKey: pts[2],
  masterTaggingPublicKey: pts[3],
});
const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

// ---- independent models --------------------------------------------------------------------------

/** Length, then each 31-byte chunk left-aligned in a 31-byte big-endian number (byte 0 is zero). */
function modelPack(bytes: Uint8Array): Fr[] {
  const out: Fr[] = [BigInt(bytes.length)];
  for (let i = 0; i < bytes.length; i += 31) {
    const chunk = Buffer.from(bytes.subarray(i, i + 31));
    out.push(BigInt(`0x${chunk.toString('hex')}${'00'.repeat(31 - chunk.length)}`));
  }
  return out;
}
function modelCommitment(bytes: Uint8Array): Fr {
  const [length, ...chunks] = modelPack(bytes);
  return refHash([260_313_585n + (length! << 32n), ...chunks]);
}
const modelClassId = (artifactHash: Fr, root: Fr, commitment: Fr) =>
  refHash([3_923_495_515n, artifactHash, root, commitment]);
function modelFunctionsRoot(fns: { selector: number; vkHash: Fr }[]): Fr {
  const sorted = [...fns].sort((a, b) => a.selector - b.selector);
  let level: Fr[] = Array.from({ length: 128 }, (_, i) =>
    sorted[i] ? refHash([1_389_398_688n, BigInt(sorted[i]!.selector), sorted[i]!.vkHash]) : refHash([0n, 0n]),
  );
  while (level.length > 1)
    level = level.flatMap((_, i) => (i % 2 ? [] : [refHash([level[i]!, level[i + 1]!])]));
  return level[0]!;
}

/** Private functions with distinct selectors. */
const fnsArb = fc
  .uniqueArray(fc.nat({ max: 0xffffffff }), { maxLength: 6 })
  .chain((selectors) =>
    fc.tuple(
      fc.constant(selectors),
      fc.array(fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }), {
        minLength: selectors.length,
        maxLength: selectors.length,
      }),
    ),
  )
  .map(([selectors, vks]) => selectors.map((selector, i) => ({ selector, vkHash: vks[i]! })));

// ---- log wrappers --------------------------------------------------------------------------------

const classLog = (fields: Fr[], contractAddress: Fr = 3n): ContractClassLog => ({
  contractAddress,
  fields: { fields: [...fields, ...new Array(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS - fields.length).fill(0n)] },
  emittedLength: fields.length,
});
const privateLog = (fields: Fr[], emittedLength = fields.length): PrivateLog => ({
  fields: [...fields, ...new Array(PRIVATE_LOG_SIZE_IN_FIELDS - fields.length).fill(0n)],
  emittedLength,
});
const publicLog = (fields: Fr[], contractAddress: Fr = 2n): PublicLog => ({ contractAddress, fields });

/** The reference's example class. */
const EXAMPLE = {
  artifactHash: 0x1234n,
  packedBytecode: hexBytes('123456789012345678901234567890'),
  privateFunctions: [{ selector: 0x12345678, vkHash: 0x1234n }],
};

describe('contracts: known answers', () => {
  test('class id, bytecode commitment and private functions root of the example class', () => {
    const c = makeContractClass(EXAMPLE);
    assert.equal(c.id, 0x2926577ccab09f8e4600550792066ed9d6ce530a973ac2b81a36eaebee56ad44n);
    assert.equal(
      publicBytecodeCommitment(EXAMPLE.packedBytecode),
      0x09c2e94f7c253c03e88a0d4f2a916a99f752ca82983fe79b3812508921999f1en,
    );
    assert.equal(c.privateFunctionsRoot, 0x0d566d3ae86e1441be851e0fb67e2818ba6f7a80092550c43e1f133ae91112d5n);
    assert.equal(
      privateFunctionsRoot(EXAMPLE.privateFunctions),
      0x0d566d3ae86e1441be851e0fb67e2818ba6f7a80092550c43e1f133ae91112d5n,
    );
    assert.deepEqual(c, {
      id: c.id,
      version: 1,
      artifactHash: 0x1234n,
      privateFunctionsRoot: c.privateFunctionsRoot,
      packedBytecode: EXAMPLE.packedBytecode,
      privateFunctions: [],
      utilityFunctions: [],
    });
    assert.equal(
      contractClassId({
        artifactHash: 0x1234n,
        privateFunctionsRoot: c.privateFunctionsRoot,
        publicBytecodeCommitment: publicBytecodeCommitment(EXAMPLE.packedBytecode),
      }),
      c.id,
    );
  });

  test('the private functions root of no functions', () => {
    assert.equal(
      privateFunctionsRoot([]),
      0x067243231eddf4222f3911defbba7705aff06ed45960b27f6f91319196ef97e1n,
    );
  });

  test('public keys hash: (1,2),(3,4),(5,6),(7,8), the default keys, and all-zero keys', () => {
    const k = keys([point(1n, 2n), point(3n, 4n), point(5n, 6n), point(7n, 8n)]);
    assert.equal(publicKeysHash(k), 0x056998309f6c119e4d753e404f94fef859dddfa530a9379634ceb0854b29bf7an);
    assert.equal(
      publicKeysHash(DEFAULT_PUBLIC_KEYS),
      0x023547e676dba19784188825b901a0e70d8ad978300d21d6185a54281b734da0n,
    );
    const zero = point(0n, 0n);
    assert.equal(publicKeysHash(keys([zero, zero, zero, zero])), 0n);
    // Order matters: swapping two keys changes the hash.
    assert.notEqual(
      publicKeysHash(keys([point(3n, 4n), point(1n, 2n), point(5n, 6n), point(7n, 8n)])),
      publicKeysHash(k),
    );
  });

  test('public keys hash against the model: x, y, is-infinite of each key under its separator', () => {
    const inf: Point = { x: 0n, y: 0n, isInfinite: true };
    const pts: [Point, Point, Point, Point] = [point(1n, 2n), inf, point(5n, 6n), point(7n, 8n)];
    const model = refHash([777_457_226n, ...pts.flatMap((p) => [p.x, p.y, p.isInfinite ? 1n : 0n])]);
    assert.equal(publicKeysHash(keys(pts)), model);
    assert.notEqual(publicKeysHash(keys(pts)), publicKeysHash(keys([pts[0], point(0n, 0n), pts[2], pts[3]])));
  });

  test('partial address, initialization hash and preaddress', () => {
    assert.equal(partialAddress(1n, 2n), 0x2f43fe475e50f6066260038fd16fa97029a76395b2d38388808e60bc24651a0cn);
    assert.equal(
      initializationHash(functionSelector('fun(bool)'), [1n]),
      0x08b683284b4344302193cb36c05f043d4225e2d88d9e0f6ffde12547098cab98n,
    );
    assert.equal(initializationHash(undefined), 0n);
    // No arguments: the args hash is 0.
    assert.equal(initializationHash(7, []), refHash([BigInt(CONTRACT_SEPARATORS.initializer), 7n, 0n]));
    assert.equal(
      poseidon2HashWithSeparator([1n, 2n], 1_788_365_517),
      0x286c7755f2924b1e53b00bcaf1adaffe7287bd74bba7a02f4ab867e3892d28dan,
    );
  });

  test('a full address: x of (preaddress·G + ivpk), with the keys hashed by publicKeysHash', () => {
    const k = keys([
      point(
        0x22f7fcddfa3ce3e8f0cc8e82d7b94cdd740afa3e77f8e4a63ea78a239432dcabn,
        0x0471657de2b6216ade6c506d28fbc22ba8b8ed95c871ad9f3e3984e90d9723a7n,
      ),
      point(
        0x111223493147f6785514b1c195bb37a2589f22a6596d30bb2bb145fdc9ca8f1en,
        0x273bbffd678edce8fe30e0deafc4f66d58357c06fd4a820285294b9746c3be95n,
      ),
      point(
        0x09115c96e962322ffed6522f57194627136b8d03ac7469109707f5e44190c484n,
        0x0c49773308a13d740a7f0d4f0e6163b02c5a408b6f965856b6a491002d073d5bn,
      ),
      point(
        0x00d3d81beb009873eb7116327cf47c612d5758ef083d4fda78e9b63980b2a762n,
        0x2f567d22d2b02fe1f4ad42db9d58a36afd1983e7e2909d1cab61cafedad6193an,
      ),
    ]);
    for (const name of Object.keys(k) as (keyof PublicKeys)[]) assert.ok(isOnCurve(k[name]), name);
    const partial = 0x0a7c585381b10f4666044266a02405bf6e01fa564c8517d4ad5823493abd31den;
    const preaddress = poseidon2HashWithSeparator([publicKeysHash(k), partial], 1_788_365_517);
    const sum = addPoints(multiplyPoint(GRUMPKIN_GENERATOR, preaddress), k.masterIncomingViewingPublicKey);
    assert.equal(sum.x, 0x2f66081d4bb077fbe8e8abe96a3516a713a3d7e34360b4e985da0da95092b37dn);
  });

  test('contractAddress follows the same derivation from the instance parts', () => {
    const parts = {
      version: 1,
      salt: 0x5a17n,
      deployer: 0xde9n,
      originalContractClassId: 0xc1a55n,
      initializationHash: 0x1717n,
      publicKeys: DEFAULT_PUBLIC_KEYS,
    };
    const partial = refHash([
      BigInt(CONTRACT_SEPARATORS.partialAddress),
      0xc1a55n,
      refHash([BigInt(CONTRACT_SEPARATORS.partialAddress), 0x5a17n, 0x1717n, 0xde9n]),
    ]);
    assert.equal(partialAddress(0xc1a55n, saltedInitializationHash(parts)), partial);
    const preaddress = refHash([1_788_365_517n, publicKeysHash(DEFAULT_PUBLIC_KEYS), partial]);
    const expected = addPoints(
      multiplyPoint(GRUMPKIN_GENERATOR, preaddress),
      DEFAULT_PUBLIC_KEYS.masterIncomingViewingPublicKey,
    ).x;
    assert.equal(contractAddress(parts), expected);
    const made = makeContractInstance({
      classId: 0xc1a55n,
      salt: 0x5a17n,
      deployer: 0xde9n,
      initializationHash: 0x1717n,
    });
    assert.deepEqual(made, { ...parts, currentContractClassId: 0xc1a55n, address: expected });
    // Defaults: salt, deployer and initialization hash 0, the default keys.
    const plain = makeContractInstance({ classId: 0xc1a55n });
    assert.deepEqual(
      plain,
      makeContractInstance({
        classId: 0xc1a55n,
        salt: 0n,
        deployer: 0n,
        initializationHash: 0n,
        publicKeys: DEFAULT_PUBLIC_KEYS,
      }),
    );
    assert.notEqual(plain.address, made.address);
  });

  test('the instance publication tag is the registry-siloed magic value', () => {
    assert.equal(
      CONTRACT_INSTANCE_PUBLISHED_TAG,
      0x1a7e1badb79abdd38c684b3c8306ffe7ecb33c69e3380d9855730aaaa83a21a8n,
    );
    assert.equal(
      CONTRACT_INSTANCE_PUBLISHED_TAG,
      siloPrivateLogFirstField(2n, CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE),
    );
  });

  test('the default public keys are points on the curve', () => {
    for (const p of Object.values(DEFAULT_PUBLIC_KEYS) as Point[]) assert.ok(isOnCurve(p));
  });
});

describe('contracts: bytecode packing', () => {
  const bytesArb = (maxLength: number) => fc.uint8Array({ maxLength }).map((b) => new Uint8Array(b));

  test('random bytecodes pack as the model says and unpack to themselves', () => {
    fc.assert(
      fc.property(bytesArb(500), (bytes) => {
        const fields = bytecodeToFields(bytes);
        assert.deepEqual(fields, modelPack(bytes));
        assert.equal(fields.length, 1 + Math.ceil(bytes.length / 31));
        for (const f of fields.slice(1)) assert.ok(f < 1n << 248n);
        assert.deepEqual(bytecodeFromFields(fields), bytes);
        // Trailing zero fields (as in a padded log) are accepted.
        assert.deepEqual(bytecodeFromFields([...fields, 0n, 0n, 0n]), bytes);
      }),
      opts(100),
    );
  });

  test('edge lengths round-trip: 0, 30, 31, 32, 62 and the largest, 92969', () => {
    assert.equal(MAX_PUBLIC_BYTECODE_BYTES, 92_969);
    for (const n of [0, 1, 30, 31, 32, 62, 92_969]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 7 + 1) & 0xff);
      const fields = bytecodeToFields(bytes);
      assert.equal(fields.length, 1 + Math.ceil(n / 31), `length ${n}`);
      assert.equal(fields[0], BigInt(n));
      assert.deepEqual(fields, modelPack(bytes), `length ${n}`);
      assert.deepEqual(bytecodeFromFields(fields), bytes, `length ${n}`);
    }
    assert.deepEqual(bytecodeToFields(new Uint8Array(0)), [0n]);
    // A short last chunk is left-aligned: byte 1 of the field, not byte 31.
    assert.deepEqual(bytecodeToFields(Uint8Array.of(0xab)), [1n, 0xabn << 240n]);
  });

  test('92970 bytes do not fit', () => {
    const tooBig = new Uint8Array(92_970);
    assert.throws(() => bytecodeToFields(tooBig), RangeError);
    assert.throws(() => publicBytecodeCommitment(tooBig), RangeError);
    assert.throws(() => makeContractClass({ artifactHash: 1n, packedBytecode: tooBig }), RangeError);
  });

  test('bytecodeFromFields rejects malformed packings', () => {
    const good = bytecodeToFields(new Uint8Array(31).fill(0xff));
    assert.equal(good[1], (1n << 248n) - 1n);
    assert.deepEqual(bytecodeFromFields(good), new Uint8Array(31).fill(0xff));
    // A non-zero byte past the length, in the last chunk.
    assert.equal(bytecodeFromFields([30n, good[1]!]), undefined);
    assert.equal(bytecodeFromFields([1n, (0xabn << 240n) | 1n]), undefined);
    assert.deepEqual(bytecodeFromFields([1n, 0xabn << 240n]), Uint8Array.of(0xab));
    // A length of 0 with a non-zero field after it.
    assert.equal(bytecodeFromFields([0n, 1n]), undefined);
    // Non-zero fields past the last chunk.
    assert.equal(bytecodeFromFields([...good, 0n, 5n]), undefined);
    assert.equal(bytecodeFromFields([...good, 1n]), undefined);
    // A chunk of 2^248 or more (byte 0 of the field is not zero).
    assert.equal(bytecodeFromFields([31n, 1n << 248n]), undefined);
    assert.equal(bytecodeFromFields([31n, FR_MODULUS - 1n]), undefined);
    // A length beyond the largest bytecode, or beyond the chunks given.
    assert.equal(bytecodeFromFields([92_970n, ...new Array(3000).fill(0n)]), undefined);
    assert.equal(bytecodeFromFields([1n << 64n]), undefined);
    assert.equal(bytecodeFromFields([62n, good[1]!]), undefined);
    assert.equal(bytecodeFromFields([1n]), undefined);
    // No length at all.
    assert.equal(bytecodeFromFields([]), undefined);
  });
});

describe('contracts: commitments and roots against the models', () => {
  test('the bytecode commitment: chunks hashed with 260313585 + (length << 32) as separator', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }).map((b) => new Uint8Array(b)),
        (bytes) => assert.equal(publicBytecodeCommitment(bytes), modelCommitment(bytes)),
      ),
      opts(40),
    );
    assert.equal(publicBytecodeCommitment(new Uint8Array(0)), refHash([260_313_585n]));
    assert.equal(publicBytecodeCommitment(EXAMPLE.packedBytecode), modelCommitment(EXAMPLE.packedBytecode));
  });

  test('the class id: artifact hash, root and commitment under the class id separator', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
        fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
        fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
        (a, r, c) =>
          assert.equal(
            contractClassId({ artifactHash: a, privateFunctionsRoot: r, publicBytecodeCommitment: c }),
            modelClassId(a, r, c),
          ),
      ),
      opts(30),
    );
  });

  test('the private functions root is order-independent and matches the model', () => {
    fc.assert(
      fc.property(fnsArb, fc.nat(), (fns, shuffleSeed) => {
        const root = privateFunctionsRoot(fns);
        const shuffled = [...fns];
        let s = shuffleSeed;
        for (let i = shuffled.length - 1; i > 0; i--) {
          s = (s * 1_103_515_245 + 12_345) >>> 0;
          const j = s % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        assert.equal(privateFunctionsRoot(shuffled), root);
        assert.equal(privateFunctionsRoot([...fns].reverse()), root);
        assert.equal(root, modelFunctionsRoot(fns));
      }),
      opts(15),
    );
  });

  test('the private functions root rejects duplicate selectors and more than 128 functions', () => {
    assert.throws(
      () =>
        privateFunctionsRoot([
          { selector: 5, vkHash: 1n },
          { selector: 9, vkHash: 2n },
          { selector: 5, vkHash: 3n },
        ]),
      (err: unknown) => err instanceof RangeError && /appears twice/.test(err.message),
    );
    assert.throws(
      () =>
        privateFunctionsRoot([
          { selector: 1, vkHash: 1n },
          { selector: 1, vkHash: 1n },
        ]),
      RangeError,
    );
    assert.throws(
      () =>
        makeContractClass({
          ...EXAMPLE,
          privateFunctions: [...EXAMPLE.privateFunctions, ...EXAMPLE.privateFunctions],
        }),
      RangeError,
    );
    const many = Array.from({ length: 129 }, (_, i) => ({ selector: i, vkHash: 1n }));
    assert.throws(() => privateFunctionsRoot(many), RangeError);
    assert.doesNotThrow(() => privateFunctionsRoot(many.slice(0, 128)));
  });
});

// ---- events ------------------------------------------------------------------------------------

describe('contracts: class publication events', () => {
  const cls = makeContractClass(EXAMPLE);

  test('builder → parser round trip (fixed and random classes)', () => {
    const fields = classPublishedLogFields(cls);
    assert.deepEqual(fields.slice(0, 5), [
      CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE,
      cls.id,
      1n,
      0x1234n,
      cls.privateFunctionsRoot,
    ]);
    assert.deepEqual(fields.slice(5), bytecodeToFields(cls.packedBytecode));
    assert.deepEqual(parseClassPublished(classLog(fields)), { ok: true, value: cls });
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
        fc.uint8Array({ maxLength: 300 }).map((b) => new Uint8Array(b)),
        fnsArb,
        (artifactHash, packedBytecode, privateFunctions) => {
          const c = makeContractClass({ artifactHash, packedBytecode, privateFunctions });
          assert.deepEqual(parseClassPublished(classLog(classPublishedLogFields(c))), { ok: true, value: c });
        },
      ),
      opts(15),
    );
  });

  test('a class with the largest bytecode fits in a class log and parses', () => {
    const big = makeContractClass({ artifactHash: 9n, packedBytecode: new Uint8Array(92_969).fill(0x5b) });
    const fields = classPublishedLogFields(big);
    assert.ok(fields.length <= CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    assert.deepEqual(parseClassPublished(classLog(fields)), { ok: true, value: big });
  });

  test('a wrong id, a wrong version or a bad packing is malformed', () => {
    const fields = classPublishedLogFields(cls);
    const with_ = (i: number, v: Fr) => fields.map((f, j) => (j === i ? v : f));
    const wrongId = parseClassPublished(classLog(with_(1, cls.id + 1n)));
    assert.equal(wrongId?.ok, false);
    assert.match((wrongId as { reason: string }).reason, /does not match its contents/);
    // A different artifact hash (or root) with the original id: the id no longer matches.
    assert.equal(parseClassPublished(classLog(with_(3, 0x1235n)))?.ok, false);
    assert.equal(parseClassPublished(classLog(with_(4, 0n)))?.ok, false);
    const wrongVersion = parseClassPublished(classLog(with_(2, 2n)));
    assert.deepEqual(wrongVersion, { ok: false, reason: 'class version 2 is not 1' });
    // Packing: a non-zero byte past the length (twice), a non-zero trailer, a length too large.
    const badPacking = [with_(6, fields[6]! | 1n), with_(5, 14n), [...fields, 0n, 7n], with_(5, 92_970n)];
    for (const f of badPacking) {
      assert.deepEqual(parseClassPublished(classLog(f)), {
        ok: false,
        reason: 'the packed bytecode is malformed',
      });
    }
  });

  test('another emitter or another first field is not a class publication', () => {
    const fields = classPublishedLogFields(cls);
    assert.equal(parseClassPublished(classLog(fields, 2n)), undefined);
    assert.equal(parseClassPublished(classLog(fields, 4n)), undefined);
    assert.equal(
      parseClassPublished(classLog([CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE, ...fields.slice(1)])),
      undefined,
    );
    assert.equal(parseClassPublished(classLog([0n, ...fields.slice(1)])), undefined);
    assert.equal(parseClassPublished(classLog([])), undefined);
  });
});

describe('contracts: instance publication events', () => {
  const pointOf = (k: bigint) => multiplyPoint(GRUMPKIN_GENERATOR, k);
  const instanceArb = fc
    .record({
      classId: fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
      salt: fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
      deployer: fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
      initializationHash: fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }),
      keys: fc.option(fc.array(fc.bigInt({ min: 1n, max: 1n << 64n }), { minLength: 4, maxLength: 4 }), {
        nil: undefined,
      }),
    })
    .map(({ keys: ks, ...parts }) =>
      makeContractInstance({
        ...parts,
        ...(ks ? { publicKeys: keys(ks.map(pointOf) as [Point, Point, Point, Point]) } : {}),
      }),
    );
  const instance = makeContractInstance({
    classId: 0xc1a55n,
    salt: 42n,
    deployer: 0xde9n,
    initializationHash: 7n,
  });

  test('builder → parser round trip (fixed and random instances)', () => {
    const fields = instancePublishedLogFields(instance);
    assert.equal(fields.length, 15);
    assert.deepEqual(fields.slice(0, 6), [
      CONTRACT_INSTANCE_PUBLISHED_TAG,
      instance.address,
      1n,
      42n,
      0xc1a55n,
      7n,
    ]);
    assert.equal(fields[14], 0xde9n);
    assert.deepEqual(parseInstancePublished(privateLog(fields)), { ok: true, value: instance });
    fc.assert(
      fc.property(instanceArb, (i) => {
        assert.deepEqual(parseInstancePublished(privateLog(instancePublishedLogFields(i))), {
          ok: true,
          value: i,
        });
      }),
      opts(15),
    );
  });

  test('an address that does not follow, a key off the curve or version 2 is malformed', () => {
    const fields = instancePublishedLogFields(instance);
    const with_ = (i: number, v: Fr) => fields.map((f, j) => (j === i ? v : f));
    const reasonOf = (f: Fr[], emitted?: number) => {
      const parsed = parseInstancePublished(privateLog(f, emitted));
      assert.equal(parsed?.ok, false);
      return (parsed as { reason: string }).reason;
    };
    assert.match(reasonOf(with_(1, instance.address + 1n)), /does not follow from the instance/);
    // Any content change moves the address: salt, class, initialization hash, deployer.
    for (const i of [3, 4, 5, 14]) assert.match(reasonOf(with_(i, fields[i]! + 1n)), /does not follow/);
    // Keys: an off-curve y for each of the four keys.
    for (const [j, name] of [
      [7, 'masterNullifierPublicKey'],
      [9, 'masterIncomingViewingPublicKey'],
      [11, 'masterOutgoingViewingPublicKey'],
      [13, 'masterTaggingPublicKey'],
    ] as const) {
      assert.equal(reasonOf(with_(j, fields[j]! + 1n)), `${name} is not a point on the curve`);
    }
    // A valid other point as a key still changes the address.
    const other = pointOf(99n);
    assert.match(reasonOf(with_(10, other.x).map((f, j) => (j === 11 ? other.y : f))), /does not follow/);
    assert.equal(reasonOf(with_(2, 2n)), 'instance version 2 is not 1');
    assert.equal(reasonOf(fields, 14), 'the instance publication log is too short');
  });

  test('a private log with another tag is not an instance publication', () => {
    const fields = instancePublishedLogFields(instance);
    assert.equal(
      parseInstancePublished(privateLog([CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE, ...fields.slice(1)])),
      undefined,
    );
    assert.equal(parseInstancePublished(privateLog([0n, ...fields.slice(1)])), undefined);
    assert.equal(parseInstancePublished(privateLog([])), undefined);
  });
});

describe('contracts: class update events', () => {
  const update: ContractUpdate = {
    address: 0xabcn,
    prevContractClassId: 0x111n,
    newContractClassId: 0x222n,
    timestampOfChange: 1_700_086_400n,
  };

  test('builder → parser round trip', () => {
    const fields = instanceUpdatedLogFields(update);
    assert.deepEqual(fields, [CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE, 0xabcn, 0x111n, 0x222n, 1_700_086_400n]);
    assert.deepEqual(parseInstanceUpdated(publicLog(fields)), { ok: true, value: update });
    const first = { ...update, prevContractClassId: 0n, timestampOfChange: (1n << 64n) - 1n };
    assert.deepEqual(parseInstanceUpdated(publicLog(instanceUpdatedLogFields(first))), {
      ok: true,
      value: first,
    });
  });

  test('a log from another contract or with another first field is not an update', () => {
    const fields = instanceUpdatedLogFields(update);
    assert.equal(parseInstanceUpdated(publicLog(fields, 3n)), undefined);
    assert.equal(parseInstanceUpdated(publicLog(fields, 0xabcn)), undefined);
    assert.equal(
      parseInstanceUpdated(publicLog([CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE, ...fields.slice(1)])),
      undefined,
    );
    assert.equal(parseInstanceUpdated(publicLog([])), undefined);
  });

  test('a short update log or a time of change past 64 bits is malformed', () => {
    const fields = instanceUpdatedLogFields(update);
    assert.deepEqual(parseInstanceUpdated(publicLog(fields.slice(0, 4))), {
      ok: false,
      reason: 'the update log is too short',
    });
    assert.deepEqual(parseInstanceUpdated(publicLog([...fields.slice(0, 4), 1n << 64n])), {
      ok: false,
      reason: 'the update time does not fit in 64 bits',
    });
  });
});
