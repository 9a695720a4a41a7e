// End to end: Ctrl-C in a terminal sends SIGINT to the node's whole process group, its embedded
// L1 included. Twenty times, at a random moment while txs are being sent and built, the group gets
// SIGINT; each time the node must exit 0 having saved its L1 and closed its stores, and after the
// restart every block, receipt and balance it reported on L1 before the signal is unchanged.
// Before the embedded anvil ran in a session of its own it died with the node's group, the
// node's final save failed ('fetch failed') and the restart rolled L1 back.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { FAST_REALTIME, type GroupNode, startInGroup } from '../helpers/node-in-group.js';
import { result } from '../helpers/rpc.js';

const ROUNDS = Number(process.env.CAIRN_CTRL_C_ROUNDS ?? 20);
const accounts = devAccounts(4).map((a) => a.address);
const CHAIN = FAST_REALTIME;
const ON_L1 = new Set(['checkpointed', 'proven', 'finalized']);

interface Reported {
  /** Block number -> hash, for blocks in checkpoints on L1. */
  blocks: Map<number, string>;
  /** Tx hash -> its receipt, once on L1. */
  receipts: Map<string, { blockNumber: number; blockHash: string; transactionFee: string }>;
  /** `block:account` -> Fee Juice balance at that block. */
  balances: Map<string, bigint>;
  /** Txs the node accepted. */
  accepted: Set<string>;
}

describe('Ctrl-C (SIGINT to the process group) at random moments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-ctrl-c-'));
  const dataDir = join(dir, 'data');
  let node: GroupNode | undefined;
  after(async () => {
    // A clean stop: a SIGKILL to the group would leave the node's anvil (in a session of its own) running.
    await node?.signalGroup('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test(`${ROUNDS} Ctrl-Cs, a hang-up and a SIGTERM lose nothing that was reported on L1`, {
    timeout: (ROUNDS + 2) * 60_000,
  }, async () => {
    const reported: Reported = {
      blocks: new Map(),
      receipts: new Map(),
      balances: new Map(),
      accepted: new Set(),
    };
    let sent = 0;
    // Ctrl-C (SIGINT to the group) each round; then a closed terminal (SIGHUP to the group) and a
    // service manager's stop (SIGTERM to the node alone).
    const stops: { signal: NodeJS.Signals; group: boolean }[] = [
      ...Array.from({ length: ROUNDS }, () => ({ signal: 'SIGINT' as const, group: true })),
      { signal: 'SIGHUP', group: true },
      { signal: 'SIGTERM', group: false },
    ];
    for (const [round, stop] of stops.entries()) {
      node = await startInGroup(dataDir, CHAIN);
      const n = node;
      const pub = (m: string, p?: unknown) => result(n.publicUrl, m, p) as Promise<any>;
      await checkUnchanged(pub, reported, round);

      // Txs in flight until the signal, and what the node reports meanwhile.
      let signalled = false;
      const client = new NodeClient(n.publicUrl);
      const load = (async () => {
        while (!signalled) {
          try {
            const tx = await prepareTx(client, {
              feePayer: accounts[sent % accounts.length]!,
              noteHashes: [randomFr()],
              maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: BigInt(sent % 5) },
            });
            await client.sendTx(tx.tx);
            reported.accepted.add(tx.hash);
            sent++;
          } catch {
            // the node is stopping
          }
          await sleep(150);
        }
      })();
      const stopAt = Date.now() + 300 + Math.floor(Math.random() * 4200);
      while (Date.now() < stopAt) {
        try {
          await observe(pub, reported);
        } catch {
          // a read can race a block being replaced
        }
        await sleep(200);
      }
      if (!stop.group) n.child.kill(stop.signal);
      const code = stop.group ? await n.signalGroup(stop.signal) : await n.exited;
      signalled = true;
      await load;
      const out = n.output();
      assert.equal(code, 0, `round ${round} (${stop.signal}): exit code\n${out.slice(-3000)}`);
      assert.match(out, /node stopped/, `round ${round}: the node closed its stores`);
      assert.doesNotMatch(out, /could not save the embedded L1/, `round ${round}`);
      assert.doesNotMatch(out, /embedded L1 \(anvil\) (was killed|exited)/, `round ${round}`);
      assert.equal(
        existsSync(join(dataDir, 'l1', 'anvil.pid')),
        false,
        `round ${round}: anvil stopped by the node`,
      );
    }
    node = await startInGroup(dataDir, CHAIN);
    const last = node;
    await checkUnchanged((m, p) => result(last.publicUrl, m, p) as Promise<any>, reported, stops.length);
    assert.ok(reported.receipts.size > 0, `some txs reached L1 (${reported.accepted.size} accepted)`);
  });
});

