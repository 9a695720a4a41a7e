// What a save of the embedded L1's state costs as its history grows: a real node (manual clock)
// moves its chain epoch by epoch (3 checkpoints, a proof), and at a few L1 heights the bench times
// the parts of a save as the node does it (SavedL1State): anvil_dumpState (anvil serializes and
// gzips all of its blocks, txs and accounts), gunzip, the check (the accounts and block headers
// parsed out of the JSON, the state root computed), and the atomic write (temp file, fsync,
// renames); and the check of a state file at start.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { NodeClient } from '../src/client/index.js';
import { startCairn } from '../test/helpers/process.js';
import { fmt, log, percentile } from './chain-node.js';

// The built module, as the node runs it: its check runs in a worker thread, which the TypeScript
// sources cannot start under tsx.
const { checkAnvilStateBytes, SavedL1State, stateFiles } = (await import(
  '../dist/l1/anvil-state.js' as string
)) as typeof import('../src/l1/anvil-state.js');

const EPOCHS = Number(process.env.BENCH_EPOCHS ?? 48);
const MEASURE_AT = new Set([EPOCHS / 4, EPOCHS / 2, EPOCHS].map(Math.round));
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const work = mkdtempSync(join(tmpdir(), 'cairn-bench-l1-state-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const quiet = {
  info: () => {},
  warn: (m: string) => log(`warn: ${m}`),
  error: (m: string) => log(`error: ${m}`),
};

async function rawDump(rpcUrl: string): Promise<Buffer> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
  });
  const body = (await res.json()) as { result: string };
  return Buffer.from(body.result.slice(2), 'hex');
}

async function measure(rpcUrl: string, epoch: number): Promise<void> {
  const times = {
    dump: [] as number[],
    gunzip: [] as number[],
    check: [] as number[],
    save: [] as number[],
    held: [] as number[],
    start: [] as number[],
  };
  let gzBytes = 0;
  let json = Buffer.alloc(0);
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    const gz = await rawDump(rpcUrl);
    times.dump.push(performance.now() - t);
    gzBytes = gz.length;
    t = performance.now();
    json = await promisify(gunzip)(gz);
    times.gunzip.push(performance.now() - t);
    t = performance.now();
    const check = checkAnvilStateBytes(json);
    times.check.push(performance.now() - t);
    // (in place here, to time the check itself)
    if (!check.consistent) throw new Error(`inconsistent dump: ${check.problem}`);
    // The whole save as the node does it: dump, check, write atomically.
    const folder = join(work, `save-${epoch}-${i}`);
    mkdirSync(folder);
    const saved = new SavedL1State(folder, quiet);
    // How long the event loop is held at a time meanwhile (the worst delay of a 1 ms timer).
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    t = performance.now();
    await saved.save(rpcUrl);
    times.save.push(performance.now() - t);
    delay.disable();
    times.held.push(delay.max / 1e6);
    // At start: read and check the file.
    t = performance.now();
    const again = new SavedL1State(folder, quiet);
    await again.chooseStart();
    times.start.push(performance.now() - t);
  }
  const state = JSON.parse(json.toString('utf8')) as {
    best_block_number: number;
    blocks: unknown[];
    transactions: unknown[];
    accounts: Record<string, { storage: Record<string, string> }>;
  };
  const slots = Object.values(state.accounts).reduce((n, a) => n + Object.keys(a.storage).length, 0);
  const file = stateFiles(join(work, `save-${epoch}-0`)).current;
  const med = (xs: number[]) => fmt(percentile(xs, 0.5), 0);
  log(
    `epoch ${epoch}: L1 block ${state.best_block_number}, ${state.blocks.length} blocks, ${state.transactions.length} txs, ` +
      `${Object.keys(state.accounts).length} accounts, ${slots} slots; JSON ${fmt(json.length / 1e6, 2)} MB ` +
      `(gzip ${fmt(gzBytes / 1e6, 2)} MB, file ${fmt(statSync(file).size / 1e6, 2)} MB)`,
  );
  log(
    `  median of ${RUNS} (ms): anvil_dumpState ${med(times.dump)}, gunzip ${med(times.gunzip)}, ` +
      `parse + check ${med(times.check)}, whole save ${med(times.save)} (event loop held at most ${med(times.held)}), start check ${med(times.start)}`,
  );
  console.log(
    `BENCH l1_state.save l1_blocks=${state.best_block_number} json_mb=${fmt(json.length / 1e6, 2)} ` +
      `dump_ms=${med(times.dump)} gunzip_ms=${med(times.gunzip)} check_ms=${med(times.check)} ` +
      `save_ms=${med(times.save)} held_ms=${med(times.held)} start_check_ms=${med(times.start)}`,
  );
}

const node = await startCairn(
  ['--ephemeral', 'false', '--data-dir', join(work, 'node'), '--clock', 'manual', '--log-format', 'json'],
  {},
  [],
  60_000,
);
try {
  const rpcUrl = /embedded L1 (http:\/\/[0-9.:]+)/.exec(node.output())![1]!;
  let slot = 0;
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let i = 0; i < 3; i++) {
      slot =
        Math.max(slot, (await new NodeClient(node.publicUrl).request('svc_getSyncedL2SlotNumber')) ?? 0) + 1;
      await new NodeClient(node.adminUrl).request('svcDev_advanceToSlot', slot);
    }
    await new NodeClient(node.adminUrl).request('svcDev_advanceToNextEpoch');
    await new NodeClient(node.adminUrl).request('svcDev_mine', 2);
    if (MEASURE_AT.has(epoch)) await measure(rpcUrl, epoch);
  }
} finally {
  await node.stop();
}
