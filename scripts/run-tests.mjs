#!/usr/bin/env node
// Runs the tests with node:test through tsx. Node 20's --test cannot glob TypeScript files itself,
// so the list is built here.
//
//   node scripts/run-tests.mjs [--kind unit|e2e|all] [filter ...] [--node-test-flag ...]
//
// A test's kind is where it lives and what it is called:
// - unit: every test/**/*.test.ts except those below. Each runs in its own process and may start
//   no other (test/helpers/no-child-processes.mjs makes child_process refuse): an in-process node,
//   worker threads and the file system are fine.
// - e2e: test/e2e/ and any *.process.test.ts: they start `cairn`, anvil, npm or a browser.
// `all` (the default) runs both kinds, the unit files first. Filters narrow the run to files whose path contains
// one of them, e.g. `npm test -- rpc`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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

/** The kind of a test file (a path relative to the repository root, with forward slashes). */
export function kindOf(file) {
  return file.startsWith('test/e2e/') || file.endsWith('.process.test.ts') ? 'e2e' : 'unit';
}

const args = process.argv.slice(2);
let kind = 'all';
const kindAt = args.indexOf('--kind');
if (kindAt !== -1) {
  kind = args[kindAt + 1];
  args.splice(kindAt, 2);
}
if (!['unit', 'e2e', 'all'].includes(kind)) {
  console.error(`--kind must be unit, e2e or all, not ${kind}`);
  process.exit(2);
}
const filters = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--'));
const files = walk('test')
  .map((f) => relative('.', f).split('\\').join('/'))
  .filter((f) => kind === 'all' || kindOf(f) === kind)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Node 20 runs os.availableParallelism() - 1 files at once: one at a time on a 2-core machine,
// leaving a core idle through the whole unit run. Unit files are mostly CPU-bound, so run as many
// as there are cores (unless the caller chose with --test-concurrency). End-to-end files start
// nodes and anvil of their own and keep Node's default. `all` runs the unit files first, then the
// end-to-end ones, each kind with its own settings, and fails if either does.
function run(files, unit) {
  const preload = unit ? ['--import', './test/helpers/no-child-processes.mjs'] : [];
  const concurrency =
    unit && !flags.some((f) => f.startsWith('--test-concurrency'))
      ? [`--test-concurrency=${availableParallelism()}`]
      : [];
  const nodeArgs = ['--import', 'tsx', ...preload, '--test', ...concurrency, ...flags, ...files];
  return spawnSync(process.execPath, nodeArgs, { stdio: 'inherit' }).status ?? 1;
}
const unitFiles = files.filter((f) => kindOf(f) === 'unit');
// Unit files may not start processes, and fetching the reference's contract artifacts from the
// npm registry does (`npm pack`): fetch them once here, before any unit file runs, so that a fresh
// clone's unit run finds them cached (and no two files fetch at once). A failure is reported by
// the tests that need them. CAIRN_SKIP_ARTIFACTS=1 skips it, as it skips those tests.
if (unitFiles.length > 0 && process.env.CAIRN_SKIP_ARTIFACTS !== '1') {
  const fetched = spawnSync(process.execPath, ['scripts/fetch-artifacts.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (fetched.status !== 0) console.error('run-tests: the contract artifacts could not be fetched');
}
const e2eFiles = files.filter((f) => kindOf(f) === 'e2e');
const statuses = [];
if (unitFiles.length > 0) statuses.push(run(unitFiles, true));
if (e2eFiles.length > 0) statuses.push(run(e2eFiles, false));
process.exit(statuses.find((s) => s !== 0) ?? 0);
