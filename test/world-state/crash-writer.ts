// Child process for crash.test.ts: opens the world state in the directory given as the first
// argument and commits deterministic blocks (crash-blocks.ts) forever, printing
// `committed N` after each commit, until it is killed.
import { openEnvironment } from '../../src/store/environment.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { buildBlock, CRASH_OPTIONS } from './crash-blocks.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: crash-writer.ts <data-dir>');

const ws = await WorldState.open(openEnvironment(dir, 'world-state'), CRASH_OPTIONS);
process.stdout.write(`opened ${ws.latestBlockNumber}\n`);
for (;;) {
  const n = ws.latestBlockNumber + 1;
  const fork = ws.fork();
  buildBlock(fork, n);
  const committed = await ws.commit(fork);
  if (committed !== n) throw new Error(`commit returned ${committed}, expected ${n}`);
  process.stdout.write(`committed ${committed}\n`);
}
