// The admin configuration (src/node/admin-config.ts): resolveUpdate's checks and changes, the
// strict setConfig param schema, the store of saved values (round trip across a reopen, merging,
// null, unreadable members) and applying saved values over a startup configuration.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import { z } from 'zod';
import {
  AdminConfigError,
  AdminConfigStore,
  type AdminSettings,
  type AdminStates,
  adminConfigUpdate,
  adminSettingsOf,
  applySavedAdminConfig,
  resolveUpdate,
} from '../../src/node/admin-config.js';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
import { testConfig } from '../helpers/rpc.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-admin-config-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => join(root, `d${dirs++}`);

const RUNNING: AdminStates = { syncState: 'running', sequencerState: 'running' };
const COINBASE = `0x${'ab'.repeat(20)}`;

/** The admin settings of a default test configuration, with `overrides`. */
function current(overrides: Partial<AdminSettings> = {}): AdminSettings {
  return { ...adminSettingsOf(testConfig()), ...overrides };
}

/** A setConfig param as the API decodes it. */
const update = (json: unknown) => z.decode(adminConfigUpdate, json as never);

/** A logger whose records land in `records`. */
function capturingLogger(): { logger: pino.Logger; records: { level: number; msg: string }[] } {
  const records: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { logger, records };
}

describe('resolveUpdate', () => {
  test('returns the members the update sets, and only those', () => {
    const changes = resolveUpdate(
      update({ archiverBatchSize: 7, maxTxsPerBlock: 9, feeRecipient: '0x1234', coinbase: COINBASE }),
      current({ archiverBatchSize: 1000, maxTxsPerBlock: 32 }),
      RUNNING,
    );
    assert.deepEqual(changes, {
      archiverBatchSize: 7,
      maxTxsPerBlock: 9,
      feeRecipient: 0x1234n,
      coinbase: COINBASE,
    });
    assert.deepEqual(resolveUpdate(update({}), current(), RUNNING), {});
  });

  test('every member is passed through under its admin name', () => {
    const allowList = [{ address: '0x05', selector: '0x0000abcd' }];
    const changes = resolveUpdate(
      update({
        archiverPollingIntervalMS: 250,
        archiverBatchSize: 3,
        minTxsPerBlock: 2,
        maxTxsPerBlock: 4,
        maxPendingTxCount: 5,
        coinbase: COINBASE,
        feeRecipient: '0x99',
        txPublicSetupAllowListExtend: allowList,
      }),
      current(),
      RUNNING,
    );
    assert.deepEqual(changes, {
      archiverPollingIntervalMS: 250,
      archiverBatchSize: 3,
      minTxsPerBlock: 2,
      maxTxsPerBlock: 4,
      maxPendingTxCount: 5,
      coinbase: COINBASE,
      feeRecipient: 0x99n,
      txPublicSetupAllowListExtend: [{ address: 5n, selector: 0xabcd }],
    });
  });

  test('null unsets coinbase and feeRecipient: present in the changes as undefined', () => {
    const changes = resolveUpdate(
      update({ coinbase: null, feeRecipient: null }),
      current({ coinbase: COINBASE, feeRecipient: 5n }),
      RUNNING,
    );
    assert.deepEqual(Object.keys(changes).sort(), ['coinbase', 'feeRecipient']);
    assert.equal(changes.coinbase, undefined);
    assert.equal(changes.feeRecipient, undefined);
  });

  test('realProofs true is refused; realProofs false is accepted and changes nothing', () => {
    assert.throws(
      () => resolveUpdate(update({ realProofs: true }), current(), RUNNING),
      (err: unknown) => err instanceof AdminConfigError && /realProofs/.test((err as Error).message),
    );
    assert.deepEqual(resolveUpdate(update({ realProofs: false, archiverBatchSize: 2 }), current(), RUNNING), {
      archiverBatchSize: 2,
    });
  });

  test('syncState and sequencerState are accepted only with their current value', () => {
    const paused: AdminStates = { syncState: 'paused', sequencerState: 'none' };
    assert.deepEqual(
      resolveUpdate(update({ syncState: 'paused', sequencerState: 'none' }), current(), paused),
      {},
    );
    assert.deepEqual(
      resolveUpdate(update({ syncState: 'running', sequencerState: 'running' }), current(), RUNNING),
      {},
    );
    /** Another value of `key` than its current one is refused, whether it runs or not. */
    const assertOtherStateRefused = (key: keyof AdminStates) => {
      assert.throws(
        () => resolveUpdate(update({ [key]: 'paused' }), current(), RUNNING),
        (err: unknown) =>
          err instanceof AdminConfigError && new RegExp(`${key} is running`).test((err as Error).message),
      );
      assert.throws(
        () => resolveUpdate(update({ [key]: 'running' }), current(), paused),
        new RegExp(`${key} is ${paused[key]}`),
      );
    };
    assertOtherStateRefused('syncState');
    assertOtherStateRefused('sequencerState');
    // A refused state refuses the whole update, even with valid settings beside it.
    assert.throws(
      () => resolveUpdate(update({ archiverBatchSize: 5, syncState: 'paused' }), current(), RUNNING),
      AdminConfigError,
    );
  });

  test('minTxsPerBlock above maxTxsPerBlock after the merge is refused', () => {
    const base = current({ minTxsPerBlock: 2, maxTxsPerBlock: 10 });
    // Both in the update.
    assert.throws(
      () => resolveUpdate(update({ minTxsPerBlock: 6, maxTxsPerBlock: 5 }), base, RUNNING),
      (err: unknown) =>
        err instanceof AdminConfigError &&
        /minTxsPerBlock \(6\) cannot exceed maxTxsPerBlock \(5\)/.test((err as Error).message),
    );
    // Only min: against the current max.
    assert.throws(() => resolveUpdate(update({ minTxsPerBlock: 11 }), base, RUNNING), /\(11\).*\(10\)/);
    // Only max: against the current min.
    assert.throws(() => resolveUpdate(update({ maxTxsPerBlock: 1 }), base, RUNNING), /\(2\).*\(1\)/);
    // Equal is fine, on either side.
    assert.deepEqual(resolveUpdate(update({ minTxsPerBlock: 10 }), base, RUNNING), { minTxsPerBlock: 10 });
    assert.deepEqual(resolveUpdate(update({ maxTxsPerBlock: 2 }), base, RUNNING), { maxTxsPerBlock: 2 });
    // Raising both at once past the current max is fine.
    assert.deepEqual(resolveUpdate(update({ minTxsPerBlock: 20, maxTxsPerBlock: 20 }), base, RUNNING), {
      minTxsPerBlock: 20,
      maxTxsPerBlock: 20,
    });
  });
});

