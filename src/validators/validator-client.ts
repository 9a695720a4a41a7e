// The node's part in consensus. As proposer (through the sequencer) it announces each block it
// builds and the checkpoint, signs with its own committee members and gathers the others'
// attestations from the network until the rollup's quorum is met. As attester it checks a
// peer's checkpoint proposal — it must extend this node's checkpointed chain and its blocks must
// re-execute to the proposed archive — keeps the blocks as proposed blocks, and signs with its
// validators that sit on the slot's committee. Every message from a peer is checked against the
// committee before it enters the pool; equivocations become slashing offenses.
import type { Logger } from 'pino';
import { type Hex, keccak256 } from 'viem';
import type { ChainReader, ProposedBlocks } from '../archiver/chain-reader.js';
import type { L2Block } from '../core/block.js';
import { checkpointHeaderHash } from '../core/block-header.js';
import { decodeCheckpointBody, verifyCheckpointBody } from '../core/checkpoint-body.js';
import { toHex32 } from '../core/field.js';
import { epochOfSlot, type L1RollupConstants, slotAt } from '../core/time.js';
import type { InboxL1 } from '../l1/roles.js';
import type { GossipVerdict } from '../p2p/network.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import type { AttestationPool } from './attestation-pool.js';
import {
  attestationDigest,
  blockProposalDigest,
  type CommitteeView,
  type Domain,
  quorum,
  signDigest,
  signerOf,
} from './committee.js';
import type { Validator } from './keystore.js';
import {
  type CheckpointAttestation,
  type CheckpointProposal,
  decodeAttestation,
  decodeBlockProposal,
  decodeCheckpointProposal,
  encodeAttestation,
  encodeBlockProposal,
  encodeCheckpointProposal,
  MessageError,
  TOPICS,
} from './messages.js';
import type { SigningRecord } from './signing-record.js';
import type { EquivocationWatcher, Offense, OffenseStore } from './slashing.js';

/** How far (in slots) from the current slot a peer's message may be and still count. */
const SLOT_TOLERANCE = 2;
/** Slots of signing history (slashing protection) and of seen messages (equivocation) kept. */
export const RECENT_SLOTS = 64;
/** How often the proposer looks at the pool while it waits for attestations. */
const ATTESTATION_POLL_MS = 25;

export interface Gossip {
  publish(name: string, data: Uint8Array): Promise<number>;
  /** Holds the validation of gossiped txs until the returned release is called. */
  holdBulk(): () => void;
}

export interface ValidatorClientOptions {
  domain: Domain;
  committee: CommitteeView;
  pool: AttestationPool;
  equivocation: EquivocationWatcher;
  offenses: OffenseStore;
  /** Slashing protection: what each local validator signed in recent slots, kept on disk. */
  signingRecord: SigningRecord;
  chain: ChainReader;
  /** Where accepted proposed blocks go (the archiver, the chain store's only writer). */
  proposedBlocks: ProposedBlocks;
  /** Read only: proposals are re-executed and stored by the archiver (replayProposedBlock). */
  worldState: ReadableWorldState;
  rollup: InboxL1;
  constants: L1RollupConstants;
  /** The keystore's validators in use (they change with a keystore reload). */
  validators: () => readonly Validator[];
  /** The P2P network; none when P2P is off (only local validators sign then). */
  network?: Gossip | undefined;
  /** Asks for a chain pass soon (a checkpoint proposal arrived: sync, then attest). */
  requestPass: () => void;
  logger: Logger;
}

export interface CheckpointToAttest {
  checkpointNumber: number;
  slot: number;
  archive: bigint;
  headerHash: bigint;
  header: CheckpointProposal['header'];
  body: Uint8Array;
  proposer: Validator;
  committee: readonly string[];
  /** Date.now() after which the proposer stops waiting. */
  deadline: number;
}

export class ValidatorClient {
  /** Checkpoint proposals (digest and body hash) already attested or found invalid. */
  private readonly handled = new Set<string>();
  /** When checkpoint proposals from peers arrived (digest and body hash), until attested. */
  private readonly arrivedAt = new Map<string, number>();
  /** The current slot, from the latest L1 block seen in a pass. */
  private currentSlot = 0;

  constructor(private readonly o: ValidatorClientOptions) {}

  private local(address: string): Validator | undefined {
    return this.o.validators().find((v) => v.attester.address.toLowerCase() === address);
  }

  private async publish(topic: string, data: Uint8Array): Promise<void> {
    if (this.o.network === undefined) return;
    try {
      await this.o.network.publish(topic, data);
    } catch (err) {
      this.o.logger.warn(`gossip on ${topic} failed: ${(err as Error).message}`);
    }
  }

