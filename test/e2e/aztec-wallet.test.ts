// The reference's stock wallet (aztec.js 4.1.2, embedded PXE with proving off, Node 22 from npm)
// against a cairn node at /aztec with the instant clock: the tutorial of docs/aztec-js.md as
// written, then the whole workflow of test/aztec-client/wallet-scenario.mjs — two fresh accounts
// (one paying with its genesis Fee Juice, one through the SponsoredFPC), a Token, private and
// public mints and transfers both ways, an authwit transfer made by the other account, balances,
// a new wallet process that finds its notes again, and three txs the node refuses with the
// reference's errors. Every tx the wallet sent is checked at the seeds' API under the same hash.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toHex32 } from '../../src/core/field.js';
import { INITIAL_TEST_ACCOUNTS, SPONSORED_FPC_ADDRESS } from '../../src/execution/test-accounts.js';
import { type WalletScripts, walletScripts } from '../helpers/aztec-wallet.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';

describe('the stock aztec.js wallet on cairn', { timeout: 900_000 }, () => {
  let node: CairnProcess;
  let scripts: WalletScripts;
  let aztecUrl: string;

  before(async () => {
    scripts = await walletScripts();
    node = await startCairn(['--clock', 'instant', '--log-format', 'json']);
    aztecUrl = `${node.publicUrl}/aztec`;
  });
  after(async () => {
    await node?.stop();
    scripts?.close();
  });

  /** Runs a script and fails with its output when it does not exit 0. */
  async function run(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
    const out = await scripts.run(script, args, { AZTEC_URL: aztecUrl, ADMIN_URL: node.adminUrl, ...env });
    assert.equal(out.code, 0, `${script} exited ${out.code}:\n${out.stdout}\n${out.stderr.slice(-4000)}`);
    return out;
  }

  const step = (records: Record<string, any>[], name: string) => {
    const found = records.find((r) => r.step === name);
    assert.ok(found, `no step "${name}" in ${JSON.stringify(records.map((r) => r.step))}`);
    return found;
  };

  /** The tx is at the seeds' API under the same hash, in the same block, and succeeded. */
  async function seenAtSeedsApi(record: Record<string, any>) {
    const receipt = (await result(node.publicUrl, 'svc_getTxReceipt', [record.txHash])) as Record<
      string,
      any
    >;
    assert.equal(receipt.txHash, record.txHash);
    assert.equal(receipt.executionResult, 'success', record.step);
    assert.equal(receipt.blockNumber, record.blockNumber, record.step);
    assert.match(receipt.status, /^(checkpointed|proven|finalized)$/, record.step);
  }

  async function notAtSeedsApi(txHash: string) {
    const receipt = (await result(node.publicUrl, 'svc_getTxReceipt', [txHash])) as Record<string, any>;
    assert.equal(receipt.status, 'dropped');
  }

  test('docs/aztec-js.md: example.mjs deploys two accounts and a Token, and prints the balances', async () => {
    const out = await run('example.mjs');
    assert.match(out.stdout, /^token 0x[0-9a-f]{64}: bob holds 100 private and 50 public$/m);
    await result(node.adminUrl, 'svcDev_reset');
  });

  test('docs/aztec-js.md: token.test.mjs passes, reverting to a snapshot after each test', async () => {
    const out = await run('--test', ['token.test.mjs']);
    assert.match(out.stdout, /^# pass 2$/m);
    assert.match(out.stdout, /^# fail 0$/m);
    await result(node.adminUrl, 'svcDev_reset');
  });

  let first: Record<string, any>[] = [];

  test('the workflow: accounts, Token, private and public transfers, an authwit, balances', async () => {
    first = (await run('wallet-scenario.mjs', [aztecUrl, node.adminUrl, 'first'])).records;
    // The reference's test accounts and SponsoredFPC are the addresses genesis funded.
    const accounts = step(first, 'test accounts');
    assert.deepEqual(accounts.addresses, INITIAL_TEST_ACCOUNTS.map(toHex32));
    assert.equal(accounts.sponsoredFpc, toHex32(SPONSORED_FPC_ADDRESS));
    assert.equal(step(first, 'deploy alice (own Fee Juice)').address, toHex32(INITIAL_TEST_ACCOUNTS[0]!));

    const txSteps = [
      'deploy alice (own Fee Juice)',
      'deploy bob (SponsoredFPC)',
      'deploy token',
      'mint_to_private',
      'mint_to_public',
      'transfer',
      'transfer_in_public',
      'transfer_to_private',
      'transfer_to_public',
      'transfer_in_private (authwit)',
    ];
    for (const name of txSteps) {
      const r = step(first, name);
      assert.equal(r.status, 'checkpointed', name);
      await seenAtSeedsApi(r);
    }
    // The contract is at both APIs.
    const token = step(first, 'deploy token').address;
    assert.equal(
      ((await result(node.publicUrl, 'svc_getContract', [token])) as { address: string }).address,
      token,
    );

    // 1,000 minted private and 500 public; 100 sent privately and 50 publicly to bob; 200 moved to
    // private and 30 back to public; bob took 20 of alice's private tokens with her authwit.
    assert.deepEqual(step(first, 'balances'), {
      step: 'balances',
      alice: { private: '1050', public: '280' },
      bob: { private: '120', public: '50' },
    });
  });

  test("refused txs reach the wallet with the reference's errors and change nothing", async () => {
    const spend = step(first, 'double spend');
    assert.equal(spend.error, 'Invalid tx: Existing nullifier');
    const mined = (await result(node.publicUrl, 'svc_getTxReceipt', [spend.firstHash])) as Record<
      string,
      any
    >;
    assert.equal(mined.executionResult, 'success');
    await notAtSeedsApi(spend.secondHash);
    assert.equal(step(first, 'unfunded').error, 'Invalid tx: Insufficient fee payer balance');
    const done = step(first, 'refusals done');
    // One block for the first of the two transfers; none for the refused ones.
    assert.equal(done.blockAfter, done.blockBefore + 1);
  });

  test('a new wallet process finds its notes again; a tx sent after it expired is refused', async () => {
    const token = step(first, 'done').token;
    const records = (
      await run('wallet-scenario.mjs', [aztecUrl, node.adminUrl, 'restart'], { TOKEN_ADDRESS: token })
    ).records;
    // As before, less the 1 alice sent bob in the double spend's first transfer.
    assert.deepEqual(step(records, 'balances after restart'), {
      step: 'balances after restart',
      alice: { private: '1049', public: '280' },
      bob: { private: '121', public: '50' },
    });
    const expired = step(records, 'expired');
    assert.equal(expired.error, 'Invalid tx: Invalid expiration timestamp');
    await notAtSeedsApi(expired.txHash);
  });
});
