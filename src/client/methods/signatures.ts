// The function-signature read method as declared, without its handler (src/api/info.ts adds it):
// the signatures the node knows by selector — those registered with
// node_registerContractFunctionSignatures and those of its public setup allow-list — so that a
// client, such as the explorer page, can name the functions of a tx's public calls.
import { z } from 'zod';
import { method } from './declare.js';

/** Selectors per svc_getFunctionSignatures call. */
export const MAX_SELECTORS = 100;

export const functionSelectorHex = z
  .string()
  .regex(/^0x[0-9a-fA-F]{8}$/, 'a function selector is 0x and 8 hex digits')
  .transform((text) => Number.parseInt(text.slice(2), 16))
  .describe('A function selector: 0x and 8 hex digits (the first calldata field of a public call)');

export const signaturesDeclarations = {
  svc_getFunctionSignatures: method({
    namespace: 'svc',
    name: 'getFunctionSignatures',
    summary:
      'The function signatures the node knows for selectors (registered ones and its setup allow-list), in order; null where it knows none',
    params: [
      {
        name: 'selectors',
        schema: z
          .array(functionSelectorHex)
          .max(MAX_SELECTORS, `at most ${MAX_SELECTORS} selectors per call`),
      },
    ],
    resultName: 'signatures',
    result: z.array(z.string().nullable()).describe('One signature or null per selector, in input order'),
  }),
} as const;
