#!/usr/bin/env node
// Fetches the reference's pinned contract artifacts from the npm registry into the git-ignored
// cache `.cache/artifacts/` and prints their paths: the command-line front of
// src/artifacts/npm-artifacts.ts, which it runs from dist/ (built by `npm install`).
//
// Usage: node scripts/fetch-artifacts.mjs [--cache-dir DIR] [--force] [--registry URL]
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'artifacts', 'npm-artifacts.js');
if (!existsSync(built)) {
  console.error('fetch-artifacts: dist/ is not built: run `npm install` (or `npm run build`) first');
  process.exit(1);
}
const { ArtifactFetchError, ensureArtifacts } = await import(pathToFileURL(built).href);

async function main(argv) {
  const opts = { log: (line) => console.error(line) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--force') opts.force = true;
    else if (a === '--cache-dir') opts.cacheDir = resolve(argv[++i]);
    else if (a === '--registry') opts.registry = argv[++i];
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/fetch-artifacts.mjs [--cache-dir DIR] [--force] [--registry URL]');
      return 0;
    } else {
      console.error(`unknown argument: ${a}`);
      return 2;
    }
  }
  try {
    const res = await ensureArtifacts(opts);
    for (const { files } of Object.values(res)) for (const p of Object.values(files)) console.log(p);
    return 0;
  } catch (err) {
    console.error(err instanceof ArtifactFetchError ? err.message : err);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
