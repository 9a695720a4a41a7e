// Twins on the wire: where an earlier-set method (node_, nodeAdmin_) differs from its current twin
// by its override, a call through the dispatcher reaches the node's part with what each set means.
// The parts are small fakes of the topics' ports that record their calls.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AdminApiPorts, adminMethods } from '../../src/api/admin.js';
import { type ContractApiPorts, contractMethods } from '../../src/api/contracts.js';
import { type StateApiPorts, stateMethods } from '../../src/api/state.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { MethodRegistry, type PortKind, type RpcMethod } from '../../src/rpc/registry.js';
import { silentLogger } from '../helpers/rpc.js';

const unused = (): never => {
  throw new Error('not called by these tests');
};

/** Calls one method as a client would, and gives its result or error. */
async function call(port: PortKind, methods: RpcMethod[], method: string, params: unknown[]) {
  const dispatcher = new Dispatcher({
    port,
    registry: new MethodRegistry().add(...methods),
    logger: silentLogger(),
    maxBatchSize: 10,
    maxResponseBytes: 1_000_000,
    openRpcInfo: { title: 't', version: '0', description: 'd' },
  });
  const outcome = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), 'test');
  assert.equal(outcome.status, 200);
  return JSON.parse((outcome as { body: string }).body) as { result?: unknown; error?: { code: number } };
}

const address = `0x${'0'.repeat(63)}a`;
const latest = { kind: 'tag', tag: 'proposed' };

describe('twins declared once, called apart', () => {
  test('getContract: svc_ passes its reference block on, node_ takes none', async () => {
    const calls: unknown[][] = [];
    const ports: ContractApiPorts = {
      contracts: {
        contractClass: unused,
        contract: (...args) => {
          calls.push(args);
          return undefined;
        },
      },
    };
    const methods = contractMethods(ports);
    assert.deepEqual(await call('public', methods, 'svc_getContract', [address, 3]), {
      jsonrpc: '2.0',
      id: 1,
      result: null,
    });
    assert.equal((await call('public', methods, 'node_getContract', [address])).result, null);
    assert.deepEqual(calls, [[10n, { kind: 'number', number: 3 }], [10n]]);
    assert.equal((await call('public', methods, 'node_getContract', [address, 3])).error?.code, -32602);
    assert.equal(calls.length, 2);
  });

  test('rollbackTo: svcAdmin_ may keep sync paused, nodeAdmin_ always resumes it', async () => {
    const calls: unknown[][] = [];
    const ports: AdminApiPorts = {
      admin: {
        getConfig: unused,
        setConfig: unused,
        pauseSync: unused,
        resumeSync: unused,
        pauseSequencer: unused,
        resumeSequencer: unused,
        rollbackTo: async (...args) => {
          calls.push(args);
        },
        reloadKeystore: unused,
      },
      snapshots: { start: unused },
    };
    const methods = adminMethods(ports);
    await call('admin', methods, 'svcAdmin_rollbackTo', [5]);
    await call('admin', methods, 'svcAdmin_rollbackTo', [5, true, false]);
    await call('admin', methods, 'nodeAdmin_rollbackTo', [5, true]);
    assert.deepEqual(calls, [
      [5, false, true],
      [5, true, false],
      [5, true, true],
    ]);
    assert.equal(
      (await call('admin', methods, 'nodeAdmin_rollbackTo', [5, true, false])).error?.code,
      -32602,
    );
  });

  test("state: node_'s block number or latest reaches the shared handler as svc_'s reference block does", async () => {
    const calls: unknown[][] = [];
    const ports: StateApiPorts = {
      state: {
        findLeavesIndexes: unused,
        nullifierMembershipWitness: unused,
        lowNullifierMembershipWitness: unused,
        publicDataWitness: unused,
        noteHashMembershipWitness: unused,
        publicStorageAt: (...args) => {
          calls.push(args);
          return 7n;
        },
        blockHashMembershipWitness: unused,
        archiveMembershipWitness: unused,
        siblingPath: unused,
      },
    };
    const methods = stateMethods(ports);
    const seven = `0x${'0'.repeat(63)}7`;
    assert.equal(
      (await call('public', methods, 'svc_getPublicStorageAt', ['latest', address, '0x1'])).result,
      seven,
    );
    assert.equal(
      (await call('public', methods, 'node_getPublicStorageAt', ['latest', address, '0x1'])).result,
      seven,
    );
    assert.equal(
      (await call('public', methods, 'node_getPublicStorageAt', [2, address, '0x1'])).result,
      seven,
    );
    assert.deepEqual(calls, [
      [latest, 10n, 1n],
      [latest, 10n, 1n],
      [{ kind: 'number', number: 2 }, 10n, 1n],
    ]);
    // A tag other than latest is svc_'s only.
    const proven = await call('public', methods, 'node_getPublicStorageAt', ['proven', address, '0x1']);
    assert.equal(proven.error?.code, -32602);
  });
});
