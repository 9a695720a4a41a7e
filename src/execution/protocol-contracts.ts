// Protocol contracts executed natively (DESIGN §5). Fee Juice keeps public balances in a map at
// storage slot 1 (reference-facts §5.3), so balances live in the public data tree where any
// node, witness or client can read them. The registries publish classes and instances through
// private side effects (nullifiers and logs that travel in the tx); they have no public function
// cairn runs yet, and a call to one reverts with a clear reason.
import { FEE_JUICE_INCREASE_BALANCE, PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { type Fr, toHex32 } from '../core/field.js';
import { functionSelector } from '../core/hash/index.js';
import { mapStorageSlot, type PublicStateJournal, publicDataLeafSlot } from './public-storage.js';

export const FEE_JUICE_BALANCES_SLOT = 1n;
const U128_MAX = (1n << 128n) - 1n;

/** The public-data leaf slot of `owner`'s Fee Juice balance. */
export const feeJuiceBalanceSlot = (owner: Fr): Fr =>
  publicDataLeafSlot(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, mapStorageSlot(FEE_JUICE_BALANCES_SLOT, owner));

/** A public call being executed. */
export interface PublicCall {
  msgSender: Fr;
  contractAddress: Fr;
  isStaticCall: boolean;
  /** Selector first, then the arguments. */
  calldata: readonly Fr[];
}

/** A failed call: the revert reason. */
export class PublicCallRevert extends Error {}

type NativeFunction = (call: PublicCall, state: PublicStateJournal) => Fr[];

interface NativeContract {
  name: string;
  functions: Map<number, { signature: string; args: number; run: NativeFunction }>;
}

function contract(
  name: string,
  functions: Record<string, { args: number; run: NativeFunction }>,
): NativeContract {
  return {
    name,
    functions: new Map(
      Object.entries(functions).map(([signature, f]) => [functionSelector(signature), { signature, ...f }]),
    ),
  };
}

function u128(value: Fr, what: string): bigint {
  if (value > U128_MAX) throw new PublicCallRevert(`${what} does not fit in a u128`);
  return value;
}

function write(call: PublicCall, state: PublicStateJournal, slot: Fr, value: Fr): void {
  if (call.isStaticCall) throw new PublicCallRevert('Static call cannot update the state');
  state.write(slot, value);
}

const feeJuice = contract('FeeJuice', {
  // Credits bridged Fee Juice; only the contract itself may call it (its private claim does).
  [FEE_JUICE_INCREASE_BALANCE.signature]: {
    args: FEE_JUICE_INCREASE_BALANCE.calldataLength - 1,
    run(call, state) {
      if (call.msgSender !== PROTOCOL_CONTRACT_ADDRESSES.feeJuice) {
        throw new PublicCallRevert('Function _increase_public_balance can only be called internally');
      }
      const [, to, amount] = call.calldata as [Fr, Fr, Fr];
      const slot = feeJuiceBalanceSlot(to);
      const balance = state.read(slot) + u128(amount, 'amount');
      write(call, state, slot, u128(balance, 'balance'));
      return [];
    },
  },
  'balance_of_public((Field))': {
    args: 1,
    run: (call, state) => [state.read(feeJuiceBalanceSlot(call.calldata[1]!))],
  },
  // Reverts unless the caller holds at least `fee_limit`.
  'check_balance(u128)': {
    args: 1,
    run(call, state) {
      const limit = u128(call.calldata[1]!, 'fee_limit');
      if (state.read(feeJuiceBalanceSlot(call.msgSender)) < limit) {
        throw new PublicCallRevert('Balance too low');
      }
      return [];
    },
  },
});

const NATIVE_CONTRACTS = new Map<Fr, NativeContract>([
  [PROTOCOL_CONTRACT_ADDRESSES.feeJuice, feeJuice],
  [PROTOCOL_CONTRACT_ADDRESSES.classRegistry, contract('ContractClassRegistry', {})],
  [PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, contract('ContractInstanceRegistry', {})],
]);

/** Runs a public call natively; throws PublicCallRevert with the reason when it fails. */
export function runPublicCall(call: PublicCall, state: PublicStateJournal): Fr[] {
  const target = NATIVE_CONTRACTS.get(call.contractAddress);
  if (!target) {
    throw new PublicCallRevert(
      `public execution of contract ${toHex32(call.contractAddress)} is not supported: cairn runs only the protocol contracts (Fee Juice, class registry, instance registry)`,
    );
  }
  if (call.calldata.length === 0) throw new PublicCallRevert('calldata is empty: no function selector');
  const selector = call.calldata[0]!;
  const fn = selector <= 0xffffffffn ? target.functions.get(Number(selector)) : undefined;
  if (!fn) {
    throw new PublicCallRevert(
      `${target.name} has no public function with selector 0x${selector.toString(16).padStart(8, '0')}`,
    );
  }
  if (call.calldata.length !== fn.args + 1) {
    throw new PublicCallRevert(
      `${target.name}.${fn.signature} takes ${fn.args} arguments, got ${call.calldata.length - 1}`,
    );
  }
  return fn.run(call, state);
}
