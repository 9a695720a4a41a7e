// The interpreter against the reference: every step of the golden vectors in test/avm/vectors/
// (recorded from the reference TypeScript AVM of protocol 4.1.2, docs/avm-vectors.md) is run on an
// in-memory world built the same way, and must give the same success or revert, return or revert
// data, instructions executed, L2 and DA gas used, storage writes, nullifiers, note hashes, public
// logs and L2-to-L1 messages. Real contracts' bytecode comes from the npm packages, fetched into
// .cache/artifacts by scripts/fetch-artifacts.mjs (CAIRN_SKIP_ARTIFACTS=1 skips those files).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ensureArtifacts } from '../../src/artifacts/npm-artifacts.js';
import { executePublicCall } from '../../src/avm/interpreter.js';
import { AvmJournal } from '../../src/avm/journal.js';
import type { Fr } from '../../src/core/field.js';
import { type VectorFile, vectorCallRequest, vectorGlobals, vectorWorld } from './vectors.js';

const VECTORS = join(import.meta.dirname, 'vectors');
const skipArtifacts = process.env.CAIRN_SKIP_ARTIFACTS === '1';

const fr = (hex: string): Fr => BigInt(hex);
const hex = (v: Fr) => `0x${v.toString(16)}`;

/** What a journal holds so far, to tell one step's effects from the earlier steps' of its tx. */
function effectsOf(journal: AvmJournal) {
  return {
    writes: new Map(journal.storageWrites().map((w) => [`${hex(w.contract)}/${hex(w.slot)}`, w.value])),
    nullifiers: journal.nullifiers().length,
    noteHashes: journal.noteHashes().length,
    logs: journal.publicLogs().length,
    messages: journal.l2ToL1Messages().length,
  };
}

function runFile(file: VectorFile): void {
  const world = vectorWorld(file);
  const globals = vectorGlobals(file);
  let journal: AvmJournal | undefined;
  let txNumber: number | undefined;
  for (const step of file.steps) {
    if (step.tx !== txNumber) {
      if (journal !== undefined) world.applyJournal(journal);
      journal = new AvmJournal(world, fr(file.firstNullifier));
      txNumber = step.tx;
    }
    const j = journal!;
    const before = effectsOf(j);
    const { call, expect } = step;
    const where = `${file.group}: ${step.name}`;
    const result = executePublicCall(j, vectorCallRequest(step, globals));
    const after = effectsOf(j);
    assert.equal(result.reverted, expect.reverted, `${where}: reverted (${result.revertReason})`);
    assert.deepEqual(result.output.map(hex), expect.output, `${where}: output`);
    assert.equal(result.instructionsExecuted, expect.instructions, `${where}: instructions`);
    assert.equal(call.l2GasLimit - result.gasLeft.l2, expect.l2GasUsed, `${where}: L2 gas used`);
    assert.equal(call.daGasLimit - result.gasLeft.da, expect.daGasUsed, `${where}: DA gas used`);
    // Storage: the last value the step wrote to each slot (the journal keeps one value per slot).
    const wrote = new Map(
      expect.storageWrites.map((w) => [`${hex(fr(w.contract))}/${hex(fr(w.slot))}`, fr(w.value)]),
    );
    const changed = [...after.writes].filter(([k, v]) => before.writes.get(k) !== v).map(([k]) => k);
    for (const [key, value] of wrote) assert.equal(after.writes.get(key), value, `${where}: write ${key}`);
    for (const key of changed) assert.ok(wrote.has(key), `${where}: unexpected write ${key}`);
    assert.deepEqual(
      j.nullifiers().slice(before.nullifiers).map(hex),
      expect.nullifiers,
      `${where}: nullifiers`,
    );
    assert.deepEqual(
      j.noteHashes().slice(before.noteHashes).map(hex),
      expect.noteHashes,
      `${where}: note hashes`,
    );
    assert.deepEqual(
      j
        .publicLogs()
        .slice(before.logs)
        .map((l) => ({ contract: hex(l.contract), fields: l.fields.map(hex) })),
      expect.publicLogs.map((l) => ({ contract: hex(fr(l.contract)), fields: l.fields })),
      `${where}: public logs`,
    );
    assert.deepEqual(
      j
        .l2ToL1Messages()
        .slice(before.messages)
        .map((m) => ({ contract: hex(m.contract), recipient: hex(m.recipient), content: hex(m.content) })),
      expect.l2ToL1Messages.map((m) => ({
        contract: hex(fr(m.contract)),
        recipient: hex(fr(m.recipient)),
        content: hex(fr(m.content)),
      })),
      `${where}: L2-to-L1 messages`,
    );
  }
}

const files = readdirSync(VECTORS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, vectors: JSON.parse(readFileSync(join(VECTORS, f), 'utf8')) as VectorFile }));

describe('AVM golden vectors from the reference simulator', () => {
  test('every vector file is here, with steps', () => {
    assert.deepEqual(
      files.map((f) => f.name),
      [
        'avm-gadgets.json',
        'avm-test.json',
        'custom-bytecode.json',
        'nested-calls.json',
        'protocol-contracts.json',
        'token.json',
      ],
    );
    for (const f of files) assert.ok(f.vectors.steps.length > 0, f.name);
  });

  for (const { name, vectors } of files) {
    const needsArtifacts = vectors.contracts.some((c) => c.artifact !== undefined);
    test(`${name}: ${vectors.steps.length} steps as the reference ran them`, {
      skip: needsArtifacts && skipArtifacts ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
    }, async () => {
      if (needsArtifacts) await ensureArtifacts();
      runFile(vectors);
    });
  }
});
