// The slash voter against a real rollup and Slasher (anvil, manual mining): a proposer creates a
// payload from its offenses and votes for it, the next proposers vote for the same payload until
// it wins the round, and the next round no longer puts its offenses forward.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createTestClient, http, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type L1RollupConstants, slotStart } from '../../src/core/time.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { SlasherClient, slashPayloadAddress } from '../../src/l1/slasher-client.js';
import type { Validator } from '../../src/validators/keystore.js';
import { SlashVoter } from '../../src/validators/slash-voter.js';
import { type Offense, OffenseStore, OffenseType } from '../../src/validators/slashing.js';
import { startTestL1 } from '../helpers/l1.js';
import { tempStores } from '../helpers/temp-stores.js';

const ROUND = 4;
const QUORUM = 3;
const accounts = [0, 1, 2, 3].map((i) => privateKeyToAccount(keccak256(toHex(`cairn-slash-voter-${i}`))));
const validators: Validator[] = accounts.map((a) => ({ attester: a, publisher: a }));
const culprit = '0x00000000000000000000000000000000000000c1';
const other = '0x00000000000000000000000000000000000000c2';

describe('SlashVoter on a real Slasher', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-slash-voter-'));
  const stores = tempStores('cairn-slash-voter-stores-');
  let l1: L1Connection;
  let rollup: RollupClient;
  let constants: L1RollupConstants;
  let slasher: SlasherClient;
  let offenses: OffenseStore;
  let voter: SlashVoter;
  let anvil: ReturnType<typeof createTestClient>;

  const offense = (validator: string, offenseType: OffenseType, epochOrSlot: bigint): Offense => ({
    validator,
    amount: 10n ** 18n,
    offenseType,
    epochOrSlot,
  });

  async function enter(slot: number): Promise<Validator> {
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await anvil.mine({ blocks: 1 });
    const proposer = (await rollup.proposerAtSlot(slot)).toLowerCase();
    return validators.find((v) => v.attester.address.toLowerCase() === proposer)!;
  }

  /** Votes as the proposer of `slot` (in the block after the slot's first) and mines the vote. */
  async function voteIn(slot: number): Promise<string | undefined> {
    const proposer = await enter(slot);
    const hash = await voter.vote(slot, proposer);
    if (hash === undefined) return undefined;
    await anvil.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(hash)).status, 'success', `vote in slot ${slot}`);
    return hash;
  }

  before(async () => {
    l1 = await startTestL1(
      dir,
      accounts.map((a) => a.address),
      accounts.map((a) => a.address),
      { slashingRoundSize: ROUND, slashingQuorumSize: QUORUM },
    );
    rollup = new RollupClient(l1);
    constants = await rollup.constants(2);
    anvil = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    slasher = new SlasherClient(l1, l1.addresses.slashFactoryAddress!);
    offenses = new OffenseStore(stores.fresh(), { roundSize: ROUND, epochDuration: constants.epochDuration });
    voter = new SlashVoter({
      slasher,
      chainId: l1.chainId,
      roundSize: ROUND,
      quorum: QUORUM,
      epochDuration: constants.epochDuration,
      expirationRounds: 2,
      maxPayloadSize: 50,
      offenses,
      logger: pino({ level: 'silent' }),
    });
  });
  after(async () => {
    await l1?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the test L1 has a Slasher with the round size and quorum this suite uses', async () => {
    assert.equal(await slasher.roundSize(), ROUND);
    assert.equal(await slasher.quorumSize(), QUORUM);
  });

  test('no offenses: nothing to vote for, and the round has no payloads', async () => {
    assert.equal(await voteIn(4), undefined);
    assert.deepEqual(await voter.payloadsForRound(1n), []);
  });

  test('an offense is not voted on in its own round', async () => {
    offenses.add(offense(culprit, OffenseType.DUPLICATE_PROPOSAL, 5n)); // slot 5: round 1
    assert.deepEqual(await voter.pendingOffenses(1n), []);
    assert.equal((await voter.decide(6)).kind, 'none');
  });

  test('the first proposer of the next round creates the payload and votes; the next ones vote for it', async () => {
    offenses.add(offense(other, OffenseType.INACTIVITY, 1n)); // epoch 1 → slot 4: round 1
    const expected = slashPayloadAddress([
      {
        validator: culprit,
        amount: 10n ** 18n,
        offenses: [{ offenseType: OffenseType.DUPLICATE_PROPOSAL, epochOrSlot: 5n }],
      },
      {
        validator: other,
        amount: 10n ** 18n,
        offenses: [{ offenseType: OffenseType.INACTIVITY, epochOrSlot: 1n }],
      },
    ]);
    assert.notEqual(await voteIn(8), undefined, 'slot 8 votes');
    let round = await voter.payloadsForRound(2n);
    assert.equal(round.length, 1);
    assert.equal(round[0]!.address, expected);
    assert.equal(round[0]!.votes, 1n);
    assert.equal(round[0]!.round, 2n);
    assert.ok(round[0]!.timestamp >= slotStart(8, constants), `created at ${round[0]!.timestamp}`);
    assert.deepEqual(
      round[0]!.slashes.map((s) => s.validator),
      [culprit, other],
    );
    await voteIn(9);
    await voteIn(10);
    round = await voter.payloadsForRound(2n);
    assert.equal(round.length, 1, 'the later proposers agree and vote for the same payload');
    assert.equal(round[0]!.votes, 3n);
    assert.equal(await slasher.roundWinner(2n), expected);
    // With the quorum reached, the round's last proposer does nothing.
    assert.equal(await voteIn(11), undefined);
  });

  test('offenses of a won payload are not put forward again; newer ones are', async () => {
    assert.deepEqual(await voter.pendingOffenses(3n), []);
    offenses.add(offense(culprit, OffenseType.DUPLICATE_ATTESTATION, 9n)); // round 2
    const pending = await voter.pendingOffenses(3n);
    assert.deepEqual(
      pending.map((o) => o.offenseType),
      [OffenseType.DUPLICATE_ATTESTATION],
    );
    await voteIn(12);
    const round = await voter.payloadsForRound(3n);
    assert.equal(round.length, 1);
    assert.deepEqual(round[0]!.slashes, [
      {
        validator: culprit,
        amount: 10n ** 18n,
        offenses: [{ offenseType: OffenseType.DUPLICATE_ATTESTATION, epochOrSlot: 9n }],
      },
    ]);
  });

  test('a proposer holding more offenses votes for its own, bigger payload', async () => {
    // The round's payload (one offense, one vote) scores 2 × 1e18; this node's own payload, with
    // two more offenses of round 2, scores 3 × 1e18.
    offenses.add(offense(other, OffenseType.DUPLICATE_PROPOSAL, 10n));
    offenses.add(offense(other, OffenseType.DUPLICATE_ATTESTATION, 10n));
    await voteIn(13);
    const round = await voter.payloadsForRound(3n);
    assert.equal(round.length, 2);
    assert.deepEqual(
      round.map((p) => p.votes),
      [1n, 1n],
    );
    assert.deepEqual(
      round[1]!.slashes.map((s) => [s.validator, s.amount, s.offenses.length]),
      [
        [culprit, 10n ** 18n, 1],
        [other, 2n * 10n ** 18n, 2],
      ],
    );
  });

  test('offenses past their voting rounds expire', async () => {
    // Round 2's offenses may be voted on in rounds 3..5 (expirationRounds 2).
    assert.ok((await voter.pendingOffenses(5n)).length > 0, 'still pending in round 5');
    assert.deepEqual(await voter.pendingOffenses(6n), []);
  });

  test('a vote in a slot that is not the voter’s is refused by L1 and not sent', async () => {
    const proposer = await enter(16);
    const notProposer = validators.find((v) => v !== proposer)!;
    offenses.add(offense(other, OffenseType.DUPLICATE_PROPOSAL, 14n)); // round 3 → votable in 4
    await assert.rejects(voter.vote(16, notProposer), /NotProposer/);
    assert.deepEqual(await voter.payloadsForRound(4n), []);
  });
});
