// Protocol contracts executed natively (docs/transactions.md, "Execution"). Fee Juice keeps public balances
// in a map at storage slot 1, so balances live in the public data tree where any
// node, witness or client can read them. The registries publish classes and instances through
// private side effects (nullifiers and logs that travel in the tx); the instance registry's one
// public function, `update`, schedules a contract's move to another class after a delay.
import {
  FEE_JUICE_CLAIM,
  FEE_JUICE_INCREASE_BALANCE,
  PROTOCOL_CONTRACT_ADDRESSES,
} from '../core/constants.js';
import { instanceUpdatedLogFields, siloNullifier, UPDATED_CLASS_IDS_SLOT } from '../core/contracts.js';
import { type Fr, toHex32 } from '../core/field.js';
import { functionSelector } from '../core/hash/selector.js';
import {
  computeSecretHash,
  feeJuiceDepositContent,
  l1ToL2MessageHash,
  l1ToL2MessageNullifier,
} from '../core/l1-to-l2.js';
import { mapStorageSlot, type PublicStateJournal, publicDataLeafSlot } from './public-storage.js';

export const FEE_JUICE_BALANCES_SLOT = 1n;
const U128_MAX = (1n << 128n) - 1n;

/** Fee payers seen lately and their balance slots: every tx checks its payer's balance, and a
 * few payers (accounts sending many txs, fee-paying contracts) pay for most txs. Two Poseidon2
 * hashes saved per hit; forgotten all at once when full. */
const balanceSlots = new Map<Fr, Fr>();
const BALANCE_SLOTS_KEPT = 4096;

/** The public-data leaf slot of `owner`'s Fee Juice balance. */
export function feeJuiceBalanceSlot(owner: Fr): Fr {
  let slot = balanceSlots.get(owner);
  if (slot === undefined) {
    slot = publicDataLeafSlot(
      PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
      mapStorageSlot(FEE_JUICE_BALANCES_SLOT, owner),
    );
    if (balanceSlots.size >= BALANCE_SLOTS_KEPT) balanceSlots.clear();
    balanceSlots.set(owner, slot);
  }
  return slot;
}

/** A public call being executed. */
export interface PublicCall {
  msgSender: Fr;
  contractAddress: Fr;
  isStaticCall: boolean;
  /** Selector first, then the arguments. */
  calldata: readonly Fr[];
}

/** A failed call: the revert reason, and the revert data if the call gave any. */
export class PublicCallRevert extends Error {
  constructor(
    message: string,
    /** What the reverting call gave as its revert data (an AVM call's REVERT data), if anything. */
    readonly data: Fr[] = [],
  ) {
    super(message);
  }
}

/** What a public call sees besides storage: the block, the nullifiers so far, the L1-to-L2 tree. */
export interface PublicContext {
  state: PublicStateJournal;
  /** The block's timestamp, L1 chain id and rollup version. */
  timestamp: bigint;
  chainId: bigint;
  rollupVersion: bigint;
  /** Whether a (siloed) nullifier is in the tree, among the tx's own, or emitted so far. */
  nullifierExists(siloed: Fr): boolean;
  /** Emits a (siloed) nullifier; reverts if it exists or the tx would pass its nullifier limit. */
  emitNullifier(siloed: Fr): void;
  /** The L1-to-L2 message tree's leaf at an index (undefined beyond the tree). */
  l1ToL2MessageAt(index: bigint): Fr | undefined;
  /** Seconds from scheduling a class update to its taking effect. */
  updateDelay: number;
  /** The L1 address of the Fee Juice portal (the sender of deposit messages), when known. */
  feeJuicePortal: string | undefined;
}

