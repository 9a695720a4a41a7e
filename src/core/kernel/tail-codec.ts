// The binary form of the private kernel tail's public inputs, the `data` of a tx on the wire:
//   isForPublic bool | constants (TxConstantData, 648) | gasUsed (daGas u32, l2Gas u32) |
//   feePayer 32 | expirationTimestamp u64 |
//   for rollup: end (PrivateToRollupAccumulatedData)                      → 38,557 bytes in all
//   for public: nonRevertible, revertible (PrivateToPublicAccumulatedData),
//               publicTeardownCallRequest                                 → 82,722 bytes in all
// Note the order differs from the hashed form (fields.ts), where the side effects come before
// gasUsed and the fee payer.

import { ByteReader, ByteWriter } from './bytes.js';
import { readGas, readTxConstantData, writeGas, writeTxConstantData } from './constant-data-codec.js';
import { TAIL_FOR_PUBLIC_SIZE_IN_BYTES, TAIL_FOR_ROLLUP_SIZE_IN_BYTES } from './constants.js';
import type { PrivateKernelTailCircuitPublicInputs } from './public-inputs.js';
import {
  readPublicAccumulatedData,
  readPublicCallRequest,
  readRollupAccumulatedData,
  writePublicAccumulatedData,
  writePublicCallRequest,
  writeRollupAccumulatedData,
} from './side-effects-codec.js';

/** Reads one tail output from `r`, which may hold more after it (a whole tx). */
export function readTail(r: ByteReader): PrivateKernelTailCircuitPublicInputs {
  const forPublic = r.bool('isForPublic');
  const constants = readTxConstantData(r);
  const gasUsed = readGas(r, 'gasUsed');
  const feePayer = r.fr('feePayer');
  const expirationTimestamp = r.u64('expirationTimestamp');
  const common = { constants, gasUsed, feePayer, expirationTimestamp };
  if (!forPublic) return { ...common, forRollup: { end: readRollupAccumulatedData(r) } };
  return {
    ...common,
    forPublic: {
      nonRevertibleAccumulatedData: readPublicAccumulatedData(r),
      revertibleAccumulatedData: readPublicAccumulatedData(r),
      publicTeardownCallRequest: readPublicCallRequest(r, 'publicTeardownCallRequest'),
    },
  };
}

export function writeTail(w: ByteWriter, tail: PrivateKernelTailCircuitPublicInputs): void {
  const hasPublic = tail.forPublic !== undefined;
  if (hasPublic === (tail.forRollup !== undefined)) {
    throw new TypeError('kernel tail public inputs must have exactly one of forPublic and forRollup');
  }
  w.bool(hasPublic, 'isForPublic');
  writeTxConstantData(w, tail.constants);
  writeGas(w, tail.gasUsed, 'gasUsed');
  w.fr(tail.feePayer, 'feePayer');
  w.u64(tail.expirationTimestamp, 'expirationTimestamp');
  if (tail.forPublic === undefined) {
    writeRollupAccumulatedData(w, tail.forRollup.end, 'forRollup.end');
    return;
  }
  const p = tail.forPublic;
  writePublicAccumulatedData(w, p.nonRevertibleAccumulatedData, 'forPublic.nonRevertibleAccumulatedData');
  writePublicAccumulatedData(w, p.revertibleAccumulatedData, 'forPublic.revertibleAccumulatedData');
  writePublicCallRequest(w, p.publicTeardownCallRequest, 'forPublic.publicTeardownCallRequest');
}

/** The reference's `PrivateKernelTailCircuitPublicInputs.toBuffer()`. */
export function encodeTail(tail: PrivateKernelTailCircuitPublicInputs): Buffer {
  const w = new ByteWriter(tail.forPublic ? TAIL_FOR_PUBLIC_SIZE_IN_BYTES : TAIL_FOR_ROLLUP_SIZE_IN_BYTES);
  writeTail(w, tail);
  return w.finish();
}

/** The tail output these bytes hold, all of them; a KernelCodecError if they hold anything else. */
export function decodeTail(bytes: Uint8Array): PrivateKernelTailCircuitPublicInputs {
  const r = new ByteReader(bytes, 'kernel tail public inputs');
  const tail = readTail(r);
  r.end();
  return tail;
}
