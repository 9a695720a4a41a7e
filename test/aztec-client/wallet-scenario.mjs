// The stock aztec.js 4.1.2 wallet's whole workflow against a cairn node, run by
// test/e2e/aztec-wallet.test.ts with Node 22 from the pinned install (.cache/aztec-client/), next to
// the `wallet.mjs` that docs/aztec-js.md shows (the test writes it out of the page). One JSON line
// per step on stdout: {"step": name, ...what it saw}; the test checks each against the node.
//
//   node wallet-scenario.mjs <aztec URL> <admin URL> <first|restart>
//
// `first` runs the workflow and two refusals; `restart` is a new wallet process on the same node,
// with the same accounts, that must find their notes again, then sees an expired tx refused (last:
// it moves chain time a day on).
import { createWallet } from './wallet.mjs';

const [url, adminUrl, phase = 'first'] = process.argv.slice(2);
const out = (step, fields = {}) => process.stdout.write(`${JSON.stringify({ step, ...fields })}\n`);
const str = (v) => (typeof v === 'bigint' ? v.toString() : v?.toString());

const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
const { Fr } = await import('@aztec/aztec.js/fields');
const { AztecAddress } = await import('@aztec/aztec.js/addresses');
const { SponsoredFeePaymentMethod } = await import('@aztec/aztec.js/fee');
const { getContractInstanceFromInstantiationParams } = await import('@aztec/aztec.js/contracts');
const { SponsoredFPCContract } = await import('@aztec/noir-contracts.js/SponsoredFPC');
const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
const { SPONSORED_FPC_SALT } = await import('@aztec/constants');

