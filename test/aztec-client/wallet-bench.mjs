// The wallet workload the reference's local network was timed on (../docs/performance.md, "The
// stock wallet"), run by bench/wallet.bench.ts with Node 22 next to docs/aztec-js.md's wallet.mjs.
//
//   node wallet-bench.mjs <aztec URL> setup   deploys the two accounts (the first two test accounts)
//   node wallet-bench.mjs <aztec URL> timed   from wallet creation to the last read, one JSON line
//                                             per step with its milliseconds, then the total
import { getInitialTestAccountsData } from '@aztec/accounts/testing';
import { AztecAddress } from '@aztec/aztec.js/addresses';
import { getContractInstanceFromInstantiationParams } from '@aztec/aztec.js/contracts';
import { SponsoredFeePaymentMethod } from '@aztec/aztec.js/fee';
import { Fr } from '@aztec/aztec.js/fields';
import { SPONSORED_FPC_SALT } from '@aztec/constants';
import { SponsoredFPCContract } from '@aztec/noir-contracts.js/SponsoredFPC';
import { TokenContract } from '@aztec/noir-contracts.js/Token';
import { createWallet } from './wallet.mjs';

const [url, phase] = process.argv.slice(2);
const [a0, a1] = await getInitialTestAccountsData();

if (phase === 'setup') {
  const wallet = await createWallet(url);
  for (const a of [a0, a1]) {
    const manager = await wallet.createSchnorrAccount(a.secret, a.salt, a.signingKey);
    await (await manager.getDeployMethod()).send({ from: AztecAddress.ZERO });
  }
  process.stdout.write(`${JSON.stringify({ step: 'setup' })}\n`);
  process.exit(0);
}

const started = performance.now();
let last = started;
// The wallet process's own CPU time per step (all its threads): wall time beyond it is waiting,
// on the node or on timers.
let lastCpu = process.cpuUsage();
const step = (name) => {
  const now = performance.now();
  const cpu = process.cpuUsage(lastCpu);
  const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  process.stdout.write(`${JSON.stringify({ step: name, ms: Math.round(now - last), cpuMs })}\n`);
  last = now;
  lastCpu = process.cpuUsage();
};
const wallet = await createWallet(url);
const alice = (await wallet.createSchnorrAccount(a0.secret, a0.salt, a0.signingKey)).address;
const bob = (await wallet.createSchnorrAccount(a1.secret, a1.salt, a1.signingKey)).address;
const fpc = await getContractInstanceFromInstantiationParams(SponsoredFPCContract.artifact, {
  salt: new Fr(SPONSORED_FPC_SALT),
});
await wallet.registerContract(fpc, SponsoredFPCContract.artifact);
step('wallet');
const fresh = await wallet.createSchnorrAccount(Fr.random(), Fr.random());
await (await fresh.getDeployMethod()).send({
  from: AztecAddress.ZERO,
  fee: { paymentMethod: new SponsoredFeePaymentMethod(fpc.address) },
});
step('deploy account (SponsoredFPC)');
const { contract: token } = await TokenContract.deploy(wallet, alice, 'Bench', 'BN', 18).send({
  from: alice,
});
step('deploy token');
await token.methods.mint_to_private(alice, 1000n).send({ from: alice });
step('mint_to_private');
await token.methods.mint_to_public(alice, 500n).send({ from: alice });
step('mint_to_public');
await token.methods.transfer(bob, 100n).send({ from: alice });
step('transfer');
await token.methods.transfer_in_public(alice, bob, 50n, 0n).send({ from: alice });
step('transfer_in_public');
const balances = [];
for (const who of [alice, bob]) {
  balances.push((await token.methods.balance_of_private(who).simulate({ from: who })).result);
  balances.push((await token.methods.balance_of_public(who).simulate({ from: who })).result);
}
step('four reads');
process.stdout.write(
  `${JSON.stringify({ step: 'total', ms: Math.round(performance.now() - started), balances: balances.map(String) })}\n`,
);
process.exit(0);
