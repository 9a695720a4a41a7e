// The Node.js versions cairn claims (package.json `engines`, README) are ones every installed
// package supports: the oldest claimed version satisfies the `engines.node` range each package of
// package-lock.json declares, so `npm install` on it prints no EBADENGINE warning.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};

type Version = [number, number, number];

function version(text: string): Version {
  const parts = text.replace(/^v/, '').split('.');
  const n = (i: number) => {
    const p = parts[i];
    return p === undefined || p === 'x' || p === '*' || p === '' ? 0 : Number.parseInt(p, 10);
  };
  return [n(0), n(1), n(2)];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Whether `v` satisfies one comparator such as `>=18`, `< 7`, `^14.21.3`, `10.*`, `4.x` or `*`. */
function satisfiesComparator(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*(.*)$/.exec(comparator)!;
  const op = m[1] ?? '';
  const text = m[2]!;
  if (text === '*' || text === 'x' || text === '') return true;
  const w = version(text);
  const c = compare(v, w);
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    case '^':
      return c >= 0 && (w[0] > 0 ? v[0] === w[0] : v[1] === w[1]);
    case '~':
      return c >= 0 && v[0] === w[0] && v[1] === w[1];
    default: {
      // `10`, `10.*`, `4.x`, `1.2.3`: the parts given must match.
      const given = text.split('.').filter((p) => p !== 'x' && p !== '*').length;
      return v.slice(0, given).every((p, i) => p === w[i]);
    }
  }
}

/** Whether `v` satisfies a range: comparator sets joined by `||`, each a space-separated AND. */
function satisfies(v: Version, range: string): boolean {
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => satisfiesComparator(v, comparator)),
  );
}

describe('Node.js engines', () => {
  const floor = /^>=\s*([0-9.]+)$/.exec(pkg.engines.node)?.[1];

  test('package.json states a minimum Node.js version (>=X.Y)', () => {
    assert.ok(floor, `engines.node is ${pkg.engines.node}`);
  });

  test('the minimum Node.js version satisfies every locked package’s engines.node', () => {
    const min = version(floor!);
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range !== undefined && !satisfies(min, range) ? [`${path} wants node ${range}`] : [];
      });
    assert.deepEqual(refused, []);
  });

  test('the README names the same minimum', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.match(readme, new RegExp(`Node\\.js ${floor!.replace('.', '\\.')} and later`));
  });

  test('the range check reads the forms the lockfile uses', () => {
    const v = version('20.19.0');
    for (const ok of ['>=20.19', '>= 20.19.0', '^16 || ^18 || >=20', '10.* || >= 12.*', '*', '>=6 <7 || >=8'])
      assert.ok(satisfies(v, ok), ok);
    for (const no of ['>=22', '^18', '>=6 <7', '14 || 16', '>= 20.19.1', '~20.18.0'])
      assert.ok(!satisfies(v, no), no);
  });
});
