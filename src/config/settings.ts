// Every setting of cairn, declared once: its zod schema, default, description and how
// it is written as a flag (`--kebab-case`), an environment variable (`CAIRN_SNAKE_CASE`)
// and a config-file key (camelCase). Later components add their settings here.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { allowedElement, deployedL1ContractAddresses, ethAddress, l2Address } from '../core/codecs.js';

/** How a setting's text form (flag or env var) is read. */
export type SettingKind = 'int' | 'bool' | 'string' | 'list' | 'json';

export interface Setting<S extends z.ZodType = z.ZodType, O extends boolean = boolean> {
  readonly schema: S;
  readonly kind: SettingKind;
  /** The value when no source sets it; undefined only for optional settings. */
  readonly default: z.output<S> | undefined;
  /** True when the setting may stay unset. */
  readonly optional: O;
  readonly description: string;
  /** How the default is shown in --help, when the value itself would mislead. */
  readonly defaultLabel?: string;
  /** The value placeholder shown in --help. */
  readonly placeholder?: string;
}

interface SettingExtra {
  defaultLabel?: string;
  placeholder?: string;
}

function setting<S extends z.ZodType>(
  schema: S,
  kind: SettingKind,
  defaultValue: z.output<S>,
  description: string,
  extra: SettingExtra = {},
): Setting<S, false> {
  return { schema, kind, default: defaultValue, optional: false, description, ...extra };
}

function optionalSetting<S extends z.ZodType>(
  schema: S,
  kind: SettingKind,
  description: string,
  extra: SettingExtra = {},
): Setting<S, true> {
  return { schema, kind, default: undefined, optional: true, description, defaultLabel: 'none', ...extra };
}

const portSchema = z.number().int().min(0, 'must be 0..65535').max(65535, 'must be 0..65535');
const nonEmpty = z.string().min(1, 'must not be empty');

/** The address entries svc_getL1ContractAddresses gives for contracts cairn has none of. */
const absentContract = ethAddress
  .refine((a) => /^0x0{40}$/.test(a), 'cairn has no such contract: expected the zero address')
  .optional();

/**
 * The rollup's L1 contracts: the ones cairn deploys, optionally with the zero-address entries of a
 * node's svc_getL1ContractAddresses result, so that result can be passed on as it is.
 */
const l1ContractAddressesSetting = deployedL1ContractAddresses
  .extend({
    stakingAssetAddress: absentContract,
    coinIssuerAddress: absentContract,
    rewardDistributorAddress: absentContract,
    governanceProposerAddress: absentContract,
    governanceAddress: absentContract,
  })
  .strict()
  .transform(
    ({
      stakingAssetAddress: _s,
      coinIssuerAddress: _c,
      rewardDistributorAddress: _r,
      governanceProposerAddress: _gp,
      governanceAddress: _g,
      ...deployed
    }) => deployed,
  );

/** An offense's penalty: a decimal amount in the staking asset's smallest unit. */
function penaltySetting(offense: string) {
  return setting(
    z
      .union([
        z.bigint().min(0n),
        z.number().int().min(0),
        z.string().regex(/^[0-9]+$/, 'expected a decimal integer'),
      ])
      .transform((v) => BigInt(v)),
    'string',
    10n ** 18n,
    `Penalty proposed for ${offense}, in the smallest unit of the staking asset`,
    { placeholder: 'amount', defaultLabel: '1000000000000000000' },
  );
}

