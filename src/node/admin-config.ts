// The admin configuration (svcAdmin_getConfig / svcAdmin_setConfig): the settings an operator
// may read and change while the node runs, under the reference's member names. Values set
// through setConfig are saved in the `node` store and applied over the startup configuration at
// every later start, until the next setConfig changes them.
import type { Logger } from 'pino';
import { z } from 'zod';
import { type Config, SETTINGS, type SettingKey } from '../config/settings.js';
import {
  type AllowedElement,
  DEFAULT_SETUP_ALLOW_LIST,
  PROTOCOL_CONTRACT_ADDRESSES,
} from '../core/constants.js';
import { functionSelector } from '../core/hash/selector.js';
import type { Database, StoreEnvironment } from '../store/environment.js';

/** Each admin member and the setting it is. */
export const ADMIN_MEMBERS = {
  archiverPollingIntervalMS: 'archiverPollingIntervalMS',
  archiverBatchSize: 'archiverBatchSize',
  minTxsPerBlock: 'minTxsPerBlock',
  maxTxsPerBlock: 'maxTxsPerBlock',
  maxPendingTxCount: 'mempoolMaxTxCount',
  coinbase: 'coinbase',
  feeRecipient: 'feeRecipient',
  txPublicSetupAllowListExtend: 'txPublicSetupAllowListExtend',
} as const satisfies Record<string, SettingKey>;

export type AdminMember = keyof typeof ADMIN_MEMBERS;
const MEMBERS = Object.keys(ADMIN_MEMBERS) as AdminMember[];

/** Members that can be unset again (null in setConfig), falling back to their default. */
const UNSETTABLE = new Set<AdminMember>(['coinbase', 'feeRecipient']);

const S = SETTINGS;

/** The states shown beside the settings; they change through their own methods only. */
export const syncState = z.enum(['running', 'paused']);
export const sequencerState = z.enum(['running', 'paused', 'none']);

export interface AdminStates {
  syncState: z.infer<typeof syncState>;
  sequencerState: z.infer<typeof sequencerState>;
}

/** svcAdmin_getConfig's result. */
export const adminConfig = z
  .object({
    archiverPollingIntervalMS: S.archiverPollingIntervalMS.schema,
    archiverBatchSize: S.archiverBatchSize.schema,
    minTxsPerBlock: S.minTxsPerBlock.schema,
    maxTxsPerBlock: S.maxTxsPerBlock.schema,
    maxPendingTxCount: S.mempoolMaxTxCount.schema,
    coinbase: S.coinbase.schema.optional(),
    feeRecipient: S.feeRecipient.schema.optional(),
    txPublicSetupAllowListExtend: S.txPublicSetupAllowListExtend.schema,
    realProofs: z.boolean().describe('Whether tx proofs are verified for real; always false (dev verifier)'),
    syncState: syncState.describe('Archiver and world-state sync: svcAdmin_pauseSync / resumeSync'),
    sequencerState: sequencerState.describe(
      'Block production: svcAdmin_pauseSequencer / resumeSequencer; none when the node runs no sequencer',
    ),
  })
  .describe('The node configuration an operator can read and change (AztecNodeAdminConfig)');

export type AdminConfig = z.output<typeof adminConfig>;

/**
 * svcAdmin_setConfig's param: any subset of the members. An unknown member is an error; the
 * read-only members are accepted only with their current value (so a getConfig result can be
 * sent back whole).
 */
export const adminConfigUpdate = adminConfig
  .extend({
    coinbase: S.coinbase.schema.nullable().describe('null: back to the attester address'),
    feeRecipient: S.feeRecipient.schema.nullable().describe('null: back to 0'),
  })
  .partial()
  .strict()
  .describe('Members to change; the rest keep their values');

export type AdminConfigUpdate = z.output<typeof adminConfigUpdate>;

/** The admin members' values as the configuration holds them. */
export type AdminSettings = { [M in AdminMember]: Config[(typeof ADMIN_MEMBERS)[M]] };

export function adminSettingsOf(config: Config): AdminSettings {
  return Object.fromEntries(MEMBERS.map((m) => [m, config[ADMIN_MEMBERS[m]]])) as AdminSettings;
}

/** The configuration with admin member values written into their settings. */
export function withAdminSettings(config: Config, values: Partial<AdminSettings>): Config {
  const next = { ...config } as Record<string, unknown>;
  for (const m of MEMBERS) if (m in values) next[ADMIN_MEMBERS[m]] = values[m];
  return next as Config;
}

export class AdminConfigError extends Error {}

/**
 * Checks an update against the current settings and states; returns the settings it changes
 * (null members become undefined). Throws AdminConfigError when it cannot apply.
 */
