// What every command that talks to a running node shares: the --rpc-url option (with its
// CAIRN_RPC_URL default), dev-account shorthands, and errors as one line on stderr with exit code
// 1 — "cannot reach the node" instead of fetch's "fetch failed".
import { type Command, InvalidArgumentError, Option } from 'commander';
import { RpcError } from '../client/node-client.js';
import { type Fr, toHex32 } from '../core/field.js';
import { devAccounts } from '../execution/dev-accounts.js';
import { field } from './args.js';

export const DEFAULT_RPC_URL = 'http://127.0.0.1:8080';

/** `--rpc-url <url>`, defaulting to CAIRN_RPC_URL, then the default public port. */
export function rpcUrlOption(): Option {
  return new Option('--rpc-url <url>', 'Public JSON-RPC URL of the node')
    .env('CAIRN_RPC_URL')
    .default(DEFAULT_RPC_URL);
}

/** `account:N` → dev account N's address as 0x-hex; undefined for anything else. */
export function devAddress(text: string): string | undefined {
  const m = /^account:(\d)$/.exec(text.trim());
  return m ? toHex32(devAccounts(10)[Number(m[1])]!.address) : undefined;
}

/** An address: 0x-hex, decimal or `account:N`. */
export function addressArg(text: string): Fr {
  return field(devAddress(text) ?? text);
}

/** A dev account index 0..9. */
export function accountIndex(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 9)
    throw new InvalidArgumentError(`expected a dev account 0..9, got ${text}`);
  return n;
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
 * A command's action: errors become `cairn <name>: <one line>` on stderr and exit code 1.
 * `describe` may word some errors its own way.
 */
export function nodeAction<A extends unknown[]>(
  name: string,
  fn: (...args: A) => Promise<void>,
  describe: (err: unknown) => string | undefined = () => undefined,
) {
  return async (...args: A) => {
    const o = args.at(-2) as { rpcUrl?: string } | undefined;
    try {
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