export const SETTINGS = {
  port: setting(portSchema, 'int', 8080, 'Public JSON-RPC port (svc_*, node_*); 0 picks a free port'),
  host: setting(nonEmpty, 'string', '0.0.0.0', 'Address the public port binds to'),
  adminPort: setting(
    portSchema,
    'int',
    8880,
    'Admin JSON-RPC port (svcAdmin_*, nodeAdmin_*, svcDev_*); 0 picks a free port',
  ),
  adminHost: setting(
    nonEmpty,
    'string',
    '127.0.0.1',
    'Address the admin port binds to; a non-loopback address requires an admin API key',
  ),
  adminApiKey: optionalSetting(
    z.string().min(16, 'must be at least 16 characters'),
    'string',
    'API key for the admin port, sent as x-api-key or Authorization: Bearer; at least 16 characters',
  ),
  dataDir: setting(nonEmpty, 'string', join(homedir(), '.cairn'), 'Directory holding the node databases', {
    defaultLabel: '~/.cairn',
    placeholder: 'path',
  }),
  ephemeral: setting(
    z.boolean(),
    'bool',
    false,
    'Keep all data in a temporary directory that is removed on exit (ignores dataDir)',
  ),
  logLevel: setting(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'string',
    'info',
    'Log level: fatal, error, warn, info, debug, trace or silent',
  ),
  logFormat: setting(
    z.enum(['auto', 'pretty', 'json']),
    'string',
    'auto',
    'Log format: pretty lines, JSON lines, or auto (pretty on a terminal, JSON otherwise)',
  ),
  readyFile: optionalSetting(
    nonEmpty,
    'string',
    'Once both ports listen, write {"public": URL, "admin": URL} to this file',
    { placeholder: 'path' },
  ),
  rpcMaxBatchSize: setting(
    z.number().int().min(1).max(10_000),
    'int',
    100,
    'Most requests accepted in one JSON-RPC batch',
  ),
  rpcMaxBodyBytes: setting(
    z.number().int().min(1024),
    'int',
    4 * 1024 * 1024,
    'Largest accepted request body in bytes (HTTP 413 above)',
  ),
  rpcMaxResponseBytes: setting(
    z.number().int().min(1024),
    'int',
    64 * 1024 * 1024,
    'Largest response in bytes; a larger result gets error -32005',
  ),
  rpcRateLimit: setting(
    z.number().int().min(0),
    'int',
    0,
    'Calls per second allowed per client IP on the public port (0 = unlimited); over it: -32005',
  ),
  rpcRequestTimeoutMs: setting(
    z.number().int().min(1000),
    'int',
    30_000,
    'Time allowed to receive a whole request, in milliseconds',
  ),
  rpcCorsOrigins: setting(
    z.array(nonEmpty).min(1),
    'list',
    ['*'],
    'Origins allowed by CORS on the public port, comma-separated; * allows any',
  ),
  shutdownTimeoutMs: setting(
    z.number().int().min(100),
    'int',
    10_000,
    'On SIGINT/SIGTERM, how long to wait for in-flight work before exiting anyway',
  ),
  l1RpcUrl: optionalSetting(
    z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
    'string',
    'JSON-RPC URL of the L1 chain; without it the node runs its own anvil (embedded L1) under the data directory',
    { placeholder: 'url' },
  ),
  l1Port: setting(
    portSchema,
    'int',
    8545,
    "Port of the embedded L1 (anvil) on 127.0.0.1, as anvil's default; 0 picks a free port. Not used with l1RpcUrl",
  ),
  l1MaxFailedPolls: setting(
    z.number().int().min(1),
    'int',
    5,
    'Failed L1 polls in a row (one a second) after which L1 counts as unreachable: GET /status answers 503 and svc_isReady false until L1 answers again',
  ),
  l1ContractAddresses: optionalSetting(
    l1ContractAddressesSetting,
    'json',
    'With l1RpcUrl: the rollup contracts on that chain, as JSON {rollupAddress, registryAddress, inboxAddress, outboxAddress, feeJuiceAddress, feeJuicePortalAddress}, or the whole result of svc_getL1ContractAddresses of a node on that rollup; slashFactoryAddress may be given too (it is read from the rollup and must match)',
    { placeholder: 'json' },
  ),
  proverPrivateKey: optionalSetting(
    z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a private key: 0x followed by 64 hex digits'),
    'string',
    'Key of the account the rollup takes epoch proofs from; the node proves epochs with it (on the embedded L1 the deployer account is used when unset)',
    { placeholder: 'key', defaultLabel: 'none' },
  ),
  clock: setting(
    z.enum(['realtime', 'manual', 'instant']),
    'string',
    'realtime',
    "realtime: the embedded L1 mines a block every l1BlockTime seconds; manual: it mines only through the svcDev_ methods; instant: a block is built as soon as a tx arrives (like anvil's automine: L1 moves to the next slot at once)",
  ),
  l1BlockTime: setting(
    z.number().int().min(1).max(60),
    'int',
    2,
    'Seconds between blocks of the embedded L1 in realtime mode',
  ),
  slotDuration: setting(
    z.number().int().min(1),
    'int',
    8,
    'Seconds per L2 slot (rollup parameter, used when the contracts are first deployed)',
  ),
  epochDuration: setting(
    z.number().int().min(1).max(32),
    'int',
    4,
    'Slots per epoch (rollup parameter, used at first deployment)',
  ),
  proofSubmissionEpochs: setting(
    z.number().int().min(1),
    'int',
    1,
    'Epochs an epoch has to be proven in before its checkpoints are pruned (rollup parameter, used at first deployment)',
  ),
  targetCommitteeSize: setting(
    z.number().int().min(1),
    'int',
    4,
    'Validators in each epoch committee (rollup parameter, used at first deployment)',
  ),
  manaTarget: setting(
    z.number().int().min(0),
    'int',
    100_000_000,
    'Mana per checkpoint the fee model aims at; the limit is twice it (rollup parameter, used at first deployment)',
  ),
  archiverPollingIntervalMS: setting(
    z.number().int().min(50),
    'int',
    500,
    'Milliseconds between reads of L1 (and sequencer and prover turns) with the realtime clock',
  ),
  archiverBatchSize: setting(
    z.number().int().min(1).max(100_000),
    'int',
    1000,
    'Most L1 blocks the archiver reads in one pass',
  ),
  l1FinalityDepth: setting(
    z.number().int().min(0),
    'int',
    2,
    'L1 blocks after which an epoch proof counts as final (the finalized tip)',
  ),
  maxBlocksPerCheckpoint: setting(
    z.number().int().min(1).max(64),
    'int',
    2,
    'Most blocks a proposer builds in its slot',
  ),
  minTxsPerBlock: setting(
    z.number().int().min(0),
    'int',
    0,
    'Fewest txs a block is built with; 0 builds one empty block per checkpoint when there are no txs',
  ),
  maxTxsPerBlock: setting(z.number().int().min(1), 'int', 32, 'Most txs in one block'),
  coinbase: optionalSetting(
    ethAddress,
    'string',
    'L1 address credited for blocks of validators whose keystore entry names no coinbase (default: the attester address)',
    { placeholder: 'address' },
  ),
  feeRecipient: optionalSetting(
    l2Address,
    'string',
    'L2 address credited with the fees of blocks of validators whose keystore entry names no fee recipient (default: 0)',
    { placeholder: 'address' },
  ),
  sequencer: setting(
    z.boolean(),
    'bool',
    true,
    "Build and propose blocks in the slots of the keystore's validators; false follows the chain without proposing",
  ),
  p2p: setting(
    z.boolean(),
    'bool',
    false,
    'Join the P2P network: gossip txs, block and checkpoint proposals and attestations with peers (libp2p over TCP)',
  ),
  p2pPort: setting(portSchema, 'int', 40400, 'TCP port of the P2P network; 0 picks a free port'),
  p2pListenHost: setting(nonEmpty, 'string', '0.0.0.0', 'Address the P2P port binds to'),
  p2pAnnounceHost: setting(
    z.ipv4({ error: 'expected an IPv4 address' }),
    'string',
    '127.0.0.1',
    "IPv4 address peers reach this node at, written into its node record (ENR); set it to the host's public address",
  ),
  p2pBootstrapNodes: setting(
    z.array(nonEmpty),
    'list',
    [],
    'Peers to connect to at start and keep reconnecting to: node records (enr:…) or multiaddrs ending in /p2p/<peer id>, comma-separated',
    { defaultLabel: 'none', placeholder: 'list' },
  ),
  remoteValidators: setting(
    z.array(ethAddress),
    'list',
    [],
    "Attester addresses of validators run by other nodes, added to the validator set (after the keystore's) when the embedded L1 is first deployed, and funded there; comma-separated",
    { defaultLabel: 'none', placeholder: 'addresses' },
  ),
  attestationTimeoutMs: setting(
    z.number().int().min(0),
    'int',
    4000,
    "Longest a proposer waits for the committee's attestations (never past the last L1 block of the slot)",
  ),
  validatorStats: setting(
    z.boolean(),
    'bool',
    true,
    "Record each slot's proposal and attestation outcomes (svc_getValidatorsStats) and detect inactivity",
  ),
  validatorStatsSlotWindow: setting(
    z.number().int().min(1),
    'int',
    256,
    'Slots of history kept per validator in the stats',
  ),
  slashingRoundSize: setting(
    z.number().int().min(1),
    'int',
    64,
    "Slots per slashing round, set in the Slasher when the embedded L1 is first deployed (an existing Slasher's own value is used): offenses are grouped by the round of their slot (or of their epoch's first slot), and proposers vote on slash payloads round by round",
  ),
  slashingQuorumSize: optionalSetting(
    z.number().int().min(1),
    'int',
    'Votes a slash payload needs within a round, set in the Slasher when the embedded L1 is first deployed; more than half of slashingRoundSize, and at most all of it',
    { defaultLabel: 'slashingRoundSize / 2 + 1' },
  ),
  slashOffenseExpirationRounds: setting(
    z.number().int().min(0),
    'int',
    4,
    'Rounds after its first voting round (the round after the offense) in which a proposer still puts an offense into slash payloads',
  ),
  slashMaxPayloadSize: setting(
    z.number().int().min(1).max(128, 'the Slasher takes at most 128 offenses per payload'),
    'int',
    50,
    'Most offenses in a slash payload this node proposes or votes for (1..128)',
  ),
  slashInactivityTargetPercentage: setting(
    z
      .union([
        z.number(),
        z
          .string()
          .regex(/^[0-9]*\.?[0-9]+$/, 'expected a number')
          .transform(Number),
      ])
      .pipe(z.number().gt(0, 'must be above 0').max(1, 'must be at most 1')),
    'string',
    0.9,
    'Share of its duties in an epoch (proposals and attestations) a validator must miss to commit an inactivity offense',
  ),
  slashInactivityPenalty: penaltySetting('inactivity'),
  slashDuplicateProposalPenalty: penaltySetting('a duplicate proposal'),
  slashDuplicateAttestationPenalty: penaltySetting('a duplicate attestation'),
  slashInsufficientAttestationsPenalty: penaltySetting('publishing a checkpoint with too few attestations'),
  snapshotUrl: optionalSetting(
    nonEmpty,
    'string',
    'Bootstrap a new node (empty data directory) from the newest snapshot at this location (file:///path, s3://bucket/prefix or http(s)://), then sync from L1; needs l1RpcUrl',
    { placeholder: 'url' },
  ),
  s3Endpoint: optionalSetting(
    z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
    'string',
    'S3 endpoint for s3:// snapshot locations (an S3-compatible server); default: AWS',
    { placeholder: 'url' },
  ),
  s3Region: setting(nonEmpty, 'string', 'us-east-1', 'S3 region for s3:// snapshot locations'),
  s3AccessKeyId: optionalSetting(
    nonEmpty,
    'string',
    "S3 access key id for s3:// snapshot locations; default: the AWS SDK's usual sources (AWS_ACCESS_KEY_ID, profiles)",
  ),
  s3SecretAccessKey: optionalSetting(nonEmpty, 'string', 'S3 secret access key, with s3AccessKeyId'),
  keystorePath: optionalSetting(
    nonEmpty,
    'string',
    'Validator keystore (JSON, see docs/operations.md); default: keystore.json in the data directory, created with devValidators new keys if missing',
    { placeholder: 'path' },
  ),
  devValidators: setting(
    z.number().int().min(1).max(64),
    'int',
    4,
    'How many validators a newly created dev keystore holds',
  ),
  worldStateHistoryBlocks: setting(
    z.number().int().min(0),
    'int',
    0,
    'Blocks of world-state history kept readable (witnesses at older blocks); 0 keeps all',
  ),
  l1ChainId: setting(
    z.number().int().min(1),
    'int',
    31337,
    'Chain id of the L1 (settlement) chain; 31337 is the embedded anvil',
  ),
  rollupVersion: setting(
    z.number().int().min(1).max(0xffffffff),
    'int',
    1,
    'Version of the rollup this node follows',
  ),
  txMaxL2Gas: setting(
    z.number().int().min(1),
    'int',
    6_540_000,
    'Most L2 gas one transaction may declare (reported as txsLimits in getNodeInfo)',
  ),
  txMaxDaGas: setting(
    z.number().int().min(1),
    'int',
    786_432,
    'Most DA gas one transaction may declare (reported as txsLimits in getNodeInfo)',
  ),
  mempoolMaxTxCount: setting(
    z.number().int().min(1),
    'int',
    10_000,
    'Most pending txs the mempool holds; the lowest priority fee is evicted first',
  ),
  mempoolMaxBytes: setting(
    z.number().int().min(1024),
    'int',
    2 * 1024 * 1024 * 1024,
    'Most bytes of pending txs the mempool holds (a tx is ~100-200 KB with its proof, kept on disk); the lowest priority fee is evicted first',
  ),
  devAccounts: setting(
    z.number().int().min(0).max(1000),
    'int',
    10,
    'Dev accounts prefunded with Fee Juice at genesis (printed at start); part of the genesis state, so every node of a chain needs the same value',
  ),
  testAccounts: setting(
    z.boolean(),
    'bool',
    true,
    "Prefund at genesis, as the reference's local network does, its three initial test accounts and the SponsoredFPC with 10^22 Fee Juice each, so that aztec.js wallets can deploy accounts and pay fees; part of the genesis state, so every node of a chain needs the same value",
  ),
  txPublicSetupAllowListExtend: setting(
    z.array(allowedElement),
    'json',
    [],
    'Extra public functions allowed in the setup phase, as a JSON array of {address|classId, selector, onlySelf?, rejectNullMsgSender?, calldataLength?}',
    { defaultLabel: '[]', placeholder: 'json' },
  ),
} as const;

