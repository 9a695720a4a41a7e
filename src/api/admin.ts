// The admin methods' handlers, each added to its declaration in src/client/methods/admin.ts (names,
// params, result schema and words, shared with the typed client), and the ports they call.
import { adminDeclarations } from '../client/methods/admin.js';
import type { NodeAdmin } from '../node/admin.js';
import type { SnapshotUploader } from '../node/snapshots.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';

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
    ...defineMethods(adminDeclarations.getConfig.namespaces, {
      ...adminDeclarations.getConfig.spec,
      handler: () => admin.getConfig(),
    }),
    ...defineMethods(adminDeclarations.setConfig.namespaces, {
      ...adminDeclarations.setConfig.spec,
      handler: (config) => admin.setConfig(config),
    }),
    ...defineMethods(adminDeclarations.pauseSync.namespaces, {
      ...adminDeclarations.pauseSync.spec,
      handler: () => admin.pauseSync(),
    }),
    ...defineMethods(adminDeclarations.resumeSync.namespaces, {
      ...adminDeclarations.resumeSync.spec,
      handler: () => admin.resumeSync(),
    }),
    defineMethod({ ...adminDeclarations.svcAdmin_pauseSequencer, handler: () => admin.pauseSequencer() }),
    defineMethod({ ...adminDeclarations.svcAdmin_resumeSequencer, handler: () => admin.resumeSequencer() }),
    ...defineMethods(
      adminDeclarations.rollbackTo.namespaces,
      {
        ...adminDeclarations.rollbackTo.spec,
        handler: (target, f, resume) => admin.rollbackTo(target, f ?? false, resume ?? true),
      },
      {
        nodeAdmin: {
          ...adminDeclarations.rollbackTo.overrides.nodeAdmin,
          handler: (target, f) => admin.rollbackTo(target, f ?? false, true),
        },
      },
    ),
    ...defineMethods(adminDeclarations.startSnapshotUpload.namespaces, {
      ...adminDeclarations.startSnapshotUpload.spec,
      handler: (location) => snapshots.start(location),
    }),
    defineMethod({ ...adminDeclarations.svcAdmin_reloadKeystore, handler: () => admin.reloadKeystore() }),
  ];
}
