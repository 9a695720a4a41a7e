// The embedded L1's saved state: the consistency check of anvil's state dumps (the state root of
// the accounts against the latest block's), and the files the node saves and starts from.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPublicClient, createTestClient, createWalletClient, type Hex, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type AnvilInstance, startAnvil } from '../../src/l1/anvil.js';
import {
  type AnvilStateJson,
  checkAnvilState,
  checkAnvilStateBytes,
  dumpAnvilState,
  hexToBytesInSlices,
  SavedL1State,
  stateFiles,
} from '../../src/l1/anvil-state.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY, l1Chain } from '../../src/l1/deploy.js';
import { anvilStateRoot } from '../../src/l1/state-trie.js';

const CHAIN_ID = 31337;
/** Runtime code: SLOAD(1) (a slot never written), then SSTORE(0, calldata word 0). */
const STORE_RUNTIME = '6001545060003560005500';
/** Init code that returns STORE_RUNTIME (11 bytes). */
const STORE_INIT: Hex = `0x6a${STORE_RUNTIME}600052600b6015f3`;

let dir: string;
let anvil: AnvilInstance;
const running: AnvilInstance[] = [];

function clients(a: AnvilInstance) {
  const chain = l1Chain(CHAIN_ID, a.rpcUrl);
  return {
    pub: createPublicClient({ chain, transport: http(a.rpcUrl), cacheTime: 0 }),
    test: createTestClient({ chain, mode: 'anvil', transport: http(a.rpcUrl) }),
    wallet: createWalletClient({
      chain,
      account: privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY),
      transport: http(a.rpcUrl),
    }),
  };
}

async function dump(a: AnvilInstance): Promise<AnvilStateJson> {
  return JSON.parse((await dumpAnvilState(a.rpcUrl)).toString()) as AnvilStateJson;
}

/** Sends a transaction and mines it. */
async function sendAndMine(a: AnvilInstance, tx: { to?: Hex; data?: Hex; value?: bigint }): Promise<Hex> {
  const { pub, test, wallet } = clients(a);
  const hash = await wallet.sendTransaction(tx);
  await test.mine({ blocks: 1 });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, 'success');
  return receipt.contractAddress ?? hash;
}

interface Logged {
  level: 'info' | 'warn' | 'error';
  message: string;
}

function recordingLogger(): {
  logged: Logged[];
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
} {
  const logged: Logged[] = [];
  return {
    logged,
    info: (message) => logged.push({ level: 'info', message }),
    warn: (message) => logged.push({ level: 'warn', message }),
    error: (message) => logged.push({ level: 'error', message }),
  };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-anvil-state-'));
  anvil = await startAnvil({ chainId: CHAIN_ID });
  running.push(anvil);
});

