// The options of `cairn start` and the help that lists them: one option per setting of
// src/config/settings.ts, shown under the setting's topic, wrapped to the terminal, with
// examples at the end.
import { type Command, type Help, Option } from 'commander';
import {
  envOf,
  FORMER_NAMES,
  flagOf,
  GROUP_OF,
  SETTING_GROUPS,
  SETTINGS,
  type SettingGroup,
  type SettingKey,
} from '../config/settings.js';

/** An option that sets a setting: its value is stored under the setting key, whatever the flag spells. */
export class SettingOption extends Option {
  readonly key: SettingKey;

  constructor(flags: string, description: string, key: SettingKey) {
    super(flags, description);
    this.key = key;
  }

  override attributeName(): string {
    return this.key;
  }
}

/** The terminal width help is wrapped to: $COLUMNS, else the terminal's, else 80. */
export function terminalWidth(
  env: NodeJS.ProcessEnv = process.env,
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
): number {
  const fromEnv = Number(env.COLUMNS);
  const width =
    Number.isInteger(fromEnv) && fromEnv > 0
      ? fromEnv
      : stream.isTTY && stream.columns !== undefined && stream.columns > 0
        ? stream.columns
        : 80;
  return Math.max(width, 20);
}

function defaultText(key: SettingKey): string {
  const spec = SETTINGS[key];
  if (spec.defaultLabel !== undefined) return spec.defaultLabel;
  const value = spec.default;
  return Array.isArray(value) ? value.join(',') : String(value);
}

function optionSyntax(key: SettingKey, flag: string): string {
  const spec = SETTINGS[key];
  const placeholder = spec.placeholder ?? (spec.kind === 'int' ? 'number' : spec.kind);
  return spec.kind === 'bool' ? `${flag} [bool]` : `${flag} <${placeholder}>`;
}

/** Setting keys that are camelCase (one word keys read as plain words: "port", "clock"). */
const CAMEL_KEYS = (Object.keys(SETTINGS) as SettingKey[])
  .filter((k) => /[A-Z]/.test(k))
  .sort((a, b) => b.length - a.length);
const KEY_REFERENCE = new RegExp(`\\b(${CAMEL_KEYS.join('|')})\\b`, 'g');

/** A setting's text for --help: other settings it names by key are written as their flags. */
export function keysAsFlags(text: string): string {
  return text.replace(KEY_REFERENCE, (key) => flagOf(key));
}

/** The options of `cairn start`: every setting, the former spellings (hidden), and --config. */
export function startOptions(): Option[] {
  const options: Option[] = [];
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    options.push(new SettingOption(optionSyntax(key, flagOf(key)), SETTINGS[key].description, key));
    const former = FORMER_NAMES[key];
    if (former !== undefined) {
      options.push(
        new SettingOption(
          optionSyntax(key, former.flag),
          `Former spelling of ${flagOf(key)}`,
          key,
        ).hideHelp(),
      );
    }
  }
  options.push(new Option('--config <path>', 'JSON file of settings (camelCase keys) [env CAIRN_CONFIG]'));
  return options;
}

/** One example of the help: what it does, and the command (split into words, shown as typed). */
export interface StartExample {
  readonly what: string;
  readonly command: readonly string[];
}

export const START_EXAMPLES: readonly StartExample[] = [
  {
    what: 'A dev chain: the node runs its own L1 (anvil) with its data in ~/.cairn, public JSON-RPC on port 8080, admin on 8880',
    command: ['cairn', 'start'],
  },
  {
    what: 'A throwaway node on free ports, for scripts: its URLs are written to ready.json once it listens, its data is removed on exit',
    command: [
      'cairn',
      'start',
      '--ephemeral',
      '--port',
      '0',
      '--admin-port',
      '0',
      '--l1-port',
      '0',
      '--ready-file',
      'ready.json',
    ],
  },
  {
    what: "For app tests: each tx gets its block at once (the embedded L1 moves to the next slot, like anvil's automine)",
    command: ['cairn', 'start', '--ephemeral', '--clock', 'instant'],
  },
  {
    what: 'Follow a chain whose L1 runs elsewhere, without proposing blocks (l1-contracts.json holds the rollup addresses; set --l1-chain-id when the L1 is not 31337)',
    command: [
      'cairn',
      'start',
      '--l1-rpc-url',
      'http://127.0.0.1:8545',
      '--l1-contract-addresses',
      '"$(cat l1-contracts.json)"',
      '--sequencer',
      'false',
      '--data-dir',
      '~/.cairn-follower',
    ],
  },
  {
    what: 'Settings from a JSON file of camelCase keys, e.g. {"port": 9000, "logLevel": "debug"}; variables and flags still win over it',
    command: ['cairn', 'start', '--config', 'cairn.json'],
  },
  {
    what: 'Settings from the environment',
    command: ['CAIRN_LOG_LEVEL=debug', 'CAIRN_LOG_FORMAT=json', 'cairn', 'start'],
  },
];

