// What a pending tx costs the node to keep, measured in-process on the real mempool (TxService over
// its LMDB pool, with the real validation) and apart from the garbage a flood leaves behind: N txs
// (2 note hashes, 2 nullifiers, the fee payment, like bench/flood.bench.ts) are sent with
// `sendTx`, then a full GC runs and the retained heap, off-heap buffers and the pool's file are
// read. Prints:
//   BENCH mempool-memory heap_bytes_per_tx=<n> external_bytes_per_tx=<n> store_bytes_per_tx=<n> wire_bytes_per_tx=<n> n=<n>
//   npm run build && node --expose-gc --import tsx bench/mempool-memory.bench.ts
// BENCH_POOL_TXS (20000) sets N.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomFr, toWire } from '../src/client/index.js';
import type { GasFees } from '../src/core/block-header.js';
import type { L1RollupConstants } from '../src/core/time.js';
import { buildTx } from '../src/core/tx-builder.js';
import { toTx, tx as txCodec } from '../src/core/tx-codecs.js';
import { devAccounts } from '../src/execution/dev-accounts.js';
import { fixedFees, openTxService } from '../test/helpers/tx-service-fixture.js';
import { fmt, log } from './chain-node.js';

const N = Number(process.env.BENCH_POOL_TXS ?? 20_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const dir = mkdtempSync(join(tmpdir(), 'cairn-mempool-memory-'));
const accounts = devAccounts(10);
const constants: L1RollupConstants = {
  l1StartBlock: 0n,
  l1GenesisTime: 1_000_000n,
  slotDuration: 4,
  epochDuration: 4,
  ethereumSlotDuration: 1,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 4,
  rollupManaLimit: 200_000_000,
};
const FEES: GasFees = { feePerDaGas: 1n, feePerL2Gas: 100n };
const fees = fixedFees(FEES);

const { worldState, chain, service } = await openTxService(dir, {
  funded: accounts,
  fees,
  constants,
  maxTxCount: N * 2,
  maxBytes: 1 << 30,
});

gc();
const before = process.memoryUsage();
const anchorBlockHeader = chain.getBlock(0)!.header;
// The txs travel as their wire JSON and are decoded per send, as svc_sendTx does, so the objects
// the pool keeps are its own and the figure counts them.
let bodies: string[] = Array.from({ length: N }, (_, i) =>
  buildTx({
    feePayer: accounts[i % accounts.length]!.address,
    anchorBlockHeader,
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 10n, feePerL2Gas: 1000n },
    protocolNullifier: randomFr(),
    nullifiers: [randomFr()],
    noteHashes: [randomFr(), randomFr()],
  }),
).map(({ tx }) => JSON.stringify(toWire(tx)));
const wireBytes = bodies.reduce((n, b) => n + b.length, 0) / N;
const poolFile = join(dir, 'mempool', 'data.mdb');
const fileBytes = () => {
  try {
    return statSync(poolFile).size;
  } catch {
    return 0;
  }
};

const fileBefore = fileBytes();
const started = performance.now();
const CHUNK = 256;
for (let i = 0; i < N; i += CHUNK) {
  await Promise.all(
    bodies.slice(i, i + CHUNK).map((body) => {
      const { tx, claimedHash } = toTx(txCodec.parse(JSON.parse(body)));
      return service.sendTx(tx, claimedHash);
    }),
  );
}
bodies = [];
const sendMs = performance.now() - started;
const pending = service.pool.pendingCount;
if (pending !== N) throw new Error(`${pending} of ${N} txs are pending`);
gc();
gc();
const after = process.memoryUsage();
log(
  `sent ${N} txs in ${fmt(sendMs, 0)} ms; heap ${fmt(before.heapUsed / 2 ** 20, 0)} -> ${fmt(after.heapUsed / 2 ** 20, 0)} MB`,
);
console.log(
  `BENCH mempool-memory heap_bytes_per_tx=${Math.round((after.heapUsed - before.heapUsed) / N)} external_bytes_per_tx=${Math.round((after.external - before.external) / N)} store_bytes_per_tx=${Math.round((fileBytes() - fileBefore) / N)} wire_bytes_per_tx=${Math.round(wireBytes)} n=${N}`,
);
await worldState.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
