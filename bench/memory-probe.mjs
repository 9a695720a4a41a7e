// Loaded into a node under test (`node --expose-gc --import <this file> dist/cli/main.js …`) by
// bench/pending-memory.bench.ts. On SIGUSR2 it writes the process's memory figures, as it finds
// them and again after a full GC, to the JSON file named by CAIRN_MEMORY_PROBE (written whole:
// to a temporary name, then renamed). Plain JavaScript so that the node runs without a TypeScript
// loader, as a user runs it. Nothing of the node reads it.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.CAIRN_MEMORY_PROBE;

/** kB fields of /proc/self/status and /proc/self/smaps_rollup, in bytes. */
function procFigures() {
  const out = {};
  for (const path of ['/proc/self/status', '/proc/self/smaps_rollup']) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/^(\w+):\s+(\d+) kB$/gm)) out[m[1]] = Number(m[2]) * 1024;
  }
  return out;
}

function figures() {
  const heap = v8.getHeapStatistics();
  return {
    memory: process.memoryUsage(),
    heap: { used: heap.used_heap_size, total: heap.total_heap_size, malloced: heap.malloced_memory },
    spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size])),
    proc: procFigures(),
  };
}

if (file !== undefined) {
  let seq = 0;
  process.on('SIGUSR2', () => {
    const asFound = figures();
    const gc = globalThis.gc;
    if (typeof gc === 'function') {
      gc();
      gc();
    }
    const afterGc = figures();
    writeFileSync(
      `${file}.tmp`,
      JSON.stringify({ seq: ++seq, gc: typeof gc === 'function', asFound, afterGc }),
    );
    renameSync(`${file}.tmp`, file);
  });
}
