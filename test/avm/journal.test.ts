// The transaction journal on its own: nested checkpoints, per-transaction limits, siloing and
// note-hash uniqueness, deployment checks and the unique-class limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NullifierCollisionError, SideEffectLimitError } from '../../src/avm/errors.js';
import {
  AVM_LIMITS,
  AvmJournal,
  noteHashNonce,
  siloNoteHash,
  uniqueNoteHash,
} from '../../src/avm/journal.js';
import { InMemoryAvmWorld } from '../../src/avm/memory-world.js';
import { siloNullifier } from '../../src/core/contracts.js';
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';

const C = 0xc0n;
const FIRST_NULLIFIER = 0xf1n;

function fresh() {
  const world = new InMemoryAvmWorld();
  world.setStorage(C, 1n, 100n);
  return { world, journal: new AvmJournal(world, FIRST_NULLIFIER) };
}

describe('AvmJournal checkpoints', () => {
  it('reads pending writes over the world and undoes only the reverted checkpoint', () => {
    const { journal } = fresh();
    assert.equal(journal.sload(C, 1n), 100n);
    journal.checkpoint();
    journal.sstore(C, 1n, 200n);
    journal.checkpoint();
    journal.sstore(C, 1n, 300n);
    journal.sstore(C, 2n, 5n);
    journal.emitNullifier(C, 9n);
    journal.emitNoteHash(C, 8n);
    journal.emitPublicLog(C, [1n]);
    journal.sendL2ToL1Message(C, 1n, 2n);
    assert.equal(journal.sload(C, 1n), 300n);
    journal.revert();
    assert.equal(journal.sload(C, 1n), 200n);
    assert.equal(journal.sload(C, 2n), 0n);
    assert.equal(journal.isStorageCold(C, 2n), true);
    assert.equal(journal.nullifierExists(siloNullifier(C, 9n)), false);
    assert.deepEqual([journal.noteHashes(), journal.publicLogs(), journal.l2ToL1Messages()], [[], [], []]);
    journal.commit();
    assert.deepEqual(journal.storageWrites(), [{ contract: C, slot: 1n, value: 200n }]);
    assert.equal(journal.depth, 0);
  });

  it('keeps a committed inner checkpoint when the outer one commits', () => {
    const { journal } = fresh();
    journal.checkpoint();
    journal.checkpoint();
    journal.emitNullifier(C, 1n);
    journal.commit();
    journal.commit();
    assert.deepEqual(journal.nullifiers(), [siloNullifier(C, 1n)]);
  });

  it('undoes a committed inner checkpoint when the outer one reverts', () => {
    const { journal } = fresh();
    journal.checkpoint();
    journal.sstore(C, 3n, 1n);
    journal.checkpoint();
    journal.sstore(C, 4n, 1n);
    journal.commit();
    journal.revert();
    assert.deepEqual(journal.storageWrites(), []);
  });

  it('refuses commit and revert without a checkpoint', () => {
    const { journal } = fresh();
    assert.throws(() => journal.commit(), /without an open checkpoint/);
    assert.throws(() => journal.revert(), /without an open checkpoint/);
  });
});