after(async () => {
  await Promise.all(running.map((a) => a.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the consistency check of a state dump', () => {
  test("the accounts' state root is the latest block's, also with zero-valued slots in the dump", async () => {
    await sendAndMine(anvil, { to: '0x000000000000000000000000000000000000dead', value: parseEther('1') });
    const contract = await sendAndMine(anvil, { data: STORE_INIT });
    await sendAndMine(anvil, { to: contract, data: `0x${'00'.repeat(31)}2a` });
    await sendAndMine(anvil, { to: contract, data: `0x${'00'.repeat(31)}01` });
    const state = await dump(anvil);
    const slots = state.accounts[contract.toLowerCase()]?.storage ?? {};
    // Slot 1 was only read: anvil lists it, with value 0, and counts it in its state root.
    assert.equal(slots[`0x${'00'.repeat(31)}01`], `0x${'00'.repeat(32)}`);
    assert.equal(BigInt(slots[`0x${'00'.repeat(32)}`]!), 1n);
    const best = BigInt(state.best_block_number!);
    const header = state.blocks!.find((b) => BigInt(b.header.number) === best)!.header;
    assert.equal(anvilStateRoot(state.accounts), header.stateRoot);
    assert.deepEqual(checkAnvilState(state), { blockNumber: best, consistent: true });
  });

  test('storage ahead of the saved blocks is inconsistent', async () => {
    const before = await dump(anvil);
    await sendAndMine(anvil, { to: '0x000000000000000000000000000000000000beef', value: 1n });
    const after = await dump(anvil);
    // As a dump taken while anvil mined: the blocks before the transaction, the accounts after it.
    const torn = { ...before, accounts: after.accounts };
    const check = checkAnvilState(torn);
    assert.equal(check.consistent, false);
    assert.equal(check.blockNumber, BigInt(before.best_block_number!));
    assert.match(check.problem!, /accounts are not the state of its latest block \d+/);
    assert.equal(checkAnvilState(after).consistent, true);
  });

  test('a state that lacks its latest block, or is not a state, is inconsistent', async () => {
    const state = await dump(anvil);
    const best = BigInt(state.best_block_number!);
    const cut = { ...state, blocks: state.blocks!.filter((b) => BigInt(b.header.number) !== best) };
    assert.match(checkAnvilState(cut).problem!, new RegExp(`latest block ${best} is not in it`));
    const text = JSON.stringify(state);
    assert.deepEqual(checkAnvilStateBytes(text), { blockNumber: best, consistent: true });
    // Read from the bytes by its structure: spacing and escaped quotes do not matter.
    const spaced = JSON.stringify({ note: 'a "quoted" {brace} [bracket]', ...state }, null, 2);
    assert.deepEqual(checkAnvilStateBytes(Buffer.from(spaced)), { blockNumber: best, consistent: true });
    assert.equal(checkAnvilStateBytes(JSON.stringify(cut)).consistent, false);
    assert.match(checkAnvilStateBytes(text.slice(0, text.length / 2)).problem!, /not a state file/);
  });

  test('in a worker thread (from dist/, as the node runs it) the check gives the same answers', async () => {
    // The worker runs the module file itself, which the TypeScript sources cannot do under tsx.
    const built = (await import(
      join(import.meta.dirname, '..', '..', 'dist', 'l1', 'anvil-state.js')
    )) as typeof import('../../src/l1/anvil-state.js');
    const state = await dump(anvil);
    const bytes = Buffer.from(JSON.stringify(state));
    const ahead = Buffer.from(JSON.stringify({ ...state, best_block_number: 1 }));
    assert.deepEqual(await built.checkAnvilStateInWorker(bytes), checkAnvilStateBytes(bytes));
    assert.equal((await built.checkAnvilStateInWorker(bytes)).consistent, true);
    assert.equal((await built.checkAnvilStateInWorker(ahead)).consistent, false);
  });

  test('at block 0, an account that sent transactions makes it inconsistent', async () => {
    const state = await dump(anvil);
    const atGenesis = { ...state, best_block_number: 0 };
    const check = checkAnvilState(atGenesis);
    assert.equal(check.consistent, false);
    assert.match(check.problem!, /has sent transactions, but no block was saved/);
    const fresh = await startAnvil({ chainId: CHAIN_ID });
    running.push(fresh);
    assert.equal(checkAnvilState(await dump(fresh)).consistent, true);
    await fresh.stop();
  });

  test('a balance set without a block is not the state of any block', async () => {
    const { test: cheat } = clients(anvil);
    await cheat.setBalance({ address: '0x000000000000000000000000000000000000f00d', value: 5n });
    assert.equal(checkAnvilState(await dump(anvil)).consistent, false);
    await cheat.mine({ blocks: 1 });
    assert.equal(checkAnvilState(await dump(anvil)).consistent, true);
  });
});

describe('SavedL1State', () => {
  test('saves atomically, keeps the previous state, and anvil resumes from the saved one', async () => {
    const l1 = join(dir, 'save');
    mkdirSync(l1);
    const files = stateFiles(l1);
    const saved = new SavedL1State(l1, recordingLogger());
    const { pub, test: cheat } = clients(anvil);
    const first = await saved.save(anvil.rpcUrl);
    assert.equal(first, await pub.getBlockNumber());
    assert.equal(saved.savedBlock, first);
    assert.ok(existsSync(files.current));
    assert.ok(!existsSync(files.previous));
    // Nothing new: the saved state stays, and no previous one is made of it.
    assert.equal(await saved.save(anvil.rpcUrl), first);
    assert.ok(!existsSync(files.previous));
    await cheat.mine({ blocks: 1 });
    const second = await saved.save(anvil.rpcUrl);
    assert.equal(second, first! + 1n);
    assert.equal(checkAnvilStateBytes(readFileSync(files.previous, 'utf8')).blockNumber, first);
    assert.equal(checkAnvilStateBytes(readFileSync(files.current, 'utf8')).blockNumber, second);
    assert.ok(!existsSync(files.temp));

    const again = new SavedL1State(l1, recordingLogger());
    const start = await again.chooseStart();
    assert.equal(start, files.current);
    assert.equal(again.savedBlock, second);
    const resumed = await startAnvil({ chainId: CHAIN_ID, loadStateFile: start });
    running.push(resumed);
    const block = await clients(resumed).pub.getBlock();
    assert.equal(block.number, second);
    assert.equal(block.hash, (await pub.getBlock({ blockNumber: second! })).hash);
    await resumed.stop();
  });

  test('ensureSaved saves only when the saved state lacks the block', async () => {
    const l1 = join(dir, 'ensure');
    mkdirSync(l1);
    const files = stateFiles(l1);
    // Every save counts as cheap, however long it takes on a loaded machine: the save budget is the next test's.
    const saved = new SavedL1State(l1, recordingLogger(), Number.POSITIVE_INFINITY);
    const { pub, test: cheat } = clients(anvil);
    const latest = await pub.getBlockNumber();
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, latest), true);
    assert.equal(saved.savedBlock, latest);
    await cheat.mine({ blocks: 1 });
    // Block `latest` is saved already: no new save.
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, latest), true);
    assert.ok(!existsSync(files.previous));
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, latest + 1n), true);
    assert.equal(saved.savedBlock, latest + 1n);
    assert.ok(existsSync(files.previous));
    // A block L1 does not have yet cannot be saved.
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, latest + 10n), false);
  });

  test('once saves take long, an asked-for save waits until saving has had its share of the time', async () => {
    const l1 = join(dir, 'budget');
    mkdirSync(l1);
    // Every save counts as expensive here: the next asked-for one waits 20 times its duration.
    const saved = new SavedL1State(l1, recordingLogger(), 0);
    const { pub, test: cheat } = clients(anvil);
    const started = Date.now();
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, await pub.getBlockNumber()), true);
    const took = Date.now() - started;
    await cheat.mine({ blocks: 1 });
    const next = await pub.getBlockNumber();
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, next), false, 'too soon after the last save');
    assert.equal(saved.savedBlock, next - 1n);
    await new Promise((r) => setTimeout(r, 20 * took + 50));
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, next), true);
    assert.equal(saved.savedBlock, next);
  });

  test('whenSaved resolves once a save holds the block: at once if one does, else at the timer save that does', async () => {
    const l1 = join(dir, 'when-saved');
    mkdirSync(l1);
    const saved = new SavedL1State(l1, recordingLogger(), 0);
    const { pub, test: cheat } = clients(anvil);
    const first = await pub.getBlockNumber();
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, first), true);
    let told = false;
    await saved.whenSaved(first); // held already
    await cheat.mine({ blocks: 1 });
    const next = first + 1n;
    assert.equal(await saved.ensureSaved(anvil.rpcUrl, next), false, 'too soon after the last save');
    const waiting = saved.whenSaved(next).then(() => {
      told = true;
    });
    const later = saved
      .whenSaved(next + 1n)
      .then(() => assert.fail('no save holds a block L1 does not have'));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(told, false, 'not told before a save holds the block');
    saved.startTimer(anvil.rpcUrl, () => pub.getBlockNumber(), 20);
    try {
      await waiting;
      assert.ok(told);
      assert.ok(saved.savedBlock! >= next);
    } finally {
      await saved.stopTimer();
    }
    void later;
  });

  test('an L1 whose every dump is inconsistent is not saved, and says why', async () => {
    const l1 = join(dir, 'unsaved');
    mkdirSync(l1);
    const logger = recordingLogger();
    const saved = new SavedL1State(l1, logger);
    const { test: cheat } = clients(anvil);
    await cheat.setBalance({ address: '0x000000000000000000000000000000000000f00d', value: 7n });
    assert.equal(await saved.save(anvil.rpcUrl), undefined);
    assert.equal(saved.savedBlock, undefined);
    assert.ok(!existsSync(stateFiles(l1).current));
    assert.ok(
      logger.logged.some((l) => l.level === 'warn' && /was not saved: 5 dumps in a row/.test(l.message)),
    );
    await cheat.mine({ blocks: 1 });
    assert.notEqual(await saved.save(anvil.rpcUrl), undefined);
  });

  test('at start: an inconsistent newest state is set aside and the previous one is used', async () => {
    const l1 = join(dir, 'fallback');
    mkdirSync(l1);
    const files = stateFiles(l1);
    const good = await dump(anvil);
    await sendAndMine(anvil, { to: '0x000000000000000000000000000000000000beef', value: 1n });
    const ahead = { ...good, accounts: (await dump(anvil)).accounts };
    writeFileSync(files.current, JSON.stringify(ahead));
    writeFileSync(files.previous, JSON.stringify(good));
    const logger = recordingLogger();
    const saved = new SavedL1State(l1, logger);
    assert.equal(await saved.chooseStart(), files.current);
    assert.equal(saved.savedBlock, BigInt(good.best_block_number!));
    assert.deepEqual(JSON.parse(readFileSync(files.current, 'utf8')), good);
    assert.ok(!existsSync(files.previous));
    const aside = readdirSync(l1).filter((f) => f.startsWith('anvil-state.inconsistent-'));
    assert.equal(aside.length, 1);
    assert.deepEqual(JSON.parse(readFileSync(join(l1, aside[0]!), 'utf8')), ahead);
    const errors = logger.logged.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /anvil-state\.json is inconsistent: its accounts are not the state/);
    assert.match(
      errors[0]!.message,
      new RegExp(`resumes from .*anvil-state\\.prev\\.json \\(L1 block ${good.best_block_number}\\)`),
    );
  });

  test('at start: with no consistent state, the newest is used and said so', async () => {
    const l1 = join(dir, 'no-fallback');
    mkdirSync(l1);
    const files = stateFiles(l1);
    const good = await dump(anvil);
    await sendAndMine(anvil, { to: '0x000000000000000000000000000000000000beef', value: 1n });
    writeFileSync(files.current, JSON.stringify({ ...good, accounts: (await dump(anvil)).accounts }));
    const logger = recordingLogger();
    const saved = new SavedL1State(l1, logger);
    assert.equal(await saved.chooseStart(), files.current);
    assert.equal(saved.savedBlock, undefined);
    assert.deepEqual(
      logger.logged.map((l) => l.level),
      ['error'],
    );
    assert.match(
      logger.logged[0]!.message,
      /no consistent saved state .* starts from .*anvil-state\.json anyway/,
    );
  });

  test('at start: a save cut short between its renames is completed; a partial temp file is dropped', async () => {
    const l1 = join(dir, 'interrupted');
    mkdirSync(l1);
    const files = stateFiles(l1);
    const older = await dump(anvil);
    await clients(anvil).test.mine({ blocks: 1 });
    const newer = await dump(anvil);
    // Cut after current -> previous, before temp -> current.
    writeFileSync(files.previous, JSON.stringify(older));
    writeFileSync(files.temp, JSON.stringify(newer));
    const saved = new SavedL1State(l1, recordingLogger());
    assert.equal(await saved.chooseStart(), files.current);
    assert.equal(saved.savedBlock, BigInt(newer.best_block_number!));
    assert.ok(!existsSync(files.temp));
    // Cut while writing the temp file: the complete current state stays.
    const text = JSON.stringify(newer);
    writeFileSync(files.temp, text.slice(0, text.length / 3));
    const next = new SavedL1State(l1, recordingLogger());
    assert.equal(await next.chooseStart(), files.current);
    assert.equal(next.savedBlock, BigInt(newer.best_block_number!));
    assert.ok(!existsSync(files.temp));
    assert.equal(await new SavedL1State(join(dir, 'nothing'), recordingLogger()).chooseStart(), undefined);
  });
});

test('hex is decoded in slices to the same bytes, and a bad digit is refused', async () => {
  const bytes = randomBytes(3 * (1 << 20) + 7);
  const hex = `0x${bytes.toString('hex')}`;
  assert.deepEqual(await hexToBytesInSlices(hex, 2), bytes);
  assert.deepEqual(await hexToBytesInSlices('', 0), Buffer.alloc(0));
  await assert.rejects(
    hexToBytesInSlices(`${hex.slice(0, 1000)}zz${hex.slice(1002)}`, 2),
    /not hex at character 1000/,
  );
});
