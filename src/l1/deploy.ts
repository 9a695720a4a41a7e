// Deploys the rollup's L1 contracts at genesis from a fixed deployer key, in a fixed order, so the
// addresses on a fresh chain depend only on the deployer (CREATE addresses from its nonces 0..5):
//
//   nonce 0  Registry(deployer)
//   nonce 1  FeeJuice(deployer)
//   nonce 2  Inbox(rollupVersion)
//   nonce 3  Outbox(rollupVersion)
//   nonce 4  Rollup(config, inbox, outbox)        genesis time = this block's timestamp; the rollup
//                                                 creates its Slasher (CREATE from the rollup, nonce 1)
//   nonce 5  FeeJuicePortal(inbox, feeJuice, rollupVersion)
//   nonce 6  inbox.setRollup(rollup)               the rollup becomes the only consumer
//   nonce 7  outbox.setRollup(rollup)              the rollup becomes the only inserter
//   nonce 8  registry.addRollup(rollup)            canonical rollup for its version
//   nonce 9  feeJuice.mint(deployer, amount)       dev funds
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type L1ContractAddresses, withAbsentContracts } from './addresses.js';
import { artifacts } from './generated/artifacts.js';

/** Private key of anvil's first dev account: the default deployer. */
export const DEFAULT_DEPLOYER_PRIVATE_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** Fee Juice minted to the deployer for development (1,000,000 with 18 decimals). */
export const DEFAULT_FEE_JUICE_MINT = 1_000_000n * 10n ** 18n;

export interface L1ClientOptions {
  rpcUrl: string;
  /** Read from the endpoint when absent. */
  chainId?: number | undefined;
  /** Deployer key (default: anvil's account 0). */
  deployerPrivateKey?: Hex | undefined;
  /**
   * Mines the pending transaction, for an L1 that does not mine by itself (anvil --no-mining).
   * Called after each transaction is sent. Leave undefined when the L1 mines on its own.
   */
  mine?: (() => Promise<void>) | undefined;
  /** Receipt polling interval (default 100 ms). */
  pollingIntervalMs?: number | undefined;
}

export interface DeployL1Params {
  slotDuration: number | bigint;
  epochDuration: number | bigint;
  proofSubmissionEpochs: number | bigint;
  targetCommitteeSize: number | bigint;
  manaTarget: number | bigint;
  /** Proving cost per mana in wei (default 0). */
  provingCostPerMana?: number | bigint | undefined;
  rollupVersion: number | bigint;
  /** Archive root of the genesis state (a field element). */
  genesisArchiveRoot: bigint | Hex;
  /** The only account allowed to submit epoch proofs. */
  proverAddress: Address;
  /** The validator set (fixed at deployment). */
  validators: readonly Address[];
  /** Slots per slashing round (default DEFAULT_SLASHING_ROUND_SIZE). */
  slashingRoundSize?: number | bigint | undefined;
  /** Votes a slash payload needs in a round (default: more than half of the round). */
  slashingQuorumSize?: number | bigint | undefined;
  /** Fee Juice minted to the deployer (default DEFAULT_FEE_JUICE_MINT; 0 skips the mint). */
  feeJuiceMint?: bigint | undefined;
}

/** Slots per slashing round when the deployment does not say. */
export const DEFAULT_SLASHING_ROUND_SIZE = 64;

/** The default quorum of a slashing round: more than half of its slots. */
export function defaultSlashingQuorum(roundSize: number | bigint): bigint {
  return BigInt(roundSize) / 2n + 1n;
}

/** The Slasher's address: the rollup's first creation (contract nonces start at 1, EIP-161). */
function slasherAddressOf(rollup: Address): Address {
  return getContractAddress({ from: rollup, nonce: 1n });
}

/** The addresses deployL1Contracts produces when the deployer starts at `startNonce` (0 on a fresh chain). */
export function expectedL1ContractAddresses(deployer: Address, startNonce = 0n): L1ContractAddresses {
  const at = (offset: bigint): Address => getContractAddress({ from: deployer, nonce: startNonce + offset });
  const rollupAddress = at(4n);
  return withAbsentContracts({
    registryAddress: at(0n),
    feeJuiceAddress: at(1n),
    inboxAddress: at(2n),
    outboxAddress: at(3n),
    rollupAddress,
    feeJuicePortalAddress: at(5n),
    slashFactoryAddress: slasherAddressOf(rollupAddress),
  });
}

