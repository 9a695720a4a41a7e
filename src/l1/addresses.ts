// Addresses of the rollup's L1 contracts, with the field names of the reference node's
// `L1ContractAddresses` (docs/configuration.md, "Notes").
import type { Address } from 'viem';

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

export interface L1ContractAddresses {
  rollupAddress: Address;
  registryAddress: Address;
  inboxAddress: Address;
  outboxAddress: Address;
  feeJuiceAddress: Address;
  feeJuicePortalAddress: Address;
  /**
   * The Slasher, where slash payloads are created and voted on (created by the rollup). Optional,
   * as in the reference; absent only for a rollup deployed before cairn had one.
   */
  slashFactoryAddress?: Address;
  /** cairn has no staking asset contract: always the zero address. */
  stakingAssetAddress: Address;
  /** cairn has no coin issuer contract: always the zero address. */
  coinIssuerAddress: Address;
  /** cairn has no reward distributor contract: always the zero address. */
  rewardDistributorAddress: Address;
  /** cairn has no governance proposer contract: always the zero address. */
  governanceProposerAddress: Address;
  /** cairn has no governance contract: always the zero address. */
  governanceAddress: Address;
}

/** The required L1ContractAddresses entries cairn has no contract for. */
export type AbsentContractName =
  | 'stakingAssetAddress'
  | 'coinIssuerAddress'
  | 'rewardDistributorAddress'
  | 'governanceProposerAddress'
  | 'governanceAddress';

/** The contracts cairn deploys. */
export type DeployedL1ContractAddresses = Omit<L1ContractAddresses, AbsentContractName>;

/** The full L1ContractAddresses: the deployed contracts, and the zero address for the absent ones. */
export function withAbsentContracts(deployed: DeployedL1ContractAddresses): L1ContractAddresses {
  return {
    ...deployed,
    stakingAssetAddress: ZERO_ADDRESS,
    coinIssuerAddress: ZERO_ADDRESS,
    rewardDistributorAddress: ZERO_ADDRESS,
    governanceProposerAddress: ZERO_ADDRESS,
    governanceAddress: ZERO_ADDRESS,
  };
}
