// GenesisContracts: lookups by address and class id, and the view public execution gets, where
// every genesis contract takes precedence over the published index, and reverts of their code are
// named from their artifacts' errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ContractClassPublic, DEFAULT_PUBLIC_KEYS } from '../../src/core/contracts.js';
import type { PublicContracts } from '../../src/execution/avm-calls.js';
import { ContractsInBlock } from '../../src/execution/contracts-in-block.js';
import { type GenesisContract, GenesisContracts } from '../../src/execution/genesis-contracts.js';

function contract(name: string, address: bigint, classId: bigint, code: number): GenesisContract {
  const contractClass: ContractClassPublic = {
    id: classId,
    version: 1,
    artifactHash: 0n,
    privateFunctionsRoot: 0n,
    packedBytecode: new Uint8Array([code]),
    privateFunctions: [],
    utilityFunctions: [],
  };
  return {
    name,
    contractClass,
    errors: new Map([[BigInt(code) << 32n, { kind: 'string', message: `${name} failed` }]]),
    instance: {
      version: 1,
      salt: 1n,
      deployer: address,
      originalContractClassId: classId,
      currentContractClassId: classId,
      initializationHash: 0n,
      publicKeys: DEFAULT_PUBLIC_KEYS,
      address,
    },
  };
}

const auth = contract('AuthRegistry', 1n, 0xa1n, 1);
const feeJuice = contract('FeeJuice', 5n, 0xf5n, 5);
const fpc = contract('SponsoredFPC', 0x9a4dn, 0x2a70n, 9);
const genesis = new GenesisContracts([auth, feeJuice, fpc]);

const base: PublicContracts = {
  instance: (address) =>
    address === 0x77n ? { deployer: 0n, originalClassId: 0x70n, initializationHash: 3n } : undefined,
  bytecode: (classId) => (classId === 0x70n ? new Uint8Array([7]) : undefined),
};

test('instances by address and classes by id', () => {
  assert.equal(genesis.instance(5n), feeJuice.instance);
  assert.equal(genesis.instance(0x9a4dn), fpc.instance);
  assert.equal(genesis.instance(0x77n), undefined);
  assert.equal(genesis.contractClass(0xf5n), feeJuice.contractClass);
  assert.equal(genesis.contractClass(0x70n), undefined);
});

test('public execution sees every genesis contract over the index, and their errors', () => {
  const view = genesis.forPublicExecution(base);
  assert.deepEqual(view.instance(1n), { deployer: 1n, originalClassId: 0xa1n, initializationHash: 0n });
  assert.deepEqual(view.bytecode(0x2a70n), new Uint8Array([9]));
  assert.deepEqual(view.instance(5n), { deployer: 5n, originalClassId: 0xf5n, initializationHash: 0n });
  assert.deepEqual(view.bytecode(0xf5n), new Uint8Array([5]));
  assert.equal(view.revertMessage?.([5n << 32n]), 'FeeJuice failed');
  assert.equal(view.revertMessage?.([1n << 32n, 7n]), 'AuthRegistry failed');
  assert.equal(view.revertMessage?.([6n << 32n]), undefined);
  assert.equal(view.revertMessage?.([]), undefined);
  assert.deepEqual(view.instance(0x77n), { deployer: 0n, originalClassId: 0x70n, initializationHash: 3n });
  assert.deepEqual(view.bytecode(0x70n), new Uint8Array([7]));
  assert.equal(new GenesisContracts().forPublicExecution(undefined).instance(1n), undefined);
});

test('the contracts a block sees over them still name the genesis contracts’ errors', () => {
  const inBlock = new ContractsInBlock(genesis.forPublicExecution(base));
  assert.equal(inBlock.revertMessage([5n << 32n]), 'FeeJuice failed');
  assert.equal(inBlock.revertMessage([7n << 32n]), undefined);
});
