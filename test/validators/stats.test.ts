// Validator stats: hand-computed examples, then a property test against a naive model (the
// recorded activities kept in a plain array and recomputed from scratch).
//
// Reproduce a property failure with the seed fast-check prints: STATS_PROPERTY_SEED=<seed>.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type AttestationStatus,
  type ProposalStatus,
  type SlotActivity,
  type ValidatorStatsStore as Store,
  type ValidatorStats,
  ValidatorStatsStore,
  type ValidatorStatus,
} from '../../src/validators/stats.js';
import { tempStores } from '../helpers/temp-stores.js';

const stores = tempStores('cairn-validator-stats-');
const freshEnv = stores.fresh;

const A = `0x${'aa'.repeat(20)}`;
const B = `0x${'bb'.repeat(20)}`;
const C = `0x${'cc'.repeat(20)}`;
const D = `0x${'dd'.repeat(20)}`;
const T0 = 1_700_000_000n; // 2023-11-14T22:13:20.000Z
const ts = (slot: number) => T0 + 36n * BigInt(slot);

function act(
  slot: number,
  proposer: string,
  proposerStatus: ProposalStatus,
  attestations: Record<string, AttestationStatus> = {},
): SlotActivity {
  return { slot, timestamp: ts(slot), proposer, proposerStatus, attestations };
}

/** Slots 1–5 of the worked example (see the expectations below). */
const EXAMPLE: SlotActivity[] = [
  act(1, A, 'checkpoint-mined', { [B]: 'attestation-sent', [C]: 'attestation-missed' }),
  act(2, B, 'checkpoint-proposed', { [A]: 'attestation-sent', [C]: 'attestation-missed' }),
  act(3, A, 'checkpoint-missed'),
  act(4, B, 'checkpoint-mined', { [A]: 'attestation-missed', [C]: 'attestation-sent' }),
  act(5, A, 'blocks-missed', { [B]: 'attestation-sent', [C]: 'attestation-missed' }),
];

function exampleStore(slotWindow = 10): Store {
  const store = new ValidatorStatsStore(freshEnv(), { slotWindow });
  for (const a of EXAMPLE) store.record(a);
  return store;
}

const EXPECTED_A: ValidatorStats = {
  address: A,
  lastProposal: { timestamp: T0 + 36n, slot: 1, date: '2023-11-14T22:13:56.000Z' },
  lastAttestation: { timestamp: T0 + 72n, slot: 2, date: '2023-11-14T22:14:32.000Z' },
  totalSlots: 5,
  missedProposals: { currentStreak: 2, rate: 2 / 3, count: 2, total: 3 },
  missedAttestations: { currentStreak: 1, rate: 0.5, count: 1, total: 2 },
  history: [
    { slot: 1, status: 'checkpoint-mined' },
    { slot: 2, status: 'attestation-sent' },
    { slot: 3, status: 'checkpoint-missed' },
    { slot: 4, status: 'attestation-missed' },
    { slot: 5, status: 'blocks-missed' },
  ],
};
const EXPECTED_B: ValidatorStats = {
  address: B,
  lastProposal: { timestamp: T0 + 144n, slot: 4, date: '2023-11-14T22:15:44.000Z' },
  lastAttestation: { timestamp: T0 + 180n, slot: 5, date: '2023-11-14T22:16:20.000Z' },
  totalSlots: 4,
  missedProposals: { currentStreak: 0, rate: 0, count: 0, total: 2 },
  missedAttestations: { currentStreak: 0, rate: 0, count: 0, total: 2 },
  history: [
    { slot: 1, status: 'attestation-sent' },
    { slot: 2, status: 'checkpoint-proposed' },
    { slot: 4, status: 'checkpoint-mined' },
    { slot: 5, status: 'attestation-sent' },
  ],
};
const EXPECTED_C: ValidatorStats = {
  address: C,
  lastAttestation: { timestamp: T0 + 144n, slot: 4, date: '2023-11-14T22:15:44.000Z' },
  totalSlots: 4,
  missedProposals: { currentStreak: 0, count: 0, total: 0 },
  missedAttestations: { currentStreak: 1, rate: 0.75, count: 3, total: 4 },
  history: [
    { slot: 1, status: 'attestation-missed' },
    { slot: 2, status: 'attestation-missed' },
    { slot: 4, status: 'attestation-sent' },
    { slot: 5, status: 'attestation-missed' },
  ],
};

