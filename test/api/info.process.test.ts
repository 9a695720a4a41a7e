import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { type RunningNode, serve } from '../../src/cli/serve.js';
import { functionSelector } from '../../src/core/hash/selector.js';
import { NODE_VERSION } from '../../src/core/version.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY, expectedL1ContractAddresses } from '../../src/l1/deploy.js';
import { call, result, silentLogger, testConfig } from '../helpers/rpc.js';

const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
const fr = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
/** The embedded L1's contracts sit at the addresses its fixed deployer gives them. */
const embeddedL1Addresses = Object.fromEntries(
  Object.entries(expectedL1ContractAddresses(privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY).address)).map(
    ([k, v]) => [k, v.toLowerCase()],
  ),
);

describe('node information methods', () => {
  let running: RunningNode;
  let url: string;
  before(async () => {
    running = await serve(
      testConfig({
        l1ChainId: '424242',
        rollupVersion: '17',
        txMaxL2Gas: '5000000',
        txPublicSetupAllowListExtend:
          '[{"classId":"0xC1A55","selector":"0x0000abcd","rejectNullMsgSender":true}]',
      }),
      silentLogger(),
    );
    url = running.publicUrl;
  });
  after(() => running.close());

  test('getNodeInfo reports the configuration, in both sets', async () => {
    for (const ns of ['svc', 'node']) {
      const info = (await result(url, `${ns}_getNodeInfo`, [])) as Record<string, unknown>;
      assert.deepEqual(info, {
        nodeVersion: pkg.version,
        l1ChainId: 424242,
        rollupVersion: 17,
        l1ContractAddresses: embeddedL1Addresses,
        protocolContractAddresses: {
          classRegistry: fr(3n),
          feeJuice: fr(5n),
          instanceRegistry: fr(2n),
          multiCallEntrypoint: fr(4n),
        },
        realProofs: false,
        txsLimits: { gas: { daGas: 786432, l2Gas: 5000000 } },
      });
    }
  });

  test('getL1ContractAddresses: the deployed contracts, in both sets', async () => {
    for (const ns of ['svc', 'node']) {
      assert.deepEqual(await result(url, `${ns}_getL1ContractAddresses`), embeddedL1Addresses);
    }
  });

  test('version, chain id, readiness and ENR', async () => {
    for (const ns of ['svc', 'node']) {
      assert.equal(await result(url, `${ns}_getNodeVersion`), NODE_VERSION);
      assert.equal(await result(url, `${ns}_getVersion`), 17);
      assert.equal(await result(url, `${ns}_getChainId`), 424242);
      assert.equal(await result(url, `${ns}_isReady`), true);
      const enr = await call(url, `${ns}_getEncodedEnr`, []);
      assert.ok('result' in enr);
      assert.equal(enr.result, null);
      assert.deepEqual(await result(url, `${ns}_getProtocolContractAddresses`), {
        classRegistry: fr(3n),
        feeJuice: fr(5n),
        instanceRegistry: fr(2n),
        multiCallEntrypoint: fr(4n),
      });
    }
  });

  test('getAllowedPublicSetup: protocol defaults plus configuration', async () => {
    const selector = functionSelector('_increase_public_balance((Field),u128)');
    const claim = functionSelector('claim((Field),u128,Field,Field)');
    for (const ns of ['svc', 'node']) {
      assert.deepEqual(await result(url, `${ns}_getAllowedPublicSetup`), [
        {
          address: fr(5n),
          selector: `0x${selector.toString(16).padStart(8, '0')}`,
          onlySelf: true,
          calldataLength: 3,
        },
        {
          address: fr(5n),
          selector: `0x${claim.toString(16).padStart(8, '0')}`,
          calldataLength: 5,
        },
        { classId: fr(0xc1a55n), selector: '0x0000abcd', rejectNullMsgSender: true },
      ]);
    }
  });

  test('info methods take no params', async () => {
    const reply = await call(url, 'svc_getNodeInfo', [1]);
    assert.equal(reply.error?.code, -32602);
  });

  test('registerContractFunctionSignatures is in the earlier set only, at most 100 signatures', async () => {
    assert.equal(
      await result(url, 'node_registerContractFunctionSignatures', [['transfer(Field,u128)']]),
      null,
    );
    assert.equal(
      running.node.info.signatures.signatureOf(functionSelector('transfer(Field,u128)')),
      'transfer(Field,u128)',
    );
    assert.equal((await call(url, 'svc_registerContractFunctionSignatures', [[]])).error?.code, -32601);
    const tooMany = Array.from({ length: 101 }, (_, i) => `f${i}(Field)`);
    const reply = await call(url, 'node_registerContractFunctionSignatures', [tooMany]);
    assert.equal(reply.error?.code, -32602);
    assert.match(reply.error!.message, /at most 100/);
    const hundred = tooMany.slice(0, 100);
    assert.equal(await result(url, 'node_registerContractFunctionSignatures', [hundred]), null);
    const spaced = await call(url, 'node_registerContractFunctionSignatures', [['transfer(Field, u128)']]);
    assert.equal(spaced.error?.code, -32602);
    const notArray = await call(url, 'node_registerContractFunctionSignatures', ['transfer(Field)']);
    assert.equal(notArray.error?.code, -32602);
  });

  test('svc_getFunctionSignatures names registered and allow-listed selectors, null for the rest', async () => {
    const hex = (selector: number) => `0x${selector.toString(16).padStart(8, '0')}`;
    const transfer = 'transfer_in_public((Field),(Field),u128,Field)';
    await result(url, 'node_registerContractFunctionSignatures', [[transfer]]);
    // The protocol's setup allow-list is known from the start: Fee Juice's public claim is on it.
    const allowListed = (await result(url, 'svc_getAllowedPublicSetup', [])) as { selector: string }[];
    assert.ok(allowListed.length > 0);
    const unknown = functionSelector('never_registered(Field)');
    const got = await result(url, 'svc_getFunctionSignatures', [
      [hex(functionSelector(transfer)), hex(unknown), allowListed[0]!.selector],
    ]);
    assert.ok(Array.isArray(got));
    const [named, none, setup] = got as (string | null)[];
    assert.equal(named, transfer);
    assert.equal(none, null);
    assert.equal(hex(functionSelector(setup!)), allowListed[0]!.selector.toLowerCase());
    assert.deepEqual(await result(url, 'svc_getFunctionSignatures', [[]]), []);
    for (const bad of [['0x1234'], ['12345678'], Array.from({ length: 101 }, () => hex(unknown))]) {
      const reply = await call(url, 'svc_getFunctionSignatures', [bad]);
      assert.equal(reply.error?.code, -32602, JSON.stringify(bad).slice(0, 40));
    }
    assert.equal((await call(url, 'node_getFunctionSignatures', [[]])).error?.code, -32601);
  });
});

describe('function signatures persist across restarts', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-sig-test-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a restarted node still names a registered selector', async () => {
    const flags = { ephemeral: 'false', dataDir };
    const first = await serve(testConfig(flags), silentLogger());
    await result(first.publicUrl, 'node_registerContractFunctionSignatures', [
      ['mint_to_public((Field),u128)'],
    ]);
    await first.close();
    const second = await serve(testConfig(flags), silentLogger());
    try {
      const selector = functionSelector('mint_to_public((Field),u128)');
      assert.match(
        second.node.info.signatures.describe(selector),
        /^mint_to_public\(\(Field\),u128\) \[0x[0-9a-f]{8}\]$/,
      );
    } finally {
      await second.close();
    }
  });
});
