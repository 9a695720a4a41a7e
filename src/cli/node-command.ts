// What every command that talks to a running node shares: the --rpc-url option (with its
// CAIRN_RPC_URL default), dev-account shorthands (checked against the node before the command
// acts), and errors as one line on stderr with exit code 1 — "cannot reach the node" instead of
// fetch's "fetch failed".
import { type Command, Option } from 'commander';
import { NodeClient, RpcError } from '../client/node-client.js';
import { SETTINGS } from '../config/settings.js';
import type { Fr } from '../core/field.js';
import { accountAddressText, checkNamedAccounts } from './accounts.js';
import { field } from './args.js';

export const DEFAULT_RPC_URL = 'http://127.0.0.1:8080';
/** The admin port of a node started with the default settings on this machine. */
export const DEFAULT_ADMIN_URL = `http://127.0.0.1:${SETTINGS.adminPort.default}`;

/** `--rpc-url <url>`, defaulting to CAIRN_RPC_URL, then the default public port. */
export function rpcUrlOption(): Option {
  return new Option('--rpc-url <url>', 'Public JSON-RPC URL of the node')
    .env('CAIRN_RPC_URL')
    .default(DEFAULT_RPC_URL);
}

/** An address: 0x-hex, decimal or `account:N` (a dev account of the node). */
export function addressArg(text: string): Fr {
  return field(accountAddressText(text) ?? text);
}

/**
 * Arguments that may hold `account:N` (a function's arguments, map keys), kept as text: the
 * accounts they name are checked with the command's other ones before it acts.
 */
export function withAccounts(text: string, previous: string[] = []): string[] {
  accountAddressText(text);
  return [...previous, text];
}

/** What a node's GET /status says that commands use. */
export interface NodeStatusPage {
  clock?: 'realtime' | 'manual' | 'instant';
  l1?: { rpcUrl?: string };
}

/** The node's GET /status (served beside JSON-RPC on the public port). */
export async function nodeStatus(rpcUrl: string): Promise<NodeStatusPage> {
  const response = await fetch(new URL('/status', rpcUrl));
  return (await response.json()) as NodeStatusPage;
}

/** An error as the one line a command prints. */
export function errorLine(err: unknown, rpcUrl: string | undefined): string {
  if (err instanceof RpcError) {
    const reasons = (err.data as { reasons?: string[] } | undefined)?.reasons;
    return `${err.message}${reasons ? `: ${reasons.join('; ')}` : ''}`;
  }
  const e = err as Error & { cause?: { code?: string } };
  if (e.message === 'fetch failed' || e.cause?.code === 'ECONNREFUSED')
    return `cannot reach the node at ${rpcUrl} — is it running? (--rpc-url or CAIRN_RPC_URL)`;
  return e.message;
}

/**
 * A command's action: the dev accounts its command line named are checked against the node first;
 * errors become `cairn <name>: <one line>` on stderr and exit code 1. `describe` may word some
 * errors its own way.
 */
export function nodeAction<A extends unknown[]>(
  name: string,
  fn: (...args: A) => Promise<void>,
  describe: (err: unknown) => string | undefined = () => undefined,
) {
  return async (...args: A) => {
    const o = args.at(-2) as { rpcUrl?: string } | undefined;
    try {
      if (o?.rpcUrl !== undefined) await checkNamedAccounts(new NodeClient(o.rpcUrl));
      await fn(...args);
    } catch (err) {
      process.stderr.write(`cairn ${name}: ${describe(err) ?? errorLine(err, o?.rpcUrl)}\n`);
      process.exit(1);
    }
  };
}

/** Prints JSON (bigints as decimal strings) or the lines. */
export function print(json: boolean | undefined, value: unknown, lines: string[]): void {
  process.stdout.write(
    json
      ? `${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`
      : `${lines.join('\n')}\n`,
  );
}

/** Adds the options every node command has. */
export function withNodeOptions(cmd: Command): Command {
  return cmd.addOption(rpcUrlOption()).option('--json', 'Print JSON');
}