const ITEM_INDENT = '  ';
const TEXT_INDENT = '      ';

/** Joins words that wrapping keeps on one line when they fit in one. */
const GLUE = '\u00a0';

/**
 * Wraps `text` at spaces to lines of at most `width` columns, the first line starting with
 * `first` and the others with `rest`. A word longer than a line gets a line of its own; words
 * joined by GLUE are split there only when together they are longer than a line.
 */
export function wrap(text: string, width: number, first: string, rest = first): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = lines.length === 0 ? first : rest;
    let empty = true;
    const words = paragraph
      .split(' ')
      .flatMap((w) => (rest.length + w.length > width ? w.split(GLUE) : [w]))
      .filter((w) => w.length > 0);
    for (const word of words) {
      if (!empty && line.length + 1 + word.length > width) {
        lines.push(line);
        line = rest;
        empty = true;
      }
      line += empty ? word : ` ${word}`;
      empty = false;
    }
    lines.push(line.trimEnd().replaceAll(GLUE, ' '));
  }
  return lines;
}

/**
 * An option: its term, followed by its default and variable when they fit on the line (else
 * on the next lines), then its text below it.
 */
function formatItem(term: string, meta: string, description: string, width: number): string[] {
  const head = `${ITEM_INDENT}${term}  ${meta.replaceAll(GLUE, ' ')}`;
  const fits = meta !== '' && head.length <= width;
  const lines = fits ? [head] : wrap(term, width, ITEM_INDENT, TEXT_INDENT);
  if (!fits && meta !== '') lines.push(...wrap(meta, width, TEXT_INDENT));
  if (description !== '') lines.push(...wrap(description, width, TEXT_INDENT));
  return lines;
}

/** A command shown as typed, continued with `\` on the next lines when it is too wide. */
export function formatCommand(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = ITEM_INDENT;
  let empty = true;
  for (const word of words) {
    // Room is kept for the " \" that continues a line.
    if (!empty && line.length + 1 + word.length + 2 > width) {
      lines.push(`${line} \\`);
      line = `${ITEM_INDENT}  `;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The text of `cairn start --help` at `width` columns. */
export function formatStartHelp(cmd: Command, helper: Help, width: number): string {
  const out: string[] = [];
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push('', `${title}:`, ...lines);
  };
  out.push(...wrap(`Usage: ${helper.commandUsage(cmd)}`, width, '', '  '));
  const description = helper.commandDescription(cmd);
  if (description !== '') out.push('', ...wrap(description, width, ''));
  out.push(
    '',
    ...wrap(
      'Every setting can also be given by its environment variable (env) or in a --config file; ' +
        'a flag wins over a variable, which wins over the file.',
      width,
      '',
    ),
  );

  // Within a topic, settings are listed in the order of GROUP_OF.
  const rank = new Map(Object.keys(GROUP_OF).map((key, i) => [key, i]));
  const rankOf = (option: Option) => (option instanceof SettingOption ? (rank.get(option.key) ?? -1) : -1);
  const visible = helper.visibleOptions(cmd).sort((a, b) => rankOf(a) - rankOf(b));
  const byGroup = new Map<SettingGroup, string[]>();
  const others: string[] = [];
  for (const option of visible) {
    if (option instanceof SettingOption) {
      const key = option.key;
      const meta = `[default: ${keysAsFlags(defaultText(key))}; env${GLUE}${envOf(key)}]`;
      const lines = byGroup.get(GROUP_OF[key]) ?? [];
      lines.push(...formatItem(option.flags, meta, keysAsFlags(option.description), width));
      byGroup.set(GROUP_OF[key], lines);
    } else {
      others.push(...formatItem(helper.optionTerm(option), '', helper.optionDescription(option), width));
    }
  }
  section('Options', others);
  for (const group of Object.keys(SETTING_GROUPS) as SettingGroup[]) {
    section(SETTING_GROUPS[group], byGroup.get(group) ?? []);
  }
  section(
    'Examples',
    START_EXAMPLES.flatMap((example, i) => [
      ...(i > 0 ? [''] : []),
      ...wrap(`# ${example.what}`, width, ITEM_INDENT, `${ITEM_INDENT}# `),
      ...formatCommand(example.command, width),
    ]),
  );
  return `${out.join('\n')}\n`;
}

/** Gives `cmd` (the start command) the options of every setting and the help above. */
export function addStartOptions(cmd: Command): void {
  for (const option of startOptions()) cmd.addOption(option);
  cmd.configureOutput({
    getOutHelpWidth: () => terminalWidth(process.env, process.stdout),
    getErrHelpWidth: () => terminalWidth(process.env, process.stderr),
  });
  cmd.configureHelp({
    formatHelp: (c: Command, helper: Help) => formatStartHelp(c, helper, helper.helpWidth ?? 80),
  });
}
