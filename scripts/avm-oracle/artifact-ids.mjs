#!/usr/bin/env node
// Writes test/core/vectors/artifact-ids.json: what the reference tools (@aztec/stdlib@4.1.2, in
// the scratch folder of README.md) derive from each pinned artifact — its artifact hash, private
// functions root and class id, every function's selector, the calldata of some calls and, for
// Token, an instance's initialization hash and address — for test/core/artifact.test.ts to check
// cairn's own derivations against. Run by hand, never in CI:
//   node scripts/avm-oracle/artifact-ids.mjs --scratch /work/avm-oracle-scratch
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureArtifacts, loadArtifactJson, REPO_ROOT } from '../../dist/artifacts/npm-artifacts.js';
import { loadReference, PINNED_VERSION } from './reference.mjs';

const ARTIFACTS = [
  ['@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'],
  ['@aztec/noir-contracts.js@4.1.2', 'artifacts/nft_contract-NFT.json'],
  ['@aztec/noir-contracts.js@4.1.2', 'artifacts/auth_registry_contract-AuthRegistry.json'],
  ['@aztec/noir-test-contracts.js@4.1.2', 'artifacts/avm_test_contract-AvmTest.json'],
  ['@aztec/noir-test-contracts.js@4.1.2', 'artifacts/parent_contract-Parent.json'],
  ['@aztec/noir-test-contracts.js@4.1.2', 'artifacts/child_contract-Child.json'],
  ['@aztec/protocol-contracts@4.1.2', 'artifacts/AuthRegistry.json'],
  ['@aztec/protocol-contracts@4.1.2', 'artifacts/FeeJuice.json'],
];

/** Calls whose calldata the test re-encodes: [file, function, args as the reference takes them]. */
const CALLS = (R) => {
  const alice = R.AztecAddress.fromBigInt(0x1234n);
  const bob = R.AztecAddress.fromBigInt(0xbeefn);
  return [
    ['artifacts/token_contract-Token.json', 'constructor', [alice, 'Cairn Token', 'CTK', 18]],
    ['artifacts/token_contract-Token.json', 'transfer_in_public', [alice, bob, 1000n, 7n]],
    ['artifacts/token_contract-Token.json', 'mint_to_public', [bob, (1n << 128n) - 1n]],
    ['artifacts/nft_contract-NFT.json', 'constructor', [alice, 'Cairn NFT', 'CNFT']],
    ['artifacts/avm_test_contract-AvmTest.json', 'add_args_return', [new R.Fr(3n), new R.Fr(4n)]],
    ['artifacts/avm_test_contract-AvmTest.json', 'modulo2', [9n]],
    [
      'artifacts/avm_test_contract-AvmTest.json',
      'elliptic_curve_add',
      [
        { x: new R.Fr(1n), y: new R.Fr(2n), is_infinite: false },
        { x: new R.Fr(3n), y: new R.Fr(4n), is_infinite: true },
      ],
    ],
  ];
};

function parseArgs(argv) {
  const opts = { scratch: process.env.AVM_ORACLE_SCRATCH, out: join(REPO_ROOT, 'test', 'core', 'vectors') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--scratch') opts.scratch = argv[++i];
    else if (argv[i] === '--out') opts.out = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!opts.scratch) throw new Error('pass --scratch <folder> (or set AVM_ORACLE_SCRATCH)');
  return { ...opts, scratch: resolve(opts.scratch) };
}

const hex = (fr) => fr.toString();

const opts = parseArgs(process.argv.slice(2));
await ensureArtifacts();
const R = await loadReference(opts.scratch);
const out = {
  generatedBy: `@aztec/stdlib@${PINNED_VERSION}`,
  generatedAt: new Date().toISOString(),
  artifacts: [],
  calls: [],
};
const loaded = new Map();
for (const [pkg, file] of ARTIFACTS) {
  const artifact = R.abi.loadContractArtifact(loadArtifactJson(pkg, file));
  loaded.set(file, artifact);
  const cls = await R.contract.getContractClassFromArtifact(artifact);
  const selectors = {};
  for (const f of [...artifact.functions, ...artifact.nonDispatchPublicFunctions]) {
    selectors[f.name] = (await R.abi.FunctionSelector.fromNameAndParameters(f.name, f.parameters)).toString();
  }
  out.artifacts.push({
    package: pkg,
    file,
    name: artifact.name,
    artifactHash: hex(cls.artifactHash),
    privateFunctionsRoot: hex(cls.privateFunctionsRoot),
    publicBytecodeCommitment: hex(cls.publicBytecodeCommitment),
    classId: hex(cls.id),
    privateFunctions: cls.privateFunctions.map((f) => ({
      selector: f.selector.toString(),
      vkHash: hex(f.vkHash),
    })),
    selectors,
  });
}
for (const [file, fn, args] of CALLS(R)) {
  const artifact = loaded.get(file);
  const abi = [...artifact.functions, ...artifact.nonDispatchPublicFunctions].find((f) => f.name === fn);
  out.calls.push({
    file,
    function: fn,
    args: JSON.parse(JSON.stringify(args, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))),
    encoded: R.abi.encodeArguments(abi, args).map(hex),
  });
}
// An instance of Token, as aztec.js would deploy it.
const token = loaded.get('artifacts/token_contract-Token.json');
const ctorArgs = [R.AztecAddress.fromBigInt(0x1234n), 'Cairn Token', 'CTK', 18];
const instance = await R.contract.getContractInstanceFromInstantiationParams(token, {
  constructorArtifact: 'constructor',
  constructorArgs: ctorArgs,
  salt: new R.Fr(12345n),
  deployer: R.AztecAddress.fromBigInt(0x1234n),
});
out.tokenInstance = {
  salt: '12345',
  deployer: hex(R.AztecAddress.fromBigInt(0x1234n)),
  constructorArgs: ['0x1234', 'Cairn Token', 'CTK', 18],
  initializationHash: hex(instance.initializationHash),
  address: hex(instance.address),
};
const auth = await R.canonical.AuthRegistry();
out.canonicalAuthRegistry = {
  address: hex(auth.address),
  classId: hex(auth.contractClass.id),
  instance: {
    salt: hex(auth.instance.salt),
    deployer: hex(auth.instance.deployer),
    initializationHash: hex(auth.instance.initializationHash),
    currentContractClassId: hex(auth.instance.currentContractClassId),
  },
};
mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'artifact-ids.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `wrote ${join(opts.out, 'artifact-ids.json')}: ${out.artifacts.length} artifacts, ${out.calls.length} calls`,
);
process.exit(0);
