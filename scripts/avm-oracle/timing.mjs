// Timing mode of generate.mjs (--timing): the reference AVM and cairn's interpreter (src/avm/) on
// the same calls, in the same process. See scripts/avm-oracle/README.md.
//
// Reference: before a selected step is recorded, the call is repeated on throwaway txs over the
// state the step is recorded on (World.runDiscarded: a fresh state manager, a tree checkpoint that
// is reverted afterwards), so every repetition does exactly what the recorded run does. The time
// is that of AvmSimulator.execute() alone.
// cairn: after the group has run, its steps are replayed in cairn's InMemoryAvmWorld the way
// test/avm/golden.test.ts does; a selected step is repeated on fresh journals (one tx each, thrown
// away) before it is replayed for real. The time is that of executePublicCall() alone.
// Every repetition on both sides must give the recorded result (reverted, output, instructions,
// L2 and DA gas), or the run stops.
import { DEFAULT_GAS } from './world.mjs';

/** The timed calls: group id, exact step name (as the group files name it), and a short label. */
export const TIMED_STEPS = [
  ['token', 'constructor(alice, "Cairn Test Token", "CTT", 18) by alice', 'Token.constructor'],
  ['token', 'mint_to_public(alice, 1000) by alice (admin and minter)', 'Token.mint_to_public'],
  ['token', 'balance_of_public(alice) = 1000', 'Token.balance_of_public'],
  ['token', 'transfer_in_public(alice -> bob, 300, nonce 0) by alice', 'Token.transfer_in_public'],
  [
    'token',
    'transfer_in_public(alice -> carol, 100, nonce 7) by bob with authwit (nested CALL to AuthRegistry.consume)',
    'Token.transfer_in_public, authwit (nested call)',
  ],
  ['avm-test', 'nested_call_large_calldata(1..300) = 5', 'AvmTest.nested_call_large_calldata'],
  ['avm-test', 'bulk_testing(1001..1010, 1..10, AvmTest, ...)', 'AvmTest.bulk_testing'],
  [
    'avm-test',
    'n_storage_writes(63): the most distinct slots a tx may write',
    'AvmTest.n_storage_writes(63)',
  ],
  ['avm-gadgets', 'sha256_hash_100(bytes 100)', 'AvmGadgetsTest.sha256_hash_100'],
  ['avm-gadgets', 'sha256_hash_1536(bytes 1536)', 'AvmGadgetsTest.sha256_hash_1536'],
  ['avm-gadgets', 'keccak_hash_1400(bytes 1400)', 'AvmGadgetsTest.keccak_hash_1400'],
  ['avm-gadgets', 'keccak_f1600(25 lanes)', 'AvmGadgetsTest.keccak_f1600'],
  ['avm-gadgets', 'poseidon2_hash_1000fields(1000 fields)', 'AvmGadgetsTest.poseidon2_hash_1000fields'],
  ['avm-gadgets', 'pedersen_hash(10 fields)', 'AvmGadgetsTest.pedersen_hash'],
];

/** The groups that hold timed calls (the default groups of a --timing run). */
export const TIMED_GROUPS = [...new Set(TIMED_STEPS.map(([group]) => group))];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Calls `once()` (which returns the milliseconds of its timed part) for a warm-up of at least
 * `warmupRuns` calls and `warmupSeconds`, then until at least `runs` calls and `seconds` are done.
 */
async function sample(once, plan) {
  let start = performance.now();
  for (let n = 0; n < plan.warmupRuns || performance.now() - start < plan.warmupSeconds * 1000; n++)
    await once();
  const times = [];
  start = performance.now();
  while (times.length < plan.runs || performance.now() - start < plan.seconds * 1000)
    times.push(await once());
  return times;
}

function fail(message) {
  throw new Error(`timing check failed: ${message}`);
}

/** cairn's interpreter, loaded from the TypeScript sources (the process must run with --import tsx). */
async function loadCairn() {
  try {
    const [interpreter, journal, vectors] = await Promise.all([
      import('../../src/avm/interpreter.ts'),
      import('../../src/avm/journal.ts'),
      // The world, globals and call requests of a vector file, as test/avm/golden.test.ts builds them.
      import('../../test/avm/vectors.ts'),
    ]);
    return {
      executePublicCall: interpreter.executePublicCall,
      AvmJournal: journal.AvmJournal,
      vectorWorld: vectors.vectorWorld,
      vectorGlobals: vectors.vectorGlobals,
      vectorCallRequest: vectors.vectorCallRequest,
    };
  } catch (err) {
    if (err?.code === 'ERR_UNKNOWN_FILE_EXTENSION')
      throw new Error(
        '--timing loads cairn from src/avm/*.ts: run it as `node --import tsx scripts/avm-oracle/generate.mjs ...`',
      );
    throw err;
  }
}

const fr = (h) => BigInt(h);
const hex = (v) => `0x${v.toString(16)}`;

/** What a result must match: the recorded step's success, output, instructions and gas. */
function sameOutcome(where, got, expect) {
  for (const key of ['reverted', 'instructions', 'l2GasUsed', 'daGasUsed']) {
    if (got[key] !== expect[key]) fail(`${where}: ${key} ${got[key]}, recorded ${expect[key]}`);
  }
  if (got.output !== undefined && JSON.stringify(got.output) !== JSON.stringify(expect.output))
    fail(`${where}: output ${got.output.slice(0, 4)}..., recorded ${expect.output.slice(0, 4)}...`);
}

