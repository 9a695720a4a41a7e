// A chain that holds every kind of data a node serves, built on a real node with the manual clock
// through cairn's own client: txs with note hashes, nullifiers, tagged private logs (one tag with
// more logs than a page holds) and L2-to-L1 messages, an L1-to-L2 message inserted by its
// checkpoint, Token published (class with its bytecode, instance, constructor) and minted in
// public (public storage), Child published and called (a public log), proven and finalized
// epochs, and a block with a tx after them (so the proposed tip is ahead of the proven one).
// Tests that read the chain through some API check their answers against what `buildRichChain`
// returns.
import { ensureArtifacts, loadArtifactJson } from '../../src/artifacts/npm-artifacts.js';
import {
  type ContractArtifact,
  computeSecretHash,
  contractClassOf,
  deployContract,
  devAccounts,
  findFunction,
  NodeClient,
  parseArtifact,
  prepareTx,
  publicCall,
  randomFr,
  sendTx,
  storageSlot,
} from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import { type CairnProcess, slotStepper } from './process.js';
import { result } from './rpc.js';
import { until } from './until.js';

const hex = toHex32;
const NOIR = '@aztec/noir-contracts.js@4.1.2';
const TEST = '@aztec/noir-test-contracts.js@4.1.2';
/** Anvil's funded account 2: the L1 recipient of the L2-to-L1 messages. */
export const L1_RECIPIENT = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';

/** One tx the chain holds: its note hashes and nullifiers as in the chain, its private logs' fields. */
export interface RichTx {
  hash: string;
  block: number;
  noteHashes: bigint[];
  nullifiers: bigint[];
  privateLogs: bigint[][];
}

export interface RichChain {
  /** The txs with side effects of their own: `a` and `b` share a block; `a` sends an L2-to-L1 message. */
  txs: { a: RichTx; b: RichTx };
  /** A tx in the latest block, after the proven ones (checkpointed, not proven). */
  lateTx: string;
  /** Tag with more logs than one page of either API (13 in `a`, 12 in `b`). */
  bigTag: bigint;
  /** Tag with one log (in `a`). */
  smallTag: bigint;
  /** A tag no log has. */
  unknownTag: bigint;
  /** The L2-to-L1 message `a` sends: its content, its leaf (as the node gives it) and its epoch. */
  l2ToL1: { content: bigint; message: string; epoch: number; block: number };
  /** The L1-to-L2 message: its hash, checkpoint, leaf index and the block that inserted it. */
  l1ToL2: { messageHash: string; checkpointNumber: number; index: string; block: number };
  token: {
    artifact: ContractArtifact;
    address: bigint;
    classId: bigint;
    /** The class's packed public bytecode, as published. */
    packedBytecode: Uint8Array;
    deployBlock: number;
    /** The slot of alice's public balance, and that balance. */
    balanceSlot: bigint;
    balance: bigint;
    mintTx: string;
  };
  child: {
    address: bigint;
    /** The value pub_set_value stored; the first field (the tag) of the public log it emitted. */
    value: bigint;
    callTx: string;
    callBlock: number;
  };
  /** The proven tip's block and epoch when the chain was built, and the latest block then. */
  provenEpoch: number;
  provenBlock: number;
  latestBlock: number;
  accounts: { alice: bigint; bob: bigint };
}

/**
 * Builds the chain on `node` (started with `--clock manual`): ~20-40 s, most of it waiting for
 * the embedded L1 to save the block of the proof (finality). Needs the npm artifacts
 * (`ensureArtifacts`).
 */
