// Slash votes: the rounds an offense is voted in, the canonical payload for a set of offenses
// (against a naive model), when a node agrees with a payload, and what the slot's proposer does
// (hand-built cases, then random rounds checked against the rules).
//
// Reproduce a property failure with the seed fast-check prints: SLASH_VOTES_PROPERTY_SEED=<seed>.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ValidatorSlash } from '../../src/l1/slasher-client.js';
import {
  agreesWith,
  chooseSlashAction,
  offenseId,
  payloadScore,
  type RoundRules,
  type SlashAction,
  toValidatorSlashes,
  type VoteInput,
  votingRounds,
} from '../../src/validators/slash-votes.js';
import { type Offense, OffenseType, offenseSlot, roundOfSlot } from '../../src/validators/slashing.js';
import { offenseOf, repeatedAddress, upperCase } from './fixtures.js';

const SEED = Number(process.env.SLASH_VOTES_PROPERTY_SEED ?? 0x51a54);

const A = repeatedAddress('aa');
const B = repeatedAddress('bb');
const C = repeatedAddress('cc');
const D = repeatedAddress('dd');
const STRANGER = repeatedAddress('99');
const upper = upperCase;

const offense = offenseOf;

const countOffenses = (slashes: readonly ValidatorSlash[]) =>
  slashes.reduce((n, s) => n + s.offenses.length, 0);
const sumAmounts = (slashes: readonly ValidatorSlash[]) => slashes.reduce((t, s) => t + s.amount, 0n);
const cmpBig = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);
const cmpStr = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

describe('votingRounds', () => {
  const rules: RoundRules = { roundSize: 4, epochDuration: 3, expirationRounds: 2 };

  test('a slot offense is voted on from the round after its slot, for expirationRounds more rounds', () => {
    // Slot 9 is in round 2 (slots 8..11): voted on in rounds 3..5.
    assert.deepEqual(votingRounds(offense(A, OffenseType.DUPLICATE_PROPOSAL, 9n), rules), [3n, 5n]);
    // The edges of a round: slot 8 starts round 2, slot 7 ends round 1, slot 0 is round 0.
    assert.deepEqual(votingRounds(offense(A, OffenseType.DUPLICATE_PROPOSAL, 8n), rules), [3n, 5n]);
    assert.deepEqual(votingRounds(offense(A, OffenseType.DUPLICATE_ATTESTATION, 7n), rules), [2n, 4n]);
    assert.deepEqual(votingRounds(offense(A, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 0n), rules), [
      1n,
      3n,
    ]);
    // No expiration rounds: only the round after.
    assert.deepEqual(
      votingRounds(offense(A, OffenseType.DUPLICATE_PROPOSAL, 9n), { ...rules, expirationRounds: 0 }),
      [3n, 3n],
    );
    assert.deepEqual(
      votingRounds(offense(A, OffenseType.DUPLICATE_PROPOSAL, 9n), { ...rules, expirationRounds: 7 }),
      [3n, 10n],
    );
  });

  test("an epoch offense belongs to the round of the epoch's first slot", () => {
    // Epoch 2 = slots 6..8, first slot 6 in round 1 (read as slot 2 it would be round 0).
    assert.deepEqual(votingRounds(offense(A, OffenseType.INACTIVITY, 2n), rules), [2n, 4n]);
    // Epoch 1 = slots 3..5: its first slot is in round 0, its last in round 1.
    assert.deepEqual(votingRounds(offense(A, OffenseType.INACTIVITY, 1n), rules), [1n, 3n]);
    // Epoch 4 = slots 12..14, round 3 (as a slot, 4 would be round 1).
    assert.deepEqual(votingRounds(offense(A, OffenseType.INACTIVITY, 4n), rules), [4n, 6n]);
    assert.deepEqual(votingRounds(offense(A, OffenseType.DATA_WITHHOLDING, 4n), rules), [4n, 6n]);
  });

  test('random offenses: first = round of offenseSlot + 1, last = first + expirationRounds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 9 }),
        fc.bigInt({ min: 0n, max: 10_000n }),
        (roundSize, epochDuration, expirationRounds, type, epochOrSlot) => {
          const o = offense(A, type, epochOrSlot);
          const slot = type >= 1 && type <= 3 ? epochOrSlot * BigInt(epochDuration) : epochOrSlot;
          const round = slot / BigInt(roundSize);
          assert.deepEqual(votingRounds(o, { roundSize, epochDuration, expirationRounds }), [
            round + 1n,
            round + 1n + BigInt(expirationRounds),
          ]);
          // Agrees with slashing.ts' own helpers.
          assert.equal(round, roundOfSlot(offenseSlot(o, epochDuration), roundSize));
        },
      ),
      { numRuns: 300, seed: SEED },
    );
  });
});

