// The validator client between two nodes on a real L1: a committee of four, two validators on
// each node. Each node is built by the composition root (buildNodeCore: its stores, L1 connection,
// chain, mempool, consensus parts, sequencer and chain driver, wired as a running node wires
// them), with what the test controls put in: the L1 (the test's anvil, as an external L1), each
// node's keystore, the txs (sent to each node's own mempool), the gossip (an in-memory network
// between the two nodes instead of libp2p) and the clock (manual: the test mines L1 blocks and
// runs the chain passes). The slot's proposer's node builds and gathers attestations (it needs
// the other node's: two of four is short of the quorum of three); the other node re-executes and
// attests; L1 takes the result. Then: no quorum without the other node, peers' messages checked
// against the committee, equivocations become offenses, a validator never signs two digests in a
// slot, and a body that does not re-execute is refused.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino, { type Logger } from 'pino';
import { createTestClient, type Hex, http } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import type { Config } from '../../src/config/settings.js';
import {
  type BlockHeader,
  checkpointHeaderHash,
  emptyCheckpointHeader,
} from '../../src/core/block-header.js';
import { decodeCheckpointBody, encodeCheckpointBody } from '../../src/core/checkpoint-body.js';
import { type L1RollupConstants, slotStart } from '../../src/core/time.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { devAccounts, devAccountsGenesisData } from '../../src/execution/dev-accounts.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { type PassReport, PassRequests } from '../../src/node/chain-driver.js';
import type { Consensus, GossipNetwork } from '../../src/node/consensus.js';
import { openDataDir } from '../../src/node/data-dir.js';
import {
  buildNodeCore,
  type NodeCore,
  type StartContext,
  startNetwork,
} from '../../src/node/start-phases.js';
import { Teardown } from '../../src/node/teardown.js';
import type { SequencerOutcome } from '../../src/sequencer/sequencer.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
import {
  attestationDigest,
  blockProposalDigest,
  type Domain,
  quorum,
  signDigest,
  signerOf,
} from '../../src/validators/committee.js';
import { type Validator, ValidatorKeys } from '../../src/validators/keystore.js';
import {
  type CheckpointAttestation,
  type CheckpointProposal,
  decodeAttestation,
  decodeCheckpointProposal,
  encodeAttestation,
  encodeBlockProposal,
  encodeCheckpointProposal,
  TOPICS,
} from '../../src/validators/messages.js';
import { OffenseType } from '../../src/validators/slashing.js';
import type { CheckpointToAttest } from '../../src/validators/validator-client.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { startTestL1 } from '../helpers/l1.js';
import { testConfig } from '../helpers/rpc.js';
import { tempStores } from '../helpers/temp-stores.js';
import {
  bodyFixture,
  byAddress,
  flipByte,
  GossipHub,
  testAccounts,
  testKeys,
  validatorOf,
} from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-validator-client-'));
const keys = testKeys(4, 'validator-client');
const accounts = testAccounts(4, 'validator-client');
const [payer] = devAccounts(1);

const makeTx = (seed: bigint, anchorBlockHeader: BlockHeader) =>
  buildTx({
    feePayer: payer!.address,
    anchorBlockHeader,
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 10n ** 12n },
    protocolNullifier: 0x6000n + seed,
    noteHashes: [0x5000n + seed],
  });

interface LogLine {
  component?: string;
  msg: string;
  err?: { message: string };
}

/** A root logger whose lines are handed to `line` (to tell why a client did not sign, or a pass failed). */
function capturingLogger(line: (entry: LogLine) => void): Logger {
  return pino({ level: 'debug' }, { write: (s: string) => line(JSON.parse(s) as LogLine) });
}

/**
 * The start's context for a node in `path` (its data directory, locked and released as a node's),
 * logging to `root`, with the gossip network `gossip` in place of libp2p.
 */
function startContext(config: Config, path: string, root: Logger, gossip?: GossipNetwork): StartContext {
  const dataDir = openDataDir(path, false);
  const teardown = new Teardown();
  teardown.add('dataDir', () => dataDir.release());
  return {
    config,
    dataDir,
    root,
    logger: root.child({ component: 'node' }),
    signal: undefined,
    teardown,
    gossip,
  };
}

/** A keystore of these keys in `path`, as an operator writes one; its file. */
function writeKeystore(path: string, attesterKeys: readonly Hex[]): string {
  mkdirSync(path, { recursive: true });
  const file = join(path, 'keystore.json');
  writeFileSync(file, JSON.stringify({ validators: attesterKeys.map((attester) => ({ attester })) }));
  return file;
}

/**
 * The settings of a node in `path` on the test's L1 (external to it), with the manual clock (the
 * test mines) and a keystore of `attesterKeys`.
 */
function nodeConfig(
  l1: L1Connection,
  path: string,
  attesterKeys: readonly Hex[],
  flags: Record<string, unknown>,
): Config {
  return testConfig({
    dataDir: path,
    ephemeral: false,
    clock: 'manual',
    l1RpcUrl: l1.rpcUrl,
    l1ContractAddresses: l1.addresses,
    keystorePath: writeKeystore(path, attesterKeys),
    ...flags,
  });
}

interface Node {
  name: string;
  /** The node as the composition root built it. */
  core: NodeCore;
  teardown: Teardown;
  validators: readonly Validator[];
  store: ChainStore;
  worldState: WorldState;
  consensus: Consensus;
  /** Messages of the node's validator client. */
  logs: string[];
  /** What the sequencer's consensus was asked and answered, per call. */
  gathered: { c: CheckpointToAttest; result: Hex[] | undefined; ms: number }[];
  /** Caps the attestation wait of the next gatherAttestations calls (ms). */
  waitMs: number;
  /** One chain pass of the node's chain driver (after any under way). */
  pass(): Promise<PassReport>;
  /** Chain passes that failed (the driver logs them: those a proposal asked for run unawaited). */
  passErrors: string[];
}

