// Admin methods (admin port): svcAdmin_* and, where the earlier set has them, nodeAdmin_*.
import { z } from 'zod';
import { uint } from '../core/codecs.js';
import type { NodeAdmin } from '../node/admin.js';
import { adminConfig, adminConfigUpdate } from '../node/admin-config.js';
import type { SnapshotUploader } from '../node/snapshots.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';
import { voidResult } from './schemas.js';

const BOTH = ['svcAdmin', 'nodeAdmin'] as const;

const targetBlockNumber = {
  name: 'targetBlockNumber',
  schema: uint.describe('The L2 block to roll back to; it stays, every later block goes'),
};
const force = {
  name: 'force',
  schema: z
    .boolean()
    .describe(
      'Allow a target before the finalized block: the world state is cleared and rebuilt from the stored blocks',
    ),
  optional: true,
} as const;

/** What the admin methods call: the admin operations and the snapshot uploader's start. */
export interface AdminApiPorts {
  admin: Pick<
    NodeAdmin,
    | 'getConfig'
    | 'setConfig'
    | 'pauseSync'
    | 'resumeSync'
    | 'pauseSequencer'
    | 'resumeSequencer'
    | 'rollbackTo'
    | 'reloadKeystore'
  >;
  snapshots: Pick<SnapshotUploader, 'start'>;
}

export function adminMethods({ admin, snapshots }: AdminApiPorts): RpcMethod[] {
  return [
    ...defineMethods(BOTH, {
      name: 'getConfig',
      summary: 'The node configuration an operator can change, with the sync and sequencer states',
      params: [],
      resultName: 'NodeAdminConfig',
      result: adminConfig,
      handler: () => admin.getConfig(),
    }),
    ...defineMethods(BOTH, {
      name: 'setConfig',
      summary:
        'Merges the given members into the configuration; they apply at once and are kept across restarts',
      params: [{ name: 'config', schema: adminConfigUpdate }],
      resultName: 'void',
      result: voidResult,
      handler: (config) => admin.setConfig(config),
    }),
    ...defineMethods(BOTH, {
      name: 'pauseSync',
      summary: 'Stops the archiver and world state following L1 (and so block building and proving)',
      params: [],
      resultName: 'void',
      result: voidResult,
      handler: () => admin.pauseSync(),
    }),
    ...defineMethods(BOTH, {
      name: 'resumeSync',
      summary: 'Resumes archiver and world-state sync',
      params: [],
      resultName: 'void',
      result: voidResult,
      handler: () => admin.resumeSync(),
    }),
    defineMethod({
      namespace: 'svcAdmin',
      name: 'pauseSequencer',
      summary: 'Stops block production; pending txs stay in the mempool. -32002 when no sequencer runs',
      params: [],
      resultName: 'void',
      result: voidResult,
      handler: () => admin.pauseSequencer(),
    }),
    defineMethod({
      namespace: 'svcAdmin',
      name: 'resumeSequencer',
      summary: 'Resumes block production paused earlier',
      params: [],
      resultName: 'void',
      result: voidResult,
      handler: () => admin.resumeSequencer(),
    }),
    ...defineMethods(
      BOTH,
      {
        name: 'rollbackTo',
        summary:
          'Pauses sync and rolls the archiver and world state back to a block; sync then reads the rest from L1 again',
        params: [
          targetBlockNumber,
          force,
          {
            name: 'resumeSync',
            schema: z.boolean().describe('Resume sync afterwards (default true)'),
            optional: true,
          },
        ],
        resultName: 'void',
        result: voidResult,
        handler: (target, f, resume) => admin.rollbackTo(target, f ?? false, resume ?? true),
      },
      // The earlier set always resumes sync afterwards.
      {
        nodeAdmin: {
          summary: 'Rolls the archiver and world state back to a block, then resumes sync',
          params: [targetBlockNumber, force],
          handler: (target, f) => admin.rollbackTo(target, f ?? false, true),
        },
      },
    ),
    ...defineMethods(BOTH, {
      name: 'startSnapshotUpload',
      summary:
        'Starts a snapshot upload and returns at once: sync pauses while the archiver and world-state stores are copied, then the copies are uploaded with an index.json entry; progress is logged',
      params: [
        {
          name: 'location',
          schema: z
            .string()
            .min(1)
            .describe('Where to upload: file:///absolute/path or s3://bucket/prefix (?endpoint=… optional)'),
        },
      ],
      resultName: 'void',
      result: voidResult,
      handler: (location) => snapshots.start(location),
    }),
    defineMethod({
      namespace: 'svcAdmin',
      name: 'reloadKeystore',
      summary:
        'Re-reads the keystore file: attester keys, coinbases and fee recipients change; a validator naming a publisher not configured at startup rejects the reload',
      params: [],
      resultName: 'void',
      result: voidResult,
      handler: () => admin.reloadKeystore(),
    }),
  ];
}