describe('AvmJournal rules', () => {
  it('silos nullifiers and rejects duplicates, pending or in the tree', () => {
    const { world, journal } = fresh();
    world.nullifiers.add(siloNullifier(C, 1n));
    assert.throws(() => journal.emitNullifier(C, 1n), NullifierCollisionError);
    journal.emitNullifier(C, 2n);
    assert.throws(() => journal.emitNullifier(C, 2n), NullifierCollisionError);
    journal.emitNullifier(0xc1n, 2n);
    assert.equal(journal.nullifiers().length, 2);
  });

  it('makes note hashes unique with a nonce from the first nullifier and the tx-wide index', () => {
    const { journal } = fresh();
    journal.insertUniqueNoteHash(0xaan);
    journal.emitNoteHash(C, 5n);
    const siloed = poseidon2Hash([3_361_878_420n, C, 5n]);
    const nonce = poseidon2Hash([1_721_808_740n, FIRST_NULLIFIER, 1n]);
    assert.deepEqual(journal.noteHashes(), [0xaan, poseidon2Hash([226_850_429n, nonce, siloed])]);
    assert.equal(
      uniqueNoteHash(noteHashNonce(FIRST_NULLIFIER, 1), siloNoteHash(C, 5n)),
      journal.noteHashes()[1],
    );
  });

  it('finds note hashes by leaf index in the tree and among the pending ones', () => {
    const { world, journal } = fresh();
    world.noteHashLeaves.push(11n, 12n);
    journal.insertUniqueNoteHash(13n);
    assert.equal(journal.noteHashExists(12n, 1n), true);
    assert.equal(journal.noteHashExists(13n, 2n), true);
    assert.equal(journal.noteHashExists(13n, 1n), false);
    assert.equal(journal.noteHashExists(13n, 3n), false);
  });

  it('limits distinct written slots to 63, rewrites of a slot not counting', () => {
    const { journal } = fresh();
    for (let i = 0; i < AVM_LIMITS.publicDataWrites; i++) journal.sstore(C, BigInt(1000 + i), 1n);
    journal.sstore(C, 1000n, 2n);
    assert.throws(() => journal.sstore(C, 5n, 1n), SideEffectLimitError);
    journal.checkpoint();
    journal.revert();
    assert.equal(journal.storageWrites().length, 63);
  });

  it('limits note hashes, nullifiers, messages and log fields per transaction', () => {
    const { journal } = fresh();
    for (let i = 0; i < 64; i++) journal.insertUniqueNoteHash(BigInt(i));
    assert.throws(() => journal.emitNoteHash(C, 1n), /64 note hashes/);
    for (let i = 0; i < 64; i++) journal.insertSiloedNullifier(BigInt(i + 1));
    assert.throws(() => journal.emitNullifier(C, 1000n), /64 nullifiers/);
    for (let i = 0; i < 8; i++) journal.sendL2ToL1Message(C, 1n, BigInt(i));
    assert.throws(() => journal.sendL2ToL1Message(C, 1n, 9n), /8 L2-to-L1 messages/);
    // Each log costs its fields plus 2 header fields: 4096 = 2 × (2046 + 2).
    journal.emitPublicLog(C, new Array(2046).fill(0n));
    journal.emitPublicLog(C, new Array(2046).fill(0n));
    assert.throws(() => journal.emitPublicLog(C, []), /4096 public log fields/);
  });

  it('frees limit room when a checkpoint reverts', () => {
    const { journal } = fresh();
    for (let i = 0; i < 7; i++) journal.sendL2ToL1Message(C, 1n, BigInt(i));
    journal.checkpoint();
    journal.sendL2ToL1Message(C, 1n, 7n);
    journal.revert();
    journal.sendL2ToL1Message(C, 1n, 8n);
    assert.equal(journal.l2ToL1Messages().length, 8);
  });

  it('knows a contract only once its deployment nullifier exists, except protocol contracts', () => {
    const { world, journal } = fresh();
    world.instances.set(0x777n, { deployer: 1n, currentClassId: 2n, initializationHash: 3n });
    world.instances.set(5n, { deployer: 0n, currentClassId: 4n, initializationHash: 0n });
    assert.equal(journal.getContractInstance(0x777n), undefined);
    assert.equal(journal.getContractInstance(5n)?.currentClassId, 4n);
    journal.insertSiloedNullifier(siloNullifier(2n, 0x777n));
    assert.equal(journal.getContractInstance(0x777n)?.initializationHash, 3n);
  });

  it('allows 21 distinct classes per transaction, counting those of reverted calls', () => {
    const { world, journal } = fresh();
    for (let i = 0; i < 22; i++) {
      world.deploy({
        address: BigInt(0x1000 + i),
        classId: BigInt(0x2000 + i),
        bytecode: new Uint8Array([38]),
      });
    }
    for (let i = 0; i < 21; i++) {
      journal.checkpoint();
      assert.equal(journal.getBytecode(BigInt(0x1000 + i)).ok, true);
      journal.revert();
    }
    assert.deepEqual(journal.getBytecode(0x1000n + 21n), { ok: false, reason: 'unique-class-limit' });
    assert.equal(journal.getBytecode(0x1000n).ok, true, 'a class already counted can run again');
    assert.deepEqual(journal.getBytecode(0x9999n), { ok: false, reason: 'not-deployed' });
  });
});
