// `cairn contract …`: contracts from compiled artifacts on a running node — deploy, call,
// simulate, read storage and logs — with arguments and results in the artifact's ABI.
//   cairn contract deploy --artifact token_contract-Token.json --args 0x…01 "My Token" MTK 18 --wait
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { artifactPath } from '../artifacts/npm-artifacts.js';
import {
  authorizePublicCall,
  ContractRevertError,
  checkContract,
  decodeRevertReason,
  deployContract,
  findFunction,
  functionSelector,
  loadArtifact,
  type MethodResult,
  NodeClient,
  publicCall,
  randomFr,
  sendTx,
  simulateCall,
  storageSlot,
} from '../client/index.js';
import type { AbiValue } from '../core/abi.js';
import { abiValueToJson } from '../core/abi.js';
import type { ContractArtifact } from '../core/artifact.js';
import { type Fr, toHex32 } from '../core/field.js';
import { ACCOUNT_FORMS, accountAddressText, accountArg, devAccountAddress } from './accounts.js';
import { blockNumber, field, gasLimit } from './args.js';
import { receiptFailed, receiptLine, waitForTx } from './chain.js';
import { helpAfter } from './help-layout.js';
import { addressArg, nodeAction, print, rpcUrlOption, withAccounts } from './node-command.js';

interface CommonOptions {
  rpcUrl: string;
  account: number;
  json?: boolean;
}
interface SendingOptions extends CommonOptions {
  artifact: string;
  wait?: boolean;
  gasLimit?: { l2Gas: number; daGas: number };
}

/**
 * A CLI argument as an ABI value: `account:N` for a dev account's address, JSON for arrays and
 * structs (`[1,2]`, `{"x":1}`), else the text.
 */
function abiArg(text: string): AbiValue {
  const dev = accountAddressText(text);
  if (dev !== undefined) return dev;
  const t = text.trim();
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      return JSON.parse(t) as AbiValue;
    } catch {
      throw new Error(`argument ${text} is not valid JSON (arrays and structs are given as JSON)`);
    }
  }
  return text;
}

/**
 * The artifact, with the AuthRegistry's error messages added when its artifact is cached here
 * (the node fetches it at start): a failed authwit check reverts with the registry's error.
 */
function withProtocolErrors(artifact: ContractArtifact): ContractArtifact {
  const path = artifactPath('@aztec/protocol-contracts@4.1.2', 'artifacts/AuthRegistry.json');
  if (!existsSync(path)) return artifact;
  try {
    const registry = loadArtifact(path);
    return { ...artifact, errors: new Map([...registry.errors, ...artifact.errors]) };
  } catch {
    return artifact;
  }
}

/** Loads the artifact named by --artifact, able to name the protocol's errors too. */
const artifactOf = (o: { artifact: string }): ContractArtifact =>
  withProtocolErrors(loadArtifact(o.artifact));

const fromOf = (o: CommonOptions): Fr => devAccountAddress(o.account);

function showValue(value: AbiValue | undefined): string {
  if (value === undefined) return '(no return value)';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(abiValueToJson(value));
}

async function finish(
  o: SendingOptions,
  artifact: ContractArtifact,
  hash: string,
  json: Record<string, unknown>,
  lines: string[],
): Promise<void> {
  if (!o.wait) {
    print(o.json, json, lines);
    return;
  }
  const receipt = await waitForTx(new NodeClient(o.rpcUrl), hash, 'contract');
  const reason =
    receipt.status !== 'dropped' && receipt.executionResult === 'reverted' && receipt.error
      ? decodeRevertReason(receipt.error, artifact)
      : undefined;
  print(o.json, { ...json, receipt: { ...receipt, ...(reason ? { reason } : {}) } }, [
    ...lines,
    receiptLine(receipt, reason),
  ]);
  if (receiptFailed(receipt)) process.exitCode = 1;
}

