// Checks made before the node touches its data directory or L1: no other node holds the data
// directory (first: a second node on one directory would otherwise be told about each port it
// shares with the first, one at a time), the ports it will listen on are free and the ready file
// can be written. Each failure is one line that names the flag to change, instead of a stack
// trace after the contracts were deployed and the accounts printed.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/settings.js';
import { dataDirHolder, dataDirInUseMessage } from '../node/data-dir.js';

/** A problem found before start-up: the message says what to change. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** Resolves once `port` on `host` can be bound (and is free again); rejects with the listen error. */
function probePort(host: string, port: number): Promise<void> {
  return new Promise((resolveProbe, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolveProbe()));
  });
}

function listenProblem(what: string, flag: string, host: string, port: number, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${what} ${where} is in use by another process (EADDRINUSE); ${flag} sets another port (0: any free port)`;
    case 'EACCES':
      return `${what} ${where}: permission denied (EACCES); ports below 1024 need privileges, ${flag} sets another port`;
    case 'EADDRNOTAVAIL':
      return `${what} ${where}: ${host} is not an address of this machine (EADDRNOTAVAIL)`;
    default:
      return `${what} ${where}: cannot listen (${code}: ${(err as Error).message})`;
  }
}

/**
 * The port of an embedded L1 left running by a node that was killed: start-up stops it before
 * starting its own, so its port is not a conflict.
 */
function orphanL1Port(config: Config): number | undefined {
  if (config.ephemeral) return undefined;
  const dir = join(resolve(config.dataDir), 'l1');
  const urlFile = join(dir, 'anvil.url');
  if (!existsSync(urlFile) || !existsSync(join(dir, 'anvil.pid'))) return undefined;
  const match = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(readFileSync(urlFile, 'utf8').trim());
  return match ? Number(match[1]) : undefined;
}

export async function preflight(config: Config): Promise<void> {
  // Only looked at: the node takes the lock when it opens the directory.
  const holder = config.ephemeral ? undefined : dataDirHolder(config.dataDir);
  if (holder !== undefined) throw new PreflightError(dataDirInUseMessage(config.dataDir, holder));
  const listeners = [
    { what: 'public port', flag: '--port', host: config.host, port: config.port },
    { what: 'admin port', flag: '--admin-port', host: config.adminHost, port: config.adminPort },
  ];
  if (config.l1RpcUrl === undefined && config.l1Port !== orphanL1Port(config))
    listeners.push({ what: 'embedded L1 port', flag: '--l1-port', host: '127.0.0.1', port: config.l1Port });
  const fixed = listeners.filter((l) => l.port !== 0);
  for (const [i, a] of fixed.entries()) {
    const same = fixed.slice(i + 1).find((b) => b.port === a.port);
    if (same)
      throw new PreflightError(
        `the ${a.what} and the ${same.what} are both ${a.port}: ${same.flag} sets another`,
      );
  }
  for (const l of fixed) {
    try {
      await probePort(l.host, l.port);
    } catch (err) {
      throw new PreflightError(listenProblem(l.what, l.flag, l.host, l.port, err));
    }
  }
  if (config.readyFile !== undefined) {
    const dir = dirname(resolve(config.readyFile));
    try {
      accessSync(dir, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : `cannot be written (${code})`;
      throw new PreflightError(`the ready file's folder ${dir} ${why} (--ready-file ${config.readyFile})`);
    }
  }
}

/** Listen errors that serve() may still meet (a port taken between the preflight and the listen). */
export function listenError(what: string, flag: string, err: unknown): Error {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL')
    return new PreflightError(listenProblem(what, flag, e.address ?? '', e.port ?? 0, err));
  return err as Error;
}
