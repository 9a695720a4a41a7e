// The node's page at GET / on the public port (docs/explorer.md; docs/rpc.md, "Status page"): one
// self-contained HTML document, the status overview and a block explorer routed by the URL's
// fragment, whose inline script (src/api/explorer-script.ts) reads the node's own public methods
// from the origin the browser used and redraws every few seconds. Nothing is loaded from elsewhere,
// and the Content-Security-Policy allows exactly this script and style (by hash) and same-origin
// requests.
//
// The script is plain browser JavaScript kept in a string: no build step, and it ships in dist/
// with the rest. Data reaches the DOM through textContent only. It marks what it drew for tests
// and scripts: <body data-state="loading|ok|error" data-route> and data-* attributes on the cells.
import { createHash } from 'node:crypto';
import { EXPLORER_SCRIPT } from './explorer-script.js';

export { STATUS_PAGE_BLOCKS, STATUS_PAGE_REFRESH_MS } from './explorer-script.js';

// Narrow screens (under 40rem): tables turn into one block per row, each cell under its column's
// label, and definition lists into one column, so nothing is wider than the screen.
const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6570; --line: #d5dae0; --card: #f6f8fa;
  --bad: #b42318; --good: #067647; --link: #0b5cad; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ec; --muted: #9aa4ae; --line: #38414a; --card: #161b22; --bad: #f97066; --good: #47cd89; --link: #6cb6ff; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 90rem; padding: 1.25rem; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); }
a { color: var(--link); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem 1.5rem; margin-bottom: 0.75rem; }
header > * { min-width: 0; }
h1 { font-size: 1.35rem; margin: 0; }
h2 { font-size: 1rem; margin: 0 0 0.5rem; }
h2.title { font-size: 1.2rem; margin: 0 0 0.75rem; overflow-wrap: anywhere; }
.bar { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin-bottom: 1rem; }
nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
form#search { display: flex; flex: 1 1 16rem; gap: 0.4rem; min-width: 0; max-width: 40rem; }
form#search input { flex: 1 1 auto; min-width: 0; }
input, button { font: inherit; color: inherit; }
input { padding: 0.25rem 0.4rem; border: 1px solid var(--line); border-radius: 4px; background: transparent; }
button { padding: 0.2rem 0.6rem; border: 1px solid var(--line); border-radius: 4px; background: var(--card); cursor: pointer; }
form.storage { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0 0 0.5rem; }
form.storage input { flex: 1 1 12rem; min-width: 0; }
form.storage p { flex-basis: 100%; margin: 0; }
form.storage p:empty { display: none; }
.muted { color: var(--muted); }
.mono, .hash { font-family: ui-monospace, monospace; }
.hash { white-space: nowrap; }
button.copy { padding: 0 0.3rem; margin-left: 0.25rem; font-size: 0.8em; line-height: 1.3; vertical-align: baseline; }
button.copy::before { content: "copy"; }
button.copy[data-done]::before { content: attr(data-done); }
.offscreen { position: fixed; top: 0; left: 0; width: 1px; height: 1px; opacity: 0; }
#error { color: var(--bad); font-weight: 600; margin: 0 0 1rem; }
#error:empty, p.bad:empty { display: none; }
.missing { font-weight: 600; color: var(--bad); overflow-wrap: anywhere; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(22rem, 100%), 1fr)); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; min-width: 0; overflow-wrap: anywhere; }
section.wide { grid-column: 1 / -1; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.2rem 0.6rem 0.2rem 0; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 500; }
td.num, th.num { text-align: right; }
td.time { white-space: nowrap; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; min-width: 0; }
ol.fields { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 0 0.9rem; }
ol.stages { display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0; padding: 0; list-style: none; }
ol.stages li { padding: 0 0.45rem; border: 1px solid var(--line); border-radius: 999px; }
ol.stages li.done { color: var(--good); }
ol.stages li.current { color: var(--card); background: var(--good); border-color: var(--good); font-weight: 600; }
ol.stages li.todo { color: var(--muted); }
.pager { display: flex; gap: 1rem; margin: 0 0 0.75rem; }
.big { font-size: 1.8rem; font-weight: 600; }
.good { color: var(--good); }
.bad { color: var(--bad); }
@media (max-width: 40rem) {
  body { padding: 0.75rem; }
  table, tbody, tr, td { display: block; width: 100%; }
  thead { display: none; }
  tr { padding: 0.3rem 0; border-bottom: 1px solid var(--line); }
  td, td.num { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 0.75rem; border: 0; padding: 0.05rem 0; text-align: right; }
  td[data-label]::before { content: attr(data-label); color: var(--muted); text-align: left; }
  td.time { white-space: normal; }
  tr.empty td { display: block; text-align: left; }
  dl { grid-template-columns: minmax(0, 1fr); gap: 0; }
  dd { margin-bottom: 0.35rem; }
}
`;

const BODY = `
<header>
  <h1>cairn node</h1>
  <span id="version" class="mono"></span>
  <span id="chain"></span>
  <span>status: <span id="node-state">…</span></span>
  <span id="updated" class="muted">loading…</span>
</header>
<div class="bar">
  <nav id="nav"></nav>
  <form id="search" role="search">
    <input id="q" type="search" placeholder="block number or hash, tx hash, address, class id" aria-label="Search" autocomplete="off" spellcheck="false">
    <button type="submit">Search</button>
  </form>
</div>
<p id="error" role="alert"></p>
<noscript><p>This page needs JavaScript to read the node. JSON-RPC is served at POST / and health at GET /status.</p></noscript>
<main id="view" hidden></main>
<div id="overview" class="grid">
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
<body data-state="loading">${BODY}<script>${EXPLORER_SCRIPT}</script>
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
  `script-src ${sha256Source(EXPLORER_SCRIPT)}`,
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
