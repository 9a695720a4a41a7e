// What the reference's local network funds at genesis so that a wallet can start on it: the
// three initial test accounts of aztec.js's testing helpers (`getInitialTestAccountsData()` of
// @aztec/accounts 4.1.2: Schnorr accounts with fixed secrets, salt 0) and the SponsoredFPC
// (salt 0, which pays any tx's fee). Their addresses are facts of the reference; a wallet deploys
// the accounts (paying with their own Fee Juice) and uses the SponsoredFPC as it would there.
import type { Fr } from '../core/field.js';
import type { PublicDataWrite } from '../world-state/types.js';
import { feeJuiceBalanceSlot } from './protocol-contracts.js';

/** The initial test accounts' addresses, in the reference's order. */
export const INITIAL_TEST_ACCOUNTS: readonly Fr[] = [
  0x0a60414ee907527880b7a53d4dacdeb9ef768bb98d9d8d1e7200725c13763331n,
  0x00cedf87a800bd88274762d77ffd93e97bc881d1fc99570d62ba97953597914dn,
  0x1dd551228da3a56b5da5f5d73728e08d8114f59897c27136f1bcdd4c05028905n,
];

/** The SponsoredFPC's salt (`SPONSORED_FPC_SALT` of @aztec/constants 4.1.2) and address. */
export const SPONSORED_FPC_SALT = 0n;
export const SPONSORED_FPC_ADDRESS = 0x09a4df73aa47f82531a038d1d51abfc85b27665c4b7ca751e2d4fa9f19caffb2n;

/** Fee Juice each starts with: the reference's `defaultInitialAccountFeeJuice`, 10^22. */
export const TEST_ACCOUNT_BALANCE = 10n ** 22n;

/** The funded addresses: the test accounts, then the SponsoredFPC. */
export const TEST_ACCOUNT_ADDRESSES: readonly Fr[] = [...INITIAL_TEST_ACCOUNTS, SPONSORED_FPC_ADDRESS];

/** The genesis public-data writes that fund them. */
export const testAccountsGenesisData = (): PublicDataWrite[] =>
  TEST_ACCOUNT_ADDRESSES.map((address) => ({
    slot: feeJuiceBalanceSlot(address),
    value: TEST_ACCOUNT_BALANCE,
  }));
