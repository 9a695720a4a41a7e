// Records an example call of every method the node serves, on a real chain, for rpc.discover and
// docs/methods.md: starts the built `cairn` (dist/, so `npm run build` first) with the manual
// clock, builds a chain with every kind of data on it (test/helpers/rich-chain.ts: txs with note
// hashes, nullifiers, tagged logs and an L2-to-L1 message, an L1-to-L2 message, Token and Child
// published and called, proven and finalized epochs), then calls each method of each face — the
// public port's `svc_` and `node_`, the admin port's `svcAdmin_`, `nodeAdmin_` and `svcDev_`, and
// the reference API at `/aztec` — with params taken from that chain, and writes the params and
// the result each call returned to src/client/methods/examples.ts. Methods that change the node
// run after the reads, in an order that leaves the chain usable (a dev snapshot before the dev
// writes and a revert after them; `svcDev_reset` last).
//
//   npm run record:examples   (the build, this, then docs/methods.md: 30-60 s)
//
// A method the node lists in rpc.discover without a recipe below fails the run, naming it (add
// its params to PUBLIC, AZTEC or ADMIN); so does a call that answers with an error. A value method
// that answered null is named in a warning. Nothing here writes a result by hand.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findFunction,
  NodeClient,
  prepareTx,
  publicCall,
  randomFr,
  storageSlot,
} from '../src/client/index.js';
import { toHex32 } from '../src/core/field.js';
import { functionSelector } from '../src/core/hash/selector.js';
import { encodeTxJson } from '../src/core/kernel/tx-json.js';
import { type CairnProcess, startCairn } from '../test/helpers/process.js';
import { buildRichChain, type RichChain } from '../test/helpers/rich-chain.js';
import { NO_RESULT } from './method-docs.js';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'src', 'client', 'methods', 'examples.ts');
const hex = toHex32;
const say = (line: string) => process.stderr.write(`${line}\n`);

type Face = 'public' | 'admin' | 'aztec';
/** The node's JSON answers, read by their shape. */
// biome-ignore lint/suspicious/noExplicitAny: the answers of every method, read by shape
type Json = any;
interface Example {
  name: string;
  description?: string;
  params: { name: string; value: unknown }[];
  result: { name: string; value: unknown };
}
interface Ctx {
  chain: RichChain;
  node: CairnProcess;
  client: NodeClient;
  /** Values learned from earlier calls (block hashes, a pending tx, the snapshot id, …). */
  v: Record<string, Json>;
}
type Params = (c: Ctx) => unknown[] | Promise<unknown[]>;

