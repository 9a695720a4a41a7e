// Messages between L1 and L2, end to end on the embedded L1 (anvil, manual clock): a message sent
// to the L1 inbox is found, inserted by its checkpoint's first block, and its witness folds to the
// L1-to-L2 tree root in that block's header; a Fee Juice deposit through the L1 portal is claimed
// on L2 once (a new account pays its first fee with it), a second claim reverts; an L2-to-L1
// message's witness is null until the epoch proof lands, then the L1 outbox accepts it once and
// refuses it a second time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPublicClient, createWalletClient, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  computeSecretHash,
  devAccounts,
  feeJuiceClaimCall,
  NodeClient,
  prepareTx,
  randomFr,
} from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { verifyL2ToL1Membership } from '../../src/core/out-hash.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { type CairnProcess, type RunResult, runCairn, slotStepper, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { rootFromPath } from '../world-state/model.js';

const [alice] = devAccounts(1);
const hex = toHex32;
// Anvil's funded account 2: the L1 recipient of the L2-to-L1 message.
const recipientKey = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const outboxAbi = parseAbi([
  'function consume((bytes32 actor, uint256 version) l2Sender, (address actor, uint256 chainId) recipient, bytes32 content, uint256 epoch, uint256 numCheckpointsInEpoch, uint256 leafIndex, bytes32[] path)',
]);

