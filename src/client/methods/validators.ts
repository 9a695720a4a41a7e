// The validators methods as declared, without their handlers (src/api/validators.ts adds them).
// Validator, P2P and slashing methods: validator stats (svc_ and node_), the P2P queries (svc_),
// slashing offenses (svcAdmin_ and nodeAdmin_, on the admin port) and the legacy set's slash
// payloads (nodeAdmin_ only: the current set has no such method).
import { z } from 'zod';
import { checkpointHeader } from '../../core/block-codecs.js';
import { bigintDec, ethAddress, frHex, slotNumber, txHash, uint } from '../../core/codecs.js';
import { method, twins } from './declare.js';
import { NO_SLASHER, P2P_OFF } from './errors.js';

// Restated from src/validators/stats.ts, a layer the client may not import; src/api/validators.ts
// checks at compile time that they are the same.
export const PROPOSAL_STATUSES = [
  'checkpoint-mined',
  'checkpoint-proposed',
  'checkpoint-missed',
  'blocks-missed',
] as const;
export const ATTESTATION_STATUSES = ['attestation-sent', 'attestation-missed'] as const;

export const slotTime = z.object({ timestamp: bigintDec, slot: uint, date: z.string() });
export const missed = z.object({
  currentStreak: uint,
  rate: z.number().optional(),
  count: uint,
  total: uint,
});
export const validatorStats = z
  .object({
    address: ethAddress,
    lastProposal: slotTime.optional(),
    lastAttestation: slotTime.optional(),
    totalSlots: uint,
    missedProposals: missed,
    missedAttestations: missed,
    history: z.array(
      z.object({
        slot: uint,
        status: z.enum([...PROPOSAL_STATUSES, ...ATTESTATION_STATUSES]),
      }),
    ),
  })
  .describe("A validator's proposal and attestation record over the stats window");
export const window = {
  lastProcessedSlot: uint.optional(),
  initialSlot: uint.optional(),
  slotWindow: uint,
};
export const validatorsStats = z
  .object({ stats: z.record(z.string(), validatorStats), ...window })
  .describe('Stats of every validator seen in the window; empty with slotWindow 0 when stats are off');
export const singleValidatorStats = z
  .object({
    validator: validatorStats,
    allTimeProvenPerformance: z.array(z.object({ missed: uint, total: uint, epoch: uint })),
    ...window,
  })
  .optional()
  .describe("One validator's stats; null when unknown or stats are off");

export const signature = z.string().describe('Ethereum signature: 0x + 130 hex digits');
export const checkpointAttestation = z.object({
  payload: z.object({ header: checkpointHeader, archive: frHex, feeAssetPriceModifier: bigintDec }),
  signature,
  proposerSignature: signature,
});
export const proposalsForSlot = z.object({
  blockProposals: z.array(
    z.object({
      slotNumber: uint,
      checkpointNumber: uint,
      indexWithinCheckpoint: uint,
      blockNumber: uint,
      blockHash: frHex,
      archiveRoot: frHex,
      txHashes: z.array(txHash),
      signature,
    }),
  ),
  checkpointProposals: z.array(
    z.object({
      checkpointNumber: uint,
      checkpointHeader,
      archive: frHex,
      feeAssetPriceModifier: bigintDec,
      signature,
    }),
  ),
});
export const peerInfo = z.union([
  z.object({ status: z.literal('connected'), score: z.number(), id: z.string() }),
  z.object({
    status: z.literal('dialing'),
    dialStatus: z.string(),
    id: z.string(),
    addresses: z.array(z.string()),
  }),
  z.object({
    status: z.literal('cached'),
    id: z.string(),
    addresses: z.array(z.string()),
    enr: z.string(),
    dialAttempts: uint,
  }),
]);
export const offense = z.object({
  validator: ethAddress,
  amount: bigintDec,
  offenseType: uint.describe(
    '0 unknown, 1 data withholding, 2 valid epoch pruned, 3 inactivity, 4 broadcasted invalid block proposal, 5 proposed insufficient attestations, 6 proposed incorrect attestations, 7 attested descendant of invalid, 8 duplicate proposal, 9 duplicate attestation',
  ),
  epochOrSlot: bigintDec,
});
export const slashPayloadRound = z
  .object({
    address: ethAddress.describe("The payload's address in the Slasher"),
    timestamp: bigintDec.describe('L1 timestamp (seconds) of its creation'),
    votes: bigintDec.describe('Votes for it in the round so far'),
    round: bigintDec,
    slashes: z.array(
      z.object({
        validator: ethAddress,
        amount: bigintDec,
        offenses: z.array(z.object({ offenseType: uint, epochOrSlot: bigintDec })),
      }),
    ),
  })
  .describe('A slash payload voted for in a round');

