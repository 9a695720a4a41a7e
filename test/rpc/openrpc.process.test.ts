import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { type RunningNode, serve } from '../../src/cli/serve.js';
import { PORT_NAMESPACES } from '../../src/rpc/registry.js';
import { result, silentLogger, testConfig } from '../helpers/rpc.js';

describe('rpc.discover', () => {
  let running: RunningNode;
  before(async () => {
    running = await serve(testConfig(), silentLogger());
  });
  after(() => running.close());

  for (const port of ['public', 'admin'] as const) {
    test(`the ${port} port serves a valid OpenRPC document of exactly its methods`, async () => {
      const url = port === 'public' ? running.publicUrl : running.adminUrl;
      const doc = (await result(url, 'rpc.discover')) as { methods: { name: string; params: unknown[] }[] };
      const validation = await validateOpenRPCDocument(doc as never);
      assert.equal(validation, true, JSON.stringify(validation));
      const names = doc.methods.map((m) => m.name);
      const namespaces: readonly string[] = PORT_NAMESPACES[port];
      for (const name of names) assert.ok(namespaces.includes(name.split('_')[0]!), name);
      if (port === 'public') {
        assert.ok(names.includes('svc_getNodeInfo'));
        assert.ok(names.includes('node_registerContractFunctionSignatures'));
        const register = doc.methods.find((m) => m.name === 'node_registerContractFunctionSignatures')!;
        assert.deepEqual((register.params[0] as { schema: { maxItems: number } }).schema.maxItems, 100);
      }
    });
  }

  for (const [face, path] of [
    ['public', ''],
    ['admin', ''],
    ['aztec', '/aztec'],
  ] as const) {
    test(`at ${face}, every method carries its errors and a recorded example, and the document stays valid`, async () => {
      const base = face === 'admin' ? running.adminUrl : running.publicUrl;
      const doc = (await result(`${base.replace(/\/$/, '')}${path}`, 'rpc.discover')) as {
        methods: {
          name: string;
          params: { name: string; description?: string }[];
          errors?: { code: number; message: string }[];
          examples?: { params: { name: string; value: unknown }[]; result: { name: string } }[];
        }[];
      };
      const validation = await validateOpenRPCDocument(doc as never);
      assert.equal(validation, true, JSON.stringify(validation));
      assert.ok(doc.methods.length >= (face === 'aztec' ? 55 : 10));
      for (const m of doc.methods) {
        assert.ok((m.errors?.length ?? 0) > 0, `${m.name} lists errors`);
        assert.ok((m.examples?.length ?? 0) > 0, `${m.name} has an example`);
        for (const p of m.params) assert.ok(p.description, `${m.name}(${p.name}) is described`);
      }
      if (face === 'aztec') {
        // The reference's transport: a handler's error is -32702, refused params -32701.
        const send = doc.methods.find((m) => m.name === 'node_sendTx')!;
        assert.ok(send.errors!.some((e) => e.code === -32702 && e.message === 'Invalid tx: …'));
        assert.ok(send.errors!.some((e) => e.code === -32701));
      } else if (face === 'public') {
        const send = doc.methods.find((m) => m.name === 'svc_sendTx')!;
        assert.ok(send.errors!.some((e) => e.code === -32003 && e.message === 'Invalid tx: …'));
        assert.ok(send.errors!.some((e) => e.code === -32602));
      } else {
        const rollback = doc.methods.find((m) => m.name === 'svcAdmin_rollbackTo')!;
        assert.ok(rollback.errors!.some((e) => e.message === 'Unauthorized: invalid or missing API key'));
      }
    });
  }

  test('a result that may be absent admits null in the document', async () => {
    const doc = (await result(running.publicUrl, 'rpc.discover')) as {
      methods: { name: string; result: { schema: { anyOf?: unknown[] } } }[];
    };
    const enr = doc.methods.find((m) => m.name === 'svc_getEncodedEnr')!;
    assert.deepEqual(enr.result.schema.anyOf, [{ type: 'string' }, { type: 'null' }]);
  });
});
