// What each component needs of the rollup on L1, as small role types over RollupClient. A
// component depends on its role only, so it cannot reach for more of L1 than its job needs, and
// a test fakes just those few methods (type-checked, without casting a whole client).
import type { RollupClient } from './rollup-client.js';

/** The latest L1 block: for timing (the chain pass, validator stats). */
export type L1Head = Pick<RollupClient, 'latestL1Block'>;

/** The proposer of a slot and the committee of an epoch, as the rollup computes them. */
export type CommitteeL1 = Pick<RollupClient, 'proposerAtSlot' | 'epochCommittee'>;

/** The L1-to-L2 messages a checkpoint inserts, from the inbox. */
export type InboxL1 = Pick<RollupClient, 'l1ToL2Messages'>;

/** What the archiver reads to follow L1: blocks, rollup events, proposals, checkpoints, messages. */
export type ArchiverL1 = L1Head &
  InboxL1 &
  Pick<
    RollupClient,
    | 'l1Block'
    | 'l1BlockIfAny'
    | 'pendingCheckpointNumber'
    | 'provenCheckpointNumber'
    | 'checkpoint'
    | 'checkpointProposedEvents'
    | 'checkpointsPrunedEvents'
    | 'epochProvenEvents'
    | 'messageSentEvents'
    | 'proposal'
    | 'epochCommittee'
  >;

/** What the sequencer needs to propose a checkpoint, or to prune unproven ones first. */
export type ProposerL1 = InboxL1 &
  Pick<
    RollupClient,
    | 'pendingCheckpointNumber'
    | 'provenCheckpointNumber'
    | 'checkpoint'
    | 'inboxRoot'
    | 'canPruneAtTime'
    | 'prune'
    | 'propose'
  >;

/** What the prover needs to find an epoch to prove and submit its proof. */
export type ProverL1 = Pick<
  RollupClient,
  'pendingCheckpointNumber' | 'provenCheckpointNumber' | 'canPruneAtTime' | 'submitEpochProof'
>;

/** The fee model's inputs on L1: its parameters, the latest checkpoint's fee header, L1 fees. */
export type FeeL1 = L1Head &
  Pick<
    RollupClient,
    'pendingCheckpointNumber' | 'checkpoint' | 'feeModelParams' | 'nextExcessMana' | 'l1Fees'
  >;