describe('validator stats: examples', () => {
  test('an empty store', () => {
    const store = new ValidatorStatsStore(freshEnv(), { slotWindow: 10 });
    assert.deepEqual(store.all(), { stats: {}, slotWindow: 10 });
    assert.equal(store.one(A), undefined);
    assert.equal(store.lastProcessedSlot, undefined);
    assert.equal(store.initialSlot, undefined);
    assert.deepEqual(store.epochPerformance(0, 4), new Map());
  });

  test('streaks, rates, last proposal/attestation with ISO dates', () => {
    const store = exampleStore();
    assert.deepEqual(store.all(), {
      stats: { [A]: EXPECTED_A, [B]: EXPECTED_B, [C]: EXPECTED_C },
      lastProcessedSlot: 5,
      initialSlot: 1,
      slotWindow: 10,
    });
    assert.deepEqual(store.one(A), {
      validator: EXPECTED_A,
      allTimeProvenPerformance: [],
      lastProcessedSlot: 5,
      initialSlot: 1,
      slotWindow: 10,
    });
    assert.equal('rate' in store.one(C)!.validator.missedProposals, false);
    assert.equal(store.one(D), undefined);
    assert.equal(store.one('not an address'), undefined);
  });

  test('a streak covers every entry when all of them are missed, and ends at the latest success', () => {
    const store = new ValidatorStatsStore(freshEnv(), { slotWindow: 100 });
    store.record(act(1, B, 'checkpoint-mined', { [A]: 'attestation-missed' }));
    store.record(act(2, B, 'checkpoint-mined', { [A]: 'attestation-missed' }));
    store.record(act(3, B, 'checkpoint-mined', { [A]: 'attestation-missed' }));
    assert.deepEqual(store.one(A)!.validator.missedAttestations, {
      currentStreak: 3,
      rate: 1,
      count: 3,
      total: 3,
    });
    store.record(act(4, B, 'checkpoint-mined', { [A]: 'attestation-sent' }));
    assert.deepEqual(store.one(A)!.validator.missedAttestations, {
      currentStreak: 0,
      rate: 0.75,
      count: 3,
      total: 4,
    });
    // Proposal entries do not break an attestation streak (and vice versa).
    store.record(act(5, B, 'checkpoint-mined', { [A]: 'attestation-missed' }));
    store.record(act(6, A, 'checkpoint-mined', { [B]: 'attestation-sent' }));
    store.record(act(7, B, 'checkpoint-mined', { [A]: 'attestation-missed' }));
    const a = store.one(A)!.validator;
    assert.equal(a.missedAttestations.currentStreak, 2);
    assert.deepEqual(a.missedProposals, { currentStreak: 0, rate: 0, count: 0, total: 1 });
    assert.equal(a.lastAttestation!.slot, 4);
  });

  test('addresses are normalised to lowercase; the proposer is not also an attester', () => {
    const store = new ValidatorStatsStore(freshEnv(), { slotWindow: 10 });
    const upperA = caseOf(A, true);
    store.record(
      act(3, upperA, 'checkpoint-mined', {
        [A]: 'attestation-missed',
        [caseOf(B, true)]: 'attestation-sent',
      }),
    );
    assert.deepEqual(Object.keys(store.all().stats).sort(), [A, B]);
    assert.deepEqual(store.one(upperA)!.validator.history, [{ slot: 3, status: 'checkpoint-mined' }]);
    assert.throws(() => store.record(act(4, '0x1234', 'checkpoint-mined')), TypeError);
    assert.throws(() => store.record(act(-1, A, 'checkpoint-mined')), RangeError);
  });

  test('fromSlot / toSlot filter the history and everything computed from it', () => {
    const store = exampleStore();
    assert.deepEqual(store.one(A, 2, 4)!.validator, {
      address: A,
      lastAttestation: { timestamp: T0 + 72n, slot: 2, date: '2023-11-14T22:14:32.000Z' },
      totalSlots: 3,
      missedProposals: { currentStreak: 1, rate: 1, count: 1, total: 1 },
      missedAttestations: { currentStreak: 1, rate: 0.5, count: 1, total: 2 },
      history: [
        { slot: 2, status: 'attestation-sent' },
        { slot: 3, status: 'checkpoint-missed' },
        { slot: 4, status: 'attestation-missed' },
      ],
    });
    assert.deepEqual(
      store.one(A, 4)!.validator.history.map((h) => h.slot),
      [4, 5],
    );
    assert.deepEqual(
      store.one(A, undefined, 1)!.validator.history.map((h) => h.slot),
      [1],
    );
    // Seen in the window but not in the range: stats with an empty history, not undefined.
    const none = store.one(C, 3, 3)!;
    assert.deepEqual(none.validator, {
      address: C,
      totalSlots: 0,
      missedProposals: { currentStreak: 0, count: 0, total: 0 },
      missedAttestations: { currentStreak: 0, count: 0, total: 0 },
      history: [],
    });
    assert.equal(none.lastProcessedSlot, 5);
  });

  test('history older than the window is pruned; a slot older than the window is not recorded', () => {
    const store = new ValidatorStatsStore(freshEnv(), { slotWindow: 3 });
    store.record(act(1, D, 'checkpoint-mined', { [A]: 'attestation-sent' }));
    store.record(act(2, D, 'checkpoint-mined', { [A]: 'attestation-sent' }));
    for (const a of EXAMPLE.slice(2)) store.record(a); // slots 3, 4, 5
    const all = store.all();
    assert.deepEqual(Object.keys(all.stats).sort(), [A, B, C]);
    assert.equal(all.initialSlot, 1);
    assert.equal(all.lastProcessedSlot, 5);
    assert.deepEqual(
      all.stats[A]!.history.map((h) => h.slot),
      [3, 4, 5],
    );
    assert.equal(store.one(D), undefined);
    // The window at slot 10 is [8, 10].
    store.record(act(10, B, 'checkpoint-mined', { [C]: 'attestation-sent' }));
    assert.deepEqual(Object.keys(store.all().stats).sort(), [B, C]);
    store.record(act(7, D, 'checkpoint-mined'));
    assert.equal(store.one(D), undefined);
    store.record(act(8, D, 'checkpoint-mined'));
    assert.deepEqual(store.one(D)!.validator.history, [{ slot: 8, status: 'checkpoint-mined' }]);
    assert.equal(store.lastProcessedSlot, 10);
    assert.equal(store.initialSlot, 1);
    // Slots 4 and 5 were pruned, slot 7 never recorded.
    assert.deepEqual(store.epochPerformance(1, 4), new Map());
    assert.deepEqual(
      store.epochPerformance(2, 4),
      new Map([
        [B, { missed: 0, total: 1 }],
        [C, { missed: 0, total: 1 }],
        [D, { missed: 0, total: 1 }],
      ]),
    );
  });

  test('the window is exactly slotWindow slots', () => {
    const store = new ValidatorStatsStore(freshEnv(), { slotWindow: 2 });
    store.record(act(4, A, 'checkpoint-mined'));
    store.record(act(5, A, 'checkpoint-missed'));
    assert.deepEqual(
      store.one(A)!.validator.history.map((h) => h.slot),
      [4, 5],
    );
    store.record(act(6, A, 'checkpoint-missed'));
    assert.deepEqual(
      store.one(A)!.validator.history.map((h) => h.slot),
      [5, 6],
    );
  });

  test('a store opened with a smaller window answers for that window', () => {
    const env = freshEnv();
    const wide = new ValidatorStatsStore(env, { slotWindow: 10 });
    for (const a of EXAMPLE) wide.record(a);
    const narrow = new ValidatorStatsStore(env, { slotWindow: 2 });
    assert.deepEqual(
      narrow.one(A)!.validator.history.map((h) => h.slot),
      [4, 5],
    );
    assert.equal(narrow.all().slotWindow, 2);
    assert.deepEqual(narrow.epochPerformance(1, 2), new Map());
    assert.deepEqual(
      wide.one(A)!.validator.history.map((h) => h.slot),
      [1, 2, 3, 4, 5],
    );
  });

  test('recording a slot again replaces it', () => {
    const store = exampleStore();
    store.record(act(5, B, 'checkpoint-mined', { [A]: 'attestation-sent' }));
    assert.deepEqual(store.one(A)!.validator.history.at(-1), { slot: 5, status: 'attestation-sent' });
    assert.deepEqual(
      store.one(C)!.validator.history.map((h) => h.slot),
      [1, 2, 4],
    );
    assert.equal(store.one(B)!.validator.lastProposal!.slot, 5);
    assert.equal(store.lastProcessedSlot, 5);
    store.record(EXAMPLE[4]!);
    assert.deepEqual(store.all().stats, { [A]: EXPECTED_A, [B]: EXPECTED_B, [C]: EXPECTED_C });
  });

  test('persisted: a new store on the same environment, or the environment reopened, answers the same', async () => {
    const env = freshEnv();
    const store = new ValidatorStatsStore(env, { slotWindow: 10 });
    for (const a of EXAMPLE) store.record(a);
    store.recordProvenEpoch(1, 2);
    const again = new ValidatorStatsStore(env, { slotWindow: 10 });
    assert.deepEqual(again.all(), store.all());
    assert.deepEqual(again.one(A), store.one(A));
    assert.equal(again.lastProcessedSlot, 5);
    assert.equal(again.initialSlot, 1);

    const first = stores.open('reopen');
    const s1 = new ValidatorStatsStore(first, { slotWindow: 10 });
    for (const a of EXAMPLE) s1.record(a);
    s1.recordProvenEpoch(2, 2);
    const all = s1.all();
    const one = s1.one(C);
    await first.close();
    const second = stores.open('reopen');
    const s2 = new ValidatorStatsStore(second, { slotWindow: 10 });
    assert.deepEqual(s2.all(), all);
    assert.deepEqual(s2.one(C), one);
    assert.deepEqual(s2.one(C)!.allTimeProvenPerformance, [{ missed: 1, total: 2, epoch: 2 }]);
  });

  test('epochPerformance counts proposal and attestation duties in the epoch', () => {
    const store = exampleStore();
    assert.deepEqual(
      store.epochPerformance(0, 2),
      new Map([
        [A, { missed: 0, total: 1 }],
        [B, { missed: 0, total: 1 }],
        [C, { missed: 1, total: 1 }],
      ]),
    );
    assert.deepEqual(
      store.epochPerformance(1, 2),
      new Map([
        [A, { missed: 1, total: 2 }],
        [B, { missed: 0, total: 1 }],
        [C, { missed: 1, total: 1 }],
      ]),
    );
    assert.deepEqual(
      store.epochPerformance(2, 2),
      new Map([
        [A, { missed: 2, total: 2 }],
        [B, { missed: 0, total: 2 }],
        [C, { missed: 1, total: 2 }],
      ]),
    );
    assert.deepEqual(store.epochPerformance(3, 2), new Map());
    assert.deepEqual(store.epochPerformance(0, 8).get(C), { missed: 3, total: 4 });
  });

  test('recordProvenEpoch is kept after the window moves on, and is idempotent per epoch', () => {
    const store = new ValidatorStatsStore(freshEnv(), { slotWindow: 4 });
    store.record(act(0, D, 'checkpoint-mined', { [A]: 'attestation-missed' }));
    store.record(act(1, D, 'checkpoint-missed'));
    store.record(act(2, A, 'checkpoint-mined', { [D]: 'attestation-missed' }));
    store.record(act(3, A, 'checkpoint-mined', { [D]: 'attestation-sent' }));
    store.recordProvenEpoch(0, 2);
    store.recordProvenEpoch(1, 2);
    store.recordProvenEpoch(1, 2);
    for (let slot = 4; slot <= 9; slot++) store.record(act(slot, A, 'checkpoint-mined'));
    // D left the window; its proven performance is kept.
    assert.deepEqual(store.one(D), {
      validator: {
        address: D,
        totalSlots: 0,
        missedProposals: { currentStreak: 0, count: 0, total: 0 },
        missedAttestations: { currentStreak: 0, count: 0, total: 0 },
        history: [],
      },
      allTimeProvenPerformance: [
        { missed: 1, total: 2, epoch: 0 },
        { missed: 1, total: 2, epoch: 1 },
      ],
      lastProcessedSlot: 9,
      initialSlot: 0,
      slotWindow: 4,
    });
    assert.equal(store.all().stats[D], undefined);
    // Recording a pruned epoch again changes nothing.
    store.recordProvenEpoch(0, 2);
    assert.equal(store.one(D)!.allTimeProvenPerformance.length, 2);
    assert.deepEqual(store.one(A)!.allTimeProvenPerformance, [
      { missed: 1, total: 1, epoch: 0 },
      { missed: 0, total: 2, epoch: 1 },
    ]);
    // An epoch recorded out of order is kept in epoch order.
    store.recordProvenEpoch(4, 2);
    store.recordProvenEpoch(3, 2);
    assert.deepEqual(
      store.one(A)!.allTimeProvenPerformance.map((p) => p.epoch),
      [0, 1, 3, 4],
    );
  });
});