// Addresses whose hex has letters, so the case of a copy matters; lowercase order 0xa1.. < 0xab..
// is the reverse of the order of 0xAB.. and 0xa1.. (uppercase sorts first), so sorting before
// lowercasing would show.
const POOL = ['a1', 'ab', 'cd', 'ef', '0f', 'f0'].map((h) => `0x${h.repeat(20)}`);

const mixedCase = (address: string, flips: readonly boolean[]) =>
  `0x${[...address.slice(2)].map((ch, i) => (flips[i] ? ch.toUpperCase() : ch)).join('')}`;

const offenseArb = (o: { types: readonly OffenseType[]; maxEpochOrSlot: bigint; maxAmount: bigint }) =>
  fc
    .record({
      v: fc.integer({ min: 0, max: POOL.length - 1 }),
      flips: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      offenseType: fc.constantFrom(...o.types),
      epochOrSlot: fc.bigInt({ min: 0n, max: o.maxEpochOrSlot }),
      amount: fc.bigInt({ min: 0n, max: o.maxAmount }),
    })
    .map(
      ({ v, flips, offenseType, epochOrSlot, amount }): Offense => ({
        validator: mixedCase(POOL[v]!, flips),
        amount,
        offenseType,
        epochOrSlot,
      }),
    );

/** Distinct identities (lowercase validator, type, epochOrSlot). */
const offensesArb = (o: {
  types: readonly OffenseType[];
  maxEpochOrSlot: bigint;
  maxAmount: bigint;
  maxLength: number;
}) =>
  fc.uniqueArray(offenseArb(o), {
    maxLength: o.maxLength,
    selector: (x) => `${x.validator.toLowerCase()}/${x.offenseType}/${x.epochOrSlot}`,
  });

const ALL_TYPES = Object.values(OffenseType).filter((t): t is OffenseType => typeof t === 'number');

/** The naive model: every offense as a row, rows sorted by (validator, type, epochOrSlot), runs merged. */
function modelSlashes(offenses: readonly Offense[]): ValidatorSlash[] {
  const rows = offenses
    .map((o) => ({ v: o.validator.toLowerCase(), t: Number(o.offenseType), e: o.epochOrSlot, a: o.amount }))
    .sort((x, y) => cmpStr(x.v, y.v) || x.t - y.t || cmpBig(x.e, y.e));
  const out: ValidatorSlash[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last !== undefined && last.validator === r.v) {
      last.amount += r.a;
      last.offenses.push({ offenseType: r.t, epochOrSlot: r.e });
    } else out.push({ validator: r.v, amount: r.a, offenses: [{ offenseType: r.t, epochOrSlot: r.e }] });
  }
  return out;
}

