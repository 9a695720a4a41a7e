// Small HTTP helpers for talking JSON-RPC to a node under test.
import pino, { type Logger } from 'pino';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/settings.js';

export const silentLogger = (): Logger => pino({ level: 'silent' });

export interface RpcReply {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Calls one method and returns the whole response object. */
export async function call(
  url: string,
  method: string,
  params?: unknown,
  headers: Record<string, string> = {},
): Promise<RpcReply> {
  const res = await post(
    url,
    { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) },
    headers,
  );
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text}`);
  return JSON.parse(res.text) as RpcReply;
}

/** Calls one method and returns its result, failing on an error response. */
export async function result(url: string, method: string, params?: unknown): Promise<unknown> {
  const reply = await call(url, method, params);
  if (reply.error) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return reply.result;
}

/** A configuration for a node on free ports in a temporary directory. */
export function testConfig(flags: Record<string, unknown> = {}): Config {
  return loadConfig({
    flags: { ephemeral: true, port: '0', adminPort: '0', l1Port: '0', logLevel: 'silent', ...flags },
    env: {},
  }).config;
}
