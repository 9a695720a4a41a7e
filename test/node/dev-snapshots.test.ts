// DevSnapshots, the orchestration of svcDev_snapshot / svcDev_revert / svcDev_reset, over fakes of
// the L1 and the archiver and the real signing record and attestation pool: ids are hex-like
// numbers from 0, a revert consumes its snapshot and every later one (as anvil does), an unknown
// id changes nothing, the slot memory from the snapshot's slot on is put back (so the validators
// sign again in slots that come again), the embedded L1 is saved after a revert (and a failed save
// is an error), and reset goes back to genesis — from the L1's genesis saved on disk when the node
// started past it, refused when there is none.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Hex } from 'viem';
import type { ChainSnapshot } from '../../src/archiver/archiver.js';
import type { ChainReader } from '../../src/archiver/chain-reader.js';
import { NodeError } from '../../src/core/errors.js';
import type { L1RollupConstants } from '../../src/core/time.js';
import type { PoolEntry } from '../../src/mempool/tx-pool.js';
import { DevSnapshots } from '../../src/node/dev-snapshots.js';
import type { SlotsActedIn } from '../../src/sequencer/sequencer.js';
import { AttestationPool } from '../../src/validators/attestation-pool.js';
import { SigningRecord } from '../../src/validators/signing-record.js';
import { silentLogger } from '../helpers/rpc.js';
import { tempStores } from '../helpers/temp-stores.js';

const stores = tempStores('cairn-dev-snapshots-');
const SLOT = 8n;
const constants: L1RollupConstants = {
  l1StartBlock: 0n,
  l1GenesisTime: 0n,
  slotDuration: 8,
  epochDuration: 4,
  ethereumSlotDuration: 1,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 4,
  rollupManaLimit: 1_000_000,
};
const attester = '0x00000000000000000000000000000000000000aa';
const digest = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;

/** A dev chain of fakes: the L1 at `l1.slot`, the L2 at `l2.block`, and what each part was told. */
async function setup(o: { startBlock?: number; genesisOnDisk?: boolean } = {}) {
  const calls: string[] = [];
  const l1 = { slot: 1, snapshots: 0, saveFails: false };
  /** The L1's slot at genesis, where a reset from disk takes it. */
  const genesisSlot = 1;
  const l2 = {
    block: o.startBlock ?? 0,
    pool: [] as PoolEntry[],
    slots: { sent: -1, pruned: -1, voted: -1 },
  };
  const signingRecord = new SigningRecord(stores.fresh(), 64);
  const attestations = new AttestationPool();
  let reverts = 0;
  // Runs one change at a time, as the chain driver does between passes.
  let queue: Promise<unknown> = Promise.resolve();
  const between = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const snapshots = new DevSnapshots({
    anvil: async (method, params) => {
      calls.push(`${method}${params.length ? ` ${params[0]}` : ''}`);
      if (method === 'evm_snapshot') return `0x${(l1.snapshots++).toString(16)}`;
      return true;
    },
    rollup: {
      latestL1Block: async () => ({ number: BigInt(l1.slot), timestamp: BigInt(l1.slot) * SLOT }) as never,
      pendingCheckpointNumber: async () => (l2.block === 0 ? 0 : 1),
    },
    saveL1: async () => {
      calls.push('save');
      return l1.saveFails ? undefined : 1n;
    },
    resetL1: async () => {
      calls.push('resetToGenesis');
      if (!(o.genesisOnDisk ?? true)) return false;
      l1.slot = genesisSlot;
      return true;
    },
    constants,
    driver: { between },
    archiver: {
      devSnapshot: () => ({ latest: { number: l2.block, hash: 0n } }) as ChainSnapshot,
      genesisSnapshot: () => ({ latest: { number: 0, hash: 0n } }) as ChainSnapshot,
      revertToSnapshot: async (s) => {
        reverts++;
        l2.block = s.latest.number;
        return true;
      },
    },
    chain: {
      get latestBlockNumber() {
        return l2.block;
      },
      get latestCheckpointNumber() {
        return l2.block === 0 ? 0 : 1;
      },
    } as ChainReader,
    txs: {
      poolSnapshot: () => l2.pool,
      restorePool: async (entries) => {
        l2.pool = [...entries];
      },
    },
    sequencer: {
      slotsActedIn: () => ({ ...l2.slots }),
      restoreSlotsActedIn: (s: SlotsActedIn) => {
        l2.slots = { ...s };
      },
    },
    prover: { forgetSentProof: () => calls.push('forgetSentProof') },
    signingRecord,
    attestations,
    logger: silentLogger(),
  });
  // The genesis snapshot is taken first.
  await between(async () => undefined);
  return { snapshots, calls, l1, l2, signingRecord, attestations, reverts: () => reverts };
}

const refusedWith = (re: RegExp) => (err: unknown) =>
  err instanceof NodeError && err.kind === 'refused' && re.test(err.message);

