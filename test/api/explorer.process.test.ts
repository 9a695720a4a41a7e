// The explorer at GET / (src/api/explorer-script.ts; docs/explorer.md) against a real in-process
// node with real data: the reference's Token deployed from its npm artifact, public mints and a
// transfer, a mint by a non-minter that reverts, the reference's Child emitting a public log, a tx
// with private logs, note hashes, nullifiers and an L2-to-L1 message, and a tx left pending. Each
// kind of page — overview, block, tx (mined, reverted, with logs, pending), contract (with its
// storage read by slot and map key), class, address, pending, validators, search, not found — is
// opened and what it shows is checked against the public API's answers:
// - in a DOM (happy-dom), everywhere;
// - in headless Chromium (playwright-core driving /usr/bin/chromium, or CHROMIUM_PATH) at 400 and
//   1280 px, where also no element may be wider than the viewport, a copy button must copy the
//   full hash, and a screenshot of each page is saved (EXPLORER_SCREENSHOTS, else
//   .cache/explorer-screenshots/). Skipped with a message when there is no Chromium.
// Needs the npm artifacts (CAIRN_SKIP_ARTIFACTS=1 skips it).
import assert from 'node:assert/strict';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Browser, Window } from 'happy-dom';
import { STATUS_PAGE_HTML, STATUS_PAGE_REFRESH_MS } from '../../src/api/status-page.js';
import { ensureArtifacts, loadArtifactJson, REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { type RunningNode, serve } from '../../src/cli/serve.js';
import {
  type AbiValue,
  type ContractArtifact,
  deployContract,
  devAccounts,
  findFunction,
  mapStorageSlot,
  NodeClient,
  parseArtifact,
  prepareTx,
  publicCall,
  randomFr,
  sendTx,
  storageSlot,
} from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { closedPort } from '../helpers/closed-port.js';
import { call, result, silentLogger, testConfig } from '../helpers/rpc.js';

const NOIR = '@aztec/noir-contracts.js@4.1.2';
const TEST = '@aztec/noir-test-contracts.js@4.1.2';
const load = (pkg: string, file: string) => parseArtifact(loadArtifactJson(pkg, file));
const [alice, bob] = devAccounts(2).map((a) => a.address) as [bigint, bigint];
const SKIP = process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false;

// ---- what a page shows, read from its DOM the same way in happy-dom and in Chromium -----------------

interface Value {
  text: string;
  full: string[];
  links: string[];
}
interface Row {
  attrs: Record<string, string>;
  cells: string[];
}
interface Card {
  heading: string;
  values: Record<string, Value>;
  tables: Record<string, Row[]>;
  full: string[];
  links: string[];
}
interface Shown {
  state: string;
  route: string;
  found: string;
  title: string;
  missing: string;
  error: string;
  stage: string;
  cards: Record<string, Card>;
}

/** Plain browser JavaScript: a function of the document that describes the view drawn. */
const DESCRIBE_VIEW = `(doc) => {
  const text = (e) => (e ? e.textContent.replace(/\\s+/g, ' ').trim() : '');
  const attrs = (e) => {
    const out = {};
    for (const a of Array.from(e.attributes)) if (a.name.startsWith('data-')) out[a.name.slice(5)] = a.value;
    return out;
  };
  const fulls = (e) => Array.from(e.querySelectorAll('[data-full]')).map((x) => x.getAttribute('data-full'));
  const links = (e) => Array.from(e.querySelectorAll('a')).map((a) => a.getAttribute('href'));
  const view = doc.getElementById('view');
  const cards = {};
  for (const s of Array.from(view.querySelectorAll('section[data-card]'))) {
    const values = {};
    for (const dd of Array.from(s.querySelectorAll('dd[data-key]'))) {
      values[dd.getAttribute('data-key')] = { text: text(dd), full: fulls(dd), links: links(dd) };
    }
    const tables = {};
    for (const t of Array.from(s.querySelectorAll('table[data-table]'))) {
      tables[t.getAttribute('data-table')] = Array.from(t.querySelectorAll('tbody tr'))
        .filter((tr) => !tr.classList.contains('empty'))
        .map((tr) => ({ attrs: attrs(tr), cells: Array.from(tr.children).map(text) }));
    }
    cards[s.getAttribute('data-card')] = { heading: text(s.querySelector('h2')), values, tables, full: fulls(s), links: links(s) };
  }
  const stage = view.querySelector('ol.stages');
  return {
    state: doc.body.getAttribute('data-state') || '',
    route: doc.body.getAttribute('data-route') || '',
    found: view.getAttribute('data-found') || '',
    title: text(view.querySelector('h2.title')),
    missing: text(view.querySelector('.missing')),
    error: text(doc.getElementById('error')),
    stage: stage ? stage.getAttribute('data-stage') : '',
    cards,
  };
}`;

/** In Chromium: elements that stick out of the viewport, and the page's scroll width. */
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const e of Array.from(document.querySelectorAll('body *'))) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5) {
      wide.push(e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' [' + Math.round(r.left) + ', ' + Math.round(r.right) + '] ' + (e.textContent || '').slice(0, 40));
    }
  }
  return { width, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 10) };
})()`;

// ---- the chain the pages show -------------------------------------------------------------------

interface Fixture {
  url: string;
  tokenAt: string;
  tokenClass: string;
  tokenBlock: number;
  childAt: string;
  mint: string;
  transfer: string;
  reverted: string;
  logsTx: string;
  childTx: string;
  pending: string;
  l2ToL1Content: bigint;
  /** The block holding the transfer and the reverted mint, and its hash. */
  busyBlock: number;
  busyBlockHash: string;
  balancesSlot: bigint;
}

/** One page to open and what to check on it against the API's answers. */
interface PageCheck {
  name: string;
  hash: string;
  route: string;
  check: (shown: Shown) => Promise<void>;
}

/** The stage of a block by the tips, as the receipts name it (src/mempool/receipts.ts). */
const stageOf = (n: number, tips: any) =>
  n <= tips.finalized.block.number
    ? 'finalized'
    : n <= tips.proven.block.number
      ? 'proven'
      : n <= tips.checkpointed.block.number
        ? 'checkpointed'
        : 'proposed';

const TOKEN = () => load(NOIR, 'artifacts/token_contract-Token.json');
const selectorHex = (fn: string) => `0x${findFunction(TOKEN(), fn).selector.toString(16).padStart(8, '0')}`;
/** A tx page's public calls: phase, contract, selector and the signature the page named it by. */
const callsShown = (s: Shown) =>
  s.cards.calls!.tables.calls!.map((c) => [
    c.attrs.phase,
    c.attrs.contract,
    c.attrs.selector,
    c.attrs.signature,
  ]);

const fee = (v: string | bigint) => `${BigInt(v)} base units`;

function pages(f: Fixture, pub: (m: string, p?: unknown) => Promise<any>): PageCheck[] {
  const receipt = (hash: string) => pub('svc_getTxReceipt', [hash, { includeTxEffect: true }]);
  const found = (s: Shown) => assert.equal(s.found, 'true', s.missing || s.error);
  return [
    {
      name: 'block',
      hash: `#/block/${f.busyBlock}`,
      route: 'block',
      check: async (s) => {
        found(s);
        const b = await pub('svc_getBlock', [
          f.busyBlock,
          { includeTransactions: true, includeL1PublishInfo: true },
        ]);
        const tips = await pub('svc_getChainTips');
        assert.equal(s.title, `Block ${f.busyBlock}`);
        const header = s.cards.header!.values;
        assert.deepEqual(header.hash!.full, [b.hash]);
        assert.equal(header.slot!.text, String(b.header.globalVariables.slotNumber));
        assert.equal(header.stage!.text, stageOf(f.busyBlock, tips));
        assert.match(header.totalFees!.text, new RegExp(fee(b.header.totalFees)));
        const rows = s.cards.txs!.tables.txs!;
        assert.deepEqual(
          rows.map((r) => [r.attrs.tx, r.attrs.result, r.attrs.fee]),
          b.body.txEffects.map((e: any) => [
            e.txHash,
            e.revertCode === 0 ? 'success' : 'reverted',
            BigInt(e.transactionFee).toString(),
          ]),
        );
        assert.ok(rows.some((r) => r.attrs.tx === f.reverted && r.attrs.result === 'reverted'));
        assert.ok(s.cards.txs!.links.includes(`#/tx/${f.transfer}`), 'each tx links to its page');
        const cp = s.cards.checkpoint!.values;
        assert.equal(cp.checkpointNumber!.text, String(b.checkpointNumber));
        const l1 = b.l1.published ? `L1 block ${b.l1.blockNumber}` : 'not';
        assert.match(cp.l1!.text, new RegExp(l1));
      },
    },
    {
      name: 'tx-transfer',
      hash: `#/tx/${f.transfer}`,
      route: 'tx',
      check: async (s) => {
        found(s);
        const r = await receipt(f.transfer);
        assert.equal(s.stage, r.status);
        const v = s.cards.summary!.values;
        assert.equal(v.result!.text, 'success');
        assert.match(v.fee!.text, new RegExp(fee(r.transactionFee)));
        assert.deepEqual(v.block!.links, [`#/block/${r.blockNumber}`]);
        // The gas charged is the fee over its block's L2 gas price (DA gas is free on this chain).
        const { gasFees } = (await pub('svc_getBlock', [r.blockNumber])).header.globalVariables;
        assert.equal(BigInt(gasFees.feePerDaGas), 0n);
        const charged = BigInt(r.transactionFee) / BigInt(gasFees.feePerL2Gas);
        assert.equal(charged * BigInt(gasFees.feePerL2Gas), BigInt(r.transactionFee));
        assert.match(v.gasCharged!.text, new RegExp(`^${charged} L2 gas`));
        assert.deepEqual(
          s.cards.writes!.tables.writes!.map((w) => [w.attrs['leaf-slot'], w.attrs.value]),
          r.txEffect.publicDataWrites.map((w: any) => [w.leafSlot, w.value]),
        );
        assert.deepEqual(s.cards.nullifiers!.full, r.txEffect.nullifiers);
        const transfer = findFunction(TOKEN(), 'transfer_in_public');
        assert.deepEqual(callsShown(s), [
          ['app logic', f.tokenAt, selectorHex('transfer_in_public'), transfer.signature],
        ]);
        assert.equal(s.cards.nullifiers!.heading, `Nullifiers (${r.txEffect.nullifiers.length})`);
      },
    },
    {
      name: 'tx-reverted',
      hash: `#/tx/${f.reverted}`,
      route: 'tx',
      check: async (s) => {
        found(s);
        const r = await receipt(f.reverted);
        assert.equal(r.executionResult, 'reverted');
        const v = s.cards.summary!.values;
        assert.equal(v.result!.text, 'reverted');
        assert.equal(v.revertReason!.text, r.error);
        assert.match(v.revertReason!.text, /caller is not minter|revert data/);
        const mint = findFunction(TOKEN(), 'mint_to_public');
        assert.deepEqual(callsShown(s), [
          ['app logic', f.tokenAt, selectorHex('mint_to_public'), mint.signature],
        ]);
      },
    },
    {
      name: 'tx-logs',
      hash: `#/tx/${f.logsTx}`,
      route: 'tx',
      check: async (s) => {
        found(s);
        const r = await receipt(f.logsTx);
        const e = r.txEffect;
        assert.deepEqual(s.cards.noteHashes!.full, e.noteHashes);
        assert.deepEqual(s.cards.l2ToL1Msgs!.full, e.l2ToL1Msgs);
        assert.equal(e.l2ToL1Msgs.length, 1);
        const logs = s.cards.privateLogs!.tables.privateLogs!;
        assert.deepEqual(
          logs.map((l) => [l.attrs.tag, Number(l.attrs.fields)]),
          e.privateLogs.map((l: any) => [l.fields[0], l.emittedLength]),
        );
        assert.equal(logs.length, 2);
        assert.deepEqual(callsShown(s), [], 'a private-only tx makes no public call');
      },
    },
    {
      name: 'tx-public-log',
      hash: `#/tx/${f.childTx}`,
      route: 'tx',
      check: async (s) => {
        found(s);
        const r = await receipt(f.childTx);
        const logs = s.cards.publicLogs!.tables.publicLogs!;
        assert.deepEqual(
          logs.map((l) => l.attrs.contract),
          r.txEffect.publicLogs.map((l: any) => l.contractAddress),
        );
        assert.ok(logs.length >= 1);
        assert.ok(
          s.cards.publicLogs!.links.includes(`#/contract/${f.childAt}`),
          'the emitting contract links',
        );
        assert.ok(s.cards.publicLogs!.full.includes(toHex32(42n)), 'the logged value is shown');
      },
    },
    {
      name: 'tx-pending',
      hash: `#/tx/${f.pending}`,
      route: 'tx',
      check: async (s) => {
        found(s);
        assert.equal(s.stage, 'pending');
        const r = await pub('svc_getTxReceipt', [f.pending, { includePendingTx: true }]);
        assert.equal(r.status, 'pending');
        const gs = r.tx.data.constants.txContext.gasSettings;
        const v = s.cards.summary!.values;
        assert.equal(v.gasLimits!.text, `${gs.gasLimits.l2Gas} L2, ${gs.gasLimits.daGas} DA`);
        assert.deepEqual(v.feePayer!.full, [r.tx.data.feePayer]);
        const calls = s.cards.calls!.tables.calls!;
        const mint = findFunction(load(NOIR, 'artifacts/token_contract-Token.json'), 'mint_to_public');
        const selector = `0x${mint.selector.toString(16).padStart(8, '0')}`;
        // Named: the test registered the Token's signatures, as a developer would.
        assert.deepEqual(
          calls.map((c) => [c.attrs.phase, c.attrs.contract, c.attrs.selector, c.attrs.signature]),
          [['app logic', f.tokenAt, selector, mint.signature]],
        );
        assert.equal(calls[0]!.cells[3], `${mint.signature} ${selector}`);
      },
    },
    {
      name: 'contract',
      hash: `#/contract/${f.tokenAt}`,
      route: 'contract',
      check: async (s) => {
        found(s);
        const c = await pub('svc_getContract', [f.tokenAt]);
        const v = s.cards.instance!.values;
        assert.deepEqual(v.classId!.full, [c.currentContractClassId]);
        assert.deepEqual(v.classId!.links, [`#/class/${c.currentContractClassId}`]);
        assert.equal(v.deployer!.text, BigInt(c.deployer) === 0n ? 'anyone (0)' : v.deployer!.text);
        assert.equal(v.publishedIn!.text, `block ${f.tokenBlock}`);
        const deployBlock = await pub('svc_getBlock', [f.tokenBlock, { includeTransactions: true }]);
        assert.deepEqual(v.publishedBy!.full, [deployBlock.body.txEffects[0].txHash]);
        const cls = await pub('svc_getContractClass', [c.currentContractClassId]);
        assert.equal(
          s.cards.class!.values.bytecode!.text,
          `${(cls.packedBytecode.length - 2) / 2} bytes packed`,
        );
        const logs = await pub('node_getPublicLogs', [{ contractAddress: f.tokenAt }]);
        assert.equal(s.cards.logs!.heading, `Public logs (${logs.logs.length})`);
      },
    },
    {
      name: 'contract-child-logs',
      hash: `#/contract/${f.childAt}`,
      route: 'contract',
      check: async (s) => {
        found(s);
        const logs = await pub('node_getPublicLogs', [{ contractAddress: f.childAt }]);
        assert.ok(logs.logs.length >= 1);
        assert.deepEqual(
          s.cards.logs!.tables.logs!.map((l) => l.attrs.tx),
          logs.logs.map((l: any) => l.id.txHash).reverse(),
        );
      },
    },
    {
      name: 'class',
      hash: `#/class/${f.tokenClass}`,
      route: 'class',
      check: async (s) => {
        found(s);
        const cls = await pub('svc_getContractClass', [f.tokenClass]);
        const v = s.cards.class!.values;
        assert.deepEqual(v.artifactHash!.full, [cls.artifactHash]);
        assert.equal(v.publishedIn!.text, `block ${f.tokenBlock}`);
      },
    },
    {
      name: 'address',
      hash: `#/address/${toHex32(alice)}`,
      route: 'address',
      check: async (s) => {
        found(s);
        const slot = mapStorageSlot(FEE_JUICE_BALANCES_SLOT, alice);
        const balance = await pub('svc_getPublicStorageAt', [
          'latest',
          toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
          toHex32(slot),
        ]);
        assert.match(
          s.cards.account!.values.balance!.text,
          new RegExp(`\\(${BigInt(balance)} base units\\)$`),
        );
        const paid = s.cards.txs!.tables.txs!.map((t) => t.attrs.tx);
        for (const hash of [f.mint, f.transfer, f.logsTx, f.childTx])
          assert.ok(paid.includes(hash), `${hash} paid by alice`);
        assert.ok(!paid.includes(f.reverted), 'the reverted mint was paid by bob');
      },
    },
    {
      // Earlier blocks, as the page's paging links open them: the node keeps no index by payer.
      name: 'address-up-to',
      hash: `#/address/${toHex32(alice)}/${f.busyBlock - 1}`,
      route: 'address',
      check: async (s) => {
        found(s);
        const up = f.busyBlock - 1;
        const card = s.cards.txs!;
        assert.match(card.heading, new RegExp(`blocks ${Math.max(1, up - 49)} to ${up}\\)`));
        const rows = card.tables.txs!;
        assert.ok(rows.length > 0, 'alice paid for txs before the busy block');
        for (const r of rows) assert.ok(Number(r.attrs.block) <= up, `row of block ${r.attrs.block}`);
        assert.ok(!rows.some((r) => r.attrs.tx === f.transfer), 'the transfer is in a later block');
        // A link back to the latest blocks; none to older ones while block 1 is shown.
        assert.ok(card.links.includes(`#/address/${toHex32(alice)}`), JSON.stringify(card.links));
        assert.equal(
          card.links.filter((l) => /\/address\/0x[0-9a-f]+\/\d+$/.test(l)).length,
          up > 50 ? 1 : 0,
        );
      },
    },
    {
      name: 'pending',
      hash: '#/pending',
      route: 'pending',
      check: async (s) => {
        found(s);
        const txs = await pub('svc_getPendingTxs', []);
        const rows = s.cards.pending!.tables.pending!;
        assert.deepEqual(
          rows.map((r) => r.attrs.tx),
          txs.map((t: any) => t.txHash),
        );
        assert.match(rows[0]!.cells[4]!, /mint_to_public\(\(Field\),u128\)$/);
        assert.equal(txs.length, 1);
      },
    },
    {
      name: 'validators',
      hash: '#/validators',
      route: 'validators',
      check: async (s) => {
        found(s);
        const v = await pub('svc_getValidatorsStats');
        assert.deepEqual(
          s.cards.validators!.tables.validators!.map((r) => r.attrs.address).sort(),
          Object.values(v.stats)
            .map((x: any) => x.address)
            .sort(),
        );
      },
    },
    {
      name: 'search-tx',
      hash: `#/search/${f.transfer}`,
      route: 'tx',
      check: async (s) => {
        found(s);
        assert.equal(s.cards.summary!.values.hash!.full[0], f.transfer);
      },
    },
    {
      name: 'search-number',
      hash: `#/search/${f.tokenBlock}`,
      route: 'block',
      check: async (s) => assert.equal(s.title, `Block ${f.tokenBlock}`),
    },
    {
      name: 'search-contract',
      hash: `#/search/${f.tokenAt}`,
      route: 'contract',
      check: async (s) => assert.deepEqual(s.cards.instance!.values.address!.full, [f.tokenAt]),
    },
    {
      name: 'search-block-hash',
      hash: `#/search/${f.busyBlockHash}`,
      route: 'block',
      check: async (s) => assert.equal(s.title, `Block ${f.busyBlock}`),
    },
    {
      name: 'search-class',
      hash: `#/search/${f.tokenClass}`,
      route: 'class',
      check: async (s) => assert.deepEqual(s.cards.class!.values.id!.full, [f.tokenClass]),
    },
    {
      name: 'search-account',
      hash: `#/search/${toHex32(bob)}`,
      route: 'address',
      check: async (s) => assert.deepEqual(s.cards.account!.values.address!.full, [toHex32(bob)]),
    },
    {
      name: 'contract-not-found',
      hash: `#/contract/${toHex32(bob)}`,
      route: 'contract',
      check: async (s) => {
        assert.equal(s.found, 'false');
        assert.equal(s.missing, `No contract instance is published at ${toHex32(bob)} on this chain.`);
      },
    },
    {
      name: 'search-nothing',
      hash: `#/search/${toHex32(12345n)}`,
      route: 'search',
      check: async (s) => {
        found(s);
        assert.match(s.cards.search!.heading, /Nothing found/);
        assert.ok(s.cards.search!.links.includes(`#/address/${toHex32(12345n)}`));
      },
    },
    {
      name: 'block-not-found',
      hash: '#/block/9999',
      route: 'block',
      check: async (s) => {
        assert.equal(s.found, 'false');
        const tips = await pub('svc_getChainTips');
        assert.equal(s.missing, `This node has no block 9999. Its latest block is ${tips.proposed.number}.`);
      },
    },
    {
      name: 'unknown-route',
      hash: '#/nope/1',
      route: 'unknown',
      check: async (s) => {
        assert.equal(s.found, 'false');
        assert.equal(s.missing, 'This page has no view "#/nope/1".');
      },
    },
    {
      name: 'contract-refused',
      hash: `#/contract/0x${'f'.repeat(64)}`,
      route: 'contract',
      check: async (s) => {
        // Not a field element: the node refuses the param, and the page says so as a page.
        assert.equal(s.found, 'false');
        assert.match(s.missing, /^The node refused "0xf{64}": .*\(-32602\)$/);
        assert.equal(s.error, '');
      },
    },
    {
      name: 'tx-not-found',
      hash: `#/tx/${toHex32(7n)}`,
      route: 'tx',
      check: async (s) => {
        assert.equal(s.found, 'false');
        assert.match(s.missing, /^This node knows no tx 0x0{63}7: it is neither in a block nor pending/);
      },
    },
  ];
}