export const slashRound = z
  .union([
    z.enum(['all', 'current']),
    z
      .union([z.number().int().min(0), z.string().regex(/^(0|[1-9][0-9]*)$/, 'expected a round number')])
      .transform((v) => BigInt(v)),
  ])
  .describe('A slashing round number (decimal string or integer), `all` or `current`');

export const validatorsDeclarations = {
  getValidatorsStats: twins(['svc', 'node'], {
    name: 'getValidatorsStats',
    summary: "Each validator's proposals and attestations over the recent slots",
    params: [],
    resultName: 'ValidatorsStats',
    result: validatorsStats,
  }),
  getValidatorStats: twins(['svc', 'node'], {
    name: 'getValidatorStats',
    summary: "One validator's stats, history optionally limited to slots fromSlot..toSlot",
    params: [
      { name: 'validatorAddress', schema: ethAddress },
      { name: 'fromSlot', schema: slotNumber, optional: true },
      { name: 'toSlot', schema: slotNumber, optional: true },
    ],
    resultName: 'SingleValidatorStats',
    result: singleValidatorStats,
  }),
  svc_getPeers: method({
    namespace: 'svc',
    name: 'getPeers',
    summary: 'Connected peers; with includePending also peers being dialled and known ones not connected',
    params: [
      {
        name: 'includePending',
        schema: z.boolean(),
        optional: true,
        description: 'Include the peers being dialled, not yet connected (default false)',
      },
    ],
    resultName: 'peers',
    result: z.array(peerInfo),
    errors: [P2P_OFF],
  }),
  svc_getCheckpointAttestationsForSlot: method({
    namespace: 'svc',
    name: 'getCheckpointAttestationsForSlot',
    summary:
      "The slot's checkpoint attestations in the attestation pool; with proposalPayloadHash only those signing that payload",
    params: [
      { name: 'slot', schema: slotNumber },
      {
        name: 'proposalPayloadHash',
        schema: z
          .string()
          .regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x + 64 hex digits')
          .describe('keccak256 digest the proposal asks the committee to sign'),
        optional: true,
      },
    ],
    resultName: 'attestations',
    result: z.array(checkpointAttestation),
    errors: [P2P_OFF],
  }),
  svc_getProposalsForSlot: method({
    namespace: 'svc',
    name: 'getProposalsForSlot',
    summary: 'The block and checkpoint proposals of a slot kept in the attestation pool',
    params: [{ name: 'slot', schema: slotNumber }],
    resultName: 'ProposalsForSlot',
    result: proposalsForSlot,
    errors: [P2P_OFF],
  }),
  getSlashOffenses: twins(['svcAdmin', 'nodeAdmin'], {
    name: 'getSlashOffenses',
    summary: 'Slashing offenses this node detected in a round (`current`, a number, or `all`)',
    params: [{ name: 'round', schema: slashRound }],
    resultName: 'offenses',
    result: z.array(offense),
  }),
  nodeAdmin_getSlashPayloads: method({
    namespace: 'nodeAdmin',
    name: 'getSlashPayloads',
    summary:
      "The slash payloads proposers voted for in the current round, with their votes, from the rollup's Slasher",
    params: [],
    resultName: 'SlashPayloadRound[]',
    result: z.array(slashPayloadRound),
    errors: [NO_SLASHER],
  }),
} as const;
