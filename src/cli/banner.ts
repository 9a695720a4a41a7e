// The one summary a started node prints: where it listens, its L1, its chain, its data and the
// dev accounts, as one block for a terminal and, for JSON logs, one record with the same facts as
// fields and a one-line message (a block there is a single line of \n escapes).
import { toHex32 } from '../core/field.js';
import { formatDuration, type LogFormat } from '../node/logger.js';
import { formatFeeJuice } from './chain.js';

/** `block`: rows for a terminal (pretty logs); `line`: one sentence, for JSON logs. */
export type BannerStyle = 'block' | 'line';

/** The style of a log format, as createLogger picks pretty lines: `pretty`, or `auto` on a terminal. */
export function bannerStyleFor(format: LogFormat, out: { isTTY?: boolean }): BannerStyle {
  return format === 'pretty' || (format === 'auto' && Boolean(out.isTTY)) ? 'block' : 'line';
}

let style: BannerStyle = 'block';

/** Sets the style of the banner (main.ts, once it knows the log format). */
export function setBannerStyle(s: BannerStyle): void {
  style = s;
}

export interface BannerFacts {
  version: string;
  public: { url: string; bound: string };
  admin: { url: string; bound: string };
  l1: {
    rpcUrl: string;
    chainId: number;
    embedded: boolean;
    rollup: string;
    /** The embedded L1 resumed a saved chain: its time waited while the node was stopped. */
    resumed?: { l1Block: bigint; downSeconds: number } | undefined;
  };
  rollupVersion: number;
  dataDir: { path: string; ephemeral: boolean };
  slotDuration: number;
  epochDuration: number;
  clock: string;
  accounts: readonly { index: number; address: bigint; balance: bigint }[];
  /** The reference's initial test accounts and SponsoredFPC are funded at genesis (testAccounts). */
  testAccounts: boolean;
}

/** `url`, with the bound address when it says more (0.0.0.0 answers on every interface). */
function where(l: { url: string; bound: string }): string {
  return l.url.endsWith(`//${l.bound}`) ? l.url : `${l.url} (bound to ${l.bound})`;
}

/** The banner: `text` in the style set (a block unless setBannerStyle said otherwise), and its facts. */
export function startBanner(
  f: BannerFacts,
  as: BannerStyle = style,
): { text: string; fields: Record<string, unknown> } {
  const rows: [string, string][] = [
    ['public JSON-RPC', `${where(f.public)}  svc_*, node_*; status page at /`],
    ['admin JSON-RPC', `${where(f.admin)}  svcAdmin_*, nodeAdmin_*, svcDev_*; /metrics`],
    [
      'aztec.js',
      `${f.public.url}/aztec  the reference node's API${f.testAccounts ? '; its initial test accounts and the SponsoredFPC are funded' : ''}`,
    ],
    [
      'L1',
      `${f.l1.rpcUrl}  ${f.l1.embedded ? 'embedded anvil' : 'external'}, chain id ${f.l1.chainId}, rollup ${f.l1.rollup}`,
    ],
    ['rollup version', String(f.rollupVersion)],
    ['data', `${f.dataDir.path}${f.dataDir.ephemeral ? '  (ephemeral: removed on exit)' : ''}`],
    ['time', `slots of ${f.slotDuration} s, epochs of ${f.epochDuration} slots, ${f.clock} clock`],
  ];
  const resumed = f.l1.resumed;
  if (resumed !== undefined)
    rows.push([
      'resumed',
      `L1 time resumed after its block ${resumed.l1Block}: the node was stopped for ${formatDuration(resumed.downSeconds)}, and chain time waited`,
    ]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [`cairn ${f.version} is ready`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)];
  const first = f.accounts[0];
  if (first !== undefined) {
    const same = f.accounts.every((a) => a.balance === first.balance);
    lines.push(
      `  dev accounts, prefunded at genesis${same ? ` with ${formatFeeJuice(first.balance)} each` : ''}:`,
      ...f.accounts.map(
        (a) => `    (${a.index}) ${toHex32(a.address)}${same ? '' : `  ${formatFeeJuice(a.balance)}`}`,
      ),
    );
  }
  return {
    text: as === 'block' ? lines.join('\n') : bannerLine(f),
    fields: {
      version: f.version,
      public: f.public.url,
      admin: f.admin.url,
      l1: f.l1.rpcUrl,
      l1ChainId: f.l1.chainId,
      l1Embedded: f.l1.embedded,
      rollupAddress: f.l1.rollup,
      rollupVersion: f.rollupVersion,
      dataDir: f.dataDir.path,
      ephemeral: f.dataDir.ephemeral,
      slotDuration: f.slotDuration,
      epochDuration: f.epochDuration,
      clock: f.clock,
      ...(resumed === undefined
        ? {}
        : { resumedAfterL1Block: Number(resumed.l1Block), downSeconds: resumed.downSeconds }),
      devAccounts: f.accounts.map((a) => toHex32(a.address)),
      aztecUrl: `${f.public.url}/aztec`,
      testAccounts: f.testAccounts,
    },
  };
}

/** The banner as one line: where to reach the node and what it runs on; the rest is in its fields. */
function bannerLine(f: BannerFacts): string {
  const l1 = `${f.l1.rpcUrl} (${f.l1.embedded ? 'embedded anvil' : 'external'}, chain id ${f.l1.chainId})`;
  const parts = [
    `public JSON-RPC ${f.public.url}`,
    `admin JSON-RPC ${f.admin.url}`,
    `L1 ${l1}`,
    `data ${f.dataDir.path}${f.dataDir.ephemeral ? ' (ephemeral)' : ''}`,
    `${f.clock} clock`,
  ];
  const resumed = f.l1.resumed;
  if (resumed !== undefined)
    parts.push(
      `L1 time resumed after its block ${resumed.l1Block} (stopped for ${formatDuration(resumed.downSeconds)})`,
    );
  const first = f.accounts[0];
  if (first !== undefined) {
    const same = f.accounts.every((a) => a.balance === first.balance);
    parts.push(
      `${f.accounts.length} dev accounts${same ? ` with ${formatFeeJuice(first.balance)} each` : ''} (addresses in facts.devAccounts)`,
    );
  }
  return `cairn ${f.version} is ready: ${parts.join(', ')}`;
}
