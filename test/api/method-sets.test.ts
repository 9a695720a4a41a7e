// The method sets as both ports publish them: every method's name, params, result and summary, as
// the OpenRPC document gives them, against a record of each method's document entry (a digest per
// method: the whole document is near a megabyte) without its recorded examples, which
// test/client/methods/examples.test.ts checks against the same schemas. A change to any method's wire form fails here,
// naming the methods that changed; a change meant to be made is recorded again with
// `CAIRN_RECORD_METHOD_SETS=1 node --import tsx --test test/api/method-sets.test.ts`.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type ApiNode, buildRegistry } from '../../src/api/index.js';
import { buildOpenRpcDocument } from '../../src/rpc/openrpc.js';
import type { PortKind } from '../../src/rpc/registry.js';
import { TEST_CONSTANTS } from '../helpers/tx-service-fixture.js';

const RECORD = join(import.meta.dirname, 'method-sets.record.json');

/** Declaring the methods calls no handler, so every port member is one that must not be called. */
const unused = (): never => {
  throw new Error('a handler ran while the methods were only declared');
};

/** The node's parts, each with exactly the members its topics' ports name. */
function declarationsOnly(dev: ApiNode['dev']): ApiNode {
  return {
    queries: {
      chain: {
        tips: unused,
        latestBlockNumber: unused,
        syncedSlot: unused,
        syncedEpoch: unused,
        syncedL1Timestamp: unused,
        block: unused,
        blocks: unused,
        blockResponse: unused,
        blockResponses: unused,
        checkpoint: unused,
        checkpointResponses: unused,
        checkpointsData: unused,
        blockNumberOf: unused,
      },
      state: {
        findLeavesIndexes: unused,
        nullifierMembershipWitness: unused,
        lowNullifierMembershipWitness: unused,
        publicDataWitness: unused,
        noteHashMembershipWitness: unused,
        publicStorageAt: unused,
        blockHashMembershipWitness: unused,
        archiveMembershipWitness: unused,
        siblingPath: unused,
      },
      logs: {
        privateLogsByTags: unused,
        publicLogsByTags: unused,
        logsByTags: unused,
        privateLogs: unused,
        publicLogs: unused,
        contractClassLogs: unused,
      },
      contracts: { contractClass: unused, contract: unused },
      messages: {
        l1ToL2MessageMembershipWitness: unused,
        l1ToL2MessageCheckpoint: unused,
        l1ToL2MessageBlock: unused,
        isL1ToL2MessageSynced: unused,
        l2ToL1MembershipWitness: unused,
        l2ToL1Messages: unused,
        l2ToL1MessagesOfBlock: unused,
      },
      validators: {
        getValidatorsStats: unused,
        getValidatorStats: unused,
        getPeers: unused,
        getCheckpointAttestationsForSlot: unused,
        getProposalsForSlot: unused,
        getSlashOffenses: unused,
        getSlashPayloads: unused,
      },
    },
    txs: {
      sendTx: unused,
      isValidTx: unused,
      pendingCount: 0,
      getTxEffect: unused,
      getTxReceipt: unused,
      getPendingTx: unused,
      getHeldTx: unused,
      getPendingTxs: unused,
      simulatePublicCalls: unused,
      currentMinFees: unused,
      predictedMinFees: unused,
      maxPriorityFees: unused,
    },
    info: {
      getNodeInfo: unused,
      isReady: unused,
      getEncodedEnr: unused,
      getAllowedPublicSetup: unused,
      getL1ContractAddresses: unused,
      registerFunctionSignatures: unused,
      functionSignatures: unused,
      getWorldStateSyncStatus: unused,
    },
    constants: TEST_CONSTANTS,
    admin: {
      getConfig: unused,
      setConfig: unused,
      pauseSync: unused,
      resumeSync: unused,
      pauseSequencer: unused,
      resumeSequencer: unused,
      rollbackTo: unused,
      reloadKeystore: unused,
    },
    snapshots: { start: unused },
    dev,
  };
}

const devOperations: NonNullable<ApiNode['dev']> = {
  mine: unused,
  advanceToSlot: unused,
  advanceToNextEpoch: unused,
  sendL1ToL2Message: unused,
  depositFeeJuice: unused,
  snapshot: unused,
  revert: unused,
  reset: unused,
  setStorageAt: unused,
  setBalance: unused,
  dropTx: unused,
  accounts: unused,
  setClock: unused,
};

type Record_ = Record<PortKind, Record<string, string>>;

/** Each method of a port with the digest of its entry in the port's OpenRPC document. */
function digests(node: ApiNode, port: PortKind): Record<string, string> {
  const doc = buildOpenRpcDocument(buildRegistry(node).forPort(port), {
    title: '',
    version: '',
    description: '',
  });
  const entries = doc.methods as { name: string; examples?: unknown }[];
  return Object.fromEntries(
    entries.map(({ examples: _recorded, ...m }) => [
      m.name,
      createHash('sha256').update(JSON.stringify(m)).digest('hex').slice(0, 24),
    ]),
  );
}

describe('the method sets of both ports', () => {
  const node = declarationsOnly(devOperations);
  const now: Record_ = { public: digests(node, 'public'), admin: digests(node, 'admin') };
  if (process.env.CAIRN_RECORD_METHOD_SETS === '1')
    writeFileSync(RECORD, `${JSON.stringify(now, null, 2)}\n`);
  const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Record_;

  for (const port of ['public', 'admin'] as const) {
    test(`the ${port} port publishes the recorded methods, each exactly as recorded`, () => {
      assert.deepEqual(Object.keys(now[port]), Object.keys(recorded[port]), 'the method names');
      const changed = Object.keys(now[port]).filter((name) => now[port][name] !== recorded[port][name]);
      assert.deepEqual(changed, [], 'methods whose OpenRPC entry changed');
    });
  }

  test('a method both sets have is declared once for both, with defineMethods', () => {
    const registry = buildRegistry(node);
    const sets = [
      ['svc', 'node'],
      ['svcAdmin', 'nodeAdmin'],
    ] as const;
    const declaredApart: string[] = [];
    for (const [current, earlier] of sets) {
      for (const method of registry.all().filter((m) => m.namespace === current)) {
        const twin = registry.get(`${earlier}_${method.name}`);
        if (twin === undefined) continue;
        const together = method.declaredIn?.includes(earlier) && twin.declaredIn?.includes(current);
        if (!together) declaredApart.push(method.fullName);
      }
    }
    assert.deepEqual(declaredApart, []);
  });

  test('without the dev operations no svcDev_ method is declared', () => {
    const names = Object.keys(digests(declarationsOnly(undefined), 'admin'));
    assert.deepEqual(
      names,
      Object.keys(recorded.admin).filter((name) => !name.startsWith('svcDev_')),
    );
  });
});
