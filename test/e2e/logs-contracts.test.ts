// Logs and contracts end to end on a real node (manual clock; the instance registry's real bytecode
// and its default update delay of a day, passed with one jump of the dev clock): private
// logs emitted by txs are found by tag in chain order, a page at a time, with the cursor, block
// range, tx and reference block; a class and an instance published through the registries are
// found; a class update becomes visible once its delay has passed, while a query at an earlier
// reference block still sees the old class; everything is still there after a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  devAccounts,
  makeContractClass,
  makeContractInstance,
  NodeClient,
  prepareTx,
  randomFr,
} from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE } from '../../src/core/contracts.js';
import { toHex32 } from '../../src/core/field.js';
import { txView } from '../../src/core/tx-view.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-logs-'));
const SLOT = 8;
/** The instance registry's default update delay. */
const DELAY = 86_400;
const args = ['--ephemeral', 'false', '--data-dir', join(dir, 'data'), '--clock', 'manual'];
const [alice, bob] = devAccounts(2);
const hex = toHex32;

describe('logs and contracts on a real node', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p);
  let slot = 0;
  /** Builds the next block (the next slot) with whatever is pending. */
  const nextBlock = async () => {
    slot++;
    await dev('svcDev_advanceToSlot', [slot]);
    return (await pub('svc_getBlockNumber')) as number;
  };
  const receipt = (hash: string) => pub('svc_getTxReceipt', [hash]);
  const start = async () => {
    node = await startCairn(args);
    client = new NodeClient(node.publicUrl);
  };

  // Two tags; T1 has 27 logs over two blocks (more than a page of 20), T2 one.
  const T1 = randomFr();
  const T2 = randomFr();
  const logsA = Array.from({ length: 15 }, (_, i) => [T1, BigInt(i), randomFr()]);
  const logsB = Array.from({ length: 12 }, (_, i) => [T1, BigInt(100 + i)]);
  let txA: Awaited<ReturnType<typeof prepareTx>>;
  let txB: Awaited<ReturnType<typeof prepareTx>>;
  let blockA: number;
  let blockB: number;

  before(async () => {
    await start();
    await nextBlock();
    txA = await prepareTx(client, {
      feePayer: alice!.address,
      privateLogs: [...logsA, [T2, 7n]],
      noteHashes: [randomFr()],
    });
    await pub('svc_sendTx', [txA.wire]);
    blockA = await nextBlock();
    txB = await prepareTx(client, { feePayer: bob!.address, privateLogs: logsB });
    await pub('svc_sendTx', [txB.wire]);
    blockB = await nextBlock();
    assert.equal((await receipt(txA.hash)).blockNumber, blockA);
    assert.equal((await receipt(txB.hash)).blockNumber, blockB);
  });
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const cursor = (l: any) => `${l.blockNumber}-${l.txIndexWithinBlock}-${l.logIndexWithinTx}`;

  test('private logs by tag: one array per tag in input order, in chain order, paged with the cursor', async () => {
    const unknown = randomFr();
    const [page1, t2, none] = await pub('svc_getPrivateLogsByTags', [
      { tags: [hex(T1), hex(T2), hex(unknown)] },
    ]);
    assert.equal(page1.length, 20);
    assert.equal(t2.length, 1);
    assert.deepEqual(none, []);
    assert.deepEqual(t2[0].logData.map(BigInt), [T2, 7n]);
    const page2 = (
      await pub('svc_getPrivateLogsByTags', [{ tags: [{ tag: hex(T1), afterLog: cursor(page1[19]) }] }])
    )[0];
    assert.equal(page2.length, 7);
    const all = [...page1, ...page2];
    // Every log once, in the order the txs emitted them.
    assert.deepEqual(
      all.map((l: any) => l.logData.map(BigInt)),
      [...logsA, ...logsB],
    );
    for (const l of all.slice(0, 15)) {
      assert.equal(l.txHash, txA.hash);
      assert.equal(l.blockNumber, blockA);
    }
    assert.deepEqual(
      all.slice(0, 15).map((l: any) => l.logIndexWithinTx),
      Array.from({ length: 15 }, (_, i) => i),
    );
    const header = (await pub('svc_getBlock', [blockB])).header;
    assert.equal(all[15].blockHash, (await pub('svc_getBlock', [blockB])).hash);
    assert.equal(all[15].blockTimestamp, header.globalVariables.timestamp);
    assert.equal(all[0].noteHashes, undefined);
    // The cursor also comes as an object; past the last log there is nothing.
    const tail = await pub('svc_getPrivateLogsByTags', [
      {
        tags: [
          {
            tag: hex(T1),
            afterLog: {
              blockNumber: all[25].blockNumber,
              txIndexWithinBlock: all[25].txIndexWithinBlock,
              logIndexWithinTx: all[25].logIndexWithinTx,
            },
          },
          { tag: hex(T1), afterLog: cursor(all[26]) },
        ],
      },
    ]);
    assert.equal(tail[0].length, 1);
    assert.deepEqual(tail[1], []);
  });

  test("afterLog as a query member: for every tag, and with a tag's own cursor, after both", async () => {
    const [t1All, [t2Log]] = await pub('svc_getPrivateLogsByTags', [{ tags: [hex(T1), hex(T2)] }]);
    const lastOfA = cursor(t1All[14]); // T1's last log in tx A; T2's log comes after it in that tx
    const [t1, t2] = await pub('svc_getPrivateLogsByTags', [{ tags: [hex(T1), hex(T2)], afterLog: lastOfA }]);
    assert.deepEqual(
      t1.map((l: any) => l.logData.map(BigInt)),
      logsB,
    );
    assert.deepEqual(t2, [t2Log]);
    const afterT2 = await pub('svc_getPrivateLogsByTags', [
      { tags: [hex(T1), hex(T2)], afterLog: cursor(t2Log) },
    ]);
    assert.deepEqual(afterT2, [t1, []]);
    // The object form; with a tag's own cursor the later of the two counts, whichever it is.
    const [asObject, tagLater, queryLater] = await pub('svc_getPrivateLogsByTags', [
      {
        tags: [hex(T1), { tag: hex(T1), afterLog: cursor(t1[5]) }, { tag: hex(T1), afterLog: '1-0-0' }],
        afterLog: {
          blockNumber: t1All[14].blockNumber,
          txIndexWithinBlock: t1All[14].txIndexWithinBlock,
          logIndexWithinTx: t1All[14].logIndexWithinTx,
        },
      },
    ]);
    assert.deepEqual(asObject, t1);
    assert.deepEqual(tagLater, t1.slice(6));
    assert.deepEqual(queryLater, t1);
    // The form docs/logs-and-contracts.md shows, for the public query too.
    assert.deepEqual(await pub('svc_getPrivateLogsByTags', [{ tags: ['0x01'], afterLog: '1-0-0' }]), [[]]);
    assert.deepEqual(
      await pub('svc_getPublicLogsByTags', [{ tags: ['0x01'], afterLog: '1-0-0', contractAddress: hex(5n) }]),
      [[]],
    );
    const bad = await call(node.publicUrl, 'svc_getPrivateLogsByTags', [
      { tags: [hex(T1)], afterLog: 'soon' },
    ]);
    assert.equal(bad.error?.code, -32602);
    assert.match(bad.error!.message, /^Invalid params: query\.afterLog: expected a log cursor/);
  });

  test('block range, tx, reference block and effects narrow or enrich the results', async () => {
    const only = async (query: object) => (await pub('svc_getPrivateLogsByTags', [query]))[0];
    assert.equal((await only({ tags: [hex(T1)], fromBlock: blockB })).length, 12);
    assert.equal((await only({ tags: [hex(T1)], toBlock: blockB })).length, 15);
    assert.equal((await only({ tags: [hex(T1)], txHash: txB.hash })).length, 12);
    assert.equal((await only({ tags: [hex(T1)], referenceBlock: blockA })).length, 15);
    const blockAHash = (await pub('svc_getBlock', [blockA])).hash;
    assert.equal((await only({ tags: [hex(T1)], referenceBlock: blockAHash })).length, 15);
    const withEffects = await only({ tags: [hex(T2)], includeEffects: true });
    assert.deepEqual(withEffects[0].noteHashes, txView(txA.tx).nonRevertible.noteHashes.map(hex));
    assert.deepEqual(withEffects[0].nullifiers, txView(txA.tx).nonRevertible.nullifiers.map(hex));

    const both = await call(node.publicUrl, 'svc_getPrivateLogsByTags', [
      { tags: [hex(T1)], txHash: txB.hash, fromBlock: 1 },
    ]);
    assert.equal(both.error?.code, -32602);
    const missing = await call(node.publicUrl, 'svc_getPrivateLogsByTags', [
      { tags: [hex(T1)], referenceBlock: hex(randomFr()) },
    ]);
    assert.equal(missing.error?.code, -32000);
    assert.match(missing.error!.message, /not found/);
    const bad = await call(node.publicUrl, 'svc_getPrivateLogsByTags', [
      { tags: [{ tag: hex(T1), afterLog: 'yesterday' }] },
    ]);
    assert.equal(bad.error?.code, -32602);
    const empty = await call(node.publicUrl, 'svc_getPrivateLogsByTags', [{ tags: [] }]);
    assert.equal(empty.error?.code, -32602);
  });

  test('the earlier set: logs by tags, private logs by block range', async () => {
    const [t1, t2] = await pub('node_getLogsByTags', [[hex(T1), hex(T2)]]);
    assert.equal(t1.length, 10);
    assert.equal(t2.length, 1);
    const log = t1[0];
    assert.equal(log.txHash, txA.hash);
    assert.equal(log.isFromPublic, false);
    assert.equal(log.log.fields.length, 16);
    assert.equal(log.log.emittedLength, 3);
    const headerA = (await pub('svc_getBlock', [blockA])).header;
    // A tx's note hashes take 64 slots; txA is the only tx of its block.
    assert.equal(log.dataStartIndexForTx, headerA.state.partial.noteHashTree.nextAvailableLeafIndex - 64);
    assert.equal((await pub('node_getLogsByTags', [[hex(T1)], 3]))[0].length, 3);
    const tooMany = await call(node.publicUrl, 'node_getLogsByTags', [[hex(T1)], 11]);
    assert.equal(tooMany.error?.code, -32602);
    const privateLogs = await pub('node_getPrivateLogs', [blockA, 2]);
    assert.equal(privateLogs.length, 16 + 12);
    assert.equal(BigInt(privateLogs[16].fields[1]), 100n);
    const zero = await call(node.publicUrl, 'node_getPrivateLogs', [0, 10]);
    assert.equal(zero.error?.code, -32602);
  });

  const classOne = makeContractClass({ artifactHash: randomFr(), packedBytecode: Uint8Array.of(1, 2, 3, 4) });
  const classTwo = makeContractClass({
    artifactHash: randomFr(),
    packedBytecode: Uint8Array.from({ length: 100 }, (_, i) => i),
  });
  const instance = makeContractInstance({ classId: classOne.id, salt: randomFr() });
  let publishedAt: number;
  let updatedAt: number;

  test('a published class and instance are found; before publication the contract is null', async () => {
    const before = await pub('svc_getBlockNumber');
    const c1 = await prepareTx(client, { feePayer: alice!.address, publishClass: classOne });
    const c2 = await prepareTx(client, { feePayer: bob!.address, publishClass: classTwo });
    await pub('svc_sendTx', [c1.wire]);
    await pub('svc_sendTx', [c2.wire]);
    await nextBlock();
    const i = await prepareTx(client, { feePayer: alice!.address, publishInstances: [instance] });
    await pub('svc_sendTx', [i.wire]);
    publishedAt = await nextBlock();
    assert.equal((await receipt(i.hash)).executionResult, 'success');

    const found = await pub('svc_getContractClass', [hex(classOne.id)]);
    assert.deepEqual(found, {
      id: hex(classOne.id),
      version: 1,
      artifactHash: hex(classOne.artifactHash),
      privateFunctionsRoot: hex(classOne.privateFunctionsRoot),
      packedBytecode: '0x01020304',
      privateFunctions: [],
      utilityFunctions: [],
    });
    assert.deepEqual(await pub('node_getContractClass', [hex(classTwo.id)]), {
      ...(await pub('svc_getContractClass', [hex(classTwo.id)])),
    });
    assert.equal(await pub('svc_getContractClass', [hex(randomFr())]), null);

    const contract = await pub('svc_getContract', [hex(instance.address)]);
    assert.equal(contract.address, hex(instance.address));
    assert.equal(contract.currentContractClassId, hex(classOne.id));
    assert.equal(contract.originalContractClassId, hex(classOne.id));
    assert.equal(contract.salt, hex(instance.salt));
    assert.match(contract.publicKeys.masterIncomingViewingPublicKey, /^0x[0-9a-f]{128}$/);
    assert.deepEqual(await pub('node_getContract', [hex(instance.address)]), contract);
    assert.equal(await pub('svc_getContract', [hex(instance.address), before]), null);
    assert.equal(await pub('svc_getContract', [hex(randomFr())]), null);

    // The class log is served by the earlier set's class log filter too.
    const classLogs = await pub('node_getContractClassLogs', [
      { contractAddress: hex(PROTOCOL_CONTRACT_ADDRESSES.classRegistry), fromBlock: before + 1 },
    ]);
    assert.equal(classLogs.logs.length, 2);
    assert.equal(classLogs.maxLogsHit, false);
    assert.equal(classLogs.logs[0].log.fields.fields[1], hex(classOne.id));
  });

  test('a class update takes effect after its delay; earlier reference blocks keep the old class', async () => {
    const u = await prepareTx(client, {
      feePayer: alice!.address,
      classUpdates: [{ address: instance.address, newClassId: classTwo.id }],
    });
    await pub('svc_sendTx', [u.wire]);
    updatedAt = await nextBlock();
    const r = await receipt(u.hash);
    assert.equal(r.executionResult, 'success', r.error);
    const scheduledAt = BigInt((await pub('svc_getBlock', [updatedAt])).header.globalVariables.timestamp);

    // The update is a public log of the instance registry.
    const [[log]] = await pub('svc_getPublicLogsByTags', [
      {
        contractAddress: hex(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry),
        tags: [hex(CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE)],
      },
    ]);
    assert.deepEqual(log.logData.map(BigInt), [
      CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE,
      instance.address,
      0n,
      classTwo.id,
      scheduledAt + BigInt(DELAY),
    ]);
    const publicLogs = await pub('node_getPublicLogs', [{ txHash: u.hash }]);
    assert.equal(publicLogs.logs.length, 1);
    assert.equal(publicLogs.logs[0].id.txHash, u.hash);

    // Not yet: the delay has not passed.
    const current = async (ref?: unknown) =>
      (
        await pub(
          'svc_getContract',
          ref === undefined ? [hex(instance.address)] : [hex(instance.address), ref],
        )
      ).currentContractClassId;
    assert.equal(await current(), hex(classOne.id));
    // One jump to the last slot before the change, then slot by slot across it.
    slot += DELAY / SLOT - 1;
    await dev('svcDev_advanceToSlot', [slot]);
    let latest = (await pub('svc_getBlockNumber')) as number;
    let time = BigInt((await pub('svc_getBlock', [latest])).header.globalVariables.timestamp);
    assert.ok(time < scheduledAt + BigInt(DELAY), `block ${latest} at ${time} is before the change`);
    assert.equal(await current(latest), hex(classOne.id));
    while (time < scheduledAt + BigInt(DELAY)) {
      latest = await nextBlock();
      time = BigInt((await pub('svc_getBlock', [latest])).header.globalVariables.timestamp);
      if (time < scheduledAt + BigInt(DELAY)) assert.equal(await current(latest), hex(classOne.id));
    }
    assert.equal(await current(), hex(classTwo.id));
    assert.equal(await current(latest), hex(classTwo.id));
    assert.equal(await current(updatedAt), hex(classOne.id));
    assert.equal(await current(publishedAt), hex(classOne.id));
    const contract = await pub('svc_getContract', [hex(instance.address)]);
    assert.equal(contract.originalContractClassId, hex(classOne.id));
  });

  test('updates of an unpublished contract or to an unpublished class revert with the reason', async () => {
    const stranger = makeContractInstance({ classId: classOne.id, salt: randomFr() });
    const a = await prepareTx(client, {
      feePayer: alice!.address,
      classUpdates: [{ address: stranger.address, newClassId: classTwo.id }],
    });
    const b = await prepareTx(client, {
      feePayer: bob!.address,
      classUpdates: [{ address: instance.address, newClassId: randomFr() }],
    });
    await pub('svc_sendTx', [a.wire]);
    await pub('svc_sendTx', [b.wire]);
    await nextBlock();
    const [ra, rb] = [await receipt(a.hash), await receipt(b.hash)];
    assert.equal(ra.executionResult, 'reverted');
    assert.match(ra.error, /Assertion failed: msg.sender is not deployed \(revert data 0x/);
    assert.equal(rb.executionResult, 'reverted');
    assert.match(rb.error, /Assertion failed: New contract class is not registered/);
    assert.equal(await pub('svc_getContract', [hex(stranger.address)]), null);
  });

  test('cairn tx publishes a class and an instance from the command line', async () => {
    const published = await runCairn([
      'tx',
      '--rpc-url',
      node.publicUrl,
      '--publish-class',
      '0xdeadbeef',
      '--send',
    ]);
    assert.equal(published.code, 0, published.stderr);
    const classId = /class id: (0x[0-9a-f]{64})/.exec(published.stderr)![1]!;
    await nextBlock();
    const inst = await runCairn([
      'tx',
      '--rpc-url',
      node.publicUrl,
      '--account',
      '1',
      '--publish-instance',
      classId,
      '--send',
    ]);
    assert.equal(inst.code, 0, inst.stderr);
    const address = /contract address: (0x[0-9a-f]{64})/.exec(inst.stderr)![1]!;
    await nextBlock();
    assert.equal((await pub('svc_getContractClass', [classId])).packedBytecode, '0xdeadbeef');
    assert.equal((await pub('svc_getContract', [address])).currentContractClassId, classId);
  });

  test('logs and contracts survive a restart', async () => {
    const before = {
      logs: await pub('svc_getPrivateLogsByTags', [{ tags: [hex(T1), hex(T2)] }]),
      contract: await pub('svc_getContract', [hex(instance.address)]),
      cls: await pub('svc_getContractClass', [hex(classTwo.id)]),
    };
    assert.equal(await node.stop(), 0);
    await start();
    assert.deepEqual(await pub('svc_getPrivateLogsByTags', [{ tags: [hex(T1), hex(T2)] }]), before.logs);
    assert.deepEqual(await pub('svc_getContract', [hex(instance.address)]), before.contract);
    assert.deepEqual(await pub('svc_getContractClass', [hex(classTwo.id)]), before.cls);
  });
});
