// The errors the methods' handlers can return, as OpenRPC error objects: cairn's code
// (docs/rpc.md, "Errors") and the message the node sends, `…` where it puts a value. Each is the
// message of a NodeError thrown on the way from a handler (the file that throws it is named), so
// a method's declaration lists what its handler and the components it calls refuse.
// test/client/methods/examples.test.ts holds them to the source both ways: each message here is
// one the source throws, and each message the source throws is declared by some method (or named
// there as one no method reaches). The
// transport's errors every method shares — params that fail their schema, rate and size limits,
// the admin port's API key, internal errors — are added by src/rpc/openrpc.ts, not here.
import { RpcCode } from '../../rpc/errors.js';
import type { MethodError } from '../../rpc/registry.js';

const refused = (message: string): MethodError => ({ code: RpcCode.Refused, message });
const unavailable = (message: string): MethodError => ({ code: RpcCode.Unavailable, message });
const invalid = (message: string): MethodError => ({ code: RpcCode.InvalidParams, message });

// ---- reference blocks (src/queries/state.ts resolve, src/world-state/world-state.ts) ------------

/** A block a reference names that the chain does not have, or whose state is gone. */
export const REFERENCE_BLOCK_ERRORS: readonly MethodError[] = [
  refused('block … is not synced yet: the latest block is …'),
  refused('… not found'),
  refused(
    '… is not in the chain: if the node was queried with an anchor block hash, a reorg may have happened',
  ),
  refused('block … is not in the world state yet: the latest block is …'),
  refused('block … is no longer available: world-state history starts at block …'),
];

/** A reference block the chain does not have (src/queries/state.ts resolve), for reads not of the state. */
export const RESOLVE_ERRORS: readonly MethodError[] = REFERENCE_BLOCK_ERRORS.slice(0, 3);

/** A reference block that a block number or `latest` gives: only a number can be missing. */
export const BLOCK_NUMBER_ERRORS: readonly MethodError[] = [
  refused('block … is not synced yet: the latest block is …'),
  refused('block … is not in the world state yet: the latest block is …'),
  refused('block … is no longer available: world-state history starts at block …'),
];

// ---- state (src/queries/state.ts, src/world-state/view.ts) --------------------------------------

export const NULLIFIER_PRESENT = refused(
  'cannot prove nullifier non-inclusion: nullifier … already exists in the tree at block …',
);
export const LEAF_INDEX_BEYOND_TREE = invalid('leaf index … is beyond …, which has room for 2^… leaves');

// ---- logs (src/queries/logs.ts) -------------------------------------------------------------

export const TX_HASH_WITH_RANGE = invalid('txHash cannot be combined with fromBlock or toBlock');
export const FROM_AFTER_TO = invalid('fromBlock (…) must not be after toBlock (…); toBlock is exclusive');

// ---- messages (src/queries/messages.ts) ------------------------------------------------------

export const L2_TO_L1_MESSAGE_ERRORS: readonly MethodError[] = [
  invalid('Message at index … in tx does not match the expected message 0x…'),
  invalid('L2-to-L1 message 0x… does not exist in the tx'),
  invalid(
    'Multiple messages with the same value 0x… found in tx (indices: …); provide messageIndexInTx to disambiguate',
  ),
];

// ---- txs (src/mempool/admission.ts, src/mempool/simulation.ts) ------------------------------

export const TX_REJECTED: MethodError = {
  code: RpcCode.TxRejected,
  message: 'Invalid tx: …',
};
export const TX_KNOWN = refused('tx … is already known');
export const TX_MINED = refused('tx … is already known: it is in block …');
export const MEMPOOL_FULL = refused(
  'the mempool is full and the tx does not pay a higher priority fee than any pending tx',
);

// ---- node info (src/node/status.ts) ---------------------------------------------------------

export const BAD_SIGNATURE = invalid('function signature must not contain whitespace: …');

// ---- validators and P2P (src/queries/validators.ts) -----------------------------------------

export const P2P_OFF = unavailable('P2P is disabled on this node (start it with --p2p)');
export const NO_SLASHER = unavailable(
  'this rollup has no Slasher (it was deployed by an older cairn): there are no slash payloads',
);

// ---- admin (src/node/admin.ts, src/node/snapshots.ts) ---------------------------------------

export const CONFIG_ERRORS: readonly MethodError[] = [
  invalid('realProofs cannot be true: cairn verifies tx proofs with its dev verifier only'),
  invalid('syncState is …: it changes through svcAdmin_pauseSync / svcAdmin_resumeSync, not setConfig'),
  invalid(
    'sequencerState is …: it changes through svcAdmin_pauseSequencer / svcAdmin_resumeSequencer, not setConfig',
  ),
  invalid('minTxsPerBlock (…) cannot exceed maxTxsPerBlock (…)'),
];
export const NO_SEQUENCER = unavailable('Cannot … sequencer: no sequencer is running on this node');
export const ROLLBACK_ERRORS: readonly MethodError[] = [
  refused('Cannot roll back to block …: the latest block is …'),
  refused(
    'Cannot roll back to block …: it is before the finalized block … (force clears and rebuilds the world state)',
  ),
  refused('Cannot start a rollback: a rollback is in progress'),
  // The world state's own check (src/world-state/world-state.ts), past the archiver's.
  refused(
    'cannot roll back to block …: world-state history starts at block … (a forced rollback rebuilds it)',
  ),
];
export const KEYSTORE_ERRORS: readonly MethodError[] = [
  unavailable('Cannot reload the keystore: no sequencer is running'),
  refused('keystore reload rejected: …'),
  refused(
    'keystore reload rejected: validator … uses publisher …, which was not configured at startup; publishers cannot be hot-reloaded (restart the node to add one)',
  ),
];
export const SNAPSHOT_UPLOAD_ERRORS: readonly MethodError[] = [
  invalid("invalid snapshot location '…': …"),
  invalid('http(s) snapshot locations are read-only: upload to file:// or s3://'),
  refused('Snapshot upload already in progress (to …)'),
  refused('Cannot take a snapshot: the node has no blocks past genesis yet'),
];

// ---- dev (src/node/dev.ts, src/node/dev-snapshots.ts, src/mempool/tx-service.ts) ---------------

export const DEV_WRITE_ERRORS: readonly MethodError[] = [
  unavailable(
    'cannot write to the state: no sequencer runs on this node (--sequencer false), and a write is carried by a block it builds',
  ),
  refused(
    'cannot write to the state while … is paused: the write is carried by the next block this node builds',
  ),
  refused(
    "the write was not taken into a block within … slots (see the sequencer's log); nothing was written",
  ),
];
export const BALANCE_ABOVE_U128 = invalid('a Fee Juice balance is a u128: … is above 2^128 - 1');
export const L1_TX_REVERTED = refused('the L1 transaction … reverted');
export const SLOT_NOT_IN_FUTURE = invalid('slot … is not in the future: the L1 is in slot …');
export const UNKNOWN_SNAPSHOT = refused(
  'no dev snapshot 0x…: never taken, or consumed by a revert to it or to an earlier one, or by a reset (snapshots do not survive a restart)',
);
export const NO_L1_GENESIS = refused(
  'cannot reset: this data directory has no saved genesis of its embedded L1 (it was made by a cairn older than svcDev_reset after a restart); start the node on a new data directory, e.g. --ephemeral, to begin at genesis',
);
export const DROP_TX_ERRORS: readonly MethodError[] = [
  refused('tx … is mined…: only a pending tx can be dropped'),
  refused('tx … is not in the mempool'),
];
