// First-task commands against a running node: `cairn status`, `cairn block [n]`,
// `cairn receipt <hash> [--wait]` and `cairn balance <who>` (Fee Juice).
//   cairn status
//   cairn balance account:0
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { type Receipt, type SettledReceipt, waitForReceipt } from '../client/contracts.js';
import { NodeClient } from '../client/node-client.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { type Fr, toHex32 } from '../core/field.js';
import { FEE_JUICE_BALANCES_SLOT } from '../execution/protocol-contracts.js';
import { mapStorageSlot } from '../execution/public-storage.js';
import { ACCOUNT_FORMS, accountArg, devAccountAddress, isAccountText } from './accounts.js';
import { blockNumber } from './args.js';
import { helpAfter } from './help-layout.js';
import {
  addressArg,
  DEFAULT_ADMIN_URL,
  nodeAction,
  nodeStatus,
  print,
  withNodeOptions,
} from './node-command.js';

interface Options {
  rpcUrl: string;
  json?: boolean;
}

/** Fee Juice has 18 decimals. */
const FEE_JUICE_UNIT = 10n ** 18n;

/** An amount in whole Fee Juice: `1,000,000 FJ`, `0.5 FJ`. */
export function formatFeeJuice(amount: bigint): string {
  const whole = amount / FEE_JUICE_UNIT;
  const fraction = (amount % FEE_JUICE_UNIT).toString().padStart(18, '0').replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${fraction ? `.${fraction}` : ''} FJ`;
}

/** A fee (or any amount of Fee Juice) with its unit, and exactly in base units. */
export const formatFee = (amount: bigint): string => `${formatFeeJuice(amount)} (${amount} base units)`;

/** Whether a receipt says the tx failed: dropped, or reverted in its block (exit code 1). */
export const receiptFailed = (r: Receipt): boolean =>
  r.status === 'dropped' || (r.status !== 'pending' && r.executionResult === 'reverted');

/**
 * A receipt in one line: `status     success in block 5 (proposed), fee 0.0012 FJ (…)`, or
 * reverted with the reason (`reason` words it better when the caller can decode the revert data),
 * pending or dropped. `sent`: the node took this tx from us, so a "dropped" receipt means it was
 * dropped; otherwise the node may never have seen it (it keeps no record of dropped txs).
 */
export function receiptLine(r: Receipt, reason?: string, sent = true): string {
  if (r.status === 'pending') return 'status     pending (in the mempool, not yet in a block)';
  if (r.status === 'dropped')
    return sent
      ? 'status     dropped: the node took the tx, then dropped it (refused while building a block, replaced, or expired)'
      : 'status     unknown to this node: it never had this tx, or dropped it (a dropped tx is forgotten)';
  const where = `block ${r.blockNumber} (${r.status}), fee ${formatFee(BigInt(r.transactionFee ?? 0))}`;
  if (r.executionResult === 'success') return `status     success in ${where}`;
  return `status     reverted in ${where}: ${reason ?? r.error}`;
}

/**
 * Says, once, on stderr, what moves a manual clock: nothing moves it but the dev methods, so a
 * command waiting for a block (`l2`) or for an L1 block (`l1`) would otherwise wait in silence.
 */
let hinted = false;
export async function manualClockHint(
  client: NodeClient,
  command: string,
  waitsFor: 'l2' | 'l1',
): Promise<void> {
  if (hinted) return;
  const { clock } = await nodeStatus(client.url).catch(() => ({ clock: undefined }));
  if (clock !== 'manual') return;
  hinted = true;
  const admin = `on the node's admin port (${DEFAULT_ADMIN_URL} by default)`;
  let text: string;
  if (waitsFor === 'l2') {
    const slot = (await client.request('svc_getSyncedL2SlotNumber').catch(() => null)) ?? 0;
    text = `the tx waits in the mempool until L1 time moves to a new slot, whose proposer builds a block: call svcDev_advanceToSlot with params [${slot + 1}] ${admin}`;
  } else {
    text = `the L1 tx waits until an L1 block is mined: call svcDev_mine ${admin}`;
  }
  process.stderr.write(`cairn ${command}: the node's clock is manual: ${text}\n`);
}

/** waitForReceipt, saying first how to move the node's clock when it is manual. */
export async function waitForTx(client: NodeClient, hash: string, command: string): Promise<SettledReceipt> {
  const first = await client.request('svc_getTxReceipt', hash);
  if (first.status !== 'pending') return first;
  await manualClockHint(client, command, 'l2');
  return waitForReceipt(client, hash);
}

/** An address (0x-hex), or a dev account: N or account:N. */
function who(text: string): Fr {
  if (isAccountText(text)) return devAccountAddress(accountArg(text));
  try {
    return addressArg(text);
  } catch {
    throw new InvalidArgumentError(
      `expected an address (0x-hex) or a dev account, ${ACCOUNT_FORMS}; got ${text}`,
    );
  }
}

