// Loader for the native Poseidon2 addon (native/poseidon2, built by node-gyp into
// build/Release/poseidon2.node at `npm install`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The field multiplication the addon uses: `adx` (mulx/adcx/adox assembly, x86-64 CPUs with BMI2
 * and ADX) or `portable` (plain C++). Both give identical hashes.
 */
export type NativePoseidon2Path = 'adx' | 'portable';

/** The functions exported by the addon (see native/poseidon2/addon.cc). */
export interface NativePoseidon2 {
  permute(state: readonly bigint[]): bigint[];
  hash(inputs: readonly bigint[]): bigint;
  hashBatch(input: Uint8Array, width: number, output?: Uint8Array): Uint8Array;
  hashBatchFields(inputs: readonly bigint[], width: number): bigint[];
  /**
   * The multiplication path in use. The path is chosen when the addon is first loaded
   * (`CAIRN_POSEIDON2_PATH` = adx, portable or auto; auto, the default, is adx where the CPU has
   * it) and is process-wide. Optional: an addon built before the paths existed has none.
   */
  path?(): NativePoseidon2Path;
  /** The paths this CPU can run: always `portable`, plus `adx` where the CPU has BMI2 and ADX. */
  supportedPaths?(): NativePoseidon2Path[];
  /** Switches the path for the whole process; throws for `adx` on a CPU without it. */
  setPath?(path: NativePoseidon2Path | 'auto'): NativePoseidon2Path;
}

export type NativeLoadResult =
  | { ok: true; addon: NativePoseidon2; path: string }
  | { ok: false; error: string };

/** poseidon2Hash([1, 2]), checked once after loading. */
const KNOWN_1_2 = 0x038682aa1cb5ae4e0a3f13da432a95c77c5c111f6f030faf9cad641ce1ed7383n;

/** Where the addon is looked for: `CAIRN_POSEIDON2_ADDON` if set, else `<repo>/build/Release/poseidon2.node`. */
export function nativeAddonPath(): string {
  const override = process.env.CAIRN_POSEIDON2_ADDON;
  if (override !== undefined && override !== '') return override;
  // This file is src/core/hash/native.ts (or dist/core/hash/native.js): the repository root is three up.
  return fileURLToPath(new URL('../../../build/Release/poseidon2.node', import.meta.url));
}

/** Loads the addon and checks it against a known answer. Never throws. */
export function loadNativePoseidon2(): NativeLoadResult {
  const path = nativeAddonPath();
  if (!existsSync(path))
    return { ok: false, error: `${path} does not exist (the native build failed or was skipped)` };
  let addon: NativePoseidon2;
  try {
    addon = createRequire(import.meta.url)(path) as NativePoseidon2;
  } catch (err) {
    return { ok: false, error: `cannot load ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  for (const name of ['permute', 'hash', 'hashBatch', 'hashBatchFields'] as const) {
    if (typeof addon[name] !== 'function') return { ok: false, error: `${path} does not export ${name}()` };
  }
  try {
    if (addon.hash([1n, 2n]) !== KNOWN_1_2)
      return { ok: false, error: `${path} failed its known-answer check` };
  } catch (err) {
    return {
      ok: false,
      error: `${path} failed its self-check: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  return { ok: true, addon, path };
}
