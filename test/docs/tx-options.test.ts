// docs/transactions.md lists every option of `cairn tx` with its meaning and default. The list is
// checked against the options the command really declares (read from a commander program holding
// the command), so an option added, renamed or given another default fails here until the docs say so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Command, type Option } from 'commander';
import { addTxCommand } from '../../src/cli/tx.js';

const root = join(import.meta.dirname, '..', '..');
const HEADING = '### `cairn tx` options';

interface Row {
  flags: string;
  meaning: string;
  defaultText: string;
}

/** The rows of the options table under HEADING, up to the next heading. */
function documentedOptions(markdown: string): Row[] {
  const start = markdown.indexOf(HEADING);
  assert.notEqual(start, -1, `docs/transactions.md has a "${HEADING}" section`);
  const rest = markdown.slice(start + HEADING.length);
  const section = rest.slice(0, rest.search(/^#{1,3} /m) === -1 ? undefined : rest.search(/^#{1,3} /m));
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const m = /^\| `(--[^`]+)` \| (.+) \| (.+) \|$/.exec(line);
    if (m) rows.push({ flags: m[1]!, meaning: m[2]!.trim(), defaultText: m[3]!.trim() });
  }
  return rows;
}

function txOptions(): readonly Option[] {
  const program = new Command('cairn');
  addTxCommand(program);
  const tx = program.commands.find((c) => c.name() === 'tx');
  assert.ok(tx, 'addTxCommand adds a tx command');
  return tx.options;
}

/** What an option's own help says its default is: commander's default, or "(default …)" in its text. */
function declaredDefault(option: Option): string | undefined {
  if (option.defaultValue !== undefined) return String(option.defaultValue);
  return /\(default:? ([^);:]+)/.exec(option.description)?.[1]?.trim();
}

describe('docs/transactions.md: the cairn tx options', () => {
  const rows = documentedOptions(readFileSync(join(root, 'docs', 'transactions.md'), 'utf8'));
  const options = txOptions();

  test('every option of the command is documented, in the order of --help, and no other', () => {
    assert.deepEqual(
      rows.map((r) => r.flags),
      options.map((o) => o.flags),
    );
  });

  test('every documented option has a meaning and a default', () => {
    for (const row of rows) {
      assert.ok(row.meaning.length > 10, `${row.flags}: meaning`);
      assert.ok(row.defaultText.length > 0, `${row.flags}: default`);
    }
  });

  test('the documented defaults are the command’s own', () => {
    for (const option of options) {
      const row = rows.find((r) => r.flags === option.flags);
      if (row === undefined) continue; // reported by the first test
      const expected = declaredDefault(option);
      if (expected !== undefined)
        assert.ok(
          row.defaultText.includes(expected),
          `${option.flags}: the docs say "${row.defaultText}", the command "${expected}"`,
        );
      if (option.envVar !== undefined)
        assert.ok(row.defaultText.includes(option.envVar), `${option.flags}: names ${option.envVar}`);
    }
  });

  test('the table reader finds rows (so the checks above can fail)', () => {
    const sample = `${HEADING}\n\n| Option | Meaning | Default |\n|---|---|---|\n| \`--x <n>\` | An option x | \`1\` |\n\n## Next\n| \`--y\` | not this one | none |\n`;
    assert.deepEqual(documentedOptions(sample), [
      { flags: '--x <n>', meaning: 'An option x', defaultText: '`1`' },
    ]);
  });
});
