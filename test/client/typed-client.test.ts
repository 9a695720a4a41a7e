// The typed client: NodeClient.request knows every method the node serves (both ports), with the
// params and result types of the declarations the node serves them from; and typed calls through
// the node's own dispatcher, answered by small fakes of the topics' ports, come back in the types
// the client says. The type assertions are checked by `tsc` (npm run lint), the rest here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ApiNode, buildRegistry } from '../../src/api/index.js';
import {
  declaredMethodNames,
  declaredMethods,
  type MethodName,
  type MethodResult,
  NodeClient,
} from '../../src/client/index.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { MethodRegistry, type PortKind, type RpcMethod } from '../../src/rpc/registry.js';
import { silentLogger } from '../helpers/rpc.js';

/** A part of the node any member of which may be read but must not be called. */
function unusedPart(): never {
  const part: object = new Proxy(() => {}, {
    get: () => part,
    apply: () => {
      throw new Error('a handler ran while the methods were only declared');
    },
  });
  return part as never;
}

/** A node whose parts are given ones, the rest unused. */
function fakeNode(parts: Record<string, Record<string, unknown>> = {}): ApiNode {
  const at = (path: string[]): unknown =>
    new Proxy(
      {},
      {
        get: (_, key) => {
          if (typeof key !== 'string') return undefined;
          const given = parts[[...path, key].join('.')];
          if (given !== undefined) return given;
          const member = parts[path.join('.')]?.[key];
          return member ?? (path.length === 0 || key === 'queries' ? at([...path, key]) : unusedPart());
        },
      },
    );
  return at([]) as ApiNode;
}

/** A client whose requests go to an in-process dispatcher of the given methods on one port. */
function clientOf(port: PortKind, methods: RpcMethod[]): NodeClient {
  const dispatcher = new Dispatcher({
    port,
    registry: new MethodRegistry().add(...methods),
    logger: silentLogger(),
    maxBatchSize: 10,
    maxResponseBytes: 1_000_000,
    openRpcInfo: { title: 't', version: '0', description: 'd' },
  });
  return new NodeClient('http://in-process/', {}, async (_url, init) => {
    const outcome = await dispatcher.handle(String(init?.body), 'test');
    assert.equal(outcome.status, 200);
    return new Response((outcome as { body: string }).body);
  });
}

/** Whether two types are the same, for compile-time checks. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameType = <A, B>(..._: Same<A, B> extends true ? [] : [never]) => {};

describe('the typed client', () => {
  test('knows exactly the methods the node serves, on both ports', () => {
    const registry = buildRegistry(fakeNode());
    const served = [...registry.forPort('public'), ...registry.forPort('admin')]
      .map((m) => m.fullName)
      .sort();
    assert.equal(served.length, registry.all().length, 'every method is served on a port');
    assert.deepEqual(declaredMethodNames(), served);
  });

  test('the node serves each method with the very schemas the client is typed by', () => {
    const declared = declaredMethods();
    for (const method of buildRegistry(fakeNode()).all()) {
      const declaration = declared.get(method.fullName as MethodName);
      assert.ok(declaration, method.fullName);
      assert.equal(method.result, declaration.result, `${method.fullName}: its result schema`);
      assert.deepEqual(
        method.params.map((p) => [p.schema, p.optional ?? false]),
        declaration.params.map((p) => [p.schema, p.optional ?? false]),
        `${method.fullName}: its param schemas`,
      );
      for (const [i, p] of method.params.entries()) assert.equal(p.schema, declaration.params[i]!.schema);
    }
  });

  test('typed calls through the dispatcher decode as the client types them', async () => {
    const registry = buildRegistry(
      fakeNode({
        'queries.chain': {
          latestBlockNumber: () => 7,
          syncedL1Timestamp: () => 1_700_000_123n,
          tips: () => {
            const id = (n: number) => ({ number: n, hash: BigInt(n) });
            const tip = (n: number) => ({ block: id(n), checkpoint: id(n) });
            return { proposed: id(7), checkpointed: tip(5), proven: tip(3), finalized: tip(1) };
          },
        },
        txs: { currentMinFees: () => ({ feePerDaGas: 0n, feePerL2Gas: 12_345_678_901_234_567_890n }) },
        'queries.state': { publicStorageAt: () => 42n },
      }),
    );
    const client = clientOf('public', registry.forPort('public'));

    const number = await client.request('svc_getBlockNumber');
    sameType<typeof number, number>();
    assert.equal(number, 7);

    const nodeNumber = await client.request('node_getBlockNumber');
    assert.equal(nodeNumber, 7);

    const timestamp = await client.request('svc_getSyncedL1Timestamp');
    assert.equal(timestamp, '1700000123', 'a bigint result arrives as its wire form, a decimal string');

    const fees = await client.request('svc_getCurrentMinFees');
    sameType<typeof fees, MethodResult<'svc_getCurrentMinFees'>>();
    assert.deepEqual(fees, { feePerDaGas: '0', feePerL2Gas: '12345678901234567890' });

    const tips = await client.request('svc_getChainTips');
    assert.deepEqual(tips.proposed, { number: 7, hash: `0x${'0'.repeat(63)}7` });
    assert.equal(tips.finalized.block.number, 1);

    const address = `0x${'0'.repeat(63)}a`;
    const value = await client.request('svc_getPublicStorageAt', 'latest', address, '0x1');
    sameType<typeof value, string>();
    assert.equal(value, `0x${'0'.repeat(62)}2a`);
    // node_ takes a block number or latest where svc_ takes a reference block.
    assert.equal(await client.request('node_getPublicStorageAt', 'latest', address, '0x1'), value);

    // The params are checked against the declarations at compile time.
    // @ts-expect-error svc_getBlockNumber takes no params
    await client.request('svc_getBlockNumber', 1).catch(() => {});
    // @ts-expect-error a storage slot is a hex string
    await client.request('svc_getPublicStorageAt', 'latest', address, true).catch(() => {});
    // @ts-expect-error no such method
    await client.request('svc_noSuchMethod').catch(() => {});
  });

  test('the admin port: a typed call and its twin', async () => {
    const paused: string[] = [];
    const registry = buildRegistry(
      fakeNode({
        admin: { pauseSync: async () => void paused.push('sync') },
      }),
    );
    const client = clientOf('admin', registry.forPort('admin'));
    const result = await client.request('svcAdmin_pauseSync');
    assert.equal(result, null, 'a void result arrives as null');
    await client.request('nodeAdmin_pauseSync');
    assert.deepEqual(paused, ['sync', 'sync']);
    const names: MethodName[] = ['svcAdmin_pauseSync', 'nodeAdmin_pauseSync', 'svcDev_mine'];
    assert.ok(names.every((name) => declaredMethodNames().includes(name)));
  });
});
