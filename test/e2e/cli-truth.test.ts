// The CLI tells the truth: a second node on a data directory says that first; a receipt of a tx
// the node does not know is not a success; commands waiting on a manual clock say how to move it;
// `l1 send-message` works on an instant clock; one rule for dev account numbers, the node's own;
// fees with their unit; the start banner in JSON logs is one readable line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { formatFeeJuice } from '../../src/cli/chain.js';
import { devAccounts } from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import {
  CAIRN_BIN,
  type CairnProcess,
  type RunResult,
  runCairn,
  slotStepper,
  startCairn,
} from '../helpers/process.js';
import { result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

/** Anvil's funded account 1: `l1 send-message` sends from it by default. */
const ANVIL_ACCOUNT_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-cli-truth-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `cairn <args>` in the background: its output so far, and its end. */
function background(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CAIRN_BIN, ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<RunResult>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  void done.then(() => clearTimeout(timer));
  return { stderr: () => stderr, done };
}

/** The JSON log records in a node's output. */
const records = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; facts?: Record<string, unknown> });

describe('a node with its own data directory, the manual clock and 12 dev accounts', () => {
  const dataDir = join(dir, 'data');
  let node: CairnProcess;
  let env: NodeJS.ProcessEnv;
  let nextSlot: () => Promise<number>;
  before(async () => {
    node = await startCairn([
      '--ephemeral',
      'false',
      '--data-dir',
      dataDir,
      '--clock',
      'manual',
      '--dev-accounts',
      '12',
      '--log-format',
      'json',
    ]);
    env = { CAIRN_RPC_URL: node.publicUrl };
    nextSlot = slotStepper(() => node);
  });
  after(async () => {
    await node?.stop();
  });

  test('the start banner in JSON logs is one readable line, with its facts as fields', () => {
    const banner = records(node.output()).filter((r) => r.facts !== undefined);
    assert.equal(banner.length, 1);
    const { msg, facts } = banner[0]!;
    assert.doesNotMatch(msg, /\n/);
    assert.match(msg, /^cairn \S+ is ready: public JSON-RPC http:\/\//);
    for (const text of [
      `public JSON-RPC ${node.publicUrl}`,
      `admin JSON-RPC ${node.adminUrl}`,
      '(embedded anvil, chain id 31337)',
      `data ${dataDir}`,
      'manual clock',
      '12 dev accounts with 1,000,000 FJ each',
    ])
      assert.ok(msg.includes(text), `${text} in: ${msg}`);
    assert.equal((facts!.devAccounts as string[]).length, 12);
  });

  test('a second node on the same data directory and ports says the directory is in use, first', async () => {
    const port = (url: string) => new URL(url).port;
    const l1 = (JSON.parse(readFileSync(node.readyFile, 'utf8')) as { l1: string }).l1;
    const args = (format: string) => [
      'start',
      '--ephemeral',
      'false',
      '--data-dir',
      dataDir,
      '--port',
      port(node.publicUrl),
      '--admin-port',
      port(node.adminUrl),
      '--l1-port',
      port(l1),
      '--log-format',
      format,
    ];
    const expected = `cannot start: data directory ${dataDir} is in use by another cairn process (pid ${node.child.pid}): stop that node, or give this one another --data-dir`;
    const json = await runCairn(args('json'));
    assert.equal(json.code, 1, json.stdout + json.stderr);
    const fatal = records(json.stdout).filter((r) => r.level >= 50);
    assert.deepEqual(
      fatal.map((r) => r.msg),
      [expected],
    );
    assert.doesNotMatch(json.stdout, /port|EADDRINUSE/);
    const pretty = await runCairn(args('pretty'));
    assert.equal(pretty.code, 1);
    assert.match(pretty.stdout, new RegExp(`FATAL ${expected.replace(/[.()]/g, '\\$&')}\\n$`));
    // The second node neither took the lock nor removed it: the first still holds it.
    assert.equal(readFileSync(join(dataDir, 'cairn.lock'), 'utf8'), String(node.child.pid));
  });

  test('receipt of a hash the node does not know: unknown, exit 1; a mistyped hash: a usage error', async () => {
    const unknown = `0x${'0'.repeat(63)}1`;
    const text = await runCairn(['receipt', unknown], env);
    assert.equal(text.code, 1, text.stderr);
    assert.equal(
      text.stdout,
      `tx         ${unknown}\nstatus     unknown to this node: it never had this tx, or dropped it (a dropped tx is forgotten)\n`,
    );
    // --json prints the receipt as the specification shapes it.
    const json = await runCairn(['receipt', unknown, '--json'], env);
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stdout), {
      txHash: unknown,
      status: 'dropped',
      error: 'Tx dropped by P2P node',
    });
    for (const typo of [
      '0x12',
      unknown.slice(2),
      `${unknown}0`,
      `0x${'g'.repeat(64)}`,
      unknown.slice(0, -1),
    ]) {
      const r = await runCairn(['receipt', typo], env);
      assert.equal(r.code, 1, typo);
      assert.equal(r.stdout, '', typo);
      assert.equal(r.stderr, `cairn receipt: expected a tx hash (0x and 64 hex digits), got ${typo}\n`);
    }
  });

  test('tx --send --wait on the manual clock says once how to move it; the fee has its unit', async () => {
    const sending = background(['tx', '--account', '11', '--note-hashes', '1', '--send', '--wait'], env);
    const hint = await until('the hint', () => sending.stderr().includes('\n') && sending.stderr(), 20_000);
    const slot = ((await result(node.publicUrl, 'svc_getSyncedL2SlotNumber')) as number | null) ?? 0;
    assert.equal(
      hint,
      `cairn tx: the node's clock is manual: the tx waits in the mempool until L1 time moves to a new slot, whose proposer builds a block: call svcDev_advanceToSlot with params [${slot + 1}] on the node's admin port (http://127.0.0.1:8880 by default)\n`,
    );
    const block = await nextSlot();
    const sent = await sending.done;
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(sent.stderr, hint, 'said once');
    const [hash, status] = sent.stdout.trim().split('\n');
    const receipt = (await result(node.publicUrl, 'svc_getTxReceipt', [hash])) as { transactionFee: string };
    const fee = BigInt(receipt.transactionFee);
    assert.ok(fee > 0n);
    assert.match(
      status!,
      new RegExp(
        `^status {5}success in block ${block} \\((proposed|checkpointed)\\), fee ${formatFeeJuice(fee).replace('.', '\\.')} \\(${fee} base units\\)$`,
      ),
    );
    assert.match(formatFeeJuice(fee), / FJ$/);
    const shown = await runCairn(['block', String(block)], env);
    assert.ok(shown.stdout.includes(`${hash} success, fee ${formatFeeJuice(fee)} (${fee} base units)\n`));
  });

  test('l1 send-message on the manual clock says once how to mine the L1 tx', async () => {
    const sending = background(
      ['l1', 'send-message', '--recipient', '0x1234', '--content', '0x2a', '--secret', '0x7'],
      env,
    );
    const hint =
      "cairn l1 send-message: the node's clock is manual: the L1 tx waits until an L1 block is mined: call svcDev_mine on the node's admin port (http://127.0.0.1:8880 by default)\n";
    await until('the hint', () => sending.stderr().endsWith(hint), 20_000);
    await result(node.adminUrl, 'svcDev_mine', []);
    const sent = await sending.done;
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(sent.stderr.split(hint).length, 2, 'said once');
    assert.match(JSON.parse(sent.stdout).messageHash, /^0x[0-9a-f]{64}$/);
  });

  test('dev account numbers: one rule, N or account:N, with the range of the node talked to', async () => {
    const address = (n: number) => toHex32(devAccounts(n + 1)[n]!.address);
    for (const who of ['11', 'account:11']) {
      const r = await runCairn(['balance', who], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(` at ${address(11)}\\n$`));
    }
    const refused = (n: number) =>
      new RegExp(
        `: there is no dev account ${n}: this node's dev accounts are 0\\.\\.11 \\(--dev-accounts 12\\)\\n$`,
      );
    const cases: string[][] = [
      ['balance', '12'],
      ['balance', 'account:12'],
      ['balance', '99'],
      ['tx', '--account', '12', '--send'],
      ['tx', '--account', 'account:40'],
      ['tx', '--fee-payer', 'account:12'],
      ['contract', 'call', '0x1', 'f', 'account:12', '--artifact', '/nonexistent.json'],
      ['contract', 'simulate', '0x1', 'f', '--account', '12', '--artifact', '/nonexistent.json'],
    ];
    for (const args of cases) {
      const r = await runCairn(args, env);
      assert.equal(r.code, 1, args.join(' '));
      const n = Number(/\d+/.exec(args.find((a) => /^(account:)?\d+$/.test(a))!)![0]);
      assert.match(r.stderr, refused(n), args.join(' '));
    }
    // Account 11 builds a tx (printed, not sent) that it pays for.
    const built = await runCairn(['tx', '--account', 'account:11'], env);
    assert.equal(built.code, 0, built.stderr);
    assert.ok(built.stdout.includes(address(11).slice(2)), 'the fee payer is account 11');
  });
});

