// Contract tests of the rollup's L1 side on a real anvil (no automatic mining; every block's
// timestamp is set explicitly, so slots and epochs are deterministic).
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
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  hexToBytes,
  http,
  keccak256,
  type PrivateKeyAccount,
  type PublicClient,
  parseAbi,
  type TransactionReceipt,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  checkpointHeaderHash,
  emptyCheckpointHeader,
  GENESIS_ARCHIVE_ROOT,
  GENESIS_CHECKPOINT_HEADER_HASH,
} from '../../src/core/block-header.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { sha256ToField } from '../../src/core/hash/sha256.js';
import { l2ToL1MessageLeaf } from '../../src/core/out-hash.js';
import type { L1ContractAddresses } from '../../src/l1/addresses.js';
import { type AnvilInstance, startAnvil } from '../../src/l1/anvil.js';
import {
  DEFAULT_DEPLOYER_PRIVATE_KEY,
  type DeployL1Params,
  deployL1Contracts,
  l1Chain,
} from '../../src/l1/deploy.js';
import { artifacts } from '../../src/l1/generated/artifacts.js';
import { type Call, contractCalls, events } from '../helpers/contract-calls.js';

const CHAIN_ID = 31337;
const SLOT_DURATION = 12n;
const EPOCH_DURATION = 4n;
const VERSION = 7n;
const MANA_TARGET = 1000n;
const DEPLOYER = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);
const PROVER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const OTHER = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const VALIDATORS = [0, 1, 2, 3, 4].map((i) =>
  privateKeyToAccount(keccak256(toHex(`cairn-test-validator-${i}`))),
);
const OUTSIDER = privateKeyToAccount(keccak256(toHex('cairn-test-outsider')));
const GAS = 5_000_000n;

const { Rollup, Inbox, Outbox, Registry, FeeJuice, FeeJuicePortal } = artifacts;

// ---------------------------------------------------------------- TypeScript references

