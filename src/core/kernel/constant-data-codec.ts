// The binary form of TxConstantData (648 bytes) and its parts, in the reference's order:
//   anchorBlockHeader 440:
//     lastArchive (root 32, nextAvailableLeafIndex u32)
//     state: l1ToL2MessageTree, then partial noteHashTree, nullifierTree, publicDataTree (each as lastArchive)
//     spongeBlobHash 32
//     globalVariables: chainId 32, version 32, blockNumber u32, slotNumber u32, timestamp u64,
//       coinbase 20, feeRecipient 32, gasFees (feePerDaGas u128, feePerL2Gas u128)
//     totalFees 32, totalManaUsed 32
//   txContext 144: chainId 32, version 32, gasSettings (gasLimits, teardownGasLimits: daGas u32,
//     l2Gas u32 each; maxFeesPerGas, maxPriorityFeesPerGas: u128 pairs)
//   vkTreeRoot 32, protocolContractsHash 32
// A header's field form (for the hash) is blockHeaderToFields in ../block-header.ts.

import type { AppendOnlyTreeSnapshot, BlockHeader, GasFees } from '../block-header.js';
import type { ByteReader, ByteWriter } from './bytes.js';
import type { Gas, GasSettings, TxConstantData, TxContext } from './public-inputs.js';

function readSnapshot(r: ByteReader, what: string): AppendOnlyTreeSnapshot {
  return { root: r.fr(`${what}.root`), nextAvailableLeafIndex: r.u32(`${what}.nextAvailableLeafIndex`) };
}

function writeSnapshot(w: ByteWriter, s: AppendOnlyTreeSnapshot, what: string): void {
  w.fr(s.root, `${what}.root`);
  w.u32(s.nextAvailableLeafIndex, `${what}.nextAvailableLeafIndex`);
}

export function readGasFees(r: ByteReader, what: string): GasFees {
  return { feePerDaGas: r.u128(`${what}.feePerDaGas`), feePerL2Gas: r.u128(`${what}.feePerL2Gas`) };
}

export function writeGasFees(w: ByteWriter, fees: GasFees, what: string): void {
  w.u128(fees.feePerDaGas, `${what}.feePerDaGas`);
  w.u128(fees.feePerL2Gas, `${what}.feePerL2Gas`);
}

export function readGas(r: ByteReader, what: string): Gas {
  return { daGas: r.u32(`${what}.daGas`), l2Gas: r.u32(`${what}.l2Gas`) };
}

export function writeGas(w: ByteWriter, gas: Gas, what: string): void {
  w.u32(gas.daGas, `${what}.daGas`);
  w.u32(gas.l2Gas, `${what}.l2Gas`);
}

export function readBlockHeader(r: ByteReader, what = 'anchorBlockHeader'): BlockHeader {
  const lastArchive = readSnapshot(r, `${what}.lastArchive`);
  const l1ToL2MessageTree = readSnapshot(r, `${what}.state.l1ToL2MessageTree`);
  const noteHashTree = readSnapshot(r, `${what}.state.partial.noteHashTree`);
  const nullifierTree = readSnapshot(r, `${what}.state.partial.nullifierTree`);
  const publicDataTree = readSnapshot(r, `${what}.state.partial.publicDataTree`);
  const spongeBlobHash = r.fr(`${what}.spongeBlobHash`);
  const g = `${what}.globalVariables`;
  const globalVariables = {
    chainId: r.fr(`${g}.chainId`),
    version: r.fr(`${g}.version`),
    blockNumber: r.u32(`${g}.blockNumber`),
    slotNumber: r.u32(`${g}.slotNumber`),
    timestamp: r.u64(`${g}.timestamp`),
    coinbase: r.ethAddress(`${g}.coinbase`),
    feeRecipient: r.fr(`${g}.feeRecipient`),
    gasFees: readGasFees(r, `${g}.gasFees`),
  };
  return {
    lastArchive,
    state: { l1ToL2MessageTree, partial: { noteHashTree, nullifierTree, publicDataTree } },
    spongeBlobHash,
    globalVariables,
    totalFees: r.fr(`${what}.totalFees`),
    totalManaUsed: r.fr(`${what}.totalManaUsed`),
  };
}

export function writeBlockHeader(w: ByteWriter, h: BlockHeader, what = 'anchorBlockHeader'): void {
  writeSnapshot(w, h.lastArchive, `${what}.lastArchive`);
  writeSnapshot(w, h.state.l1ToL2MessageTree, `${what}.state.l1ToL2MessageTree`);
  writeSnapshot(w, h.state.partial.noteHashTree, `${what}.state.partial.noteHashTree`);
  writeSnapshot(w, h.state.partial.nullifierTree, `${what}.state.partial.nullifierTree`);
  writeSnapshot(w, h.state.partial.publicDataTree, `${what}.state.partial.publicDataTree`);
  w.fr(h.spongeBlobHash, `${what}.spongeBlobHash`);
  const g = h.globalVariables;
  const gw = `${what}.globalVariables`;
  w.fr(g.chainId, `${gw}.chainId`);
  w.fr(g.version, `${gw}.version`);
  w.u32(g.blockNumber, `${gw}.blockNumber`);
  w.u32(g.slotNumber, `${gw}.slotNumber`);
  w.u64(g.timestamp, `${gw}.timestamp`);
  w.ethAddress(g.coinbase, `${gw}.coinbase`);
  w.fr(g.feeRecipient, `${gw}.feeRecipient`);
  writeGasFees(w, g.gasFees, `${gw}.gasFees`);
  w.fr(h.totalFees, `${what}.totalFees`);
  w.fr(h.totalManaUsed, `${what}.totalManaUsed`);
}

function readGasSettings(r: ByteReader): GasSettings {
  return {
    gasLimits: readGas(r, 'gasSettings.gasLimits'),
    teardownGasLimits: readGas(r, 'gasSettings.teardownGasLimits'),
    maxFeesPerGas: readGasFees(r, 'gasSettings.maxFeesPerGas'),
    maxPriorityFeesPerGas: readGasFees(r, 'gasSettings.maxPriorityFeesPerGas'),
  };
}

function writeGasSettings(w: ByteWriter, s: GasSettings): void {
  writeGas(w, s.gasLimits, 'gasSettings.gasLimits');
  writeGas(w, s.teardownGasLimits, 'gasSettings.teardownGasLimits');
  writeGasFees(w, s.maxFeesPerGas, 'gasSettings.maxFeesPerGas');
  writeGasFees(w, s.maxPriorityFeesPerGas, 'gasSettings.maxPriorityFeesPerGas');
}

function readTxContext(r: ByteReader): TxContext {
  return {
    chainId: r.fr('txContext.chainId'),
    version: r.fr('txContext.version'),
    gasSettings: readGasSettings(r),
  };
}

export function readTxConstantData(r: ByteReader): TxConstantData {
  return {
    anchorBlockHeader: readBlockHeader(r),
    txContext: readTxContext(r),
    vkTreeRoot: r.fr('vkTreeRoot'),
    protocolContractsHash: r.fr('protocolContractsHash'),
  };
}

export function writeTxConstantData(w: ByteWriter, c: TxConstantData): void {
  writeBlockHeader(w, c.anchorBlockHeader);
  w.fr(c.txContext.chainId, 'txContext.chainId');
  w.fr(c.txContext.version, 'txContext.version');
  writeGasSettings(w, c.txContext.gasSettings);
  w.fr(c.vkTreeRoot, 'vkTreeRoot');
  w.fr(c.protocolContractsHash, 'protocolContractsHash');
}
