// The attestation pool: what it keeps per slot (bounded: MAX_PROPOSALS_PER_SLOT per block
// position, per slot's checkpoint and per attester), how it filters by digest, and how slots
// leave it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type Hex, keccak256, toHex } from 'viem';
import { emptyCheckpointHeader } from '../../src/core/block-header.js';
import {
  AttestationPool,
  MAX_PROPOSALS_PER_SLOT,
  type PooledAttestation,
  type PooledBlockProposal,
  type PooledCheckpointProposal,
} from '../../src/validators/attestation-pool.js';

const digestOf = (tag: string | number): Hex => keccak256(toHex(`digest/${tag}`));
const sig = (tag: string | number): Hex =>
  `0x${keccak256(toHex(`sig/${tag}`)).slice(2)}${keccak256(toHex(`sig2/${tag}`)).slice(2)}1b`;
const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

function attestation(
  slot: number,
  attester: string,
  digest: Hex,
  tag: string | number = digest,
): PooledAttestation {
  return {
    checkpointNumber: 1,
    slot,
    archive: 1n,
    headerHash: 2n,
    header: { ...emptyCheckpointHeader(), slotNumber: slot },
    signature: sig(`${attester}/${tag}`),
    proposerSignature: sig('proposer'),
    digest,
    attester,
  };
}

function checkpoint(slot: number, digest: Hex, proposer = addr(1)): PooledCheckpointProposal {
  return {
    checkpointNumber: 1,
    slot,
    archive: 1n,
    headerHash: 2n,
    header: { ...emptyCheckpointHeader(), slotNumber: slot },
    body: new Uint8Array([1, 2, 3]),
    signature: sig(digest),
    digest,
    bodyHash: keccak256(new Uint8Array([1, 2, 3])),
    proposer,
  };
}

function block(slot: number, index: number, digest: Hex, proposer = addr(1)): PooledBlockProposal {
  return {
    slot,
    checkpointNumber: 1,
    indexWithinCheckpoint: index,
    blockNumber: index + 1,
    blockHash: 5n,
    archiveRoot: 6n,
    txHashes: [],
    signature: sig(digest),
    digest,
    proposer,
  };
}