  private recordOffense(offense: Offense | undefined, what: string): void {
    if (offense === undefined) return;
    if (this.o.offenses.add(offense))
      this.o.logger.warn(`slashing offense: ${offense.validator} ${what} in slot ${offense.epochOrSlot}`);
  }

  /**
   * Signs `digest` for `attester` unless it signed another digest in this slot (double signing
   * is slashable); the signing record is on disk before the signature exists.
   */
  private async signOnce(attester: Validator, slot: number, digest: Hex): Promise<Hex | undefined> {
    const address = attester.attester.address.toLowerCase();
    if (!this.o.signingRecord.claim(address, slot, digest)) {
      this.o.logger.warn(
        `${address} already signed another checkpoint in slot ${slot}: not signing a second`,
      );
      return undefined;
    }
    return signDigest(attester.attester, digest);
  }

  // ---- proposer side (the sequencer) --------------------------------------------------------

  /** Announces a block of the slot's checkpoint. */
  async announceBlock(block: L2Block, slot: number, proposer: Validator): Promise<void> {
    const payload = {
      slot,
      indexWithinCheckpoint: block.indexWithinCheckpoint,
      blockHash: block.hash,
      archive: block.archive.root,
    };
    const digest = blockProposalDigest(this.o.domain, payload);
    const proposal = {
      slot,
      checkpointNumber: block.checkpointNumber,
      indexWithinCheckpoint: block.indexWithinCheckpoint,
      blockNumber: block.number,
      blockHash: block.hash,
      archiveRoot: block.archive.root,
      txHashes: block.body.txEffects.map((e) => e.txHash),
      signature: await signDigest(proposer.attester, digest),
    };
    this.o.pool.addBlockProposal({ ...proposal, digest, proposer: proposer.attester.address.toLowerCase() });
    await this.publish(TOPICS.blockProposal, encodeBlockProposal(proposal));
  }

  /**
   * Announces the checkpoint and gathers attestations: the proposer's and its node's other
   * committee members' at once, the rest from the network until a quorum or the deadline.
   * Returns one entry per committee member in committee order ('0x' for none), or undefined
   * when too few signed in time.
   */
  /** Holds bulk gossip (txs) while consensus work with a deadline runs; nothing without P2P. */
  holdBulkWork(): () => void {
    return this.o.network?.holdBulk() ?? (() => {});
  }

  async gatherAttestations(c: CheckpointToAttest): Promise<Hex[] | undefined> {
    const { pool, logger } = this.o;
    const digest = attestationDigest(this.o.domain, c);
    const proposerAddress = c.proposer.attester.address.toLowerCase();
    const started = Date.now();
    const proposerSignature = await this.signOnce(c.proposer, c.slot, digest);
    if (proposerSignature === undefined) return undefined;
    const proposal: CheckpointProposal = {
      checkpointNumber: c.checkpointNumber,
      slot: c.slot,
      archive: c.archive,
      headerHash: c.headerHash,
      header: c.header,
      body: c.body,
      signature: proposerSignature,
    };
    const bodyHash = keccak256(c.body);
    pool.addCheckpointProposal({ ...proposal, digest, proposer: proposerAddress, bodyHash });
    this.handled.add(digest + bodyHash);
    await this.publish(TOPICS.checkpointProposal, encodeCheckpointProposal(proposal));
    for (const member of c.committee) {
      const v = this.local(member);
      if (v === undefined) continue;
      await this.attestWith(v, proposal, digest, proposerSignature);
    }
    const needed = quorum(c.committee.length);
    const count = () => {
      const signatures = pool.signatures(c.slot, digest);
      return c.committee.filter((m) => signatures.has(m)).length;
    };
    while (count() < needed && Date.now() < c.deadline && this.o.network !== undefined) {
      await new Promise((r) => setTimeout(r, ATTESTATION_POLL_MS));
    }
    const signatures = pool.signatures(c.slot, digest);
    const signed = c.committee.filter((m) => signatures.has(m)).length;
    if (signed < needed) {
      logger.warn(
        `checkpoint ${c.checkpointNumber} (slot ${c.slot}): ${signed} of ${c.committee.length} committee members attested within ${Date.now() - started} ms, ${needed} needed: not publishing`,
      );
      return undefined;
    }
    return c.committee.map((m) => signatures.get(m) ?? '0x');
  }

  private async attestWith(
    v: Validator,
    proposal: CheckpointProposal,
    digest: Hex,
    proposerSignature: `0x${string}`,
  ): Promise<void> {
    const signature = await this.signOnce(v, proposal.slot, digest);
    if (signature === undefined) return;
    const attestation: CheckpointAttestation = {
      checkpointNumber: proposal.checkpointNumber,
      slot: proposal.slot,
      archive: proposal.archive,
      headerHash: proposal.headerHash,
      header: proposal.header,
      signature,
      proposerSignature,
    };
    this.o.pool.addAttestation({ ...attestation, digest, attester: v.attester.address.toLowerCase() });
    await this.publish(TOPICS.attestation, encodeAttestation(attestation));
  }

