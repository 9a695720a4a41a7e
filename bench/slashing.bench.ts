// Slashing votes: what a vote costs on L1 and what deciding one costs the node. One embedded anvil
// (manual mining) with the rollup and its Slasher (startTestL1: 4 validators, committee of 4;
// rounds of 16 slots, quorum 9). Every vote is cast in its own slot by that slot's proposer: the
// bench warps L1 to the slot's start, mines, sends the vote and mines it (as the slash voter test).
//   - gas (receipts): createAndSignal of payloads of 1, 10, 50 and 128 offenses, one per validator,
//     and of 128 offenses of one validator, each the first vote of its round; signal for an existing
//     payload as the first vote of a round, a later vote, the vote that reaches the quorum, a vote
//     after it, and the first vote for a second payload of a round. With each: calldata bytes and
//     their gas, event data bytes, and the gas of the calls to the rollup (debug_traceTransaction);
//     and a plain vote on a second anvil with 64 validators (BENCH_LARGE_SET; the committee stays 4);
//   - node: SlashVoter.decide for a slot of a round with 5 payloads of 128 offenses, with an
//     OffenseStore (temp LMDB) of 1,000 offenses of the round before (L1 reads included), with a new
//     SlashVoter each time (payload contents not cached: cold) and with one (warm); the same for
//     payloadsForRound; and chooseSlashAction alone on what decide read (1,000 pending, 5 payloads).
// Prints one line per figure: `BENCH slashing.<name> key=value ...`.
//   node --import tsx bench/slashing.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createTestClient, type Hash, type Hex, http, keccak256, toHex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { type L1RollupConstants, slotStart } from '../src/core/time.js';
import type { L1Connection } from '../src/l1/connect.js';
import { RollupClient } from '../src/l1/rollup-client.js';
import {
  SlasherClient,
  slashPayloadAddress,
  slashSignalDigest,
  type ValidatorSlash,
} from '../src/l1/slasher-client.js';
import { openEnvironment, type StoreEnvironment } from '../src/store/environment.js';
import { signDigest } from '../src/validators/committee.js';
import { SlashVoter, type SlashVoterOptions } from '../src/validators/slash-voter.js';
import {
  agreesWith,
  chooseSlashAction,
  toValidatorSlashes,
  type VoteInput,
} from '../src/validators/slash-votes.js';
import { type Offense, OffenseStore, OffenseType } from '../src/validators/slashing.js';
import { startTestL1 } from '../test/helpers/l1.js';
import { check, fmt, log, percentile } from './chain-node.js';

const ROUND = 16;
const QUORUM = 9;
const EXPIRATION_ROUNDS = 2;
/** The Slasher's MAX_PAYLOAD_OFFENSES. */
const MAX_PAYLOAD = 128;
const STORE_OFFENSES = 1000;
const ROUND_PAYLOADS = 5;
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 10);
const WARM_RUNS = Number(process.env.BENCH_WARM_RUNS ?? 30);
const CHOOSE_SECONDS = Number(process.env.BENCH_CHOOSE_SECONDS ?? 3);
/** A run that takes longer than this fails. */
const WATCHDOG_MS = 120_000;

const ETH = 10n ** 18n;
const validatorKeys = (n: number) =>
  Array.from({ length: n }, (_, i) => privateKeyToAccount(keccak256(toHex(`cairn-bench-slashing-${i}`))));
const accounts = validatorKeys(4);
/** A larger validator set, for what the rollup's committee computation costs each vote. */
const bigSet = validatorKeys(Number(process.env.BENCH_LARGE_SET ?? 64));
/** A validator address that looks like one (no long runs of zero bytes, as calldata is priced by byte). */
const address = (label: string, i: number) =>
  keccak256(toHex(`${label}-${i}`))
    .slice(0, 42)
    .toLowerCase();

const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-slashing-'));
const l1s: L1Connection[] = [];
let env: StoreEnvironment | undefined;

const watchdog = setTimeout(() => {
  log(`slashing bench: still running after ${WATCHDOG_MS / 1000} s; stopping`);
  void Promise.allSettled(l1s.map((l1) => l1.close())).finally(() => process.exit(1));
}, WATCHDOG_MS).unref();

/** Runs `round` (one unit of work) for at least `seconds` after a short warm-up; units per second. */
function rate(seconds: number, round: (i: number) => void): number {
  for (let i = 0, until = performance.now() + 300; performance.now() < until; i++) round(i);
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    round(n++);
    elapsed = performance.now() - start;
  } while (elapsed < seconds * 1000);
  return n / (elapsed / 1000);
}

