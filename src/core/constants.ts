// Protocol constants that do not depend on configuration.

/**
 * Addresses of the protocol contracts, which cairn executes natively (docs/transactions.md, "Execution").
 * They are small fixed addresses, as in the reference protocol's 4.3 numbering.
 */
export const PROTOCOL_CONTRACT_ADDRESSES = {
  instanceRegistry: 2n,
  classRegistry: 3n,
  multiCallEntrypoint: 4n,
  feeJuice: 5n,
} as const;

/**
 * The AuthRegistry, run on the AVM with its real bytecode (not among the addresses the node info
 * lists, as in the reference's 4.x ProtocolContractAddresses).
 */
export const AUTH_REGISTRY_ADDRESS = 1n;

/** The PublicChecks contract (timestamp and block-number checks other contracts call), on the AVM. */
export const PUBLIC_CHECKS_ADDRESS = 6n;

export type ProtocolContractAddresses = { [K in keyof typeof PROTOCOL_CONTRACT_ADDRESSES]: bigint };

/** A public function allowed in a transaction's setup phase. */
export interface AllowedElement {
  address?: bigint;
  classId?: bigint;
  selector: number;
  onlySelf?: boolean;
  rejectNullMsgSender?: boolean;
  calldataLength?: number;
}

/**
 * Fee Juice's `_increase_public_balance(to, amount)`: credits bridged Fee Juice; only the contract
 * itself may call it. Its calldata is the selector, the address and the u128 amount.
 */
export const FEE_JUICE_INCREASE_BALANCE = {
  signature: '_increase_public_balance((Field),u128)',
  calldataLength: 3,
} as const;

/**
 * Fee Juice's `claim(to, amount, secret, leafIndex)`: consumes a deposit message from the L1
 * portal and credits the amount. (The reference claims in private; cairn runs it natively in
 * public, checking the message in the L1-to-L2 tree.) Calldata: selector and four fields.
 */
export const FEE_JUICE_CLAIM = {
  signature: 'claim((Field),u128,Field,Field)',
  calldataLength: 5,
} as const;

/**
 * Public functions of protocol contracts allowed in setup by default, by signature.
 * Fee Juice's `_increase_public_balance` lets a tx claim bridged Fee Juice and spend
 * it in the same tx; it is only callable by the contract itself, with calldata of the
 * selector plus an address and a u128 amount.
 */
export const DEFAULT_SETUP_ALLOW_LIST = [
  {
    contract: 'feeJuice',
    signature: FEE_JUICE_INCREASE_BALANCE.signature,
    onlySelf: true,
    calldataLength: FEE_JUICE_INCREASE_BALANCE.calldataLength,
  },
  // Claiming bridged Fee Juice in setup lets a new account pay its first tx's fee with it.
  {
    contract: 'feeJuice',
    signature: FEE_JUICE_CLAIM.signature,
    onlySelf: false,
    calldataLength: FEE_JUICE_CLAIM.calldataLength,
  },
] as const;