// ---- property test against a naive model ----

const POOL = [A, B, C, D];
const PROPOSAL: ProposalStatus[] = [
  'checkpoint-mined',
  'checkpoint-proposed',
  'checkpoint-missed',
  'blocks-missed',
];
const ATTESTATION: AttestationStatus[] = ['attestation-sent', 'attestation-missed'];

const caseOf = (address: string, upper: boolean) => (upper ? `0x${address.slice(2).toUpperCase()}` : address);

const activityArb = (maxSlot: number): fc.Arbitrary<SlotActivity> =>
  fc
    .record({
      slot: fc.integer({ min: 0, max: maxSlot }),
      timestamp: fc.bigInt({ min: 0n, max: 4_000_000_000n }),
      proposer: fc.integer({ min: 0, max: POOL.length - 1 }),
      proposerUpper: fc.boolean(),
      proposerStatus: fc.constantFrom(...PROPOSAL),
      attestations: fc.array(fc.option(fc.tuple(fc.constantFrom(...ATTESTATION), fc.boolean())), {
        minLength: POOL.length,
        maxLength: POOL.length,
      }),
    })
    .map((r) => {
      const attestations: Record<string, AttestationStatus> = {};
      r.attestations.forEach((a, i) => {
        if (a) attestations[caseOf(POOL[i]!, a[1])] = a[0];
      });
      return {
        slot: r.slot,
        timestamp: r.timestamp,
        proposer: caseOf(POOL[r.proposer]!, r.proposerUpper),
        proposerStatus: r.proposerStatus,
        attestations,
      };
    });