describe('validator client: two nodes on a test L1', () => {
  let l1: L1Connection;
  let rollup: RollupClient;
  let constants: L1RollupConstants;
  let domain: Domain;
  let anvil: ReturnType<typeof createTestClient>;
  const hub = new GossipHub();
  const nodes: Node[] = [];
  let genesisHeader: BlockHeader;

  async function openNode(name: string, attesterKeys: readonly Hex[]): Promise<Node> {
    const path = join(dir, name);
    const config = nodeConfig(l1, path, attesterKeys, {
      // The genesis computed below: one dev account, none of the reference's test accounts.
      devAccounts: 1,
      testAccounts: false,
      maxTxsPerBlock: 2,
      attestationTimeoutMs: 5000,
      slashDuplicateProposalPenalty: 11,
      slashDuplicateAttestationPenalty: 12,
    });
    const logs: string[] = [];
    const passErrors: string[] = [];
    const root = capturingLogger(({ component, msg, err }) => {
      if (component === 'validator') logs.push(msg);
      if (component === 'chain' && msg === 'chain pass failed') passErrors.push(err?.message ?? msg);
    });
    const ctx = startContext(config, path, root, hub.join(name));
    const core = await buildNodeCore(ctx);
    const { client } = core.consensus;
    const node: Node = {
      name,
      core,
      teardown: ctx.teardown,
      validators: core.stores.keys.current,
      store: core.chain.chain,
      worldState: core.stores.worldState,
      consensus: core.consensus,
      logs,
      gathered: [],
      waitMs: 5000,
      pass: () => core.pass.driver.pass(),
      passErrors,
    };
    // The sequencer's consensus is this client: its calls are recorded here, the wait capped.
    const gather = client.gatherAttestations.bind(client);
    client.gatherAttestations = async (c) => {
      const started = Date.now();
      const result = await gather({ ...c, deadline: Math.min(c.deadline, started + node.waitMs) });
      node.gathered.push({ c, result, ms: Date.now() - started });
      return result;
    };
    return node;
  }

  /** The node holding the slot's proposer, and the other one. */
  async function roles(slot: number): Promise<{ P: Node; O: Node; proposer: PrivateKeyAccount }> {
    const proposer = (await nodes[0]!.consensus.committee.proposer(slot))!;
    const P = nodes.find((n) => n.validators.some((v) => v.attester.address.toLowerCase() === proposer))!;
    const O = nodes.find((n) => n !== P)!;
    return { P, O, proposer: byAddress(accounts, proposer) };
  }

  /** Waits for every gossip delivery and every chain pass they caused. */
  async function settle(): Promise<void> {
    for (let i = 0; i < 10; i++) {
      await hub.settle();
      await Promise.all(nodes.map((n) => n.core.pass.driver.between(async () => undefined)));
      await new Promise((r) => setImmediate(r));
    }
    await hub.settle();
  }

  /** Mines an L1 block at the start of `slot`. */
  async function mineInto(slot: number): Promise<void> {
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await anvil.mine({ blocks: 1 });
  }

  /** Each node runs a chain pass, one after the other: it syncs, attests, and its sequencer acts. */
  async function passes(): Promise<Map<Node, PassReport>> {
    const reports = new Map<Node, PassReport>();
    for (const n of nodes) reports.set(n, await n.pass());
    return reports;
  }

  /** Moves L1 into `slot` and runs each node's chain pass; what the slot's proposer's sequencer did. */
  async function enter(slot: number): Promise<SequencerOutcome | undefined> {
    await mineInto(slot);
    const reports = await passes();
    const { P } = await roles(slot);
    return reports.get(P)!.sequencer;
  }

  /** Mines what was sent and lets both nodes sync it in a chain pass. */
  async function mineAndSync(outcome: SequencerOutcome | undefined): Promise<void> {
    assert.equal(outcome?.kind, 'published', `outcome ${outcome?.kind}`);
    if (outcome?.kind !== 'published') return;
    await anvil.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(outcome.txHash)).status, 'success');
    await passes();
  }

  /** Sends a tx to each node's mempool, as a client would. */
  async function sendToBoth(tx: ReturnType<typeof makeTx>): Promise<void> {
    for (const n of nodes) await n.core.chain.txs.sendTx(tx.tx, tx.hash);
  }

  const isLocal = (n: Node, address: string) =>
    n.validators.some((v) => v.attester.address.toLowerCase() === address.toLowerCase());

  /** The attestation digest of checkpoint `number` as a chain store holds it. */
  function storedDigest(store: ChainStore, number: number): Hex {
    const c = store.getCheckpoint(number)!.checkpoint;
    return attestationDigest(domain, {
      checkpointNumber: number,
      slot: c.header.slotNumber,
      archive: c.archive.root,
      headerHash: c.hash,
    });
  }

  function stateOf(n: Node) {
    const latest = n.store.latestBlockNumber;
    return {
      latestBlock: latest,
      latestHash: n.store.getBlock(latest)!.hash,
      tips: n.store.getTips(),
      worldState: n.worldState.latestBlockNumber,
      archive: n.worldState.at(n.worldState.latestBlockNumber).snapshot(TreeId.ARCHIVE).root,
      noteHashes: n.worldState.at(n.worldState.latestBlockNumber).snapshot(TreeId.NOTE_HASH),
    };
  }

  before(async () => {
    // The rollup is deployed before the nodes start (its L1 is external to them): its genesis
    // archive root is that of the nodes' genesis state (one dev account: devAccounts 1), computed
    // here. The anchor block of the test's txs is the genesis block.
    const ws = await WorldState.open(openEnvironment(join(dir, 'genesis'), 'world-state'), {
      historyBlocks: 0,
      genesisPublicData: devAccountsGenesisData([payer!]),
      genesisBlockHash: genesisBlockHashOf,
    });
    const genesisArchiveRoot = ws.at(0).snapshot(TreeId.ARCHIVE).root;
    genesisHeader = genesisBlockOf(ws).header;
    await ws.close();
    l1 = await startTestL1(
      dir,
      accounts.map((a) => a.address),
      accounts.map((a) => a.address),
      { genesisArchiveRoot },
    );
    rollup = new RollupClient(l1);
    constants = await rollup.constants(2);
    domain = { chainId: l1.chainId, rollup: l1.addresses.rollupAddress };
    anvil = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    // Two validators on each node: the proposer of slot 1 and one other on the first.
    const p1 = (await rollup.proposerAtSlot(1)).toLowerCase();
    const first = accounts.findIndex((a) => a.address.toLowerCase() === p1);
    const rest = keys.filter((_, i) => i !== first);
    nodes.push(await openNode('A', [keys[first]!, rest[0]!]));
    nodes.push(await openNode('B', [rest[1]!, rest[2]!]));
  });
  after(async () => {
    try {
      await settle();
      for (const n of nodes) await n.teardown.run();
    } finally {
      await l1?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('slot 1: the proposer reaches the quorum only with the other node, in committee order; L1 takes it', async () => {
    const tx = makeTx(1n, genesisHeader);
    await sendToBoth(tx);
    await mineInto(1);
    const { P, O } = await roles(1);
    const committee = await P.consensus.committee.committee(0);
    assert.equal(committee.length, 4);
    // Alone, the proposer's node is short of the quorum.
    assert.ok(
      committee.filter((m) => isLocal(P, m)).length < quorum(committee.length),
      'committee.filter((m) => isLocal(P, m)).length < quorum(committee.length)',
    );
    const outcome = (await passes()).get(P)!.sequencer;
    await settle();
    assert.equal(outcome?.kind, 'published');
    const { c, result } = P.gathered.at(-1)!;
    assert.ok(result !== undefined, 'result !== undefined');
    // One entry per member, in committee order: each the member's signature of the digest, or 0x.
    const digest = attestationDigest(domain, c);
    assert.equal(result.length, committee.length);
    for (const [i, sig] of result.entries()) {
      if (sig === '0x') continue;
      assert.equal(await signerOf(digest, sig), committee[i], `entry ${i}`);
    }
    const signed = committee.filter((_, i) => result[i] !== '0x');
    assert.ok(signed.length >= quorum(committee.length), 'signed.length >= quorum(committee.length)');
    assert.ok(
      signed.some((m) => isLocal(O, m)),
      'the other node signed',
    );
    assert.ok(
      signed.includes((await P.consensus.committee.proposer(1))!),
      'signed.includes((await P.consensus.committee.proposer(1))!)',
    );
    // The other node checked and re-executed the blocks before signing: they are its proposed blocks.
    const blocks = decodeCheckpointBody(c.body).blocks;
    for (const b of blocks) assert.equal(O.store.getBlock(b.number)?.hash, b.hash);
    // It held its bulk gossip (txs from peers) while it checked, and released it after.
    const held = hub.holds.get(O.name)!;
    assert.ok(held.taken >= 1, 'the attester held bulk gossip while checking');
    assert.equal(held.open, 0);
    // Every message between the nodes was accepted.
    assert.ok(hub.deliveries.length >= 3, 'hub.deliveries.length >= 3');
    assert.deepEqual(
      hub.deliveries.filter((d) => d.verdict !== 'accept'),
      [],
    );
    assert.deepEqual(
      [...new Set(hub.deliveries.map((d) => d.topic))].sort(),
      [TOPICS.blockProposal, TOPICS.checkpointProposal, TOPICS.attestation].sort(),
    );
    await mineAndSync(outcome);
    for (const n of nodes) {
      assert.equal(n.store.latestCheckpointNumber, 1);
      const published = n.store.getCheckpoint(1)!;
      assert.deepEqual(
        published.attestations.map((a) => a.address),
        committee,
      );
      assert.deepEqual(
        published.attestations.map((a) => a.signature),
        result,
      );
      assert.equal(n.worldState.latestBlockNumber, blocks.at(-1)!.number);
      assert.ok(n.store.getTxEffect(tx.hash) !== undefined, 'n.store.getTxEffect(tx.hash) !== undefined');
      assert.deepEqual(n.passErrors, []);
    }
  });

  let noQuorum: { slot: number; bytes: Uint8Array; proposal: CheckpointProposal } | undefined;

  test('slot 2: without the other node, no quorum: undefined after the deadline, nothing sent to L1', async () => {
    const tx = makeTx(2n, genesisHeader);
    await sendToBoth(tx);
    await mineInto(2);
    const { P, O } = await roles(2);
    for (const n of nodes) hub.setConnected(n.name, false);
    P.waitMs = 400;
    const before = hub.published.length;
    const outcome = (await passes()).get(P)!.sequencer;
    P.waitMs = 5000;
    await settle();
    for (const n of nodes) hub.setConnected(n.name, true);
    assert.equal(outcome?.kind, 'no-quorum');
    const { result, ms } = P.gathered.at(-1)!;
    assert.equal(result, undefined);
    assert.ok(ms >= 390, `waited ${ms} ms`);
    assert.equal(await rollup.pendingCheckpointNumber(), 1);
    // The proposal went out (to no one); the other node saw nothing.
    const sent = hub.published.slice(before).filter((p) => p.topic === TOPICS.checkpointProposal);
    assert.equal(sent.length, 1);
    assert.deepEqual(O.consensus.pool.checkpointProposals(2), []);
    const proposal = decodeCheckpointProposal(sent[0]!.data);
    assert.ok(
      decodeCheckpointBody(proposal.body).blocks[0]!.body.txEffects.length > 0,
      'decodeCheckpointBody(proposal.body).blocks[0]!.body.txEffects.length > 0',
    );
    noQuorum = { slot: 2, bytes: sent[0]!.data, proposal };
  });

  test('slot 2: attestPending refuses a body that does not re-execute; chain and world state stay', async () => {
    assert.ok(noQuorum, 'noQuorum');
    const { O } = await roles(noQuorum.slot);
    // The same proposal, its proposer's signature and digest, with one tx effect changed: still a
    // well-formed body whose header and archive agree with the digest, but its blocks do not re-execute.
    const body = decodeCheckpointBody(noQuorum.proposal.body);
    const effect = body.blocks[0]!.body.txEffects[0]!;
    effect.noteHashes = [effect.noteHashes[0]! + 1n, ...effect.noteHashes.slice(1)];
    const tampered = { ...noQuorum.proposal, body: encodeCheckpointBody(body) };
    assert.notDeepEqual(Buffer.from(tampered.body), Buffer.from(noQuorum.proposal.body));
    const stateBefore = stateOf(O);
    const attestationsBefore = hub.published.filter((p) => p.topic === TOPICS.attestation).length;
    assert.equal(
      await O.consensus.client.onCheckpointProposal(encodeCheckpointProposal(tampered), 'P'),
      'accept',
    );
    await settle();
    await O.pass();
    await settle();
    assert.deepEqual(stateOf(O), stateBefore);
    assert.equal(hub.published.filter((p) => p.topic === TOPICS.attestation).length, attestationsBefore);
    assert.deepEqual(
      O.consensus.pool.attestations(noQuorum.slot).filter((a) => isLocal(O, a.attester)),
      [],
    );
    assert.ok(
      O.logs.some((l) => /not attesting checkpoint 2 .*does not re-execute/.test(l)),
      O.logs.join('\n'),
    );
    assert.deepEqual(O.passErrors, []);
  });

  test('slot 2: the genuine proposal is still attested after a tampered copy of it (same digest) arrived first', async () => {
    assert.ok(noQuorum, 'noQuorum');
    const { O } = await roles(noQuorum.slot);
    const verdict = await O.consensus.client.onCheckpointProposal(noQuorum.bytes, 'P');
    await settle();
    await O.pass();
    await settle();
    assert.equal(verdict, 'accept');
    const digest = attestationDigest(domain, noQuorum.proposal);
    assert.ok(
      O.consensus.pool.attestations(noQuorum.slot, digest).some((a) => isLocal(O, a.attester)),
      'O.consensus.pool.attestations(noQuorum.slot, digest).some((a) => isLocal(O, a.attester))',
    );
  });

  test('slot 2: a body whose tx effects cannot be applied (a duplicate nullifier) is refused without throwing', async () => {
    assert.ok(noQuorum, 'noQuorum');
    // A new digest (another checkpoint header: fee recipient changed) whose body still agrees with it.
    const { O, proposer } = await roles(noQuorum.slot);
    const body = decodeCheckpointBody(noQuorum.proposal.body);
    body.header = { ...body.header, feeRecipient: body.header.feeRecipient + 1n };
    const effect = body.blocks[0]!.body.txEffects[0]!;
    effect.nullifiers = [effect.nullifiers[0]!, effect.nullifiers[0]!, ...effect.nullifiers.slice(1)];
    const p = {
      ...noQuorum.proposal,
      header: body.header,
      headerHash: checkpointHeaderHash(body.header),
      body: encodeCheckpointBody(body),
    };
    const stateBefore = stateOf(O);
    // Only the pass below handles it: the pass the proposal asks for finds sync paused (as
    // svcAdmin_pauseSync leaves it) and does nothing.
    await O.core.pass.driver.pauseSync();
    const verdict = await O.consensus.client.onCheckpointProposal(
      encodeCheckpointProposal({ ...p, signature: await signDigest(proposer, attestationDigest(domain, p)) }),
      'P',
    );
    await settle();
    O.core.pass.driver.resumeSync();
    assert.equal(verdict, 'accept');
    // A chain pass must not throw on a peer's bad proposal, and leaves the chain as it was.
    const pass = O.pass();
    await pass.catch(() => {});
    assert.deepEqual(stateOf(O), stateBefore);
    await assert.doesNotReject(pass);
  });

  test('slot 3: a rival proposal by the same proposer is an offense, and the attesters do not sign it', async () => {
    const outcome = await enter(3);
    const { P, O, proposer } = await roles(3);
    await settle();
    assert.equal(outcome?.kind, 'published');
    const original = P.gathered.at(-1)!;
    assert.ok(original.result !== undefined, 'original.result !== undefined');
    const originalDigest = attestationDigest(domain, original.c);
    const signedByO = O.validators.filter((v) =>
      O.consensus.pool
        .attestations(3, originalDigest)
        .some((a) => a.attester === v.attester.address.toLowerCase()),
    );
    assert.ok(signedByO.length > 0, 'the other node attested the original');
    // Same body, another header hash: signed by the slot's proposer, so it passes the signature check.
    const sent = hub.publishedBy(P.name, TOPICS.checkpointProposal, decodeCheckpointProposal).at(-1)!;
    const rival = { ...sent, headerHash: sent.headerHash ^ 1n };
    const rivalDigest = attestationDigest(domain, rival);
    rival.signature = await signDigest(proposer, rivalDigest);
    const attestationsBefore = hub.published.filter((p) => p.topic === TOPICS.attestation).length;
    O.logs.length = 0;
    assert.equal(
      await O.consensus.client.onCheckpointProposal(encodeCheckpointProposal(rival), 'P'),
      'accept',
    );
    await settle();
    await O.pass();
    await settle();
    assert.deepEqual(
      O.consensus.offenses
        .all()
        .filter((o) => o.offenseType === OffenseType.DUPLICATE_PROPOSAL && o.epochOrSlot === 3n),
      [
        {
          validator: proposer.address.toLowerCase(),
          amount: 11n,
          offenseType: OffenseType.DUPLICATE_PROPOSAL,
          epochOrSlot: 3n,
        },
      ],
    );
    // Nobody on the other node signed the rival, nor anything else.
    assert.deepEqual(O.consensus.pool.attestations(3, rivalDigest), []);
    assert.equal(hub.published.filter((p) => p.topic === TOPICS.attestation).length, attestationsBefore);
    // The original is what L1 takes.
    await mineAndSync(outcome);
    for (const n of nodes) {
      assert.equal(n.store.latestCheckpointNumber, 2);
      assert.deepEqual(n.passErrors, []);
    }
    for (const n of nodes) assert.equal(storedDigest(n.store, 2), originalDigest);
  });

  test('slot 3: the rival is found invalid by its checks (header vs header hash), not only by slashing protection', async () => {
    const { O } = await roles(3);
    assert.ok(
      O.logs.some((l) => /not attesting checkpoint 2 .*header/.test(l)),
      O.logs.join('\n'),
    );
    assert.ok(!O.logs.some((l) => /already signed another checkpoint/.test(l)), O.logs.join('\n'));
  });

  test('the nodes never signed two different checkpoint digests in one slot (all gossip of this run)', async () => {
    const seen = new Map<string, Set<Hex>>();
    const note = async (digest: Hex, sig: Hex, slot: number) => {
      const signer = (await signerOf(digest, sig))!;
      const key = `${signer}/${slot}`;
      const set = seen.get(key) ?? new Set();
      set.add(digest);
      seen.set(key, set);
    };
    for (const p of hub.published) {
      if (p.topic === TOPICS.checkpointProposal) {
        const d = decodeCheckpointProposal(p.data);
        await note(attestationDigest(domain, d), d.signature, d.slot);
      } else if (p.topic === TOPICS.attestation) {
        const a = decodeAttestation(p.data);
        const digest = attestationDigest(domain, a);
        await note(digest, a.signature, a.slot);
        await note(digest, a.proposerSignature, a.slot);
      }
    }
    assert.ok(seen.size >= 4, 'seen.size >= 4');
    for (const [key, digests] of seen) assert.equal(digests.size, 1, key);
  });

  test('the monitor of the attesting node records slots 1..3 from L1 and its pool', async () => {
    await enter(4);
    await settle();
    // The node that did not propose in slot 2: it saw only the tampered proposal. Its monitor
    // (validatorStats) recorded each slot in its first chain pass after the slot ended.
    const { O } = await roles(2);
    const stats = O.consensus.stats!;
    assert.equal(stats.lastProcessedSlot, 3);
    const all = stats.all().stats;
    const statusAt = (address: string, slot: number) =>
      all[address.toLowerCase()]?.history.find((h) => h.slot === slot)?.status;
    for (const slot of [1, 3]) {
      const proposer = (await O.consensus.committee.proposer(slot))!;
      assert.equal(statusAt(proposer, slot), 'checkpoint-mined');
      const published = O.store.getCheckpoint(O.store.getCheckpointNumberBySlot(slot)!)!;
      const digest = attestationDigest(domain, {
        checkpointNumber: published.checkpoint.number,
        slot,
        archive: published.checkpoint.archive.root,
        headerHash: published.checkpoint.hash,
      });
      // Sent: signed on L1, or seen signing it in the pool (after the proposer had its quorum).
      const inPool = O.consensus.pool.signatures(slot, digest);
      assert.ok(
        published.attestations.some((a) => a.address !== proposer && a.signature !== '0x'),
        "published.attestations.some((a) => a.address !== proposer && a.signature !== '0x')",
      );
      for (const a of published.attestations) {
        if (a.address === proposer) continue;
        const sent = a.signature !== '0x' || inPool.has(a.address);
        assert.equal(statusAt(a.address, slot), sent ? 'attestation-sent' : 'attestation-missed');
      }
    }
    // Slot 2: nothing on L1; this node saw a proposal (the tampered copy first) but no attestation
    // from the proposer's node (cut off), and its own validators refused the tampered body.
    const p2 = (await O.consensus.committee.proposer(2))!;
    assert.equal(statusAt(p2, 2), 'checkpoint-proposed');
    const seen = O.consensus.pool.checkpointProposals(2).find((p) => p.proposer === p2)!;
    const signers = O.consensus.pool.signatures(2, seen.digest);
    for (const m of await O.consensus.committee.committee(0)) {
      if (m === p2) continue;
      if (!isLocal(O, m)) assert.equal(statusAt(m, 2), 'attestation-missed', m);
      else assert.equal(statusAt(m, 2), signers.has(m) ? 'attestation-sent' : 'attestation-missed', m);
    }
    assert.deepEqual(
      O.consensus.offenses
        .all()
        .filter((o) => o.offenseType === OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS),
      [],
    );
  });
});

describe('validator client on its own: messages from peers, slashing protection, waiting', () => {
  const handlerDir = mkdtempSync(join(tmpdir(), 'cairn-validator-handlers-'));
  const members = testAccounts(4, 'validator-handlers');
  const stores = tempStores('cairn-validator-signing-');
  const outsiderKey = generatePrivateKey();
  const outsider = privateKeyToAccount(outsiderKey);
  let l1: L1Connection;
  let rollup: RollupClient;
  let constants: L1RollupConstants;
  let domain: Domain;
  /** A node following the L1 (its one validator, the outsider, is on no committee). */
  let ctx: StartContext;
  let core: NodeCore;

  /**
   * Consensus parts as the node's start builds them (startNetwork, with the node's parts), but
   * with what each case sets: the validators in use, the store of their signing record and
   * offenses (a fresh one unless given), where the requests for a pass go, and the gossip
   * network (none: P2P off, only local validators sign). A whole node per case would add only
   * its start: these cases check the client's answers. Their teardown is their own (nothing to
   * close without libp2p), so the node's is left as it is.
   */
  function consensusOf(o: {
    validators: readonly Validator[];
    nodeStore?: StoreEnvironment;
    requestPass?: () => void;
    gossip?: GossipNetwork;
  }): Promise<Consensus> {
    const requests = new PassRequests();
    requests.listen(o.requestPass ?? (() => {}));
    return startNetwork(
      { ...ctx, teardown: new Teardown(), gossip: o.gossip },
      {
        ...core.stores,
        nodeStore: o.nodeStore ?? stores.fresh(),
        keys: new ValidatorKeys(core.stores.keys.path, o.validators),
      },
      core.l1,
      { ...core.chain, passRequests: requests },
    );
  }

  /** A fresh client with no validators of its own, its current slot at `slot`. */
  async function bystander(slot: number) {
    let passes = 0;
    const { client, pool, offenses } = await consensusOf({
      validators: [],
      requestPass: () => {
        passes++;
      },
    });
    const before = offenses.all().length;
    await client.attestPending(slotStart(slot, constants));
    return {
      client,
      pool,
      newOffenses: () => offenses.all().slice(before),
      passes: () => passes,
    };
  }

  const proposerOf = async (slot: number) => byAddress(members, await rollup.proposerAtSlot(slot));
  const nonProposerOf = async (slot: number) => {
    const p = await rollup.proposerAtSlot(slot);
    return members.find((m) => m.address !== p)!;
  };

  /** An attestation of a checkpoint of `slot` (archive `archive`) by `attester`, co-signed by `proposer`. */
  async function attestationBy(
    slot: number,
    attester: PrivateKeyAccount,
    proposer: PrivateKeyAccount,
    archive = 0xa1n,
  ): Promise<CheckpointAttestation> {
    const header = { ...emptyCheckpointHeader(), slotNumber: slot };
    const payload = { checkpointNumber: 9, slot, archive, headerHash: checkpointHeaderHash(header) };
    const digest = attestationDigest(domain, payload);
    return {
      ...payload,
      header,
      signature: await signDigest(attester, digest),
      proposerSignature: await signDigest(proposer, digest),
    };
  }

  let body: Uint8Array;
  async function proposalBy(slot: number, signer: PrivateKeyAccount, archive = 0xb1n) {
    const payload = { checkpointNumber: 9, slot, archive, headerHash: 0xc1n };
    return {
      ...payload,
      header: emptyCheckpointHeader(),
      body,
      signature: await signDigest(signer, attestationDigest(domain, payload)),
    } satisfies CheckpointProposal;
  }

  before(async () => {
    l1 = await startTestL1(
      handlerDir,
      members.map((a) => a.address),
    );
    rollup = new RollupClient(l1);
    constants = await rollup.constants(2);
    domain = { chainId: l1.chainId, rollup: l1.addresses.rollupAddress };
    const path = join(handlerDir, 'node');
    const config = nodeConfig(l1, path, [outsiderKey], {
      devAccounts: 0,
      slashDuplicateProposalPenalty: 5,
      slashDuplicateAttestationPenalty: 6,
    });
    ctx = startContext(config, path, pino({ level: 'silent' }));
    core = await buildNodeCore(ctx);
    ({ body } = await bodyFixture(20));
  });
  after(async () => {
    try {
      await ctx?.teardown.run();
    } finally {
      await l1?.close();
      rmSync(handlerDir, { recursive: true, force: true });
    }
  });

  test('attestations: by a member with the proposer co-signing accepted; a non-member rejected', async () => {
    const slot = 20;
    const { client, pool } = await bystander(slot);
    const proposer = await proposerOf(slot);
    const member = await nonProposerOf(slot);
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot, member, proposer)), 'x'),
      'accept',
    );
    assert.equal(pool.attestations(slot)[0]!.attester, member.address.toLowerCase());
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot, outsider, proposer)), 'x'),
      'reject',
    );
    // Co-signed by a member who is not the slot's proposer, or by an outsider.
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot, proposer, member)), 'x'),
      'reject',
    );
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot, member, outsider)), 'x'),
      'reject',
    );
    // A signature that is not the member's (one byte changed), or a header that does not hash to its hash.
    const good = await attestationBy(slot, member, proposer, 0xa2n);
    assert.equal(
      await client.onAttestation(encodeAttestation({ ...good, signature: flipByte(good.signature) }), 'x'),
      'reject',
    );
    assert.equal(
      await client.onAttestation(
        encodeAttestation({ ...good, header: { ...good.header, timestamp: 1n } }),
        'x',
      ),
      'reject',
    );
    // Not an attestation at all.
    assert.equal(await client.onAttestation(new TextEncoder().encode('{"slot":20}'), 'x'), 'reject');
    assert.equal(await client.onAttestation(new Uint8Array([0xff]), 'x'), 'reject');
    // Far from the current slot: ignored, whoever signed.
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot + 3, outsider, outsider)), 'x'),
      'ignore',
    );
    // Known already: ignored.
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot, member, proposer)), 'x'),
      'ignore',
    );
    assert.equal(pool.attestations(slot).length, 1);
  });

  test('checkpoint proposals: by the slot proposer accepted (a pass is requested); by anyone else rejected', async () => {
    const slot = 20;
    const { client, pool, passes } = await bystander(slot);
    const proposer = await proposerOf(slot);
    const other = await nonProposerOf(slot);
    assert.equal(
      await client.onCheckpointProposal(encodeCheckpointProposal(await proposalBy(slot, other)), 'x'),
      'reject',
    );
    assert.equal(
      await client.onCheckpointProposal(encodeCheckpointProposal(await proposalBy(slot, outsider)), 'x'),
      'reject',
    );
    const good = await proposalBy(slot, proposer);
    assert.equal(
      await client.onCheckpointProposal(
        encodeCheckpointProposal({ ...good, signature: flipByte(good.signature) }),
        'x',
      ),
      'reject',
    );
    // The proposer of another slot is not this slot's proposer.
    let otherSlot = slot + 1;
    while ((await rollup.proposerAtSlot(otherSlot)) === proposer.address) otherSlot++;
    assert.equal(
      await client.onCheckpointProposal(
        encodeCheckpointProposal({ ...(await proposalBy(otherSlot, proposer)), slot }),
        'x',
      ),
      'reject',
    );
    assert.equal(passes(), 0);
    assert.deepEqual(pool.checkpointProposals(slot), []);
    assert.equal(await client.onCheckpointProposal(encodeCheckpointProposal(good), 'x'), 'accept');
    assert.equal(passes(), 1);
    assert.equal(pool.checkpointProposals(slot)[0]!.proposer, proposer.address.toLowerCase());
    assert.equal(await client.onCheckpointProposal(encodeCheckpointProposal(good), 'x'), 'ignore');
    assert.equal(await client.onCheckpointProposal(new TextEncoder().encode('nope'), 'x'), 'reject');
    assert.equal(
      await client.onCheckpointProposal(encodeCheckpointProposal(await proposalBy(slot - 3, outsider)), 'x'),
      'ignore',
    );
  });

  test('block proposals: by the slot proposer accepted, by anyone else rejected', async () => {
    const slot = 21;
    const { client, pool } = await bystander(slot);
    const proposer = await proposerOf(slot);
    const block = {
      slot,
      checkpointNumber: 9,
      indexWithinCheckpoint: 0,
      blockNumber: 30,
      blockHash: 0x77n,
      archiveRoot: 0x78n,
      txHashes: [1n],
    };
    const digest = blockProposalDigest(domain, {
      slot,
      indexWithinCheckpoint: 0,
      blockHash: block.blockHash,
      archive: block.archiveRoot,
    });
    const by = async (a: PrivateKeyAccount) =>
      encodeBlockProposal({ ...block, signature: await signDigest(a, digest) });
    assert.equal(await client.onBlockProposal(await by(await nonProposerOf(slot)), 'x'), 'reject');
    assert.equal(await client.onBlockProposal(await by(outsider), 'x'), 'reject');
    assert.equal(await client.onBlockProposal(await by(proposer), 'x'), 'accept');
    assert.equal(await client.onBlockProposal(await by(proposer), 'x'), 'ignore');
    assert.equal(pool.blockProposals(slot).length, 1);
    // Signed as an attestation digest instead: not the block proposal's signer.
    const wrong = await signDigest(
      proposer,
      attestationDigest(domain, { checkpointNumber: 9, slot, archive: 1n, headerHash: 1n }),
    );
    assert.equal(
      await client.onBlockProposal(encodeBlockProposal({ ...block, signature: wrong }), 'x'),
      'reject',
    );
  });

  test('two different checkpoint proposals from the proposer in a slot: DUPLICATE_PROPOSAL, once', async () => {
    const slot = 22;
    const { client, newOffenses, pool } = await bystander(slot);
    const proposer = await proposerOf(slot);
    const first = encodeCheckpointProposal(await proposalBy(slot, proposer, 0x1n));
    const second = encodeCheckpointProposal(await proposalBy(slot, proposer, 0x2n));
    const third = encodeCheckpointProposal(await proposalBy(slot, proposer, 0x3n));
    assert.equal(await client.onCheckpointProposal(first, 'x'), 'accept');
    assert.deepEqual(newOffenses(), []);
    assert.equal(await client.onCheckpointProposal(first, 'x'), 'ignore');
    assert.deepEqual(newOffenses(), []);
    assert.equal(await client.onCheckpointProposal(second, 'x'), 'accept');
    const expected = {
      validator: proposer.address.toLowerCase(),
      amount: 5n,
      offenseType: OffenseType.DUPLICATE_PROPOSAL,
      epochOrSlot: BigInt(slot),
    };
    assert.deepEqual(newOffenses(), [expected]);
    // A third is not kept (the pool holds two) and not reported again.
    assert.equal(await client.onCheckpointProposal(third, 'x'), 'ignore');
    assert.equal(pool.checkpointProposals(slot).length, 2);
    assert.deepEqual(newOffenses(), [expected]);
  });

  test('two different block proposals at one position: DUPLICATE_PROPOSAL', async () => {
    const slot = 23;
    const { client, newOffenses } = await bystander(slot);
    const proposer = await proposerOf(slot);
    const proposal = async (blockHash: bigint, index: number) => {
      const digest = blockProposalDigest(domain, {
        slot,
        indexWithinCheckpoint: index,
        blockHash,
        archive: 5n,
      });
      return encodeBlockProposal({
        slot,
        checkpointNumber: 9,
        indexWithinCheckpoint: index,
        blockNumber: 40 + index,
        blockHash,
        archiveRoot: 5n,
        txHashes: [],
        signature: await signDigest(proposer, digest),
      });
    };
    assert.equal(await client.onBlockProposal(await proposal(1n, 0), 'x'), 'accept');
    // Another position is another block, not an equivocation.
    assert.equal(await client.onBlockProposal(await proposal(2n, 1), 'x'), 'accept');
    assert.deepEqual(newOffenses(), []);
    assert.equal(await client.onBlockProposal(await proposal(3n, 0), 'x'), 'accept');
    assert.deepEqual(
      newOffenses().map((o) => [o.validator, o.offenseType, o.epochOrSlot]),
      [[proposer.address.toLowerCase(), OffenseType.DUPLICATE_PROPOSAL, BigInt(slot)]],
    );
  });

  test('two different attestations by one attester in a slot: DUPLICATE_ATTESTATION, once', async () => {
    const slot = 24;
    const { client, newOffenses } = await bystander(slot);
    const proposer = await proposerOf(slot);
    const member = await nonProposerOf(slot);
    const a1 = encodeAttestation(await attestationBy(slot, member, proposer, 0x1n));
    const a2 = encodeAttestation(await attestationBy(slot, member, proposer, 0x2n));
    const a3 = encodeAttestation(await attestationBy(slot, member, proposer, 0x3n));
    assert.equal(await client.onAttestation(a1, 'x'), 'accept');
    assert.equal(await client.onAttestation(a1, 'x'), 'ignore');
    assert.deepEqual(newOffenses(), []);
    assert.equal(await client.onAttestation(a2, 'x'), 'accept');
    const expected = {
      validator: member.address.toLowerCase(),
      amount: 6n,
      offenseType: OffenseType.DUPLICATE_ATTESTATION,
      epochOrSlot: BigInt(slot),
    };
    assert.deepEqual(newOffenses(), [expected]);
    assert.equal(await client.onAttestation(a3, 'x'), 'ignore');
    assert.deepEqual(newOffenses(), [expected]);
    // Another member attesting a1's checkpoint is no offense.
    const another = members.find((m) => m !== member && m !== proposer)!;
    assert.equal(
      await client.onAttestation(encodeAttestation(await attestationBy(slot, another, proposer, 0x1n)), 'x'),
      'accept',
    );
    assert.deepEqual(newOffenses(), [expected]);
  });

  /**
   * A client whose four validators are all local and that has no network (it never waits); its
   * signing record in `recordEnv` (a fresh store unless given).
   */
  async function localClient(recordEnv: StoreEnvironment = stores.fresh()) {
    const { client, pool } = await consensusOf({
      validators: members.map(validatorOf),
      nodeStore: recordEnv,
    });
    return { client, pool };
  }

  async function toAttest(slot: number, archive: bigint): Promise<CheckpointToAttest> {
    const header = { ...emptyCheckpointHeader(), slotNumber: slot };
    return {
      checkpointNumber: 9,
      slot,
      archive,
      headerHash: checkpointHeaderHash(header),
      header,
      body,
      proposer: validatorOf(await proposerOf(slot)),
      committee: (await rollup.epochCommittee(Math.floor(slot / constants.epochDuration))).map((a) =>
        a.toLowerCase(),
      ),
      deadline: Date.now() + 1000,
    };
  }

  test('slashing protection: a second digest in the slot is not signed, by proposer or attesters', async () => {
    const { client, pool } = await localClient();
    const slot = 40;
    const first = await toAttest(slot, 0x1n);
    const signatures = await client.gatherAttestations(first);
    assert.ok(signatures, 'signatures');
    assert.equal(signatures.filter((s) => s !== '0x').length, 4);
    // The same checkpoint again: the same digest may be signed again.
    assert.ok(await client.gatherAttestations(first), 'await client.gatherAttestations(first)');
    const second = await toAttest(slot, 0x2n);
    assert.equal(await client.gatherAttestations(second), undefined);
    assert.deepEqual(pool.attestations(slot, attestationDigest(domain, second)), []);
    // The next slot is a new slot.
    assert.ok(
      await client.gatherAttestations(await toAttest(slot + 1, 0x3n)),
      'await client.gatherAttestations(await toAttest(slot + 1, 0x3n))',
    );
  });

  test('slashing protection holds after signing in a later slot (going back to an earlier one)', async () => {
    const { client, pool } = await localClient();
    assert.ok(
      await client.gatherAttestations(await toAttest(50, 0x1n)),
      'await client.gatherAttestations(await toAttest(50, 0x1n))',
    );
    assert.ok(
      await client.gatherAttestations(await toAttest(51, 0x2n)),
      'await client.gatherAttestations(await toAttest(51, 0x2n))',
    );
    const again = await toAttest(50, 0x3n);
    const result = await client.gatherAttestations(again);
    assert.deepEqual(pool.attestations(50, attestationDigest(domain, again)), []);
    assert.equal(result, undefined);
  });

  test('slashing protection survives a restart: the signing record is on disk', async () => {
    const name = 'restarting-node';
    const before = stores.open(name);
    const first = await localClient(before);
    assert.ok(await first.client.gatherAttestations(await toAttest(70, 0x1n)), 'signed in slot 70');
    await before.close();
    // The node comes back with the same store: a different checkpoint in slot 70 is refused,
    // the same one may be signed again, and a fresh record (another node) signs either.
    const again = await localClient(stores.open(name));
    assert.equal(await again.client.gatherAttestations(await toAttest(70, 0x2n)), undefined);
    assert.ok(await again.client.gatherAttestations(await toAttest(70, 0x1n)), 'the same digest again');
    assert.ok(
      await (await localClient()).client.gatherAttestations(await toAttest(70, 0x2n)),
      'a fresh record signs',
    );
  });

  test('with a network but no peers, gatherAttestations waits for the deadline, then gives up', async () => {
    const published: string[] = [];
    const proposer = await proposerOf(60);
    // A network of no peers that records what the client publishes on it.
    const { client, pool } = await consensusOf({
      validators: [validatorOf(proposer)],
      gossip: {
        publish: async (topic) => {
          published.push(topic);
          return 0;
        },
        holdBulk: () => () => {},
        subscribe: () => {},
        announce: async () => 0,
      },
    });
    const c = { ...(await toAttest(60, 0x1n)), deadline: Date.now() + 300 };
    const started = Date.now();
    assert.equal(await client.gatherAttestations(c), undefined);
    assert.ok(Date.now() - started >= 290, 'Date.now() - started >= 290');
    // It published the proposal and its own attestation (the proposer is on the committee).
    assert.deepEqual(published, [TOPICS.checkpointProposal, TOPICS.attestation]);
    assert.equal(pool.signatures(60, attestationDigest(domain, c)).size, 1);
    // Once a quorum of attestations arrives (here: straight into the pool), it returns them.
    const others = members.filter((m) => m.address !== proposer.address);
    const digest = attestationDigest(domain, c);
    const gathering = client.gatherAttestations({ ...c, deadline: Date.now() + 5000 });
    const started2 = Date.now();
    for (const m of others.slice(0, 2)) {
      await new Promise((r) => setTimeout(r, 30));
      pool.addAttestation({
        ...(await attestationBy(60, m, proposer, 0x1n)),
        header: c.header,
        headerHash: c.headerHash,
        checkpointNumber: 9,
        archive: 0x1n,
        signature: await signDigest(m, digest),
        digest,
        attester: m.address.toLowerCase(),
      });
    }
    const result = await gathering;
    assert.ok(result, 'result');
    assert.ok(Date.now() - started2 < 2000, 'Date.now() - started2 < 2000');
    assert.equal(result.filter((s) => s !== '0x').length, 3);
    for (const [i, s] of result.entries())
      if (s !== '0x') assert.equal(await signerOf(digest, s), c.committee[i]);
  });
});
