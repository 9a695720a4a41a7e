// Fresh store environments in one temporary folder, closed and removed after the file's tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';

export function tempStores(prefix: string): {
  /** A new, empty environment. */
  fresh(): StoreEnvironment;
  /** The environment `name`, opened (again, after a close) to check what persists. */
  open(name: string): StoreEnvironment;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const envs: StoreEnvironment[] = [];
  after(async () => {
    for (const env of envs) await env.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = (name: string) => {
    const env = openEnvironment(join(dir, name), 'node');
    envs.push(env);
    return env;
  };
  return { fresh: () => open(`fresh-${envs.length}`), open };
}
