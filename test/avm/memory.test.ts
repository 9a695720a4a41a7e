// Tagged memory: default cells, pages across the whole u32 range, tag-checked reads and ranges.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AvmExceptionalHalt } from '../../src/avm/errors.js';
import { MEMORY_SIZE, Tag, TaggedMemory, truncateToTag } from '../../src/avm/memory.js';
import { FR_MODULUS } from '../../src/core/field.js';

describe('AVM tagged memory', () => {
  it('reads never-written cells as FF 0, anywhere', () => {
    const memory = new TaggedMemory();
    for (const address of [0, 1023, 1024, 2 ** 22, MEMORY_SIZE - 1]) {
      assert.deepEqual([memory.tag(address), memory.value(address)], [Tag.FF, 0n]);
    }
  });

  it('keeps cells on different pages apart, including the last address', () => {
    const memory = new TaggedMemory();
    memory.set(5, Tag.U8, 1n);
    memory.set(5 + 1024, Tag.U16, 2n);
    memory.set(MEMORY_SIZE - 1, Tag.U128, 3n);
    memory.set(2 ** 31, Tag.U1, 1n);
    assert.deepEqual(
      [5, 5 + 1024, MEMORY_SIZE - 1, 2 ** 31, 6].map((a) => [memory.tag(a), memory.value(a)]),
      [
        [Tag.U8, 1n],
        [Tag.U16, 2n],
        [Tag.U128, 3n],
        [Tag.U1, 1n],
        [Tag.FF, 0n],
      ],
    );
  });

  it('checks tags on read and ranges against the end of memory', () => {
    const memory = new TaggedMemory();
    memory.set(1, Tag.U32, 7n);
    assert.equal(memory.read(1, Tag.U32), 7n);
    assert.throws(() => memory.read(1, Tag.U64), AvmExceptionalHalt);
    assert.throws(() => memory.read(2, Tag.U32), /expected U32, got FF/);
    assert.deepEqual(memory.readValues(MEMORY_SIZE - 1, 1), [0n]);
    assert.throws(() => memory.readValues(MEMORY_SIZE - 1, 2), /past the end of memory/);
    assert.throws(() => memory.writeRange(MEMORY_SIZE - 2, Tag.FF, [1n, 2n, 3n]), /past the end of memory/);
  });

  it('truncates values to their tag', () => {
    assert.equal(truncateToTag(0x1ffn, Tag.U8), 0xffn);
    assert.equal(truncateToTag(3n, Tag.U1), 1n);
    assert.equal(truncateToTag(FR_MODULUS + 2n, Tag.FF), 2n);
  });
});