describe('adminConfigUpdate schema', () => {
  test('is strict: an unknown member fails', () => {
    assert.equal(adminConfigUpdate.safeParse({ archiverBatchSize: 5, pollingInterval: 100 }).success, false);
    assert.equal(adminConfigUpdate.safeParse({ mempoolMaxTxCount: 5 }).success, false);
    assert.equal(adminConfigUpdate.safeParse({}).success, true);
  });

  test('wrong types and out-of-range values fail', () => {
    for (const bad of [
      { archiverPollingIntervalMS: '500' },
      { archiverPollingIntervalMS: 10 },
      { archiverBatchSize: 0 },
      { archiverBatchSize: 1.5 },
      { minTxsPerBlock: -1 },
      { maxTxsPerBlock: 0 },
      { maxPendingTxCount: true },
      { coinbase: '0x1234' },
      { coinbase: 5 },
      { feeRecipient: 12 },
      { feeRecipient: 'zz' },
      { txPublicSetupAllowListExtend: {} },
      { txPublicSetupAllowListExtend: [{ selector: '0x01' }] },
      { realProofs: 'false' },
      { syncState: 'stopped' },
      { sequencerState: 'off' },
      { archiverBatchSize: null },
      { minTxsPerBlock: null },
    ]) {
      assert.equal(adminConfigUpdate.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  test('a whole getConfig-shaped object is accepted', () => {
    const parsed = adminConfigUpdate.safeParse({
      archiverPollingIntervalMS: 500,
      archiverBatchSize: 1000,
      minTxsPerBlock: 0,
      maxTxsPerBlock: 32,
      maxPendingTxCount: 10,
      coinbase: COINBASE.toUpperCase().replace('0X', '0x'),
      feeRecipient: null,
      txPublicSetupAllowListExtend: [],
      realProofs: false,
      syncState: 'running',
      sequencerState: 'none',
    });
    assert.equal(parsed.success, true);
    assert.equal(parsed.data!.coinbase, COINBASE, 'coinbase is lowercased');
    assert.equal(parsed.data!.feeRecipient, null);
  });
});

describe('AdminConfigStore', () => {
  const opened: StoreEnvironment[] = [];
  after(async () => {
    for (const env of opened) await env.close();
  });
  const open = (dir: string): { env: StoreEnvironment; store: AdminConfigStore } => {
    const env = openEnvironment(dir, 'node');
    opened.push(env);
    return { env, store: new AdminConfigStore(env) };
  };
  const noWarnings = (message: string) => assert.fail(`unexpected warning: ${message}`);

  test('an empty store loads nothing', () => {
    const { store } = open(freshDir());
    assert.deepEqual(store.load(noWarnings), {});
  });

  test('saved values load back decoded after the environment is reopened', async () => {
    const dir = freshDir();
    const first = open(dir);
    const values: Partial<AdminSettings> = {
      archiverPollingIntervalMS: 120,
      archiverBatchSize: 9,
      minTxsPerBlock: 1,
      maxTxsPerBlock: 3,
      maxPendingTxCount: 44,
      coinbase: COINBASE,
      feeRecipient: 0xfeen,
      txPublicSetupAllowListExtend: [
        { address: 7n, selector: 0x1234, onlySelf: true },
        { classId: 0xc1a55n, selector: 0xabcdef01, calldataLength: 3 },
      ],
    };
    first.store.save(values);
    await first.env.close();
    const second = open(dir);
    assert.deepEqual(second.store.load(noWarnings), values);
  });

  test('successive saves merge: later values win, earlier members stay', async () => {
    const dir = freshDir();
    const first = open(dir);
    first.store.save({ archiverBatchSize: 9, maxTxsPerBlock: 3 });
    first.store.save({ maxTxsPerBlock: 4, coinbase: COINBASE });
    assert.deepEqual(first.store.load(noWarnings), {
      archiverBatchSize: 9,
      maxTxsPerBlock: 4,
      coinbase: COINBASE,
    });
    first.store.save({});
    await first.env.close();
    const second = open(dir);
    assert.deepEqual(second.store.load(noWarnings), {
      archiverBatchSize: 9,
      maxTxsPerBlock: 4,
      coinbase: COINBASE,
    });
  });

  test('an unset member (undefined) is stored as null and loads as present but undefined', async () => {
    const dir = freshDir();
    const first = open(dir);
    first.store.save({ coinbase: COINBASE, feeRecipient: 3n });
    first.store.save({ coinbase: undefined });
    assert.deepEqual(first.env.database<Record<string, unknown>>('admin-config').get('values'), {
      coinbase: null,
      feeRecipient: `0x${'0'.repeat(63)}3`,
    });
    await first.env.close();
    const loaded = open(dir).store.load(noWarnings);
    assert.deepEqual(Object.keys(loaded).sort(), ['coinbase', 'feeRecipient']);
    assert.equal(loaded.coinbase, undefined);
    assert.equal(loaded.feeRecipient, 3n);
  });

  test('an unknown or no longer valid saved member is skipped with a warning; the rest load', () => {
    const { env, store } = open(freshDir());
    env.write(() =>
      env.database<Record<string, unknown>>('admin-config').putSync('values', {
        archiverBatchSize: 0,
        maxTxsPerBlock: 'many',
        someRetiredSetting: 5,
        coinbase: 'not an address',
        minTxsPerBlock: 2,
        feeRecipient: '0x10',
      }),
    );
    const warnings: string[] = [];
    const loaded = store.load((m) => warnings.push(m));
    assert.deepEqual(loaded, { minTxsPerBlock: 2, feeRecipient: 0x10n });
    assert.equal(warnings.length, 4);
    for (const m of ['archiverBatchSize', 'maxTxsPerBlock', 'someRetiredSetting', 'coinbase']) {
      assert.ok(
        warnings.some((w) => w.includes(m)),
        `a warning names ${m}: ${warnings.join(' | ')}`,
      );
    }
    assert.ok(warnings.some((w) => /someRetiredSetting is not known/.test(w)));
    assert.ok(warnings.some((w) => /archiverBatchSize is no longer valid/.test(w)));
  });
});

describe('applySavedAdminConfig', () => {
  const opened: StoreEnvironment[] = [];
  after(async () => {
    for (const env of opened) await env.close();
  });

  test('applies saved values over the configuration and logs each one that differs', () => {
    const env = openEnvironment(freshDir(), 'node');
    opened.push(env);
    const store = new AdminConfigStore(env);
    const config = testConfig({ coinbase: COINBASE, maxTxsPerBlock: '32', archiverBatchSize: '1000' });
    store.save({ maxTxsPerBlock: 8, coinbase: undefined, archiverBatchSize: 1000, feeRecipient: 0x77n });
    const { logger, records } = capturingLogger();
    const applied = applySavedAdminConfig(config, store, logger);

    assert.equal(applied.maxTxsPerBlock, 8);
    assert.equal(applied.coinbase, undefined);
    assert.equal(applied.feeRecipient, 0x77n);
    assert.equal(applied.archiverBatchSize, 1000);
    // Everything else is the startup configuration, which is not modified.
    assert.deepEqual({ ...applied, maxTxsPerBlock: 32, coinbase: COINBASE, feeRecipient: undefined }, config);
    assert.equal(config.maxTxsPerBlock, 32);
    assert.equal(config.coinbase, COINBASE);

    const infos = records.filter((r) => r.level === 30).map((r) => r.msg);
    assert.equal(infos.length, 3, infos.join('\n'));
    assert.ok(infos.some((m) => m.includes('maxTxsPerBlock = 8') && m.includes('startup value was 32')));
    assert.ok(infos.some((m) => m.includes('coinbase = null') && m.includes(`"${COINBASE}"`)));
    assert.ok(infos.some((m) => m.includes('feeRecipient') && m.includes('startup value was null')));
    assert.ok(!infos.some((m) => m.includes('archiverBatchSize')), 'an unchanged value is not logged');
  });

  test('an unreadable saved member is warned about and leaves the startup value', () => {
    const env = openEnvironment(freshDir(), 'node');
    opened.push(env);
    env.write(() =>
      env
        .database<Record<string, unknown>>('admin-config')
        .putSync('values', { archiverBatchSize: -3, oldMember: 1, minTxsPerBlock: 1 }),
    );
    const { logger, records } = capturingLogger();
    const config = testConfig();
    const applied = applySavedAdminConfig(config, new AdminConfigStore(env), logger);
    assert.equal(applied.archiverBatchSize, config.archiverBatchSize);
    assert.equal(applied.minTxsPerBlock, 1);
    const warnings = records.filter((r) => r.level === 40).map((r) => r.msg);
    assert.equal(warnings.length, 2);
    assert.ok(warnings.some((m) => m.includes('archiverBatchSize')));
    assert.ok(warnings.some((m) => m.includes('oldMember')));
    assert.ok(!('oldMember' in applied));
  });

  test('nothing saved: the configuration comes back as it was, with nothing logged', () => {
    const env = openEnvironment(freshDir(), 'node');
    opened.push(env);
    const { logger, records } = capturingLogger();
    const config = testConfig();
    assert.deepEqual(applySavedAdminConfig(config, new AdminConfigStore(env), logger), config);
    assert.deepEqual(records, []);
  });
});
