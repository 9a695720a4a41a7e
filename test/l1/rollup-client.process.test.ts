import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestClient, type Hex, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { GENESIS_ARCHIVE_ROOT } from '../../src/core/block-header.js';
import { slotAt } from '../../src/core/time.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { startTestL1 } from '../helpers/l1.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-rollup-client-'));
const validators = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()));
const _quiet = { info: () => {}, warn: () => {} };

describe('rollup client', () => {
  let l1: L1Connection;
  let rollup: RollupClient;
  before(async () => {
    l1 = await startTestL1(
      dir,
      validators.map((v) => v.address),
      validators.map((v) => v.address),
    );
    rollup = new RollupClient(l1);
  });
  after(async () => {
    await l1.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('reads the constants and the genesis state', async () => {
    const c = await rollup.constants(2);
    assert.equal(c.slotDuration, 8);
    assert.equal(c.epochDuration, 4);
    assert.equal(c.ethereumSlotDuration, 2);
    assert.equal(c.targetCommitteeSize, 4);
    assert.equal(c.rollupManaLimit, 200_000_000);
    assert.ok(c.l1GenesisTime > 0n);
    assert.equal(await rollup.pendingCheckpointNumber(), 0);
    assert.equal(await rollup.provenCheckpointNumber(), 0);
    assert.equal((await rollup.checkpoint(0)).archive, GENESIS_ARCHIVE_ROOT);
    const committee = await rollup.epochCommittee(0);
    assert.deepEqual([...committee].sort(), validators.map((v) => v.address).sort());
  });

  test('proposes an attested checkpoint, then reads its event and body back', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    const c = await rollup.constants(2);
    await test.setNextBlockTimestamp({ timestamp: c.l1GenesisTime + BigInt(c.slotDuration) + 1n });
    await test.mine({ blocks: 1 });
    const now = (await l1.client.getBlock()).timestamp;
    const slot = slotAt(now + 1n, c); // the next block's slot
    assert.equal(slot, 1);
    const committee = await rollup.epochCommittee(0);
    const proposer = await rollup.proposerAtSlot(slot);
    const archive = 0x1234n;
    const headerHash = 0x5678n;
    const digest = await rollup.attestationDigest(1, slot, archive, headerHash);
    const attestations: Hex[] = await Promise.all(
      committee.map((member) =>
        validators.find((v) => v.address === member)!.signMessage({ message: { raw: digest } }),
      ),
    );
    const publisher = validators.find((v) => v.address === proposer)!;
    const body = new TextEncoder().encode('{"a checkpoint":"body"}');
    const hash = await rollup.propose(publisher, {
      checkpointNumber: 1,
      slot,
      archive,
      headerHash,
      totalManaUsed: 7n,
      outHash: 0n,
      inHash: await rollup.inboxRoot(1),
      attestations,
      body,
    });
    await test.mine({ blocks: 1 });
    const receipt = await rollup.waitFor(hash);
    assert.equal(receipt.status, 'success');
    assert.equal(await rollup.pendingCheckpointNumber(), 1);
    const [event] = await rollup.checkpointProposedEvents(0n, receipt.blockNumber);
    assert.deepEqual(
      {
        n: event!.checkpointNumber,
        archive: event!.archive,
        headerHash: event!.headerHash,
        slot: event!.slot,
      },
      { n: 1, archive, headerHash, slot },
    );
    assert.equal(event!.txHash, hash);
    const carried = await rollup.proposal(hash);
    assert.deepEqual(carried.body, Buffer.from(body));
    assert.deepEqual(carried.attestations, attestations);
    assert.deepEqual(await rollup.l1ToL2Messages(1), []);
    const stored = await rollup.checkpoint(1);
    assert.equal(stored.totalManaUsed, 7n);
    assert.equal(stored.l1BlockNumber, receipt.blockNumber);
  });
});