async function balance(address: Fr, o: Options): Promise<void> {
  const slot = mapStorageSlot(FEE_JUICE_BALANCES_SLOT, address);
  const value = BigInt(
    await new NodeClient(o.rpcUrl).request(
      'svc_getPublicStorageAt',
      'latest',
      toHex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
      toHex32(slot),
    ),
  );
  print(o.json, { address: toHex32(address), feeJuice: value.toString() }, [
    `${formatFeeJuice(value)} (${value} base units) at ${toHex32(address)}`,
  ]);
}

async function receipt(hash: string, o: Options & { wait?: boolean }): Promise<void> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash))
    throw new Error(`expected a tx hash (0x and 64 hex digits), got ${hash}`);
  const client = new NodeClient(o.rpcUrl);
  const r = o.wait
    ? await waitForTx(client, hash, 'receipt')
    : await client.request('svc_getTxReceipt', hash);
  // The receipt's shape is the specification's: an unknown hash answers "dropped". The node keeps
  // no record of the txs it dropped, so it cannot tell them from ones it never had.
  print(o.json, r, [`tx         ${r.txHash}`, receiptLine(r, undefined, false)]);
  if (r.status === 'dropped') process.exitCode = 1;
}

async function block(which: number | undefined, o: Options): Promise<void> {
  const client = new NodeClient(o.rpcUrl);
  const number = which ?? (await client.request('svc_getBlockNumber'));
  const [b, hash] = await Promise.all([
    client.request('node_getBlock', number),
    client.request('svc_getBlock', number).then((x) => x?.hash),
  ]);
  if (b === null)
    throw new Error(
      `there is no block ${number} (the latest is ${await client.request('svc_getBlockNumber')})`,
    );
  const g = b.header.globalVariables;
  const time = new Date(Number(g.timestamp) * 1000).toISOString();
  print(o.json, { hash, ...b }, [
    `block      ${g.blockNumber} ${hash}`,
    `slot       ${g.slotNumber}, checkpoint ${b.checkpointNumber}`,
    `time       ${time} (${g.timestamp})`,
    `txs        ${b.body.txEffects.length}`,
    ...b.body.txEffects.map(
      (t) =>
        `  ${t.txHash} ${t.revertCode === 0 ? 'success' : 'reverted'}, fee ${formatFee(BigInt(t.transactionFee))}`,
    ),
  ]);
}

async function status(o: Options): Promise<void> {
  const client = new NodeClient(o.rpcUrl);
  const [info, tips, sync, pending, ready] = await Promise.all([
    client.request('svc_getNodeInfo'),
    client.request('svc_getChainTips'),
    client.request('svc_getWorldStateSyncStatus'),
    client.request('svc_getPendingTxCount'),
    client.request('svc_isReady'),
  ]);
  print(o.json, { url: o.rpcUrl, ready, ...info, tips, sync, pendingTxs: pending }, [
    `node       cairn ${info.nodeVersion} at ${o.rpcUrl} (${ready ? 'ready' : 'not ready'})`,
    `chain      L1 chain id ${info.l1ChainId}, rollup version ${info.rollupVersion}`,
    `blocks     proposed ${tips.proposed.number}, checkpointed ${tips.checkpointed.block.number}, proven ${tips.proven.block.number}, finalized ${tips.finalized.block.number}`,
    `sync       ${sync.syncState ?? 'unknown'}`,
    `mempool    ${pending} pending tx(s)`,
  ]);
}

export function addChainCommands(program: Command): void {
  withNodeOptions(program.command('status').description("A running node's chain, tips, sync and mempool"))
    .addHelpText(
      'after',
      helpAfter({ heading: 'Example', commands: ['cairn status --rpc-url http://127.0.0.1:8080'] }),
    )
    .action(nodeAction('status', (o: Options) => status(o)));

  withNodeOptions(
    program
      .command('block')
      .description('A block: number, hash, slot, time and its txs (default: the latest)')
      .argument('[number]', 'Block number', blockNumber),
  )
    .addHelpText(
      'after',
      helpAfter({ heading: 'Examples', commands: ['cairn block', 'cairn block 12 --json'] }),
    )
    .action(nodeAction('block', (n: number | undefined, o: Options) => block(n, o)));

  withNodeOptions(
    program
      .command('receipt')
      .description(
        "A tx's receipt: pending, or in a block (with its result and fee); exit code 1 when the node does not know the tx",
      )
      .argument('<hash>', 'Tx hash (0x and 64 hex digits)')
      .option('--wait', 'Wait until the tx is in a block (or no longer known)'),
  )
    .addHelpText('after', helpAfter({ heading: 'Example', commands: ['cairn receipt 0x1f…c3 --wait'] }))
    .action(nodeAction('receipt', (h: string, o: Options & { wait?: boolean }) => receipt(h, o)));

  withNodeOptions(
    program
      .command('balance')
      .description('Fee Juice balance of an address, or of a dev account (N or account:N)')
      .argument('<who>', 'Address (0x-hex), or dev account: N or account:N', who),
  )
    .addHelpText(
      'after',
      helpAfter({ heading: 'Examples', commands: ['cairn balance 0', 'cairn balance 0x07ac…de54'] }),
    )
    .action(nodeAction('balance', (a: Fr, o: Options) => balance(a, o)));
}