interface ModelEntry {
  slot: number;
  status: ValidatorStatus;
  timestamp: bigint;
}

/** The recorded activities, reduced naively: the window from the highest slot, the latest record per slot. */
function modelHistories(acts: SlotActivity[], slotWindow: number): Map<string, ModelEntry[]> {
  const out = new Map<string, ModelEntry[]>();
  if (acts.length === 0) return out;
  const last = Math.max(...acts.map((a) => a.slot));
  const latest = new Map<number, SlotActivity>();
  for (const a of acts) if (a.slot > last - slotWindow) latest.set(a.slot, a);
  const slots = [...latest.keys()].sort((x, y) => x - y);
  const add = (address: string, e: ModelEntry) => {
    const key = address.toLowerCase();
    out.set(key, [...(out.get(key) ?? []), e]);
  };
  for (const slot of slots) {
    const a = latest.get(slot)!;
    add(a.proposer, { slot, status: a.proposerStatus, timestamp: a.timestamp });
    for (const [who, status] of Object.entries(a.attestations))
      if (who.toLowerCase() !== a.proposer.toLowerCase()) add(who, { slot, status, timestamp: a.timestamp });
  }
  return out;
}

function modelMissed(entries: ModelEntry[], missed: ValidatorStatus[]) {
  const count = entries.filter((e) => missed.includes(e.status)).length;
  const firstHit = [...entries].reverse().findIndex((e) => !missed.includes(e.status));
  const currentStreak = firstHit === -1 ? entries.length : firstHit;
  return entries.length === 0
    ? { currentStreak, count, total: 0 }
    : { currentStreak, rate: count / entries.length, count, total: entries.length };
}