function hex32(v: bigint): Hex {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

function node(left: bigint, right: bigint): bigint {
  return sha256ToField([left, right]);
}

function zeroRoot(height: number): bigint {
  let z = 0n;
  for (let i = 0; i < height; i++) z = node(z, z);
  return z;
}

/** Balanced sha256ToField tree of `height` over `leaves` padded with zeros. */
function balancedRoot(leaves: readonly bigint[], height: number): bigint {
  let level = [...leaves];
  let zero = 0n;
  for (let h = 0; h < height; h++) {
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(node(level[i]!, level[i + 1] ?? zero));
    level = next;
    zero = node(zero, zero);
  }
  return level[0] ?? zero;
}

/** Sibling path (leaf level first) of `index` in the balanced tree of `height` over `leaves`. */
function balancedPath(leaves: readonly bigint[], height: number, index: number): bigint[] {
  const path: bigint[] = [];
  let level = [...leaves];
  let zero = 0n;
  let i = index;
  for (let h = 0; h < height; h++) {
    path.push(level[i ^ 1] ?? zero);
    const next: bigint[] = [];
    for (let j = 0; j < level.length; j += 2) next.push(node(level[j]!, level[j + 1] ?? zero));
    level = next;
    zero = node(zero, zero);
    i >>= 1;
  }
  return path;
}

function l1ToL2Leaf(m: {
  sender: Address;
  actor: bigint;
  version: bigint;
  content: bigint;
  secretHash: bigint;
  index: bigint;
}): bigint {
  return sha256ToField([
    BigInt(m.sender),
    BigInt(CHAIN_ID),
    m.actor,
    m.version,
    m.content,
    m.secretHash,
    m.index,
  ]);
}

/** The node's definition of the leaf (src/core/out-hash.ts), which the Outbox must agree with. */
function l2ToL1Leaf(m: { sender: bigint; version: bigint; recipient: Address; content: bigint }): bigint {
  return l2ToL1MessageLeaf({
    sender: m.sender,
    rollupVersion: m.version,
    recipient: m.recipient,
    chainId: BigInt(CHAIN_ID),
    content: m.content,
  });
}

function fieldFrom(label: string): bigint {
  return BigInt(keccak256(toHex(label))) % FR_MODULUS;
}

// ---------------------------------------------------------------- harness

let anvil: AnvilInstance;
let dataDir: string;
let pub: PublicClient;
let testClient: ReturnType<typeof createTestClient>;
let wallet: ReturnType<typeof createWalletClient>;
const { read, latestTimestamp, send, simulate, expectRevert } = contractCalls(
  () => ({ publicClient: pub, testClient, walletClient: wallet }),
  { gas: GAS },
);

interface Fixture {
  addresses: L1ContractAddresses;
  genesisTime: bigint;
}

async function deployFixture(overrides: Partial<DeployL1Params> = {}): Promise<Fixture> {
  const addresses = await deployL1Contracts(
    { rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, mine: () => testClient.mine({ blocks: 1 }) },
    {
      slotDuration: SLOT_DURATION,
      epochDuration: EPOCH_DURATION,
      proofSubmissionEpochs: 1,
      targetCommitteeSize: 4,
      manaTarget: MANA_TARGET,
      provingCostPerMana: 3n,
      rollupVersion: VERSION,
      genesisArchiveRoot: GENESIS_ARCHIVE_ROOT,
      proverAddress: PROVER.address,
      validators: VALIDATORS.map((v) => v.address),
      ...overrides,
    },
  );
  const genesisTime = (await read(addresses.rollupAddress, Rollup.abi, 'getGenesisTime')) as bigint;
  return { addresses, genesisTime };
}

/** A timestamp inside `slot` that is after the latest block. */
async function timeInSlot(fx: Fixture, slot: bigint): Promise<bigint> {
  const start = fx.genesisTime + slot * SLOT_DURATION;
  const latest = await latestTimestamp();
  const ts = start > latest ? start : latest + 1n;
  assert.ok(ts < start + SLOT_DURATION, `slot ${slot} has already passed`);
  return ts;
}

interface ProposeOptions {
  slot: bigint;
  checkpointNumber?: bigint;
  archive?: bigint;
  totalManaUsed?: bigint;
  outHash?: bigint;
  inHash?: bigint;
  /** Committee indices that sign (default: all). */
  signers?: readonly number[];
  /** Replaces attestations after signing. */
  tamper?: (attestations: Hex[], committee: Address[]) => void;
  /** The checkpoint body carried in calldata (default empty). */
  body?: Hex;
}

async function buildPropose(fx: Fixture, o: ProposeOptions): Promise<Call> {
  const rollup = fx.addresses.rollupAddress;
  const pending = (await read(rollup, Rollup.abi, 'getPendingCheckpointNumber')) as bigint;
  const n = o.checkpointNumber ?? pending + 1n;
  const inHash = o.inHash ?? ((await read(fx.addresses.inboxAddress, Inbox.abi, 'getRoot', [n])) as Hex);
  const outHash = o.outHash ?? 0n;
  const totalManaUsed = o.totalManaUsed ?? 0n;
  const archive = o.archive ?? fieldFrom(`archive-${rollup}-${n}-${o.slot}`);
  const lastArchive = BigInt((await read(rollup, Rollup.abi, 'archiveAt', [n - 1n])) as Hex);
  const headerHash = checkpointHeaderHash({
    ...emptyCheckpointHeader(),
    lastArchiveRoot: lastArchive,
    inHash: BigInt(inHash),
    epochOutHash: outHash,
    slotNumber: Number(o.slot),
    timestamp: fx.genesisTime + o.slot * SLOT_DURATION,
    totalManaUsed,
  });
  const committee = (await read(rollup, Rollup.abi, 'getEpochCommittee', [
    o.slot / EPOCH_DURATION,
  ])) as Address[];
  const digest = (await read(rollup, Rollup.abi, 'getAttestationDigest', [
    n,
    o.slot,
    hex32(archive),
    hex32(headerHash),
  ])) as Hex;
  const signers = o.signers ?? committee.map((_, i) => i);
  const attestations: Hex[] = [];
  for (let i = 0; i < committee.length; i++) {
    const member = VALIDATORS.find((v) => v.address === committee[i]);
    assert.ok(member, `unknown committee member ${committee[i]}`);
    attestations.push(signers.includes(i) ? await member.signMessage({ message: { raw: digest } }) : '0x');
  }
  o.tamper?.(attestations, committee);
  return {
    account: DEPLOYER,
    address: rollup,
    abi: Rollup.abi,
    functionName: 'propose',
    args: [
      {
        checkpointNumber: n,
        slot: o.slot,
        archive: hex32(archive),
        headerHash: hex32(headerHash),
        totalManaUsed,
        outHash: hex32(outHash),
        inHash: typeof inHash === 'string' ? inHash : hex32(inHash),
      },
      attestations,
      o.body ?? '0x',
    ],
  };
}

async function propose(fx: Fixture, o: ProposeOptions): Promise<TransactionReceipt> {
  const call = await buildPropose(fx, o);
  return send(call, await timeInSlot(fx, o.slot));
}

function proofCall(
  fx: Fixture,
  epoch: bigint,
  from: bigint,
  to: bigint,
  outHash: bigint,
  account = PROVER,
): Call {
  return {
    account,
    address: fx.addresses.rollupAddress,
    abi: Rollup.abi,
    functionName: 'submitEpochProof',
    args: [epoch, from, to, hex32(outHash), '0xdeadbeef'],
  };
}

async function committeeOf(fx: Fixture, slot: bigint): Promise<Address[]> {
  return read(fx.addresses.rollupAddress, Rollup.abi, 'getEpochCommittee', [slot / EPOCH_DURATION]);
}

async function proposerIndexOf(fx: Fixture, slot: bigint): Promise<number> {
  const committee = await committeeOf(fx, slot);
  const proposer = (await read(fx.addresses.rollupAddress, Rollup.abi, 'getProposerAtSlot', [
    slot,
  ])) as Address;
  const i = committee.indexOf(proposer);
  assert.ok(i >= 0);
  return i;
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-l1-contracts-'));
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

describe('Rollup: genesis, time and committee', () => {
  let fx: Fixture;
  before(async () => {
    fx = await deployFixture();
  });

  it('starts at checkpoint 0 with the genesis archive and the all-zero header hash', async () => {
    const rollup = fx.addresses.rollupAddress;
    assert.equal(await read(rollup, Rollup.abi, 'getPendingCheckpointNumber'), 0n);
    assert.equal(await read(rollup, Rollup.abi, 'getProvenCheckpointNumber'), 0n);
    const genesis = await read(rollup, Rollup.abi, 'getCheckpoint', [0n]);
    assert.equal(BigInt(genesis.archive), GENESIS_ARCHIVE_ROOT);
    assert.equal(BigInt(genesis.headerHash), GENESIS_CHECKPOINT_HEADER_HASH);
    assert.equal(genesis.slot, 0n);
    assert.equal(BigInt(await read(rollup, Rollup.abi, 'archiveAt', [0n])), GENESIS_ARCHIVE_ROOT);
    assert.equal(await read(rollup, Rollup.abi, 'archiveAt', [1n]), hex32(0n));
    await expectRevert(
      { account: DEPLOYER, address: rollup, abi: Rollup.abi, functionName: 'getCheckpoint', args: [1n] },
      'Rollup__CheckpointNotFound',
    );
    assert.equal(await read(rollup, Rollup.abi, 'getVersion'), VERSION);
    assert.equal(await read(rollup, Rollup.abi, 'getManaTarget'), MANA_TARGET);
    assert.equal(await read(rollup, Rollup.abi, 'getManaLimit'), 2n * MANA_TARGET);
    assert.equal(await read(rollup, Rollup.abi, 'getProvingCostPerMana'), 3n);
    assert.equal(await read(rollup, Rollup.abi, 'getInbox'), fx.addresses.inboxAddress);
    assert.equal(await read(rollup, Rollup.abi, 'getOutbox'), fx.addresses.outboxAddress);
    assert.equal(await read(rollup, Rollup.abi, 'getProver'), PROVER.address);
  });

  it('is wired: registry, inbox and outbox point at the rollup', async () => {
    const a = fx.addresses;
    assert.equal(await read(a.registryAddress, Registry.abi, 'getCanonicalRollup'), a.rollupAddress);
    assert.equal(await read(a.registryAddress, Registry.abi, 'getRollup', [VERSION]), a.rollupAddress);
    assert.equal(await read(a.inboxAddress, Inbox.abi, 'rollup'), a.rollupAddress);
    assert.equal(await read(a.outboxAddress, Outbox.abi, 'rollup'), a.rollupAddress);
    assert.equal(await read(a.feeJuiceAddress, FeeJuice.abi, 'balanceOf', [DEPLOYER.address]), 10n ** 24n);
    await expectRevert(
      {
        account: DEPLOYER,
        address: a.inboxAddress,
        abi: Inbox.abi,
        functionName: 'setRollup',
        args: [OTHER.address],
      },
      'Inbox__RollupAlreadySet',
    );
    await expectRevert(
      { account: DEPLOYER, address: a.inboxAddress, abi: Inbox.abi, functionName: 'consume', args: [1n] },
      'Inbox__Unauthorized',
    );
  });

  it('derives slot and epoch from the L1 timestamp', async () => {
    const rollup = fx.addresses.rollupAddress;
    const g = fx.genesisTime;
    assert.equal(await read(rollup, Rollup.abi, 'getSlotAt', [g + 11n]), 0n);
    assert.equal(await read(rollup, Rollup.abi, 'getSlotAt', [g + 12n]), 1n);
    assert.equal(await read(rollup, Rollup.abi, 'getSlotAt', [g + 12n * 9n + 5n]), 9n);
    assert.equal(await read(rollup, Rollup.abi, 'getEpochAt', [g + 12n * 9n]), 2n);
    assert.equal(await read(rollup, Rollup.abi, 'getTimestampForSlot', [5n]), g + 60n);
    const ts = await timeInSlot(fx, 6n);
    await testClient.setNextBlockTimestamp({ timestamp: ts });
    await testClient.mine({ blocks: 1 });
    assert.equal(await read(rollup, Rollup.abi, 'getCurrentSlot'), 6n);
    assert.equal(await read(rollup, Rollup.abi, 'getCurrentEpoch'), 1n);
  });

  it('samples the committee and the proposer as documented', async () => {
    const rollup = fx.addresses.rollupAddress;
    const seed = (await read(rollup, Rollup.abi, 'getSeed')) as Hex;
    const expectedSeed = keccak256(
      encodeAbiParameters(
        [
          { type: 'uint256' },
          { type: 'address' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'bytes32' },
        ],
        [BigInt(CHAIN_ID), rollup, fx.genesisTime, VERSION, hex32(GENESIS_ARCHIVE_ROOT)],
      ),
    );
    assert.equal(seed, expectedSeed);
    const validators = VALIDATORS.map((v) => v.address);
    const seen = new Set<string>();
    for (const epoch of [0n, 1n, 2n, 3n, 10n]) {
      // TypeScript port of the documented partial Fisher-Yates sample.
      const epochSeed = keccak256(
        encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [epoch, seed]),
      );
      const pool = [...validators];
      const expected: Address[] = [];
      for (let i = 0; i < 4; i++) {
        const r = BigInt(
          keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [epochSeed, BigInt(i)])),
        );
        const j = i + Number(r % BigInt(pool.length - i));
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
        expected.push(pool[i]!);
      }
      const committee = (await read(rollup, Rollup.abi, 'getEpochCommittee', [epoch])) as Address[];
      assert.deepEqual(committee, expected);
      assert.equal(new Set(committee).size, 4);
      seen.add(committee.join());
      const slot = epoch * EPOCH_DURATION + 1n;
      const idx = BigInt(
        keccak256(
          encodeAbiParameters(
            [{ type: 'uint256' }, { type: 'uint256' }, { type: 'bytes32' }],
            [epoch, slot, seed],
          ),
        ),
      );
      const proposer = await read(rollup, Rollup.abi, 'getProposerAtSlot', [slot]);
      assert.equal(proposer, committee[Number(idx % 4n)]);
      const ts = fx.genesisTime + slot * SLOT_DURATION;
      assert.equal(await read(rollup, Rollup.abi, 'getProposerAt', [ts]), proposer);
      assert.deepEqual(await read(rollup, Rollup.abi, 'getCommitteeAt', [ts]), committee);
    }
    assert.ok(seen.size > 1, 'the sample should vary between epochs');
  });

  it('signs the documented attestation digest', async () => {
    const rollup = fx.addresses.rollupAddress;
    const digest = await read(rollup, Rollup.abi, 'getAttestationDigest', [3n, 9n, hex32(11n), hex32(12n)]);
    const expected = keccak256(
      encodeAbiParameters(
        [
          { type: 'bytes32' },
          { type: 'uint256' },
          { type: 'address' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'bytes32' },
          { type: 'bytes32' },
        ],
        [
          keccak256(toHex('cairn.checkpoint.attestation.v1')),
          BigInt(CHAIN_ID),
          rollup,
          3n,
          9n,
          hex32(11n),
          hex32(12n),
        ],
      ),
    );
    assert.equal(digest, expected);
  });
});

