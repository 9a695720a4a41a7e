#!/usr/bin/env node
// Generates the golden AVM vectors in test/avm/vectors/*.json by running the reference public VM
// (@aztec/simulator@4.1.2, TypeScript) on real 4.1.2 contracts and on hand-made bytecode.
// Run by hand, outside CI; see scripts/avm-oracle/README.md and docs/avm-vectors.md.
//
//   node scripts/avm-oracle/generate.mjs --scratch /work/avm-oracle-scratch [--only token,avm-test]
//   node --import tsx scripts/avm-oracle/generate.mjs --scratch /work/avm-oracle-scratch --timing
//     (times the reference against cairn's interpreter on the calls in timing.mjs; writes no files)
process.env.LOG_LEVEL ??= 'warn';

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureArtifacts, loadArtifactJson, REPO_ROOT } from '../../dist/artifacts/npm-artifacts.js';
import { GROUPS } from './groups.mjs';
import { loadReference, PINNED_VERSION } from './reference.mjs';
import { TIMED_GROUPS, Timing } from './timing.mjs';

function parseArgs(argv) {
  const opts = {
    scratch: process.env.AVM_ORACLE_SCRATCH,
    only: null,
    out: join(REPO_ROOT, 'test', 'avm', 'vectors'),
    timing: false,
    // Timing mode, for each side of each call: a warm-up of at least warmupRuns calls and
    // warmupSeconds, then at least `runs` timed calls and `seconds`.
    plan: { runs: 20, seconds: 1, warmupRuns: 3, warmupSeconds: 0.5 },
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--scratch') opts.scratch = argv[++i];
    else if (a === '--only') opts.only = argv[++i].split(',');
    else if (a === '--out') opts.out = resolve(argv[++i]);
    else if (a === '--timing') opts.timing = true;
    else if (a === '--timing-runs') opts.plan.runs = Number(argv[++i]);
    else if (a === '--timing-seconds') opts.plan.seconds = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.scratch)
    throw new Error('pass --scratch <folder> (or set AVM_ORACLE_SCRATCH): see scripts/avm-oracle/README.md');
  opts.scratch = resolve(opts.scratch);
  return opts;
}

/**
 * JSON with one line per leaf: arrays of scalars and objects whose values are all scalars stay
 * on one line, so the files are compact and regenerating them gives readable diffs.
 */
export function formatJson(value, indent = '') {
  const scalar = (v) => v === null || typeof v !== 'object';
  if (scalar(value)) return JSON.stringify(value);
  const inner = `${indent} `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every(scalar)) return `[${value.map((v) => JSON.stringify(v)).join(',')}]`;
    return `[\n${value.map((v) => inner + formatJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  if (entries.every(([, v]) => scalar(v)) && entries.length <= 8) {
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
  }
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const artifacts = await ensureArtifacts({ log: (l) => console.error(l) });
  const R = await loadReference(opts.scratch);
  const ctx = {
    R,
    artifacts,
    loadArtifact(pkg, file) {
      return R.abi.loadContractArtifact(loadArtifactJson(pkg, file));
    },
    raw(pkg, file) {
      return loadArtifactJson(pkg, file);
    },
  };
  if (opts.timing) {
    ctx.timing = new Timing(opts.plan);
    await ctx.timing.load();
    opts.only ??= TIMED_GROUPS;
  } else mkdirSync(opts.out, { recursive: true });
  for (const group of GROUPS) {
    if (opts.only && !opts.only.includes(group.id)) continue;
    const t0 = Date.now();
    ctx.timing?.startGroup(group.id);
    const doc = await group.generate(ctx);
    if (ctx.timing) {
      await ctx.timing.endGroup(doc);
      console.error(
        `${group.id}: ${doc.steps.length} steps, timed in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      continue;
    }
    const file = {
      reference: `@aztec/simulator@${PINNED_VERSION}`,
      generatedBy: 'scripts/avm-oracle/generate.mjs',
      generatedAt: new Date().toISOString().slice(0, 10),
      ...doc,
    };
    const path = join(opts.out, `${group.id}.json`);
    const text = `${formatJson(file)}\n`;
    writeFileSync(path, text);
    const n = file.steps.length;
    const reverted = file.steps.filter((s) => s.expect.reverted).length;
    console.error(
      `${group.id}: ${n} steps (${reverted} reverted), ${(text.length / 1024).toFixed(1)} KiB, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  console.error(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (ctx.timing) console.log(ctx.timing.report());
}

main().then(
  () => process.exit(0), // bb.js keeps handles open
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
