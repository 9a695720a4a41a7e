// The validator monitor on a chain store of checkpoints with L1 attestations (written straight
// into the store: one of them has fewer attestations than the contract would accept) and a pool
// of what was gossiped: each slot's statuses once L1 is synced past it, epochs judged only when
// whole, inactivity and insufficient-attestation offenses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import pino from 'pino';
import type { Address, Hex } from 'viem';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import type { L2Block } from '../../src/core/block.js';
import { emptyCheckpointHeader } from '../../src/core/block-header.js';
import { type L1RollupConstants, slotStart } from '../../src/core/time.js';
import type { CommitteeL1 } from '../../src/l1/roles.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
import { AttestationPool } from '../../src/validators/attestation-pool.js';
import {
  attestationDigest,
  blockProposalDigest,
  CommitteeView,
  type Domain,
  signDigest,
} from '../../src/validators/committee.js';
import { ValidatorMonitor } from '../../src/validators/monitor.js';
import { type Offense, OffenseStore, OffenseType } from '../../src/validators/slashing.js';
import { ValidatorStatsStore, type ValidatorStatus } from '../../src/validators/stats.js';
import { l1SyncPoint, publishedCheckpoint } from '../helpers/chain-store-fixtures.js';
import {
  nextBlock,
  openTestChainStore,
  openTestWorldState,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';
import { testAccounts } from './fixtures.js';

const silent = pino({ level: 'silent' });
const constants: L1RollupConstants = {
  l1StartBlock: 1n,
  l1GenesisTime: 1000n,
  slotDuration: 8,
  epochDuration: 4,
  ethereumSlotDuration: 2,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 4,
  rollupManaLimit: 100_000_000,
};
const domain: Domain = { chainId: 31337, rollup: `0x${'12'.repeat(20)}` };
const members = testAccounts(4, 'monitor');
const [m0, m1, m2, m3] = members.map((m) => m.address.toLowerCase()) as [string, string, string, string];
/** The proposer of slot s is member s mod 4 (m0 proposes slots 4 and 8, m1 5 and 9, …). */
const proposerIndex = (slot: number) => slot % 4;
const at = (slot: number, offset = 1n) => slotStart(slot, constants) + offset;
const SLASHING = { inactivityThreshold: 0.8, inactivityPenalty: 100n, insufficientAttestationsPenalty: 200n };

/** A committee source standing in for the rollup: checksummed addresses, as viem returns them. */
function fakeRollup(calls = { n: 0 }): CommitteeL1 {
  return {
    epochCommittee: async () => {
      calls.n++;
      return members.map((m) => m.address as Address);
    },
    proposerAtSlot: async (slot: number) => {
      calls.n++;
      return members[proposerIndex(slot)]!.address as Address;
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'cairn-monitor-'));
let envCount = 0;
const envs: StoreEnvironment[] = [];
function freshEnv(): StoreEnvironment {
  const env = openEnvironment(dir, `node-${envCount++}`);
  envs.push(env);
  return env;
}

interface World {
  monitor: ValidatorMonitor;
  stats: ValidatorStatsStore;
  offenses: OffenseStore;
  meta: ReturnType<StoreEnvironment['database']>;
  /** Status of a validator in a slot, from the stats store. */
  status(address: string, slot: number): ValidatorStatus | undefined;
  /** Offenses of one type. */
  of(type: OffenseType): Offense[];
}

describe('validator monitor', () => {
  let ws: TestWorldState;
  let chain: TestChainStore;
  let store: ChainStore;
  const blocks: L2Block[] = [];
  const digests = new Map<number, Hex>();
  let pool: AttestationPool;

  /** Adds checkpoint `number` of one new block in `slot`, with these members' L1 entries. */
  async function addCheckpoint(
    number: number,
    slot: number,
    entries: (digest: Hex) => Promise<{ address: string; signature: string }[]>,
  ): Promise<void> {
    const block = await nextBlock(ws.ws, [], {
      slotNumber: slot,
      checkpointNumber: number,
      indexWithinCheckpoint: 0,
    });
    blocks.push(block);
    const digest = attestationDigest(domain, {
      checkpointNumber: number,
      slot,
      archive: block.archive.root,
      headerHash: BigInt(1000 + number),
    });
    digests.set(slot, digest);
    const l1 = l1SyncPoint(BigInt(10 + number), at(slot, 2n));
    store.addCheckpoint(
      publishedCheckpoint(number, [block], { slot, l1, attestations: await entries(digest) }),
      [block],
      l1,
    );
  }

  const sign = (i: number, digest: Hex) => signDigest(members[i]!, digest);
  /** The L1 entry of member i: its signature, or 0x. */
  const entry = async (i: number, digest: Hex, signs: boolean) => ({
    address: members[i]!.address.toLowerCase(),
    signature: signs ? await sign(i, digest) : '0x',
  });

  before(async () => {
    ws = await openTestWorldState('cairn-monitor-ws-');
    chain = openTestChainStore(ws.genesis, { prefix: 'cairn-monitor-chain-' });
    store = chain.store;
    // Slot 4 (m0 proposes): checkpoint 1 on L1, signed by m0, m1, m2; m3's entry is empty.
    await addCheckpoint(1, 4, async (d) => [
      await entry(0, d, true),
      await entry(1, d, true),
      await entry(2, d, true),
      await entry(3, d, false),
    ]);
    // Slot 9 (m1 proposes): checkpoint 2 with m1's and m0's signatures only (2 of 4, the quorum is
    // 3), m2's entry holding m3's signature, m3's a signature of another digest. The contract would
    // refuse it; it is written to the store as is.
    await addCheckpoint(2, 9, async (d) => [
      await entry(0, d, true),
      await entry(1, d, true),
      { address: m2, signature: await sign(3, d) },
      { address: m3, signature: await sign(3, digests.get(4)!) },
    ]);
    // Slot 10 (m2 proposes): checkpoint 3 with every signature but m1's (enough).
    await addCheckpoint(3, 10, async (d) => [
      await entry(0, d, true),
      await entry(1, d, false),
      await entry(2, d, true),
      await entry(3, d, true),
    ]);
  });
  after(async () => {
    for (const env of envs) await env.close();
    await chain.close();
    await ws.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    pool = new AttestationPool();
    const header = emptyCheckpointHeader();
    // Slot 5 (m1 proposes): a checkpoint proposal in gossip, attested by m0 and m2.
    const d5 = attestationDigest(domain, { checkpointNumber: 2, slot: 5, archive: 0x55n, headerHash: 0x56n });
    digests.set(5, d5);
    pool.addCheckpointProposal({
      bodyHash: '0x01',
      checkpointNumber: 2,
      slot: 5,
      archive: 0x55n,
      headerHash: 0x56n,
      header,
      body: new Uint8Array(),
      signature: await sign(1, d5),
      digest: d5,
      proposer: m1,
    });
    for (const i of [0, 2])
      pool.addAttestation({
        checkpointNumber: 2,
        slot: 5,
        archive: 0x55n,
        headerHash: 0x56n,
        header,
        signature: await sign(i, d5),
        proposerSignature: await sign(1, d5),
        digest: d5,
        attester: members[i]!.address.toLowerCase(),
      });
    // m3 attests another digest of slot 5: not the proposal's.
    const other = attestationDigest(domain, {
      checkpointNumber: 2,
      slot: 5,
      archive: 0x99n,
      headerHash: 0x56n,
    });
    pool.addAttestation({
      checkpointNumber: 2,
      slot: 5,
      archive: 0x99n,
      headerHash: 0x56n,
      header,
      signature: await sign(3, other),
      proposerSignature: await sign(1, other),
      digest: other,
      attester: m3,
    });
    // Slot 6 (m2 proposes): only a block proposal made it out.
    const b6 = blockProposalDigest(domain, { slot: 6, indexWithinCheckpoint: 0, blockHash: 1n, archive: 2n });
    pool.addBlockProposal({
      slot: 6,
      checkpointNumber: 2,
      indexWithinCheckpoint: 0,
      blockNumber: 2,
      blockHash: 1n,
      archiveRoot: 2n,
      txHashes: [],
      signature: await sign(2, b6),
      digest: b6,
      proposer: m2,
    });
    // Slot 7 (m3 proposes): nothing from m3; m0 proposed a checkpoint it was not asked for.
    const d7 = attestationDigest(domain, { checkpointNumber: 2, slot: 7, archive: 0x77n, headerHash: 0x78n });
    pool.addCheckpointProposal({
      bodyHash: '0x01',
      checkpointNumber: 2,
      slot: 7,
      archive: 0x77n,
      headerHash: 0x78n,
      header,
      body: new Uint8Array(),
      signature: await sign(0, d7),
      digest: d7,
      proposer: m0,
    });
  });

  function world(o: { calls?: { n: number }; logger?: pino.Logger } = {}): World {
    const env = freshEnv();
    const stats = new ValidatorStatsStore(env, { slotWindow: 200 });
    const offenses = new OffenseStore(env, { roundSize: 4, epochDuration: constants.epochDuration });
    const meta = env.database<number>('validator-monitor');
    const monitor = new ValidatorMonitor({
      stats,
      offenses,
      pool,
      committee: new CommitteeView(fakeRollup(o.calls)),
      chain: store,
      constants,
      domain,
      meta,
      slashing: SLASHING,
      logger: o.logger ?? silent,
    });
    return {
      monitor,
      stats,
      offenses,
      meta,
      status: (address, slot) => stats.all().stats[address]?.history.find((h) => h.slot === slot)?.status,
      of: (type) => offenses.all().filter((x) => x.offenseType === type),
    };
  }

  /** L1 read up to a block at `timestamp`. */
  const syncTo = (timestamp: bigint) => store.setL1SyncPoint(l1SyncPoint(100n + timestamp, timestamp));

  test('slots are processed once L1 is synced past them, each once; statuses from L1 and the pool', async () => {
    const w = world();
    // The first pass (slot 4) starts the watch; L1 is synced into slot 4: nothing has ended.
    syncTo(at(4));
    await w.monitor.afterPass(at(4));
    assert.equal(w.meta.get('startSlot'), 4);
    assert.equal(w.stats.lastProcessedSlot, undefined);
    // Time moves on, but L1 is not synced past slot 4: still nothing.
    await w.monitor.afterPass(at(6));
    assert.equal(w.stats.lastProcessedSlot, undefined);

    syncTo(at(5));
    await w.monitor.afterPass(at(6));
    assert.equal(w.stats.lastProcessedSlot, 4);
    // Slot 4: checkpoint 1 on L1, m1 and m2 signed, m3 did not.
    assert.equal(w.status(m0, 4), 'checkpoint-mined');
    assert.equal(w.status(m1, 4), 'attestation-sent');
    assert.equal(w.status(m2, 4), 'attestation-sent');
    assert.equal(w.status(m3, 4), 'attestation-missed');

    syncTo(at(7, 3n));
    await w.monitor.afterPass(at(7, 3n));
    assert.equal(w.stats.lastProcessedSlot, 6);
    // Slot 5: proposed in gossip only; m0 and m2 attested it; m3 attested something else.
    assert.equal(w.status(m1, 5), 'checkpoint-proposed');
    assert.equal(w.status(m0, 5), 'attestation-sent');
    assert.equal(w.status(m2, 5), 'attestation-sent');
    assert.equal(w.status(m3, 5), 'attestation-missed');
    // Slot 6: blocks only; no attestation duties recorded.
    assert.equal(w.status(m2, 6), 'blocks-missed');
    for (const m of [m0, m1, m3]) assert.equal(w.status(m, 6), undefined);
    // Slot 7 is not over on L1 yet.
    assert.equal(w.status(m3, 7), undefined);

    syncTo(at(8));
    await w.monitor.afterPass(at(8));
    // Slot 7: nothing from its proposer (m0's proposal does not count): missed, no attestation duties.
    assert.equal(w.status(m3, 7), 'checkpoint-missed');
    for (const m of [m0, m1, m2]) assert.equal(w.status(m, 7), undefined);
    assert.equal(w.meta.get('lastSlot'), 7);

    // Recorded once: a later pass with the same sync point changes nothing.
    const before = JSON.stringify(w.stats.all(), (_, v) => (typeof v === 'bigint' ? v.toString() : v));
    pool.addAttestation({
      ...pool.attestations(5)[0]!,
      attester: m3,
      signature: await sign(3, digests.get(5)!),
    });
    await w.monitor.afterPass(at(8, 5n));
    assert.equal(
      JSON.stringify(w.stats.all(), (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
      before,
    );
  });

  test('an epoch is judged when whole: inactivity for the validator that missed everything only', async () => {
    const w = world();
    syncTo(at(4));
    await w.monitor.afterPass(at(4));
    syncTo(at(7));
    await w.monitor.afterPass(at(7));
    // Slots 4..6 recorded; epoch 1 (slots 4..7) is not whole yet.
    assert.equal(w.stats.lastProcessedSlot, 6);
    assert.deepEqual(w.of(OffenseType.INACTIVITY), []);
    assert.equal(w.meta.get('lastJudgedEpoch'), undefined);
    syncTo(at(8));
    await w.monitor.afterPass(at(8));
    // m3: attestation missed in 4 and 5, checkpoint missed in 7 (3 of 3). m2 missed 1 of 3
    // (its blocks-only slot); m0 and m1 missed nothing.
    const performance = w.stats.epochPerformance(1, 4);
    assert.deepEqual(performance.get(m3), { missed: 3, total: 3 });
    assert.deepEqual(performance.get(m2), { missed: 1, total: 3 });
    assert.deepEqual(performance.get(m0), { missed: 0, total: 2 });
    assert.deepEqual(performance.get(m1), { missed: 0, total: 2 });
    assert.deepEqual(w.of(OffenseType.INACTIVITY), [
      { validator: m3, amount: 100n, offenseType: OffenseType.INACTIVITY, epochOrSlot: 1n },
    ]);
    assert.equal(w.meta.get('lastJudgedEpoch'), 1);
    // Judged once: no new offense later in epoch 2.
    syncTo(at(9));
    await w.monitor.afterPass(at(9));
    assert.equal(w.of(OffenseType.INACTIVITY).length, 1);
  });

  test('an epoch the monitor did not watch from its start is never judged', async () => {
    const w = world();
    // Started in slot 5: epoch 1 is partial; the first whole epoch is 2.
    syncTo(at(5));
    await w.monitor.afterPass(at(5));
    assert.equal(w.meta.get('startSlot'), 5);
    syncTo(at(8));
    await w.monitor.afterPass(at(8));
    assert.equal(w.status(m3, 4), undefined);
    assert.equal(w.status(m3, 7), 'checkpoint-missed');
    assert.equal(w.stats.lastProcessedSlot, 7);
    assert.deepEqual(w.of(OffenseType.INACTIVITY), []);
    assert.equal(w.meta.get('lastJudgedEpoch'), undefined);
  });

  test('insufficient attestations: a checkpoint on L1 with valid signatures below the quorum', async () => {
    const w = world();
    w.meta.putSync('startSlot', 4);
    syncTo(at(11));
    await w.monitor.afterPass(at(11));
    assert.equal(w.stats.lastProcessedSlot, 10);
    // Slot 9: only m0's and m1's signatures are valid (2 of 4).
    assert.equal(w.status(m1, 9), 'checkpoint-mined');
    assert.equal(w.status(m0, 9), 'attestation-sent');
    assert.equal(w.status(m2, 9), 'attestation-missed');
    assert.equal(w.status(m3, 9), 'attestation-missed');
    assert.deepEqual(w.of(OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS), [
      {
        validator: m1,
        amount: 200n,
        offenseType: OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS,
        epochOrSlot: 9n,
      },
    ]);
    // Slots 4 (3 of 4) and 10 (3 of 4) have enough.
    assert.equal(w.status(m2, 10), 'checkpoint-mined');
    assert.equal(w.status(m1, 10), 'attestation-missed');
    assert.equal(w.status(m3, 10), 'attestation-sent');
    // Slot 8: m0 proposed nothing.
    assert.equal(w.status(m0, 8), 'checkpoint-missed');
  });

  test('a late attestation in the pool counts as sent for a mined checkpoint', async () => {
    const w = world();
    const d4 = digests.get(4)!;
    pool.addAttestation({
      checkpointNumber: 1,
      slot: 4,
      archive: blocks[0]!.archive.root,
      headerHash: 1001n,
      header: emptyCheckpointHeader(),
      signature: await sign(3, d4),
      proposerSignature: await sign(0, d4),
      digest: d4,
      attester: m3,
    });
    w.meta.putSync('startSlot', 4);
    syncTo(at(5));
    await w.monitor.afterPass(at(5));
    assert.equal(w.status(m3, 4), 'attestation-sent');
    // The offense check counts L1 signatures only: three of four, enough.
    assert.deepEqual(w.of(OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS), []);
  });

  test('without an L1 sync point nothing happens, not even the start', async () => {
    const env = freshEnv();
    const { store: empty, close } = openTestChainStore(ws.genesis, { prefix: 'cairn-monitor-empty-' });
    try {
      const stats = new ValidatorStatsStore(env, { slotWindow: 10 });
      const meta = env.database<number>('validator-monitor');
      const calls = { n: 0 };
      const monitor = new ValidatorMonitor({
        stats,
        offenses: new OffenseStore(env, { roundSize: 4, epochDuration: 4 }),
        pool,
        committee: new CommitteeView(fakeRollup(calls)),
        chain: empty,
        constants,
        domain,
        meta,
        slashing: SLASHING,
        logger: silent,
      });
      await monitor.afterPass(at(20));
      assert.equal(meta.get('startSlot'), undefined);
      assert.equal(stats.lastProcessedSlot, undefined);
      assert.equal(calls.n, 0);
    } finally {
      await close();
    }
  });

  test('a node far behind catches up at most 64 slots a pass', async () => {
    const calls = { n: 0 };
    const w = world({ calls });
    w.meta.putSync('startSlot', 4);
    syncTo(at(200));
    await w.monitor.afterPass(at(200));
    assert.equal(w.meta.get('lastSlot'), 67);
    assert.equal(w.stats.lastProcessedSlot, 67);
    await w.monitor.afterPass(at(200));
    assert.equal(w.meta.get('lastSlot'), 131);
    await w.monitor.afterPass(at(200));
    await w.monitor.afterPass(at(200));
    assert.equal(w.meta.get('lastSlot'), 199);
    // Every whole epoch up to slot 199 is judged.
    assert.equal(w.meta.get('lastJudgedEpoch'), 49);
    // m3 missed all its duties of epoch 1; from epoch 3 on nobody does anything: everyone is
    // inactive there (proposals missed only: no attestation duties without a proposal).
    const inactive = w.of(OffenseType.INACTIVITY);
    assert.ok(
      inactive.some((o) => o.validator === m3 && o.epochOrSlot === 1n),
      'inactive.some((o) => o.validator === m3 && o.epochOrSlot === 1n)',
    );
    assert.ok(
      !inactive.some((o) => o.validator !== m3 && o.epochOrSlot === 1n),
      '!inactive.some((o) => o.validator !== m3 && o.epochOrSlot === 1n)',
    );
    // Epoch 2 (slots 8..11): checkpoints in slots 9 and 10; nobody missed 80% of its duties.
    assert.ok(!inactive.some((o) => o.epochOrSlot === 2n), '!inactive.some((o) => o.epochOrSlot === 2n)');
    assert.ok(
      inactive.some((o) => o.epochOrSlot === 3n),
      'inactive.some((o) => o.epochOrSlot === 3n)',
    );
  });

  test('proven epochs are recorded for good once judged', async () => {
    const w = world();
    w.meta.putSync('startSlot', 4);
    syncTo(at(12));
    await w.monitor.afterPass(at(12));
    assert.equal(w.meta.get('lastJudgedEpoch'), 2);
    assert.equal(w.stats.one(m3)!.allTimeProvenPerformance.length, 0);
    // Checkpoint 2 (slot 9, epoch 2) proven: epoch 1 is proven whole.
    store.setProvenCheckpoint(2);
    try {
      await w.monitor.afterPass(at(12));
      assert.deepEqual(w.stats.one(m3)!.allTimeProvenPerformance, [{ epoch: 1, missed: 3, total: 3 }]);
      assert.equal(w.meta.get('lastProvenEpoch'), 1);
    } finally {
      store.setProvenCheckpoint(0);
    }
  });

  test('a stretch of epochs with everybody away is one warning, not one per offense', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const w = world({ logger });
    w.meta.putSync('startSlot', 12);
    // Epochs 3..5 (slots 12..23) hold no checkpoint: every proposer missed its slot.
    syncTo(at(24));
    await w.monitor.afterPass(at(24));
    const offenses = w.of(OffenseType.INACTIVITY);
    assert.ok(offenses.length > 2, `offenses: ${offenses.length}`);
    const warnings = lines.filter((l) => /inactivity/.test(l.msg));
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(
      warnings[0]!.msg,
      new RegExp(
        `^slashing offenses: inactivity by \\d validator\\(s\\) in epochs 3\\.\\.5 \\(${offenses.length} offenses`,
      ),
    );
  });
});
