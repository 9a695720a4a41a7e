// The first-task commands against a real node: cairn status, block, balance, receipt and
// tx --send --wait, with the node's URL from CAIRN_RPC_URL; and the one line a command prints when
// no node answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devAccounts } from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import { type CairnProcess, runCairn, slotStepper, startCairn } from '../helpers/process.js';

describe('cairn status, block, balance, receipt, tx --wait', () => {
  let node: CairnProcess;
  let env: NodeJS.ProcessEnv;
  let nextSlot: () => Promise<number>;

  before(async () => {
    node = await startCairn(['--clock', 'manual']);
    env = { CAIRN_RPC_URL: node.publicUrl };
    nextSlot = slotStepper(() => node);
  });
  after(async () => {
    await node?.stop();
  });

  test('tx --send --wait prints the hash, then the receipt once a block holds it', async () => {
    const sending = runCairn(['tx', '--note-hashes', '1', '--send', '--wait'], env, 60_000);
    // The tx is in the pool once the command prints its hash; then the next slot's block takes it.
    let block = 0;
    while (block === 0) {
      await new Promise((r) => setTimeout(r, 200));
      const pending = await runCairn(['status', '--json'], env);
      if (JSON.parse(pending.stdout).pendingTxs > 0) block = await nextSlot();
    }
    const sent = await sending;
    assert.equal(sent.code, 0, sent.stderr);
    const [hash, status] = sent.stdout.trim().split('\n');
    assert.match(hash!, /^0x[0-9a-f]{64}$/);
    // Proposed, or already checkpointed: the block's checkpoint lands on L1 within the slot.
    const mined = new RegExp(
      `^status {5}success in block ${block} \\((proposed|checkpointed)\\), fee [0-9.,]+ FJ \\((\\d+) base units\\)$`,
    );
    const fee = mined.exec(status!)?.[2];
    assert.ok(fee, status);

    const receipt = await runCairn(['receipt', hash!], env);
    const [txLine, statusLine] = receipt.stdout.trim().split('\n');
    assert.equal(txLine, `tx         ${hash}`);
    assert.equal(mined.exec(statusLine!)?.[2], fee, statusLine);
    const shown = await runCairn(['block', String(block)], env);
    assert.match(shown.stdout, new RegExp(`^block {6}${block} 0x[0-9a-f]{64}\\n`));
    assert.match(shown.stdout, /\ntxs {8}1\n/);
    assert.ok(shown.stdout.includes(`  ${hash} success, fee `), shown.stdout);
    assert.ok(shown.stdout.includes(` FJ (${fee} base units)\n`), shown.stdout);
  });

  test('status and balance', async () => {
    const status = await runCairn(['status'], env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^node {7}cairn \S+ at http:\/\/\S+ \(ready\)\n/);
    assert.match(status.stdout, /\nblocks {5}proposed \d+, checkpointed \d+, proven \d+, finalized \d+\n/);
    const account = devAccounts(4)[3]!.address;
    const byIndex = await runCairn(['balance', '3'], env);
    assert.equal(
      byIndex.stdout,
      `1,000,000 FJ (1000000000000000000000000 base units) at ${toHex32(account)}\n`,
    );
    const json = JSON.parse((await runCairn(['balance', toHex32(account), '--json'], env)).stdout);
    assert.deepEqual(json, { address: toHex32(account), feeJuice: '1000000000000000000000000' });
    const nobody = await runCairn(['balance', '0x1234'], env);
    assert.match(nobody.stdout, /^0 FJ \(0 base units\)/);
  });

  test('bad input and a node that does not answer: one line, exit code 1', async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['block', '999999'], env, /^cairn block: there is no block 999999 \(the latest is \d+\)\n$/],
      [['receipt', '0x12'], env, /^cairn receipt: expected a tx hash/],
      [['balance', 'someone'], env, /expected an address \(0x-hex\) or a dev account, N or account:N/],
      [
        ['status'],
        { CAIRN_RPC_URL: 'http://127.0.0.1:1' },
        /^cairn status: cannot reach the node at http:\/\/127\.0\.0\.1:1 — is it running\?/,
      ],
      [['tx', '--send'], { CAIRN_RPC_URL: 'http://127.0.0.1:1' }, /^cairn tx: cannot reach the node at/],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCairn(args, e);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  });
});

describe('cairn start --clock instant', () => {
  let node: CairnProcess;
  before(async () => {
    node = await startCairn(['--clock', 'instant']);
  });
  after(async () => {
    await node?.stop();
  });

  test('a tx is in a block as soon as it is sent, with no L1 time moved by hand', async () => {
    const env = { CAIRN_RPC_URL: node.publicUrl };
    for (const expected of [1, 2]) {
      const sent = await runCairn(['tx', '--nullifiers', '1', '--send', '--wait'], env, 60_000);
      assert.equal(sent.code, 0, sent.stderr);
      assert.match(sent.stdout, new RegExp(`\\nstatus {5}success in block ${expected} `));
    }
    // Txs sent together share the next block(s); none is left pending.
    const burst = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        runCairn(['tx', '--account', String(i), '--note-hashes', '1', '--send', '--wait'], env, 60_000),
      ),
    );
    for (const r of burst) assert.match(r.stdout, /\nstatus {5}success in block \d+ /, r.stderr);
    const status = JSON.parse((await runCairn(['status', '--json'], env)).stdout);
    assert.equal(status.pendingTxs, 0);
    assert.ok(
      status.tips.proposed.number >= 3 && status.tips.proposed.number <= 6,
      `${status.tips.proposed.number} blocks`,
    );
  });
});
