// Assembles a running node: the node's components, its method sets and the two
// JSON-RPC listeners. Used by `cairn start` and by tests that run a node in-process.
import type { Logger } from 'pino';
import { buildRegistry } from '../api/index.js';
import { STATUS_PAGE_HEADERS, STATUS_PAGE_HTML } from '../api/status-page.js';
import { AZTEC_API_PATH, buildAztecRegistry } from '../aztec/index.js';
import { REFERENCE_PACKAGE_VERSION, REFERENCE_VERSION_HEADERS } from '../aztec/versions.js';
import type { Config } from '../config/settings.js';
import { NODE_VERSION } from '../core/version.js';
import { devAccounts } from '../execution/dev-accounts.js';
import { CairnNode, type StartOptions } from '../node/node.js';
import { REFERENCE_CONVENTIONS } from '../rpc/conventions.js';
import { Dispatcher, TokenBucketLimiter } from '../rpc/dispatch.js';
import type { OpenRpcInfo } from '../rpc/openrpc.js';
import { type Listener, startListener } from '../rpc/server.js';
import { startBanner } from './banner.js';
import { listenError, preflight } from './preflight.js';

export interface RunningNode {
  readonly node: CairnNode;
  readonly publicUrl: string;
  readonly adminUrl: string;
  /** The L1 the node uses (the embedded anvil's, or --l1-rpc-url). */
  readonly l1Url: string;
  /** Stops accepting requests, finishes in-flight ones, then stops the node. */
  close(): Promise<void>;
}

/**
 * Checks the ports and the ready file's folder, starts the node, listens on both ports and prints
 * the start banner. `options` can stop start-up, and hear of a node that can no longer run.
 */
export async function serve(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningNode> {
  await preflight(config);
  const node = await CairnNode.start(config, logger, options);
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
  // One allowance per client on the public port, whichever API it calls.
  const publicLimiter = config.rpcRateLimit > 0 ? new TokenBucketLimiter(config.rpcRateLimit) : undefined;
  const limits = {
    logger: rpcLogger,
    maxBatchSize: config.rpcMaxBatchSize,
    maxResponseBytes: config.rpcMaxResponseBytes,
  };
  const dispatcher = (port: 'public' | 'admin') =>
    new Dispatcher({
      ...limits,
      port,
      registry,
      openRpcInfo: info(port),
      stats: node.metrics.rpc[port],
      ...(port === 'public' && publicLimiter !== undefined ? { rateLimiter: publicLimiter } : {}),
    });
  // The reference's published API at /aztec, with the reference's transport conventions.
  const aztecFace = {
    path: AZTEC_API_PATH,
    headers: REFERENCE_VERSION_HEADERS,
    dispatcher: new Dispatcher({
      ...limits,
      port: 'public',
      registry: buildAztecRegistry(node),
      conventions: REFERENCE_CONVENTIONS,
      openRpcInfo: {
        title: `cairn: the Aztec node API (${REFERENCE_PACKAGE_VERSION}) at ${AZTEC_API_PATH}`,
        version: REFERENCE_PACKAGE_VERSION,
        description: `The reference node's published API, ${REFERENCE_PACKAGE_VERSION}, served by a cairn node for the reference's wallet stack (aztec.js, its PXE). Parameters are positional.`,
      },
      stats: node.metrics.rpc.aztec,
      ...(publicLimiter !== undefined ? { rateLimiter: publicLimiter } : {}),
    }),
  };

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
        page: { html: STATUS_PAGE_HTML, headers: STATUS_PAGE_HEADERS },
        faces: [aztecFace],
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
    throw listeners.length === 0
      ? listenError('public port', '--port', err)
      : listenError('admin port', '--admin-port', err);
  }
  const [publicListener, adminListener] = listeners as [Listener, Listener];
  const banner = startBanner({
    version: NODE_VERSION,
    public: { url: publicListener.url, bound: publicListener.bound },
    admin: { url: adminListener.url, bound: adminListener.bound },
    l1: node.l1,
    rollupVersion: config.rollupVersion,
    dataDir: node.dataDir,
    slotDuration: node.constants.slotDuration,
    epochDuration: node.constants.epochDuration,
    clock: config.clock,
    accounts: devAccounts(config.devAccounts),
    testAccounts: config.testAccounts,
  });
  logger.info({ facts: banner.fields }, banner.text);

  let closing: Promise<void> | undefined;
  return {
    node,
    publicUrl: publicListener.url,
    adminUrl: adminListener.url,
    l1Url: node.l1.rpcUrl,
    close() {
      closing ??= (async () => {
        await Promise.all(listeners.map((l) => l.close()));
        await node.stop();
      })();
      return closing;
    },
  };
}
