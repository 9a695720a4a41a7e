// `cairn tx`: builds a valid tx for a running node's chain and prints it, or sends it.
//   cairn tx --account 0 --note-hashes 2 --nullifiers 1 --send
import { type Command, InvalidArgumentError } from 'commander';
import {
  estimateGas,
  makeContractClass,
  makeContractInstance,
  NodeClient,
  type PreparedTxSpec,
  type PublicCallSpec,
  prepareTx,
  randomFr,
} from '../client/index.js';
import { type Fr, toHex32 } from '../core/field.js';
import { ACCOUNT_FORMS, accountArg, devAccountAddress } from './accounts.js';
import { field, gasLimit } from './args.js';
import { receiptFailed, receiptLine, waitForTx } from './chain.js';
import { helpAfter } from './help-layout.js';
import { addressArg, nodeAction, rpcUrlOption } from './node-command.js';

function count(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new InvalidArgumentError(`expected a count 0..64, got ${text}`);
  return n;
}

/** `address:signature[:arg,arg…]`, e.g. `0x05:_increase_public_balance((Field),u128):0x1234,5`. */
function call(phase: PublicCallSpec['phase'], isStaticCall = false) {
  return (text: string, previous: PublicCallSpec[] = []): PublicCallSpec[] => {
    const match = /^(0x[0-9a-fA-F]+|[0-9]+):([^:\s]+\))(?::(.*))?$/.exec(text);
    if (!match) throw new InvalidArgumentError(`expected address:signature[:arg,…], got ${text}`);
    const args = match[3] ? match[3].split(',').map(field) : [];
    const spec = { phase, contractAddress: field(match[1]!), signature: match[2]!, args };
    return [...previous, isStaticCall ? { ...spec, isStaticCall } : spec];
  };
}

function message(text: string, previous: { recipient: string; content: Fr }[] = []) {
  const match = /^(0x[0-9a-fA-F]{40}):(.+)$/.exec(text);
  if (!match) throw new InvalidArgumentError(`expected <L1 address>:<content>, got ${text}`);
  return [...previous, { recipient: match[1]!.toLowerCase(), content: field(match[2]!) }];
}

function bytes(text: string): Uint8Array<ArrayBuffer> {
  if (!/^0x([0-9a-fA-F]{2})+$/.test(text))
    throw new InvalidArgumentError(`expected 0x followed by an even, non-zero number of hex digits`);
  return Uint8Array.from(Buffer.from(text.slice(2), 'hex'));
}

/** `address:classId`: the contract moving to the class. */
function update(text: string, previous: { address: Fr; newClassId: Fr }[] = []) {
  const match = /^([^:]+):([^:]+)$/.exec(text);
  if (!match) throw new InvalidArgumentError(`expected <contract address>:<new class id>, got ${text}`);
  return [...previous, { address: field(match[1]!), newClassId: field(match[2]!) }];
}

interface TxOptions {
  rpcUrl: string;
  account: number;
  feePayer?: Fr;
  noteHashes: number;
  nullifiers: number;
  privateLogs: number;
  l2ToL1?: { recipient: string; content: Fr }[];
  call?: PublicCallSpec[];
  staticCall?: PublicCallSpec[];
  setupCall?: PublicCallSpec[];
  teardownCall?: PublicCallSpec[];
  priorityFee?: Fr;
  publishClass?: Uint8Array<ArrayBuffer>;
  artifactHash?: Fr;
  publishInstance?: Fr;
  salt?: Fr;
  deployer?: Fr;
  initializationHash?: Fr;
  gasLimit?: { l2Gas: number; daGas: number };
  updateClass?: { address: Fr; newClassId: Fr }[];
  send?: boolean;
  wait?: boolean;
}

