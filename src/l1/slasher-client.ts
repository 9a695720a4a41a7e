// Typed access to the rollup's Slasher on L1 (Slasher.sol): slash payloads, the proposers' votes
// on them round by round, and the encodings the contract uses for both (payload address, vote
// digest), computed here so the node need not ask L1 for them.
import {
  type Address,
  createWalletClient,
  encodeAbiParameters,
  getAddress,
  type Hash,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
  type PublicClient,
  toHex,
} from 'viem';
import type { L1Connection } from './connect.js';
import { l1Chain } from './deploy.js';
import { artifacts } from './generated/artifacts.js';

/** One offense inside a payload. */
export interface SlashOffenseRef {
  offenseType: number;
  epochOrSlot: bigint;
}

/** The penalty a payload proposes for one validator (lowercase address), with its offenses. */
export interface ValidatorSlash {
  validator: string;
  amount: bigint;
  offenses: SlashOffenseRef[];
}

/** A created payload: its L1 creation time (seconds) and content. */
export interface SlashPayloadContent {
  address: string;
  timestamp: bigint;
  slashes: ValidatorSlash[];
}

const SLASHES_ABI = [
  {
    type: 'tuple[]',
    components: [
      { name: 'validator', type: 'address' },
      { name: 'amount', type: 'uint256' },
      {
        name: 'offenses',
        type: 'tuple[]',
        components: [
          { name: 'offenseType', type: 'uint256' },
          { name: 'epochOrSlot', type: 'uint256' },
        ],
      },
    ],
  },
] as const;

const SIGNAL_TYPEHASH = keccak256(toHex('cairn.slash.signal.v1'));

function toAbiSlashes(slashes: readonly ValidatorSlash[]) {
  return slashes.map((s) => ({
    validator: getAddress(s.validator),
    amount: s.amount,
    offenses: s.offenses.map((o) => ({ offenseType: BigInt(o.offenseType), epochOrSlot: o.epochOrSlot })),
  }));
}

function fromAbiSlashes(
  slashes: readonly {
    validator: Address;
    amount: bigint;
    offenses: readonly { offenseType: bigint; epochOrSlot: bigint }[];
  }[],
): ValidatorSlash[] {
  return slashes.map((s) => ({
    validator: s.validator.toLowerCase(),
    amount: s.amount,
    offenses: s.offenses.map((o) => ({ offenseType: Number(o.offenseType), epochOrSlot: o.epochOrSlot })),
  }));
}

/** The address the Slasher gives a payload: the low 160 bits of keccak256(abi.encode(slashes)). */
export function slashPayloadAddress(slashes: readonly ValidatorSlash[]): string {
  const hash = keccak256(encodeAbiParameters(SLASHES_ABI, [toAbiSlashes(slashes)]));
  return `0x${hash.slice(-40)}`;
}

/** What the proposer of `slot` signs (as an Ethereum signed message) to vote for `payload`. */
export function slashSignalDigest(
  domain: { chainId: number; slasher: string },
  slot: number,
  payload: string,
): Hex {
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'address' },
      ],
      [
        SIGNAL_TYPEHASH,
        BigInt(domain.chainId),
        getAddress(domain.slasher),
        BigInt(slot),
        getAddress(payload),
      ],
    ),
  );
}

export class SlasherClient {
  readonly address: Address;
  private readonly client: PublicClient;

  constructor(
    private readonly l1: L1Connection,
    address: string,
  ) {
    this.address = getAddress(address);
    this.client = l1.client;
  }

  private read<T>(functionName: string, args: readonly unknown[] = []): Promise<T> {
    return this.client.readContract({
      address: this.address,
      abi: artifacts.Slasher.abi,
      functionName: functionName as never,
      args: args as never,
    }) as Promise<T>;
  }

  async roundSize(): Promise<number> {
    return Number(await this.read<bigint>('getRoundSize'));
  }

  async quorumSize(): Promise<number> {
    return Number(await this.read<bigint>('getQuorumSize'));
  }

  /** The payloads voted for in `round` with their votes, in the order of their first vote. */
  async roundPayloads(round: bigint): Promise<{ address: string; votes: bigint }[]> {
    const [payloads, votes] = await this.read<[readonly Address[], readonly bigint[]]>('getRoundPayloads', [
      round,
    ]);
    return payloads.map((p, i) => ({ address: p.toLowerCase(), votes: votes[i]! }));
  }

  /** The payload that won `round`, if one reached the quorum. */
  async roundWinner(round: bigint): Promise<string | undefined> {
    const winner = await this.read<Address>('getRoundWinner', [round]);
    return BigInt(winner) === 0n ? undefined : winner.toLowerCase();
  }

  /** A created payload's creation time and content (from its SlashPayloadCreated event); undefined if not created. */
  async payload(address: string): Promise<SlashPayloadContent | undefined> {
    const [timestamp, blockNumber] = await this.read<[bigint, bigint]>('getPayloadCreation', [
      getAddress(address),
    ]);
    if (timestamp === 0n) return undefined;
    const logs = await this.client.getContractEvents({
      address: this.address,
      abi: artifacts.Slasher.abi,
      eventName: 'SlashPayloadCreated',
      args: { payload: getAddress(address) },
      fromBlock: blockNumber,
      toBlock: blockNumber,
    });
    const log = logs[0];
    if (log === undefined)
      throw new Error(
        `slash payload ${address} was created in L1 block ${blockNumber}, but its event is not there`,
      );
    const { slashes } = log.args as { slashes: Parameters<typeof fromAbiSlashes>[0] };
    return { address: address.toLowerCase(), timestamp, slashes: fromAbiSlashes(slashes) };
  }

  /** Asks L1 for a payload's address (the known-answer check of slashPayloadAddress). */
  async payloadAddressOnL1(slashes: readonly ValidatorSlash[]): Promise<string> {
    return (await this.read<Address>('getPayloadAddress', [toAbiSlashes(slashes)])).toLowerCase();
  }

  /** Asks L1 for a vote digest (the known-answer check of slashSignalDigest). */
  async signalDigestOnL1(slot: number, payload: string): Promise<Hex> {
    return this.read<Hex>('getSignalDigest', [BigInt(slot), getAddress(payload)]);
  }

  private wallet(account: PrivateKeyAccount) {
    return createWalletClient({
      account,
      chain: l1Chain(this.l1.chainId, this.l1.rpcUrl),
      transport: http(this.l1.rpcUrl),
    });
  }

  /**
   * Votes for an existing payload in the current slot; `signature` is the slot proposer's
   * signature of slashSignalDigest. Resolves with the tx hash once sent; rejects without sending
   * when the vote would fail (the gas estimate reverts), e.g. when the slot is over.
   */
  signal(sender: PrivateKeyAccount, payload: string, signature: Hex): Promise<Hash> {
    return this.wallet(sender).writeContract({
      address: this.address,
      abi: artifacts.Slasher.abi,
      functionName: 'signal',
      args: [getAddress(payload), signature],
    });
  }

  /** Creates the payload (unless it exists) and votes for it, as signal() does. */
  createAndSignal(
    sender: PrivateKeyAccount,
    slashes: readonly ValidatorSlash[],
    signature: Hex,
  ): Promise<Hash> {
    return this.wallet(sender).writeContract({
      address: this.address,
      abi: artifacts.Slasher.abi,
      functionName: 'createAndSignal',
      args: [toAbiSlashes(slashes), signature],
    });
  }
}
