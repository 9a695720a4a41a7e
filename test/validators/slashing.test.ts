import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  EquivocationWatcher,
  inactivityOffenses,
  insufficientAttestationsOffense,
  isEpochOffense,
  type Offense,
  OffenseStore,
  OffenseType,
  offenseSlot,
  roundOfSlot,
} from '../../src/validators/slashing.js';
import { tempStores } from '../helpers/temp-stores.js';
import { offenseOf, repeatedAddress, upperCase } from './fixtures.js';

const stores = tempStores('cairn-slashing-');
const freshEnv = stores.fresh;

const A = repeatedAddress('aa');
const B = repeatedAddress('bb');
const C = repeatedAddress('cc');
const upper = upperCase;

const offense = offenseOf;

describe('offenses and rounds', () => {
  test('epoch offenses are data withholding, valid epoch pruned and inactivity', () => {
    const epochTypes = Object.values(OffenseType)
      .filter((t): t is OffenseType => typeof t === 'number')
      .filter(isEpochOffense);
    assert.deepEqual(epochTypes, [
      OffenseType.DATA_WITHHOLDING,
      OffenseType.VALID_EPOCH_PRUNED,
      OffenseType.INACTIVITY,
    ]);
    assert.equal(OffenseType.DUPLICATE_ATTESTATION, 9);
    assert.equal(OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 5);
  });

  test('offenseSlot: the slot itself, or the first slot of the epoch', () => {
    assert.equal(offenseSlot(offense(A, OffenseType.DUPLICATE_PROPOSAL, 77n), 32), 77n);
    assert.equal(offenseSlot(offense(A, OffenseType.INACTIVITY, 3n), 32), 96n);
    assert.equal(offenseSlot(offense(A, OffenseType.VALID_EPOCH_PRUNED, 0n), 32), 0n);
    assert.equal(offenseSlot(offense(A, OffenseType.UNKNOWN, 5n), 32), 5n);
  });

  test('roundOfSlot is floor(slot / roundSize)', () => {
    assert.equal(roundOfSlot(0, 10), 0n);
    assert.equal(roundOfSlot(9, 10), 0n);
    assert.equal(roundOfSlot(10, 10), 1n);
    assert.equal(roundOfSlot(19n, 10), 1n);
    assert.equal(roundOfSlot(20n, 10), 2n);
    assert.equal(roundOfSlot(2n ** 70n + 5n, 1), 2n ** 70n + 5n);
    assert.throws(() => roundOfSlot(5, 0), RangeError);
    assert.throws(() => roundOfSlot(-1, 10), RangeError);
  });
});

