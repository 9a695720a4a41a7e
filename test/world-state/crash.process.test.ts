// Crash safety: a child process commits deterministic blocks in a loop and is SIGKILLed at
// random moments, several times on the same directory. Every block it reported committed must
// survive, the state must equal the model's replay of blocks 1..latest, and the world state must
// still accept new blocks.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEnvironment } from '../../src/store/environment.js';
import { TREE_IDS } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { compareReaders, prng } from './compare.js';
import { buildBlock, CRASH_OPTIONS } from './crash-blocks.js';
import { WorldStateModel } from './model.js';

const ROOT = join(import.meta.dirname, '..', '..');
const WRITER = join(import.meta.dirname, 'crash-writer.ts');
const ROUNDS = 5;

interface Round {
  /** The latest block the writer found when it opened the store. */
  opened: number;
  /** The last `committed N` it printed before dying (undefined: none). */
  lastCommitted: number | undefined;
  signal: NodeJS.Signals | null;
}

/** Starts the writer, SIGKILLs it `delayMs` after its `afterCommits`-th commit, reads all it printed. */
function runAndKill(dir: string, afterCommits: number, delayMs: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let commits = 0;
    let killScheduled = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`crash writer made no progress in 60 s\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, 60_000);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      commits = stdout.split('\n').filter((l) => l.startsWith('committed ')).length;
      if (!killScheduled && commits >= afterCommits) {
        killScheduled = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    // 'close' fires after the stdout pipe is drained, so every line printed before death is in.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') {
        reject(
          new Error(`crash writer exited by itself (code ${code})\nstdout:\n${stdout}\nstderr:\n${stderr}`),
        );
        return;
      }
      const lines = stdout.split('\n');
      const opened = lines.find((l) => l.startsWith('opened '));
      const committed = lines.filter((l) => l.startsWith('committed ')).map((l) => Number(l.slice(10)));
      if (opened === undefined) {
        reject(new Error(`crash writer was killed before opening the store\nstderr:\n${stderr}`));
        return;
      }
      resolve({ opened: Number(opened.slice(7)), lastCommitted: committed.at(-1), signal });
    });
  });
}

test('SIGKILL at random moments never loses or corrupts a committed block', async (t) => {
  const seed = Number(process.env.WS_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
  t.diagnostic(`WS_CRASH_SEED=${seed}`);
  const rng = prng(seed);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-ws-crash-'));
  try {
    let lastCommitted = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const afterCommits = 2 + rng.int(8);
      const delayMs = rng.int(40);
      const r = await runAndKill(dir, afterCommits, delayMs);
      const what = `seed ${seed}, round ${round} (kill ${delayMs} ms after commit #${afterCommits})`;
      t.diagnostic(`${what}: opened at ${r.opened}, last printed committed ${r.lastCommitted}`);
      // A kill between a commit and its line may keep one block more than was printed, never fewer.
      assert.ok(
        r.opened >= lastCommitted,
        `${what}: reopened at ${r.opened}, but block ${lastCommitted} was committed`,
      );
      assert.ok(
        r.opened <= lastCommitted + 1,
        `${what}: reopened at ${r.opened}, beyond ${lastCommitted} + 1`,
      );
      assert.ok(
        r.lastCommitted !== undefined && r.lastCommitted > r.opened,
        `${what}: no commit in this round`,
      );
      lastCommitted = r.lastCommitted;
    }

    const env = openEnvironment(dir, 'world-state');
    try {
      const ws = await WorldState.open(env, CRASH_OPTIONS);
      const latest = ws.latestBlockNumber;
      assert.ok(latest >= lastCommitted, `latest ${latest} < last printed committed ${lastCommitted}`);
      assert.ok(
        latest <= lastCommitted + 1,
        `latest ${latest} > last printed committed ${lastCommitted} + 1`,
      );

      const model = new WorldStateModel(CRASH_OPTIONS);
      for (let n = 1; n <= latest; n++) {
        const fork = model.fork();
        buildBlock(fork, n);
        model.commit(fork);
      }
      assert.equal(ws.oldestBlockNumber, model.oldestBlockNumber, 'oldestBlockNumber');
      for (let b = model.oldestBlockNumber; b <= latest; b++) {
        for (const tree of TREE_IDS) {
          assert.deepEqual(ws.at(b).snapshot(tree), model.at(b).snapshot(tree), `block ${b}, tree ${tree}`);
        }
      }
      compareReaders(ws.at(latest), model.at(latest), rng, `after crashes, block ${latest}`, 6);

      // The store still takes new blocks.
      const fork = ws.fork();
      const modelFork = model.fork();
      buildBlock(fork, latest + 1);
      buildBlock(modelFork, latest + 1);
      assert.equal(await ws.commit(fork), latest + 1);
      model.commit(modelFork);
      compareReaders(ws.at(latest + 1), model.at(latest + 1), rng, `new block ${latest + 1}`, 6);
      await ws.close();
    } finally {
      await env.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
