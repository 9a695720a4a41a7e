// docs/methods.md is generated from the method declarations and their recorded examples
// (scripts/method-docs.ts): it must be exactly what the generator gives now, so a method added,
// changed or re-recorded without the page following fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { METHODS_DOC, methodsDoc } from '../../scripts/method-docs.js';
import { AZTEC_NODE_API_METHODS } from '../../src/aztec/index.js';

const REGENERATE = 'node --import tsx scripts/method-docs.ts';

test('docs/methods.md is what the declarations and examples give', () => {
  const now = methodsDoc();
  const committed = readFileSync(METHODS_DOC, 'utf8');
  if (committed === now) return;
  const a = committed.split('\n');
  const b = now.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.fail(
    `docs/methods.md is out of date (first difference at line ${line + 1}: ${JSON.stringify(a[line])} should be ${JSON.stringify(b[line])}); regenerate it with \`${REGENERATE}\``,
  );
});

test('docs/methods.md has a section for every method of every set', () => {
  const doc = readFileSync(METHODS_DOC, 'utf8');
  const headings = doc.split('\n').filter((l) => l.startsWith('### '));
  for (const name of [
    'svc_getBlock',
    'node_getBlock',
    'svcAdmin_setConfig',
    'nodeAdmin_getConfig',
    'svcDev_mine',
  ])
    assert.ok(headings.includes(`### ${name}`), name);
  const aztec = doc.slice(doc.indexOf('<a id="aztec"></a>'));
  const aztecHeadings = aztec.split('\n').filter((l) => l.startsWith('### '));
  assert.deepEqual(aztecHeadings.sort(), AZTEC_NODE_API_METHODS.map((m) => `### node_${m}`).sort());
});
