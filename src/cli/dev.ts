// `cairn dev …`: the dev methods (svcDev_*) of a node that runs its own L1, on its admin port.
//   cairn dev snapshot            # prints the id, e.g. 0x0
//   cairn dev revert 0x0
//   cairn dev reset
//   cairn dev clock instant
//   cairn dev accounts
//   cairn dev drop-tx 0x1f…c3
//   cairn dev set-storage 0x2b7c…01 0x5 42
//   cairn dev set-balance account:1 5000000000000000000
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { MethodName, MethodParams, MethodResult } from '../client/methods/index.js';
import { RpcError } from '../client/node-client.js';
import { field } from './args.js';
import { formatFeeJuice } from './chain.js';
import { helpAfter } from './help-layout.js';

export const DEFAULT_DEV_ADMIN_URL = 'http://127.0.0.1:8880';

interface Options {
  adminUrl: string;
  adminApiKey?: string;
  json?: boolean;
}

/**
 * One JSON-RPC call to the admin port, with the API key when one is given, typed by the method's
 * declaration (as NodeClient.request); its own transport words a refused key and a node without
 * dev methods for the command line.
 */
async function admin<M extends MethodName>(
  o: Options,
  method: M,
  ...params: MethodParams<M>
): Promise<MethodResult<M>> {
  const response = await fetch(o.adminUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(o.adminApiKey === undefined ? {} : { 'x-api-key': o.adminApiKey }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  if (response.status === 401 || response.status === 403)
    throw new Error(
      `the admin port at ${o.adminUrl} refused the API key (--admin-api-key or CAIRN_ADMIN_API_KEY)`,
    );
  const body = (await response.json()) as {
    result?: MethodResult<M>;
    error?: { code: number; message: string; data?: unknown };
  };
  if (body.error) {
    if (body.error.code === -32601)
      throw new Error(
        `the node at ${o.adminUrl} has no ${method}: dev methods are served only by a node that runs its own L1 (no --l1-rpc-url)`,
      );
    throw new RpcError(body.error.code, body.error.message, body.error.data);
  }
  return body.result as MethodResult<M>;
}

/** Prints JSON (--json) or the lines. */
function print(o: Options, value: unknown, lines: string[]): void {
  process.stdout.write(o.json ? `${JSON.stringify(value, null, 2)}\n` : `${lines.join('\n')}\n`);
}

/** A command's action: errors as `cairn dev <name>: <one line>` on stderr, exit code 1. */
function action<A extends unknown[]>(name: string, fn: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    const o = args.at(-2) as Options;
    try {
      await fn(...args);
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const line =
        e.message === 'fetch failed' || e.cause?.code === 'ECONNREFUSED'
          ? `cannot reach the admin port at ${o.adminUrl} — is the node running? (--admin-url or CAIRN_ADMIN_URL)`
          : e.message;
      process.stderr.write(`cairn dev ${name}: ${line}\n`);
      process.exit(1);
    }
  };
}

/** A snapshot id as svcDev_snapshot gives it: a hex quantity (0x0, 0x1f). */
function snapshotId(text: string): string {
  if (!/^0x[0-9a-fA-F]+$/.test(text))
    throw new InvalidArgumentError(`expected a snapshot id such as 0x0, got ${text}`);
  return `0x${BigInt(text).toString(16)}`;
}

function txHashArg(text: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(text))
    throw new InvalidArgumentError(`expected a tx hash (0x and 64 hex digits), got ${text}`);
  return text.toLowerCase();
}

/** A field element as the node takes it: 0x hex (kept) or decimal (turned to hex). */
function fieldText(text: string): string {
  const f = field(text);
  return text.startsWith('0x') ? text : `0x${f.toString(16)}`;
}

/** A non-negative integer amount in base units. */
function baseUnits(text: string): bigint {
  if (!/^\d+$/.test(text))
    throw new InvalidArgumentError(`expected an amount in base units (digits), got ${text}`);
  return BigInt(text);
}

/** `N` or `account:N` as the node's dev account N (its own list says which exist), else an address. */
async function resolveAddress(o: Options, who: string): Promise<string> {
  const m = /^(?:account:)?(\d+)$/.exec(who);
  if (m === null) return fieldText(who);
  const { accounts } = await admin(o, 'svcDev_getAccounts');
  const account = accounts[Number(m[1])];
  if (account === undefined)
    throw new Error(
      `there is no dev account ${m[1]}: this node's dev accounts are 0..${accounts.length - 1}`,
    );
  return account.address;
}

/** Adds the options every dev command has. */
function withAdminOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--admin-url <url>', 'Admin JSON-RPC URL of the node')
        .env('CAIRN_ADMIN_URL')
        .default(DEFAULT_DEV_ADMIN_URL),
    )
    .addOption(
      new Option('--admin-api-key <key>', "The admin port's API key, if it has one").env(
        'CAIRN_ADMIN_API_KEY',
      ),
    )
    .option('--json', 'Print JSON');
}

const CLOCKS = ['realtime', 'manual', 'instant'] as const;

type Clock = (typeof CLOCKS)[number];

function clockMode(text: string): Clock {
  if (!(CLOCKS as readonly string[]).includes(text))
    throw new InvalidArgumentError(`expected ${CLOCKS.join(', ')}, got ${text}`);
  return text as Clock;
}

