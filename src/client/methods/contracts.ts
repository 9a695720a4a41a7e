// The contracts methods as declared, without their handlers (src/api/contracts.ts adds them).
// Contract methods of both sets (docs/logs-and-contracts.md): published classes by id and
// instances by address, the current set's at a reference block.
import { z } from 'zod';
import { bytesHex, frHex, l2Address, uint } from '../../core/codecs.js';
import type { Point } from '../../core/grumpkin.js';
import { twins } from './declare.js';
import { RESOLVE_ERRORS } from './errors.js';
import { referenceBlock } from './params.js';

/** A curve point as the reference writes it: 0x + x ‖ y, 32 bytes each. */
export const point = z
  .codec(
    z.string().regex(/^0x[0-9a-fA-F]{128}$/, 'expected 0x followed by 128 hex digits (x ‖ y)'),
    z.custom<Point>(),
    {
      decode: (text) => ({
        x: BigInt(`0x${text.slice(2, 66)}`),
        y: BigInt(`0x${text.slice(66)}`),
        isInfinite: false,
      }),
      encode: (p) => `0x${p.x.toString(16).padStart(64, '0')}${p.y.toString(16).padStart(64, '0')}`,
    },
  )
  .describe('Grumpkin point: 0x followed by x and y, 32 bytes each');

export const contractClass = z
  .object({
    id: frHex,
    version: uint,
    artifactHash: frHex,
    privateFunctionsRoot: frHex,
    packedBytecode: bytesHex,
    privateFunctions: z.array(z.unknown()),
    utilityFunctions: z.array(z.unknown()),
  })
  .describe(
    'ContractClassPublic: id, version, artifact hash, private functions root and packed public bytecode (individually broadcast functions are not kept: the arrays are empty)',
  );

export const contractInstance = z
  .object({
    address: l2Address,
    version: uint,
    salt: frHex,
    deployer: l2Address,
    currentContractClassId: frHex,
    originalContractClassId: frHex,
    initializationHash: frHex,
    publicKeys: z.object({
      masterNullifierPublicKey: point,
      masterIncomingViewingPublicKey: point,
      masterOutgoingViewingPublicKey: point,
      masterTaggingPublicKey: point,
    }),
  })
  .describe('ContractInstanceWithAddress: the published instance, with its class as of the reference block');

const classId = { name: 'id', schema: frHex.describe('Contract class id') };
const address = { name: 'address', schema: l2Address.describe('Contract address') };

export const contractsDeclarations = {
  getContractClass: twins(['svc', 'node'], {
    name: 'getContractClass',
    summary: 'A contract class published through the class registry, or null',
    params: [classId],
    resultName: 'contractClass',
    result: contractClass.nullable(),
  }),
  getContract: twins(
    ['svc', 'node'],
    {
      name: 'getContract',
      summary:
        'A contract instance published through the instance registry, with its current class as of the reference block (default latest), or null',
      params: [address, { name: 'referenceBlock', schema: referenceBlock, optional: true }],
      resultName: 'contract',
      result: contractInstance.nullable(),
      errors: RESOLVE_ERRORS,
    },
    {
      node: {
        // The latest block, which the chain always has.
        errors: [],
        summary:
          'A contract instance published through the instance registry, as of the latest block, or null',
        params: [address],
      },
    },
  ),
} as const;
