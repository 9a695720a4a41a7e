// Types for scripts/fetch-artifacts.mjs, so the TypeScript tests can import its functions.

export interface ArtifactPackage {
  /** The registry's `dist.integrity` (SRI, e.g. `sha512-...`) for this exact version. */
  integrity: string;
  /** Paths inside the package, e.g. `artifacts/token_contract-Token.json`. */
  files: string[];
}

export const REPO_ROOT: string;
export const DEFAULT_CACHE_DIR: string;
/** Keyed by pinned spec, e.g. `@aztec/noir-contracts.js@4.1.2`. */
export const ARTIFACT_PACKAGES: Record<string, ArtifactPackage>;

export class ArtifactFetchError extends Error {
  readonly code: 'ERR_ARTIFACTS_UNAVAILABLE';
}

export interface EnsureArtifactsOptions {
  cacheDir?: string;
  packages?: Record<string, ArtifactPackage>;
  force?: boolean;
  registry?: string;
  retries?: number;
  log?: (line: string) => void;
}

export type EnsuredArtifacts = Record<string, { dir: string; files: Record<string, string> }>;

export function ensureArtifacts(options?: EnsureArtifactsOptions): Promise<EnsuredArtifacts>;
export function packageDir(spec: string, cacheDir?: string): string;
export function artifactPath(spec: string, file: string, cacheDir?: string): string;
export function matchesIntegrity(data: Uint8Array, integrity: string): boolean;
export function isCached(spec: string, entry: ArtifactPackage, cacheDir?: string): boolean;
// biome-ignore lint/suspicious/noExplicitAny: artifact JSON is untyped
export function loadArtifactJson(spec: string, file: string, cacheDir?: string): any;
/** The `public_dispatch` bytecode (raw AVM bytecode) of a cached artifact. */
export function publicDispatchBytecode(
  spec: string,
  file: string,
  cacheDir?: string,
): Uint8Array<ArrayBuffer>;