export function addDevCommand(program: Command): void {
  const dev = program
    .command('dev')
    .description('Dev methods of a node that runs its own L1: snapshots, clock, accounts, mempool');

  withAdminOptions(
    dev.command('snapshot').description('Snapshot the whole dev chain (L1 and L2); prints its id'),
  )
    .addHelpText(
      'after',
      helpAfter(
        { heading: 'Example', commands: ['id=$(cairn dev snapshot)', 'cairn dev revert "$id"'] },
        'Snapshots live in the node’s memory: a restart forgets them.',
      ),
    )
    .action(
      action('snapshot', async (o: Options) => {
        const id = await admin(o, 'svcDev_snapshot');
        print(o, { id }, [id]);
      }),
    );

  withAdminOptions(
    dev
      .command('revert')
      .description('Take the whole dev chain back to a snapshot (consumed, with every later one)')
      .argument('<id>', 'Snapshot id, as `cairn dev snapshot` printed it', snapshotId),
  )
    .addHelpText('after', helpAfter({ heading: 'Example', commands: ['cairn dev revert 0x0'] }))
    .action(
      action('revert', async (id: string, o: Options) => {
        await admin(o, 'svcDev_revert', id);
        print(o, { id, reverted: true }, [`reverted to snapshot ${id}`]);
      }),
    );

  withAdminOptions(
    dev.command('reset').description('Take the whole dev chain back to genesis (every snapshot is consumed)'),
  )
    .addHelpText('after', helpAfter({ heading: 'Example', commands: ['cairn dev reset'] }))
    .action(
      action('reset', async (o: Options) => {
        const moved = await admin(o, 'svcDev_reset');
        print(o, moved, [
          `reset to genesis: L2 block ${moved.l2BlockNumber}, L1 block ${moved.l1BlockNumber}`,
        ]);
      }),
    );

  withAdminOptions(
    dev
      .command('clock')
      .description('Switch the clock: realtime, manual (only dev methods move time) or instant')
      .argument('<mode>', CLOCKS.join(', '), clockMode),
  )
    .addHelpText(
      'after',
      helpAfter(
        { heading: 'Example', commands: ['cairn dev clock instant'] },
        'instant: a block as soon as a tx arrives; txs already pending get one at once.',
      ),
    )
    .action(
      action('clock', async (mode: Clock, o: Options) => {
        await admin(o, 'svcDev_setClock', mode);
        print(o, { clock: mode }, [`clock: ${mode}`]);
      }),
    );

  withAdminOptions(
    dev
      .command('set-storage')
      .description(
        "Set a contract's public storage slot, in the next block (manual and instant clocks: L1 moves a slot)",
      )
      .argument('<contract>', 'Contract address', fieldText)
      .argument(
        '<slot>',
        'Storage slot, as `cairn contract storage` and svc_getPublicStorageAt take it',
        fieldText,
      )
      .argument('<value>', 'The value: a field element, 0x hex or decimal', fieldText),
  )
    .addHelpText(
      'after',
      helpAfter({ heading: 'Example', commands: ['cairn dev set-storage 0x2b7c…01 0x5 42'] }),
    )
    .action(
      action('set-storage', async (contract: string, slot: string, value: string, o: Options) => {
        const w = await admin(o, 'svcDev_setStorageAt', contract, slot, value);
        print(o, w, [
          `storage slot ${slot} of ${contract} set to ${value} in block ${w.blockNumber} (write ${w.txHash})`,
        ]);
      }),
    );

  withAdminOptions(
    dev
      .command('set-balance')
      .description(
        'Set the Fee Juice balance of an address or dev account, in the next block (as set-storage)',
      )
      .argument('<who>', 'An address, or a dev account: N or account:N')
      .argument('<amount>', 'Fee Juice in base units (10^18 per Fee Juice)', baseUnits),
  )
    .addHelpText(
      'after',
      helpAfter({
        heading: 'Examples',
        commands: [
          'cairn dev set-balance account:1 0',
          'cairn dev set-balance 0x07ac…de54 5000000000000000000',
        ],
      }),
    )
    .action(
      action('set-balance', async (who: string, amount: bigint, o: Options) => {
        const address = await resolveAddress(o, who);
        const w = await admin(o, 'svcDev_setBalance', address, amount.toString());
        print(o, { address, amount: amount.toString(), ...w }, [
          `Fee Juice of ${address} set to ${formatFeeJuice(amount)} in block ${w.blockNumber} (write ${w.txHash})`,
        ]);
      }),
    );

  withAdminOptions(
    dev
      .command('drop-tx')
      .description('Drop a pending tx from the mempool (a mined or unknown tx is refused)')
      .argument('<hash>', 'Tx hash', txHashArg),
  )
    .addHelpText('after', helpAfter({ heading: 'Example', commands: ['cairn dev drop-tx 0x1f…c3'] }))
    .action(
      action('drop-tx', async (hash: string, o: Options) => {
        await admin(o, 'svcDev_dropTx', hash);
        print(o, { txHash: hash, dropped: true }, [`dropped ${hash}`]);
      }),
    );

  withAdminOptions(
    dev.command('accounts').description('The dev accounts with their Fee Juice balances at the latest block'),
  )
    .addHelpText('after', helpAfter({ heading: 'Example', commands: ['cairn dev accounts'] }))
    .action(
      action('accounts', async (o: Options) => {
        const r = await admin(o, 'svcDev_getAccounts');
        print(o, r, [
          `dev accounts at block ${r.blockNumber}:`,
          ...r.accounts.map(
            (a) => `  ${String(a.index).padStart(3)}  ${a.address}  ${formatFeeJuice(BigInt(a.feeJuice))}`,
          ),
        ]);
      }),
    );
}