describe('Rollup: propose', () => {
  let fx: Fixture;
  before(async () => {
    fx = await deployFixture();
  });

  it('rejects bad, missing and too few attestations, the wrong proposer, slot and number', async () => {
    const slot = 2n;
    const ts = await timeInSlot(fx, slot);
    const proposerIndex = await proposerIndexOf(fx, slot);
    const others = [0, 1, 2, 3].filter((i) => i !== proposerIndex);

    // A member's slot filled with another member's signature.
    const args = await expectRevert(
      await buildPropose(fx, {
        slot,
        tamper: (atts) => {
          atts[others[0]!] = atts[proposerIndex]!;
        },
      }),
      'Rollup__InvalidAttestation',
      ts,
    );
    assert.equal(args[0], BigInt(others[0]!));
    // A signature of the right digest by a key outside the committee.
    const outsiderCall = await buildPropose(fx, { slot });
    const [proposeArgs, atts] = outsiderCall.args as [any, Hex[]];
    const digest = (await read(fx.addresses.rollupAddress, Rollup.abi, 'getAttestationDigest', [
      proposeArgs.checkpointNumber,
      proposeArgs.slot,
      proposeArgs.archive,
      proposeArgs.headerHash,
    ])) as Hex;
    atts[others[1]!] = await OUTSIDER.signMessage({ message: { raw: digest } });
    const bad = await expectRevert(outsiderCall, 'Rollup__InvalidAttestation', ts);
    assert.equal(bad[2], OUTSIDER.address);
    // A malformed (64-byte) signature.
    await expectRevert(
      await buildPropose(fx, {
        slot,
        tamper: (a) => {
          a[others[2]!] = `0x${'11'.repeat(64)}`;
        },
      }),
      'Rollup__InvalidAttestation',
      ts,
    );
    // Signatures over a different archive.
    const forged = await buildPropose(fx, { slot });
    const [fArgs, fAtts] = forged.args as [any, Hex[]];
    fArgs.archive = hex32(123n);
    await expectRevert({ ...forged, args: [fArgs, fAtts, '0x'] }, 'Rollup__InvalidAttestation', ts);
    // Too few: the proposer and one other (2 of 4).
    await expectRevert(
      await buildPropose(fx, { slot, signers: [proposerIndex, others[0]!] }),
      'Rollup__InsufficientAttestations',
      ts,
    );
    // Nobody signed.
    await expectRevert(
      await buildPropose(fx, { slot, signers: [] }),
      'Rollup__MissingProposerAttestation',
      ts,
    );
    // Three valid signatures but not the proposer's.
    await expectRevert(
      await buildPropose(fx, { slot, signers: others }),
      'Rollup__MissingProposerAttestation',
      ts,
    );
    // Wrong number of entries.
    await expectRevert(
      await buildPropose(fx, { slot, tamper: (a) => void a.pop() }),
      'Rollup__InvalidAttestationsLength',
      ts,
    );
    // Wrong slot (past and future) and wrong checkpoint number.
    await expectRevert(await buildPropose(fx, { slot: slot - 1n }), 'Rollup__InvalidSlot', ts);
    await expectRevert(await buildPropose(fx, { slot: slot + 1n }), 'Rollup__InvalidSlot', ts);
    await expectRevert(
      await buildPropose(fx, { slot, checkpointNumber: 2n }),
      'Rollup__InvalidCheckpointNumber',
      ts,
    );
    await expectRevert(await buildPropose(fx, { slot, inHash: 5n }), 'Rollup__InvalidInHash', ts);
  });

  it('accepts a checkpoint with more than 2/3 of the committee incl. the proposer, and emits the event', async () => {
    const slot = 2n;
    const proposerIndex = await proposerIndexOf(fx, slot);
    const signers = [0, 1, 2, 3].filter((i) => i !== (proposerIndex + 1) % 4); // 3 of 4
    const body = `0x${Buffer.from('{"checkpoint":"data"}').toString('hex')}` as Hex;
    const call = await buildPropose(fx, { slot, signers, totalManaUsed: 1500n, outHash: 77n, body });
    const receipt = await propose(fx, { slot, signers, totalManaUsed: 1500n, outHash: 77n, body });
    // The body is carried in the transaction's calldata, for any node to read back.
    const tx = await pub.getTransaction({ hash: receipt.transactionHash });
    const decoded = decodeFunctionData({ abi: Rollup.abi, data: tx.input });
    assert.equal(decoded.functionName, 'propose');
    assert.equal(decoded.args[2], body);
    const [proposed] = events(receipt, Rollup.abi, 'CheckpointProposed');
    const sent = (call.args as [any])[0];
    assert.ok(proposed);
    assert.equal(proposed.args.checkpointNumber, 1n);
    assert.equal(proposed.args.archive, sent.archive);
    assert.equal(proposed.args.headerHash, sent.headerHash);
    assert.equal(proposed.args.slot, slot);
    const rollup = fx.addresses.rollupAddress;
    assert.equal(await read(rollup, Rollup.abi, 'getPendingCheckpointNumber'), 1n);
    assert.equal(await read(rollup, Rollup.abi, 'archiveAt', [1n]), sent.archive);
    const stored = await read(rollup, Rollup.abi, 'getCheckpoint', [1n]);
    assert.equal(stored.headerHash, sent.headerHash);
    assert.equal(stored.slot, slot);
    assert.equal(stored.l1BlockNumber, receipt.blockNumber);
    assert.equal(stored.totalManaUsed, 1500n);
    assert.equal(stored.outHash, hex32(77n));
    assert.equal(BigInt(stored.inHash), zeroRoot(10));
    assert.equal(await read(rollup, Rollup.abi, 'getEpochForCheckpoint', [1n]), 0n);
  });

  it('rejects a second checkpoint in the same slot', async () => {
    const ts = await timeInSlot(fx, 2n);
    await expectRevert(await buildPropose(fx, { slot: 2n }), 'Rollup__SlotAlreadyInChain', ts);
  });

  it('records the fee-model inputs (excess mana, L1 base and blob fees)', async () => {
    const rollup = fx.addresses.rollupAddress;
    // Checkpoint 1 used 1500 (target 1000).
    assert.equal((await read(rollup, Rollup.abi, 'getCheckpoint', [1n])).excessMana, 0n);
    assert.equal(await read(rollup, Rollup.abi, 'getNextExcessMana'), 500n);
    const r2 = await propose(fx, { slot: 3n, totalManaUsed: 200n });
    const c2 = await read(rollup, Rollup.abi, 'getCheckpoint', [2n]);
    assert.equal(c2.excessMana, 500n); // 0 + 1500 - 1000
    const block = await pub.getBlock({ blockNumber: r2.blockNumber });
    assert.equal(c2.l1BaseFee, block.baseFeePerGas);
    assert.equal(c2.l1Timestamp, block.timestamp);
    assert.ok(c2.l1BlobBaseFee >= 1n);
    assert.equal(
      c2.l1BlobBaseFee,
      await pub.request({ method: 'eth_blobBaseFee' } as any).then((x: any) => BigInt(x)),
    );
    await propose(fx, { slot: 4n, totalManaUsed: 3000n });
    assert.equal((await read(rollup, Rollup.abi, 'getCheckpoint', [3n])).excessMana, 0n); // max(0, 500 + 200 - 1000)
    await propose(fx, { slot: 5n, totalManaUsed: 0n });
    assert.equal((await read(rollup, Rollup.abi, 'getCheckpoint', [4n])).excessMana, 2000n); // 0 + 3000 - 1000
    await propose(fx, { slot: 6n });
    assert.equal((await read(rollup, Rollup.abi, 'getCheckpoint', [5n])).excessMana, 1000n); // 2000 + 0 - 1000
  });
});

