// The reference node's published API (Aztec 4.1.2's AztecNodeApiSchema, 55 methods `node_<name>`)
// at `POST /aztec` on a real node, called through the unmodified stock client,
// `createAztecNodeClient(url)` of @aztec/stdlib 4.1.2 — installed from the npm registry at test
// time, pinned by test/aztec-client/ (test/helpers/aztec-reference.ts), never a dependency of cairn.
// The client parses every answer with the reference's zod schemas and throws on one that does not
// parse; the values are then checked with the reference's own classes against cairn's `svc_` API
// on `/`: block and header hashes recomputed by BlockHeader/L2Block, witnesses and sibling paths
// folded with the reference's Poseidon2 to the roots of the block's header, the published bytecode,
// log pages, tips and numbers. One test per method, so each reports on its own. The methods that
// take or return the reference's Tx are refused for now with a JSON-RPC error that says so. Last,
// the transport at /aztec seen raw: batches, errors, absent results, headers, gzip, rpc.discover,
// and the seeds' API at `/` as before.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { AZTEC_NODE_API_METHODS } from '../../src/aztec/index.js';
import { toHex32 } from '../../src/core/field.js';
import { type AztecReference, closeAztecReference, loadAztecReference } from '../helpers/aztec-reference.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { buildRichChain, type RichChain } from '../helpers/rich-chain.js';
import { post, result } from '../helpers/rpc.js';

/** The 55 methods cairn serves at /aztec (checked against the installed schema below). */
const AZTEC_METHODS = AZTEC_NODE_API_METHODS;
type AztecMethod = (typeof AZTEC_METHODS)[number];

/** The version headers of the reference node 4.1.2, as it sends them (docs/aztec-api.md). */
const VERSION_HEADERS = {
  'x-aztec-packageversion': '4.1.2',
  'x-aztec-l2circuitsvktreeroot': '0x1dd2644a17d1ddd8831287a78c5a1033b7ae35cdf2a3db833608856c062fc2ba',
  'x-aztec-l2protocolcontractshash': '0x2672340d9a0107a7b81e6d10d25b854debe613f3272e8738e8df0ca2ff297141',
};

/** How the client's call of a method that takes or returns the reference's Tx fails, for now. */

const hex = toHex32;
/** A field-like value (Fr, BlockHash, TxHash, AztecAddress, hex string, bigint) as a bigint. */
const big = (x: unknown): bigint => (typeof x === 'bigint' ? x : BigInt(String(x)));
const sameField = (actual: unknown, expected: unknown, what?: string) =>
  assert.equal(big(actual), big(expected), what);
const lower = (x: unknown) => String(x).toLowerCase();
/** Log data without trailing zero fields (cairn gives the emitted fields, the reference may pad). */
const trimmed = (fields: unknown[]) => {
  const out = fields.map(big);
  while (out.length > 0 && out[out.length - 1] === 0n) out.pop();
  return out;
};

