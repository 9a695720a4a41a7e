// The node's package version, read once from package.json (two levels above both
// src/core and dist/core).
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const NODE_PACKAGE_NAME = pkg.name;
export const NODE_VERSION = pkg.version;
