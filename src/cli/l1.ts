// `cairn l1 send-message`: sends an L1-to-L2 message through the rollup's inbox on L1, as any
// Ethereum tool could, and prints the message as the inbox recorded it. The L1 is the node's own
// (its GET /status names it) unless --l1-rpc-url says otherwise.
//
// The node's clock decides who mines the L1 tx: realtime, the embedded L1 on its own; manual, the
// user (the command says how, and waits); instant, this command, through the dev methods on the
// admin port. The instant clock moves L1 only when an L2 tx arrives, so an L1 tx would wait for
// the next one; and instant means "in the chain at once", which for a message is "in the L2 tree":
// the command mines the L1 tx and moves L1 on, a slot at a time, until a block inserts the message
// (a message sent while checkpoint N is the tip is inserted by checkpoint N + 2, docs/messages.md).
//   cairn l1 send-message --recipient 0x1234 --content 0x2a --secret 0x7
import { type Command, InvalidArgumentError, Option } from 'commander';
import { BaseError, createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { NodeClient, RpcError } from '../client/index.js';
import { type Fr, toHex32 } from '../core/field.js';
import { computeSecretHash } from '../core/l1-to-l2.js';
import { l1ErrorReason } from '../l1/connect.js';
import { artifacts } from '../l1/generated/artifacts.js';
import { messageSentIn } from '../l1/rollup-client.js';
import { RpcCode } from '../rpc/errors.js';
import { field, positiveNumber } from './args.js';
import { manualClockHint } from './chain.js';
import { DEFAULT_ADMIN_URL, nodeAction, nodeStatus, rpcUrlOption } from './node-command.js';

/** Slots the instant clock is moved at most to get a message into the tree (it takes two). */
const MOST_SLOTS_FOR_A_MESSAGE = 6;

/** Anvil's funded account 1: unused by the node itself (account 0 deploys and proves). */
const ANVIL_ACCOUNT_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

function privateKey(text: string): Hex {
  if (!/^0x[0-9a-fA-F]{64}$/.test(text))
    throw new InvalidArgumentError('expected 0x followed by 64 hex digits');
  return text as Hex;
}

interface SendOptions {
  rpcUrl: string;
  adminUrl: string;
  adminApiKey?: string;
  l1RpcUrl?: string;
  privateKey: Hex;
  recipient: Fr;
  content: Fr;
  secret?: Fr;
  secretHash?: Fr;
  timeout: number;
}

async function send(opts: SendOptions): Promise<void> {
  if ((opts.secret === undefined) === (opts.secretHash === undefined)) {
    throw new Error('give exactly one of --secret and --secret-hash');
  }
  const secretHash = opts.secretHash ?? computeSecretHash(opts.secret!);
  const node = new NodeClient(opts.rpcUrl);
  const status = await nodeStatus(opts.rpcUrl);
  const nodeL1 = status.l1?.rpcUrl;
  const l1RpcUrl = opts.l1RpcUrl ?? nodeL1;
  if (typeof l1RpcUrl !== 'string')
    throw new Error(`the node at ${opts.rpcUrl} does not say which L1 it uses: give --l1-rpc-url`);
  // The clock is the node's embedded L1's: it says nothing of another L1.
  const clock = l1RpcUrl === nodeL1 ? status.clock : undefined;
  const admin =
    clock === 'instant'
      ? new NodeClient(opts.adminUrl, opts.adminApiKey ? { 'x-api-key': opts.adminApiKey } : {})
      : undefined;
  // Before anything is sent: an L1 tx nobody mines would wait for the next L2 tx.
  if (admin) await checkAdmin(admin);
  const info = await node.request('svc_getNodeInfo');
  const account = privateKeyToAccount(opts.privateKey);
  const transport = http(l1RpcUrl);
  const l1 = createPublicClient({ transport });
  const hash = await createWalletClient({ account, transport }).writeContract({
    chain: null,
    address: info.l1ContractAddresses.inboxAddress as Hex,
    abi: artifacts.Inbox.abi,
    functionName: 'sendL2Message',
    args: [
      { actor: toHex32(opts.recipient) as Hex, version: BigInt(info.rollupVersion) },
      toHex32(opts.content) as Hex,
      toHex32(secretHash) as Hex,
    ],
  });
  if (admin) {
    process.stderr.write(`sent in L1 tx ${hash}; the node's clock is instant: mining it\n`);
    await admin.request('svcDev_mine', 1);
  } else {
    process.stderr.write(`sent in L1 tx ${hash}; waiting for it to be mined\n`);
    if (clock === 'manual') await manualClockHint(node, 'l1 send-message', 'l1');
  }
  const receipt = await l1.waitForTransactionReceipt({ hash, timeout: opts.timeout * 1000 });
  if (receipt.status !== 'success') throw new Error(`L1 transaction ${hash} reverted`);
  const message = messageSentIn(receipt);
  if (admin) await intoTheTree(node, admin, toHex32(message.leaf));
  process.stdout.write(
    `${JSON.stringify(
      {
        messageHash: toHex32(message.leaf),
        index: message.index.toString(),
        checkpointNumber: message.checkpointNumber,
        secretHash: toHex32(secretHash),
        l1BlockNumber: receipt.blockNumber.toString(),
        l1TxHash: hash,
      },
      null,
      2,
    )}\n`,
  );
}

/** Checks that the admin port answers (and takes the key) before the L1 tx is sent. */
async function checkAdmin(admin: NodeClient): Promise<void> {
  const why =
    "the node's clock is instant: it moves L1 only when an L2 tx arrives, so this command mines the message through the node's admin port";
  try {
    await admin.request('svcAdmin_getConfig');
  } catch (err) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    const reason =
      err instanceof RpcError
        ? err.message
        : `cannot reach it (${cause?.code ?? cause?.message ?? (err as Error).message})`;
    throw new Error(`${why}, at ${admin.url}: ${reason} (--admin-url, --admin-api-key); nothing was sent`);
  }
}