describe('the reference API at /aztec through the stock client of @aztec/stdlib 4.1.2', () => {
  let ref: AztecReference;
  let node: CairnProcess;
  let chain: RichChain;
  /** The stock client on `<public url>/aztec`. */
  let aztec: any;
  let aztecUrl: string;
  const svc = (m: string, p?: unknown[]) => result(node.publicUrl, m, p) as Promise<any>;
  const blocks = new Map<number, Promise<any>>();
  /** cairn's block (svc_getBlock, with its txs), read once. */
  const svcBlock = (n: number) => {
    if (!blocks.has(n)) blocks.set(n, svc('svc_getBlock', [n, { includeTransactions: true }]));
    return blocks.get(n)!;
  };
  const say = (line: string) => process.stderr.write(`${line}\n`);

  before(async () => {
    const t0 = Date.now();
    ref = await loadAztecReference(say);
    say(`aztec-api: reference client loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    node = await startCairn(['--clock', 'manual']);
    const t1 = Date.now();
    chain = await buildRichChain(node, say);
    say(`aztec-api: chain built in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    aztecUrl = `${node.publicUrl}/aztec`;
    aztec = ref.createAztecNodeClient(aztecUrl);
  });
  after(async () => {
    await node?.stop();
    await closeAztecReference();
  });

  const covered = new Set<AztecMethod>();
  /** One test per method (or a few that belong together), named after the wire method. */
  const method = (names: AztecMethod | AztecMethod[], fn: () => Promise<void>) => {
    const list = Array.isArray(names) ? names : [names];
    for (const n of list) covered.add(n);
    test(list.map((n) => `node_${n}`).join(', '), { timeout: 60_000 }, fn);
  };

  /** Folds a leaf with its sibling path (leaf level first) to the root, with the reference's Poseidon2. */
  const fold = async (leaf: bigint, path: any[], index: bigint): Promise<bigint> => {
    const root = await ref.computeRootFromSiblingPath(
      new ref.Fr(leaf).toBuffer(),
      path.map((f) => f.toBuffer()),
      Number(index),
    );
    return big(`0x${Buffer.from(root).toString('hex')}`);
  };
  /** The hash of an indexed tree leaf, as the reference hashes it. */
  const leafHash = async (preimage: any): Promise<bigint> =>
    big(await ref.poseidon.poseidon2Hash(preimage.toHashInputs()));
  /** Checks a decoded L2Block against cairn's block: hashes recomputed by the reference's classes. */
  const checkBlock = async (block: any, n: number) => {
    assert.ok(block instanceof ref.L2Block, `block ${n} decodes as the reference's L2Block`);
    const expected = await svcBlock(n);
    assert.equal(block.number, n);
    sameField(await block.hash(), expected.hash, `L2Block.hash() of block ${n}`);
    sameField(await block.header.hash(), expected.hash, `BlockHeader.hash() of block ${n}`);
    sameField(block.archive.root, expected.archive.root, `archive root of block ${n}`);
    assert.equal(Number(block.archive.nextAvailableLeafIndex), expected.archive.nextAvailableLeafIndex);
    assert.equal(block.checkpointNumber, expected.checkpointNumber);
    assert.equal(block.indexWithinCheckpoint, expected.indexWithinCheckpoint);
    const effects = block.body.txEffects;
    assert.deepEqual(
      effects.map((e: any) => lower(e.txHash)),
      expected.body.txEffects.map((e: any) => lower(e.txHash)),
    );
    for (const [i, e] of effects.entries()) {
      const want = expected.body.txEffects[i];
      assert.deepEqual(e.noteHashes.map(big), want.noteHashes.map(big));
      assert.deepEqual(e.nullifiers.map(big), want.nullifiers.map(big));
      assert.deepEqual(e.l2ToL1Msgs.map(big), want.l2ToL1Msgs.map(big));
      assert.equal(e.privateLogs.length, want.privateLogs.length);
      assert.equal(e.publicLogs.length, want.publicLogs?.length ?? e.publicLogs.length);
    }
  };

  test('the installed client has exactly the 55 methods, and each has a test here', () => {
    assert.deepEqual(Object.keys(ref.AztecNodeApiSchema).sort(), [...AZTEC_METHODS].sort());
    assert.deepEqual([...covered].sort(), [...AZTEC_METHODS].sort());
    assert.equal(ref.versions.stdlib, '4.1.2');
  });

  // ---- Chain and tips -------------------------------------------------------------------------

  method('getL2Tips', async () => {
    const tips = await aztec.getL2Tips();
    const want = await svc('svc_getChainTips');
    assert.equal(tips.proposed.number, want.proposed.number);
    assert.equal(lower(tips.proposed.hash), lower(want.proposed.hash));
    for (const tier of ['checkpointed', 'proven', 'finalized'] as const) {
      assert.equal(tips[tier].block.number, want[tier].block.number, `${tier} block`);
      assert.equal(lower(tips[tier].block.hash), lower(want[tier].block.hash), `${tier} block hash`);
      assert.equal(tips[tier].checkpoint.number, want[tier].checkpoint.number, `${tier} checkpoint`);
      assert.equal(
        lower(tips[tier].checkpoint.hash),
        lower(want[tier].checkpoint.hash),
        `${tier} checkpoint hash`,
      );
    }
    assert.equal(tips.proposed.number, chain.latestBlock);
    assert.ok(tips.proven.block.number >= chain.provenBlock);
    assert.ok(tips.finalized.block.number >= chain.l1ToL2.block, 'final past the txs of the test');
    assert.ok(tips.finalized.block.number <= tips.proven.block.number);
    assert.ok(tips.proven.block.number < tips.checkpointed.block.number, 'a block after the proven one');
    assert.ok(tips.checkpointed.block.number <= tips.proposed.number);
    // The block hashes are the blocks' own (as the reference's BlockHeader hashes them).
    sameField(tips.proven.block.hash, (await svcBlock(chain.provenBlock)).hash);
  });

  method('getWorldStateSyncStatus', async () => {
    const status = await aztec.getWorldStateSyncStatus();
    const want = await svc('svc_getWorldStateSyncStatus');
    assert.equal(status.latestBlockNumber, want.latestBlockNumber);
    assert.equal(lower(status.latestBlockHash), lower(want.latestBlockHash));
    assert.equal(status.finalizedBlockNumber, want.finalizedBlockNumber);
    assert.equal(status.oldestHistoricBlockNumber, want.oldestHistoricBlockNumber);
    assert.equal(status.treesAreSynched, true);
  });

  method(
    ['getBlockNumber', 'getProvenBlockNumber', 'getCheckpointedBlockNumber', 'getCheckpointNumber'],
    async () => {
      assert.equal(await aztec.getBlockNumber(), await svc('svc_getBlockNumber'));
      assert.equal(await aztec.getBlockNumber(), chain.latestBlock);
      assert.equal(await aztec.getProvenBlockNumber(), await svc('svc_getBlockNumber', ['proven']));
      assert.ok((await aztec.getProvenBlockNumber()) >= chain.provenBlock);
      assert.equal(
        await aztec.getCheckpointedBlockNumber(),
        await svc('svc_getBlockNumber', ['checkpointed']),
      );
      assert.equal(await aztec.getCheckpointNumber(), await svc('svc_getCheckpointNumber'));
    },
  );

  method('getBlock', async () => {
    const n = chain.txs.a.block;
    await checkBlock(await aztec.getBlock(n), n);
    await checkBlock(await aztec.getBlock('latest'), chain.latestBlock);
    const hash = ref.BlockHash.fromString((await svcBlock(n)).hash);
    await checkBlock(await aztec.getBlock(hash), n);
    // Block 0, and blocks with public calls and contract publications.
    await checkBlock(await aztec.getBlock(0), 0);
    await checkBlock(await aztec.getBlock(chain.token.deployBlock), chain.token.deployBlock);
    await checkBlock(await aztec.getBlock(chain.child.callBlock), chain.child.callBlock);
    assert.equal(await aztec.getBlock(chain.latestBlock + 1000), undefined);
  });

  method('getBlockByHash', async () => {
    const n = chain.child.callBlock;
    await checkBlock(await aztec.getBlockByHash(ref.BlockHash.fromString((await svcBlock(n)).hash)), n);
    assert.equal(await aztec.getBlockByHash(ref.BlockHash.random()), undefined);
  });

  method('getBlockByArchive', async () => {
    const n = chain.txs.a.block;
    await checkBlock(await aztec.getBlockByArchive(ref.Fr.fromString((await svcBlock(n)).archive.root)), n);
    assert.equal(await aztec.getBlockByArchive(ref.Fr.random()), undefined);
  });

  method('getBlocks', async () => {
    const all = await aztec.getBlocks(1, 50);
    assert.equal(all.length, chain.latestBlock);
    for (const [i, block] of all.entries()) await checkBlock(block, i + 1);
    const two = await aztec.getBlocks(chain.txs.a.block, 2);
    assert.deepEqual(
      two.map((b: any) => b.number),
      [chain.txs.a.block, chain.txs.a.block + 1],
    );
    assert.deepEqual(await aztec.getBlocks(chain.latestBlock + 1, 5), []);
  });

  method('getBlockHeader', async () => {
    const check = async (header: any, n: number) => {
      assert.ok(header instanceof ref.BlockHeader, `header ${n} decodes as the reference's BlockHeader`);
      sameField(await header.hash(), (await svcBlock(n)).hash, `BlockHeader.hash() of block ${n}`);
      assert.equal(Number(header.globalVariables.blockNumber), n);
    };
    await check(await aztec.getBlockHeader(chain.txs.a.block), chain.txs.a.block);
    await check(await aztec.getBlockHeader('latest'), chain.latestBlock);
    await check(await aztec.getBlockHeader(), chain.latestBlock);
    await check(await aztec.getBlockHeader(0), 0);
    const hash = ref.BlockHash.fromString((await svcBlock(chain.token.deployBlock)).hash);
    await check(await aztec.getBlockHeader(hash), chain.token.deployBlock);
    assert.equal(await aztec.getBlockHeader(chain.latestBlock + 1000), undefined);
  });

  method('getBlockHeaderByArchive', async () => {
    const n = chain.l1ToL2.block;
    const header = await aztec.getBlockHeaderByArchive(ref.Fr.fromString((await svcBlock(n)).archive.root));
    sameField(await header.hash(), (await svcBlock(n)).hash);
    assert.equal(await aztec.getBlockHeaderByArchive(ref.Fr.random()), undefined);
  });

  // ---- Checkpoints ----------------------------------------------------------------------------

  method('getCheckpoints', async () => {
    const tips = await svc('svc_getChainTips');
    const count = tips.checkpointed.checkpoint.number as number;
    const published = await aztec.getCheckpoints(1, 50);
    assert.equal(published.length, count);
    for (const p of published) {
      const c = p.checkpoint;
      const want = await svc('svc_getCheckpoint', [
        c.number,
        { includeBlocks: true, includeL1PublishInfo: true },
      ]);
      sameField(c.archive.root, want.archive.root, `archive of checkpoint ${c.number}`);
      assert.equal(c.blocks.map((b: any) => b.number).join(), want.blocks.map((b: any) => b.number).join());
      for (const b of c.blocks) await checkBlock(b, b.number);
      assert.equal(p.l1.blockNumber, BigInt(want.l1.blockNumber));
      assert.ok(p.attestations.length > 0, `checkpoint ${c.number} has attestations`);
      if (c.number === tips.checkpointed.checkpoint.number) {
        // The checkpoint header hashed by the reference's class is the tip's checkpoint hash.
        sameField(await c.hash(), tips.checkpointed.checkpoint.hash, 'Checkpoint.hash() of the tip');
      }
    }
    assert.deepEqual(await aztec.getCheckpoints(count + 1, 5), []);
  });

  method('getCheckpointedBlocks', async () => {
    const got = await aztec.getCheckpointedBlocks(1, 50);
    const tips = await svc('svc_getChainTips');
    assert.equal(got.length, tips.checkpointed.block.number);
    for (const c of got) {
      await checkBlock(c.block, c.block.number);
      assert.equal(c.checkpointNumber, (await svcBlock(c.block.number)).checkpointNumber);
      assert.ok(c.attestations.length > 0);
    }
  });

  method('getCheckpointsDataForEpoch', async () => {
    const epoch = chain.l2ToL1.epoch;
    const got = await aztec.getCheckpointsDataForEpoch(epoch);
    const want = await svc('svc_getCheckpointsData', [{ epoch }]);
    assert.ok(want.length > 0);
    assert.deepEqual(
      got.map((c: any) => c.checkpointNumber),
      want.map((c: any) => c.checkpointNumber),
    );
    for (const [i, c] of got.entries()) {
      sameField(c.archive.root, want[i].archive.root);
      sameField(c.checkpointOutHash, want[i].checkpointOutHash);
      assert.equal(c.startBlock, want[i].startBlock);
      assert.equal(c.blockCount, want[i].blockCount);
    }
    assert.deepEqual(await aztec.getCheckpointsDataForEpoch(10_000), []);
  });

  // ---- World state: leaves, witnesses, storage ------------------------------------------------

  method('findLeavesIndexes', async () => {
    const n = chain.txs.a.block;
    const hash = (await svcBlock(n)).hash;
    const noteHashes = [...chain.txs.a.noteHashes, chain.txs.b.noteHashes[0]!];
    const unknown = 12345n;
    for (const [tree, leaves] of [
      [ref.MerkleTreeId.NOTE_HASH_TREE, noteHashes],
      [ref.MerkleTreeId.NULLIFIER_TREE, [...chain.txs.a.nullifiers, ...chain.txs.b.nullifiers]],
    ] as const) {
      const got = await aztec.findLeavesIndexes(
        'latest',
        tree,
        [...leaves, unknown].map((l) => new ref.Fr(l)),
      );
      const want = await svc('svc_findLeavesIndexes', ['latest', tree, [...leaves, unknown].map(hex)]);
      assert.equal(got.length, leaves.length + 1);
      assert.equal(got[leaves.length], undefined, 'an unknown leaf');
      for (const [i, entry] of got.slice(0, -1).entries()) {
        assert.equal(entry.l2BlockNumber, n);
        sameField(entry.l2BlockHash, hash);
        assert.equal(entry.data, BigInt(want[i].data), `tree ${tree} leaf ${i}`);
      }
    }
    // Before the block that inserted them, the leaves are not there.
    const before = await aztec.findLeavesIndexes(n - 1, ref.MerkleTreeId.NOTE_HASH_TREE, [
      new ref.Fr(noteHashes[0]!),
    ]);
    assert.deepEqual(before, [undefined]);
  });

  method('getNoteHashMembershipWitness', async () => {
    const n = chain.txs.a.block;
    for (const at of [n, chain.latestBlock]) {
      const root = (await svcBlock(at)).header.state.partial.noteHashTree.root;
      for (const noteHash of [...chain.txs.a.noteHashes, ...chain.txs.b.noteHashes]) {
        const w = await aztec.getNoteHashMembershipWitness(at, new ref.Fr(noteHash));
        assert.ok(w instanceof ref.MembershipWitness);
        assert.equal(w.siblingPath.length, ref.constants.NOTE_HASH_TREE_HEIGHT);
        sameField(await fold(noteHash, w.siblingPath, w.leafIndex), root, `note hash witness at block ${at}`);
      }
    }
    const [index] = await svc('svc_findLeavesIndexes', [n, 1, [hex(chain.txs.a.noteHashes[0]!)]]);
    assert.equal(
      (await aztec.getNoteHashMembershipWitness(n, new ref.Fr(chain.txs.a.noteHashes[0]!))).leafIndex,
      BigInt(index.data),
    );
    assert.equal(await aztec.getNoteHashMembershipWitness('latest', ref.Fr.random()), undefined);
    assert.equal(
      await aztec.getNoteHashMembershipWitness(n - 1, new ref.Fr(chain.txs.a.noteHashes[0]!)),
      undefined,
    );
  });

  method('getNullifierMembershipWitness', async () => {
    const n = chain.txs.a.block;
    for (const at of [n, chain.latestBlock]) {
      const root = (await svcBlock(at)).header.state.partial.nullifierTree.root;
      for (const nullifier of [...chain.txs.a.nullifiers, ...chain.txs.b.nullifiers]) {
        const w = await aztec.getNullifierMembershipWitness(at, new ref.Fr(nullifier));
        assert.ok(w instanceof ref.NullifierMembershipWitness);
        sameField(w.leafPreimage.leaf.nullifier, nullifier);
        assert.equal(w.siblingPath.pathSize, ref.constants.NULLIFIER_TREE_HEIGHT);
        sameField(await fold(await leafHash(w.leafPreimage), w.siblingPath.toFields(), w.index), root);
      }
    }
    assert.equal(await aztec.getNullifierMembershipWitness('latest', ref.Fr.random()), undefined);
    assert.equal(
      await aztec.getNullifierMembershipWitness(n - 1, new ref.Fr(chain.txs.a.nullifiers[1]!)),
      undefined,
    );
  });

  method('getLowNullifierMembershipWitness', async () => {
    const root = (await svcBlock(chain.latestBlock)).header.state.partial.nullifierTree.root;
    for (const absent of [1234567n, chain.txs.a.nullifiers[1]! + 1n]) {
      const w = await aztec.getLowNullifierMembershipWitness('latest', new ref.Fr(absent));
      assert.ok(w instanceof ref.NullifierMembershipWitness);
      const low = big(w.leafPreimage.leaf.nullifier);
      const next = big(w.leafPreimage.nextKey);
      assert.ok(low < absent && (next === 0n || next > absent), `${low} < ${absent} < ${next}`);
      sameField(await fold(await leafHash(w.leafPreimage), w.siblingPath.toFields(), w.index), root);
    }
  });

  method('getPublicDataWitness', async () => {
    const leafSlot = await ref.hash.computePublicDataTreeLeafSlot(
      ref.AztecAddress.fromBigInt(chain.token.address),
      new ref.Fr(chain.token.balanceSlot),
    );
    for (const at of [chain.latestBlock, chain.provenBlock]) {
      const root = (await svcBlock(at)).header.state.partial.publicDataTree.root;
      const w = await aztec.getPublicDataWitness(at, leafSlot);
      assert.ok(w instanceof ref.PublicDataWitness);
      sameField(w.leafPreimage.leaf.slot, leafSlot, "the slot's own leaf");
      assert.equal(big(w.leafPreimage.leaf.value), chain.token.balance);
      assert.equal(w.siblingPath.pathSize, ref.constants.PUBLIC_DATA_TREE_HEIGHT);
      sameField(await fold(big(await w.leafPreimage.hash()), w.siblingPath.toFields(), w.index), root);
    }
    // A slot never written: its low leaf, which folds to the root too.
    const root = (await svcBlock(chain.latestBlock)).header.state.partial.publicDataTree.root;
    const low = await aztec.getPublicDataWitness('latest', new ref.Fr(987654321n));
    assert.ok(big(low.leafPreimage.leaf.slot) < 987654321n);
    sameField(await fold(big(await low.leafPreimage.hash()), low.siblingPath.toFields(), low.index), root);
  });

  method('getPublicStorageAt', async () => {
    const token = ref.AztecAddress.fromBigInt(chain.token.address);
    const slot = new ref.Fr(chain.token.balanceSlot);
    const value = await aztec.getPublicStorageAt('latest', token, slot);
    assert.ok(value instanceof ref.Fr);
    assert.equal(value.toBigInt(), chain.token.balance);
    sameField(
      value,
      await svc('svc_getPublicStorageAt', ['latest', hex(chain.token.address), hex(chain.token.balanceSlot)]),
    );
    assert.equal((await aztec.getPublicStorageAt(chain.token.deployBlock - 1, token, slot)).toBigInt(), 0n);
    const hash = ref.BlockHash.fromString((await svcBlock(chain.provenBlock)).hash);
    assert.equal((await aztec.getPublicStorageAt(hash, token, slot)).toBigInt(), chain.token.balance);
  });

  method('getBlockHashMembershipWitness', async () => {
    const at = chain.latestBlock;
    const header = (await svcBlock(at)).header;
    for (const n of [1, chain.txs.a.block, at - 1]) {
      const blockHash = ref.BlockHash.fromString((await svcBlock(n)).hash);
      const w = await aztec.getBlockHashMembershipWitness(at, blockHash);
      assert.ok(w instanceof ref.MembershipWitness, `witness of block ${n}`);
      assert.equal(w.leafIndex, BigInt(n));
      assert.equal(w.siblingPath.length, ref.constants.ARCHIVE_HEIGHT);
      // The archive the reference block's header commits to (its last archive).
      sameField(
        await fold(big(blockHash), w.siblingPath, w.leafIndex),
        header.lastArchive.root,
        `block ${n}`,
      );
      const want = await svc('svc_getBlockHashMembershipWitness', [at, hex(big(blockHash))]);
      assert.deepEqual(w.siblingPath.map(big), want.siblingPath.map(big));
    }
    assert.equal(await aztec.getBlockHashMembershipWitness(at, ref.BlockHash.random()), undefined);
  });

  // ---- Messages -------------------------------------------------------------------------------

  method('getL1ToL2MessageMembershipWitness', async () => {
    const { messageHash, index, block } = chain.l1ToL2;
    for (const at of [block, chain.latestBlock]) {
      const w = await aztec.getL1ToL2MessageMembershipWitness(at, ref.Fr.fromString(messageHash));
      assert.ok(Array.isArray(w) && w.length === 2);
      const [leafIndex, path] = w;
      assert.equal(leafIndex, BigInt(index));
      assert.ok(path instanceof ref.SiblingPath);
      assert.equal(path.pathSize, ref.constants.L1_TO_L2_MSG_TREE_HEIGHT);
      const root = (await svcBlock(at)).header.state.l1ToL2MessageTree.root;
      sameField(await fold(big(messageHash), path.toFields(), leafIndex), root, `at block ${at}`);
    }
    assert.equal(
      await aztec.getL1ToL2MessageMembershipWitness(block - 1, ref.Fr.fromString(messageHash)),
      undefined,
    );
    assert.equal(await aztec.getL1ToL2MessageMembershipWitness('latest', ref.Fr.random()), undefined);
  });

  method('getL1ToL2MessageCheckpoint', async () => {
    const { messageHash, checkpointNumber } = chain.l1ToL2;
    assert.equal(await aztec.getL1ToL2MessageCheckpoint(ref.Fr.fromString(messageHash)), checkpointNumber);
    assert.equal(
      await aztec.getL1ToL2MessageCheckpoint(ref.Fr.fromString(messageHash)),
      await svc('svc_getL1ToL2MessageCheckpoint', [messageHash]),
    );
    assert.equal(await aztec.getL1ToL2MessageCheckpoint(ref.Fr.random()), undefined);
  });

  method('isL1ToL2MessageSynced', async () => {
    assert.equal(await aztec.isL1ToL2MessageSynced(ref.Fr.fromString(chain.l1ToL2.messageHash)), true);
    assert.equal(await aztec.isL1ToL2MessageSynced(ref.Fr.random()), false);
  });

  method('getL2ToL1Messages', async () => {
    const { epoch, message } = chain.l2ToL1;
    const got = await aztec.getL2ToL1Messages(epoch);
    const want = await svc('svc_getL2ToL1Messages', [epoch]);
    const asHex = (x: any): any => (Array.isArray(x) ? x.map(asHex) : hex(big(x)));
    assert.deepEqual(asHex(got), asHex(want));
    assert.ok(
      got.flat(3).some((m: any) => big(m) === big(message)),
      'the message of tx a',
    );
    assert.deepEqual(await aztec.getL2ToL1Messages(10_000), []);
  });

  // ---- Logs -----------------------------------------------------------------------------------

  method('getPrivateLogsByTags', async () => {
    const tags = [chain.bigTag, chain.smallTag, chain.unknownTag];
    // cairn's own answer for the same tags: every log, with the tx's effects.
    const all: any[][] = [];
    for (const tag of tags) {
      const logs: any[] = [];
      for (;;) {
        const query: any = { tags: [hex(tag)], includeEffects: true };
        const last = logs[logs.length - 1];
        if (last) query.afterLog = `${last.blockNumber}-${last.txIndexWithinBlock}-${last.logIndexWithinTx}`;
        const [page] = await svc('svc_getPrivateLogsByTags', [query]);
        logs.push(...page);
        if (page.length < 20) break;
      }
      all.push(logs);
    }
    assert.deepEqual(
      all.map((l) => l.length),
      [25, 1, 0],
    );
    const siloed = tags.map((t) => new ref.SiloedTag(new ref.Fr(t)));
    const pages: any[][][] = [];
    for (let page = 0; page < 4; page++) pages.push(await aztec.getPrivateLogsByTags(siloed, page));
    // At most 10 logs per tag per page, in chain order.
    assert.deepEqual(
      pages.map((p) => p.map((l) => l.length)),
      [
        [10, 1, 0],
        [10, 0, 0],
        [5, 0, 0],
        [0, 0, 0],
      ],
    );
    for (const [t, want] of all.entries()) {
      const got = pages.flatMap((p) => p[t]!);
      assert.equal(got.length, want.length);
      for (const [i, log] of got.entries()) {
        const w = want[i];
        assert.equal(lower(log.txHash), lower(w.txHash), `tag ${t} log ${i}`);
        assert.equal(log.blockNumber, w.blockNumber);
        assert.equal(log.blockTimestamp, BigInt(w.blockTimestamp));
        assert.deepEqual(trimmed(log.logData), trimmed(w.logData));
        assert.deepEqual(log.noteHashes.map(big), w.noteHashes.map(big));
        sameField(log.firstNullifier, w.nullifiers[0]);
      }
    }
    // The logs are the txs' own: the big tag's first 13 in tx a, the next 12 in tx b.
    assert.deepEqual(trimmed(pages[0]![0]![0].logData), chain.txs.a.privateLogs[0]);
    // With a reference block that exists the answer is the same; with one that does not, an error.
    const anchor = ref.BlockHash.fromString((await svcBlock(chain.latestBlock)).hash);
    const anchored = await aztec.getPrivateLogsByTags(siloed, 0, anchor);
    assert.deepEqual(
      anchored.map((l: any[]) => l.length),
      [10, 1, 0],
    );
    await assert.rejects(aztec.getPrivateLogsByTags(siloed, 0, ref.BlockHash.random()));
  });

  method('getPublicLogsByTagsFromContract', async () => {
    const child = ref.AztecAddress.fromBigInt(chain.child.address);
    const tags = [chain.child.value, chain.unknownTag];
    const got = await aztec.getPublicLogsByTagsFromContract(
      child,
      tags.map((t) => new ref.Tag(new ref.Fr(t))),
      0,
    );
    const want = await svc('svc_getPublicLogsByTags', [
      { tags: tags.map(hex), contractAddress: hex(chain.child.address) },
    ]);
    assert.deepEqual(
      got.map((l: any[]) => l.length),
      [1, 0],
    );
    assert.deepEqual(
      want.map((l: any[]) => l.length),
      [1, 0],
    );
    const [log] = got[0];
    assert.equal(lower(log.txHash), lower(chain.child.callTx));
    assert.equal(log.txHash.toString(), want[0][0].txHash);
    assert.equal(log.blockNumber, chain.child.callBlock);
    assert.deepEqual(trimmed(log.logData), trimmed(want[0][0].logData));
    sameField(log.logData[0], chain.child.value);
    // Another contract's logs are not this one's.
    const token = ref.AztecAddress.fromBigInt(chain.token.address);
    assert.deepEqual(
      await aztec.getPublicLogsByTagsFromContract(token, [new ref.Tag(new ref.Fr(chain.child.value))]),
      [[]],
    );
  });

  method('getPublicLogs', async () => {
    const child = ref.AztecAddress.fromBigInt(chain.child.address);
    const got = await aztec.getPublicLogs({ contractAddress: child });
    const want = (await result(node.publicUrl, 'node_getPublicLogs', [
      { contractAddress: hex(chain.child.address) },
    ])) as any;
    assert.equal(got.maxLogsHit, false);
    assert.equal(got.logs.length, 1);
    assert.equal(want.logs.length, 1);
    const [log] = got.logs;
    assert.equal(log.id.blockNumber, chain.child.callBlock);
    assert.equal(lower(log.id.txHash), lower(chain.child.callTx));
    sameField(log.id.blockHash, (await svcBlock(chain.child.callBlock)).hash);
    sameField(log.log.contractAddress, chain.child.address);
    assert.ok(log.log.fields.some((f: any) => big(f) === chain.child.value));
    // By tx hash, and by block range.
    const byTx = await aztec.getPublicLogs({ txHash: ref.TxHash.fromString(chain.child.callTx) });
    assert.equal(byTx.logs.length, 1);
    const range = await aztec.getPublicLogs({
      fromBlock: chain.child.callBlock,
      toBlock: chain.child.callBlock + 1,
    });
    assert.ok(range.logs.some((l: any) => big(l.log.contractAddress) === chain.child.address));
  });

  method('getContractClassLogs', async () => {
    const n = chain.token.deployBlock;
    const got = await aztec.getContractClassLogs({ fromBlock: n, toBlock: n + 1 });
    const want = (await result(node.publicUrl, 'node_getContractClassLogs', [
      { fromBlock: n, toBlock: n + 1 },
    ])) as any;
    assert.equal(got.logs.length, want.logs.length);
    assert.ok(got.logs.length >= 1, 'the Token class publication');
    const [log] = got.logs;
    assert.equal(log.id.blockNumber, n);
    // The class registry's log of the Token class: its id is the second field.
    sameField(log.log.fields.fields[1], chain.token.classId);
  });

  // ---- Txs ------------------------------------------------------------------------------------

  method('getTxReceipt', async () => {
    for (const hash of [chain.txs.a.hash, chain.token.mintTx, chain.child.callTx, chain.lateTx]) {
      const got = await aztec.getTxReceipt(ref.TxHash.fromString(hash));
      const want = await svc('svc_getTxReceipt', [hash]);
      assert.equal(got.txHash.toString(), hash);
      assert.equal(got.status, want.status);
      assert.equal(got.executionResult, 'success');
      assert.equal(got.blockNumber, want.blockNumber);
      sameField(got.blockHash, want.blockHash);
      assert.equal(got.transactionFee, BigInt(want.transactionFee));
    }
    // Tx a's block is proven and final; the last block is only checkpointed.
    assert.equal((await aztec.getTxReceipt(ref.TxHash.fromString(chain.txs.a.hash))).status, 'finalized');
    assert.equal((await aztec.getTxReceipt(ref.TxHash.fromString(chain.lateTx))).status, 'checkpointed');
    const unknown = await aztec.getTxReceipt(ref.TxHash.random());
    assert.equal(unknown.status, 'dropped');
  });

  method('getTxEffect', async () => {
    for (const t of [chain.txs.a, chain.txs.b]) {
      const got = await aztec.getTxEffect(ref.TxHash.fromString(t.hash));
      assert.equal(got.l2BlockNumber, t.block);
      sameField(got.l2BlockHash, (await svcBlock(t.block)).hash);
      assert.equal(got.data.txHash.toString(), t.hash);
      assert.deepEqual(got.data.noteHashes.map(big), t.noteHashes);
      assert.deepEqual(got.data.nullifiers.map(big), t.nullifiers);
      assert.equal(got.data.privateLogs.length, t.privateLogs.length);
      for (const [i, log] of got.data.privateLogs.entries())
        assert.deepEqual(trimmed(log.getEmittedFields?.() ?? log.fields), t.privateLogs[i]);
    }
    const a = await aztec.getTxEffect(ref.TxHash.fromString(chain.txs.a.hash));
    sameField(a.data.l2ToL1Msgs[0], chain.l2ToL1.message);
    assert.equal(a.txIndexInBlock, 0);
    assert.equal(await aztec.getTxEffect(ref.TxHash.random()), undefined);
  });

  method('getPendingTxCount', async () => {
    assert.equal(await aztec.getPendingTxCount(), await svc('svc_getPendingTxCount'));
  });

  method(['sendTx', 'isValidTx', 'simulatePublicCalls'], async () => {
    // The reference's random tx decodes and is refused for what it is: another chain's, anchored
    // nowhere here (test/e2e/aztec-txs.test.ts sends valid ones and checks every rule).
    const tx = ref.Tx.random();
    const pendingBefore = await aztec.getPendingTxCount();
    const check = await aztec.isValidTx(tx, { isSimulation: true });
    assert.equal(check.result, 'invalid');
    for (const reason of ['Incorrect L1 chain id', 'Block header not found']) {
      assert.ok(check.reason.includes(reason), `${reason} in ${check.reason}`);
    }
    await assert.rejects(aztec.sendTx(tx), /Invalid tx: .*Incorrect L1 chain id/);
    await assert.rejects(aztec.simulatePublicCalls(tx, false), /Invalid tx/);
    assert.equal(await aztec.getPendingTxCount(), pendingBefore);
  });

  method(['getTxByHash', 'getTxsByHash', 'getPendingTxs'], async () => {
    // Mined txs are not pending: none is returned (pending ones: test/e2e/aztec-txs.test.ts).
    assert.equal(await aztec.getTxByHash(ref.TxHash.fromString(chain.txs.a.hash)), undefined);
    assert.deepEqual(await aztec.getTxsByHash([ref.TxHash.fromString(chain.txs.a.hash)]), []);
    assert.equal((await aztec.getPendingTxs()).length, await svc('svc_getPendingTxCount'));
  });

  method(['getCurrentMinFees', 'getMaxPriorityFees'], async () => {
    const min = await aztec.getCurrentMinFees();
    const want = await svc('svc_getCurrentMinFees');
    assert.equal(min.feePerL2Gas, BigInt(want.feePerL2Gas));
    assert.equal(min.feePerDaGas, BigInt(want.feePerDaGas));
    const priority = await aztec.getMaxPriorityFees();
    const wantPriority = await svc('svc_getMaxPriorityFees');
    assert.equal(priority.feePerL2Gas, BigInt(wantPriority.feePerL2Gas));
    assert.equal(priority.feePerDaGas, BigInt(wantPriority.feePerDaGas));
  });

  // ---- Contracts ------------------------------------------------------------------------------

  method('getContractClass', async () => {
    const got = await aztec.getContractClass(new ref.Fr(chain.token.classId));
    const want = await svc('svc_getContractClass', [hex(chain.token.classId)]);
    sameField(got.id, chain.token.classId);
    assert.equal(got.version, 1);
    sameField(got.artifactHash, want.artifactHash);
    sameField(got.privateFunctionsRoot, want.privateFunctionsRoot);
    assert.ok(Buffer.isBuffer(got.packedBytecode));
    assert.equal(got.packedBytecode.length, chain.token.packedBytecode.length);
    assert.ok(got.packedBytecode.equals(Buffer.from(chain.token.packedBytecode)), 'the published bytecode');
    assert.equal(`0x${got.packedBytecode.toString('hex')}`, want.packedBytecode);
    assert.equal(await aztec.getContractClass(ref.Fr.random()), undefined);
  });

  method('getContract', async () => {
    const got = await aztec.getContract(ref.AztecAddress.fromBigInt(chain.token.address));
    const want = await svc('svc_getContract', [hex(chain.token.address)]);
    sameField(got.address, chain.token.address);
    sameField(got.currentContractClassId, chain.token.classId);
    sameField(got.originalContractClassId, chain.token.classId);
    sameField(got.salt, want.salt);
    sameField(got.deployer, want.deployer);
    sameField(got.initializationHash, want.initializationHash);
    assert.equal(
      got.publicKeys.masterIncomingViewingPublicKey.toString(),
      want.publicKeys.masterIncomingViewingPublicKey,
    );
    assert.equal(await aztec.getContract(ref.AztecAddress.fromBigInt(12345n)), undefined);
  });

  // ---- Node information -----------------------------------------------------------------------

  method(['isReady', 'getNodeInfo', 'getNodeVersion', 'getVersion', 'getChainId'], async () => {
    assert.equal(await aztec.isReady(), true);
    const info = await aztec.getNodeInfo();
    const want = await svc('svc_getNodeInfo');
    assert.equal(info.l1ChainId, want.l1ChainId);
    assert.equal(info.rollupVersion, want.rollupVersion);
    assert.equal(lower(info.l1ContractAddresses.rollupAddress), want.l1ContractAddresses.rollupAddress);
    sameField(info.protocolContractAddresses.classRegistry, want.protocolContractAddresses.classRegistry);
    const version = await aztec.getNodeVersion();
    assert.equal(typeof version, 'string');
    assert.equal(version, info.nodeVersion);
    assert.equal(await aztec.getVersion(), await svc('svc_getVersion'));
    assert.equal(await aztec.getChainId(), await svc('svc_getChainId'));
  });

  method('getL1ContractAddresses', async () => {
    const got = await aztec.getL1ContractAddresses();
    const want = await svc('svc_getL1ContractAddresses');
    for (const key of [
      'rollupAddress',
      'registryAddress',
      'inboxAddress',
      'outboxAddress',
      'feeJuicePortalAddress',
    ])
      assert.equal(lower(got[key]), lower(want[key]), key);
  });

  method('getProtocolContractAddresses', async () => {
    const got = await aztec.getProtocolContractAddresses();
    const want = await svc('svc_getProtocolContractAddresses');
    for (const key of ['classRegistry', 'feeJuice', 'instanceRegistry', 'multiCallEntrypoint'])
      sameField(got[key], want[key], key);
  });

  method('registerContractFunctionSignatures', async () => {
    assert.equal(
      await aztec.registerContractFunctionSignatures(['transfer_in_public((Field),(Field),u128,Field)']),
      undefined,
    );
  });

  method(['getValidatorsStats', 'getValidatorStats'], async () => {
    const stats = await aztec.getValidatorsStats();
    const want = await svc('svc_getValidatorsStats');
    assert.deepEqual(Object.keys(stats.stats).map(lower).sort(), Object.keys(want.stats).map(lower).sort());
    const [address] = Object.keys(want.stats);
    const one = await aztec.getValidatorStats(ref.EthAddress.fromString(address));
    assert.equal(lower(one.validator.address), lower(address));
    assert.equal(await aztec.getValidatorStats(ref.EthAddress.fromString(`0x${'12'.repeat(20)}`)), undefined);
  });

  method('getEncodedEnr', async () => {
    // No P2P on this node: no record.
    const want = await svc('svc_getEncodedEnr');
    assert.equal(await aztec.getEncodedEnr(), want ?? undefined);
  });

  method('getAllowedPublicSetup', async () => {
    const got = await aztec.getAllowedPublicSetup();
    const want = await svc('svc_getAllowedPublicSetup');
    assert.equal(got.length, want.length);
    for (const [i, element] of got.entries()) {
      sameField(element.address, want[i].address);
      assert.equal(lower(element.selector), lower(want[i].selector));
    }
  });

  // ---- The client's version check --------------------------------------------------------------

  test('the client with the reference versions passes its version check; with others it fails', async () => {
    const versions = {
      l2CircuitsVkTreeRoot: VERSION_HEADERS['x-aztec-l2circuitsvktreeroot'],
      l2ProtocolContractsHash: VERSION_HEADERS['x-aztec-l2protocolcontractshash'],
    };
    const checked = ref.createAztecNodeClient(aztecUrl, versions);
    assert.equal(await checked.getBlockNumber(), chain.latestBlock);
    const other = ref.createAztecNodeClient(aztecUrl, { ...versions, l2CircuitsVkTreeRoot: hex(1n) });
    await assert.rejects(other.getBlockNumber(), /component version/i);
  });

  // ---- The transport at /aztec, raw ------------------------------------------------------------

  /** A raw POST; the body as given (a string is sent as is). */
  const raw = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    post(`${node.publicUrl}${path}`, body, headers);

  test('transport: a batch array is answered with an array, in order, with HTTP 200', async () => {
    const res = await raw('/aztec', [
      { jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] },
      { jsonrpc: '2.0', id: 'two', method: 'node_getChainId', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'node_x', params: [] },
    ]);
    assert.equal(res.status, 200);
    const body = JSON.parse(res.text);
    assert.ok(Array.isArray(body));
    assert.deepEqual(
      body.map((r: any) => r.id),
      [1, 'two', 3],
    );
    assert.equal(body[0].result, chain.latestBlock);
    assert.equal(body[1].result, await svc('svc_getChainId'));
    assert.equal(body[2].error.code, -32601);
  });

  test('transport: an unknown method alone is HTTP 400 with -32601 "Method not found: node_x"', async () => {
    const res = await raw('/aztec', { jsonrpc: '2.0', id: 7, method: 'node_x', params: [] });
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.text), {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'Method not found: node_x' },
    });
    // The seeds' methods are not this API's.
    const seeds = await raw('/aztec', { jsonrpc: '2.0', id: 8, method: 'svc_getBlockNumber', params: [] });
    assert.equal(seeds.status, 400);
    assert.equal(JSON.parse(seeds.text).error.code, -32601);
  });

  test('transport: a bad param is HTTP 400 with -32701', async () => {
    const res = await raw('/aztec', {
      jsonrpc: '2.0',
      id: 9,
      method: 'node_getBlockHeader',
      params: ['0xzz'],
    });
    assert.equal(res.status, 400);
    const body = JSON.parse(res.text);
    assert.equal(body.id, 9);
    assert.equal(body.error.code, -32701);
    assert.equal(typeof body.error.message, 'string');
  });

  test('transport: a result that is not found has no result key', async () => {
    const res = await raw('/aztec', { jsonrpc: '2.0', id: 10, method: 'node_getBlock', params: [999_999] });
    assert.equal(res.status, 200);
    const body = JSON.parse(res.text);
    assert.deepEqual(body, { jsonrpc: '2.0', id: 10 });
    assert.equal('result' in body, false);
    // A void method too.
    const reg = JSON.parse(
      (
        await raw('/aztec', {
          jsonrpc: '2.0',
          id: 11,
          method: 'node_registerContractFunctionSignatures',
          params: [[]],
        })
      ).text,
    );
    assert.deepEqual(reg, { jsonrpc: '2.0', id: 11 });
  });

  test('transport: every answer carries the x-aztec-* version headers', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'node_x', params: [] },
      [{ jsonrpc: '2.0', id: 3, method: 'node_getChainId', params: [] }],
    ]) {
      const res = await raw('/aztec', body);
      for (const [name, value] of Object.entries(VERSION_HEADERS))
        assert.equal(res.headers.get(name), value, `${name} on ${JSON.stringify(body)}`);
    }
  });

  test('transport: a large answer is gzipped when the client accepts gzip', async () => {
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'node_getBlock', params: [chain.txs.a.block] },
    ]);
    const send = (acceptEncoding?: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = httpRequest(
          aztecUrl,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const zipped = await send('gzip, deflate');
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    const decoded = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    assert.equal(decoded[0].result.header.globalVariables.blockNumber, chain.txs.a.block);
    assert.ok(zipped.body.length > 0);
    const plain = await send();
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(JSON.parse(plain.body.toString('utf8')), decoded);
  });

  test('transport: rpc.discover at /aztec lists the 55 methods', async () => {
    const res = await raw('/aztec', { jsonrpc: '2.0', id: 1, method: 'rpc.discover', params: [] });
    assert.equal(res.status, 200);
    const doc = JSON.parse(res.text).result;
    assert.deepEqual(
      doc.methods.map((m: any) => m.name).sort(),
      AZTEC_METHODS.map((m) => `node_${m}`).sort(),
    );
  });

  test("transport: the seeds' API at / answers as before", async () => {
    assert.equal(await svc('svc_getBlockNumber'), chain.latestBlock);
    assert.equal(await result(node.publicUrl, 'node_getBlockNumber'), chain.latestBlock);
    // cairn's conventions there: an unknown method is HTTP 200 with a null-id-free error object.
    const res = await raw('/', { jsonrpc: '2.0', id: 1, method: 'node_x', params: [] });
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.text).error.code, -32601);
    // And a not-found result is `"result": null`, not an absent one.
    const missing = JSON.parse(
      (await raw('/', { jsonrpc: '2.0', id: 2, method: 'svc_getBlock', params: [999_999] })).text,
    );
    assert.deepEqual(missing, { jsonrpc: '2.0', id: 2, result: null });
    // The seeds' discovery document is cairn's own.
    const doc = JSON.parse((await raw('/', { jsonrpc: '2.0', id: 3, method: 'rpc.discover' })).text).result;
    assert.ok(doc.methods.some((m: any) => m.name === 'svc_getBlockNumber'));
  });
});