export async function buildRichChain(
  node: CairnProcess,
  log: (line: string) => void = () => {},
): Promise<RichChain> {
  await ensureArtifacts();
  const token = parseArtifact(loadArtifactJson(NOIR, 'artifacts/token_contract-Token.json'));
  const child = parseArtifact(loadArtifactJson(TEST, 'artifacts/child_contract-Child.json'));
  const [alice, bob] = devAccounts(2).map((a) => a.address) as [bigint, bigint];
  const client = new NodeClient(node.publicUrl);
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  const nextBlock = slotStepper(() => node);
  const receipt = async (hash: string, what: string) => {
    const r = await pub('svc_getTxReceipt', [hash]);
    if (r.status === 'pending' || r.status === 'dropped' || r.executionResult !== 'success')
      throw new Error(`${what}: ${JSON.stringify(r)}`);
    return r;
  };

  await nextBlock();

  // The L1-to-L2 message goes first: its checkpoint inserts it a few blocks on.
  const sent = await dev('svcDev_sendL1ToL2Message', [
    hex(0x1234n),
    hex(randomFr()),
    hex(computeSecretHash(7n)),
  ]);
  log(`rich chain: L1-to-L2 message ${sent.messageHash} for checkpoint ${sent.checkpointNumber}`);

  // Two txs in one block: side effects of every kind, and logs of one tag over both.
  const bigTag = randomFr();
  const smallTag = randomFr();
  const l2ToL1Content = randomFr();
  const specA = {
    noteHashes: [randomFr(), randomFr(), randomFr()],
    nullifiers: [randomFr(), randomFr()],
    privateLogs: [
      ...Array.from({ length: 13 }, (_, i) => [bigTag, BigInt(i + 1), randomFr()]),
      [smallTag, 99n, randomFr(), randomFr()],
    ],
  };
  const specB = {
    noteHashes: [randomFr()],
    nullifiers: [randomFr()],
    privateLogs: Array.from({ length: 12 }, (_, i) => [bigTag, BigInt(100 + i)]),
  };
  const a = await prepareTx(client, {
    feePayer: alice,
    ...specA,
    l2ToL1Msgs: [{ sender: alice, recipient: L1_RECIPIENT, content: l2ToL1Content }],
  });
  const b = await prepareTx(client, { feePayer: bob, ...specB });
  await client.request('svc_sendTx', a.wire);
  await client.request('svc_sendTx', b.wire);
  const txBlock = await nextBlock();
  for (const [t, what] of [
    [a, 'tx a'],
    [b, 'tx b'],
  ] as const) {
    const r = await receipt(t.hash, what);
    if (r.blockNumber !== txBlock) throw new Error(`${what} is in block ${r.blockNumber}, not ${txBlock}`);
  }
  const effectOf = async (hash: string) =>
    (await pub('svc_getTxReceipt', [hash, { includeTxEffect: true }])).txEffect;
  const [effectA, effectB] = [await effectOf(a.hash), await effectOf(b.hash)];
  const message = effectA.l2ToL1Msgs[0] as string;
  // As the chain holds them: the note hashes made unique per tx, the nullifiers with the
  // protocol nullifier first.
  const txs = {
    a: {
      hash: a.hash,
      block: txBlock,
      noteHashes: effectA.noteHashes.map(BigInt),
      nullifiers: effectA.nullifiers.map(BigInt),
      privateLogs: specA.privateLogs,
    },
    b: {
      hash: b.hash,
      block: txBlock,
      noteHashes: effectB.noteHashes.map(BigInt),
      nullifiers: effectB.nullifiers.map(BigInt),
      privateLogs: specB.privateLogs,
    },
  };
  log(`rich chain: txs a and b in block ${txBlock}`);

  // Token: class, instance and constructor in one tx, then a public mint.
  const deployed = await deployContract(client, {
    artifact: token,
    args: [hex(alice), 'Cairn Token', 'CTK', 18],
    salt: randomFr(),
    from: alice,
  });
  const deployBlock = await nextBlock();
  await receipt(deployed.hash, 'Token deployment');
  const minted = await sendTx(
    client,
    {
      publicCalls: [publicCall(deployed.address, findFunction(token, 'mint_to_public'), [hex(alice), 1000])],
    },
    { from: alice },
    token,
  );
  await nextBlock();
  await receipt(minted.hash, 'Token mint');
  log(`rich chain: Token at ${hex(deployed.address)} (block ${deployBlock}), 1000 minted to alice`);

  // Child: a public call that stores a value and emits it as a public log.
  const c = await deployContract(client, { artifact: child, from: alice, salt: randomFr() });
  await nextBlock();
  await receipt(c.hash, 'Child deployment');
  const value = randomFr() >> 8n;
  const set = await sendTx(
    client,
    { publicCalls: [publicCall(c.address, findFunction(child, 'pub_set_value'), [hex(value)])] },
    { from: alice },
    child,
  );
  const callBlock = await nextBlock();
  await receipt(set.hash, 'Child call');

  // The L1-to-L2 message: inserted by the first block of its checkpoint.
  let l1ToL2Block: number | null = null;
  for (let i = 0; i < 8 && l1ToL2Block === null; i++) {
    l1ToL2Block = await pub('node_getL1ToL2MessageBlock', [sent.messageHash]);
    if (l1ToL2Block === null) await nextBlock();
  }
  if (l1ToL2Block === null) throw new Error(`the L1-to-L2 message ${sent.messageHash} was not inserted`);

  // Prove the epochs so far (the dev prover proves an ended epoch), let L1 finalize the proof,
  // then one more block so that the proposed tip is past the proven one.
  await dev('svcDev_advanceToNextEpoch');
  await dev('svcDev_advanceToNextEpoch');
  // The proof's L1 block is final once it is deep enough and the embedded L1 has saved it, which
  // it does at most every so often (wall time; a late save asks for a pass itself): wait for the
  // finalized tip to reach the proven one, so that nothing moves any more while tests read the
  // chain. An L1 block is mined every 5 s: with the manual clock only dev methods run passes.
  await dev('svcDev_mine', [2]);
  const settled = (t: any) =>
    t.proven.block.number >= l1ToL2Block && t.finalized.block.number === t.proven.block.number;
  let mined = Date.now();
  const tips = await until(
    'the epochs proven and finalized',
    async () => {
      if (Date.now() - mined > 5000) {
        await dev('svcDev_mine', [1]);
        mined = Date.now();
      }
      const t = await pub('svc_getChainTips');
      return settled(t) && t;
    },
    90_000,
    250,
  );
  const late = await prepareTx(client, { feePayer: bob, noteHashes: [randomFr()], nullifiers: [randomFr()] });
  await client.request('svc_sendTx', late.wire);
  await nextBlock();
  await receipt(late.hash, 'the last tx');
  // Until the tips stay the same for a second (a proof under way lands), then the facts.
  let last = JSON.stringify(tips);
  const final = await until(
    'the tips to settle',
    async () => {
      await new Promise((r) => setTimeout(r, 1000));
      const t = await pub('svc_getChainTips');
      const same = JSON.stringify(t) === last;
      last = JSON.stringify(t);
      return same && t;
    },
    60_000,
    0,
  );
  const provenBlock = final.proven.block.number as number;
  const latestBlock = final.proposed.number as number;
  const { epochDuration } = await pub('svc_getL1Constants');
  const provenSlot = (await pub('svc_getBlock', [provenBlock])).header.globalVariables.slotNumber;
  const provenEpoch = Math.floor(Number(provenSlot) / epochDuration);
  const l2ToL1Witness = await pub('svc_getL2ToL1MembershipWitness', [a.hash, message]);
  if (l2ToL1Witness === null) throw new Error('no L2-to-L1 witness after the proof');
  log(
    `rich chain: proven up to block ${provenBlock} (epoch ${provenEpoch}), finalized up to ` +
      `${final.finalized.block.number}, latest ${latestBlock}`,
  );

  const balanceSlot = storageSlot(token, 'public_balances', [alice]);
  return {
    txs,
    lateTx: late.hash,
    bigTag,
    smallTag,
    unknownTag: randomFr(),
    l2ToL1: { content: l2ToL1Content, message, epoch: l2ToL1Witness.epochNumber, block: txBlock },
    l1ToL2: {
      messageHash: sent.messageHash,
      checkpointNumber: sent.checkpointNumber,
      index: String(sent.index),
      block: l1ToL2Block,
    },
    token: {
      artifact: token,
      address: deployed.address,
      classId: deployed.classId,
      packedBytecode: contractClassOf(token).packedBytecode,
      deployBlock,
      balanceSlot,
      balance: 1000n,
      mintTx: minted.hash,
    },
    child: { address: c.address, value, callTx: set.hash, callBlock },
    provenEpoch,
    provenBlock,
    latestBlock,
    accounts: { alice, bob },
  };
}