/** Moves the instant clock's L1 a slot at a time until a block inserts the message. */
async function intoTheTree(node: NodeClient, admin: NodeClient, leaf: string): Promise<void> {
  let slot = (await node.request('svc_getSyncedL2SlotNumber')) ?? 0;
  for (let moves = 0; ; moves++) {
    const block = await node.request('node_getL1ToL2MessageBlock', leaf);
    if (block !== null) {
      process.stderr.write(`the message is in the L2 tree from block ${block}: a tx can consume it\n`);
      return;
    }
    if (moves === MOST_SLOTS_FOR_A_MESSAGE)
      throw new Error(
        `the message is on L1, but no block inserted it after ${moves} slots: see node_getL1ToL2MessageBlock`,
      );
    slot += 1;
    try {
      await admin.request('svcDev_advanceToSlot', slot);
    } catch (err) {
      // L1 moved past this slot meanwhile (an L2 tx came): try the next.
      if (!(err instanceof RpcError && err.code === RpcCode.InvalidParams)) throw err;
    }
  }
}

export function addL1Command(program: Command): void {
  const l1 = program.command('l1').description("Act on the rollup's L1 contracts");
  l1.command('send-message')
    .description(
      'Send an L1-to-L2 message through the L1 inbox and print it as recorded (hash, leaf index, checkpoint)',
    )
    .option('--l1-rpc-url <url>', "L1 JSON-RPC URL (default: the node's L1, as its GET /status says)")
    .addOption(rpcUrlOption())
    .addOption(
      new Option(
        '--admin-url <url>',
        "The node's admin JSON-RPC URL: with the instant clock, this command mines the message there",
      )
        .env('CAIRN_ADMIN_URL')
        .default(DEFAULT_ADMIN_URL),
    )
    .addOption(
      new Option('--admin-api-key <key>', "The admin port's API key, if it has one").env(
        'CAIRN_ADMIN_API_KEY',
      ),
    )
    .option(
      '--private-key <key>',
      "L1 key to send from (default: anvil's funded account 1)",
      privateKey,
      ANVIL_ACCOUNT_1,
    )
    .requiredOption('--recipient <address>', 'The L2 contract the message is for', field)
    .requiredOption('--content <field>', 'The message content', field)
    .option('--secret <field>', 'The secret that will consume the message (its hash is sent)', field)
    .option('--secret-hash <field>', 'The secret hash to send instead', field)
    .option('--timeout <seconds>', 'How long to wait for the L1 transaction to be mined', positiveNumber, 60)
    .action(
      nodeAction(
        'l1 send-message',
        (opts: SendOptions) => send(opts),
        (err) => (err instanceof BaseError ? `L1: ${l1ErrorReason(err)}` : undefined),
      ),
    );
}
