// The committee side of consensus against the real rollup contract on a test L1: the attestation
// digest is the contract's, signatures recover to their signer, the quorum is the contract's
// rule, and CommitteeView hands back (and caches) the contract's committees and proposers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type Address, createTestClient, type Hex, http, keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { FR_MODULUS } from '../../src/core/field.js';
import { type L1RollupConstants, slotAt, slotStart } from '../../src/core/time.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { artifacts } from '../../src/l1/generated/artifacts.js';
import type { CommitteeL1 } from '../../src/l1/roles.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import {
  ATTESTATION_TYPEHASH,
  attestationDigest,
  BLOCK_PROPOSAL_TYPEHASH,
  blockProposalDigest,
  CommitteeView,
  type Domain,
  quorum,
  signDigest,
  signerOf,
} from '../../src/validators/committee.js';
import { startTestL1 } from '../helpers/l1.js';
import { byAddress, testAccounts } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-committee-'));
// Six validators for a four-member committee: the contract samples (and orders) each epoch's.
const accounts = testAccounts(6, 'committee');
const word = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const field = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });
const u32 = fc.integer({ min: 0, max: 0xffffffff });

/** The rollup's committee reads, counting the calls CommitteeView makes. */
function counting(rollup: CommitteeL1) {
  const calls = { epochCommittee: 0, proposerAtSlot: 0 };
  const wrapper: CommitteeL1 = {
    epochCommittee: (epoch: number) => {
      calls.epochCommittee++;
      return rollup.epochCommittee(epoch);
    },
    proposerAtSlot: (slot: number) => {
      calls.proposerAtSlot++;
      return rollup.proposerAtSlot(slot);
    },
  };
  return { calls, view: new CommitteeView(wrapper) };
}

