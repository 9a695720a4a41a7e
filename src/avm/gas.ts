// Gas rules beyond the per-opcode base costs of opcodes.ts: the addressing surcharge, which is
// counted from the wire bits of all 7 operand slots of the mode field (whether or not the
// instruction has that many operands), and the factors of the dynamic terms.
import { FR_MODULUS } from '../core/field.js';

/** Operand slots an addressing-mode field describes (2 bits each: bit 2i indirect, bit 2i+1 relative). */
export const MAX_OPERANDS = 7;

export const ADDRESSING_BASE_L2_GAS = 3;
export const ADDRESSING_INDIRECT_L2_GAS = 3;
export const ADDRESSING_RELATIVE_L2_GAS = 3;

/** L2 gas per word copied by CALLDATACOPY and RETURNDATACOPY. */
export const COPY_DYN_L2_GAS = 3;
/** L2 gas per byte of the operand tag of AND, OR and XOR. */
export const BITWISE_DYN_L2_GAS = 3;
/** L2 and DA gas per field of an emitted public log. */
export const PUBLIC_LOG_DYN_L2_GAS = 3;
export const PUBLIC_LOG_DYN_DA_GAS = 32;
/** DA gas of an SSTORE to a slot not yet written in the transaction. */
export const SSTORE_DYN_DA_GAS = 64;
/** L2 gas per limb of TORADIXBE (times the larger of the limbs asked for and the radix's table entry). */
export const TORADIX_DYN_L2_GAS = 3;

/** The addressing surcharge of a mode field: 3 if any slot is relative, plus 3 per indirect and per relative slot. */
export function addressingL2Gas(mode: number): number {
  let indirect = 0;
  let relative = 0;
  for (let i = 0; i < MAX_OPERANDS; i++) {
    indirect += (mode >>> (2 * i)) & 1;
    relative += (mode >>> (2 * i + 1)) & 1;
  }
  return (
    (relative > 0 ? ADDRESSING_BASE_L2_GAS : 0) +
    indirect * ADDRESSING_INDIRECT_L2_GAS +
    relative * ADDRESSING_RELATIVE_L2_GAS
  );
}

/** The bitwise dynamic-gas multiplier of a tag: its byte width (U1 counts as one byte, FF as none). */
export const BITWISE_GAS_BYTES = [0, 1, 1, 2, 4, 8, 16] as const;

/**
 * The per-radix table of TORADIXBE's dynamic gas: the number of digits of the field modulus in
 * each radix 0..256 (0 for the invalid radices 0 and 1). It is derived here rather than listed,
 * so it cannot carry a typo; radix 2 gives 254, radix 256 gives 32.
 */
export const MODULUS_LIMBS_PER_RADIX: readonly number[] = Array.from({ length: 257 }, (_, radix) => {
  if (radix < 2) return 0;
  let digits = 0;
  for (let v = FR_MODULUS; v > 0n; v /= BigInt(radix)) digits++;
  return digits;
});

/** The limb count TORADIXBE charges for: max(limbs asked for, the radix's table entry; 32 above 256). */
export function toRadixGasLimbs(radix: bigint, numLimbs: number): number {
  const table = radix > 256n ? 32 : MODULUS_LIMBS_PER_RADIX[Number(radix)]!;
  return Math.max(numLimbs, table);
}
