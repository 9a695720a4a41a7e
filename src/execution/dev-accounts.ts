// Dev accounts: L2 addresses prefunded with Fee Juice at genesis, like the accounts Anvil prints.
// Their addresses are derived from their index, so every node started with the same count has
// the same genesis state. cairn txs carry no account signatures (the proof stands for them), so
// an account is just its address.
import type { Fr } from '../core/field.js';
import { poseidon2HashWithSeparator } from '../core/hash/poseidon2.js';
import type { PublicDataWrite } from '../world-state/types.js';
import { feeJuiceBalanceSlot } from './protocol-contracts.js';

/** Domain separator of dev account addresses ("DEVA"). */
const DEV_ACCOUNT_SEPARATOR = 0x44455641;
/** Fee Juice each dev account starts with: 10^24 units (a million of 10^18). */
export const DEV_ACCOUNT_BALANCE = 10n ** 24n;

export interface DevAccount {
  index: number;
  address: Fr;
  balance: bigint;
}

export function devAccounts(count: number): DevAccount[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    address: poseidon2HashWithSeparator([BigInt(index)], DEV_ACCOUNT_SEPARATOR),
    balance: DEV_ACCOUNT_BALANCE,
  }));
}

/** The genesis public-data writes that fund the accounts. */
export const devAccountsGenesisData = (accounts: readonly DevAccount[]): PublicDataWrite[] =>
  accounts.map((a) => ({ slot: feeJuiceBalanceSlot(a.address), value: a.balance }));
