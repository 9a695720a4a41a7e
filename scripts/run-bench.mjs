#!/usr/bin/env node
// Runs every bench/*.bench.ts (or those whose name contains an argument) one after
// the other (with --expose-gc, for the memory figures). Each benchmark prints one machine-readable summary line per figure:
//   BENCH <name> <metric>=<value> ...
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
let failed = 0;
for (const file of files) {
  console.error(`# ${file}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', file)], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
