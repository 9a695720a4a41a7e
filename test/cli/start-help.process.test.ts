// `cairn start --help`: the settings under topic headings, wrapped to the terminal width, flags
// (not setting keys) in the text, and examples that only use real options.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Command } from 'commander';
import {
  addStartOptions,
  keysAsFlags,
  SettingOption,
  START_EXAMPLES,
  terminalWidth,
  wrap,
} from '../../src/cli/start-help.js';
import { loadConfig } from '../../src/config/load.js';
import {
  envNamesOf,
  envOf,
  FORMER_NAMES,
  flagOf,
  GROUP_OF,
  SETTING_GROUPS,
  SETTINGS,
  type SettingKey,
} from '../../src/config/settings.js';

const KEYS = Object.keys(SETTINGS) as SettingKey[];
const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

/** The start command as src/cli/main.ts builds it, answering help at `width` columns. */
function startCommand(width = 80): Command {
  const program = new Command('cairn').exitOverride();
  const start = program
    .command('start')
    .description('Start a node: public JSON-RPC on --port, admin JSON-RPC on --admin-port')
    .exitOverride();
  addStartOptions(start);
  start.configureOutput({ getOutHelpWidth: () => width });
  return start;
}

/** The options `cairn start <args>` gives the action. */
function parseStart(args: readonly string[]): Record<string, unknown> {
  const start = startCommand();
  let opts: Record<string, unknown> | undefined;
  start.action((o: Record<string, unknown>) => {
    opts = o;
  });
  start.parent!.parse(['start', ...args], { from: 'user' });
  assert.ok(opts, `cairn start ${args.join(' ')} ran`);
  return opts;
}

/** Lines wider than `width`, except a single word that cannot be broken. */
function overflowing(text: string, width: number): string[] {
  return text.split('\n').filter((line) => line.length > width && /\s/.test(line.trim()));
}

