// Shared fixtures of the validator tests: deterministic validator keys, a checkpoint body of a
// real block, and an in-memory gossip hub that carries what one validator client publishes to
// the others' handlers.
import { type Hex, keccak256, toHex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { L2Block } from '../../src/core/block.js';
import { type CheckpointHeader, emptyCheckpointHeader } from '../../src/core/block-header.js';
import { encodeCheckpointBody } from '../../src/core/checkpoint-body.js';
import type { GossipVerdict } from '../../src/p2p/network.js';
import type { Validator } from '../../src/validators/keystore.js';
import { TOPICS } from '../../src/validators/messages.js';
import type { Offense, OffenseType } from '../../src/validators/slashing.js';
import type { Gossip, ValidatorClient } from '../../src/validators/validator-client.js';
import { emptyTxEffect, nextBlock, openTestWorldState } from '../helpers/test-chain.js';

/** The same keys on every run: `0x…` = keccak256("cairn-test/<tag>/<i>"). */
export function testAccounts(n: number, tag = 'validator'): PrivateKeyAccount[] {
  return Array.from({ length: n }, (_, i) => privateKeyToAccount(keccak256(toHex(`cairn-test/${tag}/${i}`))));
}

export const validatorOf = (account: PrivateKeyAccount): Validator => ({
  attester: account,
  publisher: account,
});

/** The validator (of these) whose attester address is `address` (any case). */
export function byAddress<T extends { address: string }>(accounts: readonly T[], address: string): T {
  const found = accounts.find((a) => a.address.toLowerCase() === address.toLowerCase());
  if (found === undefined) throw new Error(`no account ${address}`);
  return found;
}

/**
 * A checkpoint body of one real block (built on a fresh world state, two tx effects) in `slot`,
 * with its header, for codec tests that need encodeCheckpointBody output.
 */
export async function bodyFixture(slot = 5): Promise<{
  header: CheckpointHeader;
  blocks: L2Block[];
  body: Uint8Array;
}> {
  const ws = await openTestWorldState('cairn-validators-body-');
  try {
    const block = await nextBlock(
      ws.ws,
      [emptyTxEffect(0x101n, { noteHashes: [7n] }), emptyTxEffect(0x102n)],
      {
        slotNumber: slot,
        checkpointNumber: 1,
        indexWithinCheckpoint: 0,
      },
    );
    const header: CheckpointHeader = {
      ...emptyCheckpointHeader(),
      lastArchiveRoot: block.header.lastArchive.root,
      slotNumber: slot,
      timestamp: 1234n,
      coinbase: `0x${'ab'.repeat(20)}`,
      feeRecipient: 99n,
    };
    return { header, blocks: [block], body: encodeCheckpointBody({ header, blocks: [block] }) };
  } finally {
    await ws.close();
  }
}

type Handler = (bytes: Uint8Array, from: string) => Promise<GossipVerdict>;

/** One delivery: what was published on which topic by whom, and the receiver's verdict. */
export interface Delivery {
  topic: string;
  from: string;
  to: string;
  verdict: GossipVerdict;
}

/**
 * An in-memory gossip network: each node's `gossip` publishes to every other connected node,
 * delivered asynchronously (as a network would) to that node's validator client handler.
 */
export class GossipHub {
  private readonly nodes = new Map<string, { client: () => ValidatorClient; connected: boolean }>();
  readonly deliveries: Delivery[] = [];
  readonly published: { from: string; topic: string; data: Uint8Array }[] = [];
  /** Per node, holds on its bulk gossip taken, and those not released yet. */
  readonly holds = new Map<string, { taken: number; open: number }>();
  private inFlight = new Set<Promise<void>>();

  /** Registers a node (its client is bound late: it is built with this gossip). */
  join(name: string, client: () => ValidatorClient): Gossip {
    this.nodes.set(name, { client, connected: true });
    const holds = { taken: 0, open: 0 };
    this.holds.set(name, holds);
    return {
      holdBulk: () => {
        holds.taken++;
        holds.open++;
        let released = false;
        return () => {
          if (!released) holds.open--;
          released = true;
        };
      },
      publish: async (topic, data) => {
        this.published.push({ from: name, topic, data });
        const node = this.nodes.get(name)!;
        if (!node.connected) return 0;
        let peers = 0;
        for (const [other, peer] of this.nodes) {
          if (other === name || !peer.connected) continue;
          peers++;
          const p = new Promise<void>((resolve) => setImmediate(resolve))
            .then(() => handlerOf(peer.client(), topic)(data, name))
            .then((verdict) => {
              this.deliveries.push({ topic, from: name, to: other, verdict });
            });
          this.inFlight.add(p);
          p.finally(() => this.inFlight.delete(p));
        }
        return peers;
      },
    };
  }

  /** Cuts a node off (what it publishes goes nowhere, nothing reaches it) or reconnects it. */
  setConnected(name: string, connected: boolean): void {
    this.nodes.get(name)!.connected = connected;
  }

  /** Waits until every delivery under way (and those they cause) is done. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** What `from` published on `topic`, decoded with `decode`. */
  publishedBy<T>(from: string, topic: string, decode: (b: Uint8Array) => T): T[] {
    return this.published.filter((p) => p.from === from && p.topic === topic).map((p) => decode(p.data));
  }
}

function handlerOf(client: ValidatorClient, topic: string): Handler {
  switch (topic) {
    case TOPICS.blockProposal:
      return (b, f) => client.onBlockProposal(b, f);
    case TOPICS.checkpointProposal:
      return (b, f) => client.onCheckpointProposal(b, f);
    case TOPICS.attestation:
      return (b, f) => client.onAttestation(b, f);
    default:
      return async () => 'ignore';
  }
}

/** Hex of a signature with one byte changed (still 65 bytes). */
export function flipByte(signature: Hex, at = 10): Hex {
  const i = 2 + at * 2;
  const byte = Number.parseInt(signature.slice(i, i + 2), 16) ^ 0xff;
  return `${signature.slice(0, i)}${byte.toString(16).padStart(2, '0')}${signature.slice(i + 2)}` as Hex;
}

/** A readable test address: `0x` and twenty copies of the byte `hex` (e.g. 'aa'). */
export const repeatedAddress = (hex: string): string => `0x${hex.repeat(20)}`;

/** An address written in upper case (the same address to anything that compares case-blind). */
export const upperCase = (address: string): string => `0x${address.slice(2).toUpperCase()}`;

/** An offense with a small default amount. */
export const offenseOf = (
  validator: string,
  offenseType: OffenseType,
  epochOrSlot: bigint,
  amount = 10n,
): Offense => ({ validator, amount, offenseType, epochOrSlot });