describe('offense store', () => {
  test('add dedupes on validator, type and epochOrSlot (not amount, not address case)', () => {
    const store = new OffenseStore(freshEnv(), { roundSize: 10, epochDuration: 4 });
    assert.equal(store.add(offense(A, OffenseType.INACTIVITY, 2n, 10n)), true);
    assert.equal(store.add(offense(upper(A), OffenseType.INACTIVITY, 2n, 99n)), false);
    assert.equal(store.add(offense(A, OffenseType.INACTIVITY, 3n)), true);
    assert.equal(store.add(offense(A, OffenseType.DATA_WITHHOLDING, 2n)), true);
    assert.equal(store.add(offense(B, OffenseType.INACTIVITY, 2n)), true);
    assert.equal(store.add(offense(A, OffenseType.DUPLICATE_PROPOSAL, 2n)), true);
    assert.equal(store.all().length, 5);
    assert.deepEqual(
      store
        .all()
        .find((o) => o.offenseType === OffenseType.INACTIVITY && o.epochOrSlot === 2n && o.validator === A),
      offense(A, OffenseType.INACTIVITY, 2n, 10n),
    );
    assert.throws(() => store.add(offense('0x12', OffenseType.INACTIVITY, 1n)), TypeError);
    assert.throws(() => store.add(offense(A, OffenseType.INACTIVITY, -1n)), RangeError);
    assert.throws(() => store.add(offense(A, 42 as OffenseType, 1n)), RangeError);
    assert.equal(store.all().length, 5);
  });

  test('forRound: epoch offenses by their epoch start slot, slot offenses by slot; sorted', () => {
    const store = new OffenseStore(freshEnv(), { roundSize: 10, epochDuration: 4 });
    // Round 0 is slots 0–9 (epochs 0–2), round 1 slots 10–19 (epochs 3–4: epoch 2 starts at 8).
    const added = [
      offense(B, OffenseType.DUPLICATE_ATTESTATION, 9n),
      offense(A, OffenseType.INACTIVITY, 2n), // slot 8: round 0
      offense(C, OffenseType.DUPLICATE_PROPOSAL, 10n), // round 1
      offense(A, OffenseType.INACTIVITY, 3n), // slot 12: round 1
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 2n), // slot 2: round 0
      offense(B, OffenseType.INACTIVITY, 2n),
      offense(A, OffenseType.DUPLICATE_ATTESTATION, 9n),
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 9n),
      offense(A, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 19n), // round 1
      offense(C, OffenseType.VALID_EPOCH_PRUNED, 5n), // slot 20: round 2
    ];
    for (const o of added) assert.equal(store.add(o), true);
    assert.deepEqual(store.forRound(0n), [
      offense(A, OffenseType.INACTIVITY, 2n),
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 2n),
      offense(B, OffenseType.INACTIVITY, 2n),
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 9n),
      offense(A, OffenseType.DUPLICATE_ATTESTATION, 9n),
      offense(B, OffenseType.DUPLICATE_ATTESTATION, 9n),
    ]);
    assert.deepEqual(store.forRound(1n), [
      offense(A, OffenseType.INACTIVITY, 3n),
      offense(C, OffenseType.DUPLICATE_PROPOSAL, 10n),
      offense(A, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 19n),
    ]);
    assert.deepEqual(store.forRound(2n), [offense(C, OffenseType.VALID_EPOCH_PRUNED, 5n)]);
    assert.deepEqual(store.forRound(3n), []);
    assert.deepEqual(store.forRound(2n ** 90n), []);
    assert.equal(store.all().length, added.length);
    // every offense is in exactly the round of its slot
    for (const o of store.all())
      assert.ok(
        store
          .forRound(roundOfSlot(offenseSlot(o, 4), 10))
          .some((r) => JSON.stringify(r, big) === JSON.stringify(o, big)),
      );
    // forRounds: the rounds' offenses together, in forRound's order; none for an empty range.
    const key = (o: Offense) => JSON.stringify(o, big);
    const sorted = (list: Offense[]) => list.map(key).sort();
    assert.deepEqual(sorted(store.forRounds(0n, 1n)), sorted([...store.forRound(0n), ...store.forRound(1n)]));
    assert.deepEqual(store.forRounds(1n, 1n), store.forRound(1n));
    assert.deepEqual(
      store.forRounds(1n, 2n).map((o) => o.epochOrSlot),
      [3n, 5n, 10n, 19n],
      'sorted by epochOrSlot across rounds',
    );
    assert.deepEqual(store.forRounds(1n, 0n), []);
    assert.deepEqual(store.forRounds(0n, 2n ** 90n).length, added.length);
  });

  test('offenses persist: a new store, and a reopened environment, see them', async () => {
    const env = freshEnv();
    const store = new OffenseStore(env, { roundSize: 5, epochDuration: 2 });
    store.add(offense(A, OffenseType.INACTIVITY, 1n, 123456789012345678901234567890n));
    store.add(offense(B, OffenseType.DUPLICATE_PROPOSAL, 3n));
    assert.deepEqual(
      new OffenseStore(env, { roundSize: 5, epochDuration: 2 }).forRound(0n),
      store.forRound(0n),
    );

    const first = stores.open('reopen');
    const s1 = new OffenseStore(first, { roundSize: 5, epochDuration: 2 });
    s1.add(offense(A, OffenseType.INACTIVITY, 1n, 123456789012345678901234567890n));
    s1.add(offense(C, OffenseType.DUPLICATE_ATTESTATION, 7n));
    await first.close();
    const second = stores.open('reopen');
    const s2 = new OffenseStore(second, { roundSize: 5, epochDuration: 2 });
    assert.deepEqual(s2.forRound(0n), [
      offense(A, OffenseType.INACTIVITY, 1n, 123456789012345678901234567890n),
    ]);
    assert.deepEqual(s2.forRound(1n), [offense(C, OffenseType.DUPLICATE_ATTESTATION, 7n)]);
    assert.equal(s2.add(offense(C, OffenseType.DUPLICATE_ATTESTATION, 7n)), false);
  });
});

