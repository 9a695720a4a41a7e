// The script of the node's page (src/api/status-page.ts; docs/explorer.md): the status overview and
// the explorer's pages, routed by the URL's fragment — #/block/12, #/tx/0x…, #/contract/0x…,
// #/class/0x…, #/address/0x…, #/pending, #/validators, #/search/<text> — all in one document. It
// reads the node's public methods from the origin the browser used (a JSON-RPC batch POSTed to the
// page's path, and GET status beside it), everything a view shows before it draws, and redraws
// every few seconds; a view whose answers did not change is not redrawn.
//
// Plain browser JavaScript (ES2020) in a string: no build step, it ships in dist/ with the rest. It
// uses no backticks of its own and its regexes' backslashes are doubled here. Data reaches the DOM
// through textContent only. It marks what it drew for tests and scripts: <body data-state=
// "loading|ok|error" data-route=…>, data-found on the view, and data-* attributes on the values.
import { EXPLORER_HASH_SCRIPT } from './explorer-hash.js';

/** Milliseconds between redraws. */
export const STATUS_PAGE_REFRESH_MS = 5000;

/** Blocks the overview lists, newest first. */
export const STATUS_PAGE_BLOCKS = 10;

/** Latest blocks the address page searches for txs that wrote the address's Fee Juice balance. */
export const EXPLORER_ADDRESS_BLOCKS = 50;

/** Public logs a contract page lists, newest first. */
export const EXPLORER_CONTRACT_LOGS = 50;