export class Timing {
  /** plan: { runs, seconds, warmupRuns, warmupSeconds } for each side of each call. */
  constructor(plan) {
    this.plan = plan;
    this.rows = [];
    this.group = undefined;
    this.cairn = undefined;
  }

  /** Loads cairn's interpreter (before any group runs, so a missing --import tsx fails at once). */
  async load() {
    this.cairn ??= await loadCairn();
  }

  startGroup(id) {
    this.group = id;
    this.byStep = new Map(); // step index -> row
    this.wanted = new Map(TIMED_STEPS.filter(([g]) => g === id).map(([, name, label]) => [name, label]));
  }

  /**
   * Called by VectorFile.push before a step is recorded. For a selected step, repeats the call on
   * throwaway txs and returns a handle whose recorded() takes the recorded step.
   */
  async beforeStep(world, name, address, calldata, opts) {
    const label = this.wanted.get(name);
    if (label === undefined) return undefined;
    this.wanted.delete(name);
    if (opts.sameTx) fail(`${name}: a timed call must start its tx`);
    const runs = [];
    const times = await sample(async () => {
      const { r, ms, hashMs } = await world.runDiscarded(address, calldata, opts);
      runs.push({
        netMs: ms - hashMs,
        reverted: r.reverted,
        instructions: r.totalInstructions,
        l2GasUsed: (opts.l2Gas ?? DEFAULT_GAS.l2Gas) - r.gasLeft.l2Gas,
        daGasUsed: (opts.daGas ?? DEFAULT_GAS.daGas) - r.gasLeft.daGas,
      });
      return ms;
    }, this.plan);
    return {
      recorded: (index, step) => {
        for (const run of runs) sameOutcome(`reference ${label}`, run, step.expect);
        const row = {
          label,
          name,
          instructions: step.expect.instructions,
          referenceMs: times,
          // The same runs without the world's leaf-slot hashing (see report()).
          referenceNetMs: runs.slice(-times.length).map((run) => run.netMs),
        };
        this.byStep.set(index, row);
        this.rows.push(row);
      },
    };
  }

  /** Replays the group's steps in cairn's world and times the selected ones there. */
  async endGroup(doc) {
    if (this.wanted.size) fail(`${this.group}: no step named ${[...this.wanted.keys()].join(', ')}`);
    if (this.byStep.size === 0) return;
    await this.load();
    const C = this.cairn;
    const world = C.vectorWorld(doc);
    const globals = C.vectorGlobals(doc);
    const firstNullifier = fr(doc.firstNullifier);
    let journal;
    let tx;
    for (const [index, step] of doc.steps.entries()) {
      if (step.tx !== tx) {
        if (journal !== undefined) world.applyJournal(journal);
        journal = new C.AvmJournal(world, firstNullifier);
        tx = step.tx;
      }
      const { call, expect } = step;
      const request = C.vectorCallRequest(step, globals);
      const outcome = (r) => ({
        reverted: r.reverted,
        output: r.output.map(hex),
        instructions: r.instructionsExecuted,
        l2GasUsed: call.l2GasLimit - r.gasLeft.l2,
        daGasUsed: call.daGasLimit - r.gasLeft.da,
      });
      const row = this.byStep.get(index);
      if (row !== undefined) {
        // The step starts its tx (checked in beforeStep), so a fresh journal is the same state.
        row.cairnMs = await sample(() => {
          const throwaway = new C.AvmJournal(world, firstNullifier);
          const t0 = performance.now();
          const r = C.executePublicCall(throwaway, request);
          const ms = performance.now() - t0;
          sameOutcome(`cairn ${row.label}`, outcome(r), expect);
          return ms;
        }, this.plan);
      }
      const r = C.executePublicCall(journal, request);
      // Every step is replayed so later steps see the same state; the timed ones must also match.
      if (row !== undefined) sameOutcome(`cairn ${row.label}`, outcome(r), expect);
    }
  }

  /**
   * The side-by-side table (Markdown) and the geometric means of the ratios. The last two columns
   * leave out the reference world's leaf-slot hashing: the generator's MemoryTrees key storage by
   * public-data leaf slot and hash (contract, slot) with bb.js on every storage access, inside the
   * timed execute(), while cairn's InMemoryAvmWorld keys storage by (contract, slot).
   */
  report() {
    if (this.rows.length === 0) return 'no timed calls in the groups run';
    const ms = (v) =>
      v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3);
    const lines = [
      '| call | instructions | reference median ms | cairn median ms | ratio | reference without leaf-slot hashing, ms | ratio |',
      '|---|---:|---:|---:|---:|---:|---:|',
    ];
    let logSum = 0;
    let logNetSum = 0;
    for (const row of this.rows) {
      const ref = median(row.referenceMs);
      const net = median(row.referenceNetMs);
      const cairn = median(row.cairnMs);
      logSum += Math.log(ref / cairn);
      logNetSum += Math.log(net / cairn);
      const cells = [
        row.label,
        row.instructions.toLocaleString('en-US'),
        ms(ref),
        ms(cairn),
        `${(ref / cairn).toFixed(1)}×`,
        ms(net),
        `${(net / cairn).toFixed(1)}×`,
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    }
    const n = this.rows.length;
    const runs = this.rows.map((r) => `${r.referenceMs.length}/${r.cairnMs.length}`).join(' ');
    lines.push(
      '',
      `geometric mean ratio over ${n} calls: ${Math.exp(logSum / n).toFixed(1)}× (${Math.exp(logNetSum / n).toFixed(1)}× without leaf-slot hashing)`,
      `timed runs per call (reference/cairn): ${runs}`,
    );
    return lines.join('\n');
  }
}
