// Contract tests of the rollup's Slasher (src/l1/contracts/Slasher.sol) and its TypeScript wrapper
// (src/l1/slasher-client.ts) on a real anvil: no automatic mining, every block's timestamp set
// explicitly, so slots and rounds are deterministic.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
  toFunctionSelector,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { GENESIS_ARCHIVE_ROOT } from '../../src/core/block-header.js';
import type { L1ContractAddresses } from '../../src/l1/addresses.js';
import { type AnvilInstance, startAnvil } from '../../src/l1/anvil.js';
import type { L1Connection } from '../../src/l1/connect.js';
import {
  DEFAULT_DEPLOYER_PRIVATE_KEY,
  type DeployL1Params,
  defaultSlashingQuorum,
  deployL1Contracts,
  expectedL1ContractAddresses,
  l1Chain,
} from '../../src/l1/deploy.js';
import { artifacts } from '../../src/l1/generated/artifacts.js';
import {
  SlasherClient,
  slashPayloadAddress,
  slashSignalDigest,
  type ValidatorSlash,
} from '../../src/l1/slasher-client.js';
import { type Call, contractCalls, events, revertOf } from '../helpers/contract-calls.js';
import { startTestL1 } from '../helpers/l1.js';

const CHAIN_ID = 31337;
const SLOT_DURATION = 12n;
const EPOCH_DURATION = 4n;
const DEPLOYER = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);
// anvil's funded dev accounts 1 and 2.
const PROVER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const OTHER = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const VALIDATORS = [0, 1, 2, 3, 4].map((i) =>
  privateKeyToAccount(keccak256(toHex(`cairn-slasher-test-validator-${i}`))),
);
const GAS = 10_000_000n;
const MAX_UINT256 = 2n ** 256n - 1n;

const { Rollup, Slasher } = artifacts;

// ---------------------------------------------------------------- payloads

/** A 20-byte address from a number (lowercase). */
function addr(n: bigint): string {
  return `0x${n.toString(16).padStart(40, '0')}`;
}

function slash(validator: string, amount: bigint, offenses: [number, bigint][]): ValidatorSlash {
  return {
    validator,
    amount,
    offenses: offenses.map(([offenseType, epochOrSlot]) => ({ offenseType, epochOrSlot })),
  };
}

/** The ABI form of a payload, for direct contract calls. */
function abiSlashes(slashes: readonly ValidatorSlash[]) {
  return slashes.map((s) => ({
    validator: getAddress(s.validator),
    amount: s.amount,
    offenses: s.offenses.map((o) => ({ offenseType: BigInt(o.offenseType), epochOrSlot: o.epochOrSlot })),
  }));
}

const SORTED_VALIDATORS = VALIDATORS.map((v) => v.address.toLowerCase()).sort();

const PAYLOAD_ONE = [slash(addr(0x10n), 1n, [[0, 0n]])];
const PAYLOAD_MANY = [
  slash(addr(1n), 10n ** 18n, [
    [0, 5n],
    [0, 2n ** 64n],
    [3, 1n],
    [255, MAX_UINT256],
  ]),
  slash(SORTED_VALIDATORS[0]!, MAX_UINT256, [[1, 2n ** 200n + 7n]]),
  slash(SORTED_VALIDATORS[3]!, 42n, [
    [2, 0n],
    [2, 1n],
  ]),
  slash(addr(2n ** 160n - 1n), 3n, [[7, MAX_UINT256 - 1n]]),
];
const PAYLOAD_VALIDATORS = SORTED_VALIDATORS.map((v, i) => slash(v, BigInt(i + 1) * 1000n, [[i, BigInt(i)]]));

// ---------------------------------------------------------------- harness

let anvil: AnvilInstance;
let dataDir: string;
let pub: PublicClient;
let testClient: ReturnType<typeof createTestClient>;
let wallet: ReturnType<typeof createWalletClient>;
const { read, latestTimestamp, mineTx, send, simulate, expectRevert } = contractCalls(
  () => ({ publicClient: pub, testClient, walletClient: wallet }),
  { gas: GAS },
);

interface Fixture {
  addresses: L1ContractAddresses;
  /** The deployer's nonce before the deployment. */
  startNonce: bigint;
  genesisTime: bigint;
  slasher: Address;
  client: SlasherClient;
}

