// A real contract on a real node: the reference Token's public bytecode (from the npm artifact)
// is published as a class, an instance of it is published, and txs call its constructor and
// mint_to_public through svc_sendTx; the receipts, svc_simulatePublicCalls (balance_of_public) and
// svc_getPublicStorageAt then show what the AVM did. Needs the npm artifacts
// (CAIRN_SKIP_ARTIFACTS=1 skips it).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureArtifacts, loadArtifactJson } from '../../src/artifacts/npm-artifacts.js';
import {
  deploymentOf,
  devAccounts,
  NodeClient,
  parseArtifact,
  prepareTx,
  randomFr,
} from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';

const [alice, bob] = devAccounts(2);
const MINT = 'mint_to_public((Field),u128)';
const BALANCE = 'balance_of_public((Field))';
const TRANSFER = 'transfer_in_public((Field),(Field),u128,Field)';
/** Token's public_balances map is at storage slot 5. */
const PUBLIC_BALANCES_SLOT = 5n;
/** Enough for the constructor (625,506 L2 gas on the AVM) on top of the private part. */
const GAS = { l2Gas: 2_000_000, daGas: 100_000 };

describe('a real contract on a real node', {
  skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
}, () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p);
  let slot = 0;
  /** Sends a tx, builds the next block and returns its receipt. */
  const mine = async (spec: Omit<Parameters<typeof prepareTx>[1], 'feePayer'>) => {
    const t = await prepareTx(client, { feePayer: alice!.address, ...spec });
    await pub('svc_sendTx', [t.wire]);
    await dev('svcDev_advanceToSlot', [++slot]);
    return pub('svc_getTxReceipt', [t.hash]);
  };

  before(async () => {
    await ensureArtifacts();
    node = await startCairn(['--clock', 'manual']);
    client = new NodeClient(node.publicUrl);
  });
  after(async () => {
    await node?.stop();
  });

  test('publish Token, construct it, mint, and read the balance back', async () => {
    const artifact = parseArtifact(
      loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'),
    );
    const deployment = deploymentOf(artifact, {
      args: [alice!.address, 'Cairn Token', 'CTK', 18],
      salt: randomFr(),
      deployer: alice!.address,
    });
    const token = deployment.address;

    // One tx publishes the class and the instance and runs the constructor: public execution sees
    // the tx's own publications.
    const constructed = await mine({
      gasLimits: GAS,
      publishClass: deployment.contractClass,
      publishInstances: [deployment.instance],
      publicCalls: [deployment.initializerCall!],
    });
    assert.equal(constructed.executionResult, 'success', constructed.error);
    const minted = await mine({
      gasLimits: GAS,
      publicCalls: [{ contractAddress: token, signature: MINT, args: [alice!.address, 1000n] }],
    });
    assert.equal(minted.executionResult, 'success', minted.error);

    // The balance, by a static call in simulation and straight from public storage.
    const view = await prepareTx(client, {
      feePayer: alice!.address,
      gasLimits: GAS,
      publicCalls: [
        { contractAddress: token, signature: BALANCE, args: [alice!.address], isStaticCall: true },
      ],
    });
    const sim = await pub('svc_simulatePublicCalls', [view.wire, true]);
    assert.equal(sim.revertReason, undefined);
    assert.deepEqual(sim.publicReturnValues[0].values.map(BigInt), [1000n]);
    assert.equal(
      sim.gasUsed.publicGas.l2Gas,
      13_203,
      'balance_of_public costs what the reference AVM charges',
    );
    const stored = await pub('svc_getPublicStorageAt', [
      'latest',
      toHex32(token),
      toHex32(mapStorageSlot(PUBLIC_BALANCES_SLOT, alice!.address)),
    ]);
    assert.equal(BigInt(stored), 1000n);

    // Alice sends 300 to Bob (no authwit: she is the sender), and the balances follow.
    const transferred = await mine({
      gasLimits: GAS,
      publicCalls: [
        { contractAddress: token, signature: TRANSFER, args: [alice!.address, bob!.address, 300n, 0n] },
      ],
    });
    assert.equal(transferred.executionResult, 'success', transferred.error);
    const balanceOf = async (who: bigint) =>
      BigInt(
        await pub('svc_getPublicStorageAt', [
          'latest',
          toHex32(token),
          toHex32(mapStorageSlot(PUBLIC_BALANCES_SLOT, who)),
        ]),
      );
    assert.deepEqual([await balanceOf(alice!.address), await balanceOf(bob!.address)], [700n, 300n]);

    // Bob is not a minter: simulating his mint reverts, with the contract's revert data.
    const forbidden = await prepareTx(client, {
      feePayer: bob!.address,
      gasLimits: GAS,
      publicCalls: [{ contractAddress: token, signature: MINT, args: [bob!.address, 1n] }],
    });
    const refused = await pub('svc_simulatePublicCalls', [forbidden.wire, true]);
    assert.match(refused.revertReason, /^App logic reverted: /);
    assert.ok(refused.revertData.length > 0, 'revert data');
    assert.ok(refused.revertReason.includes(refused.revertData[0].slice(2)), 'the reason carries the data');

    // A second constructor call fails: the contract is already initialized.
    const again = await mine({
      gasLimits: GAS,
      publicCalls: [deployment.initializerCall!],
    });
    assert.equal(again.executionResult, 'reverted');
    assert.match(again.error, /App logic reverted: /);
  });

  test("a contract's public logs are served by the log methods of both sets", async () => {
    const avmTest = deploymentOf(
      parseArtifact(
        loadArtifactJson('@aztec/noir-test-contracts.js@4.1.2', 'artifacts/avm_test_contract-AvmTest.json'),
      ),
      { salt: randomFr() },
    );
    const avmTestClass = avmTest.contractClass;
    const instance = avmTest.instance;
    // Published by one tx and called by the next in the same block: the publishing tx pays a
    // higher priority fee, so it comes first.
    const publish = await prepareTx(client, {
      feePayer: alice!.address,
      publishClass: avmTestClass,
      publishInstances: [instance],
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
    });
    // emit_public_log() emits four logs, with tags 10, 72 ("H"), a long string's first field and 1.
    const emit = await prepareTx(client, {
      feePayer: bob!.address,
      gasLimits: GAS,
      publicCalls: [{ contractAddress: instance.address, selector: 0x7933a124, args: [] }],
    });
    await pub('svc_sendTx', [publish.wire]);
    await pub('svc_sendTx', [emit.wire]);
    await dev('svcDev_advanceToSlot', [++slot]);
    const published = await pub('svc_getTxReceipt', [publish.hash]);
    const emitted = await pub('svc_getTxReceipt', [emit.hash]);
    assert.equal(published.executionResult, 'success', published.error);
    assert.equal(emitted.executionResult, 'success', emitted.error);
    assert.equal(emitted.blockNumber, published.blockNumber, 'both txs are in one block');
    const address = toHex32(instance.address);
    const { logs, maxLogsHit } = await pub('node_getPublicLogs', [{ contractAddress: address }]);
    assert.equal(maxLogsHit, false);
    assert.deepEqual(
      logs.map((l: { log: { contractAddress: string; fields: string[] } }) => [
        l.log.contractAddress,
        BigInt(l.log.fields[0]!),
        l.log.fields.length,
      ]),
      [
        [address, 10n, 3],
        [address, 0x48n, 13],
        [address, 0x41206c6f6e672074696d652061676f2c20696e20612067616c617879206661n, 2],
        [address, 1n, 42],
      ],
    );
    const [byTag] = await pub('svc_getPublicLogsByTags', [
      { contractAddress: address, tags: [toHex32(0x48n)] },
    ]);
    assert.equal(byTag.length, 1);
    assert.deepEqual(byTag[0].logData.map(BigInt).slice(0, 3), [0x48n, 0x65n, 0x6cn]);
    const [[legacy]] = await pub('node_getLogsByTags', [[toHex32(10n)]]);
    assert.equal(legacy.isFromPublic, true);
    assert.deepEqual(legacy.log.fields.map(BigInt), [10n, 20n, 30n]);
  });
});