describe('attestation pool', () => {
  test('MAX_PROPOSALS_PER_SLOT is 2: one proposal and the evidence of an equivocation', () => {
    assert.equal(MAX_PROPOSALS_PER_SLOT, 2);
  });

  test('checkpoint proposals: added, known, then full at MAX_PROPOSALS_PER_SLOT per slot', () => {
    const pool = new AttestationPool();
    assert.equal(pool.addCheckpointProposal(checkpoint(4, digestOf(1))), 'added');
    assert.equal(pool.addCheckpointProposal(checkpoint(4, digestOf(1))), 'known');
    assert.equal(pool.addCheckpointProposal(checkpoint(4, digestOf(2))), 'added');
    assert.equal(pool.addCheckpointProposal(checkpoint(4, digestOf(3))), 'full');
    // Known stays known once the slot is full; other slots are not affected.
    assert.equal(pool.addCheckpointProposal(checkpoint(4, digestOf(2))), 'known');
    assert.equal(pool.addCheckpointProposal(checkpoint(5, digestOf(3))), 'added');
    assert.deepEqual(
      pool.checkpointProposals(4).map((c) => c.digest),
      [digestOf(1), digestOf(2)],
    );
    assert.deepEqual(pool.checkpointProposals(6), []);
    // A copy: changing it does not change the pool.
    pool.checkpointProposals(4).pop();
    assert.equal(pool.checkpointProposals(4).length, 2);
  });

  test('block proposals: bounded per position within the checkpoint, sorted by position', () => {
    const pool = new AttestationPool();
    assert.equal(pool.addBlockProposal(block(4, 1, digestOf('b1'))), 'added');
    assert.equal(pool.addBlockProposal(block(4, 0, digestOf('b0'))), 'added');
    assert.equal(pool.addBlockProposal(block(4, 0, digestOf('b0'))), 'known');
    assert.equal(pool.addBlockProposal(block(4, 0, digestOf('b0x'))), 'added');
    assert.equal(pool.addBlockProposal(block(4, 0, digestOf('b0y'))), 'full');
    // Position 1 has room of its own.
    assert.equal(pool.addBlockProposal(block(4, 1, digestOf('b1x'))), 'added');
    assert.equal(pool.addBlockProposal(block(4, 1, digestOf('b1y'))), 'full');
    assert.equal(pool.addBlockProposal(block(4, 2, digestOf('b2'))), 'added');
    assert.deepEqual(
      pool.blockProposals(4).map((b) => b.indexWithinCheckpoint),
      [0, 0, 1, 1, 2],
    );
    assert.deepEqual(pool.blockProposals(5), []);
  });

  test('attestations: added, known, full at MAX_PROPOSALS_PER_SLOT digests per attester and slot', () => {
    const pool = new AttestationPool();
    const [a, b] = [addr(0xa), addr(0xb)];
    assert.equal(pool.addAttestation(attestation(7, a, digestOf(1))), 'added');
    assert.equal(pool.addAttestation(attestation(7, a, digestOf(1))), 'known');
    // The same digest signed again (another signature) is still known.
    assert.equal(pool.addAttestation(attestation(7, a, digestOf(1), 'again')), 'known');
    assert.equal(pool.addAttestation(attestation(7, a, digestOf(2))), 'added');
    assert.equal(pool.addAttestation(attestation(7, a, digestOf(3))), 'full');
    assert.equal(pool.addAttestation(attestation(7, a, digestOf(2))), 'known');
    // Another attester, or another slot, has room of its own.
    assert.equal(pool.addAttestation(attestation(7, b, digestOf(3))), 'added');
    assert.equal(pool.addAttestation(attestation(8, a, digestOf(3))), 'added');
    assert.equal(pool.attestations(7).length, 3);
    assert.equal(pool.attestations(8).length, 1);
    assert.deepEqual(pool.attestations(9), []);
    // The first signature of a digest stays.
    assert.equal(pool.signatures(7, digestOf(1)).get(a), sig(`${a}/${digestOf(1)}`));
  });

  test('attestations and signatures filter by digest, whatever its case', () => {
    const pool = new AttestationPool();
    const [a, b, c] = [addr(0xa), addr(0xb), addr(0xc)];
    const d1 = digestOf(1);
    const d2 = digestOf(2);
    pool.addAttestation(attestation(3, a, d1));
    pool.addAttestation(attestation(3, b, d1));
    pool.addAttestation(attestation(3, c, d2));
    pool.addAttestation(attestation(3, a, d2));
    pool.addAttestation(attestation(4, c, d1));
    const upper = `0x${d1.slice(2).toUpperCase()}`;
    for (const d of [d1, upper]) {
      assert.deepEqual(
        pool
          .attestations(3, d)
          .map((x) => x.attester)
          .sort(),
        [a, b],
      );
      const sigs = pool.signatures(3, d as Hex);
      assert.deepEqual([...sigs.keys()].sort(), [a, b]);
      assert.equal(sigs.get(a), sig(`${a}/${d1}`));
      assert.equal(sigs.get(b), sig(`${b}/${d1}`));
    }
    assert.deepEqual([...pool.signatures(3, d2).keys()].sort(), [a, c]);
    assert.deepEqual([...pool.signatures(3, digestOf(9)).keys()], []);
    assert.deepEqual([...pool.signatures(4, d1).keys()], [c]);
    assert.equal(pool.attestations(3).length, 4);
  });

  test('prune drops the slots that fell out of the retention window, and only those', () => {
    const pool = new AttestationPool(10);
    for (const slot of [1, 5, 9, 10, 11, 20]) {
      pool.addAttestation(attestation(slot, addr(1), digestOf(slot)));
      pool.addCheckpointProposal(checkpoint(slot, digestOf(slot)));
      pool.addBlockProposal(block(slot, 0, digestOf(slot)));
    }
    pool.prune(20);
    // slot + 10 < 20 goes: 1, 5 and 9; 10 stays (10 + 10 = 20).
    const held = (slot: number) =>
      [pool.attestations(slot), pool.checkpointProposals(slot), pool.blockProposals(slot)].map(
        (l) => l.length,
      );
    for (const slot of [1, 5, 9]) assert.deepEqual(held(slot), [0, 0, 0], `slot ${slot}`);
    for (const slot of [10, 11, 20]) assert.deepEqual(held(slot), [1, 1, 1], `slot ${slot}`);
    // A pruned slot starts afresh if something for it comes again.
    assert.equal(pool.addCheckpointProposal(checkpoint(9, digestOf(9))), 'added');
    // Pruning is idempotent; an earlier current slot prunes nothing more.
    pool.prune(20);
    pool.prune(3);
    assert.deepEqual(held(10), [1, 1, 1]);
    // The default window is 64 slots.
    const wide = new AttestationPool();
    wide.addAttestation(attestation(36, addr(1), digestOf(36)));
    wide.addAttestation(attestation(35, addr(1), digestOf(35)));
    wide.prune(100);
    assert.equal(wide.attestations(36).length, 1);
    assert.equal(wide.attestations(35).length, 0);
  });

  test('model check: outcomes and contents follow a plain list of what was added (property)', () => {
    type Op =
      | { kind: 'att'; slot: number; attester: number; digest: number }
      | { kind: 'cp'; slot: number; digest: number }
      | { kind: 'prune'; slot: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('att' as const),
        slot: fc.integer({ min: 0, max: 6 }),
        attester: fc.integer({ min: 0, max: 3 }),
        digest: fc.integer({ min: 0, max: 4 }),
      }),
      fc.record({
        kind: fc.constant('cp' as const),
        slot: fc.integer({ min: 0, max: 6 }),
        digest: fc.integer({ min: 0, max: 4 }),
      }),
      fc.record({ kind: fc.constant('prune' as const), slot: fc.integer({ min: 0, max: 12 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const retain = 3;
        const pool = new AttestationPool(retain);
        let atts: { slot: number; attester: string; digest: Hex }[] = [];
        let cps: { slot: number; digest: Hex }[] = [];
        for (const o of ops) {
          if (o.kind === 'prune') {
            pool.prune(o.slot);
            atts = atts.filter((x) => x.slot + retain >= o.slot);
            cps = cps.filter((x) => x.slot + retain >= o.slot);
          } else if (o.kind === 'att') {
            const attester = addr(o.attester);
            const digest = digestOf(o.digest);
            const mine = atts.filter((x) => x.slot === o.slot && x.attester === attester);
            const expected = mine.some((x) => x.digest === digest)
              ? 'known'
              : mine.length >= MAX_PROPOSALS_PER_SLOT
                ? 'full'
                : 'added';
            assert.equal(pool.addAttestation(attestation(o.slot, attester, digest)), expected);
            if (expected === 'added') atts.push({ slot: o.slot, attester, digest });
          } else {
            const digest = digestOf(o.digest);
            const mine = cps.filter((x) => x.slot === o.slot);
            const expected = mine.some((x) => x.digest === digest)
              ? 'known'
              : mine.length >= MAX_PROPOSALS_PER_SLOT
                ? 'full'
                : 'added';
            assert.equal(pool.addCheckpointProposal(checkpoint(o.slot, digest)), expected);
            if (expected === 'added') cps.push({ slot: o.slot, digest });
          }
        }
        for (let slot = 0; slot <= 6; slot++) {
          for (let d = 0; d <= 4; d++) {
            const digest = digestOf(d);
            const want = atts
              .filter((x) => x.slot === slot && x.digest === digest)
              .map((x) => x.attester)
              .sort();
            assert.deepEqual([...pool.signatures(slot, digest).keys()].sort(), want);
          }
          assert.deepEqual(
            pool.checkpointProposals(slot).map((c) => c.digest),
            cps.filter((x) => x.slot === slot).map((x) => x.digest),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
