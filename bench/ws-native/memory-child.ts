// Resident memory of a process that holds only one side's big trees (run by
// world-state-native.bench.ts, so that neither side's memory is counted in the other's):
//   node --import tsx bench/ws-native/memory-child.ts cairn|ref <cache dir> <paths>
// It opens the side's cached trees, reads `paths` sibling paths of random nullifier leaves and
// inserts a block of 1,024 nullifiers on a fork (hashed, never committed), then prints one JSON
// line: rss, peakRss, anon, file (bytes, from /proc/self/status), heapUsed and treeLeaves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { makeBlock, SeededLeaves } from './blocks.js';
import { loadReference, ReferenceWorldState, referenceDir } from './reference.js';

/** The process's memory now, while the side's trees are open. */
function measure(treeLeaves: number): string {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return JSON.stringify({
    rss: kb('VmRSS'),
    peakRss: kb('VmHWM'),
    anon: kb('RssAnon'),
    file: kb('RssFile'),
    heapUsed: process.memoryUsage().heapUsed,
    treeLeaves,
  });
}

const [side, cacheDir, pathsArg] = process.argv.slice(2);
if ((side !== 'cairn' && side !== 'ref') || cacheDir === undefined) {
  console.error('usage: memory-child.ts cairn|ref <cache dir> [paths]');
  process.exit(2);
}
const paths = Number(pathsArg ?? 10_000);
const leaves = new SeededLeaves('memory-probe');
const block = makeBlock(leaves, { nullifierTxs: 16 });
let line: string;

if (side === 'cairn') {
  const ws = await WorldState.open(openEnvironment(join(cacheDir, 'cairn'), 'world-state'), {
    historyBlocks: 0,
    genesisBlockHash: genesisBlockHashOf,
  });
  const view = ws.at(ws.latestBlockNumber);
  const treeLeaves = view.snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex;
  for (let i = 0; i < paths; i++)
    view.getSiblingPath(TreeId.NULLIFIER, Number(leaves.next() % BigInt(treeLeaves)));
  const fork = ws.fork();
  for (const tx of block.nullifiers) fork.insertNullifiers(tx);
  fork.snapshot(TreeId.NULLIFIER); // hashes the fork's changes
  line = measure(treeLeaves);
  await ws.close();
} else {
  const ref = await ReferenceWorldState.open(await loadReference(referenceDir()), join(cacheDir, 'ref'));
  const treeLeaves = (await ref.snapshots())[TreeId.NULLIFIER].nextAvailableLeafIndex;
  const reader = ref.committed();
  for (let i = 0; i < paths; i++)
    await reader.getSiblingPath(TreeId.NULLIFIER, leaves.next() % BigInt(treeLeaves));
  await ref.stateRefOf(block); // the block on a fork, then the fork deleted
  line = measure(treeLeaves);
  await ref.close();
}

console.log(line);
