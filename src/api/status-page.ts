// The status page served at GET / on the public port (docs/rpc.md, "Status page"): one
// self-contained HTML document whose inline script reads the node's own public methods from the
// origin the browser used (a JSON-RPC batch POSTed to the page's path, and GET status beside it)
// and redraws every few seconds. Nothing is loaded from elsewhere, and the Content-Security-Policy
// allows exactly this script and style (by hash) and same-origin requests.
//
// The script is plain browser JavaScript kept in a string: no build step, and it ships in dist/
// with the rest. Data reaches the DOM through textContent only. It marks what it drew for tests
// and scripts: <body data-state="loading|ok|error"> and data-* attributes on the cells.
import { createHash } from 'node:crypto';

/** Milliseconds between redraws. */
export const STATUS_PAGE_REFRESH_MS = 5000;

/** Blocks the page lists, newest first. */
export const STATUS_PAGE_BLOCKS = 10;

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6570; --line: #d5dae0; --card: #f6f8fa;
  --bad: #b42318; --good: #067647; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ec; --muted: #9aa4ae; --line: #38414a; --card: #161b22; --bad: #f97066; --good: #47cd89; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 1.25rem; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem 1.5rem; margin-bottom: 1rem; }
h1 { font-size: 1.35rem; margin: 0; }
h2 { font-size: 1rem; margin: 0 0 0.5rem; }
.muted { color: var(--muted); }
.mono, td.hash { font-family: ui-monospace, monospace; }
td.hash { white-space: nowrap; }
#error { color: var(--bad); font-weight: 600; margin: 0 0 1rem; }
#error:empty { display: none; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(19rem, 1fr)); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; }
section.wide { grid-column: 1 / -1; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.2rem 0.6rem 0.2rem 0; border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 500; }
td.num, th.num { text-align: right; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; }
.big { font-size: 1.8rem; font-weight: 600; }
.good { color: var(--good); }
.bad { color: var(--bad); }
`;

// Plain browser JavaScript (ES2020) inside a template string: it uses no backticks of its own, takes
// the two constants above by interpolation, and its regexes' backslashes are doubled here.
const SCRIPT = `
'use strict';
(() => {
  const REFRESH_MS = ${STATUS_PAGE_REFRESH_MS};
  const BLOCKS = ${STATUS_PAGE_BLOCKS};
  // The page's own path: JSON-RPC is POSTed there and status read beside it, so the page works
  // through whatever host, port or path prefix the browser used.
  const base = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
  const $ = (id) => document.getElementById(id);
  let nextId = 1;
  // Tx counts of blocks already read, by block hash: a block's body is fetched once.
  let txCounts = new Map();

  const messageOf = (err) => (err && err.message ? err.message : String(err));

  /** One JSON-RPC batch; each entry comes back as {value} or {error}. Throws when the node is unreachable. */
  async function batch(calls) {
    const requests = calls.map(([method, params]) => ({ jsonrpc: '2.0', id: nextId++, method, params: params || [] }));
    const res = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(requests),
      cache: 'no-store',
    });
    const text = await res.text();
    let replies;
    try {
      replies = JSON.parse(text);
    } catch {
      throw new Error('HTTP ' + res.status + ': not JSON');
    }
    if (!Array.isArray(replies)) {
      throw new Error('HTTP ' + res.status + ': ' + (replies && replies.error ? replies.error.message : 'not a batch reply'));
    }
    const byId = new Map(replies.map((r) => [r.id, r]));
    return requests.map((req) => {
      const r = byId.get(req.id);
      if (!r) return { error: 'no reply' };
      if (r.error) return { error: r.error.message + ' (' + r.error.code + ')' };
      return { value: r.result };
    });
  }

  /** GET status: its JSON also while the node answers 503 (starting or stopping). */
  async function nodeStatus() {
    const res = await fetch(base + 'status', { cache: 'no-store' });
    return res.json();
  }

  const short = (hash) => (typeof hash === 'string' && hash.length > 18 ? hash.slice(0, 10) + '…' + hash.slice(-6) : String(hash));
  const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');

  const utc = (ms) => new Date(ms).toISOString().replace('T', ' ').replace(/\\.\\d+Z$/, ' UTC');

  /** A timestamp in seconds as UTC, with its age when it is in the past. */
  function when(seconds) {
    const ms = Number(seconds) * 1000;
    if (!Number.isFinite(ms)) return String(seconds);
    const iso = utc(ms);
    const age = Math.round((Date.now() - ms) / 1000);
    if (age < 0) return iso;
    if (age < 120) return iso + ' (' + age + ' s ago)';
    if (age < 7200) return iso + ' (' + Math.round(age / 60) + ' min ago)';
    return iso + ' (' + Math.round(age / 3600) + ' h ago)';
  }

  function el(tag, text, className) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = String(text);
    if (className) e.className = className;
    return e;
  }

  function setText(id, text, field) {
    const e = $(id);
    e.textContent = String(text);
    if (field !== undefined) e.dataset.value = String(field);
  }

  /** A definition list from [label, value, key?] rows; a key becomes data-key on the value. */
  function fillList(id, rows) {
    const list = $(id);
    list.replaceChildren();
    for (const [label, value, key] of rows) {
      list.append(el('dt', label));
      const dd = el('dd', value);
      if (key) dd.dataset.key = key;
      list.append(dd);
    }
  }

  function fillTable(id, rows, empty) {
    const body = $(id);
    body.replaceChildren();
    if (rows.length === 0) {
      const tr = el('tr');
      const td = el('td', empty, 'muted');
      td.colSpan = 99;
      tr.append(td);
      body.append(tr);
      return;
    }
    for (const row of rows) body.append(row);
  }

  function cells(values, classes) {
    const tr = el('tr');
    values.forEach((v, i) => tr.append(el('td', v, classes && classes[i])));
    return tr;
  }

  function showError(id, message) {
    const e = $(id);
    e.textContent = message ? String(message) : '';
  }

  function renderInfo(info, status) {
    if (info.value) {
      setText('version', 'v' + info.value.nodeVersion, info.value.nodeVersion);
      setText('chain', 'L1 chain ' + info.value.l1ChainId + ' · rollup version ' + info.value.rollupVersion);
      $('chain').dataset.l1ChainId = String(info.value.l1ChainId);
      $('chain').dataset.rollupVersion = String(info.value.rollupVersion);
    }
    if (status) {
      const state = $('node-state');
      const problems = Array.isArray(status.problems) && status.problems.length > 0 ? status.problems : ['not ready'];
      state.textContent = status.status + (status.ok ? '' : ' (' + problems.join('; ') + ')');
      state.className = status.ok ? 'good' : 'bad';
      state.dataset.value = String(status.status);
    }
  }

  function renderTips(tips) {
    showError('tips-error', tips.error);
    if (!tips.value) return;
    const t = tips.value;
    const rows = [
      ['proposed', t.proposed, undefined],
      ['checkpointed', t.checkpointed.block, t.checkpointed.checkpoint],
      ['proven', t.proven.block, t.proven.checkpoint],
      ['finalized', t.finalized.block, t.finalized.checkpoint],
    ].map(([name, block, checkpoint]) => {
      const tr = cells([name, block.number, short(block.hash), checkpoint ? checkpoint.number : '—'], [
        '',
        'num',
        'hash',
        'num',
      ]);
      tr.dataset.tip = name;
      tr.dataset.block = String(block.number);
      return tr;
    });
    fillTable('tips', rows, '');
  }

  function renderSync(ws, status, slot, l1Time, tips) {
    const rows = [];
    if (status) {
      rows.push(['Sync', status.syncState === 'paused' ? 'paused' : 'following L1', 'syncState']);
      if (status.l1) {
        const head = status.l1.head === null ? '' : ', head ' + status.l1.head;
        rows.push(['L1', (status.l1.reachable ? 'reachable' : 'unreachable') + head, 'l1Reachable']);
      }
      if (status.l1Sync) {
        rows.push(['L1 block read', status.l1Sync.l1Block, 'l1Block']);
        rows.push(['L1 catch-up', status.l1Sync.catchingUp ? 'catching up' : 'at the head', 'catchingUp']);
      }
    }
    if (l1Time.value !== undefined && l1Time.value !== null) rows.push(['L1 time read', when(l1Time.value), 'l1Timestamp']);
    if (slot.value !== undefined && slot.value !== null) rows.push(['L2 slot synced', slot.value, 'syncedSlot']);
    if (ws.value) {
      const top = tips.value ? tips.value.proposed.number : ws.value.latestBlockNumber;
      const pct = top > 0 ? Math.min(100, Math.floor((ws.value.latestBlockNumber / top) * 1000) / 10) : 100;
      rows.push(['World state', 'block ' + ws.value.latestBlockNumber + ' of ' + top + ' (' + pct + '%)', 'worldState']);
      rows.push(['Trees', ws.value.treesAreSynched ? 'in sync with the chain' : 'syncing', 'treesAreSynched']);
      rows.push(['History kept from', 'block ' + ws.value.oldestHistoricBlockNumber, 'oldestBlock']);
    }
    if (status && status.p2p) rows.push(['Peers', status.p2p.connectedPeers, 'peers']);
    if (status && status.uptimeSeconds !== undefined) rows.push(['Uptime', status.uptimeSeconds + ' s', 'uptime']);
    fillList('sync', rows);
    showError('sync-error', ws.error || slot.error || l1Time.error);
  }

  function renderMempool(pending) {
    showError('mempool-error', pending.error);
    if (pending.value === undefined) return;
    setText('mempool', pending.value, pending.value);
    setText('mempool-label', (pending.value === 1 ? 'tx' : 'txs') + ' pending');
  }

  function renderValidators(validators) {
    showError('validators-error', validators.error);
    if (!validators.value) return;
    const v = validators.value;
    const list = Object.values(v.stats || {});
    $('validators').dataset.count = String(list.length);
    if (v.slotWindow === 0) {
      setText('validators-summary', 'Validator stats are off on this node');
    } else {
      const last = v.lastProcessedSlot === undefined ? 'no slot processed yet' : 'up to slot ' + v.lastProcessedSlot;
      setText('validators-summary', plural(list.length, 'validator') + ' seen over ' + v.slotWindow + ' slots, ' + last);
    }
    const missed = (m) => m.count + ' of ' + m.total;
    const rows = list.map((s) => {
      const tr = cells(
        [short(s.address), s.totalSlots, missed(s.missedProposals), missed(s.missedAttestations), s.lastProposal ? s.lastProposal.slot : '—'],
        ['hash', 'num', 'num', 'num', 'num'],
      );
      tr.dataset.address = s.address;
      return tr;
    });
    fillTable('validators', rows, v.slotWindow === 0 ? '' : 'none seen yet');
  }

  /** The latest blocks: headers every time, bodies (for the tx count) once per block hash. */
  async function loadBlocks(tips) {
    if (!tips.value) return { error: 'no chain tips' };
    const top = tips.value.proposed.number;
    if (top < 1) return { value: [] };
    const from = Math.max(1, top - BLOCKS + 1);
    const headers = (await batch([['svc_getBlocks', [from, top - from + 1]]]))[0];
    if (headers.error) return headers;
    const unread = headers.value.filter((b) => !txCounts.has(b.hash));
    if (unread.length > 0) {
      const first = unread[0].number;
      const last = unread[unread.length - 1].number;
      const bodies = (await batch([['svc_getBlocks', [first, last - first + 1, { includeTransactions: true }]]]))[0];
      if (bodies.error) return bodies;
      for (const b of bodies.value) txCounts.set(b.hash, b.body ? b.body.txEffects.length : undefined);
    }
    const kept = new Map();
    for (const b of headers.value) if (txCounts.has(b.hash)) kept.set(b.hash, txCounts.get(b.hash));
    txCounts = kept;
    return { value: headers.value.slice().reverse() };
  }

  function renderBlocks(blocks) {
    showError('blocks-error', blocks.error);
    if (!blocks.value) return;
    const rows = blocks.value.map((b) => {
      const g = b.header.globalVariables;
      const count = txCounts.get(b.hash);
      const tr = cells([b.number, short(b.hash), when(g.timestamp), count === undefined ? '?' : count, g.slotNumber, b.checkpointNumber], [
        'num',
        'hash',
        '',
        'num',
        'num',
        'num',
      ]);
      tr.dataset.number = String(b.number);
      tr.dataset.hash = b.hash;
      tr.dataset.txs = String(count);
      return tr;
    });
    fillTable('blocks', rows, 'No blocks after genesis yet');
  }

  /** Everything the page shows, read before anything is drawn (so a redraw is never half done). */
  async function load() {
    const [replies, status] = await Promise.all([
      batch([
        ['svc_getNodeInfo'],
        ['svc_getChainTips'],
        ['svc_getPendingTxCount'],
        ['svc_getValidatorsStats'],
        ['svc_getWorldStateSyncStatus'],
        ['svc_getSyncedL2SlotNumber'],
        ['svc_getSyncedL1Timestamp'],
      ]),
      nodeStatus().catch(() => undefined),
    ]);
    const [info, tips, pending, validators, ws, slot, l1Time] = replies;
    const blocks = await loadBlocks(tips);
    return { info, status, tips, pending, validators, ws, slot, l1Time, blocks };
  }

  function render(d) {
    renderInfo(d.info, d.status);
    renderTips(d.tips);
    renderSync(d.ws, d.status, d.slot, d.l1Time, d.tips);
    renderMempool(d.pending);
    renderValidators(d.validators);
    renderBlocks(d.blocks);
  }

  async function refresh() {
    let problem = '';
    let data;
    try {
      data = await load();
    } catch (err) {
      problem = 'Cannot reach the node at ' + location.host + ': ' + messageOf(err) + '. Retrying every ' + REFRESH_MS / 1000 + ' s.';
    }
    try {
      if (data) render(data);
    } catch (err) {
      problem = "Cannot show the node's answer: " + messageOf(err);
    }
    try {
      document.body.dataset.state = problem ? 'error' : 'ok';
      showError('error', problem);
      setText('updated', (problem ? 'last try ' : 'updated ') + utc(Date.now()));
    } catch {
      return; // the document is gone (the page was closed meanwhile)
    }
    setTimeout(refresh, REFRESH_MS);
  }

  refresh();
})();
`;

const BODY = `
<header>
  <h1>cairn node</h1>
  <span id="version" class="mono"></span>
  <span id="chain"></span>
  <span>status: <span id="node-state">…</span></span>
  <span id="updated" class="muted">loading…</span>