describe('Ctrl-C to a pipeline (`npm start | tee log`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-ctrl-c-pipe-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the reader ends first; the node still stops cleanly and exits 0', async () => {
    const dataDir = join(dir, 'data');
    const node = await startInGroup(dataDir, ['--log-format', 'pretty']);
    // tee ends with the same Ctrl-C: the node's output has no reader any more.
    node.child.stdout?.destroy();
    node.child.stderr?.destroy();
    assert.equal(await node.signalGroup('SIGINT'), 0);
    const l1 = join(dataDir, 'l1');
    assert.equal(existsSync(join(l1, 'anvil.pid')), false, 'anvil stopped by the node');
    assert.equal(existsSync(join(l1, 'stopped-at')), true, 'the L1 saved and stopped');
    assert.equal(existsSync(join(dataDir, 'cairn.lock')), false, 'the data directory released');
  });
});

/** Records the blocks, receipts and balances the node reports as on L1. */
async function observe(pub: (m: string, p?: unknown) => Promise<any>, reported: Reported): Promise<void> {
  const tips = await pub('svc_getChainTips');
  const top: number = tips.checkpointed.block.number;
  for (let b = 1; b <= top; b++) {
    if (reported.blocks.has(b)) continue;
    const block = await pub('svc_getBlock', [b]);
    if (block !== null) reported.blocks.set(b, block.hash);
  }
  for (const hash of reported.accepted) {
    if (reported.receipts.has(hash)) continue;
    const r = await pub('svc_getTxReceipt', [hash]);
    if (ON_L1.has(r.status) && r.blockNumber <= top)
      reported.receipts.set(hash, {
        blockNumber: r.blockNumber,
        blockHash: r.blockHash,
        transactionFee: r.transactionFee,
      });
  }
  for (const account of accounts) {
    const key = `${top}:${account}`;
    if (top === 0 || reported.balances.has(key)) continue;
    reported.balances.set(key, await balanceAt(pub, top, account));
  }
}

async function balanceAt(pub: (m: string, p?: unknown) => Promise<any>, block: number, account: bigint) {
  const slot = mapStorageSlot(FEE_JUICE_BALANCES_SLOT, account);
  return BigInt(
    await pub('svc_getPublicStorageAt', [
      block,
      toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
      toHex32(slot),
    ]),
  );
}

async function checkUnchanged(
  pub: (m: string, p?: unknown) => Promise<any>,
  reported: Reported,
  round: number,
): Promise<void> {
  for (const [number, hash] of reported.blocks) {
    const block = await pub('svc_getBlock', [number]);
    assert.equal(block?.hash, hash, `after stop ${round}: block ${number} is as reported`);
  }
  for (const [hash, was] of reported.receipts) {
    const r = await pub('svc_getTxReceipt', [hash]);
    assert.ok(ON_L1.has(r.status), `after stop ${round}: tx ${hash} is ${r.status}`);
    assert.deepEqual(
      { blockNumber: r.blockNumber, blockHash: r.blockHash, transactionFee: r.transactionFee },
      was,
      `after stop ${round}: the receipt of ${hash} is as reported`,
    );
  }
  for (const [key, value] of reported.balances) {
    const [block, account] = key.split(':');
    assert.equal(
      await balanceAt(pub, Number(block), BigInt(account!)),
      value,
      `after stop ${round}: the balance of ${account} at block ${block} is as reported`,
    );
  }
}