describe('a node with the instant clock', () => {
  let node: CairnProcess;
  before(async () => {
    node = await startCairn(['--clock', 'instant']);
  });
  after(async () => {
    await node?.stop();
  });

  test('l1 send-message: the message is mined and in the L2 tree when the command returns', async () => {
    const env = { CAIRN_RPC_URL: node.publicUrl, CAIRN_ADMIN_URL: node.adminUrl };
    const started = Date.now();
    const sent = await runCairn(
      ['l1', 'send-message', '--recipient', '0x1234', '--content', '0x2a', '--secret', '0x7'],
      env,
      60_000,
    );
    assert.equal(sent.code, 0, sent.stderr);
    assert.ok(Date.now() - started < 30_000, 'well within the 60 s the L1 wait allows');
    const message = JSON.parse(sent.stdout) as { messageHash: string; checkpointNumber: number };
    const block = await result(node.publicUrl, 'node_getL1ToL2MessageBlock', [message.messageHash]);
    assert.equal(typeof block, 'number');
    assert.match(
      sent.stderr,
      new RegExp(`\\nthe message is in the L2 tree from block ${block}: a tx can consume it\\n$`),
    );
    const witness = await result(node.publicUrl, 'svc_getL1ToL2MessageMembershipWitness', [
      'latest',
      message.messageHash,
    ]);
    assert.notEqual(witness, null);
  });

  test('l1 send-message without the admin port: refused before anything is sent', async () => {
    const l1Url = (JSON.parse(readFileSync(node.readyFile, 'utf8')) as { l1: string }).l1;
    const l1 = createPublicClient({ transport: http(l1Url) });
    const sender = privateKeyToAccount(ANVIL_ACCOUNT_1).address;
    const nonce = () => l1.getTransactionCount({ address: sender, blockTag: 'pending' });
    const before = await nonce();
    // A port nothing listens on.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const closed = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const r = await runCairn(
      [
        'l1',
        'send-message',
        '--recipient',
        '0x1234',
        '--content',
        '0x2b',
        '--secret',
        '0x7',
        '--admin-url',
        `http://127.0.0.1:${closed}`,
      ],
      { CAIRN_RPC_URL: node.publicUrl },
    );
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^cairn l1 send-message: the node's clock is instant: .* at http:\/\/127\.0\.0\.1:\d+: cannot reach it \(ECONNREFUSED\) \(--admin-url, --admin-api-key\); nothing was sent\n$/,
    );
    assert.equal(await nonce(), before, 'no L1 tx was sent');
  });
});