  // ---- messages from peers ------------------------------------------------------------------

  private inWindow(slot: number): boolean {
    return Math.abs(slot - this.currentSlot) <= SLOT_TOLERANCE;
  }

  /** Runs a handler, turning malformed input into 'reject' (and never throwing). */
  private async guard(what: string, from: string, fn: () => Promise<GossipVerdict>): Promise<GossipVerdict> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof MessageError) {
        this.o.logger.debug(`${what} from ${from} rejected: ${err.message}`);
        return 'reject';
      }
      this.o.logger.warn(`${what} from ${from} not handled: ${(err as Error).message}`);
      return 'ignore';
    }
  }

  onBlockProposal(bytes: Uint8Array, from: string): Promise<GossipVerdict> {
    return this.guard('block proposal', from, async () => {
      const p = decodeBlockProposal(bytes);
      if (!this.inWindow(p.slot)) return 'ignore';
      const digest = blockProposalDigest(this.o.domain, {
        slot: p.slot,
        indexWithinCheckpoint: p.indexWithinCheckpoint,
        blockHash: p.blockHash,
        archive: p.archiveRoot,
      });
      const signer = await signerOf(digest, p.signature);
      if (signer === undefined || signer !== (await this.o.committee.proposer(p.slot))) return 'reject';
      this.recordOffense(
        this.o.equivocation.seeProposal({
          slot: p.slot,
          position: p.indexWithinCheckpoint,
          signer,
          payloadHash: digest,
        }),
        'proposed two different blocks',
      );
      return this.o.pool.addBlockProposal({ ...p, digest, proposer: signer }) === 'added'
        ? 'accept'
        : 'ignore';
    });
  }

  onCheckpointProposal(bytes: Uint8Array, from: string): Promise<GossipVerdict> {
    return this.guard('checkpoint proposal', from, async () => {
      const p = decodeCheckpointProposal(bytes);
      if (!this.inWindow(p.slot)) return 'ignore';
      const digest = attestationDigest(this.o.domain, p);
      const signer = await signerOf(digest, p.signature);
      if (signer === undefined || signer !== (await this.o.committee.proposer(p.slot))) return 'reject';
      this.recordOffense(
        this.o.equivocation.seeProposal({
          slot: p.slot,
          position: 'checkpoint',
          signer,
          payloadHash: digest,
        }),
        'proposed two different checkpoints',
      );
      const added = this.o.pool.addCheckpointProposal({
        ...p,
        digest,
        proposer: signer,
        bodyHash: keccak256(p.body),
      });
      if (added !== 'added') return 'ignore';
      this.arrivedAt.set(digest + keccak256(p.body), Date.now());
      this.o.logger.debug(`checkpoint ${p.checkpointNumber} of slot ${p.slot} proposed by ${signer}`);
      this.o.requestPass();
      return 'accept';
    });
  }

  onAttestation(bytes: Uint8Array, from: string): Promise<GossipVerdict> {
    return this.guard('attestation', from, async () => {
      const a = decodeAttestation(bytes);
      if (!this.inWindow(a.slot)) return 'ignore';
      if (checkpointHeaderHash(a.header) !== a.headerHash) return 'reject';
      const digest = attestationDigest(this.o.domain, a);
      const [attester, proposer] = await Promise.all([
        signerOf(digest, a.signature),
        signerOf(digest, a.proposerSignature),
      ]);
      const committee = await this.o.committee.committee(epochOfSlot(a.slot, this.o.constants));
      if (attester === undefined || !committee.includes(attester)) return 'reject';
      if (proposer === undefined || proposer !== (await this.o.committee.proposer(a.slot))) return 'reject';
      this.recordOffense(
        this.o.equivocation.seeAttestation({ slot: a.slot, attester, payloadHash: digest }),
        'attested two different checkpoints',
      );
      return this.o.pool.addAttestation({ ...a, digest, attester }) === 'added' ? 'accept' : 'ignore';
    });
  }

  // ---- attester side (in the chain pass) ----------------------------------------------------

  /**
   * After the archiver's sync: attests the current slot's checkpoint proposals this node's
   * validators are asked to attest, once the node's chain has caught up with them.
   */
  async attestPending(now: bigint): Promise<void> {
    this.currentSlot = slotAt(now, this.o.constants);
    this.o.pool.prune(this.currentSlot);
    this.o.equivocation.prune(this.currentSlot - RECENT_SLOTS);
    for (const slot of [this.currentSlot, this.currentSlot + 1]) {
      for (const proposal of this.o.pool.checkpointProposals(slot)) {
        const id = proposal.digest + proposal.bodyHash;
        if (this.handled.has(id)) continue;
        const committee = await this.o.committee.committee(epochOfSlot(slot, this.o.constants));
        const ours = committee.map((m) => this.local(m)).filter((v): v is Validator => v !== undefined);
        if (ours.length === 0) {
          this.handled.add(id);
          continue;
        }
        let verdict: Awaited<ReturnType<ValidatorClient['check']>>;
        const checkStart = Date.now();
        // The proposer waits for our attestation until its deadline: txs from peers wait for us.
        const release = this.holdBulkWork();
        try {
          verdict = await this.check(proposal);
        } catch (err) {
          // One bad proposal must not end the pass (the sequencer, prover and monitor follow).
          verdict = { invalid: `checking it failed: ${(err as Error).message}` };
        } finally {
          release();
        }
        if (verdict === 'wait') continue;
        this.handled.add(id);
        if (verdict !== 'valid') {
          this.o.logger.warn(
            `not attesting checkpoint ${proposal.checkpointNumber} of slot ${slot} from ${proposal.proposer}: ${verdict.invalid}`,
          );
          continue;
        }
        for (const v of ours) await this.attestWith(v, proposal, proposal.digest, proposal.signature);
        // How long the proposer waited for us, and how much of that was checking it: a late
        // attestation costs the slot its quorum.
        const arrived = this.arrivedAt.get(id);
        this.arrivedAt.delete(id);
        const timing =
          arrived === undefined
            ? ''
            : ` ${Date.now() - arrived} ms after it arrived (checked in ${Date.now() - checkStart} ms)`;
        this.o.logger.info(
          `attested checkpoint ${proposal.checkpointNumber} (slot ${slot}) with ${ours.length} validator(s)${timing}`,
        );
      }
    }
    if (this.handled.size > 1024) this.handled.clear();
    if (this.arrivedAt.size > 1024) this.arrivedAt.clear();
  }

  /**
   * Checks a proposal against this node's chain and, when it holds, keeps its blocks as
   * proposed blocks. 'wait' when the chain is not there yet (the previous checkpoint is not synced).
   */
  private async check(
    p: CheckpointProposal & { digest: Hex },
  ): Promise<'valid' | 'wait' | { invalid: string }> {
    const { chain, proposedBlocks, rollup } = this.o;
    const latest = chain.latestCheckpointNumber;
    if (p.checkpointNumber > latest + 1) return 'wait';
    if (p.checkpointNumber <= latest) return { invalid: `checkpoint ${p.checkpointNumber} is already on L1` };
    const base = chain.getTips().checkpointed.block.number;
    let body: ReturnType<typeof decodeCheckpointBody>;
    try {
      body = decodeCheckpointBody(p.body);
      verifyCheckpointBody(body, {
        checkpointNumber: p.checkpointNumber,
        slot: p.slot,
        headerHash: p.headerHash,
        archive: p.archive,
        previousArchive: chain.getBlock(base)!.archive,
      });
    } catch (err) {
      return { invalid: (err as Error).message };
    }
    const ownBlocks = chain.getBlock(base + 1);
    if (ownBlocks !== undefined && ownBlocks.header.globalVariables.slotNumber >= p.slot) {
      // This node already holds proposed blocks of this slot (these, or a rival proposal's).
      const same = body.blocks.every((b) => chain.getBlock(b.number)?.hash === b.hash);
      return same ? 'valid' : { invalid: 'it conflicts with blocks already proposed in this slot' };
    }
    // Proposed blocks of earlier slots never made it into a checkpoint.
    await proposedBlocks.dropUncheckpointedBlocks();
    const messages = await rollup.l1ToL2Messages(p.checkpointNumber);
    for (const [i, block] of body.blocks.entries()) {
      let replayed: boolean;
      try {
        replayed = await proposedBlocks.replayProposedBlock(
          block,
          { checkpointNumber: p.checkpointNumber, indexWithinCheckpoint: i },
          i === 0
            ? { l1ToL2Messages: messages }
            : { previousSponge: body.blocks[i - 1]!.header.spongeBlobHash },
        );
      } catch (err) {
        await proposedBlocks.dropUncheckpointedBlocks();
        return { invalid: `block ${block.number} does not re-execute: ${(err as Error).message}` };
      }
      if (!replayed) {
        await proposedBlocks.dropUncheckpointedBlocks();
        return {
          invalid: `block ${block.number} does not re-execute to its header (${toHex32(block.hash)})`,
        };
      }
    }
    return 'valid';
  }
}
