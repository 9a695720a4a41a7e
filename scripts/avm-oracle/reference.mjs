// Loads the reference simulator (@aztec/simulator@4.1.2 and friends) from a scratch folder
// outside the repository. The repository never depends on these packages: this module resolves
// each import by hand against `<scratch>/node_modules`, following the packages' `exports` maps,
// so that the reference's own modules (which import each other by package name) and ours share
// one module instance per file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PINNED_VERSION = '4.1.2';

/** Finds the file a bare specifier such as `@aztec/stdlib/abi` maps to under `<scratch>/node_modules`. */
export function resolveIn(scratch, specifier) {
  const parts = specifier.split('/');
  const pkgName = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const sub = specifier.slice(pkgName.length);
  const pkgDir = join(scratch, 'node_modules', pkgName);
  const pkgJson = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  // A path into the package (`dest/...js`) is taken as is: the simulator's exports map hides
  // the AVM internals that the generator drives directly.
  if (sub.endsWith('.js')) return join(pkgDir, sub.slice(1));
  const key = `.${sub}`;
  const pick = (target) =>
    typeof target === 'string' ? target : (target?.import ?? target?.node ?? target?.default);
  const exportsMap = pkgJson.exports;
  let target;
  if (typeof exportsMap === 'string' && key === '.') target = exportsMap;
  else if (exportsMap && key in exportsMap) target = pick(exportsMap[key]);
  else if (exportsMap) {
    for (const [pattern, value] of Object.entries(exportsMap)) {
      if (!pattern.includes('*')) continue;
      const [pre, post] = pattern.split('*');
      if (key.startsWith(pre) && key.endsWith(post) && key.length >= pre.length + post.length) {
        const star = key.slice(pre.length, key.length - post.length);
        target = pick(value)?.replace('*', star);
        break;
      }
    }
  }
  if (!target && key === '.') target = pkgJson.module ?? pkgJson.main ?? 'index.js';
  if (!target) throw new Error(`${specifier}: no export ${key} in ${pkgName}`);
  return join(pkgDir, target);
}

/**
 * Imports the reference modules the generator uses, after the two workarounds this machine
 * needs: bb.js must use its WASM backend (the native one needs a newer glibc), and its CRS
 * download must be skipped (there is no network besides the npm registry).
 */
export async function loadReference(scratch) {
  const simPkg = join(scratch, 'node_modules', '@aztec', 'simulator', 'package.json');
  if (!existsSync(simPkg)) {
    throw new Error(
      `no @aztec/simulator under ${scratch}/node_modules: set up the scratch folder as scripts/avm-oracle/README.md says`,
    );
  }
  for (const name of ['simulator', 'stdlib', 'foundation', 'bb.js', 'protocol-contracts']) {
    const v = JSON.parse(
      readFileSync(join(scratch, 'node_modules', '@aztec', name, 'package.json'), 'utf8'),
    ).version;
    if (v !== PINNED_VERSION)
      throw new Error(`@aztec/${name} is ${v} in ${scratch}, expected ${PINNED_VERSION}`);
  }
  const imp = (spec) => import(pathToFileURL(resolveIn(scratch, spec)).href);

  const bb = await imp('@aztec/bb.js');
  bb.Barretenberg.prototype.initSRSChonk = async () => {};
  await bb.Barretenberg.initSingleton({ backend: bb.BackendType.Wasm });

  const S = '@aztec/simulator/dest/public';
  const [
    avmSim,
    calldata,
    stateManager,
    trace,
    dbSources,
    dataSource,
    abi,
    hash,
    avm,
    gas,
    tx,
    bn254,
    address,
    contract,
    keys,
    authWitness,
    pc,
  ] = await Promise.all([
    imp(`${S}/avm/avm_simulator.js`),
    imp(`${S}/avm/calldata.js`),
    imp(`${S}/state_manager/state_manager.js`),
    imp(`${S}/side_effect_trace.js`),
    imp(`${S}/public_db_sources.js`),
    imp(`${S}/fixtures/simple_contract_data_source.js`),
    imp('@aztec/stdlib/abi'),
    imp('@aztec/stdlib/hash'),
    imp('@aztec/stdlib/avm'),
    imp('@aztec/stdlib/gas'),
    imp('@aztec/stdlib/tx'),
    imp('@aztec/foundation/curves/bn254'),
    imp('@aztec/stdlib/aztec-address'),
    imp('@aztec/stdlib/contract'),
    imp('@aztec/stdlib/keys'),
    imp('@aztec/stdlib/auth-witness'),
    imp('@aztec/protocol-contracts'),
  ]);
  const [poseidon, pedersen, constants] = await Promise.all([
    imp('@aztec/foundation/crypto/poseidon'),
    imp('@aztec/foundation/crypto/pedersen'),
    imp('@aztec/constants'),
  ]);
  const canonical = {
    AuthRegistry: (await imp('@aztec/protocol-contracts/auth-registry')).getCanonicalAuthRegistry,
    FeeJuice: (await imp('@aztec/protocol-contracts/fee-juice')).getCanonicalFeeJuice,
    ContractInstanceRegistry: (await imp('@aztec/protocol-contracts/instance-registry'))
      .getCanonicalInstanceRegistry,
    ContractClassRegistry: (await imp('@aztec/protocol-contracts/class-registry')).getCanonicalClassRegistry,
    PublicChecks: (await imp('@aztec/protocol-contracts/public-checks')).getCanonicalPublicChecks,
  };
  return {
    AvmSimulator: avmSim.AvmSimulator,
    CallDataArray: calldata.CallDataArray,
    PublicPersistableStateManager: stateManager.PublicPersistableStateManager,
    SideEffectTrace: trace.SideEffectTrace,
    PublicContractsDB: dbSources.PublicContractsDB,
    SimpleContractDataSource: dataSource.SimpleContractDataSource,
    abi,
    hash,
    avm,
    gas,
    tx,
    Fr: bn254.Fr,
    AztecAddress: address.AztecAddress,
    contract,
    keys,
    authWitness,
    ProtocolContractAddress: pc.ProtocolContractAddress,
    canonical,
    poseidon,
    pedersen,
    constants,
  };
}
