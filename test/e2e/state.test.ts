// State queries end to end: a real node (manual clock, a 2-block world-state history window)
// runs two blocks of txs; every witness is checked against the tree root in the header of its
// reference block — at the latest block and at the block before, whose trees the latest block
// changed — absent values give null, and blocks below the history window are refused by name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import { txView } from '../../src/core/tx-view.js';
import { feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { TreeId } from '../../src/world-state/types.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { indexedLeafHash, rootFromPath } from '../world-state/model.js';

const [alice, bob] = devAccounts(2);
const hex = (v: bigint) => toHex32(v);

describe('state queries on a real node', () => {
  let node: CairnProcess;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p);
  const header = async (n: number) => (await pub('svc_getBlock', [n])).header;
  const A = { notes: [randomFr(), randomFr()], nullifiers: [randomFr()] };
  const B = { notes: [randomFr()], nullifiers: [randomFr(), randomFr()] };
  let aFirst: bigint;
  let bFirst: bigint;

  before(async () => {
    node = await startCairn(['--clock', 'manual', '--world-state-history-blocks', '2']);
    const client = new NodeClient(node.publicUrl);
    await dev('svcDev_advanceToSlot', [1]); // block 1: empty
    const a = await prepareTx(client, {
      feePayer: alice!.address,
      noteHashes: A.notes,
      nullifiers: A.nullifiers,
    });
    aFirst = txView(a.tx).nonRevertible.nullifiers[0]!;
    await pub('svc_sendTx', [a.wire]);
    await dev('svcDev_advanceToSlot', [2]); // block 2: tx A
    const b = await prepareTx(client, {
      feePayer: bob!.address,
      noteHashes: B.notes,
      nullifiers: B.nullifiers,
    });
    bFirst = txView(b.tx).nonRevertible.nullifiers[0]!;
    await pub('svc_sendTx', [b.wire]);
    await dev('svcDev_advanceToSlot', [3]); // block 3: tx B
    assert.equal(await pub('svc_getBlockNumber'), 3);
    assert.equal((await pub('svc_getTxReceipt', [b.hash])).blockNumber, 3);
  });
  after(() => node?.stop());

  const nullifierLeaf = (w: any) => ({
    key: BigInt(w.leafPreimage.leaf.nullifier),
    value: 0n,
    nextKey: BigInt(w.leafPreimage.nextKey),
    nextIndex: Number(w.leafPreimage.nextIndex),
  });
  const nullifierRoot = (w: any) =>
    rootFromPath(
      indexedLeafHash(TreeId.NULLIFIER, nullifierLeaf(w)),
      Number(w.index),
      w.siblingPath.map(BigInt),
    );

  test('nullifier witnesses verify against the header of their block, latest and older', async () => {
    const [h2, h3] = [await header(2), await header(3)];
    assert.notEqual(h2.state.partial.nullifierTree.root, h3.state.partial.nullifierTree.root);
    for (const [ref, h] of [
      [2, h2],
      ['latest', h3],
      [{ number: 2 }, h2],
      ['checkpointed', h3],
    ] as const) {
      const w = await pub('svc_getNullifierMembershipWitness', [ref, hex(A.nullifiers[0]!)]);
      assert.equal(w.siblingPath.length, 42);
      assert.equal(BigInt(w.leafPreimage.leaf.nullifier), A.nullifiers[0]);
      assert.equal(hex(nullifierRoot(w)), h.state.partial.nullifierTree.root, `at ${JSON.stringify(ref)}`);
    }
    const legacy = await pub('node_getNullifierMembershipWitness', [3, hex(bFirst)]);
    assert.equal(hex(nullifierRoot(legacy)), h3.state.partial.nullifierTree.root);
    // B's nullifiers are absent at block 2: null, and a low-leaf witness proves it.
    assert.equal(await pub('svc_getNullifierMembershipWitness', [2, hex(bFirst)]), null);
    const low = await pub('svc_getLowNullifierMembershipWitness', [2, hex(bFirst)]);
    assert.equal(hex(nullifierRoot(low)), h2.state.partial.nullifierTree.root);
    const leaf = nullifierLeaf(low);
    assert.ok(leaf.key < bFirst && (leaf.nextKey === 0n || leaf.nextKey > bFirst));
    // At block 3 it exists, so non-inclusion cannot be proven.
    const present = await call(node.publicUrl, 'svc_getLowNullifierMembershipWitness', [3, hex(bFirst)]);
    assert.equal(present.error?.code, -32000);
    assert.match(present.error!.message, /already exists/);
  });

  test('note hash witnesses and sibling paths verify; absent note hashes are null', async () => {
    const h2 = await header(2);
    const w = await pub('svc_getNoteHashMembershipWitness', [2, hex(A.notes[1]!)]);
    const index = Number(w.leafIndex);
    assert.equal(
      hex(rootFromPath(A.notes[1]!, index, w.siblingPath.map(BigInt))),
      h2.state.partial.noteHashTree.root,
    );
    const path = await pub('node_getNoteHashSiblingPath', [2, String(index)]);
    assert.deepEqual(path, w.siblingPath);
    assert.equal(await pub('svc_getNoteHashMembershipWitness', [2, hex(B.notes[0]!)]), null);
    assert.equal(await pub('node_getNoteHashMembershipWitness', ['latest', hex(randomFr())]), null);
    // Past the last leaf there is a path too, of empty leaves; only the capacity bounds the index.
    const past = await pub('node_getNoteHashSiblingPath', [2, '100000']);
    assert.equal(hex(rootFromPath(0n, 100000, past.map(BigInt))), h2.state.partial.noteHashTree.root);
    const beyond = await call(node.publicUrl, 'node_getNoteHashSiblingPath', [2, String(2n ** 42n)]);
    assert.equal(beyond.error?.code, -32602);
    assert.match(beyond.error!.message, /beyond NOTE_HASH_TREE, which has room for 2\^42 leaves/);
  });

  test('public data witnesses and storage: the exact leaf of a written slot, the low leaf of an absent one', async () => {
    const [h2, h3] = [await header(2), await header(3)];
    const slot = feeJuiceBalanceSlot(alice!.address);
    for (const [ref, h] of [
      [2, h2],
      [3, h3],
    ] as const) {
      const w = await pub('svc_getPublicDataWitness', [ref, hex(slot)]);
      const leaf = {
        key: BigInt(w.leafPreimage.leaf.slot),
        value: BigInt(w.leafPreimage.leaf.value),
        nextKey: BigInt(w.leafPreimage.nextKey),
        nextIndex: Number(w.leafPreimage.nextIndex),
      };
      assert.equal(leaf.key, slot);
      const root = rootFromPath(
        indexedLeafHash(TreeId.PUBLIC_DATA, leaf),
        Number(w.index),
        w.siblingPath.map(BigInt),
      );
      assert.equal(hex(root), h.state.partial.publicDataTree.root);
      const stored = await pub('svc_getPublicStorageAt', [
        ref,
        hex(5n),
        hex(mapStorageSlot(1n, alice!.address)),
      ]);
      assert.equal(BigInt(stored), leaf.value);
    }
    const absent = randomFr();
    const low = await pub('node_getPublicDataWitness', [3, hex(absent)]);
    const key = BigInt(low.leafPreimage.leaf.slot);
    assert.ok(key < absent);
    assert.equal(await pub('svc_getPublicStorageAt', ['latest', hex(0x1234n), hex(absent)]), hex(0n));
    assert.equal(await pub('node_getPublicStorageAt', [3, hex(0x1234n), hex(absent)]), hex(0n));
  });

  test('block hash witnesses read the archive the reference header commits to', async () => {
    const blocks = await Promise.all([1, 2, 3].map((n) => pub('svc_getBlock', [n])));
    const [b1, b2, b3] = blocks;
    // Reference block 3: the archive as of block 2, i.e. block 3's lastArchive.
    const w = await pub('svc_getBlockHashMembershipWitness', [{ hash: b3.hash }, b1.hash]);
    assert.equal(w.leafIndex, '1');
    assert.equal(
      hex(rootFromPath(BigInt(b1.hash), 1, w.siblingPath.map(BigInt))),
      b3.header.lastArchive.root,
    );
    // Block 3 is not in the archive its own header commits to.
    assert.equal(await pub('svc_getBlockHashMembershipWitness', [3, b3.hash]), null);
    assert.equal(
      await pub('svc_getBlockHashMembershipWitness', [{ archive: b3.archive.root }, b3.hash]),
      null,
    );
    // The earlier set reads the archive as of the block given.
    const legacy = await pub('node_getArchiveMembershipWitness', [3, b2.hash]);
    assert.equal(hex(rootFromPath(BigInt(b2.hash), 2, legacy.siblingPath.map(BigInt))), b3.archive.root);
    const path = await pub('node_getArchiveSiblingPath', [3, '2']);
    assert.deepEqual(path, legacy.siblingPath);
  });

  test('findLeavesIndexes: index and inserting block per value, in input order, null when absent', async () => {
    const b2 = await pub('svc_getBlock', [2]);
    const b3 = await pub('svc_getBlock', [3]);
    const values = [hex(bFirst), hex(randomFr()), hex(aFirst), hex(5n)];
    const found = await pub('svc_findLeavesIndexes', ['latest', 0, values]);
    assert.equal(found.length, 4);
    assert.deepEqual([found[0].l2BlockNumber, found[0].l2BlockHash], [3, b3.hash]);
    assert.equal(found[1], null);
    assert.deepEqual([found[2].l2BlockNumber, found[2].l2BlockHash], [2, b2.hash]);
    assert.deepEqual([found[3].l2BlockNumber, found[3].data], [0, '5']); // genesis prefill
    const w = await pub('svc_getNullifierMembershipWitness', [3, hex(bFirst)]);
    assert.equal(found[0].data, w.index);
    assert.deepEqual(await pub('svc_findLeavesIndexes', [2, 0, [hex(bFirst)]]), [null]);
    const notes = await pub('node_findLeavesIndexes', [3, 1, [hex(A.notes[0]!)]]);
    assert.equal(notes[0].l2BlockNumber, 2);
    const archive = await pub('svc_findLeavesIndexes', [3, 5, [b2.hash]]); // BLOCKS_TREE reads the archive
    assert.equal(archive[0].data, '2');
    const bad = await call(node.publicUrl, 'svc_findLeavesIndexes', [3, 6, []]);
    assert.equal(bad.error?.code, -32602);
    assert.match(bad.error!.message, /valid ids are 0 NULLIFIER_TREE/);
    const tooMany = await call(node.publicUrl, 'svc_findLeavesIndexes', [3, 0, Array(1001).fill('0x1')]);
    assert.equal(tooMany.error?.code, -32602);
  });

  test('reference blocks: below the history window and unknown ones are refused by name', async () => {
    const old = await call(node.publicUrl, 'svc_getNullifierMembershipWitness', [1, hex(5n)]);
    assert.equal(old.error?.code, -32000);
    assert.match(old.error!.message, /block 1 is no longer available: world-state history starts at block 2/);
    const ahead = await call(node.publicUrl, 'svc_getPublicStorageAt', [9, hex(5n), hex(1n)]);
    assert.match(ahead.error!.message, /block 9 is not synced yet: the latest block is 3/);
    const unknown = await call(node.publicUrl, 'svc_getNoteHashMembershipWitness', [
      { hash: hex(7n) },
      hex(1n),
    ]);
    assert.equal(unknown.error?.code, -32000);
    assert.match(unknown.error!.message, /not found/);
    const genesis = await call(node.publicUrl, 'svc_getBlockHashMembershipWitness', [0, hex(1n)]);
    assert.equal(genesis.result, null);
  });
});
