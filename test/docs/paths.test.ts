// The docs are the map of the code: every file they name and every relative link they make must
// exist in the repository, and none may send a reader to documents outside it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Repository paths named in backticks, e.g. `src/node/node.ts` or `src/api/` (globs and placeholders left out). */
function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`((?:src|test|bench|scripts|docs)\/[^`\s]*)`/g)) {
    const path = m[1]!;
    if (/[*<>{}]|\.\.\./.test(path)) continue;
    out.push(path);
  }
  return out;
}

/** Relative markdown links, without their #anchor. */
function relativeLinks(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!.split('#')[0]!;
    if (target === '' || /^[a-z]+:/.test(target)) continue;
    out.push(target);
  }
  return out;
}

describe('docs name only what the repository holds', () => {
  for (const doc of docs) {
    const text = readFileSync(join(root, doc), 'utf8');
    test(`${doc}: every named path exists`, () => {
      const missing = namedPaths(text).filter((p) => !existsSync(join(root, p.replace(/:.*$/, ''))));
      assert.deepEqual(missing, []);
    });
    test(`${doc}: every relative link resolves`, () => {
      const broken = relativeLinks(text).filter((l) => !existsSync(normalize(join(root, dirname(doc), l))));
      assert.deepEqual(broken, []);
    });
    test(`${doc}: no reference to documents outside the repository`, () => {
      assert.doesNotMatch(text, /DESIGN §|reference-facts|\.\.\/shared|[Ii]ssue #?\d/);
    });
  }

  test('the path and link finders find what they look for (so the checks above can fail)', () => {
    assert.deepEqual(namedPaths('see `src/node/node.ts` and `src/api/` but not `src/**/*.ts`'), [
      'src/node/node.ts',
      'src/api/',
    ]);
    assert.deepEqual(relativeLinks('[a](docs/rpc.md#errors) [b](https://x.org) [c](#top)'), ['docs/rpc.md']);
  });
});

describe('docs carry no pasted tool noise', () => {
  test('no npm warning lines (they broke a table in docs/configuration.md)', () => {
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8');
      assert.doesNotMatch(text, /^npm (warn|WARN|ERR!)/m, doc);
    }
  });
});