describe('Rollup: open proposing without a committee', () => {
  it('lets anyone propose without attestations when there are no validators', async () => {
    const fx = await deployFixture({ validators: [] });
    const rollup = fx.addresses.rollupAddress;
    assert.deepEqual(await read(rollup, Rollup.abi, 'getEpochCommittee', [0n]), []);
    assert.equal(
      await read(rollup, Rollup.abi, 'getProposerAtSlot', [1n]),
      '0x0000000000000000000000000000000000000000',
    );
    await propose(fx, { slot: 1n });
    assert.equal(await read(rollup, Rollup.abi, 'getPendingCheckpointNumber'), 1n);
  });
});

describe('Rollup: epoch proofs and the outbox', () => {
  let fx: Fixture;
  const sender = 0x1234n;
  // Checkpoint 1 holds messages A and B, checkpoint 2 message C, checkpoint 3 none; checkpoint 4 is in epoch 1.
  const msgA = { sender, version: VERSION, recipient: OTHER.address, content: 11n };
  const msgB = { sender, version: VERSION, recipient: OTHER.address, content: 22n };
  const msgC = { sender, version: VERSION, recipient: DEPLOYER.address, content: 33n };
  const leafA = l2ToL1Leaf(msgA);
  const leafB = l2ToL1Leaf(msgB);
  const leafC = l2ToL1Leaf(msgC);
  const cpOut = [node(leafA, leafB), leafC, 0n];
  const epochRoot = (k: number): bigint => balancedRoot(cpOut.slice(0, k), 5);
  const epoch1Root = balancedRoot([fieldFrom('epoch1')], 5);

  before(async () => {
    fx = await deployFixture({ proofSubmissionEpochs: 2 });
    await propose(fx, { slot: 1n, outHash: epochRoot(1) });
    await propose(fx, { slot: 2n, outHash: epochRoot(2) });
    await propose(fx, { slot: 3n, outHash: epochRoot(3) });
    await propose(fx, { slot: 5n, outHash: epoch1Root });
  });

  const consumeCall = (
    m: typeof msgA,
    epoch: bigint,
    numCheckpoints: bigint,
    leafIndex: bigint,
    path: bigint[],
    account: PrivateKeyAccount = m.recipient === OTHER.address ? OTHER : DEPLOYER,
  ): Call => ({
    account,
    address: fx.addresses.outboxAddress,
    abi: Outbox.abi,
    functionName: 'consume',
    args: [
      { actor: hex32(m.sender), version: m.version },
      { actor: m.recipient, chainId: BigInt(CHAIN_ID) },
      hex32(m.content),
      epoch,
      numCheckpoints,
      leafIndex,
      path.map(hex32),
    ],
  });

  it('rejects proofs from anyone but the prover, and inconsistent ranges or out hashes', async () => {
    await expectRevert(proofCall(fx, 0n, 1n, 1n, epochRoot(1), OTHER), 'Rollup__Unauthorized');
    await expectRevert(proofCall(fx, 0n, 2n, 3n, epochRoot(3)), 'Rollup__InvalidFromCheckpoint');
    await expectRevert(proofCall(fx, 0n, 1n, 4n, epoch1Root), 'Rollup__CheckpointNotInEpoch');
    await expectRevert(proofCall(fx, 1n, 1n, 1n, epochRoot(1)), 'Rollup__CheckpointNotInEpoch');
    await expectRevert(proofCall(fx, 0n, 1n, 5n, 0n), 'Rollup__InvalidToCheckpoint');
    await expectRevert(proofCall(fx, 0n, 1n, 2n, epochRoot(1)), 'Rollup__InvalidOutHash');
  });

  it('proves a partial epoch, inserting the root for its first checkpoint', async () => {
    const receipt = await send(proofCall(fx, 0n, 1n, 1n, epochRoot(1)));
    const [proven] = events(receipt, Rollup.abi, 'EpochProven');
    assert.deepEqual(
      { ...proven!.args },
      { epoch: 0n, fromCheckpoint: 1n, toCheckpoint: 1n, outHash: hex32(epochRoot(1)) },
    );
    const rollup = fx.addresses.rollupAddress;
    assert.equal(await read(rollup, Rollup.abi, 'getProvenCheckpointNumber'), 1n);
    assert.equal(await read(rollup, Rollup.abi, 'getPendingCheckpointNumber'), 4n);
    const outbox = fx.addresses.outboxAddress;
    assert.equal(await read(outbox, Outbox.abi, 'getRootData', [0n, 1n]), hex32(epochRoot(1)));
    assert.equal(await read(outbox, Outbox.abi, 'getRootData', [0n, 3n]), hex32(0n));
  });

  it('consumes a message against the partial root once', async () => {
    const path = [leafB, ...balancedPath(cpOut.slice(0, 1), 5, 0)];
    const call = consumeCall(msgA, 0n, 1n, 0n, path);
    const receipt = await send(call);
    const [consumed] = events(receipt, Outbox.abi, 'MessageConsumed');
    assert.equal(consumed!.args.epoch, 0n);
    assert.equal(consumed!.args.root, hex32(epochRoot(1)));
    assert.equal(consumed!.args.messageHash, hex32(leafA));
    assert.equal(consumed!.args.leafId, 1n << 6n);
    assert.equal(
      await read(fx.addresses.outboxAddress, Outbox.abi, 'hasMessageBeenConsumedAtEpoch', [0n, 64n]),
      true,
    );
    assert.equal(
      await read(fx.addresses.outboxAddress, Outbox.abi, 'hasMessageBeenConsumedAtEpoch', [0n, 65n]),
      false,
    );
    await expectRevert(call, 'Outbox__AlreadyConsumed');
  });

  it('extends the partial proof to the whole epoch and then to the next epoch', async () => {
    const receipt = await send(proofCall(fx, 0n, 2n, 3n, epochRoot(3)));
    assert.equal(events(receipt, Rollup.abi, 'EpochProven')[0]!.args.toCheckpoint, 3n);
    const outbox = fx.addresses.outboxAddress;
    assert.equal(await read(outbox, Outbox.abi, 'getRootData', [0n, 1n]), hex32(epochRoot(1)));
    assert.equal(await read(outbox, Outbox.abi, 'getRootData', [0n, 3n]), hex32(epochRoot(3)));
    assert.equal(await read(fx.addresses.rollupAddress, Rollup.abi, 'getProvenCheckpointNumber'), 3n);
    await send(proofCall(fx, 1n, 4n, 4n, epoch1Root));
    assert.equal(await read(outbox, Outbox.abi, 'getRootData', [1n, 1n]), hex32(epoch1Root));
    assert.equal(await read(fx.addresses.rollupAddress, Rollup.abi, 'getProvenCheckpointNumber'), 4n);
  });

  it('consumes messages against the full root, once per leaf id across roots, and checks the proof', async () => {
    const full = cpOut;
    // B: leaf 1 of checkpoint 0's pair; path = [A, epoch siblings].
    await send(consumeCall(msgB, 0n, 3n, 1n, [leafA, ...balancedPath(full, 5, 0)]));
    // C is checkpoint 1's out hash itself: leaf index 1 in the epoch tree, path of 5.
    const receipt = await send(consumeCall(msgC, 0n, 3n, 1n, balancedPath(full, 5, 1)));
    assert.equal(events(receipt, Outbox.abi, 'MessageConsumed')[0]!.args.leafId, (1n << 5n) + 1n);
    // A was consumed against the partial root; its id (2^6 + 0) is the same against the full root.
    await expectRevert(
      consumeCall(msgA, 0n, 3n, 0n, [leafB, ...balancedPath(full, 5, 0)]),
      'Outbox__AlreadyConsumed',
    );
  });

  it('rejects wrong paths, recipients, chains and epochs without a root', async () => {
    const fresh = { ...msgA, content: 44n };
    const path = [leafB, ...balancedPath(cpOut, 5, 0)];
    await expectRevert(consumeCall(fresh, 0n, 3n, 0n, path), 'Outbox__InvalidProof');
    await expectRevert(
      consumeCall(msgB, 0n, 3n, 0n, [leafA, ...balancedPath(cpOut, 5, 0)]),
      'Outbox__InvalidProof',
    );
    await expectRevert(
      consumeCall(msgC, 0n, 3n, 1n, balancedPath(cpOut, 5, 1), OTHER),
      'Outbox__InvalidRecipient',
    );
    await expectRevert(consumeCall(msgC, 0n, 3n, 1n, balancedPath(cpOut, 5, 1)), 'Outbox__AlreadyConsumed');
    await expectRevert(consumeCall(msgA, 0n, 2n, 0n, path), 'Outbox__NothingToConsumeAtEpoch');
    await expectRevert(consumeCall(msgA, 9n, 1n, 0n, path), 'Outbox__NothingToConsumeAtEpoch');
    await expectRevert(consumeCall(msgA, 0n, 3n, 1n << 6n, path), 'Outbox__LeafIndexOutOfBounds');
    const wrongChain = consumeCall(msgA, 0n, 3n, 0n, path);
    (wrongChain.args[1] as any).chainId = 1n;
    await expectRevert(wrongChain, 'Outbox__InvalidChainId');
    const wrongVersion = consumeCall(msgA, 0n, 3n, 0n, path);
    (wrongVersion.args[0] as any).version = VERSION + 1n;
    await expectRevert(wrongVersion, 'Outbox__VersionMismatch');
    await expectRevert(
      {
        account: DEPLOYER,
        address: fx.addresses.outboxAddress,
        abi: Outbox.abi,
        functionName: 'insert',
        args: [5n, 1n, hex32(1n)],
      },
      'Outbox__Unauthorized',
    );
  });
});