export const EXPLORER_SCRIPT = `
'use strict';
(() => {
  const REFRESH_MS = ${STATUS_PAGE_REFRESH_MS};
  const BLOCKS = ${STATUS_PAGE_BLOCKS};
  const ADDRESS_BLOCKS = ${EXPLORER_ADDRESS_BLOCKS};
  const CONTRACT_LOGS = ${EXPLORER_CONTRACT_LOGS};
  const STAGES = ['pending', 'proposed', 'checkpointed', 'proven', 'finalized'];
${EXPLORER_HASH_SCRIPT}
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

  /** An error the node answered (the node is reachable): said as such, not as unreachable. */
  function answered(message) {
    const err = new Error(message);
    err.answered = true;
    return err;
  }

  /** A reply's value; an error the node answered is thrown. */
  function valueOf(reply) {
    if (reply.error) throw answered(reply.error);
    return reply.value;
  }

  /** A thing the node refused as a param (-32602): a page that says so, not an error. */
  const refusedParam = (reply) => typeof reply.error === 'string' && reply.error.endsWith('(-32602)');

  /** GET status: its JSON also while the node answers 503 (starting or stopping). */
  async function nodeStatus() {
    const res = await fetch(base + 'status', { cache: 'no-store' });
    return res.json();
  }

  // ---- formatting --------------------------------------------------------------------------------

  const short = (hash) => (typeof hash === 'string' && hash.length > 18 ? hash.slice(0, 10) + '…' + hash.slice(-6) : String(hash));
  const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');
  const utc = (ms) => new Date(ms).toISOString().replace('T', ' ').replace(/\\.\\d+Z$/, ' UTC');
  const isHex = (text, digits) => new RegExp('^0x[0-9a-fA-F]{1,' + digits + '}$').test(text);
  /** A field element's 0x form as the node writes it: 64 lowercase hex digits. */
  const norm = (text) => hex32(BigInt(text));

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

  /** Base units (10^18 per Fee Juice) as FJ, exact. */
  function fj(value) {
    const v = BigInt(value);
    const whole = v / 10n ** 18n;
    const frac = (v % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
    return whole.toString() + (frac ? '.' + frac : '') + ' FJ';
  }
  const feeText = (value) => fj(value) + ' (' + BigInt(value).toString() + ' base units)';

  // ---- DOM helpers -------------------------------------------------------------------------------

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

  function showError(id, message) {
    const e = $(id);
    e.textContent = message ? String(message) : '';
  }

  /** The page of a thing: block, tx, contract, class, address. */
  const pageOf = (kind, id) => '#/' + kind + '/' + id;

  function link(kind, id, text) {
    const a = el('a', text === undefined ? id : text);
    a.href = pageOf(kind, id);
    return a;
  }

  /** A hash shortened, linked to its page when it has one, with a button that copies it whole. */
  function hashView(full, kind) {
    const span = el('span', undefined, 'hash');
    const shown = kind ? link(kind, full, short(full)) : el('span', short(full), 'mono');
    shown.title = full;
    span.append(shown);
    const copy = el('button', undefined, 'copy');
    copy.type = 'button';
    copy.title = 'Copy ' + full;
    copy.setAttribute('aria-label', 'Copy ' + full);
    copy.dataset.copy = full;
    span.append(copy);
    span.dataset.full = full;
    return span;
  }

  /** A cell's content: text, a node, or a list of nodes. */
  function fill(parent, value) {
    if (value instanceof Node) parent.append(value);
    else if (Array.isArray(value)) parent.append(...value);
    else if (value !== undefined && value !== null) parent.textContent = String(value);
    return parent;
  }

  /** A definition list from [label, value, key?] rows; a key becomes data-key on the value. */
  function list(rows) {
    const dl = el('dl');
    for (const [label, value, key] of rows) {
      dl.append(el('dt', label));
      const dd = fill(el('dd'), value);
      if (key) dd.dataset.key = key;
      dl.append(dd);
    }
    return dl;
  }

  function fillList(id, rows) {
    $(id).replaceChildren(...list(rows).childNodes);
  }

  /** A table row of cells; each cell gets its column's label for the narrow layout. */
  function cells(values, classes, labels) {
    const tr = el('tr');
    values.forEach((v, i) => {
      const td = fill(el('td', undefined, classes && classes[i]), v);
      if (labels && labels[i]) td.dataset.label = labels[i];
      tr.append(td);
    });
    return tr;
  }

  function fillTable(body, rows, empty) {
    body.replaceChildren();
    if (rows.length === 0) {
      const tr = el('tr', undefined, 'empty');
      const td = el('td', empty, 'muted');
      td.colSpan = 99;
      tr.append(td);
      body.append(tr);
      return;
    }
    for (const row of rows) body.append(row);
  }

  /** A table: [label, class?] columns, rows as cell values (or [values, dataset]). */
  function table(columns, rows, empty, name) {
    const t = el('table', undefined, 'rows');
    if (name) t.dataset.table = name;
    const head = el('tr');
    for (const [label, cls] of columns) head.append(el('th', label, cls));
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    const labels = columns.map((c) => c[0]);
    const classes = columns.map((c) => c[1]);
    fillTable(
      tbody,
      rows.map(([values, data]) => {
        const tr = cells(values, classes, labels);
        for (const [k, v] of Object.entries(data || {})) tr.dataset[k] = String(v);
        return tr;
      }),
      empty,
    );
    t.append(thead, tbody);
    return t;
  }

  /** A card: a heading and its content. */
  function card(title, content, name, wide) {
    const s = el('section', undefined, wide ? 'wide' : '');
    if (name) s.dataset.card = name;
    s.append(el('h2', title));
    for (const c of [].concat(content)) if (c) s.append(c);
    return s;
  }

  /** Values of a log or a list of fields, shortened, each copyable. */
  function fieldList(values) {
    const ol = el('ol', undefined, 'fields');
    for (const v of values) {
      const li = el('li');
      li.append(hashView(v));
      ol.append(li);
    }
    return ol;
  }

  // ---- the overview (GET / without a fragment) --------------------------------------------------

  function renderInfo(info, status) {
    if (info && info.value) {
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
    const labels = ['tip', 'block', 'hash', 'checkpoint'];
    const rows = [
      ['proposed', t.proposed, undefined],
      ['checkpointed', t.checkpointed.block, t.checkpointed.checkpoint],
      ['proven', t.proven.block, t.proven.checkpoint],
      ['finalized', t.finalized.block, t.finalized.checkpoint],
    ].map(([name, block, checkpoint]) => {
      const tr = cells(
        [name, block.number > 0 ? link('block', block.number) : block.number, block.number > 0 ? hashView(block.hash, 'block') : short(block.hash), checkpoint ? checkpoint.number : '—'],
        ['', 'num', '', 'num'],
        labels,
      );
      tr.dataset.tip = name;
      tr.dataset.block = String(block.number);
      return tr;
    });
    fillTable($('tips'), rows, '');
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

  const missedText = (m) => m.count + ' of ' + m.total;

  function validatorRows(v) {
    return Object.values(v.stats || {}).map((s) => [
      [hashView(s.address), s.totalSlots, missedText(s.missedProposals), missedText(s.missedAttestations), s.lastProposal ? s.lastProposal.slot : '—'],
      { address: s.address },
    ]);
  }

  function renderValidators(validators) {
    showError('validators-error', validators.error);
    if (!validators.value) return;
    const v = validators.value;
    const count = Object.keys(v.stats || {}).length;
    $('validators').dataset.count = String(count);
    setText('validators-summary', validatorSummary(v, count));
    const labels = ['address', 'slots', 'missed proposals', 'missed attestations', 'last proposal (slot)'];
    const rows = validatorRows(v).map(([values, data]) => {
      const tr = cells(values, ['', 'num', 'num', 'num', 'num'], labels);
      tr.dataset.address = data.address;
      return tr;
    });
    fillTable($('validators'), rows, v.slotWindow === 0 ? '' : 'none seen yet');
  }

  function validatorSummary(v, count) {
    if (v.slotWindow === 0) return 'Validator stats are off on this node';
    const last = v.lastProcessedSlot === undefined ? 'no slot processed yet' : 'up to slot ' + v.lastProcessedSlot;
    return plural(count, 'validator') + ' seen over ' + v.slotWindow + ' slots, ' + last;
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
    const labels = ['block', 'hash', 'timestamp', 'txs', 'slot', 'checkpoint'];
    const rows = blocks.value.map((b) => {
      const g = b.header.globalVariables;
      const count = txCounts.get(b.hash);
      const tr = cells(
        [link('block', b.number), hashView(b.hash, 'block'), when(g.timestamp), count === undefined ? '?' : count, g.slotNumber, b.checkpointNumber],
        ['num', '', 'time', 'num', 'num', 'num'],
        labels,
      );
      tr.dataset.number = String(b.number);
      tr.dataset.hash = b.hash;
      tr.dataset.txs = String(count);
      return tr;
    });
    fillTable($('blocks'), rows, 'No blocks after genesis yet');
  }

  async function loadOverview() {
    const [replies, status] = await Promise.all([
      batch([
        ['svc_getChainTips'],
        ['svc_getPendingTxCount'],
        ['svc_getValidatorsStats'],
        ['svc_getWorldStateSyncStatus'],
        ['svc_getSyncedL2SlotNumber'],
        ['svc_getSyncedL1Timestamp'],
      ]),
      nodeStatus().catch(() => undefined),
    ]);
    const [tips, pending, validators, ws, slot, l1Time] = replies;
    const blocks = await loadBlocks(tips);
    return { status, tips, pending, validators, ws, slot, l1Time, blocks };
  }

  function renderOverview(d) {
    renderTips(d.tips);
    renderSync(d.ws, d.status, d.slot, d.l1Time, d.tips);
    renderMempool(d.pending);
    renderValidators(d.validators);
    renderBlocks(d.blocks);
  }

  // ---- the explorer's views: each loads what it shows, then draws it at once ---------------------

  /** A view that found nothing: what was asked, and why. */
  const notFound = (title, message, elsewhere) => ({ title, missing: message, elsewhere });

  /** The stage a tx mined in block n has reached, by the tips. */
  function stageOf(n, tips) {
    if (n <= tips.finalized.block.number) return 'finalized';
    if (n <= tips.proven.block.number) return 'proven';
    if (n <= tips.checkpointed.block.number) return 'checkpointed';
    return 'proposed';
  }

  function stages(current) {
    const ol = el('ol', undefined, 'stages');
    ol.dataset.stage = current;
    const at = STAGES.indexOf(current);
    STAGES.forEach((s, i) => {
      const li = el('li', s, i < at ? 'done' : i === at ? 'current' : 'todo');
      li.dataset.stage = s;
      ol.append(li);
    });
    return ol;
  }

  const resultText = (revertCode) => (Number(revertCode) === 0 ? 'success' : 'reverted');
  /** success or reverted, coloured. */
  const resultView = (text) => el('span', text, text === 'success' ? 'good' : 'bad');

  async function loadBlock(arg) {
    const param = /^\\d+$/.test(arg) ? Number(arg) : arg;
    if (typeof param === 'string' && !/^0x[0-9a-fA-F]{64}$/.test(param)) {
      return notFound('Block', 'A block is named by its number or its hash (0x and 64 hex digits), not ' + JSON.stringify(arg) + '.');
    }
    const [block, tips] = await batch([
      ['svc_getBlock', [param, { includeTransactions: true, includeL1PublishInfo: true, includeAttestations: true }]],
      ['svc_getChainTips'],
    ]);
    if (refusedParam(block)) return notFound('Block ' + arg, 'The node refused ' + JSON.stringify(arg) + ': ' + block.error);
    valueOf(block);
    valueOf(tips);
    if (!block.value) {
      return notFound('Block ' + arg, 'This node has no block ' + arg + '. Its latest block is ' + tips.value.proposed.number + '.');
    }
    const b = block.value;
    const [checkpoint] = await batch([['svc_getCheckpoint', [b.checkpointNumber, { includeL1PublishInfo: true }]]]);
    return { title: 'Block ' + b.number, block: b, tips: tips.value, checkpoint: checkpoint.value || null, checkpointError: checkpoint.error };
  }

  function publication(l1) {
    if (!l1) return 'unknown';
    if (!l1.published) return 'not published on L1 yet';
    return 'L1 block ' + l1.blockNumber + ' at ' + when(l1.timestamp);
  }

  function renderBlock(d) {
    const b = d.block;
    const g = b.header.globalVariables;
    const stage = stageOf(b.number, d.tips);
    const header = list([
      ['Number', b.number, 'number'],
      ['Hash', hashView(b.hash), 'hash'],
      ['Status', stage, 'stage'],
      ['Timestamp', when(g.timestamp), 'timestamp'],
      ['Slot', g.slotNumber, 'slot'],
      ['Parent archive', hashView(b.header.lastArchive.root), 'lastArchive'],
      ['Archive', hashView(b.archive.root), 'archive'],
      ['Coinbase', hashView(g.coinbase), 'coinbase'],
      ['Fee recipient', hashView(g.feeRecipient, 'address'), 'feeRecipient'],
      ['Gas fees', g.gasFees.feePerL2Gas + ' per L2 gas, ' + g.gasFees.feePerDaGas + ' per DA gas', 'gasFees'],
      ['Total fees', feeText(b.header.totalFees), 'totalFees'],
      ['Mana used', BigInt(b.header.totalManaUsed).toString(), 'totalManaUsed'],
      ['Note hash tree', 'root ' + short(b.header.state.partial.noteHashTree.root) + ', ' + b.header.state.partial.noteHashTree.nextAvailableLeafIndex + ' leaves', 'noteHashTree'],
      ['Nullifier tree', 'root ' + short(b.header.state.partial.nullifierTree.root) + ', ' + b.header.state.partial.nullifierTree.nextAvailableLeafIndex + ' leaves', 'nullifierTree'],
      ['Public data tree', 'root ' + short(b.header.state.partial.publicDataTree.root) + ', ' + b.header.state.partial.publicDataTree.nextAvailableLeafIndex + ' leaves', 'publicDataTree'],
    ]);
    const nav = el('p', undefined, 'pager');
    if (b.number > 1) nav.append(link('block', b.number - 1, '← block ' + (b.number - 1)), ' ');
    if (b.number < d.tips.proposed.number) nav.append(link('block', b.number + 1, 'block ' + (b.number + 1) + ' →'));
    const effects = (b.body ? b.body.txEffects : []).map((e, i) => [
      [i, hashView(e.txHash, 'tx'), resultView(resultText(e.revertCode)), fj(e.transactionFee), e.noteHashes.length + ' / ' + e.nullifiers.length, e.privateLogs.length + e.publicLogs.length],
      { tx: e.txHash, result: resultText(e.revertCode), fee: BigInt(e.transactionFee).toString() },
    ]);
    const txs = table(
      [['#', 'num'], ['tx'], ['result'], ['fee', 'num'], ['notes / nullifiers', 'num'], ['logs', 'num']],
      effects,
      'No txs in this block',
      'txs',
    );
    const cp = d.checkpoint;
    const checkpointRows = [['Number', b.checkpointNumber, 'checkpointNumber'], ['Block within it', b.indexWithinCheckpoint, 'indexWithinCheckpoint']];
    if (cp) {
      checkpointRows.push(
        ['Blocks', cp.blockCount === 1 ? 'block ' + cp.startBlock : 'blocks ' + cp.startBlock + ' to ' + (cp.startBlock + cp.blockCount - 1), 'blocks'],
        ['Slot', cp.header.slotNumber, 'checkpointSlot'],
        ['Archive', hashView(cp.archive.root), 'checkpointArchive'],
        ['Out hash', hashView(cp.checkpointOutHash), 'outHash'],
        ['L1 publication', publication(cp.l1), 'l1'],
      );
      if (cp.l1 && cp.l1.published) checkpointRows.push(['L1 block hash', hashView(cp.l1.blockHash), 'l1BlockHash']);
    } else {
      checkpointRows.push(['L1 publication', 'not in a checkpoint on L1 yet (proposed only)', 'l1']);
    }
    checkpointRows.push(['Attestations', b.attestations ? b.attestations.length : 0, 'attestations']);
    return [
      nav,
      card('Header', header, 'header'),
      card('Checkpoint and L1', list(checkpointRows), 'checkpoint'),
      card('Transactions (' + effects.length + ')', txs, 'txs', true),
    ];
  }

  async function loadTx(arg) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(arg)) return notFound('Transaction', 'A tx is named by its hash: 0x and 64 hex digits, not ' + JSON.stringify(arg) + '.');
    const [receipt, tips] = await batch([
      ['svc_getTxReceipt', [arg, { includeTxEffect: true, includePendingTx: true }]],
      ['svc_getChainTips'],
    ]);
    if (refusedParam(receipt)) return notFound('Transaction', 'The node refused ' + JSON.stringify(arg) + ': ' + receipt.error);
    valueOf(receipt);
    const r = receipt.value;
    if (r.status === 'dropped') {
      return notFound('Transaction ' + short(arg), 'This node knows no tx ' + arg + ': it is neither in a block nor pending (' + r.error + ').');
    }
    const [held, b] = await batch([
      ['svc_getTxPublicCalls', [arg]],
      ...(r.status === 'pending' ? [] : [['svc_getBlock', [r.blockNumber]]]),
    ]);
    const calls = held.value ? heldCalls(held.value) : null;
    const signatures = calls ? await signaturesOf(calls) : {};
    return { title: 'Transaction ' + short(arg), receipt: r, tips: tips.value, block: b && b.value ? b.value : null, calls, signatures };
  }

  // The fee is the gas charged (teardown at its limit) times its block's fees per gas. With DA gas
  // free in the block, the fee over the L2 price is the L2 gas charged; otherwise the node keeps no split.
  function gasCharged(fee, fees) {
    const l2Price = BigInt(fees.feePerL2Gas);
    const daPrice = BigInt(fees.feePerDaGas);
    const total = BigInt(fee);
    if (daPrice === 0n && l2Price > 0n && total % l2Price === 0n) return (total / l2Price).toString() + ' L2 gas (the fee over the L2 gas price; DA gas is free in this block)';
    return 'not known: the fee pays L2 and DA gas together, and the node keeps no split';
  }

  function renderTx(d) {
    const r = d.receipt;
    const out = [];
    const rows = [['Hash', hashView(r.txHash), 'hash'], ['Status', stages(r.status), 'status']];
    if (r.status === 'pending') {
      const tx = r.tx;
      const gs = tx.data.constants.txContext.gasSettings;
      rows.push(
        ['Fee payer', hashView(tx.data.feePayer, 'address'), 'feePayer'],
        ['Gas limits', gs.gasLimits.l2Gas + ' L2, ' + gs.gasLimits.daGas + ' DA', 'gasLimits'],
        ['Teardown gas limits', gs.teardownGasLimits.l2Gas + ' L2, ' + gs.teardownGasLimits.daGas + ' DA', 'teardownGasLimits'],
        ['Max fees per gas', gs.maxFeesPerGas.feePerL2Gas + ' per L2, ' + gs.maxFeesPerGas.feePerDaGas + ' per DA', 'maxFees'],
        ['Max priority fees', gs.maxPriorityFeesPerGas.feePerL2Gas + ' per L2, ' + gs.maxPriorityFeesPerGas.feePerDaGas + ' per DA', 'priorityFees'],
        ['Gas used in private', tx.data.gasUsed.l2Gas + ' L2, ' + tx.data.gasUsed.daGas + ' DA', 'gasUsed'],
        ['Valid until', when(tx.data.expirationTimestamp), 'expiration'],
      );
      out.push(card('Transaction', list(rows), 'summary', true));
      out.push(card('Public calls', publicCalls(d.calls || callsOf(tx), d.signatures), 'calls', true));
      return out;
    }
    const e = r.txEffect;
    rows.push(
      ['Result', resultView(r.executionResult), 'result'],
      ['Block', [link('block', r.blockNumber), ' (tx ' + r.txIndexInBlock + ' of it, slot ' + r.slotNumber + ', epoch ' + r.epochNumber + ')'], 'block'],
      ['Fee', feeText(r.transactionFee), 'fee'],
    );
    if (d.block) {
      const g = d.block.header.globalVariables;
      rows.push(
        ['Gas fees of its block', g.gasFees.feePerL2Gas + ' per L2 gas, ' + g.gasFees.feePerDaGas + ' per DA gas', 'gasFees'],
        ['Gas charged', gasCharged(r.transactionFee, g.gasFees), 'gasCharged'],
        ['Mined at', when(g.timestamp), 'timestamp'],
      );
    }
    if (r.executionResult === 'reverted') rows.push(['Revert reason', r.error || 'not known to this node', 'revertReason']);
    out.push(card('Transaction', list(rows), 'summary', true));
    const hashes = (values, name, empty) => (values.length ? fieldList(values) : el('p', empty, 'muted'));
    out.push(card('Note hashes (' + e.noteHashes.length + ')', hashes(e.noteHashes, 'noteHashes', 'none'), 'noteHashes'));
    out.push(card('Nullifiers (' + e.nullifiers.length + ')', hashes(e.nullifiers, 'nullifiers', 'none'), 'nullifiers'));
    out.push(card('L2→L1 messages (' + e.l2ToL1Msgs.length + ')', hashes(e.l2ToL1Msgs, 'l2ToL1Msgs', 'none'), 'l2ToL1Msgs'));
    out.push(
      card(
        'Public storage writes (' + e.publicDataWrites.length + ')',
        table(
          [['leaf slot'], ['value']],
          e.publicDataWrites.map((w) => [[hashView(w.leafSlot), hashView(w.value)], { leafSlot: w.leafSlot, value: w.value }]),
          'none',
          'writes',
        ),
        'writes',
        true,
      ),
    );
    out.push(
      card(
        'Public logs (' + e.publicLogs.length + ')',
        table(
          [['#', 'num'], ['contract'], ['fields']],
          e.publicLogs.map((l, i) => [[i, hashView(l.contractAddress, 'contract'), fieldList(l.fields)], { contract: l.contractAddress, fields: l.fields.length }]),
          'none',
          'publicLogs',
        ),
        'publicLogs',
        true,
      ),
    );
    out.push(
      card(
        'Private logs (' + e.privateLogs.length + ')',
        table(
          [['#', 'num'], ['tag'], ['fields']],
          e.privateLogs.map((l, i) => [[i, hashView(l.fields[0]), fieldList(l.fields.slice(1, l.emittedLength))], { tag: l.fields[0], fields: l.emittedLength }]),
          'none',
          'privateLogs',
        ),
        'privateLogs',
        true,
      ),
    );
    if (e.contractClassLogs.length) {
      out.push(
        card(
          'Contract class logs (' + e.contractClassLogs.length + ')',
          table(
            [['contract'], ['fields', 'num']],
            e.contractClassLogs.map((l) => [[hashView(l.contractAddress, 'contract'), l.emittedLength], {}]),
            'none',
            'classLogs',
          ),
          'classLogs',
          true,
        ),
      );
    }
    out.push(
      card(
        'Public calls',
        d.calls
          ? [el('p', r.executionResult === 'reverted' ? 'Enqueued by the tx, which reverted (the reason is above).' : 'Enqueued by the tx, run in this order.', 'muted'), publicCalls(d.calls, d.signatures)]
          : el('p', 'The node holds a tx whole only until its block is finalized: the calls of this tx are no longer served. Its public storage writes and logs above are what they did.', 'muted'),
        'calls',
        true,
      ),
    );
    return out;
  }

  /** A call as the page shows it: its selector is its calldata's first field. */
  function callEntry(phase, req, values) {
    const first = values.length ? BigInt(values[0]) : undefined;
    const selector = first !== undefined && first < 2n ** 32n ? '0x' + first.toString(16).padStart(8, '0') : undefined;
    return { phase, req, selector, args: Math.max(0, values.length - 1) };
  }

  /** The enqueued public calls of a pending tx, each with its calldata (matched by hash). */
  function callsOf(tx) {
    const p = tx.data.forPublic;
    if (!p) return [];
    const byHash = new Map((tx.publicFunctionCalldata || []).map((c) => [c.hash, c.values]));
    const calls = [];
    const add = (phase, req) => calls.push(callEntry(phase, req, byHash.get(req.calldataHash) || []));
    for (const req of p.nonRevertibleAccumulatedData.publicCallRequests) add('setup', req);
    for (const req of p.revertibleAccumulatedData.publicCallRequests) add('app logic', req);
    if (p.publicTeardownCallRequest) add('teardown', p.publicTeardownCallRequest);
    return calls;
  }

  /** The calls of svc_getTxPublicCalls' answer. */
  const heldCalls = (held) => held.calls.map((c) => callEntry(c.phase === 'app' ? 'app logic' : c.phase, c, c.calldata));

  /** The calls' functions: the signature the node knows for each selector, by selector. */
  async function signaturesOf(calls) {
    const selectors = [...new Set(calls.map((c) => c.selector).filter((s) => s !== undefined))];
    if (selectors.length === 0) return {};
    const [known] = await batch([['svc_getFunctionSignatures', [selectors]]]);
    const out = {};
    if (known.value) selectors.forEach((s, i) => known.value[i] && (out[s] = known.value[i]));
    return out;
  }

  /** The enqueued public calls: phase, contract, sender, function (named where the node knows it). */
  function publicCalls(calls, signatures) {
    const rows = calls.map((c) => {
      const name = c.selector && signatures[c.selector];
      const fn = name ? [el('span', name, 'mono'), ' ', el('span', c.selector, 'muted mono')] : c.selector || '—';
      return [
        [c.phase, hashView(c.req.contractAddress, 'contract'), hashView(c.req.msgSender, 'address'), fn, c.args, c.req.isStaticCall ? 'yes' : 'no'],
        { contract: c.req.contractAddress, phase: c.phase, selector: c.selector || '', signature: name || '' },
      ];
    });
    return table([['phase'], ['contract'], ['sender'], ['function'], ['args', 'num'], ['static']], rows, 'none: this tx made no public call', 'calls');
  }

  /** The block that inserted a nullifier, or null. */
  async function nullifierBlock(nullifier) {
    const [found] = await batch([['svc_findLeavesIndexes', ['latest', 0, [hex32(nullifier)]]]]);
    valueOf(found);
    return found.value[0] ? found.value[0].l2BlockNumber : null;
  }

  /** The tx of a block that emitted a nullifier. */
  async function txWithNullifier(blockNumber, nullifier) {
    const [b] = await batch([['svc_getBlock', [blockNumber, { includeTransactions: true }]]]);
    const want = hex32(nullifier);
    if (!b.value || !b.value.body) return null;
    const e = b.value.body.txEffects.find((t) => t.nullifiers.includes(want));
    return e ? e.txHash : null;
  }

  // Slots the contract page reads, by contract: [{slot, key}] as the user gave them.
  const watched = new Map();

  function watchedSlots(address) {
    if (!watched.has(address)) watched.set(address, []);
    return watched.get(address);
  }

  const storageSlotOf = (w) => (w.key ? mapSlot(BigInt(w.slot), BigInt(w.key)) : BigInt(w.slot));

  async function loadContract(arg) {
    if (!isHex(arg, 64)) return notFound('Contract', 'A contract is named by its address: 0x and up to 64 hex digits, not ' + JSON.stringify(arg) + '.');
    const address = norm(arg);
    const slots = watchedSlots(address);
    const [instance, logs, ...values] = await batch([
      ['svc_getContract', [address]],
      ['node_getPublicLogs', [{ contractAddress: address }]],
      ...slots.map((w) => ['svc_getPublicStorageAt', ['latest', address, hex32(storageSlotOf(w))]]),
    ]);
    if (refusedParam(instance)) return notFound('Contract', 'The node refused ' + JSON.stringify(arg) + ': ' + instance.error);
    valueOf(instance);
    if (!instance.value) {
      return notFound('Contract ' + short(address), 'No contract instance is published at ' + address + ' on this chain.', [
        'address',
        address,
        'Open it as an account address',
      ]);
    }
    const c = instance.value;
    const [cls] = await batch([['svc_getContractClass', [c.currentContractClassId]]]);
    const publishedIn = await nullifierBlock(siloedNullifier(INSTANCE_REGISTRY, BigInt(address)));
    const publishedBy = publishedIn === null ? null : await txWithNullifier(publishedIn, siloedNullifier(INSTANCE_REGISTRY, BigInt(address)));
    return {
      title: 'Contract ' + short(address),
      address,
      instance: c,
      cls: cls.value || null,
      publishedIn,
      publishedBy,
      logs: logs.value || { logs: [], maxLogsHit: false },
      logsError: logs.error,
      slots: slots.map((w, i) => ({ slot: w.slot, key: w.key, storageSlot: hex32(storageSlotOf(w)), value: values[i].value, error: values[i].error })),
    };
  }

  function renderContract(d) {
    const c = d.instance;
    const rows = [
      ['Address', hashView(c.address), 'address'],
      ['Class', hashView(c.currentContractClassId, 'class'), 'classId'],
      ['Original class', hashView(c.originalContractClassId, 'class'), 'originalClassId'],
      ['Deployer', BigInt(c.deployer) === 0n ? 'anyone (0)' : hashView(c.deployer, 'address'), 'deployer'],
      ['Published in', d.publishedIn === null ? 'unknown' : link('block', d.publishedIn, 'block ' + d.publishedIn), 'publishedIn'],
      ['Publication tx', d.publishedBy ? hashView(d.publishedBy, 'tx') : 'unknown', 'publishedBy'],
      ['Salt', hashView(c.salt), 'salt'],
      ['Initialization hash', hashView(c.initializationHash), 'initializationHash'],
      ['Version', c.version, 'version'],
      ['Fee Juice balance', link('address', c.address, 'on its address page'), 'account'],
    ];
    const classRows = d.cls
      ? [
          ['Id', hashView(d.cls.id, 'class'), 'id'],
          ['Artifact hash', hashView(d.cls.artifactHash), 'artifactHash'],
          ['Public bytecode', (d.cls.packedBytecode.length - 2) / 2 + ' bytes packed', 'bytecode'],
        ]
      : [['Id', hashView(c.currentContractClassId), 'id']];
    const logs = d.logs.logs.slice(-CONTRACT_LOGS).reverse();
    const logTable = table(
      [['block', 'num'], ['tx'], ['fields']],
      logs.map((l) => [[link('block', l.id.blockNumber), hashView(l.id.txHash, 'tx'), fieldList(l.log.fields)], { tx: l.id.txHash, block: l.id.blockNumber }]),
      'No public logs',
      'logs',
    );
    const more = d.logs.logs.length > logs.length || d.logs.maxLogsHit ? el('p', 'The newest ' + logs.length + ' are shown.', 'muted') : null;
    return [
      card('Instance', list(rows), 'instance'),
      card('Class', list(classRows), 'class'),
      card('Public storage', storageTool(d), 'storage', true),
      card('Public logs (' + d.logs.logs.length + (d.logs.maxLogsHit ? '+' : '') + ')', [logTable, more, d.logsError ? el('p', d.logsError, 'bad') : null], 'logs', true),
    ];
  }

  // The storage form of the contract page: kept across redraws so that what is typed survives.
  const storageForm = { address: '', form: null };

  function storageTool(d) {
    if (storageForm.address !== d.address || !storageForm.form) {
      const form = el('form', undefined, 'storage');
      const slot = el('input');
      slot.name = 'slot';
      slot.placeholder = 'slot (number or 0x…)';
      slot.required = true;
      const key = el('input');
      key.name = 'key';
      key.placeholder = 'map key (optional, e.g. an address)';
      const read = el('button', 'Read');
      read.type = 'submit';
      const problem = el('p', '', 'bad');
      problem.id = 'storage-error';
      form.append(slot, key, read, problem);
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const s = slot.value.trim();
        const k = key.value.trim();
        const ok = (t) => /^\\d+$/.test(t) || isHex(t, 64);
        if (!ok(s) || (k && !ok(k))) {
          problem.textContent = 'A slot and a key are numbers or 0x hex.';
          return;
        }
        problem.textContent = '';
        watchedSlots(d.address).push({ slot: s, key: k });
        refresh();
      });
      storageForm.address = d.address;
      storageForm.form = form;
    }
    const help = el(
      'p',
      'The node lists no contract\\'s slots: read one by its slot, or a map entry by the map\\'s slot and the key (its storage slot is the Poseidon2 hash of both). The values are read again at every refresh.',
      'muted',
    );
    const values = table(
      [['slot'], ['key'], ['storage slot'], ['value']],
      d.slots.map((s) => [[s.slot, s.key || '—', hashView(s.storageSlot), s.error ? s.error : [hashView(s.value), ' (' + BigInt(s.value).toString() + ')']], { slot: s.storageSlot, value: s.value || '' }]),
      'No slot read yet',
      'storage',
    );
    return [help, storageForm.form, values];
  }

  async function loadClass(arg) {
    if (!isHex(arg, 64)) return notFound('Contract class', 'A class is named by its id: 0x and up to 64 hex digits, not ' + JSON.stringify(arg) + '.');
    const id = norm(arg);
    const [cls] = await batch([['svc_getContractClass', [id]]]);
    if (refusedParam(cls)) return notFound('Contract class', 'The node refused ' + JSON.stringify(arg) + ': ' + cls.error);
    valueOf(cls);
    if (!cls.value) return notFound('Contract class ' + short(id), 'No contract class ' + id + ' is published on this chain.');
    const nullifier = siloedNullifier(CLASS_REGISTRY, BigInt(id));
    const publishedIn = await nullifierBlock(nullifier);
    const publishedBy = publishedIn === null ? null : await txWithNullifier(publishedIn, nullifier);
    return { title: 'Contract class ' + short(id), cls: cls.value, publishedIn, publishedBy };
  }

  function renderClass(d) {
    const c = d.cls;
    return [
      card(
        'Contract class',
        list([
          ['Id', hashView(c.id), 'id'],
          ['Version', c.version, 'version'],
          ['Artifact hash', hashView(c.artifactHash), 'artifactHash'],
          ['Private functions root', hashView(c.privateFunctionsRoot), 'privateFunctionsRoot'],
          ['Public bytecode', (c.packedBytecode.length - 2) / 2 + ' bytes packed', 'bytecode'],
          ['Published in', d.publishedIn === null ? 'unknown' : link('block', d.publishedIn, 'block ' + d.publishedIn), 'publishedIn'],
          ['Publication tx', d.publishedBy ? hashView(d.publishedBy, 'tx') : 'unknown', 'publishedBy'],
        ]),
        'class',
        true,
      ),
    ];
  }

  // #/address/<address> reads the latest ADDRESS_BLOCKS blocks; #/address/<address>/<n> those up to block n.
  async function loadAddress(path) {
    const slash = path.indexOf('/');
    const arg = slash < 0 ? path : path.slice(0, slash);
    const upTo = slash < 0 ? null : path.slice(slash + 1);
    if (!isHex(arg, 64)) return notFound('Address', 'An address is 0x and up to 64 hex digits, not ' + JSON.stringify(arg) + '.');
    if (upTo !== null && !/^\\d+$/.test(upTo)) return notFound('Address', 'Blocks up to ' + JSON.stringify(upTo) + ': a block number is digits only.');
    const address = norm(arg);
    const balanceSlot = mapSlot(FEE_JUICE_BALANCES, BigInt(address));
    const leaf = hex32(leafSlot(FEE_JUICE, balanceSlot));
    const [balance, contract, tips] = await batch([
      ['svc_getPublicStorageAt', ['latest', hex32(FEE_JUICE), hex32(balanceSlot)]],
      ['svc_getContract', [address]],
      ['svc_getChainTips'],
    ]);
    if (refusedParam(balance)) return notFound('Address', 'The node refused ' + JSON.stringify(arg) + ': ' + balance.error);
    valueOf(balance);
    valueOf(tips);
    const latest = tips.value.proposed.number;
    const top = upTo === null ? latest : Math.min(latest, Number(upTo));
    const from = Math.max(1, top - ADDRESS_BLOCKS + 1);
    const txs = [];
    if (top >= 1) {
      const [blocks] = await batch([['svc_getBlocks', [from, top - from + 1, { includeTransactions: true }]]]);
      valueOf(blocks);
      for (const b of blocks.value) {
        for (const e of b.body.txEffects) {
          const write = e.publicDataWrites.find((w) => w.leafSlot === leaf);
          if (write) txs.push({ block: b.number, tx: e.txHash, fee: e.transactionFee, result: resultText(e.revertCode), balance: write.value });
        }
      }
    }
    return { title: 'Address ' + short(address), address, balance: balance.value, contract: contract.value || null, txs: txs.reverse(), from, top, latest };
  }

  function renderAddress(d) {
    const rows = [
      ['Address', hashView(d.address), 'address'],
      ['Fee Juice balance', feeText(d.balance), 'balance'],
      ['Contract', d.contract ? link('contract', d.address, 'a published contract instance') : 'no contract instance published here', 'contract'],
    ];
    const span = d.top >= 1 ? 'blocks ' + d.from + ' to ' + d.top : 'no blocks yet';
    return [
      card('Account', list(rows), 'account', true),
      card(
        'Txs that wrote its Fee Juice balance (' + span + ')',
        [
          el('p', 'A tx whose fee this address paid writes its balance, and so does a deposit to it.', 'muted'),
          table(
            [['block', 'num'], ['tx'], ['result'], ['fee', 'num'], ['balance after', 'num']],
            d.txs.map((t) => [[link('block', t.block), hashView(t.tx, 'tx'), resultView(t.result), fj(t.fee), fj(t.balance)], { tx: t.tx, block: t.block }]),
            'none in these blocks',
            'txs',
          ),
          addressPaging(d),
        ],
        'txs',
        true,
      ),
    ];
  }

  /** Links to the blocks before those shown and back to the latest: the node keeps no index of txs by payer. */
  function addressPaging(d) {
    const p = el('p', undefined, 'paging');
    p.dataset.paging = 'address';
    if (d.from > 1) {
      const older = link('address', d.address + '/' + (d.from - 1), 'older: blocks ' + Math.max(1, d.from - ADDRESS_BLOCKS) + ' to ' + (d.from - 1));
      older.dataset.older = String(d.from - 1);
      p.append(older);
    }
    if (d.top < d.latest) {
      if (p.childNodes.length) p.append(' · ');
      const newest = link('address', d.address, 'the latest blocks');
      newest.dataset.newest = 'true';
      p.append(newest);
    }
    return p;
  }

  async function loadPending() {
    const [txs, count] = await batch([['svc_getPendingTxs', [100]], ['svc_getPendingTxCount']]);
    valueOf(txs);
    const signatures = await signaturesOf(txs.value.flatMap(callsOf));
    return { title: 'Pending txs', txs: txs.value, count: count.value, signatures };
  }

  function renderPending(d) {
    const rows = d.txs.map((tx) => {
      const gs = tx.data.constants.txContext.gasSettings;
      const calls = callsOf(tx);
      const names = calls.map((c) => (c.selector && d.signatures[c.selector]) || c.selector || '?');
      return [
        [hashView(tx.txHash, 'tx'), hashView(tx.data.feePayer, 'address'), gs.gasLimits.l2Gas + ' / ' + gs.gasLimits.daGas, gs.maxPriorityFeesPerGas.feePerL2Gas, names.length ? names.join(', ') : 'none', when(tx.data.expirationTimestamp)],
        { tx: tx.txHash, calls: calls.length },
      ];
    });
    const shown = d.count > d.txs.length ? ' (the first ' + d.txs.length + ' in priority order)' : '';
    return [
      card(
        plural(d.count, 'pending tx') + shown,
        table([['tx'], ['fee payer'], ['gas limits L2 / DA', 'num'], ['priority fee per L2 gas', 'num'], ['public calls'], ['valid until', 'time']], rows, 'The mempool is empty', 'pending'),
        'pending',
        true,
      ),
    ];
  }

  async function loadValidators() {
    const [v, constants] = await batch([['svc_getValidatorsStats'], ['svc_getL1Constants']]);
    valueOf(v);
    return { title: 'Validators', stats: v.value, constants: constants.value };
  }

  function renderValidatorsPage(d) {
    const v = d.stats;
    const rows = Object.values(v.stats || {}).map((s) => [
      [
        hashView(s.address),
        s.totalSlots,
        missedText(s.missedProposals),
        missedText(s.missedAttestations),
        s.lastProposal ? s.lastProposal.slot : '—',
        s.lastAttestation ? s.lastAttestation.slot : '—',
      ],
      { address: s.address },
    ]);
    const out = [
      card(
        'Validators',
        [
          el('p', validatorSummary(v, rows.length), 'muted'),
          table([['address'], ['slots', 'num'], ['missed proposals', 'num'], ['missed attestations', 'num'], ['last proposal (slot)', 'num'], ['last attestation (slot)', 'num']], rows, v.slotWindow === 0 ? 'stats are off' : 'none seen yet', 'validators'),
        ],
        'validators',
        true,
      ),
    ];
    if (d.constants) {
      const c = d.constants;
      out.push(
        card('Rollup', list([
          ['Committee size', c.targetCommitteeSize, 'committee'],
          ['Slot', c.slotDuration + ' s', 'slotDuration'],
          ['Epoch', plural(c.epochDuration, 'slot'), 'epochDuration'],
          ['Proof window', plural(c.proofSubmissionEpochs, 'epoch'), 'proofWindow'],
        ]), 'rollup'),
      );
    }
    return out;
  }

  /**
   * Search: a block number; or a 0x value that may be a block hash, a tx hash, a contract
   * address, a class id or an account (an address holding Fee Juice) — each asked of the node, the
   * one match opened.
   */
  async function loadSearch(arg) {
    const q = arg.trim();
    if (/^\\d+$/.test(q)) return { redirect: pageOf('block', q) };
    if (!isHex(q, 64)) return notFound('Search', 'Search takes a block number, or a block hash, tx hash, address or class id (0x…); not ' + JSON.stringify(q) + '.');
    const v = norm(q);
    const [block, receipt, contract, cls, balance] = await batch([
      ['svc_getBlock', [v]],
      ['svc_getTxReceipt', [v]],
      ['svc_getContract', [v]],
      ['svc_getContractClass', [v]],
      ['svc_getPublicStorageAt', ['latest', hex32(FEE_JUICE), hex32(mapSlot(FEE_JUICE_BALANCES, BigInt(v)))]],
    ]);
    const hits = [];
    if (block.value) hits.push(['block', block.value.number, 'block ' + block.value.number]);
    if (receipt.value && receipt.value.status !== 'dropped') hits.push(['tx', v, 'tx ' + short(v) + ' (' + receipt.value.status + ')']);
    if (contract.value) hits.push(['contract', v, 'contract ' + short(v)]);
    if (cls.value) hits.push(['class', v, 'contract class ' + short(v)]);
    // An account: an address that holds Fee Juice.
    if (hits.length === 0 && balance.value && BigInt(balance.value) > 0n) hits.push(['address', v, 'account ' + short(v)]);
    if (hits.length === 1) return { redirect: pageOf(hits[0][0], hits[0][1]) };
    return { title: 'Search', query: v, hits };
  }

  function renderSearch(d) {
    if (d.hits.length === 0) {
      const p = el('p', 'No block, tx, contract, class or account holding Fee Juice on this chain is ' + d.query + '. ');
      p.append(link('address', d.query, 'Open it as an account address'), ' to see its Fee Juice balance.');
      return [card('Nothing found', p, 'search', true)];
    }
    const ul = el('ul');
    for (const [kind, id, text] of d.hits) {
      const li = el('li');
      li.append(link(kind, id, text));
      ul.append(li);
    }
    return [card('Several matches', ul, 'search', true)];
  }

  const VIEWS = {
    block: [loadBlock, renderBlock],
    tx: [loadTx, renderTx],
    contract: [loadContract, renderContract],
    class: [loadClass, renderClass],
    address: [loadAddress, renderAddress],
    pending: [loadPending, renderPending],
    validators: [loadValidators, renderValidatorsPage],
    search: [loadSearch, renderSearch],
  };

  // ---- routing and the refresh loop -------------------------------------------------------------

  function route() {
    const h = location.hash.replace(/^#\\/?/, '');
    const i = h.indexOf('/');
    const name = i < 0 ? h : h.slice(0, i);
    let arg = i < 0 ? '' : h.slice(i + 1);
    try {
      arg = decodeURIComponent(arg);
    } catch {
      // kept as typed
    }
    return { name: VIEWS[name] || name === '' ? name : 'unknown', arg, key: h };
  }

  /** The view last drawn: its route and the JSON of its data, to skip redraws that change nothing. */
  let drawn = { key: null, data: null };

  function drawView(r, d) {
    const view = $('view');
    document.title = (d.title || 'cairn') + ' · cairn node';
    const json = JSON.stringify(d);
    if (drawn.key === r.key && drawn.data === json) return;
    const parts = [el('h2', d.title || '', 'title')];
    if (d.missing) {
      parts.push(el('p', d.missing, 'missing'));
      if (d.elsewhere) {
        const p = el('p');
        p.append(link(d.elsewhere[0], d.elsewhere[1], d.elsewhere[2]));
        parts.push(p);
      }
      view.dataset.found = 'false';
    } else {
      const grid = el('div', undefined, 'grid');
      for (const c of VIEWS[r.name][1](d)) {
        if (c.tagName === 'SECTION') grid.append(c);
        else parts.push(c);
      }
      parts.push(grid);
      view.dataset.found = 'true';
    }
    view.dataset.route = r.name;
    view.replaceChildren(...parts);
    drawn = { key: r.key, data: json };
  }

  let timer;
  let generation = 0;

  async function refresh() {
    clearTimeout(timer);
    const gen = ++generation;
    const r = route();
    let problem = '';
    let data;
    let info;
    let status;
    try {
      const [replies, st] = await Promise.all([batch([['svc_getNodeInfo']]), nodeStatus().catch(() => undefined)]);
      info = replies[0];
      status = st;
      if (r.name === '') data = await loadOverview();
      else if (r.name === 'unknown') data = notFound('Not a page', 'This page has no view ' + JSON.stringify('#/' + r.key) + '.');
      else data = await VIEWS[r.name][0](r.arg);
    } catch (err) {
      problem = err && err.answered
        ? 'The node answered with an error: ' + messageOf(err) + '. Retrying every ' + REFRESH_MS / 1000 + ' s.'
        : 'Cannot reach the node at ' + location.host + ': ' + messageOf(err) + '. Retrying every ' + REFRESH_MS / 1000 + ' s.';
    }
    if (gen !== generation) return; // the route changed meanwhile: that refresh draws
    if (data && data.redirect) {
      location.replace(data.redirect);
      return;
    }
    try {
      renderInfo(info, status);
      const overview = r.name === '';
      $('overview').hidden = !overview;
      $('view').hidden = overview;
      document.body.dataset.route = r.name || 'overview';
      if (data && overview) {
        document.title = 'cairn node status';
        renderOverview(data);
      } else if (data) {
        drawView(r, data);
      }
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
    timer = setTimeout(refresh, REFRESH_MS);
  }

  // ---- the page's furniture: navigation, search, copy --------------------------------------------

  function furnish() {
    const nav = $('nav');
    for (const [href, text] of [['#/', 'Overview'], ['#/pending', 'Pending'], ['#/validators', 'Validators']]) {
      const a = el('a', text);
      a.href = href;
      nav.append(a);
    }
    $('search').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const q = $('q').value.trim();
      if (!q) return;
      const target = '#/search/' + encodeURIComponent(q);
      if (location.hash === target) refresh();
      else location.hash = target;
    });
    document.addEventListener('click', (ev) => {
      const button = ev.target && ev.target.closest ? ev.target.closest('button.copy') : null;
      if (!button) return;
      copyText(button.dataset.copy).then(
        () => flash(button, 'copied'),
        () => flash(button, 'failed'),
      );
    });
    window.addEventListener('hashchange', () => {
      document.body.dataset.state = 'loading';
      refresh();
    });
  }

  async function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      try {
        await navigator.clipboard.writeText(text);
        return;
      } catch {
        // not allowed here: the selection way below
      }
    }
    const area = el('textarea');
    area.value = text;
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    const ok = document.execCommand && document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  }

  function flash(button, what) {
    button.dataset.done = what;
    setTimeout(() => delete button.dataset.done, 1500);
  }

  furnish();
  refresh();
})();
`;
