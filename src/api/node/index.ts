// The earlier method set (node_*), with the numeric limits of its specification.
import { z } from 'zod';
import type { CairnNode } from '../../node/node.js';
import { defineMethod, type RpcMethod } from '../../rpc/registry.js';
import { voidResult } from '../schemas.js';
import { sharedChainMethods } from '../svc/index.js';
import { infoMethods } from '../svc/info.js';
import { nodeChainMethods } from './chain.js';

/** The earlier set's limits on its debug method (docs/rpc.md, "Limits"): count and length. */
const MAX_SIGNATURES = 100;
const MAX_SIGNATURE_LENGTH = 10_000;

const functionSignature = z
  .string()
  .min(3, 'a function signature looks like name(type,...)')
  .max(MAX_SIGNATURE_LENGTH, `a function signature is at most ${MAX_SIGNATURE_LENGTH} characters`)
  .regex(/^[^\s()]+\(\S*\)$/, 'a function signature looks like name(type,...) and has no whitespace');

export function nodeMethods(node: CairnNode): RpcMethod[] {
  return [
    ...infoMethods(node, ['node']),
    ...nodeChainMethods(node),
    ...sharedChainMethods(node, ['node']),
    defineMethod({
      namespace: 'node',
      name: 'registerContractFunctionSignatures',
      summary: 'Registers function signatures so that their selectors are named in logs',
      params: [
        {
          name: 'functionSignatures',
          schema: z
            .array(functionSignature)
            .max(MAX_SIGNATURES, `at most ${MAX_SIGNATURES} signatures per call`),
          description: 'Signatures such as transfer((Field),u128)',
        },
      ],
      resultName: 'void',
      result: voidResult,
      handler: (signatures) => node.registerFunctionSignatures(signatures),
    }),
  ];
}