function toHex32(value: bigint | Hex): Hex {
  const v = typeof value === 'bigint' ? value : BigInt(value);
  if (v < 0n || v >= 1n << 256n) throw new Error('genesisArchiveRoot out of range');
  return `0x${v.toString(16).padStart(64, '0')}`;
}

/** A viem chain description for an L1 endpoint. */
export function l1Chain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `l1-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** Deploys and wires the L1 contracts; resolves with their addresses. */
export async function deployL1Contracts(
  options: L1ClientOptions,
  params: DeployL1Params,
): Promise<L1ContractAddresses> {
  const pollingInterval = options.pollingIntervalMs ?? 100;
  const transport = http(options.rpcUrl);
  const probe = createPublicClient({ transport });
  const chainId = options.chainId ?? (await probe.getChainId());
  const chain = l1Chain(chainId, options.rpcUrl);
  const account = privateKeyToAccount(options.deployerPrivateKey ?? DEFAULT_DEPLOYER_PRIVATE_KEY);
  const publicClient: PublicClient = createPublicClient({ chain, transport, pollingInterval });
  const wallet = createWalletClient({ account, chain, transport, pollingInterval });

  const settle = async (hash: Hash, what: string): Promise<TransactionReceipt> => {
    if (options.mine) await options.mine();
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`L1 deployment step failed: ${what} (tx ${hash})`);
    return receipt;
  };
  const deploy = async (name: keyof typeof artifacts, args: readonly unknown[]): Promise<Address> => {
    const artifact = artifacts[name];
    const hash = await wallet.deployContract({
      abi: artifact.abi as Abi,
      bytecode: artifact.bytecode,
      args,
    });
    const receipt = await settle(hash, `deploy ${name}`);
    if (!receipt.contractAddress) throw new Error(`L1 deployment of ${name} returned no address`);
    return getAddress(receipt.contractAddress);
  };
  const call = async (
    name: keyof typeof artifacts,
    address: Address,
    functionName: string,
    args: readonly unknown[],
  ): Promise<void> => {
    const hash = await wallet.writeContract({
      address,
      abi: artifacts[name].abi as Abi,
      functionName,
      args,
    });
    await settle(hash, `${name}.${functionName}`);
  };

  const deployer = account.address;
  const version = BigInt(params.rollupVersion);
  const roundSize = BigInt(params.slashingRoundSize ?? DEFAULT_SLASHING_ROUND_SIZE);
  const registryAddress = await deploy('Registry', [deployer]);
  const feeJuiceAddress = await deploy('FeeJuice', [deployer]);
  const inboxAddress = await deploy('Inbox', [version]);
  const outboxAddress = await deploy('Outbox', [version]);
  const rollupAddress = await deploy('Rollup', [
    {
      slotDuration: BigInt(params.slotDuration),
      epochDuration: BigInt(params.epochDuration),
      proofSubmissionEpochs: BigInt(params.proofSubmissionEpochs),
      targetCommitteeSize: BigInt(params.targetCommitteeSize),
      manaTarget: BigInt(params.manaTarget),
      provingCostPerMana: BigInt(params.provingCostPerMana ?? 0n),
      version,
      genesisArchiveRoot: toHex32(params.genesisArchiveRoot),
      prover: params.proverAddress,
      validators: [...params.validators],
      slashingRoundSize: roundSize,
      slashingQuorumSize: BigInt(params.slashingQuorumSize ?? defaultSlashingQuorum(roundSize)),
    },
    inboxAddress,
    outboxAddress,
  ]);
  const feeJuicePortalAddress = await deploy('FeeJuicePortal', [inboxAddress, feeJuiceAddress, version]);
  await call('Inbox', inboxAddress, 'setRollup', [rollupAddress]);
  await call('Outbox', outboxAddress, 'setRollup', [rollupAddress]);
  await call('Registry', registryAddress, 'addRollup', [rollupAddress]);
  const mint = params.feeJuiceMint ?? DEFAULT_FEE_JUICE_MINT;
  if (mint > 0n) await call('FeeJuice', feeJuiceAddress, 'mint', [deployer, mint]);

  return withAbsentContracts({
    rollupAddress,
    registryAddress,
    inboxAddress,
    outboxAddress,
    feeJuiceAddress,
    feeJuicePortalAddress,
    slashFactoryAddress: slasherAddressOf(rollupAddress),
  });
}
