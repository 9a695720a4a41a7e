// The status page at GET / on the public port: what the HTTP side answers on both ports; the page's
// script run in a DOM (happy-dom) against a real in-process node with blocks, txs and a pending tx,
// and against an address where nothing listens; and, where a Chromium is installed, the page
// rendered by headless Chromium (its dumped DOM checked, and a screenshot taken).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Browser, type Document, Window } from 'happy-dom';
import { z } from 'zod';
import {
  STATUS_PAGE_CSP,
  STATUS_PAGE_HEADERS,
  STATUS_PAGE_HTML,
  STATUS_PAGE_REFRESH_MS,
} from '../../src/api/status-page.js';
import { type RunningNode, serve } from '../../src/cli/serve.js';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { NODE_VERSION } from '../../src/core/version.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { defineMethod, MethodRegistry, type PortKind } from '../../src/rpc/registry.js';
import { type Listener, startListener } from '../../src/rpc/server.js';
import { closedPort } from '../helpers/closed-port.js';
import { post, result, silentLogger, testConfig } from '../helpers/rpc.js';

const API_KEY = 'a-very-secret-admin-key';

function listen(kind: PortKind, apiKey?: string): Promise<Listener> {
  const registry = new MethodRegistry().add(
    defineMethod({
      namespace: kind === 'public' ? 'svc' : 'svcAdmin',
      name: 'echo',
      summary: 'returns its param',
      params: [{ name: 'text', schema: z.string() }],
      resultName: 'text',
      result: z.string(),
      handler: (text) => text,
    }),
  );
  return startListener({
    kind,
    host: '127.0.0.1',
    port: 0,
    logger: silentLogger(),
    bodyLimit: 4096,
    requestTimeoutMs: 10_000,
    status: () => ({ ok: true, status: 'running' }),
    // As serve() gives it: the public port's page.
    ...(kind === 'public' ? { page: { html: STATUS_PAGE_HTML, headers: STATUS_PAGE_HEADERS } } : {}),
    dispatcher: new Dispatcher({
      port: kind,
      registry,
      logger: silentLogger(),
      maxBatchSize: 100,
      maxResponseBytes: 1_000_000,
      openRpcInfo: { title: 't', version: '0', description: 'd' },
    }),
    ...(apiKey === undefined ? {} : { apiKey }),
  });
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('status page: HTTP', () => {
  let pub: Listener;
  let admin: Listener;
  before(async () => {
    pub = await listen('public');
    admin = await listen('admin', API_KEY);
  });
  after(() => Promise.all([pub.close(), admin.close()]));

  test('GET / on the public port answers the page as HTML, whatever the Accept header', async () => {
    for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', '*/*', undefined]) {
      const res = await fetch(pub.url, accept === undefined ? {} : { headers: { accept } });
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('content-security-policy'), STATUS_PAGE_CSP);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const text = await res.text();
      assert.equal(text, STATUS_PAGE_HTML);
      assert.match(text, /^<!doctype html>/);
      assert.match(text, /<title>cairn node status<\/title>/);
    }
  });

  test('the policy allows exactly the inline script and style, by hash, and same-origin requests', () => {
    const scripts = [...STATUS_PAGE_HTML.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const styles = [...STATUS_PAGE_HTML.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 1);
    assert.equal(styles.length, 1);
    const directives = new Map(
      STATUS_PAGE_CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values.join(' ')];
      }),
    );
    assert.equal(directives.get('default-src'), "'none'");
    assert.equal(directives.get('script-src'), sha256(scripts[0]!));
    assert.equal(directives.get('style-src'), sha256(styles[0]!));
    assert.equal(directives.get('connect-src'), "'self'");
    // Self-contained: no resource from another place, no inline handlers or style attributes.
    assert.doesNotMatch(STATUS_PAGE_HTML, /https?:\/\//);
    assert.doesNotMatch(STATUS_PAGE_HTML, /\ssrc=/);
    assert.doesNotMatch(STATUS_PAGE_HTML, /\son[a-z]+=|\sstyle=/);
    assert.deepEqual(
      [...STATUS_PAGE_HTML.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]),
      ['data:,'],
    );
  });

  test('HEAD / on the public port: the page headers, no body', async () => {
    const res = await fetch(pub.url, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await res.text(), '');
  });

  test('POST / is JSON-RPC as before; other methods on / still answer 405, now allowing GET', async () => {
    const res = await post(pub.url, { jsonrpc: '2.0', id: 7, method: 'svc_echo', params: ['hi'] });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.text), { jsonrpc: '2.0', id: 7, result: 'hi' });
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const refused = await fetch(pub.url, { method });
      assert.equal(refused.status, 405, method);
      assert.equal(refused.headers.get('allow'), 'GET, HEAD, POST, OPTIONS');
      assert.equal(((await refused.json()) as { error: { code: number } }).error.code, -32600);
    }
    assert.equal((await fetch(pub.url, { method: 'OPTIONS' })).status, 204);
  });

  test('the admin port keeps GET / and HEAD / as they were: 401 without the key, 405 with it', async () => {
    assert.equal((await fetch(admin.url)).status, 401);
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(admin.url, { method, headers: { 'x-api-key': API_KEY } });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    }
    const open = await listen('admin');
    try {
      const res = await fetch(open.url);
      assert.equal(res.status, 405);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /GET \/; use POST/);
    } finally {
      await open.close();
    }
  });
});

// ---- the page in a DOM ---------------------------------------------------------------------------

const settings = { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true };

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the page shows, read back from its DOM. */
function rendered(doc: Document) {
  const rows = (tbody: string) => [...doc.querySelectorAll(`#${tbody} tr`)];
  const text = (id: string) => doc.getElementById(id)?.textContent ?? '';
  return {
    state: doc.body.getAttribute('data-state'),
    error: text('error'),
    version: doc.getElementById('version')?.getAttribute('data-value'),
    l1ChainId: doc.getElementById('chain')?.getAttribute('data-l1-chain-id'),
    rollupVersion: doc.getElementById('chain')?.getAttribute('data-rollup-version'),
    tips: Object.fromEntries(
      rows('tips').map((r) => [r.getAttribute('data-tip'), Number(r.getAttribute('data-block'))]),
    ),
    blocks: rows('blocks').map((r) => ({
      number: Number(r.getAttribute('data-number')),
      hash: r.getAttribute('data-hash'),
      txs: Number(r.getAttribute('data-txs')),
      cells: [...r.querySelectorAll('td')].map((td) => td.textContent),
    })),
    mempool: text('mempool'),
    validators: Number(doc.getElementById('validators')?.getAttribute('data-count')),
    sync: Object.fromEntries(
      [...doc.querySelectorAll('#sync dd')].map((dd) => [dd.getAttribute('data-key'), dd.textContent]),
    ),
  };
}

interface Tips {
  proposed: { number: number; hash: string };
  checkpointed: { block: { number: number } };
  proven: { block: { number: number } };
  finalized: { block: { number: number } };
}

describe('status page: rendered by its script against a real node (happy-dom)', () => {
  let running: RunningNode;
  let browser: Browser;
  const pub = (m: string, p?: unknown) => result(running.publicUrl, m, p);
  const dev = (m: string, p?: unknown) => result(running.adminUrl, m, p);
  const [alice, bob] = devAccounts(2);
  let client: NodeClient;
  const sendTx = async (feePayer: bigint) => {
    const tx = await prepareTx(client, { feePayer, noteHashes: [randomFr()], nullifiers: [randomFr()] });
    assert.equal(await pub('svc_sendTx', [tx.wire]), null);
  };

  before(async () => {
    running = await serve(testConfig({ clock: 'manual' }), silentLogger());
    client = new NodeClient(running.publicUrl);
    browser = new Browser({ settings });
    // Block 1 without txs, block 2 with two, and one tx left pending.
    await dev('svcDev_advanceToSlot', [1]);
    await sendTx(alice!.address);
    await sendTx(bob!.address);
    await dev('svcDev_advanceToSlot', [2]);
    await sendTx(alice!.address);
  });
  after(async () => {
    await browser?.close();
    await running?.close();
  });

  test("the page shows the node's tips, latest blocks with tx counts, mempool, validators and sync", async () => {
    const page = browser.newPage();
    const response = await page.goto(running.publicUrl);
    assert.equal(response?.status, 200);
    const doc = page.mainFrame.document;
    await waitFor('the first refresh', () => doc.body.getAttribute('data-state') !== 'loading');
    const shown = rendered(doc);
    assert.equal(shown.state, 'ok', shown.error);
    assert.equal(shown.error, '');

    const tips = (await pub('svc_getChainTips')) as Tips;
    assert.ok(tips.proposed.number >= 2);
    assert.deepEqual(shown.tips, {
      proposed: tips.proposed.number,
      checkpointed: tips.checkpointed.block.number,
      proven: tips.proven.block.number,
      finalized: tips.finalized.block.number,
    });

    const blocks = (await pub('svc_getBlocks', [1, 10, { includeTransactions: true }])) as {
      number: number;
      hash: string;
      body: { txEffects: unknown[] };
    }[];
    assert.deepEqual(
      shown.blocks.map(({ number, hash, txs }) => ({ number, hash, txs })),
      blocks.map((b) => ({ number: b.number, hash: b.hash, txs: b.body.txEffects.length })).reverse(),
    );
    assert.deepEqual(
      shown.blocks.map((b) => b.txs),
      [2, 0],
    );
    // Number, short hash, timestamp, tx count as the visible cells of the newest block.
    const [newest] = shown.blocks;
    assert.equal(newest!.cells[0], String(blocks[1]!.number));
    assert.equal(newest!.cells[1], `${blocks[1]!.hash.slice(0, 10)}…${blocks[1]!.hash.slice(-6)}`);
    assert.match(newest!.cells[2]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.equal(newest!.cells[3], '2');

    assert.equal(shown.mempool, String(await pub('svc_getPendingTxCount')));
    assert.equal(shown.mempool, '1');
    const stats = (await pub('svc_getValidatorsStats')) as { stats: Record<string, unknown> };
    assert.equal(shown.validators, Object.keys(stats.stats).length);
    assert.equal(shown.version, NODE_VERSION);
    const info = (await pub('svc_getNodeInfo')) as { l1ChainId: number; rollupVersion: number };
    assert.equal(shown.l1ChainId, String(info.l1ChainId));
    assert.equal(shown.rollupVersion, String(info.rollupVersion));
    assert.equal(shown.sync.worldState, `block ${tips.proposed.number} of ${tips.proposed.number} (100%)`);
    assert.match(shown.sync.l1Block ?? '', /^\d+$/);
    assert.match(shown.sync.l1Reachable ?? '', /^reachable, head \d+$/);
    assert.equal(shown.sync.syncState, 'following L1');
    await page.close();
  });

  test('the page redraws by itself: a new block and the emptied mempool appear', async () => {
    const page = browser.newPage();
    await page.goto(running.publicUrl);
    const doc = page.mainFrame.document;
    await waitFor('the first refresh', () => doc.body.getAttribute('data-state') === 'ok');
    const before = rendered(doc);
    await dev('svcDev_advanceToSlot', [3]);
    const top = ((await pub('svc_getChainTips')) as Tips).proposed.number;
    assert.ok(top > before.tips.proposed!);
    const after = await waitFor(
      'a redraw with the new block',
      () => {
        const shown = rendered(doc);
        return shown.tips.proposed === top && shown.blocks[0]?.number === top ? shown : undefined;
      },
      STATUS_PAGE_REFRESH_MS * 3,
    );
    assert.equal(after.blocks[0]!.number, top);
    assert.equal(after.blocks[0]!.txs, 1);
    assert.equal(after.mempool, '0');
    await page.close();
  });
});

describe('status page: a node that cannot be reached', () => {
  test('the page says so instead of throwing', async () => {
    const port = await closedPort();
    const window = new Window({ url: `http://127.0.0.1:${port}/`, settings });
    const errors: unknown[] = [];
    window.addEventListener('error', (e) => errors.push(e));
    try {
      window.document.write(STATUS_PAGE_HTML);
      const doc = window.document;
      await waitFor('the error', () => doc.body.getAttribute('data-state') === 'error');
      const shown = rendered(doc);
      assert.match(shown.error, new RegExp(`^Cannot reach the node at 127\\.0\\.0\\.1:${port}: `));
      assert.match(shown.error, /Retrying every 5 s\.$/);
      assert.deepEqual(shown.blocks, []);
      assert.deepEqual(errors, []);
    } finally {
      await window.happyDOM.close();
    }
  });
});

// ---- headless Chromium, where installed -----------------------------------------------------------

/** CHROMIUM_PATH, else chromium, chromium-browser or google-chrome on PATH. */
function findChromium(): string | undefined {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const given = process.env.CHROMIUM_PATH;
  if (given) return executable(given) ? given : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      if (dir && executable(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

function runChromium(chromium: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      chromium,
      [
        '--headless',
        '--no-sandbox', // tests may run as root
        '--disable-gpu',
        '--no-first-run',
        '--disable-extensions',
        '--virtual-time-budget=5000',
        ...args,
      ],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

describe('status page: headless Chromium', () => {
  const chromium = findChromium();
  let running: RunningNode | undefined;
  let dir: string | undefined;
  before(async () => {
    if (chromium === undefined) return;
    running = await serve(testConfig({ clock: 'manual' }), silentLogger());
    const client = new NodeClient(running.publicUrl);
    await result(running.adminUrl, 'svcDev_advanceToSlot', [1]);
    for (const account of devAccounts(2)) {
      const tx = await prepareTx(client, {
        feePayer: account.address,
        noteHashes: [randomFr()],
        nullifiers: [randomFr()],
      });
      await result(running.publicUrl, 'svc_sendTx', [tx.wire]);
    }
    await result(running.adminUrl, 'svcDev_advanceToSlot', [2]);
    dir = mkdtempSync(join(tmpdir(), 'cairn-status-page-'));
  });
  after(async () => {
    await running?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('Chromium renders the page from the node (DOM dump and screenshot)', async (t) => {
    if (chromium === undefined || running === undefined || dir === undefined) {
      t.skip(
        'no Chromium found (set CHROMIUM_PATH, or put chromium, chromium-browser or google-chrome on PATH)',
      );
      return;
    }
    const url = running.publicUrl;
    const dom = await runChromium(chromium, ['--dump-dom', url]);
    const doc = new Window({ url }).document;
    doc.write(dom);
    const shown = rendered(doc);
    assert.equal(shown.state, 'ok', shown.error || dom.slice(0, 2000));
    const tips = (await result(url, 'svc_getChainTips')) as Tips;
    assert.equal(shown.tips.proposed, tips.proposed.number);
    assert.deepEqual(
      shown.blocks.map((b) => [b.number, b.txs]),
      [
        [2, 2],
        [1, 0],
      ],
    );
    assert.equal(shown.mempool, String(await result(url, 'svc_getPendingTxCount')));
    assert.equal(shown.version, NODE_VERSION);

    const screenshot = process.env.STATUS_PAGE_SCREENSHOT ?? join(dir, 'status-page.png');
    await runChromium(chromium, [`--screenshot=${screenshot}`, '--window-size=1280,1000', url]);
    assert.ok(existsSync(screenshot), 'the screenshot was written');
    const png = readFileSync(screenshot);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.length > 10_000, `a screenshot of ${png.length} bytes is too small to show the page`);
    t.diagnostic(`screenshot: ${screenshot}`);
  });
});