const big = (_: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);

describe('inactivity', () => {
  const perf = new Map([
    [B, { missed: 7, total: 10 }], // exactly 0.7
    [A, { missed: 8, total: 10 }],
    [C, { missed: 6, total: 10 }],
    [upper(`0x${'dd'.repeat(20)}`), { missed: 0, total: 0 }],
    [`0x${'ee'.repeat(20)}`, { missed: 2, total: 3 }],
  ]);

  test('missed/total at or above the threshold is an offense (exactly at counts); total 0 never', () => {
    assert.deepEqual(inactivityOffenses(perf, 4, { thresholdPercentage: 0.7, penalty: 5n }), [
      offense(A, OffenseType.INACTIVITY, 4n, 5n),
      offense(B, OffenseType.INACTIVITY, 4n, 5n),
    ]);
    assert.deepEqual(
      inactivityOffenses(perf, 4, { thresholdPercentage: 2 / 3, penalty: 5n }).map((o) => o.validator),
      [A, B, `0x${'ee'.repeat(20)}`],
    );
    assert.deepEqual(
      inactivityOffenses(perf, 4, { thresholdPercentage: 0.6, penalty: 5n }).map((o) => o.validator),
      [A, B, C, `0x${'ee'.repeat(20)}`],
    );
    assert.deepEqual(inactivityOffenses(perf, 4, { thresholdPercentage: 0.81, penalty: 5n }), []);
    assert.deepEqual(
      inactivityOffenses(perf, 4, { thresholdPercentage: 0, penalty: 5n }).map((o) => o.validator),
      [A, B, C, `0x${'ee'.repeat(20)}`],
    );
    assert.deepEqual(
      inactivityOffenses(new Map([[A, { missed: 3, total: 3 }]]), 0, { thresholdPercentage: 1, penalty: 1n }),
      [offense(A, OffenseType.INACTIVITY, 0n, 1n)],
    );
    assert.throws(() => inactivityOffenses(perf, 4, { thresholdPercentage: 1.5, penalty: 5n }), RangeError);
  });
});

describe('insufficient attestations', () => {
  const check = (committeeSize: number, validSignatures: number) =>
    insufficientAttestationsOffense({
      proposer: upper(A),
      slot: 42,
      committeeSize,
      validSignatures,
      penalty: 9n,
    });

  test('valid signatures * 3 <= committee * 2 is an offense against the proposer', () => {
    assert.deepEqual(check(7, 4), offense(A, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 42n, 9n));
    assert.equal(check(7, 5), undefined);
    assert.deepEqual(check(3, 2), offense(A, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 42n, 9n));
    assert.equal(check(3, 3), undefined);
    assert.ok(check(48, 32));
    assert.equal(check(48, 33), undefined);
    assert.ok(check(1, 0));
    assert.equal(check(1, 1), undefined);
    assert.equal(check(0, 0), undefined);
  });
});

