// Resolves the configuration from, in rising precedence: defaults, an optional JSON
// config file, CAIRN_* environment variables, and command-line flags. Every value is
// checked against its setting's schema; the first problem stops the node with a
// message that names the setting and where its value came from.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { z } from 'zod';
import {
  type Config,
  envNamesOf,
  envOf,
  flagOf,
  SETTINGS,
  type SettingKey,
  type SettingKind,
} from './settings.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface ConfigSources {
  /** Flag values by setting key, as the CLI parser gave them (strings, or booleans for switches). */
  flags?: Partial<Record<string, unknown>>;
  env?: NodeJS.ProcessEnv;
  /** Path of a JSON config file; also taken from CAIRN_CONFIG. */
  configFile?: string;
}

export interface LoadedConfig {
  config: Config;
  /** Where each setting's value came from: default, file, env or flag. */
  origins: Record<SettingKey, string>;
  /** Non-fatal findings, e.g. an unknown CAIRN_* variable. */
  warnings: string[];
}

/** Environment variables that are read elsewhere and are not settings. */
const OTHER_ENV = new Set(['CAIRN_CONFIG', 'CAIRN_POSEIDON2']);

const KEYS = Object.keys(SETTINGS) as SettingKey[];

function parseText(kind: SettingKind, text: string): unknown {
  switch (kind) {
    case 'int': {
      if (!/^-?[0-9]+$/.test(text.trim())) throw new Error(`expected an integer, got "${text}"`);
      return Number(text.trim());
    }
    case 'bool': {
      const t = text.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(t)) return true;
      if (['false', '0', 'no', 'off'].includes(t)) return false;
      throw new Error(`expected true or false, got "${text}"`);
    }
    case 'list':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`expected JSON, got "${text}"`);
      }
    case 'string':
      return text;
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${path} must hold a JSON object of settings`);
  }
  for (const key of Object.keys(parsed)) {
    const retired = RETIRED_SETTINGS[key];
    if (retired !== undefined) {
      throw new ConfigError(`setting "${key}" in config file ${path} no longer exists: ${retired}`);
    }
    if (!(key in SETTINGS)) {
      throw new ConfigError(`unknown setting "${key}" in config file ${path}; see cairn start --help`);
    }
  }
  return parsed as Record<string, unknown>;
}

/** Settings that were removed, and what replaces them. */
const RETIRED_SETTINGS: Record<string, string | undefined> = {
  contractUpdateDelay:
    'the instance registry runs its real bytecode, where each contract sets its own update delay with set_update_delay (at least 600 s; 86,400 s until it does)',
};

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

export function loadConfig(sources: ConfigSources = {}): LoadedConfig {
  const env = sources.env ?? {};
  const flags = sources.flags ?? {};
  const warnings: string[] = [];

  const configPath = sources.configFile ?? (env.CAIRN_CONFIG ? env.CAIRN_CONFIG : undefined);
  const file = configPath ? readConfigFile(configPath) : {};

  const known = new Set(KEYS.flatMap(envNamesOf));
  for (const name of Object.keys(env)) {
    if (name.startsWith('CAIRN_') && !known.has(name) && !OTHER_ENV.has(name)) {
      warnings.push(`unknown environment variable ${name} is ignored`);
    }
  }

  const values: Record<string, unknown> = {};
  const origins = {} as Record<SettingKey, string>;
  for (const key of KEYS) {
    const spec = SETTINGS[key];
    let raw: unknown;
    let origin: string;
    const flag = flags[key];
    // A former variable name is read when the current one is unset.
    const envName = envNamesOf(key).find((n) => env[n] !== undefined && env[n] !== '') ?? envOf(key);
    const envText = env[envName];
    try {
      if (flag !== undefined) {
        origin = flagOf(key);
        raw = typeof flag === 'string' ? parseText(spec.kind, flag) : flag;
      } else if (envText !== undefined && envText !== '') {
        origin = envName;
        raw = parseText(spec.kind, envText);
      } else if (key in file) {
        origin = `config file ${configPath}`;
        raw = file[key];
      } else {
        origin = 'default';
        raw = spec.default;
      }
    } catch (err) {
      throw new ConfigError(`invalid setting ${key} (from ${origin!}): ${(err as Error).message}`);
    }
    origins[key] = origin;
    if (raw === undefined && spec.optional) {
      values[key] = undefined;
      continue;
    }
    const parsed = (spec.schema as z.ZodType).safeParse(raw);
    if (!parsed.success) {
      throw new ConfigError(`invalid setting ${key} (from ${origin}): ${describeIssues(parsed.error)}`);
    }
    values[key] = parsed.data;
  }
  const config = values as Config;

  if (!isLoopback(config.adminHost) && config.adminApiKey === undefined) {
    throw new ConfigError(
      `invalid setting adminHost (from ${origins.adminHost}): ${config.adminHost} is not a loopback address, ` +
        `so an admin API key is required; set adminApiKey (${flagOf('adminApiKey')} or ${envOf('adminApiKey')}) ` +
        'or bind the admin port to 127.0.0.1',
    );
  }
  if (config.l1RpcUrl !== undefined && config.l1ContractAddresses === undefined) {
    throw new ConfigError(
      `invalid setting l1ContractAddresses (from ${origins.l1ContractAddresses}): with l1RpcUrl (from ${origins.l1RpcUrl}) ` +
        'the node uses contracts already on that chain, so their addresses are required',
    );
  }
  if (config.port !== 0 && config.port === config.adminPort) {
    throw new ConfigError(`invalid settings port and adminPort: both are ${config.port}; they must differ`);
  }
  return { config, origins, warnings };
}
