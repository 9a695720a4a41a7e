// State and environment opcodes through the interpreter: storage, note hashes, nullifiers,
// L1-to-L2 messages, contract instances, messages, the environment variables and calldata.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryAvmWorld } from '../../src/avm/memory-world.js';
import { siloNullifier } from '../../src/core/contracts.js';
import { GLOBALS, I, type Item, returning, run, SELF, SENDER, Tag } from './assembler.js';

const OTHER = 0x07e4n;

describe('AVM storage opcodes', () => {
  it('reads any contract’s storage and writes its own', () => {
    const world = new InMemoryAvmWorld();
    world.setStorage(OTHER, 3n, 33n);
    const r = run(
      [
        I('SET_8', [1, Tag.FF, 3]),
        I('SET_FF', [2, Tag.FF, OTHER]),
        I('SLOAD', [1, 2, 10]),
        I('SSTORE', [10, 1]),
        I('SET_FF', [2, Tag.FF, SELF]),
        I('SLOAD', [1, 2, 11]),
        ...returning(10, 2),
      ],
      {},
      world,
    );
    assert.deepEqual(r.result.output, [33n, 33n]);
    assert.deepEqual(r.journal.storageWrites(), [{ contract: SELF, slot: 3n, value: 33n }]);
  });

  it('halts when a slot is not FF', () => {
    const r = run([I('SET_8', [1, Tag.U32, 3]), I('SSTORE', [1, 1]), ...returning(1, 0)]).result;
    assert.match(r.exceptionalHalt ?? '', /expected FF, got U32/);
  });
});

describe('AVM tree opcodes', () => {
  it('checks note hashes by leaf index with a U64 index', () => {
    const world = new InMemoryAvmWorld();
    world.noteHashLeaves.push(70n, 71n);
    const probe = (hash: number, index: number, indexTag: number = Tag.U64) =>
      run(
        [
          I('SET_8', [1, Tag.FF, hash]),
          I('SET_8', [2, indexTag, index]),
          I('NOTEHASHEXISTS', [1, 2, 3]),
          ...returning(3, 1),
        ],
        {},
        world,
      ).result;
    assert.deepEqual(probe(71, 1).output, [1n]);
    assert.deepEqual(probe(71, 0).output, [0n]);
    assert.deepEqual(probe(71, 9).output, [0n]);
    assert.match(probe(71, 1, Tag.U32).exceptionalHalt ?? '', /expected U64/);
  });

  it('emits siloed nullifiers, sees them, and halts on a duplicate', () => {
    const emit: Item[] = [I('SET_8', [1, Tag.FF, 9]), I('EMITNULLIFIER', [1])];
    const siloed = siloNullifier(SELF, 9n);
    const r = run([
      ...emit,
      I('SET_FF', [2, Tag.FF, siloed]),
      I('NULLIFIEREXISTS', [2, 3]),
      ...returning(3, 1),
    ]);
    assert.deepEqual(r.result.output, [1n]);
    assert.deepEqual(r.journal.nullifiers(), [siloed]);
    const twice = run([...emit, ...emit, ...returning(1, 0)]).result;
    assert.match(twice.exceptionalHalt ?? '', /already exists/);
  });

  it('emits note hashes made unique', () => {
    const r = run([
      I('SET_8', [1, Tag.FF, 4]),
      I('EMITNOTEHASH', [1]),
      I('EMITNOTEHASH', [1]),
      ...returning(1, 0),
    ]);
    const hashes = r.journal.noteHashes();
    assert.equal(hashes.length, 2);
    assert.notEqual(hashes[0], hashes[1]);
  });

  it('checks L1-to-L2 messages by leaf index', () => {
    const world = new InMemoryAvmWorld();
    world.l1ToL2MessageLeaves.push(0n, 555n);
    const probe = (index: number) =>
      run(
        [
          I('SET_16', [1, Tag.FF, 555]),
          I('SET_8', [2, Tag.U64, index]),
          I('L1TOL2MSGEXISTS', [1, 2, 3]),
          ...returning(3, 1),
        ],
        {},
        world,
      ).result.output;
    assert.deepEqual([probe(1), probe(0), probe(2)], [[1n], [0n], [0n]]);
  });

  it('reads contract instance members with an existence flag', () => {
    const world = new InMemoryAvmWorld();
    world.deploy({
      address: OTHER,
      classId: 0xc1n,
      bytecode: new Uint8Array([38]),
      deployer: 0xd1n,
      initializationHash: 0x1bn,
    });
    const member = (address: bigint, which: number) =>
      run(
        [I('SET_FF', [1, Tag.FF, address]), I('GETCONTRACTINSTANCE', [1, 10, which]), ...returning(10, 2)],
        {},
        world,
      ).result;
    assert.deepEqual(member(OTHER, 0).output, [1n, 0xd1n]);
    assert.deepEqual(member(OTHER, 1).output, [1n, 0xc1n]);
    assert.deepEqual(member(OTHER, 2).output, [1n, 0x1bn]);
    assert.deepEqual(member(0x404n, 1).output, [0n, 0n]);
    assert.match(member(OTHER, 3).exceptionalHalt ?? '', /invalid GETCONTRACTINSTANCE member 3/);
  });

  it('sends L2-to-L1 messages to L1 addresses only', () => {
    const send = (recipient: bigint) =>
      run([
        I('SET_FF', [1, Tag.FF, recipient]),
        I('SET_8', [2, Tag.FF, 7]),
        I('SENDL2TOL1MSG', [1, 2]),
        ...returning(1, 0),
      ]);
    assert.deepEqual(send(2n ** 160n - 1n).journal.l2ToL1Messages(), [
      { contract: SELF, recipient: 2n ** 160n - 1n, content: 7n },
    ]);
    assert.match(send(2n ** 160n).result.exceptionalHalt ?? '', /not an L1 address/);
  });
});