async function deployFixture(overrides: Partial<DeployL1Params> = {}): Promise<Fixture> {
  const startNonce = BigInt(
    await pub.getTransactionCount({ address: DEPLOYER.address, blockTag: 'pending' }),
  );
  const addresses = await deployL1Contracts(
    { rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, mine: () => testClient.mine({ blocks: 1 }) },
    {
      slotDuration: SLOT_DURATION,
      epochDuration: EPOCH_DURATION,
      proofSubmissionEpochs: 1,
      targetCommitteeSize: 4,
      manaTarget: 1000n,
      rollupVersion: 3n,
      genesisArchiveRoot: GENESIS_ARCHIVE_ROOT,
      proverAddress: PROVER.address,
      validators: VALIDATORS.map((v) => v.address),
      slashingRoundSize: 4,
      slashingQuorumSize: 3,
      ...overrides,
    },
  );
  const genesisTime = (await read(addresses.rollupAddress, Rollup.abi, 'getGenesisTime')) as bigint;
  const slasher = (await read(addresses.rollupAddress, Rollup.abi, 'getSlasher')) as Address;
  const l1: L1Connection = {
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    embedded: true,
    addresses,
    client: pub,
    ensureDurable: async () => true,
    whenDurable: async () => {},
    close: async () => {},
  };
  return { addresses, startNonce, genesisTime, slasher, client: new SlasherClient(l1, slasher) };
}

/** Mines an (empty) block inside `slot`, so that both the latest and the pending block are in it. */
async function enterSlot(fx: Fixture, slot: bigint): Promise<void> {
  const start = fx.genesisTime + slot * SLOT_DURATION;
  const latest = await latestTimestamp();
  const ts = start > latest ? start : latest + 1n;
  assert.ok(ts < start + SLOT_DURATION - 4n, `slot ${slot} has (almost) passed`);
  await testClient.setNextBlockTimestamp({ timestamp: ts });
  await testClient.mine({ blocks: 1 });
  assert.equal(await read(fx.addresses.rollupAddress, Rollup.abi, 'getCurrentSlot'), slot);
}

function createCall(fx: Fixture, slashes: readonly ValidatorSlash[], account = OTHER): Call {
  return {
    account,
    address: fx.slasher,
    abi: Slasher.abi,
    functionName: 'createSlashPayload',
    args: [abiSlashes(slashes)],
  };
}

/**
 * Asserts that a SlasherClient write rejects (its gas estimate reverts) with `errorName` without
 * sending a transaction (the sender's nonce is unchanged); returns the error's args.
 */
async function expectRejected(
  sender: PrivateKeyAccount,
  write: () => Promise<unknown>,
  errorName: string,
): Promise<readonly unknown[]> {
  const nonce = await pub.getTransactionCount({ address: sender.address, blockTag: 'pending' });
  let error: unknown;
  try {
    await write();
  } catch (err) {
    error = err;
  }
  assert.ok(error !== undefined, `the write succeeded (expected ${errorName})`);
  const r = revertOf(error);
  assert.equal(r.errorName, errorName, r.message);
  assert.equal(
    await pub.getTransactionCount({ address: sender.address, blockTag: 'pending' }),
    nonce,
    'a rejected vote must not be sent',
  );
  return r.args;
}

async function proposerOf(fx: Fixture, slot: bigint): Promise<PrivateKeyAccount> {
  const proposer = (await read(fx.addresses.rollupAddress, Rollup.abi, 'getProposerAtSlot', [
    slot,
  ])) as Address;
  const account = VALIDATORS.find((v) => v.address === proposer);
  assert.ok(account, `the proposer of slot ${slot} (${proposer}) is not a test validator`);
  return account;
}

async function nonProposerOf(fx: Fixture, slot: bigint): Promise<PrivateKeyAccount> {
  const proposer = await proposerOf(fx, slot);
  const other = VALIDATORS.find((v) => v.address !== proposer.address);
  assert.ok(other, 'there must be a validator that is not the proposer');
  return other;
}