async function deploy(
  o: SendingOptions & {
    args?: string[];
    salt?: Fr;
    init: boolean;
    initializer?: string;
    universal?: boolean;
  },
) {
  const artifact = artifactOf(o);
  const client = new NodeClient(o.rpcUrl);
  const d = await deployContract(client, {
    artifact,
    args: (o.args ?? []).map(abiArg),
    salt: o.salt ?? randomFr(),
    deployer: o.universal ? 0n : fromOf(o),
    from: fromOf(o),
    skipInitialization: !o.init,
    ...(o.initializer ? { initializer: o.initializer } : {}),
    ...(o.gasLimit ? { gasLimits: o.gasLimit } : {}),
  });
  const ran = d.initializer !== undefined && o.init ? d.initializer.name : undefined;
  await finish(
    o,
    artifact,
    d.hash,
    {
      contract: artifact.name,
      address: toHex32(d.address),
      classId: toHex32(d.classId),
      publishesClass: d.publishesClass,
      initializer: ran ?? null,
      txHash: d.hash,
      gasLimits: d.gasLimits,
    },
    [
      `contract   ${artifact.name}`,
      `address    ${toHex32(d.address)}`,
      `class id   ${toHex32(d.classId)} (${d.publishesClass ? 'published by this tx' : 'already on the node'})`,
      `initializer ${ran ?? '(none run)'}`,
      `tx         ${d.hash}`,
    ],
  );
}

async function call(address: Fr, fnName: string, args: string[], o: SendingOptions) {
  const artifact = artifactOf(o);
  const fn = findFunction(artifact, fnName);
  const c = publicCall(address, fn, args.map(abiArg));
  const client = new NodeClient(o.rpcUrl);
  await checkContract(client, address, artifact);
  const sent = await sendTx(
    client,
    { publicCalls: [c] },
    { from: fromOf(o), ...(o.gasLimit ? { gasLimits: o.gasLimit } : {}) },
    artifact,
  );
  await finish(
    o,
    artifact,
    sent.hash,
    { txHash: sent.hash, function: fn.signature, gasLimits: sent.gasLimits },
    [`call       ${artifact.name}.${fn.signature} at ${toHex32(address)}`, `tx         ${sent.hash}`],
  );
}

async function authwit(at: Fr, fnName: string, args: string[], o: SendingOptions & { caller: Fr }) {
  const artifact = artifactOf(o);
  const fn = findFunction(artifact, fnName);
  const client = new NodeClient(o.rpcUrl);
  await checkContract(client, at, artifact);
  const sent = await authorizePublicCall(client, {
    owner: fromOf(o),
    address: at,
    fn,
    args: args.map(abiArg),
    caller: o.caller,
    ...(o.gasLimit ? { gasLimits: o.gasLimit } : {}),
  });
  await finish(
    o,
    artifact,
    sent.hash,
    { txHash: sent.hash, messageHash: toHex32(sent.messageHash), caller: toHex32(o.caller) },
    [
      `authwit    ${toHex32(o.caller)} may call ${artifact.name}.${fn.signature} once, as ${toHex32(fromOf(o))}`,
      `message    ${toHex32(sent.messageHash)}`,
      `tx         ${sent.hash}`,
    ],
  );
}

async function simulate(
  address: Fr,
  fnName: string,
  args: string[],
  o: CommonOptions & { artifact: string },
) {
  const artifact = artifactOf(o);
  await checkContract(new NodeClient(o.rpcUrl), address, artifact);
  const r = await simulateCall(new NodeClient(o.rpcUrl), {
    artifact,
    address,
    fn: fnName,
    args: args.map(abiArg),
    from: fromOf(o),
  });
  print(
    o.json,
    {
      value: r.value === undefined ? null : abiValueToJson(r.value),
      returnValues: r.fields.map(toHex32),
      gasUsed: r.gasUsed,
    },
    [showValue(r.value)],
  );
}

async function storage(
  address: Fr,
  variable: string,
  keys: string[],
  o: CommonOptions & { artifact: string; block?: number },
) {
  const artifact = artifactOf(o);
  const slot = storageSlot(
    artifact,
    variable,
    keys.map((k) => {
      try {
        return addressArg(k);
      } catch (err) {
        throw new Error(`key ${k}: ${(err as Error).message}`);
      }
    }),
  );
  const value = BigInt(
    await new NodeClient(o.rpcUrl).request(
      'svc_getPublicStorageAt',
      o.block ?? 'latest',
      toHex32(address),
      toHex32(slot),
    ),
  );
  print(o.json, { slot: toHex32(slot), value: toHex32(value), decimal: value.toString() }, [
    `${value} (${toHex32(value)}) at slot ${toHex32(slot)}`,
  ]);
}

type PublicLog = MethodResult<'node_getPublicLogs'>['logs'][number];

