// The public-call read methods as declared, without their handlers: the public calls a tx the
// mempool holds enqueued (src/api/txs.ts adds its handler), and the signatures the node knows by
// selector — those registered with node_registerContractFunctionSignatures and those of its public
// setup allow-list (src/api/info.ts) — so that a client, such as the explorer page
// (docs/explorer.md), can list a tx's calls and name their functions.
import { z } from 'zod';
import { frHex, l2Address, txHash } from '../../core/codecs.js';
import { method } from './declare.js';

/** Selectors per svc_getFunctionSignatures call. */
export const MAX_SELECTORS = 100;

export const functionSelectorHex = z
  .string()
  .regex(/^0x[0-9a-fA-F]{8}$/, 'a function selector is 0x and 8 hex digits')
  .transform((text) => Number.parseInt(text.slice(2), 16))
  .describe('A function selector: 0x and 8 hex digits (the first calldata field of a public call)');

export const txPublicCalls = z
  .object({
    txHash,
    status: z.enum(['pending', 'mined']),
    calls: z.array(
      z.object({
        phase: z.enum(['setup', 'app', 'teardown']),
        contractAddress: l2Address,
        msgSender: l2Address,
        isStaticCall: z.boolean(),
        calldata: z.array(frHex).describe("The call's calldata: the function selector, then the arguments"),
      }),
    ),
  })
  .describe('The public calls a tx enqueued, in execution order: setup, app logic, teardown');

export const callsDeclarations = {
  svc_getTxPublicCalls: method({
    namespace: 'svc',
    name: 'getTxPublicCalls',
    summary:
      'The public calls a tx enqueued, with their calldata, while the mempool holds it (pending, or mined until its block is finalized); null for any other tx',
    params: [{ name: 'txHash', schema: txHash }],
    resultName: 'calls',
    result: txPublicCalls.optional(),
  }),
  svc_getFunctionSignatures: method({
    namespace: 'svc',
    name: 'getFunctionSignatures',
    summary:
      'The function signatures the node knows for selectors (registered ones and its setup allow-list), in order; null where it knows none',
    params: [
      {
        name: 'selectors',
        description: `The function selectors to name (0x and 8 hex digits each), at most ${MAX_SELECTORS}`,
        schema: z
          .array(functionSelectorHex)
          .max(MAX_SELECTORS, `at most ${MAX_SELECTORS} selectors per call`),
      },
    ],
    resultName: 'signatures',
    result: z.array(z.string().nullable()).describe('One signature or null per selector, in input order'),
  }),
} as const;
