// The contracts known from genesis, read from the reference's published artifacts: each protocol
// contract's class id is the one the reference's @aztec/protocol-contracts 4.1.2 lists for it
// (facts, copied here as values), at its fixed address with the reference's canonical instance,
// and the SponsoredFPC derives the address the reference's local network funds.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import pino from 'pino';
import { contractAddress } from '../../src/core/contracts.js';
import type { GenesisContract } from '../../src/execution/genesis-contracts.js';
import { SPONSORED_FPC_ADDRESS } from '../../src/execution/test-accounts.js';
import { loadGenesisContracts } from '../../src/node/genesis-artifacts.js';

const skip = process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false;

/** Name, address and class id as the reference lists them (ProtocolContractClassId, 4.1.2). */
const REFERENCE: [string, bigint, bigint][] = [
  ['AuthRegistry', 1n, 0x17ad10e1b5dba2877b9a973449c03d5227f2c719c0eb1989427c10c1d83867a5n],
  ['ContractInstanceRegistry', 2n, 0x187c710b0d69b2da7a6f0663c15093a5d595c04e77762c249aa9b654bc12158cn],
  ['ContractClassRegistry', 3n, 0x013466b8a65dea98ad80c119cf236a0acf53acfede687769410cfd57876b8242n],
  ['MultiCallEntrypoint', 4n, 0x1acd7ab8bf186c16eafc9c4fe9049f35df27e172bb2d8319a2a22ddd0006966dn],
  ['FeeJuice', 5n, 0x16b2d5ef5044c11126a16ccdb3778082eb423375977da9458d493fdf84505e81n],
  ['PublicChecks', 6n, 0x03f2ebaef8d692422185e35d8fe35d0bb7289702cf023b525c022d77fc6b5ed5n],
];
const SPONSORED_FPC_CLASS = 0x2a70a2847b3af93b7a60f922c6e8ddda9066fa38ee9713ade9104d2556bf5e1an;

describe('loadGenesisContracts', { skip }, () => {
  let contracts: GenesisContract[];
  before(async () => {
    contracts = await loadGenesisContracts(pino({ level: 'silent' }));
  });

  test("the six protocol contracts at their addresses, with the reference's class ids", () => {
    const protocol = contracts.slice(0, 6);
    assert.deepEqual(
      protocol.map((c) => [c.name, c.instance.address, c.contractClass.id]),
      REFERENCE,
    );
    for (const c of protocol) {
      assert.equal(c.instance.salt, 1n);
      assert.equal(c.instance.deployer, c.instance.address);
      assert.equal(c.instance.initializationHash, 0n);
      assert.equal(c.instance.currentContractClassId, c.contractClass.id);
      assert.equal(c.instance.originalContractClassId, c.contractClass.id);
    }
  });

  test('the SponsoredFPC: salt 0, no deployer, the class and address the reference derives', () => {
    const fpc = contracts[6]!;
    assert.equal(contracts.length, 7);
    assert.equal(fpc.name, 'SponsoredFPC');
    assert.equal(fpc.contractClass.id, SPONSORED_FPC_CLASS);
    assert.equal(fpc.instance.address, SPONSORED_FPC_ADDRESS);
    const { address: _, currentContractClassId: __, ...preimage } = fpc.instance;
    assert.equal(contractAddress(preimage), SPONSORED_FPC_ADDRESS);
  });

  test('every genesis contract has public bytecode to run, and its errors to name its reverts', () => {
    for (const c of contracts) {
      assert.ok(c.contractClass.packedBytecode.length > 0, c.name);
      assert.ok((c.errors?.size ?? 0) > 0, c.name);
    }
    const registry = contracts.find((c) => c.name === 'ContractInstanceRegistry')!;
    const messages = [...registry.errors!.values()].map((e) => (e.kind === 'string' ? e.message : ''));
    assert.ok(messages.includes('msg.sender is not deployed'));
  });
});
