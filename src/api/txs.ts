// The tx and fee methods' handlers, each added to its declaration in src/client/methods/txs.ts
// (names, params, result schema and words, shared with the typed client), and the ports they call.
import { callsDeclarations } from '../client/methods/calls.js';
import { MAX_RPC_TXS } from '../client/methods/tx-schemas.js';
import { txsDeclarations } from '../client/methods/txs.js';
import type { Fr } from '../core/field.js';
import type { Tx } from '../core/tx.js';
import { toTx, type WireTx } from '../core/tx-codecs.js';
import { type PublicCallRequest, txView, withoutProof } from '../core/tx-view.js';
import type { TxService } from '../mempool/tx-service.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';

/** What the tx methods call: the tx service's admission, pool, receipt and fee members. */
export interface TxApiPorts {
  txs: Pick<
    TxService,
    | 'sendTx'
    | 'isValidTx'
    | 'pendingCount'
    | 'getTxEffect'
    | 'getTxReceipt'
    | 'getPendingTx'
    | 'getHeldTx'
    | 'getPendingTxs'
    | 'simulatePublicCalls'
    | 'currentMinFees'
    | 'predictedMinFees'
    | 'maxPriorityFees'
  >;
}

export function txMethods({ txs }: TxApiPorts): RpcMethod[] {
  /** A tx as returned: with its hash, its proof only when asked. */
  const out = (t: Tx, hash: Fr, includeProof = false): WireTx =>
    ({ txHash: hash, ...(includeProof ? t : withoutProof(t)) }) as WireTx;
  const pendingTxs = (limit: number, after: Fr | undefined, includeProof?: boolean) =>
    txs
      .getPendingTxs(limit, after)
      .map((e) => out((includeProof && txs.getPendingTx(e.hash, true)) || e.tx, e.hash, includeProof));

  return [
    ...defineMethods(txsDeclarations.sendTx.namespaces, {
      ...txsDeclarations.sendTx.spec,
      handler: async (wire) => {
        const { tx: t, claimedHash } = toTx(wire);
        await txs.sendTx(t, claimedHash);
      },
    }),
    ...defineMethods(txsDeclarations.isValidTx.namespaces, {
      ...txsDeclarations.isValidTx.spec,
      handler: (wire, options) => {
        const { tx: t, claimedHash } = toTx(wire);
        return txs.isValidTx(t, claimedHash, options ?? {});
      },
    }),
    ...defineMethods(txsDeclarations.getPendingTxCount.namespaces, {
      ...txsDeclarations.getPendingTxCount.spec,
      handler: () => txs.pendingCount,
    }),
    ...defineMethods(txsDeclarations.getTxEffect.namespaces, {
      ...txsDeclarations.getTxEffect.spec,
      handler: (hash) => txs.getTxEffect(hash),
    }),
    ...defineMethods(
      txsDeclarations.getTxReceipt.namespaces,
      {
        ...txsDeclarations.getTxReceipt.spec,
        handler: (hash, options) => {
          const receipt = txs.getTxReceipt(hash, options ?? {});
          if (receipt.status !== 'pending') return receipt;
          const { tx: pending, ...rest } = receipt;
          return pending ? { ...rest, tx: out(pending, hash, options?.includeProof) } : rest;
        },
      },
      {
        node: {
          ...txsDeclarations.getTxReceipt.overrides.node,
          handler: (hash) => {
            const r = txs.getTxReceipt(hash);
            if (r.status === 'pending') return { txHash: hash, status: 'pending' as const, error: '' };
            if (r.status === 'dropped') return { txHash: hash, status: 'dropped' as const, error: r.error };
            return {
              txHash: hash,
              status: 'mined' as const,
              error: r.error ?? '',
              executionResult: r.executionResult,
              transactionFee: r.transactionFee,
              blockHash: r.blockHash,
              blockNumber: r.blockNumber,
            };
          },
        },
      },
    ),
    ...defineMethods(
      txsDeclarations.getTxByHash.namespaces,
      {
        ...txsDeclarations.getTxByHash.spec,
        handler: (hash, options) => {
          const t = txs.getPendingTx(hash, options?.includeProof);
          return t && out(t, hash, options?.includeProof);
        },
      },
      {
        node: {
          ...txsDeclarations.getTxByHash.overrides.node,
          handler: (hash) => {
            const t = txs.getPendingTx(hash);
            return t && out(t, hash);
          },
        },
      },
    ),
    defineMethod({
      ...txsDeclarations.svc_getTxsByHash,
      handler: (hashes, options) =>
        hashes.flatMap((h) => {
          const t = txs.getPendingTx(h, options?.includeProof);
          return t ? [out(t, h, options?.includeProof)] : [];
        }),
    }),
    ...defineMethods(
      txsDeclarations.getPendingTxs.namespaces,
      {
        ...txsDeclarations.getPendingTxs.spec,
        handler: (limit, after, options) => pendingTxs(limit ?? MAX_RPC_TXS, after, options?.includeProof),
      },
      {
        node: {
          ...txsDeclarations.getPendingTxs.overrides.node,
          handler: (limit, after) => pendingTxs(limit ?? MAX_RPC_TXS, after),
        },
      },
    ),
    ...defineMethods(
      txsDeclarations.simulatePublicCalls.namespaces,
      {
        ...txsDeclarations.simulatePublicCalls.spec,
        handler: async (wire, skip, overrides) => {
          const output = await txs.simulatePublicCalls(toTx(wire).tx, skip ?? false, overrides ?? {});
          return { ...output, transactionFee: output.txEffect.transactionFee };
        },
      },
      {
        node: {
          ...txsDeclarations.simulatePublicCalls.overrides.node,
          handler: (wire, skip) => txs.simulatePublicCalls(toTx(wire).tx, skip ?? false),
        },
      },
    ),
    defineMethod({
      ...callsDeclarations.svc_getTxPublicCalls,
      handler: (hash) => {
        const held = txs.getHeldTx(hash);
        return held && { txHash: hash, status: held.status, calls: enqueuedCalls(held.tx) };
      },
    }),
    defineMethod({ ...txsDeclarations.svc_getCurrentMinFees, handler: () => txs.currentMinFees() }),
    defineMethod({ ...txsDeclarations.node_getCurrentBaseFees, handler: () => txs.currentMinFees() }),
    defineMethod({
      ...txsDeclarations.svc_getPredictedMinFees,
      handler: (usage) => txs.predictedMinFees(usage ?? 'target'),
    }),
    defineMethod({ ...txsDeclarations.svc_getMaxPriorityFees, handler: () => txs.maxPriorityFees() }),
  ];
}

/** A tx's enqueued public calls in execution order, each with its calldata (found by its hash). */
function enqueuedCalls(tx: Tx) {
  const calldata = new Map(tx.publicFunctionCalldata.map((c) => [c.hash, c.values]));
  const v = txView(tx);
  const phases: [phase: 'setup' | 'app' | 'teardown', requests: PublicCallRequest[]][] = [
    ['setup', v.nonRevertible.publicCallRequests],
    ['app', v.revertible.publicCallRequests],
    ['teardown', v.publicTeardownCallRequest ? [v.publicTeardownCallRequest] : []],
  ];
  return phases.flatMap(([phase, requests]) =>
    requests.map((r) => ({
      phase,
      contractAddress: r.contractAddress,
      msgSender: r.msgSender,
      isStaticCall: r.isStaticCall,
      calldata: calldata.get(r.calldataHash) ?? [],
    })),
  );
}