describe('toValidatorSlashes', () => {
  test('groups by lowercase validator, sums amounts, and orders validators and offenses', () => {
    const offenses = [
      offense(upper(B), OffenseType.DUPLICATE_PROPOSAL, 7n, 5n),
      offense(A, OffenseType.INACTIVITY, 2n, 1n),
      offense(B, OffenseType.INACTIVITY, 3n, 2n),
      offense(B, OffenseType.DUPLICATE_PROPOSAL, 4n, 3n),
      offense(upper(A), OffenseType.DATA_WITHHOLDING, 9n, 4n),
    ];
    const before = structuredClone(offenses);
    assert.deepEqual(toValidatorSlashes(offenses), [
      {
        validator: A,
        amount: 5n,
        offenses: [
          { offenseType: OffenseType.DATA_WITHHOLDING, epochOrSlot: 9n },
          { offenseType: OffenseType.INACTIVITY, epochOrSlot: 2n },
        ],
      },
      {
        validator: B,
        amount: 10n,
        offenses: [
          { offenseType: OffenseType.INACTIVITY, epochOrSlot: 3n },
          { offenseType: OffenseType.DUPLICATE_PROPOSAL, epochOrSlot: 4n },
          { offenseType: OffenseType.DUPLICATE_PROPOSAL, epochOrSlot: 7n },
        ],
      },
    ]);
    assert.deepEqual(offenses, before, 'the input is left as it was');
    assert.deepEqual(toValidatorSlashes([]), []);
  });

  test('random offenses match the naive model (property)', () => {
    fc.assert(
      fc.property(
        offensesArb({ types: ALL_TYPES, maxEpochOrSlot: 40n, maxAmount: 10n ** 20n, maxLength: 30 }),
        (offenses) => {
          const slashes = toValidatorSlashes(offenses);
          assert.deepEqual(slashes, modelSlashes(offenses));
          // The rules, checked directly as well.
          for (const [i, s] of slashes.entries()) {
            assert.equal(s.validator, s.validator.toLowerCase(), 'validators are lowercase');
            if (i > 0)
              assert.ok(slashes[i - 1]!.validator < s.validator, 'validators are strictly ascending');
            assert.ok(s.offenses.length > 0, `${s.validator} has offenses`);
            for (let j = 1; j < s.offenses.length; j++) {
              const p = s.offenses[j - 1]!;
              const q = s.offenses[j]!;
              assert.ok(
                p.offenseType < q.offenseType ||
                  (p.offenseType === q.offenseType && p.epochOrSlot < q.epochOrSlot),
                `${s.validator}'s offenses are ascending by (type, epochOrSlot)`,
              );
            }
            const mine = offenses.filter((o) => o.validator.toLowerCase() === s.validator);
            assert.equal(
              s.amount,
              mine.reduce((t, o) => t + o.amount, 0n),
            );
          }
          assert.equal(countOffenses(slashes), offenses.length, 'no offense lost or duplicated');
          const ids = new Set(
            slashes.flatMap((s) => s.offenses.map((o) => offenseId({ validator: s.validator, ...o }))),
          );
          assert.deepEqual(ids, new Set(offenses.map(offenseId)));
        },
      ),
      { numRuns: 500, seed: SEED },
    );
  });
});