/** CHROMIUM_PATH, else /usr/bin/chromium, if executable. */
function chromiumPath(): string | undefined {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('explorer: a node with a Token, a reverted tx, logs and a pending tx', { skip: SKIP }, () => {
  let running: RunningNode;
  let client: NodeClient;
  let slot = 0;
  const f = {} as Fixture;
  const pub = (m: string, p?: unknown) => result(running.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown) => result(running.adminUrl, m, p);
  const mine = () => dev('svcDev_advanceToSlot', [++slot]);
  const send = async (
    from: bigint,
    address: bigint,
    artifact: ContractArtifact,
    fn: string,
    args: AbiValue[],
    gas = false,
  ) =>
    (
      await sendTx(
        client,
        { publicCalls: [publicCall(address, findFunction(artifact, fn), args)] },
        gas ? { from, gasLimits: { l2Gas: 2_000_000, daGas: 100_000 } } : { from },
        artifact,
      )
    ).hash;

  before(async () => {
    const started = Date.now();
    await ensureArtifacts();
    const token = load(NOIR, 'artifacts/token_contract-Token.json');
    const child = load(TEST, 'artifacts/child_contract-Child.json');
    running = await serve(testConfig({ clock: 'manual' }), silentLogger());
    client = new NodeClient(running.publicUrl);
    f.url = running.publicUrl;
    // As a developer would: the node names the Token's functions from then on.
    await pub('node_registerContractFunctionSignatures', [
      token.functions.map((fn) => fn.signature).slice(0, 100),
    ]);

    const d = await deployContract(client, {
      artifact: token,
      args: [toHex32(alice), 'Cairn Token', 'CTK', 18],
      salt: 1n,
      from: alice,
    });
    const c = await deployContract(client, { artifact: child, from: alice });
    await mine();
    f.tokenAt = toHex32(d.address);
    f.tokenClass = toHex32(d.classId);
    f.childAt = toHex32(c.address);
    f.tokenBlock = (await pub('svc_getTxReceipt', [d.hash])).blockNumber;
    assert.equal((await pub('svc_getTxReceipt', [c.hash])).executionResult, 'success');

    f.mint = await send(alice, d.address, token, 'mint_to_public', [toHex32(alice), 1000]);
    await mine();
    f.transfer = await send(alice, d.address, token, 'transfer_in_public', [
      toHex32(alice),
      toHex32(bob),
      300,
      0,
    ]);
    f.reverted = await send(bob, d.address, token, 'mint_to_public', [toHex32(bob), 1], true);
    await mine();
    const transferred = await pub('svc_getTxReceipt', [f.transfer]);
    f.busyBlock = transferred.blockNumber;
    f.busyBlockHash = transferred.blockHash;
    assert.equal((await pub('svc_getTxReceipt', [f.reverted])).blockNumber, f.busyBlock);

    f.childTx = await send(alice, c.address, child, 'pub_set_value', [42]);
    f.l2ToL1Content = randomFr();
    const logsTx = await prepareTx(client, {
      feePayer: alice,
      noteHashes: [randomFr(), randomFr()],
      nullifiers: [randomFr()],
      privateLogs: [
        [randomFr(), 1n, 2n, 3n],
        [randomFr(), 4n],
      ],
      l2ToL1Msgs: [{ recipient: `0x${'ab'.repeat(20)}`, content: f.l2ToL1Content, sender: d.address }],
    });
    await pub('svc_sendTx', [logsTx.wire]);
    f.logsTx = logsTx.hash;
    await mine();
    for (const hash of [f.mint, f.transfer, f.childTx, f.logsTx]) {
      const r = await pub('svc_getTxReceipt', [hash]);
      assert.equal(r.executionResult, 'success', `${hash}: ${r.error}`);
    }
    assert.equal((await pub('svc_getTxReceipt', [f.reverted])).executionResult, 'reverted');
    // Left pending: no block is built after it.
    f.pending = await send(alice, d.address, token, 'mint_to_public', [toHex32(bob), 5]);
    f.balancesSlot = storageSlot(token, 'public_balances');
    console.log(`# chain built in ${Date.now() - started} ms`);
  });

  after(async () => {
    await running?.close();
  });

  test('happy-dom: every kind of page shows what the API answers', async () => {
    const browser = new Browser({
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    try {
      const describeView = new Function(`return ${DESCRIBE_VIEW}`)() as (doc: unknown) => Shown;
      for (const p of pages(f, pub)) {
        const page = browser.newPage();
        await page.goto(`${f.url}${p.hash}`);
        const doc = page.mainFrame.document;
        const shown = await waitFor(`${p.name} drawn`, () => {
          const s = describeView(page.mainFrame.document);
          return s.state === 'ok' && s.route === p.route && s.found !== '' ? s : undefined;
        });
        await p.check(shown).catch((err: Error) => {
          err.message = `${p.name}: ${err.message}\n${JSON.stringify(shown).slice(0, 3000)}`;
          throw err;
        });
        assert.equal(doc.body.getAttribute('data-state'), 'ok');
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });

  test('happy-dom: the contract page reads a map entry of public storage by slot and key', async () => {
    const browser = new Browser({
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    try {
      const page = browser.newPage();
      await page.goto(`${f.url}#/contract/${f.tokenAt}`);
      const doc = page.mainFrame.document;
      await waitFor('the contract page', () => (doc.querySelector('form.storage') ? true : undefined));
      (doc.querySelector('form.storage input[name=slot]') as unknown as { value: string }).value = String(
        f.balancesSlot,
      );
      (doc.querySelector('form.storage input[name=key]') as unknown as { value: string }).value =
        toHex32(bob);
      (doc.querySelector('form.storage button') as unknown as { click(): void }).click();
      const row = await waitFor(
        'the slot read',
        () => doc.querySelector('table[data-table=storage] tbody tr[data-slot]') ?? undefined,
      );
      const expected = toHex32(mapStorageSlot(f.balancesSlot, bob));
      assert.equal(row.getAttribute('data-slot'), expected);
      const value = await pub('svc_getPublicStorageAt', ['latest', f.tokenAt, expected]);
      assert.equal(row.getAttribute('data-value'), value);
      assert.equal(BigInt(value), 300n);
      await page.close();
    } finally {
      await browser.close();
    }
  });

  test('Chromium at 400 and 1280 px: every page fits, shows what the API answers, copies hashes', async (t) => {
    const executablePath = chromiumPath();
    if (executablePath === undefined) {
      t.skip(
        `no Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'} (set CHROMIUM_PATH): the happy-dom tests above cover the pages' content`,
      );
      return;
    }
    const { chromium } = await import('playwright-core');
    const shots = process.env.EXPLORER_SCREENSHOTS ?? join(REPO_ROOT, '.cache', 'explorer-screenshots');
    mkdirSync(shots, { recursive: true });
    const profile = mkdtempSync(join(tmpdir(), 'cairn-explorer-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(f.url).origin,
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      const all: PageCheck[] = [
        {
          name: 'overview',
          hash: '#/',
          route: 'overview',
          check: async () => {
            const tips = await pub('svc_getChainTips');
            const top = await page.evaluate(
              "document.querySelector('#blocks tr').getAttribute('data-number')",
            );
            assert.equal(top, String(tips.proposed.number));
          },
        },
        ...pages(f, pub),
      ];
      for (const width of [400, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        for (const p of all) {
          await page.goto(`${f.url}${p.hash}`);
          const shown = await waitFor(`${p.name} at ${width} px`, async () => {
            const s = (await page.evaluate(`(${DESCRIBE_VIEW})(document)`)) as Shown;
            return s.state === 'ok' && s.route === p.route && (p.route === 'overview' || s.found !== '')
              ? s
              : undefined;
          });
          await p.check(shown).catch((err: Error) => {
            err.message = `${p.name} at ${width} px: ${err.message}`;
            throw err;
          });
          const fit = (await page.evaluate(OVERFLOW)) as {
            width: number;
            scrollWidth: number;
            wide: string[];
          };
          assert.deepEqual(fit.wide, [], `${p.name} at ${width} px: elements wider than the viewport`);
          assert.ok(
            fit.scrollWidth <= fit.width,
            `${p.name} at ${width} px: scroll width ${fit.scrollWidth} > ${fit.width}`,
          );
          await page.screenshot({ path: join(shots, `${p.name}-${width}.png`), fullPage: true });
        }
        // The overview's timestamps stay on one or two lines.
        await page.goto(`${f.url}#/`);
        await waitFor('the overview', async () =>
          (await page.evaluate('document.body.dataset.route')) === 'overview' ? true : undefined,
        );
        // In lines of the cell's line height (the narrow layout's label beside the value).
        const heights = (await page.evaluate(`[...document.querySelectorAll('#blocks td:nth-child(3)')].map(
          (td) => td.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(td).lineHeight))`)) as number[];
        assert.ok(heights.length > 0);
        assert.ok(
          heights.every((lines) => lines <= 2.6),
          `timestamp lines at ${width} px: ${heights.join(', ')}`,
        );
      }
      // A copy button puts the full hash on the clipboard.
      await page.goto(`${f.url}#/tx/${f.transfer}`);
      await page.locator('dd[data-key=hash] button.copy').click();
      await waitFor('copied', async () =>
        (await page.locator('dd[data-key=hash] button.copy').getAttribute('data-done')) ? true : undefined,
      );
      assert.equal(await page.locator('dd[data-key=hash] button.copy').getAttribute('data-done'), 'copied');
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), f.transfer);
      assert.deepEqual(errors, []);
      t.diagnostic(`screenshots: ${shots}`);
      console.log(`# explorer screenshots: ${shots}`);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
  test('svc_getTxPublicCalls: the calls a held tx enqueued with their calldata; null for a tx the pool does not hold', async () => {
    const mined = await pub('svc_getTxPublicCalls', [f.transfer]);
    assert.deepEqual(mined, {
      txHash: f.transfer,
      status: 'mined',
      calls: [
        {
          phase: 'app',
          contractAddress: f.tokenAt,
          msgSender: toHex32(alice),
          isStaticCall: false,
          calldata: [
            selectorHex('transfer_in_public'),
            toHex32(alice),
            toHex32(bob),
            toHex32(300n),
            toHex32(0n),
          ].map((v) => toHex32(BigInt(v))),
        },
      ],
    });
    const pending = await pub('svc_getTxPublicCalls', [f.pending]);
    assert.equal(pending.status, 'pending');
    assert.deepEqual(
      pending.calls.map((c: any) => [c.phase, c.contractAddress, c.calldata.length]),
      [['app', f.tokenAt, 3]],
    );
    assert.deepEqual((await pub('svc_getTxPublicCalls', [f.logsTx])).calls, [], 'private only');
    assert.equal(await pub('svc_getTxPublicCalls', [toHex32(7n)]), null);
    const bad = await call(f.url, 'svc_getTxPublicCalls', ['not a hash']);
    assert.equal(bad.error?.code, -32602);
  });

  // Last: it builds a block, which moves the pending tx the tests above expect pending.
  test('happy-dom: a view is not redrawn while its answers stay the same, and follows the chain when they change', async () => {
    const browser = new Browser({
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    try {
      const page = browser.newPage();
      await page.goto(`${f.url}#/tx/${f.pending}`);
      const doc = page.mainFrame.document;
      const stage = () => doc.querySelector('#view ol.stages')?.getAttribute('data-stage') ?? undefined;
      assert.equal(await waitFor('the pending tx', stage), 'pending');
      const drawn = doc.querySelector('#view h2.title');
      const updated = doc.getElementById('updated')?.textContent;
      await waitFor(
        'a refresh',
        () => (doc.getElementById('updated')?.textContent !== updated ? true : undefined),
        STATUS_PAGE_REFRESH_MS * 3,
      );
      assert.equal(doc.querySelector('#view h2.title'), drawn, 'the same answers leave the view as drawn');
      await mine();
      const r = await pub('svc_getTxReceipt', [f.pending]);
      assert.notEqual(r.status, 'pending');
      const moved = await waitFor(
        'the tx mined',
        () => (stage() !== 'pending' ? stage() : undefined),
        STATUS_PAGE_REFRESH_MS * 3,
      );
      assert.equal(moved, r.status);
      assert.equal(
        doc.querySelector('#view dd[data-key=block] a')?.getAttribute('href'),
        `#/block/${r.blockNumber}`,
      );
      await page.close();
    } finally {
      await browser.close();
    }
  });
});

describe('explorer: a node that cannot be reached', () => {
  test('a page of the explorer says so instead of throwing', async () => {
    const port = await closedPort();
    const window = new Window({
      url: `http://127.0.0.1:${port}/#/block/1`,
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    const errors: unknown[] = [];
    window.addEventListener('error', (e) => errors.push(e));
    try {
      window.document.write(STATUS_PAGE_HTML);
      const doc = window.document;
      await waitFor('the error', () => (doc.body.getAttribute('data-state') === 'error' ? true : undefined));
      assert.match(
        doc.getElementById('error')?.textContent ?? '',
        new RegExp(`^Cannot reach the node at 127\\.0\\.0\\.1:${port}: .*Retrying every 5 s\\.$`),
      );
      assert.deepEqual(errors, []);
    } finally {
      await window.happyDOM.close();
    }
  });
});