type NativeFunction = (call: PublicCall, ctx: PublicContext) => Fr[];

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
    run(call, { state }) {
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
  // Consumes a deposit made through the L1 portal (an L1-to-L2 message to Fee Juice, whose
  // content commits to the recipient and the amount) and credits the amount. The message's
  // nullifier makes a second claim fail.
  [FEE_JUICE_CLAIM.signature]: {
    args: FEE_JUICE_CLAIM.calldataLength - 1,
    run(call, ctx) {
      const [, to, amount, secret, leafIndex] = call.calldata as [Fr, Fr, Fr, Fr, Fr];
      if (ctx.feeJuicePortal === undefined)
        throw new PublicCallRevert('the Fee Juice portal on L1 is not known');
      const messageHash = l1ToL2MessageHash({
        sender: ctx.feeJuicePortal,
        chainId: ctx.chainId,
        recipient: PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
        rollupVersion: ctx.rollupVersion,
        content: feeJuiceDepositContent(to, u128(amount, 'amount')),
        secretHash: computeSecretHash(secret),
        index: leafIndex,
      });
      if (ctx.l1ToL2MessageAt(leafIndex) !== messageHash) {
        throw new PublicCallRevert(
          `no L1-to-L2 message at index ${leafIndex} matches this claim (recipient, amount, secret and index must match the deposit)`,
        );
      }
      const nullifier = l1ToL2MessageNullifier(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, messageHash, secret);
      if (ctx.nullifierExists(nullifier))
        throw new PublicCallRevert('the L1-to-L2 message was already consumed');
      if (call.isStaticCall) throw new PublicCallRevert('Static call cannot update the state');
      ctx.emitNullifier(nullifier);
      const slot = feeJuiceBalanceSlot(to);
      write(call, ctx.state, slot, u128(ctx.state.read(slot) + amount, 'balance'));
      return [];
    },
  },
  'balance_of_public((Field))': {
    args: 1,
    run: (call, { state }) => [state.read(feeJuiceBalanceSlot(call.calldata[1]!))],
  },
  // Reverts unless the caller holds at least `fee_limit`.
  'check_balance(u128)': {
    args: 1,
    run(call, { state }) {
      const limit = u128(call.calldata[1]!, 'fee_limit');
      if (state.read(feeJuiceBalanceSlot(call.msgSender)) < limit) {
        throw new PublicCallRevert('Balance too low');
      }
      return [];
    },
  },
});

/**
 * Where the instance registry keeps a contract's scheduled class change: three consecutive
 * storage slots from the contract's entry in the updated-class-ids map — the time of change, the
 * class before it and the class after it (all 0 until the first update).
 */
export function scheduledClassSlots(address: Fr): { timestampOfChange: Fr; pre: Fr; post: Fr } {
  const base = mapStorageSlot(UPDATED_CLASS_IDS_SLOT, address);
  const at = (offset: bigint) =>
    publicDataLeafSlot(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, base + offset);
  return { timestampOfChange: at(0n), pre: at(1n), post: at(2n) };
}

const instanceRegistry = contract('ContractInstanceRegistry', {
  // Schedules the calling contract's move to another published class, effective after the
  // delay; the contract keeps its class until then. Emits the update as a public log.
  'update((Field))': {
    args: 1,
    run(call, ctx) {
      const { state } = ctx;
      const address = call.msgSender;
      const newClassId = call.calldata[1]!;
      if (!ctx.nullifierExists(siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, address))) {
        throw new PublicCallRevert('msg.sender is not deployed');
      }
      if (!ctx.nullifierExists(siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.classRegistry, newClassId))) {
        throw new PublicCallRevert('New contract class is not registered');
      }
      const slots = scheduledClassSlots(address);
      const change = state.read(slots.timestampOfChange);
      // The class in force now: 0 means "the original class" (never updated).
      const current =
        change !== 0n && ctx.timestamp >= change ? state.read(slots.post) : state.read(slots.pre);
      const timestampOfChange = ctx.timestamp + BigInt(ctx.updateDelay);
      write(call, state, slots.timestampOfChange, timestampOfChange);
      write(call, state, slots.pre, current);
      write(call, state, slots.post, newClassId);
      state.emitLog({
        contractAddress: PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry,
        fields: instanceUpdatedLogFields({
          address,
          prevContractClassId: current,
          newContractClassId: newClassId,
          timestampOfChange,
        }),
      });
      return [];
    },
  },
});

const NATIVE_CONTRACTS = new Map<Fr, NativeContract>([
  [PROTOCOL_CONTRACT_ADDRESSES.feeJuice, feeJuice],
  [PROTOCOL_CONTRACT_ADDRESSES.classRegistry, contract('ContractClassRegistry', {})],
  [PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, instanceRegistry],
]);

/** Whether cairn runs this contract natively (a protocol contract) rather than on the AVM. */
export const isNativeContract = (address: Fr): boolean => NATIVE_CONTRACTS.has(address);

/** Runs a public call natively; throws PublicCallRevert with the reason when it fails. */
export function runPublicCall(call: PublicCall, ctx: PublicContext): Fr[] {
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
  return fn.run(call, ctx);
}
