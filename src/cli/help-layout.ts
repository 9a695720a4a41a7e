// The help of every command but `start` (which has its own, grouped by topic): commander's layout,
// wrapped to the terminal. Commander gives up wrapping when the option column leaves fewer than 40
// columns (`cairn tx`'s `--teardown-call <address:signature[:args]>` does at 80), so such an
// item is written as its term on one line and its description wrapped below it. Examples and notes
// after the options are wrapped too, commands continued with `\` as a shell reads them.
import type { AddHelpTextContext, Command, Help } from 'commander';
import { formatCommand, terminalWidth, wrap } from './start-help.js';

const ITEM_INDENT = '  ';
const DESCRIPTION_INDENT = '      ';
const SPACER = '  ';
/** The narrowest description column worth writing beside its term. */
const MIN_DESCRIPTION_WIDTH = 40;

function formatItem(term: string, termWidth: number, description: string, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  if (!description) return ITEM_INDENT + term;
  const besideAt = ITEM_INDENT.length + termWidth + SPACER.length;
  if (width - besideAt >= MIN_DESCRIPTION_WIDTH) {
    return wrap(description, width, ITEM_INDENT + term.padEnd(termWidth) + SPACER, ' '.repeat(besideAt)).join(
      '\n',
    );
  }
  return [ITEM_INDENT + term, ...wrap(description, width, DESCRIPTION_INDENT)].join('\n');
}

/**
 * Gives `cmd` and its subcommands the layout above at the terminal's width (`start` keeps its
 * own formatHelp, which lays out its items itself).
 */
export function wrapHelp(cmd: Command): void {
  cmd.configureHelp({ ...cmd.configureHelp(), formatItem });
  cmd.configureOutput({
    ...cmd.configureOutput(),
    getOutHelpWidth: () => terminalWidth(process.env, process.stdout),
    getErrHelpWidth: () => terminalWidth(process.env, process.stderr),
  });
  for (const sub of cmd.commands) wrapHelp(sub);
}

/** A command line's words as a shell splits them: a quoted part stays one word, quotes kept. */
export function shellWords(command: string): string[] {
  return command.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
}

/** Text after a command's options: a heading and example commands, or a paragraph. */
export type HelpBlock = { heading: string; commands: readonly string[] } | string;

/** The blocks as `addHelpText` takes them, laid out at the width of the stream help goes to. */
export function helpAfter(...blocks: HelpBlock[]): (context: AddHelpTextContext) => string {
  return (context) => {
    const width = terminalWidth(process.env, context.error ? process.stderr : process.stdout);
    const out: string[] = [];
    for (const block of blocks) {
      out.push('');
      if (typeof block === 'string') out.push(...wrap(block, width, ''));
      else {
        out.push(...wrap(`${block.heading}:`, width, ''));
        for (const command of block.commands) out.push(...formatCommand(shellWords(command), width));
      }
    }
    return out.join('\n');
  };
}