async function logs(address: Fr, o: CommonOptions & { fromBlock?: number; toBlock?: number }) {
  const client = new NodeClient(o.rpcUrl);
  const all: PublicLog[] = [];
  let afterLog: PublicLog['id'] | undefined;
  for (;;) {
    const page = await client.request('node_getPublicLogs', {
      contractAddress: toHex32(address),
      ...(o.fromBlock === undefined ? {} : { fromBlock: o.fromBlock }),
      ...(o.toBlock === undefined ? {} : { toBlock: o.toBlock }),
      ...(afterLog ? { afterLog } : {}),
    });
    all.push(...page.logs);
    if (!page.maxLogsHit || page.logs.length === 0) break;
    afterLog = page.logs.at(-1)!.id;
  }
  print(
    o.json,
    all,
    all.length === 0
      ? ['no public logs']
      : all.map(
          (l) =>
            `block ${l.id.blockNumber} tx ${l.id.txIndex} log ${l.id.logIndex}: ${l.log.fields.join(' ')}`,
        ),
  );
}

/** Runs a subcommand; errors become one line on stderr and exit code 1 (nothing is sent). */
function action<A extends unknown[]>(name: string, fn: (...args: A) => Promise<void>) {
  return nodeAction(`contract ${name}`, fn, (err) =>
    err instanceof ContractRevertError
      ? `would revert: ${err.message}; nothing was sent (--gas-limit sends it without simulating)`
      : undefined,
  );
}

const ARTIFACT_HELP = 'Compiled contract artifact (JSON, 4.x toolchain)';

/** `<address> <function> [args...]`: the call a subcommand makes, reads or authorizes. */
function target(cmd: Command, argsHelp = "The function's arguments"): Command {
  return cmd
    .argument('<address>', 'Contract address', addressArg)
    .argument('<function>', 'Function name')
    .argument('[args...]', argsHelp, withAccounts);
}

/** The examples a command's help ends with. */
function exampleText(heading: string, ...commands: string[]) {
  return helpAfter({ heading, commands });
}

/** A subcommand's help ends with its examples. */
function examples(cmd: Command, heading: string, ...commands: string[]): Command {
  return cmd.addHelpText('after', exampleText(heading, ...commands));
}

function common(cmd: Command): Command {
  return cmd
    .addOption(rpcUrlOption())
    .option('--account <N>', `Dev account that pays and sends: ${ACCOUNT_FORMS}`, accountArg, 0)
    .option('--json', 'Print JSON');
}

function sending(cmd: Command): Command {
  return common(cmd)
    .requiredOption('--artifact <file>', ARTIFACT_HELP)
    .option('--wait', 'Wait for the tx to be in a block and print its outcome')
    .option(
      '--gas-limit <l2[,da]>',
      'Gas limits (default: measured by simulating the tx, plus 10%; a tx that would revert is not sent)',
      gasLimit,
    );
}

