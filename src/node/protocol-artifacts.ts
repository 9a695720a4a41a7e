// The protocol contracts whose real bytecode the node runs on the AVM (the AuthRegistry), read
// from the reference's published artifacts: the npm package @aztec/protocol-contracts@4.1.2,
// fetched once from the npm registry (integrity-pinned, by src/artifacts/npm-artifacts.ts) into the
// git-ignored cache `.cache/artifacts/`. Every node of a network must run the same bytecode, so a
// node that cannot get it does not start.
import type { Logger } from 'pino';
import { ARTIFACT_PACKAGES, ensureArtifacts, loadArtifactJson } from '../artifacts/npm-artifacts.js';
import { contractClassOf, parseArtifact } from '../core/artifact.js';
import { AUTH_REGISTRY_ADDRESS } from '../core/constants.js';
import { toHex32 } from '../core/field.js';
import type { AvmProtocolContract } from '../execution/avm-protocol-contracts.js';

const PACKAGE = '@aztec/protocol-contracts@4.1.2';

/** The AuthRegistry's canonical instance: address 1, salt 1, deployer 1, no initializer. */
const AUTH_REGISTRY = { file: 'artifacts/AuthRegistry.json', address: AUTH_REGISTRY_ADDRESS, deployer: 1n };

export async function loadAvmProtocolContracts(logger: Logger): Promise<AvmProtocolContract[]> {
  const entry = ARTIFACT_PACKAGES[PACKAGE];
  if (entry === undefined) throw new Error(`${PACKAGE} is not among the pinned artifact packages`);
  try {
    await ensureArtifacts({
      packages: { [PACKAGE]: entry },
      log: (line) => logger.info(line),
    });
  } catch (err) {
    throw new Error(
      `cannot get the AuthRegistry's bytecode (${PACKAGE} from the npm registry): ${(err as Error).message.split('\n')[0]}; run \`node scripts/fetch-artifacts.mjs\` where the registry is reachable`,
    );
  }
  const artifact = parseArtifact(loadArtifactJson(PACKAGE, AUTH_REGISTRY.file));
  const cls = contractClassOf(artifact);
  logger.debug(
    `AuthRegistry at ${toHex32(AUTH_REGISTRY.address)} runs class ${toHex32(cls.id)} (${PACKAGE})`,
  );
  return [
    {
      name: artifact.name,
      address: AUTH_REGISTRY.address,
      classId: cls.id,
      bytecode: artifact.publicBytecode,
      deployer: AUTH_REGISTRY.deployer,
      initializationHash: 0n,
    },
  ];
}
