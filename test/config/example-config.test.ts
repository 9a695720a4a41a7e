// docs/examples/cairn.json is a config file a user can start from: the node's own loader reads it
// with no error and no warning, every key in it is a setting taken from the file, and
// docs/examples/README.md explains every key it holds (and none it does not).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { SETTINGS, type SettingKey } from '../../src/config/settings.js';

const examples = join(import.meta.dirname, '..', '..', 'docs', 'examples');
const configFile = join(examples, 'cairn.json');
const keys = Object.keys(JSON.parse(readFileSync(configFile, 'utf8')) as object);

describe('docs/examples/cairn.json', () => {
  test('loads through the real config loader with no error and no warning', () => {
    const { warnings, origins } = loadConfig({ flags: {}, env: {}, configFile });
    assert.deepEqual(warnings, []);
    for (const key of keys) {
      assert.ok(key in SETTINGS, `${key} is a setting`);
      assert.match(origins[key as SettingKey], /^config file /, key);
    }
  });

  test('flags and variables still override it', () => {
    const { config } = loadConfig({
      flags: { dataDir: '/tmp/elsewhere' },
      env: { CAIRN_LOG_FORMAT: 'pretty' },
      configFile,
    });
    assert.equal(config.dataDir, '/tmp/elsewhere');
    assert.equal(config.logFormat, 'pretty');
  });

  test('docs/examples/README.md explains exactly the keys the file holds', () => {
    const readme = readFileSync(join(examples, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| ((?:`[A-Za-z0-9]+`(?:, )?)+) \|/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([A-Za-z0-9]+)`/g)].map((k) => k[1]!),
    );
    assert.deepEqual([...documented].sort(), [...keys].sort());
  });

  test('docs/examples/README.md links and names only files that exist', () => {
    const readme = readFileSync(join(examples, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#\s]+)/g)].map((m) => join(examples, m[1]!));
    const named = [...readme.matchAll(/`((?:test|src|docs)\/[^`\s]+)`/g)].map((m) =>
      join(examples, '..', '..', m[1]!),
    );
    assert.ok(links.length > 0);
    assert.deepEqual(
      [...links, ...named].filter((p) => !existsSync(p)),
      [],
    );
  });
});