function signVote(fx: Fixture, signer: PrivateKeyAccount, slot: bigint, payload: string): Promise<Hex> {
  const digest = slashSignalDigest({ chainId: CHAIN_ID, slasher: fx.slasher }, Number(slot), payload);
  return signer.signMessage({ message: { raw: digest } });
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-l1-slasher-'));
  anvil = await startAnvil({ stateFile: join(dataDir, 'l1', 'state.json'), chainId: CHAIN_ID });
  const transport = http(anvil.rpcUrl);
  const chain = l1Chain(CHAIN_ID, anvil.rpcUrl);
  pub = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  testClient = createTestClient({ chain, transport, mode: 'anvil' });
  wallet = createWalletClient({ chain, transport });
});

after(async () => {
  await anvil?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- tests

describe('Slasher: deployment and known answers', () => {
  let fx: Fixture;
  before(async () => {
    fx = await deployFixture();
  });

  it('is created by the rollup at the address expectedL1ContractAddresses predicts', async () => {
    const expected = expectedL1ContractAddresses(DEPLOYER.address, fx.startNonce);
    assert.equal(expected.rollupAddress, fx.addresses.rollupAddress);
    assert.equal(fx.slasher, expected.slashFactoryAddress);
    assert.equal(fx.addresses.slashFactoryAddress, fx.slasher);
    assert.equal(fx.slasher, getContractAddress({ from: fx.addresses.rollupAddress, nonce: 1n }));
    assert.equal(await read(fx.slasher, Slasher.abi, 'getRollup'), fx.addresses.rollupAddress);
    const code = await pub.getCode({ address: fx.slasher });
    assert.ok(code !== undefined && code.length > 2, 'the slasher has code');
  });

  it('is where a fresh embedded L1 (startTestL1) expects it, with the default round and quorum', async () => {
    const l1 = await startTestL1(
      join(dataDir, 'fresh'),
      VALIDATORS.map((v) => v.address),
    );
    try {
      const slasher = (await l1.client.readContract({
        address: l1.addresses.rollupAddress,
        abi: Rollup.abi,
        functionName: 'getSlasher',
      })) as Address;
      const expected = expectedL1ContractAddresses(DEPLOYER.address);
      assert.equal(l1.addresses.rollupAddress, expected.rollupAddress);
      assert.equal(slasher, expected.slashFactoryAddress);
      assert.equal(l1.addresses.slashFactoryAddress, slasher);
      const client = new SlasherClient(l1, slasher);
      assert.equal(await client.roundSize(), 64);
      assert.equal(await client.quorumSize(), 33);
      assert.equal(defaultSlashingQuorum(64), 33n);
    } finally {
      await l1.close();
    }
  });

  it('has the round and quorum sizes of the deployment (default quorum: roundSize / 2 + 1)', async () => {
    assert.equal(await fx.client.roundSize(), 4);
    assert.equal(await fx.client.quorumSize(), 3);
    const odd = await deployFixture({ slashingRoundSize: 7, slashingQuorumSize: 7 });
    assert.equal(await odd.client.roundSize(), 7);
    assert.equal(await odd.client.quorumSize(), 7);
    const defaulted = await deployFixture({ slashingRoundSize: 10, slashingQuorumSize: undefined });
    assert.equal(await defaulted.client.roundSize(), 10);
    assert.equal(await defaulted.client.quorumSize(), 6);
    assert.equal(defaultSlashingQuorum(10), 6n);
    assert.equal(defaultSlashingQuorum(7), 4n);
  });

  it('rejects a quorum of at most half the round, above the round, or an empty round', async () => {
    // The rollup's constructor bubbles up Slasher__InvalidConfig(reason), which the Rollup ABI
    // does not know: look for its selector and reason in the message.
    const selector = toFunctionSelector('Slasher__InvalidConfig(string)');
    for (const [roundSize, quorum, reason] of [
      [4, 2, 'quorumSize'],
      [4, 5, 'quorumSize'],
      [0, 1, 'roundSize'],
    ] as const) {
      await assert.rejects(
        deployFixture({ slashingRoundSize: roundSize, slashingQuorumSize: quorum }),
        (err: Error) => err.message.includes(selector) && err.message.includes(reason),
        `roundSize ${roundSize}, quorum ${quorum} must not deploy`,
      );
    }
  });

  it('computes payload addresses as getPayloadAddress does', async () => {
    const payloads: ValidatorSlash[][] = [
      PAYLOAD_ONE,
      PAYLOAD_MANY,
      PAYLOAD_VALIDATORS,
      [slash(addr(0n), 0n, [])],
      [slash(addr(5n), MAX_UINT256, [[255, MAX_UINT256]])],
    ];
    const seen = new Set<string>();
    for (const [i, p] of payloads.entries()) {
      const local = slashPayloadAddress(p);
      assert.match(local, /^0x[0-9a-f]{40}$/, `payload ${i}: lowercase address`);
      assert.equal(local, await fx.client.payloadAddressOnL1(p), `payload ${i}`);
      seen.add(local);
    }
    assert.equal(seen.size, payloads.length, 'different payloads have different addresses');
    // The address depends on the content, not on how the validators are spelt.
    const checksummed = PAYLOAD_MANY.map((s) => ({ ...s, validator: getAddress(s.validator) }));
    assert.equal(slashPayloadAddress(checksummed), slashPayloadAddress(PAYLOAD_MANY));
    // ...and on every field.
    const bumped = PAYLOAD_MANY.map((s, i) =>
      i === 3 ? { ...s, offenses: [{ offenseType: 7, epochOrSlot: MAX_UINT256 }] } : s,
    );
    assert.notEqual(slashPayloadAddress(bumped), slashPayloadAddress(PAYLOAD_MANY));
    assert.equal(slashPayloadAddress(bumped), await fx.client.payloadAddressOnL1(bumped));
  });

  it('computes vote digests as getSignalDigest does', async () => {
    const payloads = [slashPayloadAddress(PAYLOAD_ONE), slashPayloadAddress(PAYLOAD_MANY), addr(0n)];
    const digests = new Set<string>();
    for (const slot of [0, 1, 5, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      for (const payload of payloads) {
        const local = slashSignalDigest({ chainId: CHAIN_ID, slasher: fx.slasher }, slot, payload);
        assert.equal(local, await fx.client.signalDigestOnL1(slot, payload), `slot ${slot}, ${payload}`);
        digests.add(local);
      }
    }
    assert.equal(digests.size, 15, 'slot and payload both change the digest');
    const d = slashSignalDigest({ chainId: CHAIN_ID, slasher: fx.slasher }, 1, payloads[0]!);
    assert.notEqual(slashSignalDigest({ chainId: 1, slasher: fx.slasher }, 1, payloads[0]!), d);
    assert.notEqual(slashSignalDigest({ chainId: CHAIN_ID, slasher: addr(1n) }, 1, payloads[0]!), d);
  });
});

describe('Slasher: payloads', () => {
  let fx: Fixture;
  before(async () => {
    fx = await deployFixture();
  });

  const v = (n: bigint) => addr(0x1000n + n);

  it('rejects an empty payload', async () => {
    await expectRevert(createCall(fx, []), 'Slasher__EmptyPayload');
  });

  it('rejects validators that are not strictly ascending (including duplicates)', async () => {
    const descending = [slash(v(2n), 1n, [[0, 1n]]), slash(v(1n), 1n, [[0, 1n]])];
    assert.deepEqual(await expectRevert(createCall(fx, descending), 'Slasher__ValidatorsNotAscending'), [1n]);
    const duplicate = [slash(v(1n), 1n, [[0, 1n]]), slash(v(1n), 2n, [[1, 1n]])];
    assert.deepEqual(await expectRevert(createCall(fx, duplicate), 'Slasher__ValidatorsNotAscending'), [1n]);
    const laterDuplicate = [
      slash(v(1n), 1n, [[0, 1n]]),
      slash(v(2n), 1n, [[0, 1n]]),
      slash(v(3n), 1n, [[0, 1n]]),
      slash(v(3n), 1n, [[0, 2n]]),
    ];
    assert.deepEqual(await expectRevert(createCall(fx, laterDuplicate), 'Slasher__ValidatorsNotAscending'), [
      3n,
    ]);
  });

  it('rejects a zero amount and a validator without offenses', async () => {
    const zero = [slash(v(1n), 1n, [[0, 1n]]), slash(v(2n), 0n, [[0, 1n]])];
    assert.deepEqual(await expectRevert(createCall(fx, zero), 'Slasher__ZeroAmount'), [1n]);
    assert.deepEqual(
      await expectRevert(createCall(fx, [slash(v(1n), 0n, [[0, 1n]])]), 'Slasher__ZeroAmount'),
      [0n],
    );
    const none = [slash(v(1n), 1n, [[0, 1n]]), slash(v(2n), 5n, [])];
    assert.deepEqual(await expectRevert(createCall(fx, none), 'Slasher__NoOffenses'), [1n]);
  });

  it('rejects offenses not strictly ascending by (type, epochOrSlot), and types above 255', async () => {
    // [name, offenses of the second validator, index of the offense rejected]
    const cases: [string, [number, bigint][], bigint][] = [
      [
        'same type, earlier epoch',
        [
          [1, 5n],
          [1, 4n],
        ],
        1n,
      ],
      [
        'duplicate',
        [
          [1, 5n],
          [1, 5n],
        ],
        1n,
      ],
      [
        'lower type, later epoch',
        [
          [2, 1n],
          [1, 9n],
        ],
        1n,
      ],
      [
        'duplicate after others',
        [
          [0, 0n],
          [0, 1n],
          [3, 2n],
          [3, 2n],
        ],
        3n,
      ],
    ];
    for (const [name, offenses, index] of cases) {
      const payload = [slash(v(0n), 1n, [[0, 0n]]), slash(v(1n), 1n, offenses)];
      assert.deepEqual(
        await expectRevert(createCall(fx, payload), 'Slasher__OffensesNotAscending'),
        [1n, index],
        name,
      );
    }
    // Offense types stop at 255, whatever the order.
    const badTypes: [string, [number, bigint][], bigint][] = [
      ['type 256', [[256, 1n]], 0n],
      [
        'type 256 after a valid one',
        [
          [255, 1n],
          [256, 0n],
        ],
        1n,
      ],
    ];
    for (const [name, offenses, index] of badTypes) {
      const payload = [slash(v(0n), 1n, [[0, 0n]]), slash(v(1n), 1n, offenses)];
      assert.deepEqual(
        await expectRevert(createCall(fx, payload), 'Slasher__InvalidOffenseType'),
        [1n, index, 256n],
        name,
      );
    }
    // Ascending by type first: a higher type with an earlier epoch is fine, and so is type 255.
    const ok = [
      slash(v(1n), 1n, [
        [1, 9n],
        [2, 1n],
        [2, 2n],
        [255, 0n],
      ]),
    ];
    assert.equal(await simulate(createCall(fx, ok)), getAddress(slashPayloadAddress(ok)));
  });

  it('accepts at most 128 offenses in total', async () => {
    const offenses = (type: number, n: number): [number, bigint][] =>
      Array.from({ length: n }, (_, i): [number, bigint] => [type, BigInt(i)]);
    const max = [slash(v(1n), 1n, offenses(0, 64)), slash(v(2n), 1n, offenses(1, 64))];
    assert.equal(await simulate(createCall(fx, max)), getAddress(slashPayloadAddress(max)));
    const tooMany = [slash(v(1n), 1n, offenses(0, 64)), slash(v(2n), 1n, offenses(1, 65))];
    assert.deepEqual(await expectRevert(createCall(fx, tooMany), 'Slasher__PayloadTooLarge'), [129n, 128n]);
    const oneValidator = [slash(v(1n), 1n, offenses(4, 129))];
    assert.deepEqual(await expectRevert(createCall(fx, oneValidator), 'Slasher__PayloadTooLarge'), [
      129n,
      128n,
    ]);
  });

  it('creates a payload once: same address, one SlashPayloadCreated, creation time unchanged', async () => {
    const address = slashPayloadAddress(PAYLOAD_MANY);
    assert.equal(await fx.client.payload(address), undefined);
    assert.equal(await simulate(createCall(fx, PAYLOAD_MANY)), getAddress(address));
    const first = await send(createCall(fx, PAYLOAD_MANY));
    const created = events(first, Slasher.abi, 'SlashPayloadCreated');
    assert.equal(created.length, 1);
    assert.equal(created[0]!.args.payload, getAddress(address));
    const createdAt = (await pub.getBlock({ blockNumber: first.blockNumber })).timestamp;

    assert.equal(await simulate(createCall(fx, PAYLOAD_MANY, DEPLOYER)), getAddress(address));
    const second = await send(createCall(fx, PAYLOAD_MANY, DEPLOYER));
    assert.ok(second.blockNumber > first.blockNumber, 'the second creation is in a later block');
    assert.equal(events(second, Slasher.abi, 'SlashPayloadCreated').length, 0);
    const all = await pub.getContractEvents({
      address: fx.slasher,
      abi: Slasher.abi,
      eventName: 'SlashPayloadCreated',
      fromBlock: 0n,
      toBlock: 'latest',
    });
    assert.equal(all.length, 1);
    const creation = (await read(fx.slasher, Slasher.abi, 'getPayloadCreation', [
      address,
    ])) as readonly bigint[];
    assert.equal(creation[0], createdAt);
    assert.equal(creation[1], first.blockNumber, 'the creation block is recorded');
    assert.equal((await fx.client.payload(address))?.timestamp, createdAt);
  });

  it('returns the content and creation time of a payload, undefined for an unknown one', async () => {
    const receipt = await send(createCall(fx, PAYLOAD_VALIDATORS));
    const timestamp = (await pub.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
    const address = slashPayloadAddress(PAYLOAD_VALIDATORS);
    assert.deepEqual(await fx.client.payload(address), { address, timestamp, slashes: PAYLOAD_VALIDATORS });
    // Any spelling of the address finds it; validators come back lowercase.
    const many = await fx.client.payload(getAddress(slashPayloadAddress(PAYLOAD_MANY)));
    assert.ok(many, 'the payload created before is found');
    assert.equal(many.address, slashPayloadAddress(PAYLOAD_MANY));
    assert.deepEqual(many.slashes, PAYLOAD_MANY);
    for (const s of many.slashes) assert.equal(s.validator, s.validator.toLowerCase(), 'lowercase validator');
    assert.equal(await fx.client.payload(slashPayloadAddress(PAYLOAD_ONE)), undefined);
    assert.equal(await fx.client.payload(addr(0n)), undefined);
  });
});

describe('Slasher: votes', () => {
  // Round size 4, quorum 3: round 0 = slots 0-3, round 1 = slots 4-7.
  let fx: Fixture;
  const P1 = PAYLOAD_ONE;
  const P2 = PAYLOAD_VALIDATORS;
  const p1 = slashPayloadAddress(P1);
  const p2 = slashPayloadAddress(P2);
  before(async () => {
    fx = await deployFixture();
  });

  /** The proposer's vote for `payload` in `slot` (the current slot), sent by `sender` and mined. */
  async function vote(slot: bigint, payload: string, sender: PrivateKeyAccount): Promise<TransactionReceipt> {
    const signature = await signVote(fx, await proposerOf(fx, slot), slot, payload);
    const hash = await fx.client.signal(sender, payload, signature);
    return mineTx(hash, `vote in slot ${slot}`);
  }

  it('starts with no votes and no winner', async () => {
    assert.deepEqual(await fx.client.roundPayloads(0n), []);
    assert.equal(await fx.client.roundWinner(0n), undefined);
    assert.equal(await read(fx.slasher, Slasher.abi, 'getCurrentRound'), 0n);
  });

  it('rejects a vote for an unknown payload', async () => {
    await enterSlot(fx, 1n);
    const signature = await signVote(fx, await proposerOf(fx, 1n), 1n, p2);
    const args = await expectRejected(
      OTHER,
      () => fx.client.signal(OTHER, p2, signature),
      'Slasher__UnknownPayload',
    );
    assert.deepEqual(args, [getAddress(p2)]);
  });

  it("accepts only the current slot's proposer's signature", async () => {
    const proposer = await proposerOf(fx, 1n);
    const other = await nonProposerOf(fx, 1n);
    const wrongSigner = await signVote(fx, other, 1n, p1);
    const args = await expectRejected(
      OTHER,
      () => fx.client.createAndSignal(OTHER, P1, wrongSigner),
      'Slasher__NotProposer',
    );
    assert.deepEqual(args, [1n, proposer.address, other.address]);
    // The proposer's signature, but for another slot or another payload.
    const wrongSlot = await signVote(fx, proposer, 2n, p1);
    await expectRejected(
      OTHER,
      () => fx.client.createAndSignal(OTHER, P1, wrongSlot),
      'Slasher__NotProposer',
    );
    const wrongPayload = await signVote(fx, proposer, 1n, p2);
    await expectRejected(
      OTHER,
      () => fx.client.createAndSignal(OTHER, P1, wrongPayload),
      'Slasher__NotProposer',
    );
    await expectRejected(OTHER, () => fx.client.createAndSignal(OTHER, P1, '0x'), 'Slasher__NotProposer');
    // The reverted createAndSignal created nothing.
    assert.equal(await fx.client.payload(p1), undefined);
  });

  it('creates and votes in one transaction sent by any funded account', async () => {
    const proposer = await proposerOf(fx, 1n);
    const signature = await signVote(fx, proposer, 1n, p1);
    const hash = await fx.client.createAndSignal(OTHER, P1, signature);
    const receipt = await mineTx(hash, 'createAndSignal');
    assert.equal(receipt.from, OTHER.address.toLowerCase());
    assert.equal(events(receipt, Slasher.abi, 'SlashPayloadCreated').length, 1);
    const cast = events(receipt, Slasher.abi, 'SignalCast');
    assert.equal(cast.length, 1);
    assert.deepEqual(
      { ...cast[0]!.args },
      { payload: getAddress(p1), round: 0n, signaler: proposer.address },
    );
    assert.equal(events(receipt, Slasher.abi, 'PayloadSubmittable').length, 0);
    assert.deepEqual(await fx.client.roundPayloads(0n), [{ address: p1, votes: 1n }]);
    assert.equal((await fx.client.payload(p1))?.slashes.length, 1);
  });

  it('takes one vote per slot', async () => {
    const proposer = await proposerOf(fx, 1n);
    const again = await signVote(fx, proposer, 1n, p1);
    const args = await expectRejected(
      DEPLOYER,
      () => fx.client.signal(DEPLOYER, p1, again),
      'Slasher__AlreadySignalled',
    );
    assert.deepEqual(args, [1n]);
    const forP2 = await signVote(fx, proposer, 1n, p2);
    await expectRejected(
      DEPLOYER,
      () => fx.client.createAndSignal(DEPLOYER, P2, forP2),
      'Slasher__AlreadySignalled',
    );
    assert.equal(await fx.client.payload(p2), undefined);
    assert.deepEqual(await fx.client.roundPayloads(0n), [{ address: p1, votes: 1n }]);
  });

  it('counts votes per payload in the order of their first vote', async () => {
    await enterSlot(fx, 2n);
    await send(createCall(fx, P2, PROVER));
    const receipt = await vote(2n, p2, DEPLOYER);
    assert.equal(events(receipt, Slasher.abi, 'SignalCast')[0]!.args.round, 0n);
    assert.deepEqual(await fx.client.roundPayloads(0n), [
      { address: p1, votes: 1n },
      { address: p2, votes: 1n },
    ]);
    await enterSlot(fx, 3n);
    // A signature that was good in slot 2 is not good in slot 3.
    const stale = await signVote(fx, await proposerOf(fx, 2n), 2n, p2);
    await expectRejected(OTHER, () => fx.client.signal(OTHER, p2, stale), 'Slasher__NotProposer');
    const r3 = await vote(3n, p1, PROVER);
    assert.equal(events(r3, Slasher.abi, 'PayloadSubmittable').length, 0);
    assert.deepEqual(await fx.client.roundPayloads(0n), [
      { address: p1, votes: 2n },
      { address: p2, votes: 1n },
    ]);
    assert.equal(await read(fx.slasher, Slasher.abi, 'getPayloadSignals', [0n, p1]), 2n);
    // Two votes of three: no winner.
    assert.equal(await fx.client.roundWinner(0n), undefined);
  });

  it('starts each round at zero and names the first payload to reach the quorum, once', async () => {
    await enterSlot(fx, 4n);
    assert.equal(await read(fx.slasher, Slasher.abi, 'getCurrentRound'), 1n);
    assert.deepEqual(await fx.client.roundPayloads(1n), []);
    const r4 = await vote(4n, p2, OTHER);
    assert.equal(events(r4, Slasher.abi, 'SignalCast')[0]!.args.round, 1n);
    assert.deepEqual(await fx.client.roundPayloads(1n), [{ address: p2, votes: 1n }]);
    // Round 0 keeps its votes.
    assert.deepEqual(await fx.client.roundPayloads(0n), [
      { address: p1, votes: 2n },
      { address: p2, votes: 1n },
    ]);

    await enterSlot(fx, 5n);
    const r5 = await vote(5n, p2, OTHER);
    assert.equal(events(r5, Slasher.abi, 'PayloadSubmittable').length, 0);
    assert.equal(await fx.client.roundWinner(1n), undefined);

    await enterSlot(fx, 6n);
    const r6 = await vote(6n, p2, DEPLOYER);
    const submittable = events(r6, Slasher.abi, 'PayloadSubmittable');
    assert.equal(submittable.length, 1);
    assert.deepEqual({ ...submittable[0]!.args }, { payload: getAddress(p2), round: 1n });
    assert.equal(await fx.client.roundWinner(1n), p2);
    assert.equal(await fx.client.roundWinner(0n), undefined);

    // Later votes are counted but do not announce the winner again.
    await enterSlot(fx, 7n);
    const r7 = await vote(7n, p2, OTHER);
    assert.equal(events(r7, Slasher.abi, 'SignalCast').length, 1);
    assert.equal(events(r7, Slasher.abi, 'PayloadSubmittable').length, 0);
    assert.deepEqual(await fx.client.roundPayloads(1n), [{ address: p2, votes: 4n }]);
    assert.equal(await fx.client.roundWinner(1n), p2);
    const all = await pub.getContractEvents({
      address: fx.slasher,
      abi: Slasher.abi,
      eventName: 'PayloadSubmittable',
      fromBlock: 0n,
      toBlock: 'latest',
    });
    assert.equal(all.length, 1);

    // Round 2 starts from zero again.
    await enterSlot(fx, 8n);
    await vote(8n, p1, OTHER);
    assert.deepEqual(await fx.client.roundPayloads(2n), [{ address: p1, votes: 1n }]);
    assert.equal(await fx.client.roundWinner(2n), undefined);
  });

  it('rejects a vote whose slot has passed (the signature is for the earlier slot)', async () => {
    // Skip slot 9 entirely: its proposer's signature is useless in slot 10.
    await enterSlot(fx, 10n);
    const late = await signVote(fx, await proposerOf(fx, 9n), 9n, p1);
    await expectRejected(OTHER, () => fx.client.signal(OTHER, p1, late), 'Slasher__NotProposer');
    await vote(10n, p1, OTHER);
    assert.deepEqual(await fx.client.roundPayloads(2n), [{ address: p1, votes: 2n }]);
  });
});

describe('Slasher: no proposer', () => {
  for (const [name, overrides] of [
    ['no validators', { validators: [] }],
    ['a committee size of 0', { targetCommitteeSize: 0 }],
  ] as const) {
    it(`rejects votes when the rollup has ${name}`, async () => {
      const fx = await deployFixture(overrides);
      await send(createCall(fx, PAYLOAD_ONE));
      const payload = slashPayloadAddress(PAYLOAD_ONE);
      await enterSlot(fx, 1n);
      assert.equal(
        await read(fx.addresses.rollupAddress, Rollup.abi, 'getProposerAtSlot', [1n]),
        '0x0000000000000000000000000000000000000000',
      );
      const signature = await signVote(fx, VALIDATORS[0]!, 1n, payload);
      const args = await expectRejected(
        OTHER,
        () => fx.client.signal(OTHER, payload, signature),
        'Slasher__NoProposer',
      );
      assert.deepEqual(args, [1n]);
      await expectRejected(
        OTHER,
        () => fx.client.createAndSignal(OTHER, PAYLOAD_MANY, signature),
        'Slasher__NoProposer',
      );
      assert.deepEqual(await fx.client.roundPayloads(0n), []);
      assert.equal(await fx.client.payload(slashPayloadAddress(PAYLOAD_MANY)), undefined);
    });
  }
});
