// Authentication witnesses in public (the AuthRegistry protocol contract): an owner lets another
// account make one exact call on its behalf by recording the call's message hash in the registry
// (`set_authorized(hash, true)`); the called contract checks and spends it through
// `AuthRegistry.consume(owner, inner)`, which recomputes the hash with itself as the consumer.
//   inner   = poseidon2([caller, selector, argsHash], AUTHWIT_INNER)
//   argsHash = poseidon2(args, FUNCTION_ARGS) (0 without arguments; contracts.ts functionArgsHash)
//   message = poseidon2([consumer, chainId, version, inner], AUTHWIT_OUTER)
import { functionArgsHash } from './contracts.js';
import type { Fr } from './field.js';
import { poseidon2HashWithSeparator } from './hash/poseidon2.js';

export const AUTHWIT_SEPARATORS = { inner: 221_354_163, outer: 3_283_595_782 } as const;

/** The intent: `caller` may call the function `selector` with `args` (ABI-encoded). */
export function authwitInnerHash(caller: Fr, selector: number, args: readonly Fr[]): Fr {
  return poseidon2HashWithSeparator(
    [caller, BigInt(selector), functionArgsHash(args)],
    AUTHWIT_SEPARATORS.inner,
  );
}

/** What the owner authorizes: the intent, bound to the contract that consumes it and the chain. */
export function authwitMessageHash(consumer: Fr, chainId: Fr, version: Fr, inner: Fr): Fr {
  return poseidon2HashWithSeparator([consumer, chainId, version, inner], AUTHWIT_SEPARATORS.outer);
}