let rpcId = 0;
/** Calls a method; `absent` when the answer has no `result` (the reference's transport, for no value). */
async function call(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<{ result: Json; absent: boolean }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return { result: body.result ?? null, absent: !('result' in body) };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<Json> {
  return (await call(url, method, params)).result;
}

/**
 * A fresh tx with side effects of its own, built on the node's latest block, not sent: `wire` in
 * cairn's JSON, `reference` in the reference's (for /aztec).
 */
async function freshTx(c: Ctx): Promise<{ hash: string; wire: unknown; reference: unknown }> {
  const t = await prepareTx(c.client, {
    feePayer: c.chain.accounts.bob,
    noteHashes: [randomFr()],
    nullifiers: [randomFr()],
  });
  return { hash: t.hash, wire: t.wire, reference: encodeTxJson({ txHash: BigInt(t.hash), ...t.tx }) };
}

/** A tx calling Token's balance_of_public for alice: what simulatePublicCalls runs. */
async function balanceCallTx(c: Ctx, form: 'wire' | 'reference' = 'wire'): Promise<unknown> {
  const t = await balanceCall(c);
  return form === 'wire' ? t.wire : encodeTxJson({ txHash: BigInt(t.hash), ...t.tx });
}

/** The tx of balanceCallTx, with its hash. */
async function balanceCall(c: Ctx): Promise<Awaited<ReturnType<typeof prepareTx>>> {
  const { token, accounts } = c.chain;
  return prepareTx(c.client, {
    feePayer: accounts.alice,
    publicCalls: [
      publicCall(token.address, findFunction(token.artifact, 'balance_of_public'), [hex(accounts.alice)], {
        isStaticCall: true,
      }),
    ],
  });
}

const a = (c: Ctx) => c.chain.txs.a;

// ---- Recipes: the params of each method, in the order they are called ------------------------
// Each face's methods by full name. A method with no entry here fails the run.

/** Calls made before the reads: txs sent and left pending (the manual clock builds no block). */
const SENDS: [Face, string, Params][] = [
  [
    'public',
    'svc_sendTx',
    // A tx with a public call, so that svc_getTxPublicCalls has one to show.
    async (c) => {
      const t = await balanceCall(c);
      c.v.pendingSvc = t.hash;
      return [t.wire];
    },
  ],
  [
    'public',
    'node_sendTx',
    async (c) => {
      const t = await freshTx(c);
      c.v.pendingNode = t.hash;
      return [t.wire];
    },
  ],
];

/**
 * The reference's Tx is large (its proof), so /aztec's tx methods share one: checked, simulated,
 * then sent, after the pending txs of the calls above are mined, so that the pending tx methods
 * show just it.
 */
const AZTEC_SENDS: [string, Params][] = [
  ['node_isValidTx', async (c) => [c.v.aztecTx]],
  ['node_simulatePublicCalls', async (c) => [c.v.aztecTx, true]],
  ['node_sendTx', async (c) => [c.v.aztecTx]],
];

const PUBLIC: Record<string, Params> = {
  // info
  svc_getNodeInfo: () => [],
  svc_getNodeVersion: () => [],
  svc_getVersion: () => [],
  svc_getChainId: () => [],
  svc_isReady: () => [],
  svc_getEncodedEnr: () => [],
  svc_getL1ContractAddresses: () => [],
  svc_getProtocolContractAddresses: () => [],
  svc_getAllowedPublicSetup: () => [],
  svc_getWorldStateSyncStatus: () => [],
  node_getNodeInfo: () => [],
  node_getNodeVersion: () => [],
  node_getVersion: () => [],
  node_getChainId: () => [],
  node_isReady: () => [],
  node_getEncodedEnr: () => [],
  node_getL1ContractAddresses: () => [],
  node_getProtocolContractAddresses: () => [],
  node_getAllowedPublicSetup: () => [],
  node_getWorldStateSyncStatus: () => [],
  node_registerContractFunctionSignatures: () => [['balance_of_public(Field)']],
  // chain
  svc_getBlockNumber: () => ['proven'],
  svc_getCheckpointNumber: () => ['proven'],
  svc_getChainTips: () => [],
  svc_getL1Constants: () => [],
  svc_getSyncedL2SlotNumber: () => [],
  svc_getSyncedL2EpochNumber: () => [],
  svc_getSyncedL1Timestamp: () => [],
  svc_getBlock: (c) => [c.chain.child.callBlock],
  svc_getBlockData: (c) => [c.v.blockHashA],
  svc_getBlocks: (c) => [a(c).block, 2],
  svc_getCheckpoint: () => ['proven'],
  svc_getCheckpoints: () => [1, 2],
  svc_getCheckpointsData: () => [{ from: 1, limit: 2 }],
  node_getBlockNumber: () => [],
  node_getProvenBlockNumber: () => [],
  node_getL2Tips: () => [],
  node_getBlock: (c) => [c.chain.child.callBlock],
  node_getBlockHeader: (c) => [a(c).block],
  node_getBlocks: (c) => [c.chain.latestBlock, 1],
  // txs and fees
  svc_isValidTx: async (c) => [(await freshTx(c)).wire],
  svc_simulatePublicCalls: async (c) => [await balanceCallTx(c), true],
  svc_getPendingTxCount: () => [],
  svc_getPendingTxs: () => [2],
  svc_getTxEffect: (c) => [c.chain.child.callTx],
  svc_getTxReceipt: (c) => [a(c).hash],
  svc_getTxByHash: (c) => [c.v.pendingSvc],
  svc_getTxsByHash: (c) => [[c.v.pendingSvc, c.v.pendingNode]],
  svc_getCurrentMinFees: () => [],
  svc_getPredictedMinFees: () => ['target'],
  svc_getMaxPriorityFees: () => [],
  svc_getTxPublicCalls: (c) => [c.v.pendingSvc],
  // One signature registered above (node_registerContractFunctionSignatures), one selector unknown.
  svc_getFunctionSignatures: () => [
    [`0x${functionSelector('balance_of_public(Field)').toString(16).padStart(8, '0')}`, '0x00c0ffee'],
  ],
  node_isValidTx: async (c) => [(await freshTx(c)).wire],
  node_simulatePublicCalls: async (c) => [await balanceCallTx(c), true],
  node_getPendingTxCount: () => [],
  node_getPendingTxs: () => [2],
  node_getTxEffect: (c) => [c.chain.child.callTx],
  node_getTxReceipt: (c) => [a(c).hash],
  node_getTxByHash: (c) => [c.v.pendingNode],
  node_getCurrentBaseFees: () => [],
  // validators, P2P
  svc_getValidatorsStats: () => [],
  svc_getValidatorStats: (c) => [c.v.validator],
  svc_getPeers: () => [],
  svc_getCheckpointAttestationsForSlot: (c) => [c.v.slotA],
  svc_getProposalsForSlot: (c) => [c.v.slotA],
  node_getValidatorsStats: () => [],
  node_getValidatorStats: (c) => [c.v.validator],
  // state
  svc_findLeavesIndexes: (c) => [a(c).block, 1, a(c).noteHashes.slice(0, 2).map(hex)],
  svc_getNullifierMembershipWitness: (c) => [a(c).block, hex(a(c).nullifiers[1]!)],
  svc_getLowNullifierMembershipWitness: (c) => [a(c).block, hex(randomFr())],
  svc_getPublicDataWitness: (c) => ['latest', c.v.leafSlot],
  svc_getNoteHashMembershipWitness: (c) => [a(c).block, hex(a(c).noteHashes[0]!)],
  svc_getPublicStorageAt: (c) => ['latest', hex(c.chain.token.address), hex(c.chain.token.balanceSlot)],
  svc_getBlockHashMembershipWitness: (c) => ['latest', c.v.blockHashA],
  node_findLeavesIndexes: (c) => [a(c).block, 1, a(c).noteHashes.slice(0, 2).map(hex)],
  node_getNullifierMembershipWitness: (c) => [a(c).block, hex(a(c).nullifiers[1]!)],
  node_getLowNullifierMembershipWitness: (c) => [a(c).block, hex(randomFr())],
  node_getPublicDataWitness: (c) => ['latest', c.v.leafSlot],
  node_getNoteHashMembershipWitness: (c) => [a(c).block, hex(a(c).noteHashes[0]!)],
  node_getPublicStorageAt: (c) => ['latest', hex(c.chain.token.address), hex(c.chain.token.balanceSlot)],
  node_getArchiveMembershipWitness: (c) => ['latest', c.v.blockHashA],
  node_getArchiveSiblingPath: (c) => ['latest', a(c).block],
  node_getNoteHashSiblingPath: (c) => [a(c).block, c.v.noteHashIndex],
  node_getNullifierSiblingPath: (c) => [a(c).block, c.v.nullifierIndex],
  node_getPublicDataSiblingPath: () => ['latest', 0],
  // logs
  svc_getPrivateLogsByTags: (c) => [{ tags: [hex(c.chain.smallTag)] }],
  svc_getPublicLogsByTags: (c) => [{ tags: [c.v.publicTag], contractAddress: hex(c.chain.child.address) }],
  node_getLogsByTags: (c) => [[hex(c.chain.smallTag)]],
  node_getPrivateLogs: (c) => [a(c).block, 1],
  node_getPublicLogs: (c) => [{ txHash: c.chain.child.callTx }],
  node_getContractClassLogs: (c) => [
    { fromBlock: c.chain.token.deployBlock, toBlock: c.chain.token.deployBlock + 1 },
  ],
  // contracts
  svc_getContract: (c) => [hex(c.chain.child.address)],
  svc_getContractClass: (c) => [c.v.childClassId],
  node_getContract: (c) => [hex(c.chain.child.address)],
  node_getContractClass: (c) => [c.v.childClassId],
  // messages
  svc_getL1ToL2MessageMembershipWitness: (c) => ['latest', c.chain.l1ToL2.messageHash],
  svc_getL1ToL2MessageCheckpoint: (c) => [c.chain.l1ToL2.messageHash],
  svc_getL2ToL1MembershipWitness: (c) => [a(c).hash, c.chain.l2ToL1.message],
  svc_getL2ToL1Messages: (c) => [c.chain.l2ToL1.epoch],
  node_getL1ToL2MessageMembershipWitness: (c) => ['latest', c.chain.l1ToL2.messageHash],
  node_getL1ToL2MessageBlock: (c) => [c.chain.l1ToL2.messageHash],
  node_isL1ToL2MessageSynced: (c) => [c.chain.l1ToL2.messageHash],
  node_getL2ToL1Messages: (c) => [a(c).block],
};

const AZTEC: Record<string, Params> = {
  node_getL2Tips: () => [],
  node_getWorldStateSyncStatus: () => [],
  node_findLeavesIndexes: (c) => [a(c).block, 1, a(c).noteHashes.slice(0, 2).map(hex)],
  node_getNullifierMembershipWitness: (c) => [a(c).block, hex(a(c).nullifiers[1]!)],
  node_getLowNullifierMembershipWitness: (c) => [a(c).block, hex(randomFr())],
  node_getPublicDataWitness: (c) => ['latest', c.v.leafSlot],
  node_getBlockHashMembershipWitness: (c) => ['latest', c.v.blockHashA],
  node_getNoteHashMembershipWitness: (c) => [a(c).block, hex(a(c).noteHashes[0]!)],
  node_getL1ToL2MessageMembershipWitness: (c) => ['latest', c.chain.l1ToL2.messageHash],
  node_getL1ToL2MessageCheckpoint: (c) => [c.chain.l1ToL2.messageHash],
  node_isL1ToL2MessageSynced: (c) => [c.chain.l1ToL2.messageHash],
  node_getL2ToL1Messages: (c) => [c.chain.l2ToL1.epoch],
  node_getBlock: (c) => [c.chain.child.callBlock],
  node_getBlockByHash: (c) => [c.v.latestHash],
  node_getBlockByArchive: (c) => [c.v.latestArchive],
  node_getBlockNumber: () => [],
  node_getCheckpointNumber: () => [],
  node_getProvenBlockNumber: () => [],
  node_getCheckpointedBlockNumber: () => [],
  node_isReady: () => [],
  node_getNodeInfo: () => [],
  node_getBlocks: (c) => [c.chain.latestBlock, 1],
  node_getCheckpoints: (c) => [c.v.latestCheckpoint, 1],
  node_getCheckpointedBlocks: (c) => [c.chain.latestBlock, 1],
  node_getCheckpointsDataForEpoch: (c) => [c.chain.l2ToL1.epoch],
  node_getCurrentMinFees: () => [],
  node_getMaxPriorityFees: () => [],
  node_getNodeVersion: () => [],
  node_getVersion: () => [],
  node_getChainId: () => [],
  node_getL1ContractAddresses: () => [],
  node_getProtocolContractAddresses: () => [],
  node_registerContractFunctionSignatures: () => [['transfer_in_public(Field,Field,u128,Field)']],
  node_getPublicLogs: (c) => [{ txHash: c.chain.child.callTx }],
  node_getContractClassLogs: (c) => [
    { fromBlock: c.chain.token.deployBlock, toBlock: c.chain.token.deployBlock + 1 },
  ],
  node_getPrivateLogsByTags: (c) => [[hex(c.chain.smallTag)]],
  node_getPublicLogsByTagsFromContract: (c) => [hex(c.chain.child.address), [c.v.publicTag]],
  node_getTxReceipt: (c) => [a(c).hash],
  node_getTxEffect: (c) => [c.chain.child.callTx],
  node_getPendingTxs: () => [1],
  node_getPendingTxCount: () => [],
  node_getTxByHash: (c) => [c.v.pendingAztec],
  node_getTxsByHash: (c) => [[c.v.pendingAztec]],
  node_getPublicStorageAt: (c) => ['latest', hex(c.chain.token.address), hex(c.chain.token.balanceSlot)],
  node_getBlockHeader: (c) => [a(c).block],
  node_getBlockHeaderByArchive: (c) => [c.v.archiveA],
  node_getValidatorsStats: () => [],
  node_getValidatorStats: (c) => [c.v.validator],
  node_getContractClass: (c) => [c.v.childClassId],
  node_getContract: (c) => [hex(c.chain.child.address)],
  node_getEncodedEnr: () => [],
  node_getAllowedPublicSetup: () => [],
};

/** The admin port, in order: reads, then the calls that change the node, each undone after. */
const ADMIN: [string, Params][] = [
  ['svcAdmin_getConfig', () => []],
  ['nodeAdmin_getConfig', () => []],
  ['svcAdmin_getSlashOffenses', () => ['all']],
  ['nodeAdmin_getSlashOffenses', () => ['current']],
  ['nodeAdmin_getSlashPayloads', () => []],
  ['svcDev_getAccounts', () => []],
  // Dev: a snapshot first, the writes and the clock, then back to the snapshot.
  ['svcDev_snapshot', () => []],
  ['svcDev_setStorageAt', (c) => [hex(c.chain.token.address), hex(c.v.bobBalanceSlot), hex(42n)]],
  ['svcDev_setBalance', (c) => [hex(c.chain.accounts.bob), '1000000000000000000000']],
  ['svcDev_depositFeeJuice', (c) => [hex(c.chain.accounts.bob), '1000000000000000000', hex(randomFr())]],
  ['svcDev_sendL1ToL2Message', (c) => [hex(c.chain.child.address), hex(7n), hex(randomFr())]],
  ['svcDev_mine', () => [1]],
  ['svcDev_advanceToSlot', (c) => [c.v.nextSlot]],
  ['svcDev_advanceToNextEpoch', () => []],
  [
    'svcDev_dropTx',
    async (c) => {
      const t = await freshTx(c);
      await rpc(c.node.publicUrl, 'svc_sendTx', [t.wire]);
      return [t.hash];
    },
  ],
  ['svcDev_setClock', () => ['manual']],
  ['svcDev_revert', (c) => [c.v.snapshotId]],
  // Admin: each change undone by the next call.
  ['svcAdmin_setConfig', (c) => [{ archiverPollingIntervalMS: c.v.pollingInterval }]],
  ['nodeAdmin_setConfig', (c) => [{ archiverPollingIntervalMS: c.v.pollingInterval }]],
  ['svcAdmin_pauseSync', () => []],
  ['svcAdmin_resumeSync', () => []],
  ['nodeAdmin_pauseSync', () => []],
  ['nodeAdmin_resumeSync', () => []],
  ['svcAdmin_pauseSequencer', () => []],
  ['svcAdmin_resumeSequencer', () => []],
  ['svcAdmin_reloadKeystore', () => []],
  ['svcAdmin_startSnapshotUpload', (c) => [`file://${c.v.snapshotDir}`]],
  [
    'nodeAdmin_startSnapshotUpload',
    async (c) => {
      await uploadIdle(c);
      return [`file://${c.v.snapshotDir}`];
    },
  ],
  [
    'svcAdmin_rollbackTo',
    async (c) => {
      await uploadIdle(c);
      return [c.v.latest];
    },
  ],
  ['nodeAdmin_rollbackTo', (c) => [c.v.latest]],
  ['svcDev_reset', () => []],
];

/** What a call's result teaches the later calls. */
function learn(face: Face, method: string, result: Json, c: Ctx): void {
  if (face !== 'admin') return;
  if (method === 'svcDev_snapshot') c.v.snapshotId = result;
  if (method === 'svcAdmin_getConfig') c.v.pollingInterval = result.archiverPollingIntervalMS;
}

/** Waits until no snapshot upload runs (GET /status says idle): one runs at a time. */
async function uploadIdle(c: Ctx): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const status = (await (await fetch(new URL('/status', c.node.adminUrl))).json()) as Json;
    if (status.snapshotUpload?.state === 'idle') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the snapshot upload did not finish within a minute');
}

