// A small valid private tx, as many tests and benches need one: chain 31337, version 1, a fee of
// 1,000 per L2 gas, far from expiring, one note hash, built on `anchorBlockHeader`. `nullifier`
// (its protocol nullifier; the note hash is nullifier + 1) makes each distinct.
import type { BlockHeader } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { buildTx } from '../../src/core/tx-builder.js';

export const simplePrivateTx = (o: { feePayer: Fr; anchorBlockHeader: BlockHeader; nullifier: Fr }) =>
  buildTx({
    feePayer: o.feePayer,
    anchorBlockHeader: o.anchorBlockHeader,
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1000n },
    protocolNullifier: o.nullifier,
    noteHashes: [o.nullifier + 1n],
  });