async function run(opts: TxOptions): Promise<void> {
  const client = new NodeClient(opts.rpcUrl);
  const feePayer = opts.feePayer ?? devAccountAddress(opts.account);
  const random = (n: number) => Array.from({ length: n }, randomFr);
  const publishClass =
    opts.publishClass === undefined
      ? undefined
      : makeContractClass({
          artifactHash: opts.artifactHash ?? randomFr(),
          packedBytecode: opts.publishClass,
        });
  const publishInstance =
    opts.publishInstance === undefined
      ? undefined
      : makeContractInstance({
          classId: opts.publishInstance,
          salt: opts.salt ?? randomFr(),
          deployer: opts.deployer ?? 0n,
          initializationHash: opts.initializationHash ?? 0n,
        });
  const spec: PreparedTxSpec = {
    feePayer,
    noteHashes: random(opts.noteHashes),
    nullifiers: random(opts.nullifiers),
    privateLogs: Array.from({ length: opts.privateLogs }, () => random(4)),
    l2ToL1Msgs: (opts.l2ToL1 ?? []).map((m) => ({ ...m, sender: feePayer })),
    publicCalls: [
      ...(opts.setupCall ?? []),
      ...(opts.call ?? []),
      ...(opts.staticCall ?? []),
      ...(opts.teardownCall ?? []),
    ],
    maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: opts.priorityFee ?? 0n },
    ...(publishClass ? { publishClass } : {}),
    ...(publishInstance ? { publishInstances: [publishInstance] } : {}),
    ...(opts.updateClass ? { classUpdates: opts.updateClass } : {}),
  };
  // Gas limits: as given, else what a simulation of the tx uses (plus a margin) when it makes
  // public calls, else the private gas (prepareTx's default).
  const calls = spec.publicCalls ?? [];
  const limits = opts.gasLimit
    ? { gasLimits: opts.gasLimit }
    : calls.length > 0
      ? await estimateGas(client, spec)
      : {};
  const { hash, wire } = await prepareTx(client, { ...spec, ...limits });
  // What the tx publishes, on stderr so that stdout stays the tx (or its hash).
  if (publishClass) process.stderr.write(`class id: ${toHex32(publishClass.id)}\n`);
  if (publishInstance) process.stderr.write(`contract address: ${toHex32(publishInstance.address)}\n`);
  if (!opts.send) {
    process.stdout.write(`${JSON.stringify(wire, null, 2)}\n`);
    return;
  }
  await client.request('svc_sendTx', wire);
  process.stdout.write(`${hash}\n`);
  if (!opts.wait) return;
  const receipt = await waitForTx(client, hash, 'tx');
  process.stdout.write(`${receiptLine(receipt)}\n`);
  if (receiptFailed(receipt)) process.exitCode = 1;
}

export function addTxCommand(program: Command): void {
  program
    .command('tx')
    .description(
      "Build a valid tx for a running node's chain (anchor block header, chain id, fees) and print or send it. " +
        'A dev tool: the private side effects are made up as asked and the proof is a dev proof, which only a ' +
        'node without real proofs accepts; real private txs come from a wallet (aztec.js).',
    )
    .addOption(rpcUrlOption())
    .option('--account <N>', `Dev account paying the fee: ${ACCOUNT_FORMS}`, accountArg, 0)
    .option('--fee-payer <address>', 'Fee payer address, or account:N (instead of --account)', addressArg)
    .option('--note-hashes <count>', 'Random note hashes to emit', count, 0)
    .option('--nullifiers <count>', 'Random nullifiers besides the protocol nullifier', count, 0)
    .option('--private-logs <count>', 'Random private logs to emit', count, 0)
    .option('--l2-to-l1 <recipient:content>', 'An L2-to-L1 message (repeatable)', message)
    .option('--call <address:signature[:args]>', 'An app-logic public call (repeatable)', call('app'))
    .option(
      '--static-call <address:signature[:args]>',
      'An app-logic static public call, for a view such as balance_of_public (repeatable; after the --call ones)',
      call('app', true),
    )
    .option('--setup-call <address:signature[:args]>', 'A setup public call (repeatable)', call('setup'))
    .option('--teardown-call <address:signature[:args]>', 'The teardown public call', call('teardown'))
    // No bigint default: commander prints defaults in help with JSON.stringify, which throws on one.
    .option('--priority-fee <fee>', 'Max priority fee per L2 gas (default 0)', field)
    .option(
      '--publish-class <bytecode>',
      'Publish a contract class with this public bytecode (0x hex)',
      bytes,
    )
    .option('--artifact-hash <hash>', 'Artifact hash of the published class (default random)', field)
    .option('--publish-instance <classId>', 'Publish an instance of a published class', field)
    .option('--salt <salt>', 'Salt of the published instance (default random)', field)
    .option('--deployer <address>', 'Deployer of the published instance (default 0: anyone)', field)
    .option(
      '--initialization-hash <hash>',
      "The published instance's initialization hash (default 0: no initializer; see cairn contract deploy)",
      field,
    )
    .option(
      '--gas-limit <l2[,da]>',
      'Gas limits (default: measured by simulating the tx, plus 10%, when it makes public calls)',
      gasLimit,
    )
    .option(
      '--update-class <address:classId>',
      "Schedule a contract's move to another published class (repeatable)",
      update,
    )
    .option('--send', 'Send the tx and print its hash (default: print the tx JSON)')
    .option('--wait', 'With --send: wait until the tx is in a block and print its receipt')
    .addHelpText(
      'after',
      helpAfter({
        heading: 'Examples',
        commands: [
          'cairn tx --account 0 --note-hashes 2 --nullifiers 1 --send --wait',
          'cairn tx --static-call 0x…token:balance_of_public((Field)):0x…alice',
        ],
      }),
    )
    .action(nodeAction('tx', (opts: TxOptions) => run(opts)));
}