describe('Inbox and Fee Juice portal', () => {
  let fx: Fixture;
  const leaves: bigint[] = [];
  before(async () => {
    fx = await deployFixture();
  });

  const sendCall = (
    account: PrivateKeyAccount,
    actor: bigint,
    content: bigint,
    secretHash: bigint,
    version = VERSION,
  ) => ({
    account,
    address: fx.addresses.inboxAddress,
    abi: Inbox.abi,
    functionName: 'sendL2Message',
    args: [{ actor: hex32(actor), version }, hex32(content), hex32(secretHash)],
  });

  it('starts with group 2 open and empty groups at the root of 1024 zero leaves', async () => {
    const inbox = fx.addresses.inboxAddress;
    assert.equal(await read(inbox, Inbox.abi, 'getInProgress'), 2n);
    assert.equal(BigInt(await read(inbox, Inbox.abi, 'getRoot', [1n])), zeroRoot(10));
    assert.equal(BigInt(await read(inbox, Inbox.abi, 'getEmptyRoot')), zeroRoot(10));
  });

  it('hashes message leaves as sha256ToField of the 7 fields, indexed from (group - 1) * 1024', async () => {
    const inbox = fx.addresses.inboxAddress;
    const msgs = [
      { account: DEPLOYER, actor: 0xabcn, content: 1n, secretHash: 2n },
      { account: OTHER, actor: FR_MODULUS - 1n, content: FR_MODULUS - 1n, secretHash: 0n },
      { account: DEPLOYER, actor: 7n, content: fieldFrom('c'), secretHash: fieldFrom('s') },
    ];
    for (const [i, m] of msgs.entries()) {
      const call = sendCall(m.account, m.actor, m.content, m.secretHash);
      const index = 1024n + BigInt(i);
      const leaf = l1ToL2Leaf({
        sender: m.account.address,
        actor: m.actor,
        version: VERSION,
        content: m.content,
        secretHash: m.secretHash,
        index,
      });
      const [simLeaf, simIndex] = (await simulate(call)) as [Hex, bigint];
      assert.equal(BigInt(simLeaf), leaf);
      assert.equal(simIndex, index);
      const receipt = await send(call);
      const [sent] = events(receipt, Inbox.abi, 'MessageSent');
      assert.deepEqual({ ...sent!.args }, { checkpointNumber: 2n, index, hash: hex32(leaf) });
      leaves.push(leaf);
    }
    assert.equal(await read(inbox, Inbox.abi, 'getGroupSize', [2n]), 3n);
    assert.equal(BigInt(await read(inbox, Inbox.abi, 'getRoot', [2n])), balancedRoot(leaves, 10));
    assert.equal(await read(inbox, Inbox.abi, 'getTotalMessagesInserted'), 3n);
  });

  it('keeps group roots equal to a balanced sha256ToField tree as messages arrive', async () => {
    const inbox = fx.addresses.inboxAddress;
    for (let i = 0; i < 6; i++) {
      const receipt = await send(sendCall(OTHER, 99n, BigInt(i), 5n));
      leaves.push(BigInt(events(receipt, Inbox.abi, 'MessageSent')[0]!.args.hash));
      assert.equal(
        BigInt(await read(inbox, Inbox.abi, 'getRoot', [2n])),
        balancedRoot(leaves, 10),
        `after ${leaves.length}`,
      );
    }
  });

  it('rejects a wrong version and values that are not field elements', async () => {
    await expectRevert(sendCall(DEPLOYER, 1n, 1n, 1n, VERSION + 1n), 'Inbox__VersionMismatch');
    await expectRevert(sendCall(DEPLOYER, FR_MODULUS, 1n, 1n), 'Inbox__ActorTooLarge');
    await expectRevert(sendCall(DEPLOYER, 1n, FR_MODULUS, 1n), 'Inbox__ContentTooLarge');
    await expectRevert(sendCall(DEPLOYER, 1n, 1n, FR_MODULUS), 'Inbox__SecretHashTooLarge');
  });

  it('is consumed per checkpoint: group n by checkpoint n, opening group n + 2', async () => {
    const inbox = fx.addresses.inboxAddress;
    await propose(fx, { slot: 1n });
    assert.equal(await read(inbox, Inbox.abi, 'isConsumed', [1n]), true);
    assert.equal(await read(inbox, Inbox.abi, 'isConsumed', [2n]), false);
    assert.equal(await read(inbox, Inbox.abi, 'getInProgress'), 3n);
    const receipt = await send(sendCall(DEPLOYER, 1n, 1n, 1n));
    assert.equal(events(receipt, Inbox.abi, 'MessageSent')[0]!.args.checkpointNumber, 3n);
    assert.equal(events(receipt, Inbox.abi, 'MessageSent')[0]!.args.index, 2048n);
    // Checkpoint 2 must carry group 2's root as its in-hash.
    const ts = await timeInSlot(fx, 2n);
    await expectRevert(
      await buildPropose(fx, { slot: 2n, inHash: zeroRoot(10) }),
      'Rollup__InvalidInHash',
      ts,
    );
    const r = await propose(fx, { slot: 2n, inHash: balancedRoot(leaves, 10) });
    assert.equal(r.status, 'success');
    assert.equal(await read(inbox, Inbox.abi, 'isConsumed', [2n]), true);
    assert.equal(await read(inbox, Inbox.abi, 'getInProgress'), 4n);
    const stored = await read(fx.addresses.rollupAddress, Rollup.abi, 'getCheckpoint', [2n]);
    assert.equal(BigInt(stored.inHash), balancedRoot(leaves, 10));
  });

  it('deposits Fee Juice through the portal as a message to the L2 Fee Juice contract', async () => {
    const a = fx.addresses;
    const amount = 5n * 10n ** 18n;
    const to = fieldFrom('l2-recipient');
    const secretHash = fieldFrom('secret-hash');
    await send({
      account: DEPLOYER,
      address: a.feeJuiceAddress,
      abi: FeeJuice.abi,
      functionName: 'approve',
      args: [a.feeJuicePortalAddress, amount],
    });
    // Checkpoint 2 is the pending tip, so the message goes into group 4.
    const indexBefore = 3072n + (await read(a.inboxAddress, Inbox.abi, 'getGroupSize', [4n]));
    const receipt = await send({
      account: DEPLOYER,
      address: a.feeJuicePortalAddress,
      abi: FeeJuicePortal.abi,
      functionName: 'deposit',
      args: [hex32(to), amount, hex32(secretHash)],
    });
    const claim = encodeFunctionData({
      abi: parseAbi(['function claim(bytes32 to, uint256 amount)']),
      args: [hex32(to), amount],
    });
    const content = sha256ToField([hexToBytes(claim)]);
    const leaf = l1ToL2Leaf({
      sender: a.feeJuicePortalAddress,
      actor: 5n,
      version: VERSION,
      content,
      secretHash,
      index: indexBefore,
    });
    const [sent] = events(receipt, Inbox.abi, 'MessageSent');
    assert.equal(sent!.args.hash, hex32(leaf));
    assert.equal(sent!.args.index, indexBefore);
    const [deposit] = events(receipt, FeeJuicePortal.abi, 'DepositToAztecPublic');
    assert.equal(deposit!.args.key, hex32(leaf));
    assert.equal(deposit!.args.amount, amount);
    assert.equal(await read(a.feeJuiceAddress, FeeJuice.abi, 'balanceOf', [a.feeJuicePortalAddress]), amount);
  });
});