/** The sections of a help text by heading (`Heading:` alone on a line). */
function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of text.split('\n\n')) {
    const [first, ...rest] = block.split('\n');
    if (first !== undefined && /^\S.*:$/.test(first)) out.set(first.slice(0, -1), rest.join('\n'));
  }
  return out;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.join(' ')} did not exit`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

describe('cairn start --help', () => {
  test('every setting belongs to exactly one topic, and every topic has settings', () => {
    assert.deepEqual(Object.keys(GROUP_OF).sort(), [...KEYS].sort());
    for (const [key, group] of Object.entries(GROUP_OF)) assert.ok(group in SETTING_GROUPS, key);
    for (const group of Object.keys(SETTING_GROUPS)) {
      assert.ok(Object.values(GROUP_OF).includes(group as never), `${group} has settings`);
    }
  });

  test('settings are listed under their topic, in the order of the topics', () => {
    const help = startCommand(100).helpInformation();
    const found = sections(help);
    const headings = [...found.keys()];
    const titles = Object.values(SETTING_GROUPS);
    assert.deepEqual(
      headings.filter((h) => (titles as string[]).includes(h)),
      titles,
    );
    assert.deepEqual(headings, ['Options', ...titles, 'Examples']);
    for (const key of KEYS) {
      const body = found.get(SETTING_GROUPS[GROUP_OF[key]])!;
      assert.match(body, new RegExp(`^  ${flagOf(key)} [<[]`, 'm'), `${key} under its topic`);
      assert.ok(help.includes(envOf(key)), `${key}'s variable is shown`);
      const occurrences = help.split('\n').filter((l) => l.startsWith(`  ${flagOf(key)} `));
      assert.equal(occurrences.length, 1, `${key} is listed once`);
    }
    assert.match(found.get('Options')!, /^ {2}--config <path>/m);
    assert.match(found.get('Options')!, /^ {2}-h, --help/m);
    // The default and variable stay on the flag's line when they fit.
    assert.match(help, /^ {2}--port <number> {2}\[default: 8080; env CAIRN_PORT\]$/m);
  });

  for (const width of [80, 120, 60, 40]) {
    test(`every line fits in ${width} columns; descriptions hang under their flag`, () => {
      const help = startCommand(width).helpInformation();
      assert.deepEqual(overflowing(help, width), []);
      const lines = help.split('\n');
      for (const line of lines)
        assert.ok(line === '' || line === line.trimEnd(), `no trailing space: ${line}`);
      // In the settings' sections an item starts at 2 columns and its wrapped text continues at 6.
      const start = lines.indexOf(`${SETTING_GROUPS.rpc}:`);
      const end = lines.indexOf('Examples:');
      for (const line of lines.slice(start, end)) {
        if (line === '' || line.endsWith(':')) continue;
        assert.match(line, /^( {2}-| {6}\S)/, line);
      }
    });
  }

  test('the width is $COLUMNS, else the terminal width, else 80', () => {
    assert.equal(terminalWidth({ COLUMNS: '132' }, { isTTY: true, columns: 90 }), 132);
    assert.equal(terminalWidth({}, { isTTY: true, columns: 90 }), 90);
    assert.equal(terminalWidth({}, { isTTY: false }), 80);
    assert.equal(terminalWidth({ COLUMNS: 'wide' }, {}), 80);
    assert.equal(terminalWidth({ COLUMNS: '5' }, {}), 20);
  });

  test('wrap keeps a hanging indent and never splits a word', () => {
    assert.deepEqual(wrap('aaa bbb ccc ddd', 9, '  ', '    '), ['  aaa bbb', '    ccc', '    ddd']);
    assert.deepEqual(wrap('x averyveryverylongword y', 10, '', '  '), [
      'x',
      '  averyveryverylongword',
      '  y',
    ]);
  });

  test('the text names other settings by flag, not by their key', () => {
    const help = startCommand(120).helpInformation();
    const options = help.slice(0, help.indexOf('\nExamples:'));
    for (const key of KEYS.filter((k) => /[A-Z]/.test(k))) {
      assert.doesNotMatch(options, new RegExp(`\\b${key}\\b`), `${key} is written as ${flagOf(key)}`);
    }
    assert.match(options, /needs --l1-rpc-url/);
    assert.match(options, /\(ignores --data-dir\)/);
    assert.match(options, /\[default: --slashing-round-size \/ 2 \+ 1;/);
    // Plain words that are also one-word keys ("port", "clock") are left alone.
    assert.equal(keysAsFlags('the public port; see l1RpcUrl.'), 'the public port; see --l1-rpc-url.');
  });

  test('the examples only use options and variables that exist, and parse', () => {
    const start = startCommand();
    const longFlags = new Set(start.options.filter((o) => !o.hidden).map((o) => o.long));
    const help = start.helpInformation();
    const examples = help.slice(help.indexOf('\nExamples:\n'));
    assert.ok(examples.includes('cairn start --ephemeral --clock instant'), examples);
    assert.ok(START_EXAMPLES.length >= 5);
    for (const flag of examples.match(/--[a-z0-9-]+/g) ?? []) assert.ok(longFlags.has(flag), flag);
    const variables = new Set([...KEYS.flatMap(envNamesOf), 'CAIRN_CONFIG']);
    for (const name of examples.match(/CAIRN_[A-Z0-9_]+/g) ?? []) assert.ok(variables.has(name), name);

    for (const { command } of START_EXAMPLES) {
      const words = command.filter((w) => !/^[A-Z0-9_]+=/.test(w));
      assert.deepEqual(words.slice(0, 2), ['cairn', 'start']);
      const opts = parseStart(words.slice(2));
      // The node would accept these settings (file contents aside).
      if (!words.some((w) => w.includes('$(')) && !words.includes('--config')) {
        const { config: _file, ...flags } = opts;
        loadConfig({ flags, env: {} });
      }
    }
  });

  test('--archiver-polling-interval-ms sets archiverPollingIntervalMS; the former spelling still works, unlisted', () => {
    assert.equal(flagOf('archiverPollingIntervalMS'), '--archiver-polling-interval-ms');
    assert.equal(FORMER_NAMES.archiverPollingIntervalMS?.flag, '--archiver-polling-interval-m-s');
    for (const flag of ['--archiver-polling-interval-ms', '--archiver-polling-interval-m-s']) {
      const opts = parseStart([flag, '250']);
      assert.equal(opts.archiverPollingIntervalMS, '250', flag);
      const { config, origins } = loadConfig({ flags: opts, env: {} });
      assert.equal(config.archiverPollingIntervalMS, 250, flag);
      assert.equal(origins.archiverPollingIntervalMS, '--archiver-polling-interval-ms');
    }
    const help = startCommand(200).helpInformation();
    assert.match(help, /--archiver-polling-interval-ms <number>/);
    assert.doesNotMatch(help, /interval-m-s/);
    const start = startCommand();
    const hidden = start.options.filter((o) => o.hidden);
    assert.deepEqual(
      hidden.map((o) => o.long),
      ['--archiver-polling-interval-m-s'],
    );
    // Every other setting's option is stored under its key.
    for (const option of start.options) {
      if (option instanceof SettingOption) assert.equal(option.attributeName(), option.key);
    }
  });

  test('the cairn command answers start --help and -h at $COLUMNS', { timeout: 120_000 }, async () => {
    const byFlag = await run(['start', '--help'], { COLUMNS: '80' });
    assert.equal(byFlag.code, 0);
    assert.match(byFlag.stdout, /^Usage: cairn start \[options\]/);
    assert.deepEqual(overflowing(byFlag.stdout, 80), []);
    assert.ok(
      byFlag.stdout.split('\n').some((l) => l.length > 70 && l.length <= 80),
      'uses the width',
    );
    assert.match(byFlag.stdout, /\nExamples:\n/);
    const short = await run(['start', '-h'], { COLUMNS: '120' });
    assert.equal(short.code, 0);
    assert.deepEqual(overflowing(short.stdout, 120), []);
    assert.ok(
      short.stdout.split('\n').some((l) => l.length > 100),
      'uses the width',
    );
    assert.ok(short.stdout.split('\n').length < byFlag.stdout.split('\n').length);
  });
});
