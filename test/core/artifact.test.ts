// cairn's reading of real 4.1.2 artifacts against what the reference tools derive from them
// (test/core/vectors/artifact-ids.json, written by scripts/avm-oracle/artifact-ids.mjs from
// @aztec/stdlib@4.1.2): artifact hash, private functions root, class id, every selector, the
// calldata of some calls, and a Token instance's initialization hash and address. Needs the npm
// artifacts (CAIRN_SKIP_ARTIFACTS=1 skips it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { ensureArtifacts, loadArtifactJson, REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { AbiError } from '../../src/core/abi.js';
import {
  type ContractArtifact,
  contractClassOf,
  decodeReturn,
  findFunction,
  InvalidArtifactError,
  parseArtifact,
  privateFunctionsOf,
  publicCalldata,
  revertMessage,
} from '../../src/core/artifact.js';
import { initializationHash, makeContractInstance, privateFunctionsRoot } from '../../src/core/contracts.js';

interface Vectors {
  artifacts: {
    package: string;
    file: string;
    name: string;
    artifactHash: string;
    privateFunctionsRoot: string;
    publicBytecodeCommitment: string;
    classId: string;
    privateFunctions: { selector: string; vkHash: string }[];
    selectors: Record<string, string>;
  }[];
  calls: { file: string; function: string; args: unknown[]; encoded: string[] }[];
  tokenInstance: {
    salt: string;
    deployer: string;
    initializationHash: string;
    address: string;
  };
}

const vectors: Vectors = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test', 'core', 'vectors', 'artifact-ids.json'), 'utf8'),
);

describe('contract artifacts, as the reference reads them', {
  skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
}, () => {
  const artifacts = new Map<string, ContractArtifact>();
  before(async () => {
    await ensureArtifacts();
    for (const v of vectors.artifacts)
      artifacts.set(v.file, parseArtifact(loadArtifactJson(v.package, v.file)));
  });

  test('artifact hash, private functions root and class id equal the reference', () => {
    for (const v of vectors.artifacts) {
      const a = artifacts.get(v.file)!;
      assert.equal(a.name, v.name);
      assert.equal(a.artifactHash, BigInt(v.artifactHash), `${v.name}: artifact hash`);
      const privateFns = privateFunctionsOf(a);
      assert.deepEqual(
        privateFns.map((f) => f.vkHash).sort(),
        v.privateFunctions.map((f) => BigInt(f.vkHash)).sort(),
        `${v.name}: verification key hashes`,
      );
      assert.equal(privateFunctionsRoot(privateFns), BigInt(v.privateFunctionsRoot), `${v.name}: root`);
      assert.equal(contractClassOf(a).id, BigInt(v.classId), `${v.name}: class id`);
    }
  });

  test('every function has the reference selector', () => {
    for (const v of vectors.artifacts) {
      const a = artifacts.get(v.file)!;
      for (const [name, selector] of Object.entries(v.selectors)) {
        assert.equal(findFunction(a, name).selector, Number(BigInt(selector)), `${v.name}.${name}`);
      }
    }
  });

  test('arguments encode to the reference calldata', () => {
    for (const c of vectors.calls) {
      const fn = findFunction(artifacts.get(c.file)!, c.function);
      const args = c.args.map((arg) =>
        // The reference's addresses serialise as 0x text, its Fr as {…}: the test passes plain values.
        typeof arg === 'string' && arg.startsWith('0x') ? arg : arg,
      );
      assert.deepEqual(publicCalldata(fn, args as never).slice(1), c.encoded.map(BigInt), `${c.function}`);
    }
  });

  test("a Token instance's initialization hash and address equal the reference", () => {
    const token = artifacts.get('artifacts/token_contract-Token.json')!;
    const ctor = findFunction(token, 'constructor');
    const args = publicCalldata(ctor, ['0x1234', 'Cairn Token', 'CTK', 18]).slice(1);
    const initHash = initializationHash(ctor.selector, args);
    assert.equal(initHash, BigInt(vectors.tokenInstance.initializationHash));
    const instance = makeContractInstance({
      classId: contractClassOf(token).id,
      salt: BigInt(vectors.tokenInstance.salt),
      deployer: BigInt(vectors.tokenInstance.deployer),
      initializationHash: initHash,
    });
    assert.equal(instance.address, BigInt(vectors.tokenInstance.address));
  });

  test('Token: storage layout, kinds, return values and revert messages', () => {
    const token = artifacts.get('artifacts/token_contract-Token.json')!;
    assert.deepEqual(Object.fromEntries(token.storage), {
      admin: 1n,
      minters: 2n,
      balances: 3n,
      total_supply: 4n,
      public_balances: 5n,
      symbol: 6n,
      name: 8n,
      decimals: 10n,
    });
    const balance = findFunction(token, 'balance_of_public');
    assert.equal(balance.kind, 'public');
    assert.equal(balance.isStatic, true);
    assert.equal(balance.signature, 'balance_of_public((Field))');
    assert.equal(decodeReturn(balance, [1000n]), 1000n);
    assert.equal(findFunction(token, 'constructor').isInitializer, true);
    assert.equal(findFunction(token, 'transfer').kind, 'private');
    assert.equal(decodeReturn(findFunction(token, 'is_minter'), [1n]), true);
    assert.equal(decodeReturn(findFunction(token, 'mint_to_public'), []), undefined);
    assert.equal(revertMessage(token, [0x820abc023de5f12en]), 'caller is not minter');
    assert.equal(revertMessage(token, [12345n]), undefined);
  });

  test('bad arguments and unknown functions get one clear line', () => {
    const token = artifacts.get('artifacts/token_contract-Token.json')!;
    const mint = findFunction(token, 'mint_to_public');
    assert.throws(
      () => findFunction(token, 'mint'),
      (e: Error) =>
        e instanceof AbiError &&
        /has no function mint; its public functions are: .*mint_to_public/.test(e.message),
    );
    assert.throws(
      () => publicCalldata(mint, ['0x1']),
      /mint_to_public takes 2 argument\(s\) \(to: AztecAddress, amount: u128\), got 1/,
    );
    assert.throws(() => publicCalldata(mint, ['0x1', -1]), /argument amount: -1 is out of range for u128/);
    assert.throws(() => publicCalldata(mint, ['0x1', 1n << 128n]), /out of range for u128/);
    assert.throws(() => publicCalldata(mint, ['alice', 1]), /argument to: expected AztecAddress/);
    const ctor = findFunction(token, 'constructor');
    assert.throws(
      () => publicCalldata(ctor, ['0x1', 'a name much longer than thirty-one bytes', 'T', 18]),
      /longer than str<31>/,
    );
  });

  test('an artifact with a field missing or of the wrong type is refused, naming the field', () => {
    const json = loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json');
    const noParams = structuredClone(json);
    delete noParams.functions[2].abi.parameters;
    assert.throws(
      () => parseArtifact(noParams),
      (e: Error) => e instanceof InvalidArtifactError && /functions\[2\]\.abi\.parameters/.test(e.message),
    );
    assert.throws(() => parseArtifact({ name: 'X' }), /functions/);
    assert.throws(() => parseArtifact([]), InvalidArtifactError);
    const notTranspiled = structuredClone(json);
    notTranspiled.transpiled = false;
    assert.throws(() => parseArtifact(notTranspiled), /not transpiled/);
  });
});
