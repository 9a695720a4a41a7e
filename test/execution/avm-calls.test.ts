// Public calls to published contracts run on the AVM inside real txs: the reference Token (and the
// canonical AuthRegistry it calls for authwits) is deployed on a fork of a funded world state, and
// every step of the Token golden vectors (test/avm/vectors/token.json, one tx each) is sent as a
// tx through executeTx. Each must succeed or revert as the reference did, return what it returned,
// be charged the AVM's gas as public gas, and leave its storage writes, nullifiers and logs in the
// tx effect. Needs the npm artifacts (CAIRN_SKIP_ARTIFACTS=1 skips it).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ensureArtifacts, publicDispatchBytecode } from '../../src/artifacts/npm-artifacts.js';
import { RevertCode } from '../../src/core/block.js';
import { emptyBlockHeader, emptyGlobalVariables, type GlobalVariables } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { buildTx } from '../../src/core/tx-builder.js';
import type { PublicContracts } from '../../src/execution/avm-calls.js';
import { applyTxEffect } from '../../src/execution/block-builder.js';
import { devAccounts, devAccountsGenesisData } from '../../src/execution/dev-accounts.js';
import { executeTx } from '../../src/execution/executor.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { WorldState } from '../../src/world-state/world-state.js';
import type { VectorContract, VectorFile, VectorStep } from '../avm/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-avm-calls-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const vectors = JSON.parse(
  readFileSync(join(import.meta.dirname, '../avm/vectors/token.json'), 'utf8'),
) as VectorFile;

const fr = (hex: string): Fr => BigInt(hex);
const hex = (v: Fr) => `0x${v.toString(16)}`;
const [payer] = devAccounts(1);

describe('executeTx: public calls to published contracts run on the AVM', {
  skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
}, () => {
  test('every Token vector step as a tx: the reference outcome, return values, gas and effects', async () => {
    await ensureArtifacts();
    const bytecodes = new Map<Fr, Uint8Array>();
    const instances = new Map<Fr, VectorContract>();
    for (const c of vectors.contracts) {
      bytecodes.set(fr(c.classId), publicDispatchBytecode(c.artifact!.package, c.artifact!.file));
      instances.set(fr(c.address), c);
    }
    const contracts: PublicContracts = {
      instance(address) {
        const c = instances.get(address);
        return (
          c && {
            deployer: fr(c.deployer),
            originalClassId: fr(c.classId),
            initializationHash: fr(c.initializationHash),
          }
        );
      },
      bytecode: (classId) => bytecodes.get(classId),
    };
    const ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisPublicData: devAccountsGenesisData([payer!]),
      genesisBlockHash: genesisBlockHashOf,
    });
    const g = vectors.globals;
    const globals: GlobalVariables = {
      ...emptyGlobalVariables(),
      chainId: fr(g.chainId!),
      version: fr(g.version!),
      blockNumber: 1,
      slotNumber: 1,
      timestamp: BigInt(g.timestamp!),
      gasFees: { feePerDaGas: 1n, feePerL2Gas: 1n },
    };
    let nonce = 0x5000n;
    const send = (over: Parameters<typeof buildTx>[0] extends infer S ? Partial<S> : never) => {
      const { tx, hash } = buildTx({
        feePayer: payer!.address,
        anchorBlockHeader: emptyBlockHeader(),
        chainId: Number(globals.chainId),
        version: Number(globals.version),
        expirationTimestamp: 2n ** 40n,
        maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
        protocolNullifier: nonce++,
        ...over,
      });
      const result = executeTx(fork, tx, hash, globals, { contracts });
      applyTxEffect(fork, result.effect);
      return result;
    };
    const fork = ws.fork();
    // Publishing the instances: their deployment nullifiers (the canonical AuthRegistry needs none).
    send({
      nullifiers: vectors.contracts.filter((c) => !c.canonical).map((c) => fr(c.deploymentNullifier!)),
    });

    // Steps with the same tx number are one tx of several calls (SSTORE's first-write charge and
    // the limits count the whole tx).
    const txs = new Map<number, VectorStep[]>();
    for (const step of vectors.steps) txs.set(step.tx, [...(txs.get(step.tx) ?? []), step]);
    for (const steps of txs.values()) {
      // The calls get what the reference gave them: all they may use, or a step's small limit.
      const limit = Math.min(...steps.map((s) => s.call.l2GasLimit));
      const privateL2 = buildTx({
        feePayer: payer!.address,
        anchorBlockHeader: emptyBlockHeader(),
        chainId: 1,
        version: 1,
        expirationTimestamp: 1n,
        maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
        gasLimits: { l2Gas: 0, daGas: 0 },
      }).tx.data.gasUsed.l2Gas;
      const result = send({
        gasLimits: { l2Gas: privateL2 + Math.min(limit, 6_000_000), daGas: 1_000_000 },
        publicCalls: steps.map(({ call }) => ({
          contractAddress: fr(call.address),
          selector: Number(fr(call.calldata[0]!)),
          args: call.calldata.slice(1).map(fr),
          msgSender: fr(call.sender),
          isStaticCall: call.isStaticCall,
        })),
      });
      const where = steps.map((s) => s.name).join(' + ');
      const reverted = steps.some((s) => s.expect.reverted);
      assert.equal(result.effect.revertCode !== RevertCode.OK, reverted, `${where}: ${result.revertReason}`);
      if (reverted) {
        assert.match(result.revertReason!, /^App logic reverted: /, where);
        // A revert with data keeps it in the reason, and as the result's revert data.
        const data = steps.at(-1)!.expect.output;
        for (const word of data) assert.ok(result.revertReason!.includes(word.slice(2)), where);
        assert.deepEqual(result.revertData?.map(hex) ?? [], data, `${where}: revert data`);
      } else {
        for (const [k, s] of steps.entries()) {
          assert.deepEqual(
            result.publicReturnValues[k]!.values.map(hex),
            s.expect.output,
            `${s.name}: return values`,
          );
        }
      }
      // An exceptional halt burns the gas the call was given, which differs here; the rest is exact.
      if (!steps.some((s) => s.expect.l2GasUsed === s.call.l2GasLimit)) {
        const sum = (f: (s: VectorStep) => number) => steps.reduce((n, s) => n + f(s), 0);
        assert.equal(
          result.gasUsed.publicGas.l2Gas,
          sum((s) => s.expect.l2GasUsed),
          `${where}: L2 gas`,
        );
        assert.equal(
          result.gasUsed.publicGas.daGas,
          sum((s) => s.expect.daGasUsed),
          `${where}: DA gas`,
        );
      }
      if (reverted) continue;
      const writes = new Map(result.effect.publicDataWrites.map((w) => [hex(w.leafSlot), hex(w.value)]));
      const last = new Map(
        steps.flatMap((s) => s.expect.storageWrites).map((w) => [hex(fr(w.leafSlot)), hex(fr(w.value))]),
      );
      for (const [slot, value] of last) assert.equal(writes.get(slot), value, `${where}: write ${slot}`);
      const nullifiers = result.effect.nullifiers.map(hex);
      for (const n of steps.flatMap((s) => s.expect.nullifiers))
        assert.ok(nullifiers.includes(hex(fr(n))), `${where}: nullifier ${n}`);
      assert.deepEqual(
        result.effect.publicLogs.map((l) => ({
          contract: hex(l.contractAddress),
          fields: l.fields.map(hex),
        })),
        steps
          .flatMap((s) => s.expect.publicLogs)
          .map((l) => ({ contract: hex(fr(l.contract)), fields: l.fields })),
        `${where}: public logs`,
      );
    }
    await ws.close();
  });
});
