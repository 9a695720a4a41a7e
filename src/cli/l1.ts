// `cairn l1 send-message`: sends an L1-to-L2 message through the rollup's inbox on L1, as any
// Ethereum tool could, and prints the message as the inbox recorded it. The L1 is the node's own
// (its GET /status names it) unless --l1-rpc-url says otherwise.
//   cairn l1 send-message --recipient 0x1234 --content 0x2a --secret 0x7
import { type Command, InvalidArgumentError } from 'commander';
import { BaseError, createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { NodeClient } from '../client/index.js';
import { type Fr, toHex32 } from '../core/field.js';
import { computeSecretHash } from '../core/l1-to-l2.js';
import { l1ErrorReason } from '../l1/connect.js';
import { artifacts } from '../l1/generated/artifacts.js';
import { messageSentIn } from '../l1/rollup-client.js';
import { field, positiveNumber } from './args.js';
import { nodeAction, rpcUrlOption } from './node-command.js';

/** Anvil's funded account 1: unused by the node itself (account 0 deploys and proves). */
const ANVIL_ACCOUNT_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

function privateKey(text: string): Hex {
  if (!/^0x[0-9a-fA-F]{64}$/.test(text))
    throw new InvalidArgumentError('expected 0x followed by 64 hex digits');
  return text as Hex;
}

interface SendOptions {
  rpcUrl: string;
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
  const l1RpcUrl = opts.l1RpcUrl ?? (await nodeL1Url(opts.rpcUrl));
  const info = await new NodeClient(opts.rpcUrl).call<{
    rollupVersion: number;
    l1ContractAddresses: { inboxAddress: Hex };
  }>('svc_getNodeInfo');
  const account = privateKeyToAccount(opts.privateKey);
  const transport = http(l1RpcUrl);
  const l1 = createPublicClient({ transport });
  const hash = await createWalletClient({ account, transport }).writeContract({
    chain: null,
    address: info.l1ContractAddresses.inboxAddress,
    abi: artifacts.Inbox.abi,
    functionName: 'sendL2Message',
    args: [
      { actor: toHex32(opts.recipient) as Hex, version: BigInt(info.rollupVersion) },
      toHex32(opts.content) as Hex,
      toHex32(secretHash) as Hex,
    ],
  });
  process.stderr.write(
    `sent in L1 tx ${hash}; waiting for it to be mined (with the manual clock: mine with svcDev_mine)\n`,
  );
  const receipt = await l1.waitForTransactionReceipt({ hash, timeout: opts.timeout * 1000 });
  if (receipt.status !== 'success') throw new Error(`L1 transaction ${hash} reverted`);
  const message = messageSentIn(receipt);
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

/** The L1 the node at `rpcUrl` uses, from its GET /status. */
async function nodeL1Url(rpcUrl: string): Promise<string> {
  const response = await fetch(new URL('/status', rpcUrl));
  const status = (await response.json()) as { l1?: { rpcUrl?: string } };
  const url = status.l1?.rpcUrl;
  if (typeof url !== 'string')
    throw new Error(`the node at ${rpcUrl} does not say which L1 it uses: give --l1-rpc-url`);
  return url;
}

export function addL1Command(program: Command): void {
  const l1 = program.command('l1').description("Act on the rollup's L1 contracts");
  l1.command('send-message')
    .description(
      'Send an L1-to-L2 message through the L1 inbox and print it as recorded (hash, leaf index, checkpoint)',
    )
    .option('--l1-rpc-url <url>', "L1 JSON-RPC URL (default: the node's L1, as its GET /status says)")
    .addOption(rpcUrlOption())
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
