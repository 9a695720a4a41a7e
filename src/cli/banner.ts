// The one summary a started node prints: where it listens, its L1, its chain, its data and the
// dev accounts, as one block for a terminal and one record (with the same facts as fields) for
// JSON logs.
import { toHex32 } from '../core/field.js';
import { formatDuration } from '../node/logger.js';
import { formatFeeJuice } from './chain.js';

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
}

/** `url`, with the bound address when it says more (0.0.0.0 answers on every interface). */
function where(l: { url: string; bound: string }): string {
  return l.url.endsWith(`//${l.bound}`) ? l.url : `${l.url} (bound to ${l.bound})`;
}

export function startBanner(f: BannerFacts): { text: string; fields: Record<string, unknown> } {
  const rows: [string, string][] = [
    ['public JSON-RPC', `${where(f.public)}  svc_*, node_*; status page at /`],
    ['admin JSON-RPC', `${where(f.admin)}  svcAdmin_*, nodeAdmin_*, svcDev_*; /metrics`],
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
    text: lines.join('\n'),
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
    },
  };
}