export type SettingKey = keyof typeof SETTINGS;
type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]['schema']>;
/** The node's configuration: settings without a default may be undefined. */
export type Config = {
  [K in SettingKey]: (typeof SETTINGS)[K]['optional'] extends true
    ? SettingValue<K> | undefined
    : SettingValue<K>;
};

/**
 * The words of a camelCase key; a run of capitals is one word (an acronym), so that
 * `archiverPollingIntervalMS` gives archiver, polling, interval, ms.
 */
const wordsOf = (key: string) =>
  key
    .replace(/([a-z0-9])(?=[A-Z])|([A-Z])(?=[A-Z][a-z])/g, '$1$2 ')
    .toLowerCase()
    .split(' ');
export const flagOf = (key: string) => `--${wordsOf(key).join('-')}`;
export const envOf = (key: string) => `CAIRN_${wordsOf(key).join('_').toUpperCase()}`;

/**
 * Spellings a setting had before and that still work, hidden from --help: the flag and
 * variable of `archiverPollingIntervalMS` split its acronym (`--archiver-polling-interval-m-s`).
 */
export const FORMER_NAMES: Partial<Record<SettingKey, { flag: string; env: string }>> = {
  archiverPollingIntervalMS: {
    flag: '--archiver-polling-interval-m-s',
    env: 'CAIRN_ARCHIVER_POLLING_INTERVAL_M_S',
  },
};

