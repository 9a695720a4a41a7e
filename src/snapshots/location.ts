// Where snapshots live, given as a URL: a local directory (file://), an S3 bucket (s3://) or a
// read-only web server (http(s)://). Parsing is strict so a typo fails at startup rather than
// after a multi-GiB upload.
import { isAbsolute, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type SnapshotLocation =
  | { kind: 'file'; path: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix without leading or trailing '/'; '' for the bucket root. */
      prefix: string;
      /** S3-compatible endpoint (MinIO, R2, ...); absent for AWS itself. */
      endpoint?: string;
      /** Public http(s) URL of the bucket root; object URLs handed out are then built on it. */
      publicBaseUrl?: string;
    }
  | { kind: 'http'; baseUrl: string };

export class SnapshotLocationError extends Error {
  override readonly name = 'SnapshotLocationError';
}

const ACCEPTED =
  'expected file:///absolute/path, s3://bucket[/prefix][?endpoint=http(s)://host:port&publicBaseUrl=...] or http(s)://host/path';

const S3_PARAMS = new Set(['endpoint', 'publicBaseUrl']);

function fail(text: string, reason: string): never {
  throw new SnapshotLocationError(`invalid snapshot location '${text}': ${reason}; ${ACCEPTED}`);
}

function httpUrl(text: string, value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(text, `${what} '${value}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(text, `${what} must be an http(s) URL`);
  return trimSlash(url.href);
}

function trimSlash(href: string): string {
  return href.replace(/\/+$/, '');
}

export function parseLocation(text: string): SnapshotLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(text, 'not a URL');
  }
  switch (url.protocol) {
    case 'file:': {
      // URL parsing forgives `file:relative` (-> /relative) and `file://relative/x` (host
      // 'relative'); neither is what the user meant, so insist on the literal form.
      if (!/^file:\/\/\//i.test(text) || url.host !== '' || url.search !== '' || url.hash !== '') {
        fail(text, 'a file location must be file:/// followed by an absolute path');
      }
      const path = normalize(fileURLToPath(url));
      if (!isAbsolute(path)) fail(text, 'a file location must be an absolute path');
      return { kind: 'file', path: path.length > 1 ? path.replace(/\/+$/, '') : path };
    }
    case 's3:': {
      if (url.hostname === '') fail(text, 'the bucket name is missing');
      if (url.username !== '' || url.password !== '') {
        fail(text, 'credentials do not belong in the location; use the S3 settings');
      }
      if (url.port !== '') fail(text, 'a port belongs in the endpoint parameter, not after the bucket');
      if (url.hash !== '') fail(text, "an s3 location cannot have a '#' fragment");
      // URL parsing silently resolves '.' and '..'; in a key prefix they are surely a mistake.
      if (/\/(\.|%2e){1,2}(\/|\?|$)/i.test(text)) fail(text, "'.' and '..' segments are not allowed");
      for (const name of url.searchParams.keys()) {
        // Unknown parameters are most likely misspelt ones, which would silently hit AWS instead.
        if (!S3_PARAMS.has(name)) fail(text, `unknown parameter '${name}' (known: endpoint, publicBaseUrl)`);
      }
      const location: SnapshotLocation = {
        kind: 's3',
        bucket: decodeURIComponent(url.hostname),
        prefix: splitPath(url.pathname, text).join('/'),
      };
      const endpoint = url.searchParams.get('endpoint');
      if (endpoint !== null) location.endpoint = httpUrl(text, endpoint, 'endpoint');
      const publicBaseUrl = url.searchParams.get('publicBaseUrl');
      if (publicBaseUrl !== null) location.publicBaseUrl = httpUrl(text, publicBaseUrl, 'publicBaseUrl');
      return location;
    }
    case 'http:':
    case 'https:': {
      // fetch refuses URLs with credentials; say so now rather than at the first read.
      if (url.username !== '' || url.password !== '') fail(text, 'credentials are not supported in the URL');
      url.hash = '';
      url.pathname = url.pathname.replace(/\/+$/, '');
      return { kind: 'http', baseUrl: url.href };
    }
    default:
      fail(text, `unsupported scheme '${url.protocol.replace(/:$/, '')}'`);
  }
}

/** The URL that parses back to `location`. */
export function formatLocation(location: SnapshotLocation): string {
  switch (location.kind) {
    case 'file':
      return pathToFileURL(location.path).href;
    case 's3': {
      const params = new URLSearchParams();
      if (location.endpoint !== undefined) params.set('endpoint', location.endpoint);
      if (location.publicBaseUrl !== undefined) params.set('publicBaseUrl', location.publicBaseUrl);
      return s3Url(location.bucket, location.prefix, params);
    }
    case 'http':
      return location.baseUrl;
  }
}

/**
 * The full URL of the object at `segments` (each may contain '/') below `location`. An s3 URL keeps
 * the endpoint parameter so that it can be read back on its own.
 */
export function joinLocation(location: SnapshotLocation | string, ...segments: string[]): string {
  const loc = typeof location === 'string' ? parseLocation(location) : location;
  const parts = segments.flatMap((s) => splitKey(s));
  switch (loc.kind) {
    case 'file':
      return pathToFileURL(join(loc.path, ...parts)).href;
    case 's3': {
      const params = new URLSearchParams();
      if (loc.endpoint !== undefined) params.set('endpoint', loc.endpoint);
      return s3Url(loc.bucket, joinKey(loc.prefix, ...parts), params);
    }
    case 'http': {
      const url = new URL(loc.baseUrl);
      url.pathname = [url.pathname.replace(/\/+$/, ''), ...parts.map(encodeURIComponent)].join('/');
      return url.href;
    }
  }
}

/**
 * Splits an object key into its segments. Refuses '.' and '..' so a key can never leave the
 * store's root (the file store maps keys onto paths).
 */
export function splitKey(key: string): string[] {
  const parts = key.split('/').filter((p) => p !== '');
  for (const p of parts) {
    if (p === '.' || p === '..' || p.includes('\\') || p.includes('\0')) {
      throw new SnapshotLocationError(`invalid object key '${key}': segment '${p}' is not allowed`);
    }
  }
  return parts;
}

/** Joins a prefix ('' for none) and key segments with '/'. */
export function joinKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].filter((p) => p !== '').join('/');
}

function splitPath(pathname: string, text: string): string[] {
  const parts = pathname
    .split('/')
    .filter((p) => p !== '')
    .map((p) => decodeURIComponent(p));
  try {
    return splitKey(parts.join('/'));
  } catch (err) {
    fail(text, (err as Error).message);
  }
}

function s3Url(bucket: string, key: string, params: URLSearchParams): string {
  const path = key === '' ? '' : `/${key.split('/').map(encodeURIComponent).join('/')}`;
  const query = params.toString();
  return `s3://${bucket}${path}${query === '' ? '' : `?${query}`}`;
}