async function main(): Promise<void> {
  const started = Date.now();
  const node = await startCairn(
    ['--clock', 'manual', '--p2p', '--p2p-port', '0', '--p2p-listen-host', '127.0.0.1'],
    {},
    [],
    60_000,
  );
  const snapshotDir = mkdtempSync(join(tmpdir(), 'cairn-examples-'));
  try {
    const chain = await buildRichChain(node, say);
    const client = new NodeClient(node.publicUrl);
    const c: Ctx = { chain, node, client, v: { snapshotDir } };
    const pub = (m: string, p: unknown[] = []) => rpc(node.publicUrl, m, p);
    const blockA = await pub('svc_getBlock', [chain.txs.a.block]);
    c.v.blockHashA = blockA.hash;
    c.v.archiveA = blockA.archive.root;
    c.v.slotA = Number(blockA.header.globalVariables.slotNumber);
    const effect = async (hash: string) => (await pub('svc_getTxEffect', [hash])).data;
    c.v.leafSlot = (await effect(chain.token.mintTx)).publicDataWrites[0].leafSlot;
    c.v.publicTag = (await effect(chain.child.callTx)).publicLogs[0].fields[0];
    c.v.bobBalanceSlot = storageSlot(chain.token.artifact, 'public_balances', [chain.accounts.bob]);
    const contract = await pub('svc_getContract', [hex(chain.child.address)]);
    c.v.childClassId = contract.currentContractClassId;
    const [noteIndex] = await pub('svc_findLeavesIndexes', [
      chain.txs.a.block,
      1,
      [hex(chain.txs.a.noteHashes[0]!)],
    ]);
    c.v.noteHashIndex = Number(noteIndex.data);
    const [nullIndex] = await pub('svc_findLeavesIndexes', [
      chain.txs.a.block,
      0,
      [hex(chain.txs.a.nullifiers[1]!)],
    ]);
    c.v.nullifierIndex = Number(nullIndex.data);
    const stats = await pub('svc_getValidatorsStats');
    c.v.validator = Object.keys(stats.stats ?? {})[0];
    c.v.latest = chain.latestBlock;
    say(`context: ${JSON.stringify(c.v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))}`);

    const urls: Record<Face, string> = {
      public: node.publicUrl,
      admin: node.adminUrl,
      aztec: `${node.publicUrl}/aztec`,
    };
    const listed: Record<Face, string[]> = { public: [], admin: [], aztec: [] };
    for (const face of ['public', 'admin', 'aztec'] as const) {
      const doc = await rpc(urls[face], 'rpc.discover');
      listed[face] = (doc.methods as { name: string; params: { name: string }[] }[]).map((m) => m.name);
      paramNames[face] = Object.fromEntries(
        (doc.methods as { name: string; params: { name: string }[]; result: { name: string } }[]).map((m) => [
          m.name,
          { params: m.params.map((p) => p.name), result: m.result.name },
        ]),
      );
    }

    const recipes: Record<Face, [string, Params][]> = {
      public: Object.entries(PUBLIC),
      aztec: Object.entries(AZTEC),
      admin: ADMIN,
    };
    const missing: string[] = [];
    for (const face of ['public', 'admin', 'aztec'] as const) {
      const have = new Set([
        ...recipes[face].map(([m]) => m),
        ...SENDS.filter(([f]) => f === face).map(([, m]) => m),
        ...(face === 'aztec' ? AZTEC_SENDS.map(([m]) => m) : []),
      ]);
      for (const name of listed[face])
        if (!have.has(name)) missing.push(`${face === 'aztec' ? '/aztec ' : ''}${name}`);
      for (const name of have)
        if (!listed[face].includes(name)) say(`warning: ${face} ${name} has a recipe but is not served`);
    }
    if (missing.length > 0) throw new Error(`no recipe for: ${missing.join(', ')}`);

    const recorded: Record<'cairn' | 'aztec', Record<string, Example[]>> = { cairn: {}, aztec: {} };
    const failures: string[] = [];
    const record = async (face: Face, method: string, params: Params) => {
      let values: unknown[] = [];
      try {
        values = await params(c);
        const { result, absent } = await call(urls[face], method, values);
        learn(face, method, result, c);
        const names = paramNames[face][method]!;
        const example: Example = {
          name: `${method} example`,
          ...(absent ? { description: NO_RESULT } : {}),
          params: values.map((value, i) => ({ name: names.params[i] ?? `param${i}`, value })),
          result: { name: names.result, value: result },
        };
        const set = recorded[face === 'aztec' ? 'aztec' : 'cairn'];
        set[method] = [...(set[method] ?? []), example];
      } catch (err) {
        failures.push(
          `${face} ${method}(${JSON.stringify(values).slice(0, 200)}): ${(err as Error).message}`,
        );
      }
    };
    for (const [face, method, params] of SENDS) await record(face, method, params);
    for (const [method, params] of Object.entries(PUBLIC)) await record('public', method, params);
    const stepped = await rpc(urls.admin, 'svcDev_advanceToSlot', [
      ((await pub('svc_getSyncedL2SlotNumber')) ?? 0) + 1,
    ]);
    if ((await pub('svc_getPendingTxCount')) !== 0)
      throw new Error(`txs still pending after ${JSON.stringify(stepped)}`);
    c.v.aztecTx = await balanceCallTx(c, 'reference');
    c.v.pendingAztec = (c.v.aztecTx as { txHash: string }).txHash;
    for (const [method, params] of AZTEC_SENDS) await record('aztec', method, params);
    const latest = await pub('svc_getBlock', ['latest']);
    c.v.latestHash = latest.hash;
    c.v.latestArchive = latest.archive.root;
    c.v.latestCheckpoint = latest.checkpointNumber;
    for (const [method, params] of Object.entries(AZTEC)) await record('aztec', method, params);
    // The dev writes land in blocks: the slot after the one L1 is in.
    for (const [method, params] of ADMIN) {
      if (method === 'svcDev_advanceToSlot')
        c.v.nextSlot = ((await pub('svc_getSyncedL2SlotNumber')) ?? 0) + 2;
      await record('admin', method, params);
    }
    if (failures.length > 0) throw new Error(`calls that failed:\n  ${failures.join('\n  ')}`);
    // A null from a method that gives a value means its params found nothing: a poor example.
    const doc = Object.fromEntries(
      await Promise.all(
        (['public', 'admin', 'aztec'] as const).map(async (f) => [f, await rpc(urls[f], 'rpc.discover')]),
      ),
    );
    for (const f of ['public', 'admin', 'aztec'] as const)
      for (const m of doc[f].methods as { name: string; result: { schema: Json } }[]) {
        const ex = recorded[f === 'aztec' ? 'aztec' : 'cairn'][m.name]?.[0];
        if (ex?.result.value === null && m.result.schema.type !== 'null' && ex.description === undefined)
          say(`warning: ${f} ${m.name} answered null: its params found nothing`);
      }
    write(recorded);
    say(
      `recorded ${Object.keys(recorded.cairn).length + Object.keys(recorded.aztec).length} methods in ${Math.round((Date.now() - started) / 1000)} s`,
    );
  } finally {
    await node.stop();
    rmSync(snapshotDir, { recursive: true, force: true });
  }
}

