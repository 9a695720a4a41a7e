// Shared fixtures of the validator tests: deterministic validator keys, a checkpoint body of a
// real block, and an in-memory gossip network that carries what one node publishes to the
// handlers the others subscribed.
import { type Hex, keccak256, toHex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { L2Block } from '../../src/core/block.js';
import { type CheckpointHeader, emptyCheckpointHeader } from '../../src/core/block-header.js';
import { encodeCheckpointBody } from '../../src/core/checkpoint-body.js';
import type { GossipNetwork } from '../../src/node/consensus.js';
import type { GossipVerdict, StagedHandler } from '../../src/p2p/network.js';
import type { Validator } from '../../src/validators/keystore.js';
import type { Offense, OffenseType } from '../../src/validators/slashing.js';
import { emptyTxEffect, nextBlock, openTestWorldState } from '../helpers/test-chain.js';

/** The same keys on every run: `0x…` = keccak256("cairn-test/<tag>/<i>"). */
export function testKeys(n: number, tag = 'validator'): Hex[] {
  return Array.from({ length: n }, (_, i) => keccak256(toHex(`cairn-test/${tag}/${i}`)));
}

/** The accounts of testKeys. */
export function testAccounts(n: number, tag = 'validator'): PrivateKeyAccount[] {
  return testKeys(n, tag).map((key) => privateKeyToAccount(key));
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

/** One delivery: what was published on which topic by whom, and the receiver's verdict. */
export interface Delivery {
  topic: string;
  from: string;
  to: string;
  verdict: GossipVerdict;
}

type Subscribe = GossipNetwork['subscribe'];

/**
 * An in-memory gossip network in place of libp2p: each node joins it with the network its
 * composition root takes (StartContext.gossip), and what one node publishes reaches the handlers
 * every other connected node subscribed to the topic, asynchronously (as a network would). Txs
 * are not carried (`announce` reaches no one): each node takes the test's txs into its own mempool.
 */
export class GossipHub {
  private readonly nodes = new Map<
    string,
    { handlers: Map<string, StagedHandler<unknown>>; connected: boolean }
  >();
  readonly deliveries: Delivery[] = [];
  readonly published: { from: string; topic: string; data: Uint8Array }[] = [];
  /** Txs the nodes announced (delivered to no one). */
  readonly announced: { from: string; topic: string }[] = [];
  /** Per node, holds on its bulk gossip taken, and those not released yet. */
  readonly holds = new Map<string, { taken: number; open: number }>();
  private inFlight = new Set<Promise<void>>();

  /** Registers a node; its handlers are those its consensus parts subscribe. */
  join(name: string): GossipNetwork {
    const handlers = new Map<string, StagedHandler<unknown>>();
    this.nodes.set(name, { handlers, connected: true });
    const holds = { taken: 0, open: 0 };
    this.holds.set(name, holds);
    const subscribe: Subscribe = (topic, handler) => {
      handlers.set(
        topic,
        (typeof handler === 'function'
          ? { prepare: (data: Uint8Array) => data, handle: handler }
          : handler) as StagedHandler<unknown>,
      );
    };
    return {
      subscribe,
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
          const handler = peer.handlers.get(topic);
          if (other === name || !peer.connected || handler === undefined) continue;
          peers++;
          const p = new Promise<void>((resolve) => setImmediate(resolve))
            .then(() => handler.handle(handler.prepare(data), name))
            .then((verdict) => {
              this.deliveries.push({ topic, from: name, to: other, verdict });
            });
          this.inFlight.add(p);
          p.finally(() => this.inFlight.delete(p));
        }
        return peers;
      },
      announce: async (topic) => {
        this.announced.push({ from: name, topic });
        return 0;
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