describe('agreesWith', () => {
  // Two uncontroversial offenses (types 5 and 6) and three others.
  const aProposal = offense(A, OffenseType.DUPLICATE_PROPOSAL, 10n, 5n);
  const aInactive = offense(A, OffenseType.INACTIVITY, 2n, 7n);
  const bInsufficient = offense(B, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 11n, 3n);
  const bAttestation = offense(B, OffenseType.DUPLICATE_ATTESTATION, 11n, 2n);
  const cIncorrect = offense(C, OffenseType.PROPOSED_INCORRECT_ATTESTATIONS, 12n, 4n);
  const pending = [aProposal, aInactive, bInsufficient, bAttestation, cIncorrect];
  const controversial = [aProposal, aInactive, bAttestation];

  test('accepts a payload built from a subset of the pending offenses', () => {
    assert.equal(agreesWith(toValidatorSlashes(pending), pending, 10), true);
    assert.equal(agreesWith(toValidatorSlashes([aProposal, bInsufficient, cIncorrect]), pending, 10), true);
    assert.equal(agreesWith(toValidatorSlashes([bInsufficient, cIncorrect]), pending, 2), true);
    // Addresses are compared without case.
    const shouted = toValidatorSlashes([aInactive, bInsufficient, cIncorrect]).map((s) => ({
      ...s,
      validator: upper(s.validator),
    }));
    assert.equal(agreesWith(shouted, pending, 10), true);
  });

  test('rejects an offense that is not pending', () => {
    const base = [bInsufficient, cIncorrect];
    assert.equal(agreesWith(toValidatorSlashes(base), pending, 10), true);
    for (const extra of [
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 99n, 5n), // another slot
      offense(A, OffenseType.DUPLICATE_ATTESTATION, 10n, 5n), // another type
      offense(D, OffenseType.DUPLICATE_PROPOSAL, 10n, 5n), // another validator
      offense(A, OffenseType.INACTIVITY, 10n, 7n), // the type of one, the epochOrSlot of another
    ])
      assert.equal(agreesWith(toValidatorSlashes([...base, extra]), pending, 10), false);
  });

  test("rejects a validator's amount that is not the sum of the pending amounts", () => {
    const slashes = toValidatorSlashes([aProposal, aInactive, bInsufficient, cIncorrect]);
    assert.equal(slashes[0]!.amount, 12n);
    for (const delta of [1n, -1n, -12n]) {
      const changed = slashes.map((s, i) => (i === 0 ? { ...s, amount: s.amount + delta } : s));
      assert.equal(agreesWith(changed, pending, 10), false, `amount off by ${delta}`);
    }
    // The amount of the payload, not of some other pending offense of the validator.
    const oneOfTwo = toValidatorSlashes([aProposal, bInsufficient, cIncorrect]);
    assert.equal(agreesWith(oneOfTwo, pending, 10), true);
    assert.equal(
      agreesWith(
        oneOfTwo.map((s) => (s.validator === A ? { ...s, amount: 12n } : s)),
        pending,
        10,
      ),
      false,
    );
  });

  test('rejects a payload with more than maxPayloadSize offenses', () => {
    const slashes = toValidatorSlashes([aProposal, bInsufficient, cIncorrect]);
    assert.equal(agreesWith(slashes, pending, 3), true);
    assert.equal(agreesWith(slashes, pending, 2), false);
    assert.equal(agreesWith(toValidatorSlashes(pending), pending, 4), false);
  });

  test('rejects an empty payload', () => {
    // No uncontroversial offense pending, so only the emptiness can reject it.
    assert.equal(agreesWith(toValidatorSlashes([aProposal]), controversial, 10), true);
    assert.equal(agreesWith([], controversial, 10), false);
    assert.equal(agreesWith([], [], 10), false);
  });

  test('rejects a payload that leaves out a pending uncontroversial offense', () => {
    assert.equal(agreesWith(toValidatorSlashes(controversial), pending, 10), false);
    assert.equal(agreesWith(toValidatorSlashes([...controversial, bInsufficient]), pending, 10), false);
    assert.equal(agreesWith(toValidatorSlashes([...controversial, cIncorrect]), pending, 10), false);
    assert.equal(
      agreesWith(toValidatorSlashes([...controversial, bInsufficient, cIncorrect]), pending, 10),
      true,
    );
    // Without uncontroversial offenses pending, any subset will do.
    assert.equal(agreesWith(toValidatorSlashes([aInactive]), controversial, 10), true);
  });

  test('with more uncontroversial offenses than fit, only the highest-priority ones are required', () => {
    // cIncorrect (4) outranks bInsufficient (3) by amount.
    assert.equal(agreesWith(toValidatorSlashes([cIncorrect]), pending, 1), true);
    assert.equal(agreesWith(toValidatorSlashes([bInsufficient]), pending, 1), false);
    assert.equal(agreesWith(toValidatorSlashes([aProposal]), pending, 1), false);
    // Same amount: the more recent one.
    const older = offense(D, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 3n, 4n);
    const withOlder = [...pending, older];
    assert.equal(agreesWith(toValidatorSlashes([cIncorrect]), withOlder, 1), true);
    assert.equal(agreesWith(toValidatorSlashes([older]), withOlder, 1), false);
    // Amount before recency: with room for two, the older 4 is required, not the 3.
    assert.equal(agreesWith(toValidatorSlashes([cIncorrect, older]), withOlder, 2), true);
    assert.equal(agreesWith(toValidatorSlashes([cIncorrect, bInsufficient]), withOlder, 2), false);
  });

  test('rejects a payload that lists the same offense twice', () => {
    const twice: ValidatorSlash[] = [
      {
        validator: B,
        amount: 6n,
        offenses: [
          { offenseType: OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, epochOrSlot: 11n },
          { offenseType: OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, epochOrSlot: 11n },
        ],
      },
      ...toValidatorSlashes([cIncorrect]),
    ];
    assert.equal(agreesWith(twice, pending, 10), false);
    // Twice under the same validator written in two cases, each entry with a consistent amount.
    const split: ValidatorSlash[] = [
      ...toValidatorSlashes([bInsufficient, cIncorrect]),
      {
        validator: upper(B),
        amount: 3n,
        offenses: [{ offenseType: OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, epochOrSlot: 11n }],
      },
    ];
    assert.equal(agreesWith(split, pending, 10), false);
  });
});

