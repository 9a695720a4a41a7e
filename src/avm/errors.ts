// Exceptional halts. Anything that ends a call frame abnormally — a tag mismatch, a bad address,
// running out of gas, an invalid or truncated instruction, a side-effect limit, a nullifier
// collision — is thrown as an AvmExceptionalHalt and caught by the interpreter at the frame
// boundary, where it becomes a reverted call with no output that consumed all of its gas. Any
// other error escaping a host callback is a bug in the host and propagates to the caller.

export class AvmExceptionalHalt extends Error {
  override readonly name: string = 'AvmExceptionalHalt';
}

/** A per-transaction side-effect limit was reached (note hashes, nullifiers, writes, logs, messages). */
export class SideEffectLimitError extends AvmExceptionalHalt {
  override readonly name = 'SideEffectLimitError';
  constructor(
    readonly what: string,
    readonly limit: number,
  ) {
    super(`reached the limit of ${limit} ${what} per transaction`);
  }
}

/** A nullifier was emitted that already exists (in the tree or earlier in the transaction). */
export class NullifierCollisionError extends AvmExceptionalHalt {
  override readonly name = 'NullifierCollisionError';
  constructor(readonly siloedNullifier: bigint) {
    super(`nullifier 0x${siloedNullifier.toString(16)} already exists`);
  }
}