describe('Inbox: a full group', () => {
  it('holds 1024 messages per group, then opens the next group early', async () => {
    const fx = await deployFixture();
    const inbox = fx.addresses.inboxAddress;
    const account = OTHER;
    let nonce = await pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const block = await pub.getBlock({ blockTag: 'latest' });
    const maxFeePerGas = (block.baseFeePerGas ?? 1n) * 4n + 1_000_000_000n;
    const data = (i: number) =>
      encodeFunctionData({
        abi: Inbox.abi,
        functionName: 'sendL2Message',
        args: [{ actor: hex32(1n), version: VERSION }, hex32(BigInt(i)), hex32(0n)],
      });
    const count = 1025;
    const hashes: Hex[] = [];
    for (let i = 0; i < count; i++) {
      const raw = await account.signTransaction({
        chainId: CHAIN_ID,
        type: 'eip1559',
        to: inbox,
        data: data(i),
        nonce: nonce++,
        gas: 200_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: 1_000_000_000n,
      });
      hashes.push(await pub.sendRawTransaction({ serializedTransaction: raw }));
    }
    await testClient.mine({ blocks: 8 });
    const leaves: bigint[] = [];
    for (const [i, hash] of hashes.entries()) {
      const receipt = await pub.getTransactionReceipt({ hash });
      assert.equal(receipt.status, 'success');
      const [sent] = events(receipt, Inbox.abi, 'MessageSent');
      assert.equal(sent!.args.index, 1024n + BigInt(i));
      assert.equal(sent!.args.checkpointNumber, i < 1024 ? 2n : 3n);
      leaves.push(BigInt(sent!.args.hash));
    }
    assert.equal(await read(inbox, Inbox.abi, 'getGroupSize', [2n]), 1024n);
    assert.equal(await read(inbox, Inbox.abi, 'getGroupSize', [3n]), 1n);
    assert.equal(await read(inbox, Inbox.abi, 'getInProgress'), 3n);
    assert.equal(
      BigInt(await read(inbox, Inbox.abi, 'getRoot', [2n])),
      balancedRoot(leaves.slice(0, 1024), 10),
    );
    assert.equal(BigInt(await read(inbox, Inbox.abi, 'getRoot', [3n])), balancedRoot(leaves.slice(1024), 10));
    // Checkpoint 1 leaves group 3 open (it is already open); checkpoint 2 takes the full group and opens 4.
    await propose(fx, { slot: 1n });
    assert.equal(await read(inbox, Inbox.abi, 'getInProgress'), 3n);
    await propose(fx, { slot: 2n });
    assert.equal(await read(inbox, Inbox.abi, 'getInProgress'), 4n);
    const c2 = await read(fx.addresses.rollupAddress, Rollup.abi, 'getCheckpoint', [2n]);
    assert.equal(BigInt(c2.inHash), balancedRoot(leaves.slice(0, 1024), 10));
  });
});