</header>
<p id="error" role="alert"></p>
<noscript><p>This page needs JavaScript to read the node. JSON-RPC is served at POST / and health at GET /status.</p></noscript>
<div class="grid">
  <section>
    <h2>Chain tips</h2>
    <p id="tips-error" class="bad"></p>
    <table>
      <thead><tr><th>tip</th><th class="num">block</th><th>hash</th><th class="num">checkpoint</th></tr></thead>
      <tbody id="tips"></tbody>
    </table>
  </section>
  <section>
    <h2>Sync</h2>
    <p id="sync-error" class="bad"></p>
    <dl id="sync"></dl>
  </section>
  <section>
    <h2>Mempool</h2>
    <p id="mempool-error" class="bad"></p>
    <p><span id="mempool" class="big">…</span> <span id="mempool-label" class="muted"></span></p>
  </section>
  <section class="wide">
    <h2>Latest blocks</h2>
    <p id="blocks-error" class="bad"></p>
    <table>
      <thead><tr><th class="num">block</th><th>hash</th><th>timestamp</th><th class="num">txs</th><th class="num">slot</th><th class="num">checkpoint</th></tr></thead>
      <tbody id="blocks"></tbody>
    </table>
  </section>
  <section class="wide">
    <h2>Validators</h2>
    <p id="validators-error" class="bad"></p>
    <p id="validators-summary" class="muted"></p>
    <table>
      <thead><tr><th>address</th><th class="num">slots</th><th class="num">missed proposals</th><th class="num">missed attestations</th><th class="num">last proposal (slot)</th></tr></thead>
      <tbody id="validators"></tbody>
    </table>
  </section>
</div>
`;

/** The page: one document, its style and script inline. */
export const STATUS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cairn node status</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body data-state="loading">${BODY}<script>${SCRIPT}</script>
</body>
</html>
`;

const sha256Source = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Allows the page's own inline script and style (by their hashes), requests to its own origin, and
 * nothing else: no other scripts, frames, forms, plugins or remote resources.
 */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256Source(SCRIPT)}`,
  `style-src ${sha256Source(STYLE)}`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of the page's response besides its content type. */
export const STATUS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': STATUS_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};
