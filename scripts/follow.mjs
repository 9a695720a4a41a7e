#!/usr/bin/env node
// Starts a cairn node that follows another node's chain: it asks the followed node (its public
// JSON-RPC port) for the L1 chain id, rollup version, L1 contract addresses and its P2P node
// record, finds the L1 URL, and runs `cairn start` with those as flags, followed by this script's
// own arguments (which therefore win). compose.yaml runs the follower this way; see docs/docker.md.
//
//   node scripts/follow.mjs --data-dir /data --port 8081 --admin-port 8881 --sequencer false
//
// Environment (deliberately not CAIRN_*, which the node reads itself):
//   FOLLOW_NODE_URL     public JSON-RPC URL of the node to follow (default http://127.0.0.1:8080)
//   FOLLOW_L1_URL       the L1's JSON-RPC URL, when it is known; otherwise
//   FOLLOW_L1_URL_FILE  a file holding it: a node running the embedded L1 writes its URL to
//                       <dataDir>/l1/anvil.url while it runs
//   FOLLOW_TIMEOUT_S    how long to wait for the node and the L1 (default 300)
//
// Signals are passed on to the node, and the script exits with its code.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The L1 contracts a node needs to be told (the others are read from the rollup or are absent). */
export const DEPLOYED_CONTRACTS = [
  'rollupAddress',
  'registryAddress',
  'inboxAddress',
  'outboxAddress',
  'feeJuiceAddress',
  'feeJuicePortalAddress',
];

/**
 * The `cairn` arguments of a follower of the node described by `info` (svc_getNodeInfo), on the L1
 * at `l1Url`, bootstrapping its P2P network from `enr` (null when the node runs no P2P). `extra`
 * comes last, so an explicit flag there overrides a derived one.
 */
export function followerArgs(info, l1Url, enr, extra = []) {
  const addresses = {};
  for (const key of DEPLOYED_CONTRACTS) {
    const value = info.l1ContractAddresses?.[key];
    if (typeof value !== 'string') throw new Error(`the node's info has no l1ContractAddresses.${key}`);
    addresses[key] = value;
  }
  return [
    'start',
    '--l1-rpc-url',
    l1Url,
    '--l1-contract-addresses',
    JSON.stringify(addresses),
    '--l1-chain-id',
    String(info.l1ChainId),
    '--rollup-version',
    String(info.rollupVersion),
    ...(enr ? ['--p2p-bootstrap-nodes', enr] : []),
    ...extra,
  ];
}

async function rpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(5000),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Retries `probe` every second until it returns a value or `deadline` passes. */
async function until(what, deadline, probe) {
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function main() {
  const nodeUrl = process.env.FOLLOW_NODE_URL || 'http://127.0.0.1:8080';
  const urlFile = process.env.FOLLOW_L1_URL_FILE;
  const timeoutS = Number(process.env.FOLLOW_TIMEOUT_S || 300);
  if (!process.env.FOLLOW_L1_URL && !urlFile) throw new Error('set FOLLOW_L1_URL or FOLLOW_L1_URL_FILE');
  const deadline = Date.now() + timeoutS * 1000;
  const log = (line) => process.stderr.write(`follow: ${line}\n`);

  log(`waiting for the node at ${nodeUrl}`);
  const info = await until(`the node at ${nodeUrl}`, deadline, () => rpc(nodeUrl, 'svc_getNodeInfo'));
  // Read once the node answers: by then its embedded L1 runs and the file names its current URL.
  const l1Url = await until(`the L1 URL`, deadline, async () => {
    const url =
      process.env.FOLLOW_L1_URL || (existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim() : '');
    if (url === '') return undefined;
    const chainId = Number(await rpc(url, 'eth_chainId'));
    if (chainId !== info.l1ChainId)
      throw new Error(`the L1 at ${url} has chain id ${chainId}, the node's is ${info.l1ChainId}`);
    return url;
  });
  const enr = await rpc(nodeUrl, 'svc_getEncodedEnr');
  const args = followerArgs(info, l1Url, enr, process.argv.slice(2));
  log(
    `following the node at ${nodeUrl}: L1 ${l1Url} (chain ${info.l1ChainId}), rollup ` +
      `${info.l1ContractAddresses.rollupAddress}, ${enr ? 'P2P through its node record' : 'no P2P (the node runs none)'}`,
  );

  const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`follow: ${err.message}\n`);
    process.exit(1);
  });
}