describe('committee on a test L1', () => {
  let l1: L1Connection;
  let rollup: RollupClient;
  let domain: Domain;
  let constants: L1RollupConstants;

  before(async () => {
    l1 = await startTestL1(
      dir,
      accounts.map((a) => a.address),
    );
    rollup = new RollupClient(l1);
    domain = { chainId: l1.chainId, rollup: l1.addresses.rollupAddress };
    constants = await rollup.constants(2);
  });
  after(async () => {
    await l1?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('attestationDigest is the contract getAttestationDigest (known answers)', async () => {
    const edge: [number, number, bigint, bigint][] = [
      [0, 0, 0n, 0n],
      [1, 1, 1n, 1n],
      [0xffffffff, 0xffffffff, 2n ** 256n - 1n, 2n ** 256n - 1n],
      [Number.MAX_SAFE_INTEGER, 7, FR_MODULUS - 1n, 2n ** 255n],
    ];
    for (const [n, slot, archive, headerHash] of edge) {
      assert.equal(
        attestationDigest(domain, { checkpointNumber: n, slot, archive, headerHash }),
        await rollup.attestationDigest(n, slot, archive, headerHash),
        `checkpoint ${n}, slot ${slot}`,
      );
    }
    await fc.assert(
      fc.asyncProperty(u32, u32, word, word, async (checkpointNumber, slot, archive, headerHash) => {
        const ours = attestationDigest(domain, { checkpointNumber, slot, archive, headerHash });
        assert.equal(ours, await rollup.attestationDigest(checkpointNumber, slot, archive, headerHash));
      }),
      { numRuns: 30 },
    );
  });

  test('the digests are bound to the deployment and to every field', () => {
    const p = { checkpointNumber: 3, slot: 9, archive: 0x1234n, headerHash: 0x5678n };
    const base = attestationDigest(domain, p);
    assert.match(base, /^0x[0-9a-f]{64}$/);
    assert.notEqual(attestationDigest({ ...domain, chainId: domain.chainId + 1 }, p), base);
    assert.notEqual(attestationDigest({ ...domain, rollup: `0x${'22'.repeat(20)}` }, p), base);
    for (const changed of [
      { ...p, checkpointNumber: 4 },
      { ...p, slot: 10 },
      { ...p, archive: 0x1235n },
      { ...p, headerHash: 0x5679n },
    ])
      assert.notEqual(attestationDigest(domain, changed), base);
    // A block proposal over the same numbers signs another digest (its own type hash).
    assert.notEqual(ATTESTATION_TYPEHASH, BLOCK_PROPOSAL_TYPEHASH);
    const b = { slot: 9, indexWithinCheckpoint: 3, blockHash: 0x1234n, archive: 0x5678n };
    const block = blockProposalDigest(domain, b);
    assert.notEqual(block, base);
    for (const changed of [
      { ...b, slot: 10 },
      { ...b, indexWithinCheckpoint: 4 },
      { ...b, blockHash: 0x1235n },
      { ...b, archive: 0x5679n },
    ])
      assert.notEqual(blockProposalDigest(domain, changed), block);
    assert.notEqual(blockProposalDigest({ ...domain, chainId: 1 }, b), block);
  });

  test('signDigest then signerOf recovers the signer (lowercase)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: accounts.length - 1 }), field, field, async (i, a, h) => {
        const account = accounts[i]!;
        const digest = attestationDigest(domain, { checkpointNumber: 1, slot: 2, archive: a, headerHash: h });
        const signature = await signDigest(account, digest);
        assert.match(signature, /^0x[0-9a-f]{130}$/);
        assert.equal(await signerOf(digest, signature), account.address.toLowerCase());
        // An upper-case hex signature is the same signature.
        assert.equal(
          await signerOf(digest, `0x${signature.slice(2).toUpperCase()}`),
          account.address.toLowerCase(),
        );
      }),
      { numRuns: 20 },
    );
  });

  test('a signature of another digest recovers someone else', async () => {
    const account = accounts[0]!;
    const d1 = keccak256(toHex('one'));
    const d2 = keccak256(toHex('two'));
    const signer = await signerOf(d2, await signDigest(account, d1));
    assert.notEqual(signer, account.address.toLowerCase());
  });

  test('signerOf: undefined for malformed or wrong-length signatures', async () => {
    const digest = keccak256(toHex('digest'));
    const good = await signDigest(accounts[1]!, digest);
    const malformed = [
      '',
      '0x',
      good.slice(2), // no 0x
      `0X${good.slice(2)}`,
      good.slice(0, -2), // 64 bytes
      `${good}00`, // 66 bytes
      `${good.slice(0, -1)}`, // odd length
      `${good.slice(0, 10)}zz${good.slice(12)}`, // not hex
      ` ${good}`,
      `${good}\n`,
      `0x${'00'.repeat(65)}`, // r = s = 0
      `0x${'ff'.repeat(65)}`, // r, s above the curve order; v = 255
      `0x${'11'.repeat(64)}05`, // v neither 0/1 nor 27/28
    ];
    for (const signature of malformed)
      assert.equal(await signerOf(digest, signature), undefined, JSON.stringify(signature));
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 140 }), async (s) => {
        fc.pre(!/^0x[0-9a-fA-F]{130}$/.test(s));
        assert.equal(await signerOf(digest, s), undefined);
      }),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200 }), async (bytes) => {
        fc.pre(bytes !== 65);
        const hex = `0x${good
          .slice(2)
          .repeat(4)
          .slice(0, bytes * 2)}`;
        assert.equal(await signerOf(digest, hex), undefined);
      }),
      { numRuns: 100 },
    );
  });

  test('quorum(n) is the least count the contract accepts: signed * 3 > n * 2 (n = 1..50)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 50 }), (n, signed) => {
        fc.pre(signed <= n);
        assert.equal(signed >= quorum(n), signed * 3 > n * 2);
      }),
      { numRuns: 2000 },
    );
    for (let n = 1; n <= 50; n++) {
      const q = quorum(n);
      assert.ok(q <= n, `quorum(${n}) = ${q} is more than the committee`);
      assert.ok(q * 3 > n * 2, `quorum(${n}) = ${q} is not enough`);
      assert.ok((q - 1) * 3 <= n * 2, `quorum(${n}) = ${q} is more than needed`);
    }
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(quorum), [1, 2, 3, 3, 4, 5, 5]);
  });

  test('the contract accepts a proposal with quorum(4) signatures, not with one fewer', async () => {
    const anvil = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(1, constants) });
    await anvil.mine({ blocks: 1 });
    const latest = await rollup.latestL1Block();
    const slot = slotAt(latest.timestamp, constants);
    assert.equal(slot, 1);
    const committee = await rollup.epochCommittee(0);
    assert.equal(committee.length, 4);
    const proposer = await rollup.proposerAtSlot(slot);
    const args = { checkpointNumber: 1, slot, archive: 0xa1n, headerHash: 0xb2n };
    const digest = await rollup.attestationDigest(args.checkpointNumber, slot, args.archive, args.headerHash);
    // The proposer first, then the others: the first k members of that order sign.
    const order = [proposer, ...committee.filter((m) => m !== proposer)];
    const signatures = new Map<Address, Hex>();
    for (const m of committee) signatures.set(m, await signDigest(byAddress(accounts, m), digest));
    const inHash = await rollup.inboxRoot(1);
    const propose = (attestations: Hex[]) =>
      l1.client.simulateContract({
        account: byAddress(accounts, proposer),
        address: l1.addresses.rollupAddress,
        abi: artifacts.Rollup.abi,
        functionName: 'propose',
        args: [
          {
            checkpointNumber: 1n,
            slot: BigInt(slot),
            archive: toHex(args.archive, { size: 32 }),
            headerHash: toHex(args.headerHash, { size: 32 }),
            totalManaUsed: 0n,
            outHash: toHex(0n, { size: 32 }),
            inHash: toHex(inHash, { size: 32 }),
          },
          attestations,
          '0x',
        ],
      });
    const simulate = (k: number) =>
      propose(committee.map((m) => (order.indexOf(m) < k ? signatures.get(m)! : '0x')));
    const q = quorum(committee.length);
    await simulate(q);
    await simulate(committee.length);
    await assert.rejects(simulate(q - 1), /InsufficientAttestations/);
    // Signatures out of committee order are refused.
    await assert.rejects(
      propose([...committee].reverse().map((m) => signatures.get(m)!)),
      /InvalidAttestation/,
    );
  });

  test('CommitteeView: the contract committee (lowercase, in its order) and proposers', async () => {
    const { view } = counting(rollup);
    const all = accounts.map((a) => a.address.toLowerCase());
    let sampled = false;
    for (let epoch = 0; epoch < 6; epoch++) {
      const onChain = await rollup.epochCommittee(epoch);
      const committee = await view.committee(epoch);
      assert.deepEqual(
        committee,
        onChain.map((a) => a.toLowerCase()),
      );
      assert.equal(committee.length, 4);
      assert.ok(
        committee.every((m) => /^0x[0-9a-f]{40}$/.test(m) && all.includes(m)),
        'committee.every((m) => /^0x[0-9a-f]{40}$/.test(m) && all.includes(m))',
      );
      if (committee.join() !== all.slice(0, 4).join()) sampled = true;
      for (let slot = epoch * constants.epochDuration; slot < (epoch + 1) * constants.epochDuration; slot++) {
        const proposer = await view.proposer(slot);
        assert.equal(proposer, (await rollup.proposerAtSlot(slot)).toLowerCase());
        assert.ok(committee.includes(proposer!), `proposer of slot ${slot} is on the committee`);
      }
    }
    // Six validators, four seats: some epoch's committee is not the first four in deployment order.
    assert.ok(sampled, 'sampled');
  });

  test('CommitteeView caches: one RollupClient call per epoch and per slot', async () => {
    const { view, calls } = counting(rollup);
    const first = await view.committee(2);
    const again = await view.committee(2);
    assert.deepEqual(again, first);
    assert.equal(calls.epochCommittee, 1);
    await view.committee(3);
    assert.equal(calls.epochCommittee, 2);
    const p = await view.proposer(9);
    assert.equal(await view.proposer(9), p);
    assert.equal(await view.proposer(9), p);
    assert.equal(calls.proposerAtSlot, 1);
    await view.proposer(10);
    assert.equal(calls.proposerAtSlot, 2);
    assert.equal(calls.epochCommittee, 2);
  });

  test('CommitteeView: no committee (zero proposer) is undefined, cached too; the cache is bounded', async () => {
    const zero = `0x${'0'.repeat(40)}` as Address;
    const someone = privateKeyToAccount(generatePrivateKey()).address;
    const { view, calls } = counting({
      epochCommittee: async (epoch) => (epoch === 0 ? [] : [someone]),
      proposerAtSlot: async (slot) => (slot < 4 ? zero : someone),
    });
    assert.equal(await view.proposer(1), undefined);
    assert.equal(await view.proposer(1), undefined);
    assert.equal(calls.proposerAtSlot, 1);
    assert.deepEqual(await view.committee(0), []);
    assert.deepEqual(await view.committee(0), []);
    assert.equal(calls.epochCommittee, 1);
    assert.equal(await view.proposer(5), someone.toLowerCase());
    // Past 256 entries the oldest goes: asking for it again reads L1 again.
    for (let e = 1; e <= 256; e++) await view.committee(e);
    assert.equal(calls.epochCommittee, 257);
    await view.committee(256);
    assert.equal(calls.epochCommittee, 257);
    await view.committee(0);
    assert.equal(calls.epochCommittee, 258);
  });
});
