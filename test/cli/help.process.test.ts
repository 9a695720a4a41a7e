// `--help`, `-h` and `help <command>` work for every command and subcommand of `cairn`, and fit an
// 80-column terminal: the list is read from the program itself, so a new command is covered as
// soon as it exists.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCairn } from '../helpers/process.js';

/** The commands `cairn <path> --help` lists under "Commands:", without `help` itself. */
function commandsIn(helpText: string): string[] {
  const section = helpText.split(/\nCommands:\n/)[1]?.split('\n\n')[0];
  if (section === undefined) return [];
  return section
    .split('\n')
    .map((l) => /^ {2}([a-z][\w-]*)/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined && c !== 'help');
}

/** A help process alone exits in ~1.5 s; three at once on a loaded 2-core machine once took over 20 s. */
const HELP_TIMEOUT_MS = 60_000;

describe('cairn help', () => {
  test('every command and subcommand answers --help, -h and help <command>', {
    timeout: 600_000,
  }, async () => {
    const top = await runCairn(['--help'], {}, HELP_TIMEOUT_MS);
    assert.equal(top.code, 0, top.stderr);
    const seen: string[] = [];
    const visit = async (path: string[]): Promise<void> => {
      const parent = path.slice(0, -1);
      const viaHelpForm = [...parent, 'help', path.at(-1)!];
      // The three forms at once (each is a process start): the machine's cores, not one at a time.
      const [long, short, viaHelp] = await Promise.all([
        runCairn([...path, '--help'], { COLUMNS: '80' }, HELP_TIMEOUT_MS),
        runCairn([...path, '-h'], { COLUMNS: '80' }, HELP_TIMEOUT_MS),
        runCairn(viaHelpForm, {}, HELP_TIMEOUT_MS),
      ]);
      for (const [form, r] of [
        [[...path, '--help'], long],
        [[...path, '-h'], short],
      ] as const) {
        assert.equal(r.code, 0, `cairn ${form.join(' ')}: ${r.stderr}`);
        assert.match(r.stdout, new RegExp(`^Usage: cairn ${path.join(' ')}`), form.join(' '));
        // Fits an 80-column terminal: only a single word too long for any line may go past it.
        for (const line of r.stdout.split('\n')) {
          if ([...line].length > 80 && /\s/.test(line.trim())) {
            assert.fail(`cairn ${form.join(' ')}: a line of ${[...line].length} columns: ${line}`);
          }
        }
      }
      assert.equal(viaHelp.code, 0, `cairn ${viaHelpForm.join(' ')}: ${viaHelp.stderr}`);
      seen.push(path.join(' '));
      await Promise.all(commandsIn(long.stdout).map((sub) => visit([...path, sub])));
    };
    // Two commands' trees at a time: enough to keep two cores busy, not so many that starts time out.
    const commands = commandsIn(top.stdout);
    for (let i = 0; i < commands.length; i += 2)
      await Promise.all(commands.slice(i, i + 2).map((c) => visit([c])));
    for (const expected of ['start', 'tx', 'contract', 'contract deploy', 'l1', 'l1 send-message'])
      assert.ok(seen.includes(expected), `${expected} was visited (${seen.join(', ')})`);
  });
});
