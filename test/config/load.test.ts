import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, isLoopback, loadConfig } from '../../src/config/load.js';
import { envOf, flagOf, SETTINGS } from '../../src/config/settings.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-config-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('configuration', () => {
  test('every setting has a default matching its schema, unless optional', () => {
    const { config, origins } = loadConfig({ env: {} });
    for (const [key, spec] of Object.entries(SETTINGS)) {
      assert.equal(origins[key as keyof typeof SETTINGS], 'default', key);
      if (spec.optional) assert.equal(config[key as keyof typeof config], undefined, key);
      else assert.ok(spec.schema.safeParse(spec.default).success, `${key} default is valid`);
    }
    assert.equal(config.port, 8080);
    assert.equal(config.adminPort, 8880);
    assert.equal(config.adminHost, '127.0.0.1');
    assert.equal(config.rpcMaxBatchSize, 100);
  });

  test('docs/configuration.md documents every setting', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const key of Object.keys(SETTINGS)) {
      assert.ok(
        doc.includes(`| \`${key}\` | \`${flagOf(key)}\` | \`${envOf(key)}\``),
        `${key} is missing from the table`,
      );
    }
  });

  test('flag names and env names follow the setting key', () => {
    assert.equal(flagOf('adminApiKey'), '--admin-api-key');
    assert.equal(envOf('adminApiKey'), 'CAIRN_ADMIN_API_KEY');
    assert.equal(flagOf('l1ChainId'), '--l1-chain-id');
    assert.equal(envOf('l1ChainId'), 'CAIRN_L1_CHAIN_ID');
    // A run of capitals is one word.
    assert.equal(flagOf('archiverPollingIntervalMS'), '--archiver-polling-interval-ms');
    assert.equal(envOf('archiverPollingIntervalMS'), 'CAIRN_ARCHIVER_POLLING_INTERVAL_MS');
    assert.equal(flagOf('txMaxL2Gas'), '--tx-max-l2-gas');
    assert.equal(envOf('p2pBootstrapNodes'), 'CAIRN_P2P_BOOTSTRAP_NODES');
  });

  test('archiverPollingIntervalMS is read from its variable and from its former name', () => {
    const current = loadConfig({ env: { CAIRN_ARCHIVER_POLLING_INTERVAL_MS: '250' } });
    assert.equal(current.config.archiverPollingIntervalMS, 250);
    assert.equal(current.origins.archiverPollingIntervalMS, 'CAIRN_ARCHIVER_POLLING_INTERVAL_MS');
    assert.deepEqual(current.warnings, []);
    const former = loadConfig({ env: { CAIRN_ARCHIVER_POLLING_INTERVAL_M_S: '300' } });
    assert.equal(former.config.archiverPollingIntervalMS, 300);
    assert.equal(former.origins.archiverPollingIntervalMS, 'CAIRN_ARCHIVER_POLLING_INTERVAL_M_S');
    assert.deepEqual(former.warnings, [], 'the former name is not an unknown variable');
    const both = loadConfig({
      env: { CAIRN_ARCHIVER_POLLING_INTERVAL_MS: '250', CAIRN_ARCHIVER_POLLING_INTERVAL_M_S: '300' },
    });
    assert.equal(both.config.archiverPollingIntervalMS, 250, 'the current name wins');
    assert.throws(
      () => loadConfig({ env: { CAIRN_ARCHIVER_POLLING_INTERVAL_M_S: '10' } }),
      /invalid setting archiverPollingIntervalMS \(from CAIRN_ARCHIVER_POLLING_INTERVAL_M_S\)/,
    );
  });

  test('precedence: flag over env over config file over default', () => {
    const configFile = file('p.json', { port: 1111, adminPort: 2222, rollupVersion: 3, l1ChainId: 7 });
    const env = { CAIRN_PORT: '3333', CAIRN_ADMIN_PORT: '4444' };
    const { config, origins } = loadConfig({ flags: { port: '5555' }, env, configFile });
    assert.equal(config.port, 5555);
    assert.equal(origins.port, '--port');
    assert.equal(config.adminPort, 4444);
    assert.equal(origins.adminPort, 'CAIRN_ADMIN_PORT');
    assert.equal(config.rollupVersion, 3);
    assert.match(origins.rollupVersion, /config file/);
    assert.equal(config.l1ChainId, 7);
    assert.equal(config.rpcMaxBatchSize, 100);
    assert.equal(origins.rpcMaxBatchSize, 'default');
  });

  test('the config file is also found through CAIRN_CONFIG', () => {
    const configFile = file('env.json', { rollupVersion: 9 });
    assert.equal(loadConfig({ env: { CAIRN_CONFIG: configFile } }).config.rollupVersion, 9);
  });

  test('text forms: integers, booleans, lists and JSON', () => {
    const { config } = loadConfig({
      env: {
        CAIRN_EPHEMERAL: 'yes',
        CAIRN_RPC_CORS_ORIGINS: 'https://a.example, https://b.example',
        CAIRN_TX_PUBLIC_SETUP_ALLOW_LIST_EXTEND:
          '[{"address":"0x1234","selector":"0xabcd0123","onlySelf":true}]',
      },
    });
    assert.equal(config.ephemeral, true);
    assert.deepEqual(config.rpcCorsOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(config.txPublicSetupAllowListExtend, [
      { address: 0x1234n, selector: 0xabcd0123, onlySelf: true },
    ]);
    assert.equal(loadConfig({ flags: { ephemeral: true }, env: {} }).config.ephemeral, true);
    assert.equal(
      loadConfig({ flags: { ephemeral: 'false' }, env: { CAIRN_EPHEMERAL: 'true' } }).config.ephemeral,
      false,
    );
  });

  test('an empty environment variable counts as unset', () => {
    assert.equal(loadConfig({ env: { CAIRN_PORT: '' } }).config.port, 8080);
  });

  test('an invalid setting is refused with a message naming it and its source', () => {
    const cases: [Parameters<typeof loadConfig>[0], RegExp][] = [
      [{ flags: { port: '70000' } }, /invalid setting port \(from --port\).*65535/],
      [{ flags: { port: 'eighty' } }, /invalid setting port \(from --port\).*integer/],
      [{ env: { CAIRN_ADMIN_PORT: '-1' } }, /invalid setting adminPort \(from CAIRN_ADMIN_PORT\)/],
      [{ env: { CAIRN_LOG_LEVEL: 'loud' } }, /invalid setting logLevel/],
      [{ env: { CAIRN_EPHEMERAL: 'maybe' } }, /invalid setting ephemeral.*true or false/],
      [{ flags: { rpcMaxBatchSize: '0' } }, /invalid setting rpcMaxBatchSize/],
      [{ flags: { adminApiKey: 'short' } }, /invalid setting adminApiKey.*16/],
      [
        { flags: { txPublicSetupAllowListExtend: '[{"selector":"0x1"}]' } },
        /txPublicSetupAllowListExtend.*exactly one of address or classId/,
      ],
      [
        { flags: { txPublicSetupAllowListExtend: 'not json' } },
        /txPublicSetupAllowListExtend.*expected JSON/,
      ],
      [
        { configFile: file('bad.json', { port: '8080' }) },
        /invalid setting port \(from config file .*bad\.json\)/,
      ],
    ];
    for (const [sources, pattern] of cases) {
      assert.throws(
        () => loadConfig({ env: {}, ...sources }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, pattern);
          return true;
        },
      );
    }
  });

  test('config file problems are reported clearly', () => {
    assert.throws(
      () => loadConfig({ env: {}, configFile: join(dir, 'missing.json') }),
      /cannot read config file/,
    );
    assert.throws(() => loadConfig({ env: {}, configFile: file('broken.json', '{port:') }), /not valid JSON/);
    assert.throws(() => loadConfig({ env: {}, configFile: file('arr.json', [1]) }), /JSON object/);
    assert.throws(
      () => loadConfig({ env: {}, configFile: file('unknown.json', { prot: 1 }) }),
      /unknown setting "prot"/,
    );
    // A retired setting says what replaced it.
    assert.throws(
      () => loadConfig({ env: {}, configFile: file('retired.json', { contractUpdateDelay: 600 }) }),
      /setting "contractUpdateDelay" in config file .* no longer exists: .*set_update_delay/,
    );
  });

  test('unknown CAIRN_ variables are reported as warnings', () => {
    const { warnings } = loadConfig({ env: { CAIRN_PROT: '1', CAIRN_PORT: '1234', OTHER: 'x' } });
    assert.deepEqual(warnings, ['unknown environment variable CAIRN_PROT is ignored']);
  });

  test('the admin port refuses a non-loopback address without an API key', () => {
    assert.throws(
      () => loadConfig({ env: {}, flags: { adminHost: '0.0.0.0' } }),
      /adminHost.*0\.0\.0\.0 is not a loopback address.*adminApiKey/,
    );
    const ok = loadConfig({ env: {}, flags: { adminHost: '0.0.0.0', adminApiKey: 'k'.repeat(32) } });
    assert.equal(ok.config.adminHost, '0.0.0.0');
    assert.equal(loadConfig({ env: {}, flags: { adminHost: '::1' } }).config.adminHost, '::1');
    assert.equal(loadConfig({ env: {}, flags: { adminHost: 'localhost' } }).config.adminHost, 'localhost');
  });

  test('loopback detection', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost'])
      assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '10.0.0.1', '::', 'example.com', '128.0.0.1'])
      assert.equal(isLoopback(host), false, host);
  });

  test('l1ContractAddresses takes the whole svc_getL1ContractAddresses result; its absent contracts are zero', () => {
    const deployed = {
      rollupAddress: '0x0000000000000000000000000000000000000001',
      registryAddress: '0x0000000000000000000000000000000000000002',
      inboxAddress: '0x0000000000000000000000000000000000000003',
      outboxAddress: '0x0000000000000000000000000000000000000004',
      feeJuiceAddress: '0x0000000000000000000000000000000000000005',
      feeJuicePortalAddress: '0x0000000000000000000000000000000000000006',
      slashFactoryAddress: '0x0000000000000000000000000000000000000007',
    };
    const zero = '0x0000000000000000000000000000000000000000';
    const served = {
      ...deployed,
      stakingAssetAddress: zero,
      coinIssuerAddress: zero,
      rewardDistributorAddress: zero,
      governanceProposerAddress: zero,
      governanceAddress: zero,
    };
    const load = (value: unknown) =>
      loadConfig({
        env: {},
        flags: { l1RpcUrl: 'http://127.0.0.1:8545', l1ContractAddresses: JSON.stringify(value) },
      }).config.l1ContractAddresses;
    assert.deepEqual(load(served), deployed);
    assert.deepEqual(load(deployed), deployed);
    assert.throws(
      () => load({ ...served, governanceAddress: deployed.rollupAddress }),
      /l1ContractAddresses.*governanceAddress.*cairn has no such contract: expected the zero address/s,
    );
    assert.throws(() => load({ ...served, somethingElse: zero }), /l1ContractAddresses/);
  });

  test('the embedded L1 listens on 8545 unless told otherwise', () => {
    assert.equal(loadConfig({ env: {}, flags: {} }).config.l1Port, 8545);
    assert.equal(loadConfig({ env: { CAIRN_L1_PORT: '0' }, flags: {} }).config.l1Port, 0);
  });

  test('the public and admin ports must differ', () => {
    assert.throws(
      () => loadConfig({ env: {}, flags: { port: '9000', adminPort: '9000' } }),
      /port and adminPort/,
    );
    assert.equal(loadConfig({ env: {}, flags: { port: '0', adminPort: '0' } }).config.port, 0);
  });
});
