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

  test('a result that may be absent admits null in the document', async () => {
    const doc = (await result(running.publicUrl, 'rpc.discover')) as {
      methods: { name: string; result: { schema: { anyOf?: unknown[] } } }[];
    };
    const enr = doc.methods.find((m) => m.name === 'svc_getEncodedEnr')!;
    assert.deepEqual(enr.result.schema.anyOf, [{ type: 'string' }, { type: 'null' }]);
  });
});