/** Wall times (ms) of `runs` sequential calls. */
async function times(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const msStats = (xs: number[]) =>
  `p50_ms=${fmt(percentile(xs, 0.5))} min_ms=${fmt(Math.min(...xs))} max_ms=${fmt(Math.max(...xs))}`;

interface CallFrame {
  to?: string;
  gasUsed: Hex;
  calls?: CallFrame[];
}

interface VoteGas {
  gas: number;
  calldataBytes: number;
  calldataGas: number;
  /** EIP-7623's floor for this calldata (10 gas per token; a non-zero byte is 4 tokens). */
  floorGas: number;
  eventDataBytes: number;
  /** Gas of the Slasher's calls to the rollup (getCurrentSlot, getProposerAtSlot). */
  rollupGas: number;
}

const gasFields = (g: VoteGas) =>
  `gas=${g.gas} calldata_bytes=${g.calldataBytes} calldata_gas=${g.calldataGas} floor_gas=${g.floorGas} event_data_bytes=${g.eventDataBytes} rollup_calls_gas=${g.rollupGas}`;

/** `n` offenses, one per validator. */
const spread = (label: string, n: number): ValidatorSlash[] =>
  toValidatorSlashes(
    Array.from({ length: n }, (_, i) => ({
      validator: address(label, i),
      amount: ETH,
      offenseType: OffenseType.DUPLICATE_PROPOSAL,
      epochOrSlot: BigInt(1000 + i),
    })),
  );

/** `n` offenses of one validator. */
const single = (label: string, n: number): ValidatorSlash[] =>
  toValidatorSlashes(
    Array.from({ length: n }, (_, i) => ({
      validator: address(label, 0),
      amount: ETH,
      offenseType: OffenseType.DUPLICATE_ATTESTATION,
      epochOrSlot: BigInt(1000 + i),
    })),
  );

/** Starts an L1 with `validators` (under dir/name) and returns what casting votes on it takes. */
async function votingL1(name: string, validators: PrivateKeyAccount[]) {
  const conn = await startTestL1(
    join(dir, name),
    validators.map((a) => a.address),
    validators.map((a) => a.address),
    { slashingRoundSize: ROUND, slashingQuorumSize: QUORUM },
  );
  l1s.push(conn);
  const rollup = new RollupClient(conn);
  const constants: L1RollupConstants = await rollup.constants(2);
  const anvil = createTestClient({ mode: 'anvil', transport: http(conn.rpcUrl) });
  const slasher = new SlasherClient(conn, conn.addresses.slashFactoryAddress!);
  check((await slasher.roundSize()) === ROUND && (await slasher.quorumSize()) === QUORUM, 'Slasher config');
  const rollupAddress = conn.addresses.rollupAddress.toLowerCase();

  let lastSlot = -1;
  /** Warps L1 to the start of `slot` (mining a block there); the slot's proposer. */
  async function enter(slot: number): Promise<PrivateKeyAccount> {
    check(slot > lastSlot, `slot ${slot} is not after ${lastSlot}`);
    lastSlot = slot;
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await anvil.mine({ blocks: 1 });
    const proposer = (await rollup.proposerAtSlot(slot)).toLowerCase();
    const account = validators.find((a) => a.address.toLowerCase() === proposer);
    check(account !== undefined, `slot ${slot}: proposer ${proposer} is none of the bench's validators`);
    return account;
  }

  /** Mines the vote `send` sends and reads its gas. */
  async function mined(slot: number, send: () => Promise<Hash>): Promise<VoteGas> {
    const hash = await send();
    await anvil.mine({ blocks: 1 });
    const receipt = await conn.client.getTransactionReceipt({ hash });
    check(receipt.status === 'success', `vote in slot ${slot} reverted`);
    const tx = await conn.client.getTransaction({ hash });
    const bytes = Buffer.from(tx.input.slice(2), 'hex');
    const zeros = bytes.reduce((n, b) => n + (b === 0 ? 1 : 0), 0);
    const nonZeros = bytes.length - zeros;
    const trace = (await conn.client.request({
      method: 'debug_traceTransaction' as never,
      params: [hash, { tracer: 'callTracer' }] as never,
    })) as CallFrame;
    const rollupGas = (trace.calls ?? [])
      .filter((c) => c.to?.toLowerCase() === rollupAddress)
      .reduce((sum, c) => sum + Number(BigInt(c.gasUsed)), 0);
    return {
      gas: Number(receipt.gasUsed),
      calldataBytes: bytes.length,
      calldataGas: 4 * zeros + 16 * nonZeros,
      floorGas: 21_000 + 10 * (zeros + 4 * nonZeros),
      eventDataBytes: receipt.logs.reduce((n, l) => n + (l.data.length - 2) / 2, 0),
      rollupGas,
    };
  }

  const sign = (proposer: PrivateKeyAccount, slot: number, payload: string) =>
    signDigest(
      proposer,
      slashSignalDigest({ chainId: conn.chainId, slasher: slasher.address }, slot, payload),
    );

  return {
    conn,
    constants,
    slasher,
    enter,
    lastSlot: () => lastSlot,
    async createAndSignal(slot: number, slashes: ValidatorSlash[]): Promise<VoteGas> {
      const proposer = await enter(slot);
      const signature = await sign(proposer, slot, slashPayloadAddress(slashes));
      return mined(slot, () => slasher.createAndSignal(proposer, slashes, signature));
    },
    async signal(slot: number, payload: string): Promise<VoteGas> {
      const proposer = await enter(slot);
      const signature = await sign(proposer, slot, payload);
      return mined(slot, () => slasher.signal(proposer, payload, signature));
    },
    /** eth_estimateGas of rollup.getProposerAtSlot(slot): the committee computation a vote repeats. */
    proposerLookupGas: (slot: number) =>
      conn.client.estimateContractGas({
        address: conn.addresses.rollupAddress,
        abi: [
          {
            type: 'function',
            name: 'getProposerAtSlot',
            stateMutability: 'view',
            inputs: [{ name: 'slot', type: 'uint256' }],
            outputs: [{ name: '', type: 'address' }],
          },
        ],
        functionName: 'getProposerAtSlot',
        args: [BigInt(slot)],
      }),
  };
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const { conn, constants, slasher, enter, createAndSignal, signal, lastSlot, proposerLookupGas } =
    await votingL1('l1', accounts);
  log(`L1 up in ${fmt((performance.now() - benchStarted) / 1000, 1)} s`);

  // ---- votes ------------------------------------------------------------------------------------

  // The very first vote also turns the Slasher's last-vote slot from zero; it is not measured.
  await createAndSignal(ROUND, spread('warm-up', 1));

  // createAndSignal: each in the first slot of a new round (the round's first vote).
  let round = 2;
  const created = new Map<number, VoteGas>();
  const p1 = spread('spread', 1);
  for (const n of [1, 10, 50, 128]) {
    const g = await createAndSignal(round++ * ROUND, n === 1 ? p1 : spread('spread', n));
    created.set(n, g);
    console.log(
      `BENCH slashing.create_and_signal offenses=${n} validators=${n} ${gasFields(g)} gas_per_offense=${Math.round(g.gas / n)}`,
    );
  }
  const g1 = created.get(1)!;
  const g128 = created.get(128)!;
  const one = await createAndSignal(round++ * ROUND, single('single', 128));
  console.log(
    `BENCH slashing.create_and_signal offenses=128 validators=1 ${gasFields(one)} gas_per_offense=${Math.round(one.gas / 128)}`,
  );
  console.log(
    `BENCH slashing.create_and_signal_marginal per_offense_gas=${Math.round((g128.gas - g1.gas) / 127)} per_offense_calldata_bytes=${fmt((g128.calldataBytes - g1.calldataBytes) / 127, 1)} per_offense_event_data_bytes=${fmt((g128.eventDataBytes - g1.eventDataBytes) / 127, 1)} one_validator_per_offense_gas=${Math.round((one.gas - g1.gas) / 127)}`,
  );

  // signal: a payload created as the round's first vote, then plain votes up to and past the quorum.
  const votingRound = round++;
  const q = spread('quorum', 1);
  const qAddress = slashPayloadAddress(q);
  let slot = votingRound * ROUND;
  await createAndSignal(slot++, q);
  const later: VoteGas[] = [];
  for (let votes = 2; votes < QUORUM; votes++) later.push(await signal(slot++, qAddress));
  const atQuorum = await signal(slot++, qAddress);
  check(
    (await slasher.roundWinner(BigInt(votingRound))) === qAddress,
    'the quorum vote made the payload win',
  );
  const afterQuorum = await signal(slot++, qAddress);
  // The first vote for a second payload of the round (the 1-offense payload of round 2).
  const p1Address = slashPayloadAddress(p1);
  const secondPayload = await signal(slot++, p1Address);
  // The first vote of a round, for that existing payload.
  const firstOfRound = await signal(round++ * ROUND, p1Address);
  console.log(`BENCH slashing.signal_first_in_round ${gasFields(firstOfRound)}`);
  const laterGas = later.map((g) => g.gas);
  console.log(
    `BENCH slashing.signal_later ${gasFields(later[0]!)} votes=${later.length} min_gas=${Math.min(...laterGas)} max_gas=${Math.max(...laterGas)}`,
  );
  console.log(`BENCH slashing.signal_reaching_quorum ${gasFields(atQuorum)}`);
  console.log(`BENCH slashing.signal_after_quorum ${gasFields(afterQuorum)}`);
  console.log(`BENCH slashing.signal_second_payload_of_round ${gasFields(secondPayload)}`);
  const lookup = await proposerLookupGas(lastSlot());
  console.log(
    `BENCH slashing.proposer_lookup validators=${accounts.length} committee=${constants.targetCommitteeSize} estimate_gas=${lookup}`,
  );

  // The same plain vote with a larger validator set (the committee stays 4): getProposerAtSlot
  // copies the whole set from storage on every vote.
  {
    const big = await votingL1('l1-big', bigSet);
    const q = spread('big', 1);
    await big.createAndSignal(ROUND, q);
    const later = await big.signal(ROUND + 1, slashPayloadAddress(q));
    const bigLookup = await big.proposerLookupGas(ROUND + 1);
    console.log(
      `BENCH slashing.signal_later_large_set validators=${bigSet.length} committee=${big.constants.targetCommitteeSize} ${gasFields(later)} proposer_lookup_estimate_gas=${bigLookup}`,
    );
  }

  // ---- the node: decide with 1,000 offenses ------------------------------------------------------

  // The store: 1,000 offenses of 63 validators in the 16 slots of the round before the decision's:
  // mostly duplicate proposals/attestations, inactivity (4 epochs) for every fourth validator, and
  // 1 in 20 (50) a checkpoint with too few attestations (uncontroversial).
  const decideRound = round + 1;
  const offenseRound = decideRound - 1;
  const firstSlot = offenseRound * ROUND;
  const offenses: Offense[] = [];
  for (let v = 0; offenses.length < STORE_OFFENSES; v++) {
    const validator = address('offender', v);
    const amount = ETH * BigInt(1 + (v % 5));
    for (let k = 0; k < ROUND && offenses.length < STORE_OFFENSES; k++) {
      if (v % 4 === 0 && k % 4 === 0)
        offenses.push({
          validator,
          amount: ETH / 2n,
          offenseType: OffenseType.INACTIVITY,
          epochOrSlot: BigInt(Math.floor((firstSlot + k) / constants.epochDuration)),
        });
      else
        offenses.push({
          validator,
          amount,
          offenseType:
            offenses.length % 20 === 7
              ? OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS
              : k % 2 === 0
                ? OffenseType.DUPLICATE_PROPOSAL
                : OffenseType.DUPLICATE_ATTESTATION,
          epochOrSlot: BigInt(firstSlot + k),
        });
    }
  }
  env = openEnvironment(dir, 'node');
  const store = new OffenseStore(env, { roundSize: ROUND, epochDuration: constants.epochDuration });
  const storeEnv = env;
  storeEnv.write(() => {
    for (const o of offenses) check(store.add(o), 'a new offense');
  });
  check(store.all().length === STORE_OFFENSES, `${STORE_OFFENSES} offenses stored`);

  // The round's payloads: each carries the 50 uncontroversial offenses and 78 others (a different
  // slice each); the node agrees with all but the last, whose first amount is off by one wei.
  const uncontroversial = offenses.filter(
    (o) => o.offenseType === OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS,
  );
  const others = offenses.filter((o) => o.offenseType !== OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS);
  check(uncontroversial.length === 50, `${uncontroversial.length} uncontroversial offenses`);
  const perPayload = MAX_PAYLOAD - uncontroversial.length;
  slot = decideRound * ROUND;
  for (let i = 0; i < ROUND_PAYLOADS; i++) {
    const slashes = toValidatorSlashes([
      ...uncontroversial,
      ...others.slice(i * perPayload, (i + 1) * perPayload),
    ]);
    if (i === ROUND_PAYLOADS - 1) slashes[0]!.amount += 1n;
    await createAndSignal(slot++, slashes);
  }
  const decideSlot = slot;
  await enter(decideSlot);

  const options: SlashVoterOptions = {
    slasher,
    chainId: conn.chainId,
    roundSize: ROUND,
    quorum: QUORUM,
    epochDuration: constants.epochDuration,
    expirationRounds: EXPIRATION_ROUNDS,
    maxPayloadSize: MAX_PAYLOAD,
    offenses: store,
    logger: pino({ level: 'silent' }),
  };
  const warm = new SlashVoter(options);
  const [existing, pending] = await Promise.all([
    warm.payloadsForRound(BigInt(decideRound)),
    warm.pendingOffenses(BigInt(decideRound)),
  ]);
  check(existing.length === ROUND_PAYLOADS, `${existing.length} payloads in round ${decideRound}`);
  check(pending.length === STORE_OFFENSES, `${pending.length} offenses pending`);
  const action = await warm.decide(decideSlot);
  check(action.kind !== 'none', `decide: ${JSON.stringify(action)}`);
  log(`decide for slot ${decideSlot}: ${action.kind}`);

  const decideCold = await times(COLD_RUNS, () => new SlashVoter(options).decide(decideSlot));
  const decideWarm = await times(WARM_RUNS, () => warm.decide(decideSlot));
  const roundCold = await times(COLD_RUNS, () =>
    new SlashVoter(options).payloadsForRound(BigInt(decideRound)),
  );
  const roundWarm = await times(WARM_RUNS, () => warm.payloadsForRound(BigInt(decideRound)));
  const pendingWarm = await times(WARM_RUNS, () => warm.pendingOffenses(BigInt(decideRound)));
  const storeRead = await times(WARM_RUNS, async () => store.all());
  const l1Read = await times(WARM_RUNS, () => slasher.roundWinner(BigInt(decideRound)));
  const contentRead = await times(COLD_RUNS, () => slasher.payload(existing[0]!.address));
  console.log(
    `BENCH slashing.decide_cold offenses=${STORE_OFFENSES} payloads=${ROUND_PAYLOADS} runs=${COLD_RUNS} ${msStats(decideCold)}`,
  );
  console.log(
    `BENCH slashing.decide_warm offenses=${STORE_OFFENSES} payloads=${ROUND_PAYLOADS} runs=${WARM_RUNS} ${msStats(decideWarm)}`,
  );
  console.log(
    `BENCH slashing.payloads_for_round_cold payloads=${ROUND_PAYLOADS} offenses_each=${MAX_PAYLOAD} runs=${COLD_RUNS} ${msStats(roundCold)}`,
  );
  console.log(
    `BENCH slashing.payloads_for_round_warm payloads=${ROUND_PAYLOADS} runs=${WARM_RUNS} ${msStats(roundWarm)}`,
  );
  console.log(
    `BENCH slashing.decide_parts pending_offenses_warm_p50_ms=${fmt(percentile(pendingWarm, 0.5))} store_all_p50_ms=${fmt(percentile(storeRead, 0.5))} l1_read_p50_ms=${fmt(percentile(l1Read, 0.5))} payload_content_p50_ms=${fmt(percentile(contentRead, 0.5))}`,
  );

  // ---- chooseSlashAction alone, on what decide read ---------------------------------------------

  const input: VoteInput = {
    votingSlot: decideSlot % ROUND,
    roundSize: ROUND,
    quorum: QUORUM,
    maxPayloadSize: MAX_PAYLOAD,
    existing,
    pending,
  };
  check(chooseSlashAction(input).kind === action.kind, 'chooseSlashAction decides as decide did');
  const choosePerS = rate(CHOOSE_SECONDS, () => void chooseSlashAction(input));
  const agreesPerS = rate(
    1,
    (i) => void agreesWith(existing[i % ROUND_PAYLOADS]!.slashes, pending, MAX_PAYLOAD),
  );
  const ownPerS = rate(1, () => void chooseSlashAction({ ...input, existing: [] }));
  const us = (perS: number) => fmt(1e6 / perS, 1);
  console.log(
    `BENCH slashing.choose_slash_action pending=${pending.length} payloads=${existing.length} ops_per_s=${Math.round(choosePerS)} us_each=${us(choosePerS)} agrees_with_us=${us(agreesPerS)} own_payload_only_us=${us(ownPerS)}`,
  );
  log(`slashing bench: ${fmt((performance.now() - benchStarted) / 1000, 1)} s`);
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  log(`slashing bench failed: ${(err as Error).stack ?? err}`);
} finally {
  await env?.close();
  for (const l1 of l1s) await l1.close();
  rmSync(dir, { recursive: true, force: true });
  clearTimeout(watchdog);
}
process.exit(failed ? 1 : 0);
