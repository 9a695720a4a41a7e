// The layer table of docs/architecture.md is the map of src/: each folder's row names every .ts file
// in that folder (a file in a subfolder by its path within the folder, e.g. `hash/poseidon2.ts` for
// src/core/hash/poseidon2.ts), and every .ts name a row gives exists. So a file added, moved or
// removed without its row changing fails here instead of leaving the map quietly wrong.
// scripts/check-layers.mjs reads the same table for the layer numbers; this test reads the third
// cell, which that script ignores.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const DOC = 'docs/architecture.md';

/**
 * The rows of the `## Layers` table: the entry of the second cell (`core` for `src/core/`,
 * `index.ts` for a file directly in src/) and the backticked names ending in `.ts` in the third.
 */
function layerRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => /^##\s+Layers\s*$/.test(line));
  if (start < 0) return rows;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
    if (!/^\d+$/.test(cells[0] ?? '')) continue;
    const entry = /^`src\/([^`]+?)\/?`$/.exec(cells[1] ?? '')?.[1];
    if (!entry) continue;
    const names = [...(cells[2] ?? '').matchAll(/`([^`\s]+\.ts)`/g)].map((m) => m[1]!);
    rows.set(entry, names);
  }
  return rows;
}

/** Every .ts file under `dir`, as a path relative to it with forward slashes. */
function tsFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path, `${prefix}${name}/`));
    else if (name.endsWith('.ts')) out.push(`${prefix}${name}`);
  }
  return out;
}

/**
 * What the table and src/ disagree on: files no row names (`missing`) and names a row gives that
 * are no file (`stale`), each as a path under src/.
 */
function compare(rows: Map<string, string[]>, files: string[]): { missing: string[]; stale: string[] } {
  const present = new Set(files);
  const missing: string[] = [];
  for (const file of files) {
    const slash = file.indexOf('/');
    if (slash < 0) {
      // A file directly in src/ is named by its own row.
      if (!rows.has(file)) missing.push(file);
      continue;
    }
    const folder = file.slice(0, slash);
    if (!rows.get(folder)?.includes(file.slice(slash + 1))) missing.push(file);
  }
  const stale: string[] = [];
  for (const [entry, names] of rows) {
    if (entry.endsWith('.ts')) continue;
    for (const name of names) {
      // A generated file (src/l1/generated/, git-ignored) exists only once the build has made it:
      // before that, its folder is empty or absent and the name is not stale.
      const built = files.some((f) => f.startsWith(`${entry}/generated/`));
      if (name.startsWith('generated/') && !built) continue;
      if (!present.has(`${entry}/${name}`)) stale.push(`${entry}/${name}`);
    }
  }
  return { missing, stale };
}

function report({ missing, stale }: { missing: string[]; stale: string[] }): string {
  const parts: string[] = [];
  if (missing.length > 0) {
    parts.push(`not named in their folder's row:\n${missing.map((f) => `  src/${f}`).join('\n')}`);
  }
  if (stale.length > 0) {
    parts.push(`named but not in src/:\n${stale.map((f) => `  src/${f}`).join('\n')}`);
  }
  return (
    `the layer table of ${DOC} and src/ disagree.\n${parts.join('\n')}\n` +
    `Edit the "## Layers" table of ${DOC}: name each file in backticks in its folder's row ` +
    '(a file in a subfolder by its path within the folder, e.g. `hash/poseidon2.ts`) with a few words ' +
    'on what it holds, and drop the names of files that are gone.'
  );
}

describe(`the layer table of ${DOC} names every file of src/`, () => {
  test('every .ts file is named in its row, and every name is a file', () => {
    const rows = layerRows(readFileSync(join(root, DOC), 'utf8'));
    assert.ok(rows.size > 0, `${DOC} has no "## Layers" table`);
    const result = compare(rows, tsFiles(join(root, 'src')));
    assert.ok(result.missing.length === 0 && result.stale.length === 0, report(result));
  });

  test('the comparison finds missing and stale names (so the check above can fail)', () => {
    const rows = layerRows(
      [
        '## Layers',
        '',
        '| Layer | Folder | What it holds |',
        '|---|---|---|',
        '| 0 | `src/core/` | fields (`field.ts`), hashing (`hash/`: `hash/poseidon2.ts`), `gone.ts` |',
        '| 1 | `src/store/` | `environment.ts` |',
        '',
        '## Next',
        '',
        '| 2 | `src/other/` | `x.ts` |',
      ].join('\n'),
    );
    assert.deepEqual(
      [...rows],
      [
        ['core', ['field.ts', 'hash/poseidon2.ts', 'gone.ts']],
        ['store', ['environment.ts']],
      ],
    );
    const files = ['core/field.ts', 'core/hash/poseidon2.ts', 'core/hash/keccak.ts', 'store/environment.ts'];
    assert.deepEqual(compare(rows, [...files, 'cli/main.ts']), {
      missing: ['core/hash/keccak.ts', 'cli/main.ts'],
      stale: ['core/gone.ts'],
    });
  });

  test('a generated file is stale only once the build has made its folder', () => {
    const rows = layerRows('## Layers\n\n| 2 | `src/l1/` | `roles.ts`, code (`generated/artifacts.ts`) |\n');
    assert.deepEqual(compare(rows, ['l1/roles.ts']), { missing: [], stale: [] });
    assert.deepEqual(compare(rows, ['l1/roles.ts', 'l1/generated/abi.ts']), {
      missing: ['l1/generated/abi.ts'],
      stale: ['l1/generated/artifacts.ts'],
    });
  });
});