export function addContractCommand(program: Command): void {
  const contract = program
    .command('contract')
    .description(
      'Deploy, call and read contracts from compiled artifacts on a running node. ' +
        "A dev tool: its txs' private parts (the publication logs and nullifiers a wallet's private calls " +
        'would emit) are made up and carry a dev proof; only public functions run.',
    )
    .addHelpText(
      'after',
      helpAfter(
        {
          heading: 'Examples',
          commands: [
            'cairn contract deploy --artifact token_contract-Token.json --args 0x…admin "My Token" MTK 18 --wait',
            'cairn contract call 0x…token mint_to_public 0x…alice 1000 --artifact token_contract-Token.json --wait',
            'cairn contract simulate 0x…token balance_of_public 0x…alice --artifact token_contract-Token.json',
            'cairn contract storage 0x…token public_balances 0x…alice --artifact token_contract-Token.json',
            'cairn contract authwit 0x…token transfer_in_public account:0 account:2 100 7 --caller account:1 --artifact token_contract-Token.json',
            'cairn contract logs 0x…token --from-block 1',
          ],
        },
        "Arguments follow the function's ABI: numbers as decimal or 0x-hex, addresses as 0x-hex or account:N (dev account N), bools as true/false, strings as text, arrays and structs as JSON ('[1,2]', '{\"x\":1,\"y\":2}'). --account N (default 0) pays and is the caller.",
      ),
    );

  sending(
    contract
      .command('deploy')
      .description(
        'Publish a contract (its class if the node lacks it, then the instance) and run its initializer',
      )
      .option('--args <values...>', "The initializer's arguments", withAccounts)
      .option('--salt <salt>', 'Salt of the instance (default random): the address depends on it', field)
      .option('--universal', 'Deployer 0: the address does not depend on the deploying account')
      .option('--initializer <name>', 'The public initializer to run (default: the only one)')
      .option('--no-init', 'Publish without running the initializer'),
  )
    .addHelpText(
      'after',
      exampleText(
        'Example',
        'cairn contract deploy --artifact token_contract-Token.json --args 0x…admin "My Token" MTK 18 --wait',
      ),
    )
    .action(action('deploy', (o: Parameters<typeof deploy>[0]) => deploy(o)));

  examples(
    sending(target(contract.command('call').description('Send a tx that calls a public function'))),
    'Example',
    'cairn contract call 0x…token transfer_in_public 0x…alice 0x…bob 100 0 --artifact token_contract-Token.json --wait',
  ).action(
    action('call', (address: Fr, fn: string, args: string[], o: SendingOptions) =>
      call(address, fn, args, o),
    ),
  );

  examples(
    sending(
      target(
        contract
          .command('authwit')
          .description(
            'Authorize another account to make one exact public call on your behalf (AuthRegistry.set_authorized)',
          ),
        "The call's arguments, exactly as the caller will give them",
      ).requiredOption('--caller <address>', 'Who may make the call (0x-hex or account:N)', addressArg),
    ),
    'Example (account 0 lets account 1 move 100 of its tokens to account 2, once, with nonce 7)',
    'cairn contract authwit 0x…token transfer_in_public account:0 account:2 100 7 --caller account:1 --artifact token_contract-Token.json --wait',
    'cairn contract call 0x…token transfer_in_public account:0 account:2 100 7 --account 1 --artifact token_contract-Token.json --wait',
  ).action(
    action('authwit', (at: Fr, fn: string, args: string[], o: SendingOptions & { caller: Fr }) =>
      authwit(at, fn, args, o),
    ),
  );

  examples(
    common(
      target(
        contract
          .command('simulate')
          .description('Run a public function without a tx and print what it returns'),
      ).requiredOption('--artifact <file>', ARTIFACT_HELP),
    ),
    'Example',
    'cairn contract simulate 0x…token balance_of_public 0x…alice --artifact token_contract-Token.json',
  ).action(
    action('simulate', (address: Fr, fn: string, args: string[], o: CommonOptions & { artifact: string }) =>
      simulate(address, fn, args, o),
    ),
  );

  common(
    contract
      .command('storage')
      .description("Read a public storage variable (a map's entry with its keys)")
      .argument('<address>', 'Contract address', addressArg)
      .argument('<variable>', 'Storage variable, as the artifact names it')
      .argument('[keys...]', 'Map keys, outermost first (0x-hex, decimal or account:N)', withAccounts)
      .requiredOption('--artifact <file>', ARTIFACT_HELP)
      .option('--block <number>', 'Read at this block (default: latest)', blockNumber),
  )
    .addHelpText(
      'after',
      exampleText(
        'Example',
        'cairn contract storage 0x…token public_balances 0x…alice --artifact token_contract-Token.json',
      ),
    )
    .action(
      action(
        'storage',
        (
          address: Fr,
          variable: string,
          keys: string[],
          o: CommonOptions & { artifact: string; block?: number },
        ) => storage(address, variable, keys, o),
      ),
    );

  contract
    .command('selector')
    .description("A function's selector (as calldata and FunctionSelector arguments take it)")
    .argument('<function>', 'Function name (with --artifact) or full signature, e.g. pub_set_value(Field)')
    .option('--artifact <file>', ARTIFACT_HELP)
    .option('--json', 'Print JSON')
    .addHelpText(
      'after',
      exampleText(
        'Examples',
        'cairn contract selector pub_set_value --artifact child_contract-Child.json',
        "cairn contract selector 'transfer_in_public((Field),(Field),u128,Field)'",
      ),
    )
    .action(
      action('selector', async (name: string, o: { artifact?: string; json?: boolean }) => {
        let signature = name;
        if (o.artifact !== undefined)
          signature = findFunction(artifactOf({ artifact: o.artifact }), name).signature;
        else if (!name.includes('('))
          throw new Error('give a full signature, or --artifact to look the name up');
        const selector = `0x${functionSelector(signature).toString(16).padStart(8, '0')}`;
        print(o.json, { signature, selector }, [`${selector} ${signature}`]);
      }),
    );

  common(
    contract
      .command('logs')
      .description("A contract's public logs, oldest first")
      .argument('<address>', 'Contract address', addressArg)
      .option('--from-block <number>', 'First block (inclusive)', blockNumber)
      .option('--to-block <number>', 'Last block (exclusive)', blockNumber),
  )
    .addHelpText('after', exampleText('Example', 'cairn contract logs 0x…token --from-block 1 --json'))
    .action(
      action('logs', (address: Fr, o: CommonOptions & { fromBlock?: number; toBlock?: number }) =>
        logs(address, o),
      ),
    );
}