describe('dev snapshots', () => {
  test('ids count from 0; a revert consumes the snapshot and every later one, not earlier ones', async () => {
    const { snapshots, l2 } = await setup();
    l2.block = 1;
    assert.equal(await snapshots.snapshot(), 0);
    l2.block = 2;
    assert.equal(await snapshots.snapshot(), 1);
    l2.block = 3;
    assert.equal(await snapshots.snapshot(), 2);
    l2.block = 9;
    assert.deepEqual(await snapshots.revert(1), { l1Block: 1n, l2Block: 2 });
    await assert.rejects(snapshots.revert(2), refusedWith(/no dev snapshot 0x2/));
    await assert.rejects(snapshots.revert(1), refusedWith(/no dev snapshot 0x1/));
    await snapshots.revert(0);
    assert.equal(l2.block, 1);
    // Ids are not reused.
    assert.equal(await snapshots.snapshot(), 3);
  });

  test('an unknown id is refused before anything is touched', async () => {
    const { snapshots, calls, reverts } = await setup();
    await snapshots.snapshot();
    const before = calls.length;
    await assert.rejects(snapshots.revert(7), refusedWith(/no dev snapshot 0x7/));
    assert.equal(calls.length, before);
    assert.equal(reverts(), 0);
  });

  test('a revert reverts anvil, drops its pending transactions, puts the pool back and saves the L1', async () => {
    const { snapshots, calls, l2 } = await setup();
    const entry = { hash: 5n } as PoolEntry;
    l2.pool = [entry];
    const id = await snapshots.snapshot();
    l2.pool = [];
    await snapshots.revert(id);
    assert.deepEqual(l2.pool, [entry]);
    assert.deepEqual(calls.slice(-4), [
      'evm_revert 0x1',
      'anvil_dropAllTransactions',
      'forgetSentProof',
      'save',
    ]);
  });

  test('slot memory from the snapshot’s slot on is put back: validators can sign again in slots that come again', async () => {
    const { snapshots, l1, l2, signingRecord, attestations } = await setup();
    l1.slot = 5;
    assert.equal(signingRecord.claim(attester, 4, digest(4)), true);
    assert.equal(signingRecord.claim(attester, 5, digest(5)), true);
    l2.slots = { sent: 5, pruned: -1, voted: 5 };
    const id = await snapshots.snapshot();

    // After the snapshot: slots 6 and 7 signed and proposed in, with their attestations pooled.
    for (const slot of [6, 7]) {
      assert.equal(signingRecord.claim(attester, slot, digest(slot)), true);
      attestations.addAttestation({ slot, digest: digest(slot), attester } as never);
    }
    l2.slots = { sent: 7, pruned: 6, voted: 7 };
    l1.slot = 7;
    await snapshots.revert(id);

    assert.deepEqual(l2.slots, { sent: 5, pruned: -1, voted: 5 });
    // Slots 6 and 7 come again with other checkpoints: signing them is no double signing.
    assert.equal(signingRecord.claim(attester, 6, digest(60)), true);
    assert.equal(signingRecord.claim(attester, 7, digest(70)), true);
    assert.equal(attestations.attestations(6).length, 0);
    // What was signed up to the snapshot stays: slashing protection for slots that happened.
    assert.equal(signingRecord.claim(attester, 5, digest(50)), false);
    assert.equal(signingRecord.claim(attester, 4, digest(40)), false);
  });

  test('a failed save of the L1 after a revert is an error', async () => {
    const { snapshots, l1 } = await setup();
    const id = await snapshots.snapshot();
    l1.saveFails = true;
    await assert.rejects(snapshots.revert(id), /could not be saved/);
  });

  test('reset goes back to genesis, consumes every snapshot, and can be done again', async () => {
    const { snapshots, l2, calls } = await setup();
    l2.block = 3;
    await snapshots.snapshot();
    l2.block = 6;
    assert.deepEqual(await snapshots.reset(), { l1Block: 1n, l2Block: 0 });
    assert.equal(l2.block, 0);
    // The genesis snapshot was anvil's 0x0, the user's 0x1; a new genesis snapshot is taken.
    assert.ok(calls.includes('evm_revert 0x0'));
    await assert.rejects(snapshots.revert(0), refusedWith(/no dev snapshot 0x0/));
    l2.block = 4;
    await snapshots.reset();
    assert.equal(l2.block, 0);
    assert.equal(calls.filter((c) => c === 'evm_snapshot').length, 4);
  });

  test('a node that started past genesis resets from the genesis saved on disk', async () => {
    const { snapshots, calls, l1, l2, signingRecord, attestations } = await setup({ startBlock: 5 });
    l1.slot = 9;
    l2.pool = [{ hash: 5n } as PoolEntry];
    assert.equal(signingRecord.claim(attester, 8, digest(8)), true);
    attestations.addAttestation({ slot: 8, digest: digest(8), attester } as never);
    const id = await snapshots.snapshot();
    assert.deepEqual(await snapshots.reset(), { l1Block: 1n, l2Block: 0 });
    assert.equal(l2.block, 0);
    assert.deepEqual(l2.pool, []);
    // L1 went back through its saved genesis, not an anvil snapshot, and was saved after.
    assert.ok(!calls.some((c) => c.startsWith('evm_revert')));
    assert.deepEqual(calls.slice(calls.indexOf('resetToGenesis')), [
      'resetToGenesis',
      'anvil_dropAllTransactions',
      'forgetSentProof',
      'save',
      'evm_snapshot',
    ]);
    // Slots after genesis are another history's: signing in them again is no double signing.
    assert.equal(signingRecord.claim(attester, 8, digest(80)), true);
    assert.equal(attestations.attestations(8).length, 0);
    // Snapshots of the history left are gone; the next reset uses the new genesis snapshot.
    await assert.rejects(snapshots.revert(id), refusedWith(/no dev snapshot 0x0/));
    l2.block = 3;
    await snapshots.reset();
    assert.equal(l2.block, 0);
    assert.equal(calls.at(-5), 'evm_revert 0x1');
  });

  test('a reset with no genesis on disk is refused and changes nothing', async () => {
    const { snapshots, calls, l2, reverts } = await setup({ startBlock: 5, genesisOnDisk: false });
    const id = await snapshots.snapshot();
    await assert.rejects(snapshots.reset(), refusedWith(/no saved genesis/));
    assert.equal(reverts(), 0);
    assert.equal(l2.block, 5);
    assert.ok(!calls.includes('save'));
    // The snapshot taken before still works.
    l2.block = 7;
    await snapshots.revert(id);
    assert.equal(l2.block, 5);
  });
});
