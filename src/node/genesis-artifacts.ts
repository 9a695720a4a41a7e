// The contracts that exist from genesis (execution/genesis-contracts.ts), from the reference's
// published artifacts: the six protocol contracts of @aztec/protocol-contracts@4.1.2 and the
// SponsoredFPC of @aztec/noir-contracts.js@4.1.2, fetched once from the npm registry
// (integrity-pinned, by src/artifacts/npm-artifacts.ts) into the git-ignored cache
// `.cache/artifacts/`. Every node of a network must run the same bytecode, so a node that cannot
// get it does not start.
import type { Logger } from 'pino';
import { ARTIFACT_PACKAGES, ensureArtifacts, loadArtifactJson } from '../artifacts/npm-artifacts.js';
import { contractClassOf, parseArtifact } from '../core/artifact.js';
import {
  AUTH_REGISTRY_ADDRESS,
  PROTOCOL_CONTRACT_ADDRESSES,
  PUBLIC_CHECKS_ADDRESS,
} from '../core/constants.js';
import { type ContractInstance, DEFAULT_PUBLIC_KEYS, makeContractInstance } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import { toHex32 } from '../core/field.js';
import type { GenesisContract } from '../execution/genesis-contracts.js';
import { SPONSORED_FPC_ADDRESS, SPONSORED_FPC_SALT } from '../execution/test-accounts.js';

const PROTOCOL_PACKAGE = '@aztec/protocol-contracts@4.1.2';
const CONTRACTS_PACKAGE = '@aztec/noir-contracts.js@4.1.2';

/** The protocol contracts, each at its fixed address (the reference's 4.x numbering). */
export const PROTOCOL_CONTRACT_FILES: readonly { file: string; address: Fr }[] = [
  { file: 'artifacts/AuthRegistry.json', address: AUTH_REGISTRY_ADDRESS },
  { file: 'artifacts/ContractInstanceRegistry.json', address: PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry },
  { file: 'artifacts/ContractClassRegistry.json', address: PROTOCOL_CONTRACT_ADDRESSES.classRegistry },
  { file: 'artifacts/MultiCallEntrypoint.json', address: PROTOCOL_CONTRACT_ADDRESSES.multiCallEntrypoint },
  { file: 'artifacts/FeeJuice.json', address: PROTOCOL_CONTRACT_ADDRESSES.feeJuice },
  { file: 'artifacts/PublicChecks.json', address: PUBLIC_CHECKS_ADDRESS },
];

export const SPONSORED_FPC_FILE = 'artifacts/sponsored_fpc_contract-SponsoredFPC.json';

/**
 * A protocol contract's canonical instance: at its fixed address (not one derived from its
 * preimage), salt 1, deployed by itself, no initializer, the default keys.
 */
export function protocolContractInstance(classId: Fr, address: Fr): ContractInstance {
  return {
    version: 1,
    salt: 1n,
    deployer: address,
    originalContractClassId: classId,
    currentContractClassId: classId,
    initializationHash: 0n,
    publicKeys: DEFAULT_PUBLIC_KEYS,
    address,
  };
}

async function ensure(spec: string, logger: Logger): Promise<void> {
  const entry = ARTIFACT_PACKAGES[spec];
  if (entry === undefined) throw new Error(`${spec} is not among the pinned artifact packages`);
  try {
    await ensureArtifacts({ packages: { [spec]: entry }, log: (line) => logger.info(line) });
  } catch (err) {
    throw new Error(
      `cannot get the genesis contracts' artifacts (${spec} from the npm registry): ${(err as Error).message.split('\n')[0]}; run \`node scripts/fetch-artifacts.mjs\` where the registry is reachable`,
    );
  }
}

/** Reads the genesis contracts from the cache, fetching the two packages first if needed. */
export async function loadGenesisContracts(logger: Logger): Promise<GenesisContract[]> {
  await ensure(PROTOCOL_PACKAGE, logger);
  await ensure(CONTRACTS_PACKAGE, logger);
  const contracts = PROTOCOL_CONTRACT_FILES.map(({ file, address }) => {
    const artifact = parseArtifact(loadArtifactJson(PROTOCOL_PACKAGE, file));
    const contractClass = contractClassOf(artifact);
    return {
      name: artifact.name,
      contractClass,
      instance: protocolContractInstance(contractClass.id, address),
      errors: artifact.errors,
    };
  });
  const fpc = parseArtifact(loadArtifactJson(CONTRACTS_PACKAGE, SPONSORED_FPC_FILE));
  const fpcClass = contractClassOf(fpc);
  const fpcInstance = makeContractInstance({ classId: fpcClass.id, salt: SPONSORED_FPC_SALT });
  if (fpcInstance.address !== SPONSORED_FPC_ADDRESS) {
    // The prefunded address is a fact of the reference's local network; an artifact that derives
    // another would fund an address nobody can spend from.
    throw new Error(
      `the SponsoredFPC artifact derives ${toHex32(fpcInstance.address)}, not the reference's ${toHex32(SPONSORED_FPC_ADDRESS)}`,
    );
  }
  contracts.push({ name: fpc.name, contractClass: fpcClass, instance: fpcInstance, errors: fpc.errors });
  for (const c of contracts) {
    logger.debug(`${c.name} at ${toHex32(c.instance.address)}: class ${toHex32(c.contractClass.id)}`);
  }
  return contracts;
}
