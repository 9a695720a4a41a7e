// Assembles a running node: the node's components, its method sets and the two
// JSON-RPC listeners. Used by `cairn start` and by tests that run a node in-process.
import type { Logger } from 'pino';
import { buildRegistry } from '../api/index.js';
import type { Config } from '../config/settings.js';
import { NODE_VERSION } from '../core/version.js';
import { CairnNode } from '../node/node.js';
import { Dispatcher, TokenBucketLimiter } from '../rpc/dispatch.js';
import type { OpenRpcInfo } from '../rpc/openrpc.js';
import { type Listener, startListener } from '../rpc/server.js';

export interface RunningNode {
  readonly node: CairnNode;
  readonly publicUrl: string;
  readonly adminUrl: string;
  /** Stops accepting requests, finishes in-flight ones, then stops the node. */
  close(): Promise<void>;
}

export async function serve(config: Config, logger: Logger): Promise<RunningNode> {
  const node = await CairnNode.start(config, logger);
  const registry = buildRegistry(node);
  const rpcLogger = logger.child({ component: 'rpc' });
  const info = (port: string): OpenRpcInfo => ({
    title: `cairn ${port} JSON-RPC API`,
    version: NODE_VERSION,
    description: 'Methods of a cairn layer-2 rollup node. Parameters are positional (by-position).',
  });
  const headers = {
    'x-cairn-node-version': NODE_VERSION,
    'x-cairn-l1-chain-id': String(config.l1ChainId),
    'x-cairn-rollup-version': String(config.rollupVersion),
  };
  const common = {
    logger: rpcLogger,
    bodyLimit: config.rpcMaxBodyBytes,
    requestTimeoutMs: config.rpcRequestTimeoutMs,
    headers,
    status: () => node.status(),
  };
  const dispatcher = (port: 'public' | 'admin') =>
    new Dispatcher({
      port,
      registry,
      logger: rpcLogger,
      maxBatchSize: config.rpcMaxBatchSize,
      maxResponseBytes: config.rpcMaxResponseBytes,
      openRpcInfo: info(port),
      stats: node.metrics.rpc[port],
      ...(port === 'public' && config.rpcRateLimit > 0
        ? { rateLimiter: new TokenBucketLimiter(config.rpcRateLimit) }
        : {}),
    });

  const listeners: Listener[] = [];
  try {
    listeners.push(
      await startListener({
        ...common,
        kind: 'public',
        host: config.host,
        port: config.port,
        dispatcher: dispatcher('public'),
        corsOrigins: config.rpcCorsOrigins,
      }),
    );
    listeners.push(
      await startListener({
        ...common,
        kind: 'admin',
        host: config.adminHost,
        port: config.adminPort,
        dispatcher: dispatcher('admin'),
        metrics: node.metrics,
        ...(config.adminApiKey === undefined ? {} : { apiKey: config.adminApiKey }),
      }),
    );
  } catch (err) {
    await Promise.all(listeners.map((l) => l.close()));
    await node.stop();
    const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
      throw new Error(`cannot listen on ${e.address ?? ''}:${e.port ?? ''}: ${e.code} (${e.message})`);
    }
    throw err;
  }
  const [publicListener, adminListener] = listeners as [Listener, Listener];
  const where = (l: Listener) => (l.url.endsWith(`//${l.bound}`) ? l.url : `${l.bound} (${l.url})`);
  rpcLogger.info(`public JSON-RPC (svc_*, node_*) listening on ${where(publicListener)}`);
  rpcLogger.info(`admin JSON-RPC (svcAdmin_*, nodeAdmin_*) listening on ${where(adminListener)}`);

  let closing: Promise<void> | undefined;
  return {
    node,
    publicUrl: publicListener.url,
    adminUrl: adminListener.url,
    close() {
      closing ??= (async () => {
        await Promise.all(listeners.map((l) => l.close()));
        await node.stop();
      })();
      return closing;
    },
  };
}