function modelStats(address: string, entries: ModelEntry[]): ValidatorStats {
  const proposals = entries.filter((e) => (PROPOSAL as string[]).includes(e.status));
  const attestations = entries.filter((e) => (ATTESTATION as string[]).includes(e.status));
  const when = (e: ModelEntry | undefined) =>
    e && { timestamp: e.timestamp, slot: e.slot, date: new Date(Number(e.timestamp) * 1000).toISOString() };
  const lastProposal = when(
    entries.filter((e) => e.status === 'checkpoint-mined' || e.status === 'checkpoint-proposed').at(-1),
  );
  const lastAttestation = when(entries.filter((e) => e.status === 'attestation-sent').at(-1));
  return {
    address,
    ...(lastProposal ? { lastProposal } : {}),
    ...(lastAttestation ? { lastAttestation } : {}),
    totalSlots: entries.length,
    missedProposals: modelMissed(proposals, ['checkpoint-missed', 'blocks-missed']),
    missedAttestations: modelMissed(attestations, ['attestation-missed']),
    history: entries.map((e) => ({ slot: e.slot, status: e.status })),
  };
}

const SEED = Number(process.env.STATS_PROPERTY_SEED ?? 0x57a75);

describe('validator stats against a naive model (property)', () => {
  test('all(), one() with ranges, epochPerformance and a reopened store match the model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.array(activityArb(40), { maxLength: 40 }),
        fc.array(
          fc.tuple(fc.option(fc.integer({ min: -2, max: 42 })), fc.option(fc.integer({ min: -2, max: 42 }))),
          {
            minLength: POOL.length,
            maxLength: POOL.length,
          },
        ),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        async (slotWindow, sorted, generated, ranges, epoch, epochDuration) => {
          const acts = sorted ? [...generated].sort((x, y) => x.slot - y.slot) : generated;
          const env = freshEnv();
          try {
            const store = new ValidatorStatsStore(env, { slotWindow });
            for (const a of acts) store.record(a);
            const histories = modelHistories(acts, slotWindow);
            const slots =
              acts.length === 0
                ? {}
                : {
                    lastProcessedSlot: Math.max(...acts.map((a) => a.slot)),
                    initialSlot: acts[0]!.slot,
                  };
            const expected = {
              stats: Object.fromEntries([...histories].map(([addr, h]) => [addr, modelStats(addr, h)])),
              ...slots,
              slotWindow,
            };
            assert.deepEqual(store.all(), expected);
            for (const [i, address] of POOL.entries()) {
              const [from, to] = ranges[i]!;
              const h = histories.get(address);
              const got = store.one(caseOf(address, i % 2 === 1), from ?? undefined, to ?? undefined);
              if (!h) {
                assert.equal(got, undefined);
                continue;
              }
              const inRange = h.filter(
                (e) => (from === null || e.slot >= from) && (to === null || e.slot <= to),
              );
              assert.deepEqual(got, {
                validator: modelStats(address, inRange),
                allTimeProvenPerformance: [],
                ...slots,
                slotWindow,
              });
            }
            const perf = new Map<string, { missed: number; total: number }>();
            for (const [addr, h] of histories) {
              const inEpoch = h.filter((e) => Math.floor(e.slot / epochDuration) === epoch);
              if (inEpoch.length === 0) continue;
              const missed = inEpoch.filter((e) => e.status.endsWith('-missed')).length;
              perf.set(addr, { missed, total: inEpoch.length });
            }
            const got = store.epochPerformance(epoch, epochDuration);
            assert.deepEqual(new Map([...got].sort()), new Map([...perf].sort()));
            assert.deepEqual(new ValidatorStatsStore(env, { slotWindow }).all(), expected);
          } finally {
            await env.close();
          }
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });
});