async function admin(method, params = []) {
  const res = await fetch(adminUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The message a refused send gives the wallet's caller (aztec.js throws it as is). */
async function refusal(fn) {
  try {
    await fn();
  } catch (err) {
    return err.message;
  }
  return undefined;
}

const wallet = await createWallet(url);
const node = wallet.aztecNode;
const fpc = await getContractInstanceFromInstantiationParams(SponsoredFPCContract.artifact, {
  salt: new Fr(SPONSORED_FPC_SALT),
});
await wallet.registerContract(fpc, SponsoredFPCContract.artifact);
const sponsored = { paymentMethod: new SponsoredFeePaymentMethod(fpc.address) };
const testAccounts = await getInitialTestAccountsData();
out('test accounts', { addresses: testAccounts.map((a) => str(a.address)), sponsoredFpc: str(fpc.address) });

// Alice is the reference's first test account; Bob a fresh account with fixed keys (the restart
// recreates him), deployed through the SponsoredFPC.
const [a0] = testAccounts;
const aliceManager = await wallet.createSchnorrAccount(a0.secret, a0.salt, a0.signingKey);
const bobSecret = Fr.fromString('0x0b0b');
const bobSalt = Fr.fromString('0x0b0b5a17');
const bobManager = await wallet.createSchnorrAccount(bobSecret, bobSalt);
const alice = aliceManager.address;
const bob = bobManager.address;
const receiptOf = (r) => r.receipt ?? r;
const sent = (step, r, fields = {}) => {
  const receipt = receiptOf(r);
  out(step, {
    txHash: str(receipt.txHash),
    status: receipt.status,
    blockNumber: receipt.blockNumber,
    ...fields,
  });
};

/** Proves a call as the wallet's send would, without sending it. */
const prove = async (interaction, from) => {
  const payload = await interaction.request({ from });
  const fee = await wallet.completeFeeOptions(from, payload.feePayer, undefined);
  const request = await wallet.createTxExecutionRequestFromPayloadAndFee(payload, from, fee);
  return (await wallet.pxe.proveTx(request, [from])).toTx();
};

if (phase === 'restart') {
  const tokenAddress = AztecAddress.fromString(process.env.TOKEN_ADDRESS);
  const instance = await node.getContract(tokenAddress);
  await wallet.registerContract(instance, TokenContract.artifact);
  await wallet.registerSender(alice, 'alice');
  await wallet.registerSender(bob, 'bob');
  const token = await TokenContract.at(tokenAddress, wallet);
  const balances = {};
  for (const [name, who] of [
    ['alice', alice],
    ['bob', bob],
  ]) {
    balances[name] = {
      private: str((await token.methods.balance_of_private(who).simulate({ from: who })).result),
      public: str((await token.methods.balance_of_public(who).simulate({ from: who })).result),
    };
  }
  out('balances after restart', balances);
  // An expired tx: proven now, sent after chain time passed its expiration (a day).
  const stale = await prove(token.methods.transfer(bob, 3n), alice);
  const header = await node.getBlockHeader('latest');
  await admin('svcDev_advanceToSlot', [Number(header.globalVariables.slotNumber) + 86_400 / 8 + 2]);
  out('expired', {
    txHash: str(stale.getTxHash()),
    expiration: str(stale.data.expirationTimestamp),
    error: await refusal(() => node.sendTx(stale)),
  });
  process.exit(0);
}

sent(
  'deploy alice (own Fee Juice)',
  await (await aliceManager.getDeployMethod()).send({ from: AztecAddress.ZERO }),
  {
    address: str(alice),
  },
);
sent(
  'deploy bob (SponsoredFPC)',
  await (await bobManager.getDeployMethod()).send({ from: AztecAddress.ZERO, fee: sponsored }),
  { address: str(bob) },
);
await wallet.registerSender(alice, 'alice');
await wallet.registerSender(bob, 'bob');

const deployed = await TokenContract.deploy(wallet, alice, 'TestToken', 'TT', 18).send({ from: alice });
const token = deployed.contract;
sent('deploy token', deployed, { address: str(token.address) });

sent('mint_to_private', await token.methods.mint_to_private(alice, 1000n).send({ from: alice }));
sent('mint_to_public', await token.methods.mint_to_public(alice, 500n).send({ from: alice }));
sent('transfer', await token.methods.transfer(bob, 100n).send({ from: alice }));
sent('transfer_in_public', await token.methods.transfer_in_public(alice, bob, 50n, 0n).send({ from: alice }));
// Public to private (a private function that enqueues the public half), and back.
sent('transfer_to_private', await token.methods.transfer_to_private(alice, 200n).send({ from: alice }));
sent(
  'transfer_to_public',
  await token.methods.transfer_to_public(alice, alice, 30n, 0n).send({ from: alice }),
);

// Bob moves Alice's private tokens with her authwit.
const nonce = Fr.fromString('0x5eed');
const action = token.methods.transfer_in_private(alice, bob, 20n, nonce);
const witness = await wallet.createAuthWit(alice, { caller: bob, call: await action.getFunctionCall() });
// Alice's notes are in her scope: Bob's wallet reads them with her key (the same wallet holds both).
sent(
  'transfer_in_private (authwit)',
  await action.send({ from: bob, authWitnesses: [witness], additionalScopes: [alice], fee: sponsored }),
);

const balance = async (fn, who) => str((await token.methods[fn](who).simulate({ from: who })).result);
out('balances', {
  alice: {
    private: await balance('balance_of_private', alice),
    public: await balance('balance_of_public', alice),
  },
  bob: { private: await balance('balance_of_private', bob), public: await balance('balance_of_public', bob) },
});

// Refusals: each reaches the caller as the node's error and changes nothing.
const before = await node.getBlockNumber();

// A double spend: two txs proven on the same notes before either is sent.
const first = await prove(token.methods.transfer(bob, 1n), alice);
const second = await prove(token.methods.transfer(bob, 2n), alice);
await node.sendTx(first);
const firstHash = first.getTxHash();
for (let i = 0; i < 100 && (await node.getTxReceipt(firstHash)).status !== 'checkpointed'; i++) {
  await new Promise((r) => setTimeout(r, 100));
}
out('double spend', {
  firstHash: str(firstHash),
  secondHash: str(second.getTxHash()),
  error: await refusal(() => node.sendTx(second)),
});

// An unfunded fee payer: a fresh account paying its own deployment with no Fee Juice.
const carol = await wallet.createSchnorrAccount(Fr.random(), Fr.random());
out('unfunded', {
  error: await refusal(async () => (await carol.getDeployMethod()).send({ from: AztecAddress.ZERO })),
});
out('refusals done', { blockBefore: before, blockAfter: await node.getBlockNumber() });
out('done', { token: str(token.address), alice: str(alice), bob: str(bob) });
process.exit(0);
