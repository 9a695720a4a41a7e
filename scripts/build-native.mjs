#!/usr/bin/env node
// Builds the native Poseidon2 addon (binding.gyp -> build/Release/poseidon2.node) with node-gyp.
// Runs as the package's "install" script, so `npm install` and `npm rebuild` build it. A failed
// build is not fatal: it prints a warning and exits 0, and cairn then uses the (much slower)
// TypeScript Poseidon2 fallback. Set CAIRN_SKIP_NATIVE=1 to skip the build entirely.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const addon = join(root, 'build', 'Release', 'poseidon2.node');

function warn(message) {
  console.warn(`\n[cairn] WARNING: ${message}`);
  console.warn('[cairn] The native Poseidon2 addon was not built; cairn will fall back to the TypeScript');
  console.warn('[cairn] implementation (about 10x slower). Install a C++ toolchain (g++, make, python3)');
  console.warn('[cairn] and run `npm rebuild` to build it.\n');
}

/** Candidate node-gyp entry points, most specific first: npm's own bundled copy needs no network. */
function nodeGypCandidates() {
  const out = [];
  // npm sets this for lifecycle scripts; it points at its bundled node-gyp.
  if (process.env.npm_config_node_gyp) out.push(process.env.npm_config_node_gyp);
  // npm_execpath is npm-cli.js inside npm's own folder.
  if (process.env.npm_execpath) {
    out.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  }
  // The npm installed next to this node binary (Unix and Windows layouts).
  const prefix = resolve(dirname(process.execPath), '..');
  out.push(join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  out.push(
    join(dirname(process.execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  );
  // A node-gyp installed in the project itself.
  try {
    out.push(createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not installed locally
  }
  return out;
}

function findNodeGyp() {
  for (const candidate of nodeGypCandidates()) {
    if (candidate.endsWith('.js') && existsSync(candidate))
      return { command: process.execPath, args: [candidate] };
  }
  // Last resort: a node-gyp on PATH.
  return { command: process.platform === 'win32' ? 'node-gyp.cmd' : 'node-gyp', args: [] };
}

function main() {
  if (process.env.CAIRN_SKIP_NATIVE === '1') {
    console.warn('[cairn] CAIRN_SKIP_NATIVE=1: not building the native Poseidon2 addon');
    return;
  }
  const gyp = findNodeGyp();
  const args = [...gyp.args, 'rebuild', '--release'];
  // Use the headers of the running Node when they are installed next to it, so no download is
  // needed (npm passes its `nodedir` setting through npm_config_nodedir, which node-gyp reads).
  if (!process.env.npm_config_nodedir) {
    const prefix = resolve(dirname(process.execPath), '..');
    if (existsSync(join(prefix, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${prefix}`);
  }
  console.log(`[cairn] building the native Poseidon2 addon: ${[gyp.command, ...args].join(' ')}`);
  const result = spawnSync(gyp.command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.error) {
    warn(`could not run node-gyp (${result.error.message}).`);
    return;
  }
  if (result.status !== 0) {
    warn(`node-gyp exited with ${result.status ?? `signal ${result.signal}`}.`);
    return;
  }
  if (!existsSync(addon)) {
    warn(`node-gyp succeeded but ${addon} is missing.`);
    return;
  }
  try {
    createRequire(import.meta.url)(addon);
  } catch (err) {
    warn(`the built addon does not load: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  console.log(`[cairn] built ${addon}`);
}

try {
  main();
} catch (err) {
  warn(`unexpected error: ${err instanceof Error ? err.message : String(err)}`);
}
process.exit(0);
