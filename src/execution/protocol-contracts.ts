// The protocol contracts' public state as the node reads it, and the one public function cairn
// adds to them. FeeJuice (address 5), the class and instance registries (3, 2) and the other
// genesis contracts run their real 4.1.2 bytecode on the AVM (genesis-contracts.ts), so their gas
// and behaviour are the reference's; only the protocol's fee deduction (executor.ts) and cairn's
// public Fee Juice `claim` (below) are native. Fee Juice keeps public balances in a map at storage
// slot 1, in the public data tree where any node, witness or client can read them.
import { FEE_JUICE_CLAIM, PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { UPDATED_CLASS_IDS_SLOT } from '../core/contracts.js';
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
  /** The L1 address of the Fee Juice portal (the sender of deposit messages), when known. */
  feeJuicePortal: string | undefined;
}

function u128(value: Fr, what: string): bigint {
  if (value > U128_MAX) throw new PublicCallRevert(`${what} does not fit in a u128`);
  return value;
}

/**
 * cairn's public Fee Juice claim, `claim((Field),u128,Field,Field)` (not a function of the real
 * contract, whose claim is private): consumes a deposit made through the L1 portal (an L1-to-L2
 * message to Fee Juice, whose content commits to the recipient and the amount) and credits the
 * amount, so that `cairn tx` can claim without a private kernel. The message's nullifier makes a
 * second claim fail, as the real claim's does. It writes the balance where the real contract
 * keeps it.
 */
function feeJuiceClaim(call: PublicCall, ctx: PublicContext): Fr[] {
  if (call.calldata.length !== FEE_JUICE_CLAIM.calldataLength) {
    throw new PublicCallRevert(
      `FeeJuice.${FEE_JUICE_CLAIM.signature} takes ${FEE_JUICE_CLAIM.calldataLength - 1} arguments, got ${call.calldata.length - 1}`,
    );
  }
  const [, to, amount, secret, leafIndex] = call.calldata as [Fr, Fr, Fr, Fr, Fr];
  if (ctx.feeJuicePortal === undefined) throw new PublicCallRevert('the Fee Juice portal on L1 is not known');
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
  if (ctx.nullifierExists(nullifier)) throw new PublicCallRevert('the L1-to-L2 message was already consumed');
  if (call.isStaticCall) throw new PublicCallRevert('Static call cannot update the state');
  ctx.emitNullifier(nullifier);
  const slot = feeJuiceBalanceSlot(to);
  ctx.state.write(slot, u128(ctx.state.read(slot) + amount, 'balance'));
  return [];
}

const CLAIM_SELECTOR = BigInt(functionSelector(FEE_JUICE_CLAIM.signature));

/**
 * Whether a top-level public call runs natively (cairn's Fee Juice claim) rather than on the AVM.
 * Only enqueued calls can reach it: a nested call runs the real bytecode, which has no such
 * function.
 */
export const isNativeCall = (address: Fr, calldata: readonly Fr[]): boolean =>
  address === PROTOCOL_CONTRACT_ADDRESSES.feeJuice && calldata[0] === CLAIM_SELECTOR;

/** Runs a native public call (see isNativeCall); throws PublicCallRevert with the reason when it fails. */
export function runNativeCall(call: PublicCall, ctx: PublicContext): Fr[] {
  if (!isNativeCall(call.contractAddress, call.calldata)) {
    throw new Error(`not a native call: ${toHex32(call.contractAddress)} ${call.calldata[0]}`);
  }
  return feeJuiceClaim(call, ctx);
}

/**
 * Where the instance registry keeps a contract's class updates: its `updated_class_ids` map entry
 * is a delayed public mutable of 3 fields (then its hash), from the reference's layout: a packed
 * field (the value change's time in its low 32 bits; the delay change above it), the class before
 * the change, the class after it. All 0 until the contract's first update.
 */
export function scheduledClassSlots(address: Fr): { packed: Fr; pre: Fr; post: Fr } {
  const base = mapStorageSlot(UPDATED_CLASS_IDS_SLOT, address);
  const at = (offset: bigint) =>
    publicDataLeafSlot(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, base + offset);
  return { packed: at(0n), pre: at(1n), post: at(2n) };
}

/**
 * The class the instance registry has in force for a contract at a time: 0 while it was never
 * updated (the instance's original class applies), else the scheduled change's class before or
 * after its time.
 */
export function scheduledClassAt(address: Fr, timestamp: bigint, read: (leafSlot: Fr) => Fr): Fr {
  const slots = scheduledClassSlots(address);
  const timestampOfChange = read(slots.packed) & 0xffff_ffffn;
  return timestamp < timestampOfChange ? read(slots.pre) : read(slots.post);
}