describe('Rollup: pruning', () => {
  let fx: Fixture;
  let group2Root: bigint;
  before(async () => {
    fx = await deployFixture({ proofSubmissionEpochs: 1 });
    for (let i = 0; i < 2; i++) {
      await send({
        account: OTHER,
        address: fx.addresses.inboxAddress,
        abi: Inbox.abi,
        functionName: 'sendL2Message',
        args: [{ actor: hex32(3n), version: VERSION }, hex32(BigInt(i)), hex32(0n)],
      });
    }
    group2Root = BigInt(await read(fx.addresses.inboxAddress, Inbox.abi, 'getRoot', [2n]));
    await propose(fx, { slot: 1n }); // epoch 0
    await propose(fx, { slot: 5n }); // epoch 1
  });

  const pruneCall = (): Call => ({
    account: OTHER,
    address: fx.addresses.rollupAddress,
    abi: Rollup.abi,
    functionName: 'prune',
    args: [],
  });

  it('keeps unproven checkpoints while the proof window is open', async () => {
    const ts = await timeInSlot(fx, 7n); // epoch 1 = epochOf(checkpoint 1) + proofSubmissionEpochs
    assert.equal(await read(fx.addresses.rollupAddress, Rollup.abi, 'canPruneAtTime', [ts]), false);
    await expectRevert(pruneCall(), 'Rollup__NothingToPrune', ts);
  });

  it('resets the pending chain to the proven checkpoint once the window has passed', async () => {
    const rollup = fx.addresses.rollupAddress;
    const ts = await timeInSlot(fx, 8n); // epoch 2
    assert.equal(await read(rollup, Rollup.abi, 'canPruneAtTime', [ts]), true);
    await expectRevert(proofCall(fx, 0n, 1n, 1n, 0n), 'Rollup__ProofWindowClosed', ts);
    const receipt = await send(pruneCall(), ts);
    const [pruned] = events(receipt, Rollup.abi, 'CheckpointsPruned');
    assert.deepEqual({ ...pruned!.args }, { fromCheckpoint: 1n, toCheckpoint: 2n });
    assert.equal(await read(rollup, Rollup.abi, 'getPendingCheckpointNumber'), 0n);
    assert.equal(await read(rollup, Rollup.abi, 'getProvenCheckpointNumber'), 0n);
    assert.equal(await read(rollup, Rollup.abi, 'archiveAt', [1n]), hex32(0n));
    assert.equal(await read(rollup, Rollup.abi, 'canPrune'), false);
  });

  it('lets new checkpoints reuse the pruned numbers and re-consume the same inbox groups', async () => {
    const rollup = fx.addresses.rollupAddress;
    await propose(fx, { slot: 9n }); // checkpoint 1 again (epoch 2)
    await propose(fx, { slot: 13n }); // checkpoint 2 again (epoch 3)
    const c2 = await read(rollup, Rollup.abi, 'getCheckpoint', [2n]);
    assert.equal(BigInt(c2.inHash), group2Root);
    assert.equal(await read(fx.addresses.inboxAddress, Inbox.abi, 'getInProgress'), 4n);
  });

  it('prunes first when a proposal arrives after the window', async () => {
    const rollup = fx.addresses.rollupAddress;
    // Checkpoint 1 is in epoch 2; at epoch 4 the window (epoch 3) has passed.
    const receipt = await propose(fx, { slot: 16n, checkpointNumber: 1n });
    const [pruned] = events(receipt, Rollup.abi, 'CheckpointsPruned');
    assert.deepEqual({ ...pruned!.args }, { fromCheckpoint: 1n, toCheckpoint: 2n });
    const [proposed] = events(receipt, Rollup.abi, 'CheckpointProposed');
    assert.equal(proposed!.args.checkpointNumber, 1n);
    assert.equal(await read(rollup, Rollup.abi, 'getPendingCheckpointNumber'), 1n);
    // The fresh checkpoint can be proven in its window.
    await send(proofCall(fx, 4n, 1n, 1n, 0n));
    assert.equal(await read(rollup, Rollup.abi, 'getProvenCheckpointNumber'), 1n);
  });
});