export function resolveUpdate(
  update: AdminConfigUpdate,
  current: AdminSettings,
  states: AdminStates,
): Partial<AdminSettings> {
  if (update.realProofs === true)
    throw new AdminConfigError(
      'realProofs cannot be true: cairn verifies tx proofs with its dev verifier only',
    );
  if (update.syncState !== undefined && update.syncState !== states.syncState) {
    throw new AdminConfigError(
      `syncState is ${states.syncState}: it changes through svcAdmin_pauseSync / svcAdmin_resumeSync, not setConfig`,
    );
  }
  if (update.sequencerState !== undefined && update.sequencerState !== states.sequencerState) {
    throw new AdminConfigError(
      `sequencerState is ${states.sequencerState}: it changes through svcAdmin_pauseSequencer / svcAdmin_resumeSequencer, not setConfig`,
    );
  }
  const changes: Record<string, unknown> = {};
  for (const m of MEMBERS) {
    const value = (update as Record<string, unknown>)[m];
    if (value === undefined) continue;
    changes[m] = value === null && UNSETTABLE.has(m) ? undefined : value;
  }
  const merged = { ...current, ...changes } as AdminSettings;
  if (merged.minTxsPerBlock > merged.maxTxsPerBlock) {
    throw new AdminConfigError(
      `minTxsPerBlock (${merged.minTxsPerBlock}) cannot exceed maxTxsPerBlock (${merged.maxTxsPerBlock})`,
    );
  }
  return changes as Partial<AdminSettings>;
}

/** A member's value in JSON form (as stored), through its setting's codec. */
function encodeMember(m: AdminMember, value: unknown): unknown {
  if (value === undefined) return null;
  return z.encode(SETTINGS[ADMIN_MEMBERS[m]].schema as z.ZodType, value as never);
}

/** The values saved by setConfig, in the `node` store. */
export class AdminConfigStore {
  private readonly db: Database<Record<string, unknown>, string>;

  constructor(private readonly env: StoreEnvironment) {
    this.db = env.database<Record<string, unknown>>('admin-config');
  }

  /** The saved members, decoded; a saved value this version cannot read is reported and skipped. */
  load(warn: (message: string) => void): Partial<AdminSettings> {
    const saved = this.db.get('values') ?? {};
    const values: Record<string, unknown> = {};
    for (const [m, json] of Object.entries(saved)) {
      if (!Object.hasOwn(ADMIN_MEMBERS, m)) {
        warn(`saved admin config member ${m} is not known to this version: ignored`);
        continue;
      }
      if (json === null) {
        values[m] = undefined;
        continue;
      }
      const parsed = SETTINGS[ADMIN_MEMBERS[m as AdminMember]].schema.safeParse(json);
      if (parsed.success) values[m] = parsed.data;
      else
        warn(
          `saved admin config member ${m} is no longer valid (${parsed.error.issues[0]?.message}): ignored`,
        );
    }
    return values as Partial<AdminSettings>;
  }

  /** Saves changed members (merged with those saved before) in one durable write. */
  save(changes: Partial<AdminSettings>): void {
    this.env.write(() => {
      const saved = { ...(this.db.get('values') ?? {}) };
      for (const [m, value] of Object.entries(changes)) saved[m] = encodeMember(m as AdminMember, value);
      this.db.putSync('values', saved);
    });
  }
}

/** Applies the saved admin values over the startup configuration, logging each one that differs. */
export function applySavedAdminConfig(config: Config, store: AdminConfigStore, logger: Logger): Config {
  const saved = store.load((m) => logger.warn(m));
  const current = adminSettingsOf(config);
  for (const [m, value] of Object.entries(saved)) {
    const was = JSON.stringify(encodeMember(m as AdminMember, current[m as AdminMember]));
    const now = JSON.stringify(encodeMember(m as AdminMember, value));
    if (was !== now)
      logger.info(`admin config: ${m} = ${now} (saved by setConfig; the startup value was ${was})`);
  }
  return withAdminSettings(config, saved);
}

export { encodeMember as adminMemberJson };

/** The protocol's setup allow-list plus the configured extension. */
export function allowedPublicSetup(config: Config): AllowedElement[] {
  const defaults: AllowedElement[] = DEFAULT_SETUP_ALLOW_LIST.map((e) => ({
    address: PROTOCOL_CONTRACT_ADDRESSES[e.contract],
    selector: functionSelector(e.signature),
    ...(e.onlySelf ? { onlySelf: true } : {}),
    calldataLength: e.calldataLength,
  }));
  return [...defaults, ...config.txPublicSetupAllowListExtend];
}
