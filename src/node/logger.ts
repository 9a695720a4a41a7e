// Logging with pino: JSON lines for machines, or one readable line per record on a
// terminal. Components get child loggers named by `component`.
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { BaseError } from 'viem';
import { describeL1Revert, l1RevertOf } from '../l1/revert-reasons.js';

export type LogFormat = 'auto' | 'pretty' | 'json';

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const LEVEL_COLOURS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
// `facts` repeats, for JSON readers, what a record's message already says (the start banner).
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'component', 'facts']);

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/** One record as `12:00:00.000 INFO  [component] message key=value ...`. */
export function formatRecord(record: Record<string, unknown>, colour: boolean): string {
  const level = Number(record.level);
  const time = new Date(Number(record.time)).toISOString().slice(11, 23);
  const name = LEVEL_NAMES[level] ?? String(level);
  const levelText = colour ? `\x1b[${LEVEL_COLOURS[level] ?? '0'}m${name}\x1b[0m` : name;
  const component = record.component ? `[${String(record.component)}] ` : '';
  let line = `${time} ${levelText} ${component}${String(record.msg ?? '')}`;
  for (const [key, value] of Object.entries(record)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    if (key === 'err' && value && typeof value === 'object' && 'stack' in value) {
      line += `\n${String((value as { stack: unknown }).stack)}`;
      continue;
    }
    line += ` ${key}=${formatValue(value)}`;
  }
  return `${line}\n`;
}

/** What the log is written to: the process's stdout stream, or pino's file-descriptor writer. */
interface Sink {
  on(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
  write(text: string): unknown;
}

/**
 * Whether the log output can still be written. A reader that quits (`| head`, a pager) closes the
 * pipe: writes then fail with EPIPE, asynchronously. The node keeps running without its log
 * instead of failing on every line (which used to spin the process and starve its signals).
 */
class LogOutput {
  closed = false;
  constructor(readonly out: Sink) {
    out.on('error', (err: NodeJS.ErrnoException) => this.close(err));
  }
  write(text: string): void {
    if (this.closed) return;
    try {
      this.out.write(text);
    } catch (err) {
      this.close(err as NodeJS.ErrnoException);
    }
  }
  close(err: NodeJS.ErrnoException): void {
    if (this.closed) return;
    this.closed = true;
    try {
      // stderr may be the same closed pipe; then there is no one left to tell.
      process.stderr.write(
        `cairn: the log output closed (${err.code ?? err.message}); logging stops, the node runs on\n`,
      );
    } catch {
      // ignore
    }
  }
}

function prettyStream(out: NodeJS.WriteStream): Writable {
  const colour = Boolean(out.isTTY);
  const output = new LogOutput(out);
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      if (output.closed) return done();
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text.length === 0) continue;
        let line: string;
        try {
          line = formatRecord(JSON.parse(text) as Record<string, unknown>, colour);
        } catch {
          line = `${text}\n`;
        }
        output.write(line);
      }
      done();
    },
  });
}

function jsonStream(out: NodeJS.WriteStream) {
  const destination = pino.destination({ dest: (out as { fd?: number }).fd ?? 1, sync: true });
  const output = new LogOutput(destination);
  return {
    write(line: string) {
      output.write(line);
    },
  };
}

export function createLogger(
  level: string,
  format: LogFormat,
  out: NodeJS.WriteStream = process.stdout,
): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && Boolean(out.isTTY));
  const options = { level, base: undefined } as const;
  // Both outputs write synchronously so no line is lost when the process exits.
  return pino(options, pretty ? prettyStream(out) : jsonStream(out));
}

/** `95` -> `1 min 35 s`, `7300` -> `2 h 1 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

/**
 * An error as a short string for logs: L1 client errors can carry whole transactions (megabytes of
 * calldata), which must not end up in every warning.
 */
export function errorSummary(err: unknown, maxLength = 2000): string {
  // An L1 revert in a line (its viem message spans the call's arguments and calldata).
  const revert = l1RevertOf(err);
  if (revert !== undefined) return describeL1Revert(revert);
  const text =
    err instanceof BaseError
      ? `${err.shortMessage.replace(/\.$/, '')}${err.details && !err.shortMessage.includes(err.details) ? `: ${err.details}` : ''}`
      : err instanceof Error
        ? `${err.name}: ${err.message}`
        : String(err);
  return text.length <= maxLength
    ? text
    : `${text.slice(0, maxLength)}… (${text.length - maxLength} more characters)`;
}