describe('payloadScore', () => {
  test('is (votes + 1) times the total amount', () => {
    const slashes = toValidatorSlashes([
      offense(A, OffenseType.DUPLICATE_PROPOSAL, 1n, 3n),
      offense(B, OffenseType.DUPLICATE_PROPOSAL, 1n, 4n),
      offense(B, OffenseType.INACTIVITY, 1n, 5n),
    ]);
    assert.equal(payloadScore({ votes: 0n, slashes }), 12n);
    assert.equal(payloadScore({ votes: 1n, slashes }), 24n);
    assert.equal(payloadScore({ votes: 4n, slashes }), 60n);
    assert.equal(payloadScore({ votes: 9n, slashes: [] }), 0n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 1000n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 24n }), { maxLength: 6 }),
        (votes, amounts) => {
          const s = amounts.map((amount, i) => ({ validator: POOL[i]!, amount, offenses: [] }));
          assert.equal(
            payloadScore({ votes, slashes: s }),
            (votes + 1n) * amounts.reduce((t, a) => t + a, 0n),
          );
        },
      ),
      { numRuns: 200, seed: SEED },
    );
  });
});

describe('chooseSlashAction', () => {
  const round = { votingSlot: 0, roundSize: 10, quorum: 6, maxPayloadSize: 10 };
  const aProposal = offense(A, OffenseType.DUPLICATE_PROPOSAL, 10n, 10n);
  const bAttestation = offense(B, OffenseType.DUPLICATE_ATTESTATION, 11n, 10n);
  const pending = [aProposal, bAttestation];
  const payload = (address: string, votes: bigint, offenses: Offense[]) => ({
    address,
    votes,
    slashes: toValidatorSlashes(offenses),
  });
  const create = (offenses: Offense[]): SlashAction => ({
    kind: 'create',
    slashes: toValidatorSlashes(offenses),
  });
  const vote = (address: string): SlashAction => ({ kind: 'vote', payload: address });

  test('does nothing once a payload has the quorum', () => {
    // Even one it disagrees with, and even though it could create a better one.
    const stranger = payload('0xwon', 6n, [offense(STRANGER, OffenseType.DUPLICATE_PROPOSAL, 1n, 1n)]);
    assert.equal(chooseSlashAction({ ...round, existing: [stranger], pending }).kind, 'none');
    assert.equal(
      chooseSlashAction({ ...round, existing: [{ ...stranger, votes: 7n }], pending }).kind,
      'none',
    );
    const agreed = payload('0xagreed', 6n, [aProposal]);
    assert.equal(chooseSlashAction({ ...round, existing: [agreed], pending }).kind, 'none');
    // One vote short: still open.
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [{ ...agreed, votes: 5n }], pending }),
      vote('0xagreed'),
    );
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [{ ...stranger, votes: 5n }], pending }),
      create(pending),
    );
  });

  test('does nothing with no pending offenses and no payloads', () => {
    assert.equal(chooseSlashAction({ ...round, existing: [], pending: [] }).kind, 'none');
  });

  test('creates the payload of its pending offenses', () => {
    const more = [
      ...pending,
      offense(upper(C), OffenseType.INACTIVITY, 1n, 3n),
      offense(A, OffenseType.PROPOSED_INCORRECT_ATTESTATIONS, 9n, 1n),
      offense(C, OffenseType.DUPLICATE_PROPOSAL, 4n, 2n),
    ];
    const action = chooseSlashAction({ ...round, existing: [], pending: more });
    assert.deepEqual(action, create(more));
    assert.deepEqual(chooseSlashAction({ ...round, existing: [], pending: [...more].reverse() }), action);
  });

  test('with more pending than fit: uncontroversial first, then larger amounts, then more recent', () => {
    const cheapUncontroversial = offense(B, OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS, 20n, 1n);
    const big = offense(A, OffenseType.DUPLICATE_PROPOSAL, 5n, 100n);
    const olderFifty = offense(C, OffenseType.DUPLICATE_ATTESTATION, 25n, 50n);
    const newerFifty = offense(D, OffenseType.DUPLICATE_PROPOSAL, 26n, 50n);
    const small = offense(A, OffenseType.DUPLICATE_ATTESTATION, 30n, 10n);
    const all = [small, olderFifty, cheapUncontroversial, newerFifty, big];
    const at = (maxPayloadSize: number) =>
      chooseSlashAction({ ...round, maxPayloadSize, existing: [], pending: all });
    assert.deepEqual(at(1), create([cheapUncontroversial]));
    assert.deepEqual(at(2), create([cheapUncontroversial, big]));
    assert.deepEqual(at(3), create([cheapUncontroversial, big, newerFifty]));
    assert.deepEqual(at(4), create([cheapUncontroversial, big, newerFifty, olderFifty]));
    assert.deepEqual(at(5), create(all));
    assert.deepEqual(at(50), create(all));
  });

  test('votes for an agreed payload scoring at least its own, which wins ties', () => {
    // Its own payload: 20 × 1 = 20.
    assert.deepEqual(chooseSlashAction({ ...round, existing: [], pending }), create(pending));
    // Half the amount with one vote: 10 × 2 = 20, a tie, which the existing payload wins.
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [payload('0xp', 1n, [aProposal])], pending }),
      vote('0xp'),
    );
    // Its own payload, already created: 20 × 1 against 20 × 1.
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [payload('0xsame', 0n, pending)], pending }),
      vote('0xsame'),
    );
    // 10 × 1 < 20: create.
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [payload('0xp', 0n, [aProposal])], pending }),
      create(pending),
    );
    // 10 × 3 > 20: vote.
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [payload('0xp', 2n, [aProposal])], pending }),
      vote('0xp'),
    );
  });

  test('among the existing payloads it agrees with, votes for the best-scoring one', () => {
    const low = payload('0xlow', 2n, [aProposal]); // 30
    const high = payload('0xhigh', 3n, [bAttestation]); // 40
    assert.deepEqual(chooseSlashAction({ ...round, existing: [low, high], pending }), vote('0xhigh'));
    assert.deepEqual(chooseSlashAction({ ...round, existing: [high, low], pending }), vote('0xhigh'));
  });

  test('between existing payloads of equal score, votes for the one listed first', () => {
    // The Slasher lists a round's payloads in the order of their first vote, the same for every
    // node, so this tie rule makes proposers converge too.
    const a = payload('0xa', 2n, [aProposal]); // 30
    const b = payload('0xb', 2n, [bAttestation]); // 30
    assert.deepEqual(chooseSlashAction({ ...round, existing: [a, b], pending }), vote('0xa'));
    assert.deepEqual(chooseSlashAction({ ...round, existing: [b, a], pending }), vote('0xb'));
  });

  test('ignores existing payloads it disagrees with', () => {
    const foreign = payload('0xforeign', 5n, [
      aProposal,
      offense(STRANGER, OffenseType.INACTIVITY, 1n, 1000n),
    ]);
    const overpriced: typeof foreign = {
      address: '0xoverpriced',
      votes: 5n,
      slashes: toValidatorSlashes([aProposal]).map((s) => ({ ...s, amount: 1000n })),
    };
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [foreign, overpriced], pending }),
      create(pending),
    );
    const mine = payload('0xmine', 2n, [aProposal]); // 30 > 20, far below the others' scores
    assert.deepEqual(
      chooseSlashAction({ ...round, existing: [foreign, mine, overpriced], pending }),
      vote('0xmine'),
    );
    assert.equal(chooseSlashAction({ ...round, existing: [foreign, overpriced], pending: [] }).kind, 'none');
    // One leaving out a pending uncontroversial offense.
    const required = offense(C, OffenseType.PROPOSED_INCORRECT_ATTESTATIONS, 12n, 1n);
    assert.deepEqual(
      chooseSlashAction({
        ...round,
        existing: [payload('0xp', 5n, pending)],
        pending: [...pending, required],
      }),
      create([...pending, required]),
    );
  });

  test('ignores payloads that can no longer reach the quorum', () => {
    // Slot 6 of 10: 4 slots left (this one included), quorum 6.
    const late = { ...round, votingSlot: 6 };
    const unreachable = payload('0xunreachable', 1n, [aProposal, bAttestation]); // needs 5 more; scores 40
    const reachable = payload('0xreachable', 2n, [aProposal]); // needs 4 more; scores 30
    assert.deepEqual(
      chooseSlashAction({ ...late, existing: [unreachable, reachable], pending }),
      vote('0xreachable'),
    );
    assert.equal(chooseSlashAction({ ...late, existing: [unreachable], pending }).kind, 'none');
    // In the last slot only a payload one vote short can still win.
    const last = { ...round, votingSlot: 9 };
    assert.equal(
      chooseSlashAction({ ...last, existing: [payload('0xp', 4n, pending)], pending }).kind,
      'none',
    );
    assert.deepEqual(
      chooseSlashAction({ ...last, existing: [payload('0xp', 5n, pending)], pending }),
      vote('0xp'),
    );
  });

  test('does not create once too few slots are left for a new payload, but still votes', () => {
    // quorum 6, roundSize 10: slot 4 leaves 6 slots, slot 5 leaves 5.
    assert.deepEqual(chooseSlashAction({ ...round, votingSlot: 4, existing: [], pending }), create(pending));
    assert.equal(chooseSlashAction({ ...round, votingSlot: 5, existing: [], pending }).kind, 'none');
    // Its own payload would score 20 > 10 × 2, but it can no longer create one.
    const weak = payload('0xweak', 1n, [aProposal]);
    assert.deepEqual(
      chooseSlashAction({ ...round, votingSlot: 5, existing: [weak], pending }),
      vote('0xweak'),
    );
    const weaker = payload('0xweaker', 0n, [aProposal]);
    assert.deepEqual(
      chooseSlashAction({ ...round, votingSlot: 4, existing: [weaker], pending }),
      create(pending),
    );
  });

  test('does nothing when the best payload slashes nothing', () => {
    const free = [offense(A, OffenseType.DUPLICATE_PROPOSAL, 1n, 0n)];
    assert.equal(chooseSlashAction({ ...round, existing: [], pending: free }).kind, 'none');
    assert.equal(
      chooseSlashAction({ ...round, existing: [payload('0xp', 3n, free)], pending: free }).kind,
      'none',
    );
  });

  test('random rounds: votes only for feasible agreed payloads, creates only from pending (property)', () => {
    const seen = { none: 0, vote: 0, create: 0 };
    const existingSpec = fc.record({
      kind: fc.constantFrom('subset', 'subset', 'subset', 'foreign', 'tampered', 'doubled'),
      // Each pending offense in with probability 1/4.
      mask: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
      withUncontroversial: fc.boolean(),
      // One payload in 20 has the quorum (or more); the rest are short of it.
      won: fc.integer({ min: 0, max: 19 }),
      votes: fc.nat({ max: 100 }),
    });
    const scenario = fc.integer({ min: 1, max: 12 }).chain((roundSize) =>
      fc.record({
        roundSize: fc.constant(roundSize),
        quorum: fc.integer({ min: 1, max: roundSize }),
        votingSlot: fc.integer({ min: 0, max: roundSize - 1 }),
        maxPayloadSize: fc.integer({ min: 0, max: 8 }),
        pending: offensesArb({
          types: [
            OffenseType.INACTIVITY,
            OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS,
            OffenseType.PROPOSED_INCORRECT_ATTESTATIONS,
            OffenseType.DUPLICATE_PROPOSAL,
            OffenseType.DUPLICATE_ATTESTATION,
          ],
          maxEpochOrSlot: 5n,
          maxAmount: 20n,
          maxLength: 12,
        }),
        specs: fc.array(existingSpec, { maxLength: 5 }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ specs, ...rest }) => {
        const { pending } = rest;
        const uncontroversial = pending.filter(
          (o) =>
            o.offenseType === OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS ||
            o.offenseType === OffenseType.PROPOSED_INCORRECT_ATTESTATIONS,
        );
        const existing: VoteInput['existing'] = specs.map((spec, i) => {
          const chosen = pending.filter(
            (o, j) => spec.mask[j] === 0 || (spec.withUncontroversial && uncontroversial.includes(o)),
          );
          let slashes = toValidatorSlashes(chosen);
          if (spec.kind === 'foreign')
            slashes = toValidatorSlashes([
              ...chosen,
              offense(STRANGER, OffenseType.DUPLICATE_PROPOSAL, 1n, 5n),
            ]);
          else if (spec.kind === 'tampered')
            slashes = slashes.map((s, k) => (k === 0 ? { ...s, amount: s.amount + 1n } : s));
          else if (spec.kind === 'doubled')
            slashes = slashes.map((s, k) =>
              k === 0 ? { ...s, amount: s.amount * 2n, offenses: [...s.offenses, ...s.offenses] } : s,
            );
          return {
            address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
            votes: BigInt(spec.won === 0 ? rest.quorum + (spec.votes % 2) : spec.votes % rest.quorum),
            slashes,
          };
        });
        const input: VoteInput = { ...rest, existing };
        const action = chooseSlashAction(input);
        seen[action.kind]++;

        const slotsLeft = BigInt(input.roundSize - input.votingSlot);
        const quorum = BigInt(input.quorum);
        const candidates = existing.filter(
          (p) => quorum - p.votes <= slotsLeft && agreesWith(p.slashes, pending, input.maxPayloadSize),
        );
        let bestExisting = -1n;
        for (const p of candidates) if (payloadScore(p) > bestExisting) bestExisting = payloadScore(p);
        if (existing.some((p) => p.votes >= quorum)) {
          assert.equal(action.kind, 'none', 'a payload has the quorum');
          return;
        }
        if (action.kind === 'vote') {
          const chosen = existing.find((p) => p.address === action.payload);
          assert.ok(chosen !== undefined, `voted for ${action.payload}, which is not an existing payload`);
          assert.ok(
            agreesWith(chosen.slashes, pending, input.maxPayloadSize),
            'voted for a payload it disagrees with',
          );
          assert.ok(quorum - chosen.votes <= slotsLeft, 'voted for a payload that can no longer win');
          assert.ok(payloadScore(chosen) > 0n, 'voted for a payload that slashes nothing');
          assert.equal(payloadScore(chosen), bestExisting, 'voted for a payload other than the best');
        } else if (action.kind === 'create') {
          assert.ok(
            countOffenses(action.slashes) <= input.maxPayloadSize,
            `created ${countOffenses(action.slashes)} offenses, more than ${input.maxPayloadSize}`,
          );
          const pendingIds = new Map(pending.map((o) => [offenseId(o), o]));
          for (const s of action.slashes)
            for (const ref of s.offenses)
              assert.ok(
                pendingIds.has(offenseId({ validator: s.validator, ...ref })),
                `created with ${s.validator}/${ref.offenseType}/${ref.epochOrSlot}, which is not pending`,
              );
          assert.ok(
            agreesWith(action.slashes, pending, input.maxPayloadSize),
            'it disagrees with its own payload',
          );
          assert.deepEqual(
            action.slashes,
            modelSlashes(
              action.slashes.flatMap((s) =>
                s.offenses.map((ref) => pendingIds.get(offenseId({ validator: s.validator, ...ref }))!),
              ),
            ),
          );
          assert.ok(quorum <= slotsLeft, 'created a payload too late to win');
          assert.ok(
            payloadScore({ votes: 0n, slashes: action.slashes }) > bestExisting,
            'created a payload no better than an existing one',
          );
          assert.equal(
            countOffenses(action.slashes),
            Math.min(pending.length, input.maxPayloadSize),
            'the created payload holds as many pending offenses as fit',
          );
        } else {
          assert.ok(bestExisting <= 0n, 'did nothing though an agreed, feasible payload slashes something');
          if (quorum <= slotsLeft && input.maxPayloadSize > 0)
            assert.ok(
              sumAmounts(toValidatorSlashes(pending)) === 0n || uncontroversial.length > 0,
              'did nothing though it could create a payload',
            );
        }
      }),
      { numRuns: 2000, seed: SEED },
    );
    for (const kind of ['none', 'vote', 'create'] as const)
      assert.ok(seen[kind] > 100, `the random rounds give '${kind}' often enough: ${JSON.stringify(seen)}`);
  });
});