const paramNames: Record<Face, Record<string, { params: string[]; result: string }>> = {
  public: {},
  admin: {},
  aztec: {},
};

/** Values this long (as JSON) that occur more than once are written once, as a constant. */
const SHARED_MIN_CHARS = 2000;

function write(recorded: Record<'cairn' | 'aztec', Record<string, Example[]>>): void {
  const sorted = (r: Record<string, Example[]>) =>
    Object.fromEntries(
      Object.keys(r)
        .sort()
        .map((k) => [k, r[k]]),
    );
  // Count the large values, then name those that repeat.
  const counts = new Map<string, number>();
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    const text = JSON.stringify(v);
    if (text.length >= SHARED_MIN_CHARS) {
      counts.set(text, (counts.get(text) ?? 0) + 1);
      if (counts.get(text)! > 1) return;
    }
    for (const x of Object.values(v)) visit(x);
  };
  visit(recorded);
  const shared = new Map<string, string>();
  // Shortest first: a constant may hold a shorter one, which must be declared before it.
  const repeated = [...counts].filter(([, n]) => n > 1).map(([text]) => text);
  for (const text of repeated.sort((x, y) => x.length - y.length))
    shared.set(text, `SHARED_${shared.size + 1}`);
  const replace = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const name = shared.get(JSON.stringify(v));
    if (name !== undefined) return `@@${name}@@`;
    return Array.isArray(v)
      ? v.map(replace)
      : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
  };
  const js = (v: unknown) => JSON.stringify(replace(v), null, 2).replace(/"@@(SHARED_\d+)@@"/g, '$1');
  const constants = [...shared]
    .map(([text, name]) => {
      const inner = JSON.parse(text) as unknown;
      const own = shared.get(text);
      shared.delete(text); // a constant is written out in full, not as a reference to itself
      const body = js(inner);
      shared.set(text, own!);
      return `const ${name} = ${body};\n`;
    })
    .join('\n');
  const text = `// Generated by scripts/record-method-examples.ts from calls to a real node: do not edit.
// Re-record with \`npm run build && node --import tsx scripts/record-method-examples.ts\`.
import type { MethodExample } from '../../rpc/registry.js';

type Recorded = Readonly<Record<string, readonly MethodExample[]>>;

// Values several examples share (a tx sent and then read back, a block of both APIs), once each.
${constants}
/** The examples of cairn's own methods (public and admin ports), by full name. */
export const CAIRN_EXAMPLES: Recorded = ${js(sorted(recorded.cairn))};

/** The examples of the reference API's methods at /aztec, by full name. */
export const AZTEC_EXAMPLES: Recorded = ${js(sorted(recorded.aztec))};
`;
  writeFileSync(OUT, text);
  execFileSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['format', '--write', OUT], { stdio: 'inherit' });
}

await main();