describe('AVM environment and calldata', () => {
  it('exposes the 12 environment variables with their tags', () => {
    const items: Item[] = [];
    for (let v = 0; v < 12; v++) items.push(I('GETENVVAR_16', [100 + v, v]));
    // Tag probes: each MOVed copy is added to a zero of the expected tag.
    const tags = [
      Tag.FF,
      Tag.FF,
      Tag.FF,
      Tag.FF,
      Tag.FF,
      Tag.U32,
      Tag.U64,
      Tag.U128,
      Tag.U128,
      Tag.U1,
      Tag.U32,
      Tag.U32,
    ];
    tags.forEach((tag, v) => {
      items.push(I('SET_8', [200, tag, 0]), I('ADD_16', [100 + v, 200, 201]));
    });
    const r = run([...items, ...returning(100, 10)], { transactionFee: 123n }).result;
    assert.equal(r.reverted, false, r.revertReason);
    assert.deepEqual(r.output, [
      SELF,
      SENDER,
      123n,
      GLOBALS.chainId,
      GLOBALS.version,
      BigInt(GLOBALS.blockNumber),
      GLOBALS.timestamp,
      GLOBALS.feePerL2Gas,
      GLOBALS.feePerDaGas,
      0n,
    ]);
    assert.match(
      run([I('GETENVVAR_16', [1, 12])]).result.exceptionalHalt ?? '',
      /invalid GETENVVAR variable 12/,
    );
  });

  it('copies calldata as FF, with zeros past its end', () => {
    const r = run(
      [
        I('SET_8', [1, Tag.U32, 4]),
        I('SET_8', [2, Tag.U32, 1]),
        I('CALLDATACOPY', [1, 2, 10]),
        ...returning(10, 4),
      ],
      { calldata: [5n, 6n, 7n] },
    ).result;
    assert.deepEqual(r.output, [6n, 7n, 0n, 0n]);
  });

  it('has no return data and no success before any nested call', () => {
    const r = run([I('SUCCESSCOPY', [1]), I('RETURNDATASIZE', [2]), ...returning(1, 2)]).result;
    assert.deepEqual(r.output, [0n, 0n]);
  });

  it('ignores DEBUGLOG but still resolves its operands', () => {
    const ok = run([I('DEBUGLOG', [1, 2, 3, 4, 5]), ...returning(1, 0)]).result;
    assert.equal(ok.reverted, false);
    const bad = run([I('DEBUGLOG', [1, 2, 3, 4, 5], 0b01), ...returning(1, 0)]).result;
    assert.match(bad.exceptionalHalt ?? '', /expected U32, got FF/);
  });
});