describe('messages between L1 and L2 on a real node', () => {
  let node: CairnProcess;
  let client: NodeClient;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p) as Promise<any>;
  /** The next slot (its proposer builds if it can); resolves with the latest block number. */
  const nextBlock = slotStepper(() => node);
  /** Builds blocks until the message's checkpoint has inserted it; returns that block. */
  const untilInserted = async (messageHash: string) => {
    for (let i = 0; i < 8; i++) {
      const block = await pub('node_getL1ToL2MessageBlock', [messageHash]);
      if (block !== null) return block as number;
      await nextBlock();
    }
    throw new Error(`message ${messageHash} was not inserted`);
  };

  before(async () => {
    node = await startCairn(['--clock', 'manual']);
    client = new NodeClient(node.publicUrl);
    await nextBlock();
  });
  after(() => node?.stop());

  test('an L1-to-L2 message is found, inserted by its checkpoint and proven against the tree root', async () => {
    const secret = randomFr();
    const sent = await dev('svcDev_sendL1ToL2Message', [
      hex(0x1234n),
      hex(randomFr()),
      hex(computeSecretHash(secret)),
    ]);
    assert.equal(await pub('svc_getL1ToL2MessageCheckpoint', [sent.messageHash]), sent.checkpointNumber);
    assert.equal(await pub('node_isL1ToL2MessageSynced', [sent.messageHash]), true);
    assert.equal(await pub('node_isL1ToL2MessageSynced', [hex(randomFr())]), false);
    assert.equal(await pub('svc_getL1ToL2MessageCheckpoint', [hex(randomFr())]), null);
    assert.equal(await pub('svc_getL1ToL2MessageMembershipWitness', ['latest', sent.messageHash]), null);

    const block = await untilInserted(sent.messageHash);
    const inserted = await pub('svc_getBlock', [block]);
    assert.equal(inserted.checkpointNumber, sent.checkpointNumber);
    assert.equal(inserted.indexWithinCheckpoint, 0);
    const [index, path] = await pub('svc_getL1ToL2MessageMembershipWitness', [block, sent.messageHash]);
    assert.equal(index, sent.index);
    assert.equal(path.length, 36);
    assert.equal(
      hex(rootFromPath(BigInt(sent.messageHash), Number(index), path.map(BigInt))),
      inserted.header.state.l1ToL2MessageTree.root,
    );
    assert.deepEqual(await pub('node_getL1ToL2MessageMembershipWitness', ['latest', sent.messageHash]), [
      index,
      path,
    ]);
    // Not in the tree before its block.
    assert.equal(await pub('svc_getL1ToL2MessageMembershipWitness', [block - 1, sent.messageHash]), null);
  });

  test('cairn l1 send-message sends through the inbox as any Ethereum tool would', async () => {
    const l1 = /embedded L1 (http:\/\/[0-9.:]+)/.exec(node.output())![1]!;
    // Without --l1-rpc-url: the node's own L1, as its GET /status names it.
    const run = runCairn(
      [
        'l1',
        'send-message',
        '--rpc-url',
        node.publicUrl,
        '--recipient',
        '0x99',
        '--content',
        '0x2a',
        '--secret',
        '0x7',
      ],
      {},
      60_000,
    );
    let done: RunResult | undefined;
    void run.then((r) => {
      done = r;
    });
    // The manual clock: mine until the command sees its transaction mined.
    for (let i = 0; i < 40 && done === undefined; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await dev('svcDev_mine', [1]);
    }
    const out = await run;
    assert.equal(out.code, 0, out.stderr);
    const sent = JSON.parse(out.stdout);
    assert.equal(sent.secretHash, hex(computeSecretHash(7n)));
    assert.equal(await pub('svc_getL1ToL2MessageCheckpoint', [sent.messageHash]), sent.checkpointNumber);
    const bad = await runCairn([
      'l1',
      'send-message',
      '--l1-rpc-url',
      l1,
      '--recipient',
      '0x99',
      '--content',
      '0x2a',
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /exactly one of --secret and --secret-hash/);
  });

  test('a Fee Juice deposit is claimed on L2 once: a new account pays its first fee with it', async () => {
    const newcomer = randomFr();
    const secret = randomFr();
    const amount = 10n ** 21n;
    const sent = await dev('svcDev_depositFeeJuice', [
      hex(newcomer),
      amount.toString(),
      hex(computeSecretHash(secret)),
    ]);
    await untilInserted(sent.messageHash);
    const claim = { to: newcomer, amount, secret, leafIndex: BigInt(sent.index) };

    // The claim runs in setup, so the newcomer's empty balance can pay the fee.
    const first = await prepareTx(client, { feePayer: newcomer, publicCalls: [feeJuiceClaimCall(claim)] });
    await pub('svc_sendTx', [first.wire]);
    await nextBlock();
    const r = await pub('svc_getTxReceipt', [first.hash]);
    assert.equal(r.executionResult, 'success', r.error);
    const balance = BigInt(
      await pub('svc_getPublicStorageAt', [
        'latest',
        hex(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
        hex(mapStorageSlot(1n, newcomer)),
      ]),
    );
    assert.equal(balance, amount - BigInt(r.transactionFee));

    // A second claim of the same deposit, or one with the wrong secret, reverts.
    const again = await prepareTx(client, {
      feePayer: alice!.address,
      publicCalls: [{ ...feeJuiceClaimCall(claim), phase: 'app' }],
    });
    const wrong = await prepareTx(client, {
      feePayer: alice!.address,
      publicCalls: [{ ...feeJuiceClaimCall({ ...claim, secret: secret + 1n }), phase: 'app' }],
    });
    await pub('svc_sendTx', [again.wire]);
    await pub('svc_sendTx', [wrong.wire]);
    await nextBlock();
    const [ra, rw] = [
      await pub('svc_getTxReceipt', [again.hash]),
      await pub('svc_getTxReceipt', [wrong.hash]),
    ];
    assert.equal(ra.executionResult, 'reverted');
    assert.match(ra.error, /already consumed/);
    assert.equal(rw.executionResult, 'reverted');
    assert.match(rw.error, /no L1-to-L2 message at index/);
  });

  test('an L2-to-L1 message: null before the epoch proof, then consumed once by the outbox', async () => {
    const l1 = /embedded L1 (http:\/\/[0-9.:]+)/.exec(node.output())![1]!;
    const recipient = privateKeyToAccount(recipientKey);
    const content = randomFr();
    const t = await prepareTx(client, {
      feePayer: alice!.address,
      l2ToL1Msgs: [{ sender: alice!.address, recipient: recipient.address, content }],
    });
    await pub('svc_sendTx', [t.wire]);
    const block = await nextBlock();
    const effect = (await pub('svc_getTxReceipt', [t.hash, { includeTxEffect: true }])).txEffect;
    const [message] = effect.l2ToL1Msgs;
    assert.deepEqual(await pub('node_getL2ToL1Messages', [block]), [[message]]);
    assert.equal(await pub('svc_getL2ToL1MembershipWitness', [t.hash, message]), null);

    // Prove the epoch: the outbox gets its root.
    await dev('svcDev_advanceToNextEpoch');
    await dev('svcDev_advanceToNextEpoch');
    const w = await pub('svc_getL2ToL1MembershipWitness', [t.hash, message]);
    assert.notEqual(w, null);
    assert.ok(
      verifyL2ToL1Membership(BigInt(message), BigInt(w.leafIndex), w.siblingPath.map(BigInt), BigInt(w.root)),
    );
    const epochMessages = await pub('svc_getL2ToL1Messages', [w.epochNumber]);
    assert.ok(epochMessages.flat(3).includes(message));
    assert.deepEqual(await pub('svc_getL2ToL1Messages', [10_000]), []);

    const info = await pub('svc_getNodeInfo');
    const wallet = createWalletClient({ account: recipient, transport: http(l1) });
    const publicClient = createPublicClient({ transport: http(l1) });
    const consume = () =>
      wallet.writeContract({
        chain: null,
        address: info.l1ContractAddresses.outboxAddress,
        abi: outboxAbi,
        functionName: 'consume',
        args: [
          { actor: hex(alice!.address) as `0x${string}`, version: BigInt(info.rollupVersion) },
          { actor: recipient.address, chainId: BigInt(info.l1ChainId) },
          hex(content) as `0x${string}`,
          BigInt(w.epochNumber),
          BigInt(w.numCheckpointsInEpoch),
          BigInt(w.leafIndex),
          w.siblingPath,
        ],
        gas: 500_000n,
      });
    const firstTx = await consume();
    await dev('svcDev_mine', [1]);
    assert.equal((await publicClient.getTransactionReceipt({ hash: firstTx })).status, 'success');
    const secondTx = await consume();
    await dev('svcDev_mine', [1]);
    assert.equal((await publicClient.getTransactionReceipt({ hash: secondTx })).status, 'reverted');
  });

  test('a message that appears twice in a tx needs its index', async () => {
    const recipient = privateKeyToAccount(recipientKey).address;
    const content = randomFr();
    const twice = { sender: alice!.address, recipient, content };
    const t = await prepareTx(client, { feePayer: alice!.address, l2ToL1Msgs: [twice, twice] });
    await pub('svc_sendTx', [t.wire]);
    await nextBlock();
    const [message] = (await pub('svc_getTxReceipt', [t.hash, { includeTxEffect: true }])).txEffect
      .l2ToL1Msgs;
    const ambiguous = await call(node.publicUrl, 'svc_getL2ToL1MembershipWitness', [t.hash, message]);
    assert.equal(ambiguous.error?.code, -32602);
    assert.match(ambiguous.error!.message, /messageIndexInTx/);
    // With an index it is answered (null: not proven yet).
    assert.equal(await pub('svc_getL2ToL1MembershipWitness', [t.hash, message, 1]), null);
    assert.equal(await pub('svc_getL2ToL1MembershipWitness', [hex(randomFr()), message]), null);
  });
});