/** The environment variables a setting is read from: its own, then any former name. */
export const envNamesOf = (key: SettingKey): string[] => {
  const former = FORMER_NAMES[key]?.env;
  return former === undefined ? [envOf(key)] : [envOf(key), former];
};

/** The topics `cairn start --help` lists the settings under, in the order shown. */
export const SETTING_GROUPS = {
  rpc: 'Ports & RPC',
  node: 'Data, logging & process',
  l1: 'L1',
  chain: 'Chain & timing',
  sequencer: 'Sequencer & blocks',
  mempool: 'Mempool & txs',
  validators: 'Validators & slashing',
  p2p: 'P2P',
  prover: 'Prover',
  snapshots: 'Snapshots',
  worldState: 'World state',
  dev: 'Dev',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

/** Each setting's topic in --help; a new setting must be given one here. */
export const GROUP_OF: Record<SettingKey, SettingGroup> = {
  port: 'rpc',
  host: 'rpc',
  adminPort: 'rpc',
  adminHost: 'rpc',
  adminApiKey: 'rpc',
  rpcMaxBatchSize: 'rpc',
  rpcMaxBodyBytes: 'rpc',
  rpcMaxResponseBytes: 'rpc',
  rpcRateLimit: 'rpc',
  rpcRequestTimeoutMs: 'rpc',
  rpcCorsOrigins: 'rpc',
  dataDir: 'node',
  ephemeral: 'node',
  logLevel: 'node',
  logFormat: 'node',
  readyFile: 'node',
  shutdownTimeoutMs: 'node',
  l1RpcUrl: 'l1',
  l1Port: 'l1',
  l1MaxFailedPolls: 'l1',
  l1ContractAddresses: 'l1',
  l1ChainId: 'l1',
  l1FinalityDepth: 'l1',
  archiverPollingIntervalMS: 'l1',
  archiverBatchSize: 'l1',
  clock: 'chain',
  l1BlockTime: 'chain',
  slotDuration: 'chain',
  epochDuration: 'chain',
  proofSubmissionEpochs: 'chain',
  manaTarget: 'chain',
  rollupVersion: 'chain',
  sequencer: 'sequencer',
  maxBlocksPerCheckpoint: 'sequencer',
  minTxsPerBlock: 'sequencer',
  maxTxsPerBlock: 'sequencer',
  coinbase: 'sequencer',
  feeRecipient: 'sequencer',
  attestationTimeoutMs: 'sequencer',
  mempoolMaxTxCount: 'mempool',
  mempoolMaxBytes: 'mempool',
  txMaxL2Gas: 'mempool',
  txMaxDaGas: 'mempool',
  txPublicSetupAllowListExtend: 'mempool',
  keystorePath: 'validators',
  remoteValidators: 'validators',
  targetCommitteeSize: 'validators',
  validatorStats: 'validators',
  validatorStatsSlotWindow: 'validators',
  slashingRoundSize: 'validators',
  slashingQuorumSize: 'validators',
  slashOffenseExpirationRounds: 'validators',
  slashMaxPayloadSize: 'validators',
  slashInactivityTargetPercentage: 'validators',
  slashInactivityPenalty: 'validators',
  slashDuplicateProposalPenalty: 'validators',
  slashDuplicateAttestationPenalty: 'validators',
  slashInsufficientAttestationsPenalty: 'validators',
  p2p: 'p2p',
  p2pPort: 'p2p',
  p2pListenHost: 'p2p',
  p2pAnnounceHost: 'p2p',
  p2pBootstrapNodes: 'p2p',
  proverPrivateKey: 'prover',
  snapshotUrl: 'snapshots',
  s3Endpoint: 'snapshots',
  s3Region: 'snapshots',
  s3AccessKeyId: 'snapshots',
  s3SecretAccessKey: 'snapshots',
  worldStateHistoryBlocks: 'worldState',
  devValidators: 'dev',
  devAccounts: 'dev',
  testAccounts: 'dev',
};
