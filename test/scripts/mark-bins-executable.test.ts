// `npx cairn` runs the bin through npm's cached link of the repository, which does not set the
// executable bit again after a rebuild: the build must leave every bin executable itself.
import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';

test('every bin in package.json is executable after the build', () => {
  const { bin } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  assert.ok(Object.keys(bin).length > 0);
  for (const [name, file] of Object.entries(bin)) {
    assert.doesNotThrow(() => accessSync(join(REPO_ROOT, file), constants.X_OK), `${name} (${file})`);
    assert.match(readFileSync(join(REPO_ROOT, file), 'utf8'), /^#!\/usr\/bin\/env node\n/, name);
  }
});
