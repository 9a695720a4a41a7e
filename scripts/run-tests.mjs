#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. Node 20's --test cannot
// glob TypeScript files itself, so the list is built here. Arguments narrow the
// run to files whose path contains one of them, e.g. `npm test -- rpc`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = walk('test')
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...flags, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
