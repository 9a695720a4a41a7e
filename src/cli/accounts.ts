// Dev accounts by number: one rule for every command. A dev account is `N` or `account:N`, where N
// is one of the node's dev accounts: 0 up to its devAccounts setting less one (0..9 by default).
// Options and arguments that name an account (`--account`, `balance <who>`) take either form; where
// a command takes an address (a contract's arguments, map keys, `--caller`, `--fee-payer`),
// `account:N` stands for dev account N's address.
//
// The node does not publish its devAccounts setting, but its genesis state holds it: dev account N
// exists when genesis funded it. The numbers a command line names are checked against the node
// (`checkNamedAccounts`, run by every node command before it acts), so that the error states the
// range of the node being talked to.
import { InvalidArgumentError } from 'commander';
import { type NodeClient, RpcError } from '../client/node-client.js';
import { SETTINGS } from '../config/settings.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { type Fr, toHex32 } from '../core/field.js';
import { devAccounts } from '../execution/dev-accounts.js';
import { FEE_JUICE_BALANCES_SLOT } from '../execution/protocol-contracts.js';
import { mapStorageSlot } from '../execution/public-storage.js';

/** The most dev accounts a node can have: the devAccounts setting's bound. */
const MOST_ACCOUNTS = SETTINGS.devAccounts.schema.maxValue ?? 1000;
const DEFAULT_ACCOUNTS = SETTINGS.devAccounts.default ?? 10;

const ACCOUNT = /^(?:account:)?(\d+)$/;

/** What an account is, for error messages. */
export const ACCOUNT_FORMS = `N or account:N, N a dev account of the node (0..${DEFAULT_ACCOUNTS - 1} with the default --dev-accounts ${DEFAULT_ACCOUNTS})`;

/** Dev account numbers this command line named; checked against the node before it acts. */
const named = new Set<number>();

/** Whether `text` names a dev account (`N` or `account:N`), valid or not. */
export const isAccountText = (text: string): boolean =>
  ACCOUNT.test(text.trim()) || text.trim().startsWith('account:');

/** Dev account `n`'s address; `n` is then one the command named (see checkNamedAccounts). */
export function devAccountAddress(n: number): Fr {
  named.add(n);
  return devAccounts(n + 1)[n]!.address;
}

/** An account as `--account` takes it: `N` or `account:N`. */
export function accountArg(text: string): number {
  const m = ACCOUNT.exec(text.trim());
  const n = m ? Number(m[1]) : Number.NaN;
  if (!(n < MOST_ACCOUNTS))
    throw new InvalidArgumentError(`expected a dev account, ${ACCOUNT_FORMS}; got ${text}`);
  named.add(n);
  return n;
}

/** `account:N` → dev account N's address as 0x-hex; undefined for anything else. */
export function accountAddressText(text: string): string | undefined {
  if (!text.trim().startsWith('account:')) return undefined;
  return toHex32(devAccountAddress(accountArg(text)));
}

/** Fee Juice of `address` in the genesis state; undefined when the node no longer has it. */
async function genesisBalance(client: NodeClient, address: Fr): Promise<bigint | undefined> {
  try {
    const value = await client.request(
      'svc_getPublicStorageAt',
      0,
      toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
      toHex32(mapStorageSlot(FEE_JUICE_BALANCES_SLOT, address)),
    );
    return BigInt(value);
  } catch (err) {
    // A node that prunes world-state history cannot answer for block 0: nothing to check against.
    if (err instanceof RpcError) return undefined;
    throw err;
  }
}

/** How many dev accounts the node has: genesis funds accounts 0 .. count − 1. */
async function accountCount(client: NodeClient): Promise<number> {
  const accounts = devAccounts(MOST_ACCOUNTS);
  const funded = async (n: number) => ((await genesisBalance(client, accounts[n]!.address)) ?? 0n) > 0n;
  let low = 0; // funded below `low`
  let high = MOST_ACCOUNTS; // not funded from `high`
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (await funded(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Checks the dev accounts the command line named against the node: each must be one of its dev
 * accounts. The error says which numbers the node has.
 */
export async function checkNamedAccounts(client: NodeClient): Promise<void> {
  for (const n of [...named].sort((a, b) => a - b)) {
    const balance = await genesisBalance(client, devAccounts(n + 1)[n]!.address);
    if (balance === undefined) return; // the node cannot tell
    if (balance > 0n) continue;
    const count = await accountCount(client);
    throw new Error(
      count === 0
        ? `there is no dev account ${n}: this node has no dev accounts (--dev-accounts 0)`
        : `there is no dev account ${n}: this node's dev accounts are 0..${count - 1} (--dev-accounts ${count})`,
    );
  }
}
