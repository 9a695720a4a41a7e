// The admin methods as declared, without their handlers (src/api/admin.ts adds them).
// Admin methods (admin port): svcAdmin_* and, where the earlier set has them, nodeAdmin_*.
import { z } from 'zod';
import { SETTINGS as S } from '../../config/settings.js';
import { uint } from '../../core/codecs.js';
import { method, twins } from './declare.js';
import {
  CONFIG_ERRORS,
  KEYSTORE_ERRORS,
  NO_SEQUENCER,
  ROLLBACK_ERRORS,
  SNAPSHOT_UPLOAD_ERRORS,
} from './errors.js';
import { voidResult } from './schemas.js';

// svcAdmin_getConfig's result and setConfig's param, as src/node/admin-config.ts declares them for
// the node (a layer the client may not import); src/api/admin.ts checks at compile time that both
// decode and encode the same values, and the OpenRPC record that they read the same.
/** The states shown beside the settings; they change through their own methods only. */
export const syncState = z.enum(['running', 'paused']);
export const sequencerState = z.enum(['running', 'paused', 'none']);

/** svcAdmin_getConfig's result. */
export const adminConfig = z
  .object({
    archiverPollingIntervalMS: S.archiverPollingIntervalMS.schema,
    archiverBatchSize: S.archiverBatchSize.schema,
    minTxsPerBlock: S.minTxsPerBlock.schema,
    maxTxsPerBlock: S.maxTxsPerBlock.schema,
    maxPendingTxCount: S.mempoolMaxTxCount.schema,
    coinbase: S.coinbase.schema.optional(),
    feeRecipient: S.feeRecipient.schema.optional(),
    txPublicSetupAllowListExtend: S.txPublicSetupAllowListExtend.schema,
    realProofs: z.boolean().describe('Whether tx proofs are verified for real; always false (dev verifier)'),
    syncState: syncState.describe('Archiver and world-state sync: svcAdmin_pauseSync / resumeSync'),
    sequencerState: sequencerState.describe(
      'Block production: svcAdmin_pauseSequencer / resumeSequencer; none when the node runs no sequencer',
    ),
  })
  .describe('The node configuration an operator can read and change (AztecNodeAdminConfig)');

/**
 * svcAdmin_setConfig's param: any subset of the members. An unknown member is an error; the
 * read-only members are accepted only with their current value (so a getConfig result can be
 * sent back whole).
 */
export const adminConfigUpdate = adminConfig
  .extend({
    coinbase: S.coinbase.schema.nullable().describe('null: back to the attester address'),
    feeRecipient: S.feeRecipient.schema.nullable().describe('null: back to 0'),
  })
  .partial()
  .strict()
  .describe('Members to change; the rest keep their values');

export const BOTH = ['svcAdmin', 'nodeAdmin'] as const;

export const targetBlockNumber = {
  name: 'targetBlockNumber',
  schema: uint.describe('The L2 block to roll back to; it stays, every later block goes'),
};
export const force = {
  name: 'force',
  schema: z
    .boolean()
    .describe(
      'Allow a target before the finalized block: the world state is cleared and rebuilt from the stored blocks',
    ),
  optional: true,
} as const;

export const adminDeclarations = {
  getConfig: twins(BOTH, {
    name: 'getConfig',
    summary: 'The node configuration an operator can change, with the sync and sequencer states',
    params: [],
    resultName: 'NodeAdminConfig',
    result: adminConfig,
  }),
  setConfig: twins(BOTH, {
    name: 'setConfig',
    summary:
      'Merges the given members into the configuration; they apply at once and are kept across restarts',
    params: [{ name: 'config', schema: adminConfigUpdate }],
    resultName: 'void',
    result: voidResult,
    errors: CONFIG_ERRORS,
  }),
  pauseSync: twins(BOTH, {
    name: 'pauseSync',
    summary: 'Stops the archiver and world state following L1 (and so block building and proving)',
    params: [],
    resultName: 'void',
    result: voidResult,
  }),
  resumeSync: twins(BOTH, {
    name: 'resumeSync',
    summary: 'Resumes archiver and world-state sync',
    params: [],
    resultName: 'void',
    result: voidResult,
  }),
  svcAdmin_pauseSequencer: method({
    namespace: 'svcAdmin',
    name: 'pauseSequencer',
    summary: 'Stops block production; pending txs stay in the mempool. -32002 when no sequencer runs',
    params: [],
    resultName: 'void',
    result: voidResult,
    errors: [NO_SEQUENCER],
  }),
  svcAdmin_resumeSequencer: method({
    namespace: 'svcAdmin',
    name: 'resumeSequencer',
    summary: 'Resumes block production paused earlier',
    params: [],
    resultName: 'void',
    result: voidResult,
    errors: [NO_SEQUENCER],
  }),
  rollbackTo: twins(
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
      errors: ROLLBACK_ERRORS,
    },
    {
      nodeAdmin: {
        summary: 'Rolls the archiver and world state back to a block, then resumes sync',
        params: [targetBlockNumber, force],
      },
    },
  ),
  startSnapshotUpload: twins(BOTH, {
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
    errors: SNAPSHOT_UPLOAD_ERRORS,
  }),
  svcAdmin_reloadKeystore: method({
    namespace: 'svcAdmin',
    name: 'reloadKeystore',
    summary:
      'Re-reads the keystore file: attester keys, coinbases and fee recipients change; a validator naming a publisher not configured at startup rejects the reload',
    params: [],
    resultName: 'void',
    result: voidResult,
    errors: KEYSTORE_ERRORS,
  }),
} as const;