describe('equivocation watcher', () => {
  const watcher = () =>
    new EquivocationWatcher({ duplicateProposalPenalty: 100n, duplicateAttestationPenalty: 50n });

  test('the same payload twice is no offense; a different one is, once', () => {
    const w = watcher();
    assert.equal(w.seeProposal({ slot: 5, position: 0, signer: A, payloadHash: '0x01' }), undefined);
    assert.equal(w.seeProposal({ slot: 5, position: 0, signer: upper(A), payloadHash: '0x01' }), undefined);
    assert.deepEqual(
      w.seeProposal({ slot: 5, position: 0, signer: upper(A), payloadHash: '0x02' }),
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 5n, 100n),
    );
    assert.equal(w.seeProposal({ slot: 5, position: 0, signer: A, payloadHash: '0x02' }), undefined);
    assert.equal(w.seeProposal({ slot: 5, position: 0, signer: A, payloadHash: '0x03' }), undefined);

    assert.equal(w.seeAttestation({ slot: 5, attester: B, payloadHash: '0xaa' }), undefined);
    assert.equal(w.seeAttestation({ slot: 5, attester: B, payloadHash: '0xAA' }), undefined);
    assert.deepEqual(
      w.seeAttestation({ slot: 5, attester: B, payloadHash: '0xbb' }),
      offense(B, OffenseType.DUPLICATE_ATTESTATION, 5n, 50n),
    );
    assert.equal(w.seeAttestation({ slot: 5, attester: B, payloadHash: '0xcc' }), undefined);
  });

  test('positions, slots, signers and kinds are independent', () => {
    const w = watcher();
    assert.equal(w.seeProposal({ slot: 5, position: 0, signer: A, payloadHash: '0x01' }), undefined);
    assert.equal(w.seeProposal({ slot: 5, position: 1, signer: A, payloadHash: '0x02' }), undefined);
    assert.equal(
      w.seeProposal({ slot: 5, position: 'checkpoint', signer: A, payloadHash: '0x03' }),
      undefined,
    );
    assert.equal(w.seeProposal({ slot: 6, position: 0, signer: A, payloadHash: '0x04' }), undefined);
    assert.equal(w.seeProposal({ slot: 5, position: 0, signer: B, payloadHash: '0x05' }), undefined);
    assert.equal(w.seeAttestation({ slot: 5, attester: A, payloadHash: '0x06' }), undefined);
    assert.deepEqual(
      w.seeProposal({ slot: 5, position: 'checkpoint', signer: A, payloadHash: '0x07' }),
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 5n, 100n),
    );
    assert.deepEqual(
      w.seeProposal({ slot: 5, position: 1, signer: A, payloadHash: '0x07' }),
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 5n, 100n),
    );
    assert.equal(w.seeAttestation({ slot: 6, attester: A, payloadHash: '0x08' }), undefined);
  });

  test('prune forgets older slots; sightings for them are then ignored', () => {
    const w = watcher();
    for (const slot of [3, 4, 5, 6])
      assert.equal(w.seeAttestation({ slot, attester: A, payloadHash: '0x01' }), undefined);
    w.seeProposal({ slot: 4, position: 0, signer: A, payloadHash: '0x01' });
    assert.equal(w.slotsHeld, 4);
    w.prune(5);
    assert.equal(w.slotsHeld, 2);
    assert.equal(w.seeAttestation({ slot: 4, attester: A, payloadHash: '0x02' }), undefined);
    assert.equal(w.seeProposal({ slot: 4, position: 0, signer: A, payloadHash: '0x02' }), undefined);
    assert.equal(w.slotsHeld, 2);
    assert.ok(w.seeAttestation({ slot: 5, attester: A, payloadHash: '0x02' }));
    w.prune(3); // going back does nothing
    assert.equal(w.seeAttestation({ slot: 3, attester: A, payloadHash: '0x02' }), undefined);
    assert.equal(w.slotsHeld, 2);
  });
});
