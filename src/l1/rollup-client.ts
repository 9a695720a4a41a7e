// Typed access to the rollup's contracts on L1: the only way the node reads or writes them.
import {
  type Address,
  createWalletClient,
  decodeFunctionData,
  type Hash,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { toHex32 } from '../core/field.js';
import type { L1RollupConstants } from '../core/time.js';
import type { L1Connection } from './connect.js';
import { l1Chain } from './deploy.js';
import { artifacts } from './generated/artifacts.js';
import { signingOffThread } from './signer.js';

const hex32 = (v: bigint) => toHex32(v) as Hex;

/** What the rollup stores for a checkpoint. */
export interface CheckpointOnChain {
  archive: bigint;
  headerHash: bigint;
  outHash: bigint;
  inHash: bigint;
  slot: number;
  l1BlockNumber: bigint;
  l1Timestamp: bigint;
  totalManaUsed: bigint;
  excessMana: bigint;
  l1BaseFee: bigint;
  l1BlobBaseFee: bigint;
}

export interface ProposeRequest {
  checkpointNumber: number;
  slot: number;
  archive: bigint;
  headerHash: bigint;
  totalManaUsed: bigint;
  outHash: bigint;
  inHash: bigint;
  /** One per committee member, in committee order; `0x` for a member that did not sign. */
  attestations: Hex[];
  body: Uint8Array;
}

export interface CheckpointProposedEvent {
  checkpointNumber: number;
  archive: bigint;
  headerHash: bigint;
  slot: number;
  l1BlockNumber: bigint;
  l1BlockHash: Hash;
  txHash: Hash;
  logIndex: number;
}

/** A message sent to the inbox: its leaf (message hash) and global leaf index. */
export interface MessageSentEvent {
  /** The inbox group, i.e. the checkpoint that inserts the message. */
  checkpointNumber: number;
  index: bigint;
  leaf: bigint;
  l1BlockNumber: bigint;
}

function messageSentEvent(args: unknown, l1BlockNumber: bigint): MessageSentEvent {
  const a = args as { checkpointNumber: bigint; index: bigint; hash: Hex };
  return {
    checkpointNumber: Number(a.checkpointNumber),
    index: a.index,
    leaf: BigInt(a.hash),
    l1BlockNumber,
  };
}

/** The message a mined inbox (or portal) transaction sent. */
export function messageSentIn(receipt: TransactionReceipt): MessageSentEvent {
  const [event] = parseEventLogs({ abi: artifacts.Inbox.abi, eventName: 'MessageSent', logs: receipt.logs });
  if (event === undefined) throw new Error(`L1 transaction ${receipt.transactionHash} sent no L2 message`);
  return messageSentEvent(event.args, receipt.blockNumber);
}

export interface EpochProvenEvent {
  epoch: number;
  fromCheckpoint: number;
  toCheckpoint: number;
  outHash: bigint;
  l1BlockNumber: bigint;
  logIndex: number;
}

export interface CheckpointsPrunedEvent {
  fromCheckpoint: number;
  toCheckpoint: number;
  l1BlockNumber: bigint;
  logIndex: number;
}

export class RollupClient {
  private readonly rollup: Address;
  private readonly client: PublicClient;

  constructor(private readonly l1: L1Connection) {
    this.rollup = l1.addresses.rollupAddress;
    this.client = l1.client;
  }

  /** Calls a view function of the rollup, at the latest L1 block or at `atL1Block`. */
  private read<T>(functionName: string, args: readonly unknown[] = [], atL1Block?: bigint): Promise<T> {
    return this.client.readContract({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      functionName: functionName as never,
      args: args as never,
      ...(atL1Block === undefined ? {} : { blockNumber: atL1Block }),
    }) as Promise<T>;
  }

  /** The rollup's constants; the L1 block time is the node's to tell (the contract does not know it). */
  async constants(ethereumSlotDuration: number): Promise<L1RollupConstants> {
    const [
      l1StartBlock,
      l1GenesisTime,
      slotDuration,
      epochDuration,
      proofSubmissionEpochs,
      committee,
      manaLimit,
    ] = await Promise.all([
      this.read<bigint>('getL1StartBlock'),
      this.read<bigint>('getGenesisTime'),
      this.read<bigint>('getSlotDuration'),
      this.read<bigint>('getEpochDuration'),
      this.read<bigint>('getProofSubmissionEpochs'),
      this.read<bigint>('getTargetCommitteeSize'),
      this.read<bigint>('getManaLimit'),
    ]);
    return {
      l1StartBlock,
      l1GenesisTime,
      slotDuration: Number(slotDuration),
      epochDuration: Number(epochDuration),
      ethereumSlotDuration,
      proofSubmissionEpochs: Number(proofSubmissionEpochs),
      targetCommitteeSize: Number(committee),
      rollupManaLimit: Number(manaLimit),
    };
  }

  /** The latest checkpoint on L1 (now, or as of L1 block `atL1Block`). */
  async pendingCheckpointNumber(atL1Block?: bigint): Promise<number> {
    return Number(await this.read<bigint>('getPendingCheckpointNumber', [], atL1Block));
  }

  /** The latest proven checkpoint on L1 (now, or as of L1 block `atL1Block`). */
  async provenCheckpointNumber(atL1Block?: bigint): Promise<number> {
    return Number(await this.read<bigint>('getProvenCheckpointNumber', [], atL1Block));
  }

  async checkpoint(n: number): Promise<CheckpointOnChain> {
    const c = await this.read<Record<string, bigint | Hex>>('getCheckpoint', [BigInt(n)]);
    return {
      archive: BigInt(c.archive as Hex),
      headerHash: BigInt(c.headerHash as Hex),
      outHash: BigInt(c.outHash as Hex),
      inHash: BigInt(c.inHash as Hex),
      slot: Number(c.slot),
      l1BlockNumber: BigInt(c.l1BlockNumber as bigint),
      l1Timestamp: BigInt(c.l1Timestamp as bigint),
      totalManaUsed: BigInt(c.totalManaUsed as bigint),
      excessMana: BigInt(c.excessMana as bigint),
      l1BaseFee: BigInt(c.l1BaseFee as bigint),
      l1BlobBaseFee: BigInt(c.l1BlobBaseFee as bigint),
    };
  }

  async proposerAtSlot(slot: number): Promise<Address> {
    return this.read<Address>('getProposerAtSlot', [BigInt(slot)]);
  }

  async epochCommittee(epoch: number): Promise<Address[]> {
    return [...(await this.read<readonly Address[]>('getEpochCommittee', [BigInt(epoch)]))];
  }

  /** The digest committee members sign (as an Ethereum signed message) to attest a checkpoint. */
  async attestationDigest(
    checkpointNumber: number,
    slot: number,
    archive: bigint,
    headerHash: bigint,
  ): Promise<Hex> {
    return this.read<Hex>('getAttestationDigest', [
      BigInt(checkpointNumber),
      BigInt(slot),
      hex32(archive),
      hex32(headerHash),
    ]);
  }

  /** The root of an inbox message group (checkpoint n consumes group n). */
  async inboxRoot(group: number): Promise<bigint> {
    const root = (await this.client.readContract({
      address: this.l1.addresses.inboxAddress,
      abi: artifacts.Inbox.abi,
      functionName: 'getRoot',
      args: [BigInt(group)],
    })) as Hex;
    return BigInt(root);
  }

  /**
   * The outbox roots of an epoch as of an L1 block (index k: the root proven for the first k + 1
   * checkpoints; 0 where none).
   */
  async outboxEpochRoots(epoch: number, atL1Block: bigint): Promise<bigint[]> {
    const roots = (await this.client.readContract({
      address: this.l1.addresses.outboxAddress,
      abi: artifacts.Outbox.abi,
      functionName: 'getEpochRoots',
      args: [BigInt(epoch)],
      blockNumber: atL1Block,
    })) as readonly Hex[];
    return roots.map((r) => BigInt(r));
  }

  private wallet(account: PrivateKeyAccount) {
    return createWalletClient({
      // A proposal's calldata holds the checkpoint body: hashing it to sign is not for this thread.
      account: signingOffThread(account),
      chain: l1Chain(this.l1.chainId, this.l1.rpcUrl),
      transport: http(this.l1.rpcUrl),
    });
  }

  /** Sends a message to an L2 contract through the inbox; resolves with the L1 tx hash once sent. */
  async sendL2Message(
    sender: PrivateKeyAccount,
    message: { recipient: bigint; rollupVersion: number; content: bigint; secretHash: bigint },
  ): Promise<Hash> {
    return this.wallet(sender).writeContract({
      address: this.l1.addresses.inboxAddress,
      abi: artifacts.Inbox.abi,
      functionName: 'sendL2Message',
      args: [
        { actor: hex32(message.recipient), version: BigInt(message.rollupVersion) },
        hex32(message.content),
        hex32(message.secretHash),
      ],
    });
  }

  /** Approves the portal and deposits L1 Fee Juice for an L2 address; resolves with the deposit's tx hash. */
  async depositFeeJuice(
    sender: PrivateKeyAccount,
    deposit: { to: bigint; amount: bigint; secretHash: bigint },
  ): Promise<Hash> {
    const wallet = this.wallet(sender);
    const approve = await wallet.writeContract({
      address: this.l1.addresses.feeJuiceAddress,
      abi: artifacts.FeeJuice.abi,
      functionName: 'approve',
      args: [this.l1.addresses.feeJuicePortalAddress, deposit.amount],
    });
    return wallet.writeContract({
      address: this.l1.addresses.feeJuicePortalAddress,
      abi: artifacts.FeeJuicePortal.abi,
      functionName: 'deposit',
      args: [hex32(deposit.to), deposit.amount, hex32(deposit.secretHash)],
      // Sent right after the approval, which is still pending: no gas estimate against it.
      gas: 300_000n,
      nonce: (await this.client.getTransaction({ hash: approve })).nonce + 1,
    });
  }

  /** Sends a proposal; resolves with its transaction hash once sent (see waitFor). */
  async propose(publisher: PrivateKeyAccount, request: ProposeRequest): Promise<Hash> {
    return this.wallet(publisher).writeContract({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      functionName: 'propose',
      args: [
        {
          checkpointNumber: BigInt(request.checkpointNumber),
          slot: BigInt(request.slot),
          archive: hex32(request.archive),
          headerHash: hex32(request.headerHash),
          totalManaUsed: request.totalManaUsed,
          outHash: hex32(request.outHash),
          inHash: hex32(request.inHash),
        },
        request.attestations,
        `0x${Buffer.from(request.body).toString('hex')}`,
      ],
    });
  }

  /** Whether the unproven checkpoints will be pruned by an L1 block at `timestamp`. */
  async canPruneAtTime(timestamp: bigint): Promise<boolean> {
    return this.read<boolean>('canPruneAtTime', [timestamp]);
  }

  /** Prunes the unproven checkpoints whose proof window has passed (anyone may). */
  async prune(sender: PrivateKeyAccount): Promise<Hash> {
    return this.wallet(sender).writeContract({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      functionName: 'prune',
    });
  }

  async submitEpochProof(
    prover: PrivateKeyAccount,
    epoch: number,
    fromCheckpoint: number,
    toCheckpoint: number,
    outHash: bigint,
    proof: Hex,
  ): Promise<Hash> {
    return this.wallet(prover).writeContract({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      functionName: 'submitEpochProof',
      args: [BigInt(epoch), BigInt(fromCheckpoint), BigInt(toCheckpoint), hex32(outHash), proof],
    });
  }

  waitFor(hash: Hash): Promise<TransactionReceipt> {
    return this.client.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 60_000 });
  }

  async checkpointProposedEvents(fromBlock: bigint, toBlock: bigint): Promise<CheckpointProposedEvent[]> {
    const logs = await this.client.getContractEvents({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      eventName: 'CheckpointProposed',
      fromBlock,
      toBlock,
    });
    return logs.map((log) => {
      const args = log.args as { checkpointNumber: bigint; archive: Hex; headerHash: Hex; slot: bigint };
      return {
        checkpointNumber: Number(args.checkpointNumber),
        archive: BigInt(args.archive),
        headerHash: BigInt(args.headerHash),
        slot: Number(args.slot),
        l1BlockNumber: log.blockNumber,
        l1BlockHash: log.blockHash,
        txHash: log.transactionHash,
        logIndex: log.logIndex,
      };
    });
  }

  async epochProvenEvents(fromBlock: bigint, toBlock: bigint): Promise<EpochProvenEvent[]> {
    const logs = await this.client.getContractEvents({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      eventName: 'EpochProven',
      fromBlock,
      toBlock,
    });
    return logs.map((log) => {
      const a = log.args as { epoch: bigint; fromCheckpoint: bigint; toCheckpoint: bigint; outHash: Hex };
      return {
        epoch: Number(a.epoch),
        fromCheckpoint: Number(a.fromCheckpoint),
        toCheckpoint: Number(a.toCheckpoint),
        outHash: BigInt(a.outHash),
        l1BlockNumber: log.blockNumber,
        logIndex: log.logIndex,
      };
    });
  }

  async checkpointsPrunedEvents(fromBlock: bigint, toBlock: bigint): Promise<CheckpointsPrunedEvent[]> {
    const logs = await this.client.getContractEvents({
      address: this.rollup,
      abi: artifacts.Rollup.abi,
      eventName: 'CheckpointsPruned',
      fromBlock,
      toBlock,
    });
    return logs.map((log) => {
      const a = log.args as { fromCheckpoint: bigint; toCheckpoint: bigint };
      return {
        fromCheckpoint: Number(a.fromCheckpoint),
        toCheckpoint: Number(a.toCheckpoint),
        l1BlockNumber: log.blockNumber,
        logIndex: log.logIndex,
      };
    });
  }

  /** The checkpoint body and attestations carried in a proposal's calldata. */
  async proposal(txHash: Hash): Promise<{ body: Uint8Array; attestations: Hex[] }> {
    const tx = await this.client.getTransaction({ hash: txHash });
    const call = decodeFunctionData({ abi: artifacts.Rollup.abi, data: tx.input });
    if (call.functionName !== 'propose') throw new Error(`transaction ${txHash} is not a proposal`);
    return {
      body: Buffer.from((call.args[2] as Hex).slice(2), 'hex'),
      attestations: [...(call.args[1] as Hex[])],
    };
  }

  /** Messages sent to the inbox in a range of L1 blocks: each leaf with its global index. */
  async messageSentEvents(fromBlock: bigint, toBlock: bigint): Promise<MessageSentEvent[]> {
    const logs = await this.client.getContractEvents({
      address: this.l1.addresses.inboxAddress,
      abi: artifacts.Inbox.abi,
      eventName: 'MessageSent',
      fromBlock,
      toBlock,
    });
    return logs.map((log) => messageSentEvent(log.args, log.blockNumber));
  }

  /** The L1-to-L2 messages of checkpoint n's inbox group, in index order. */
  async l1ToL2Messages(checkpointNumber: number, fromBlock = 0n): Promise<bigint[]> {
    const logs = await this.client.getContractEvents({
      address: this.l1.addresses.inboxAddress,
      abi: artifacts.Inbox.abi,
      eventName: 'MessageSent',
      args: { checkpointNumber: BigInt(checkpointNumber) },
      fromBlock,
      toBlock: 'latest',
    });
    return logs
      .map((log) => log.args as { index: bigint; hash: Hex })
      .sort((a, b) => (a.index < b.index ? -1 : 1))
      .map((a) => BigInt(a.hash));
  }

  /** The fee model's parameters, fixed at deployment. */
  async feeModelParams(): Promise<{ manaTarget: bigint; provingCostPerMana: bigint }> {
    const [manaTarget, provingCostPerMana] = await Promise.all([
      this.read<bigint>('getManaTarget'),
      this.read<bigint>('getProvingCostPerMana'),
    ]);
    return { manaTarget, provingCostPerMana };
  }

  /** The excess mana the next checkpoint will record. */
  nextExcessMana(): Promise<bigint> {
    return this.read<bigint>('getNextExcessMana');
  }

  /** The base fee and blob base fee of the latest L1 block (what a proposal would pay now). */
  async l1Fees(): Promise<{ baseFee: bigint; blobFee: bigint }> {
    const [block, blobFee] = await Promise.all([
      this.client.getBlock({ blockTag: 'latest' }),
      this.client.getBlobBaseFee(),
    ]);
    return { baseFee: block.baseFeePerGas ?? 0n, blobFee };
  }

  /** The latest L1 block. */
  async latestL1Block(): Promise<{ number: bigint; hash: Hash; timestamp: bigint }> {
    const block = await this.client.getBlock({ blockTag: 'latest' });
    return { number: block.number, hash: block.hash, timestamp: block.timestamp };
  }

  /** An L1 block, or undefined when L1 has no block with that number (any more). */
  async l1BlockIfAny(number: bigint): Promise<{ number: bigint; hash: Hash; timestamp: bigint } | undefined> {
    // viem caches the block number for its polling interval; a stale one would look like a reorg.
    const latest = await this.client.getBlockNumber({ cacheTime: 0 });
    return number > latest ? undefined : this.l1Block(number);
  }

  async l1Block(number: bigint): Promise<{ number: bigint; hash: Hash; timestamp: bigint }> {
    const block = await this.client.getBlock({ blockNumber: number });
    return { number: block.number, hash: block.hash, timestamp: block.timestamp };
  }
}
