// End to end: a dev node on its embedded L1 with the realtime clock is stopped, left stopped for
// longer than two proof windows, and started again on the same data directory. Chain time waits
// while the node is stopped, so nothing is pruned and no validator is inactive: the tips, the
// deployed contract, its storage and the balances are as before, and the chain keeps going.
// Before chain time waited, the first L1 block after the restart jumped to the wall clock, the
// rollup pruned every unproven checkpoint and the node unwound their blocks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureArtifacts, loadArtifactJson } from '../../src/artifacts/npm-artifacts.js';
import {
  type ContractArtifact,
  deployContract,
  devAccounts,
  findFunction,
  NodeClient,
  parseArtifact,
  publicCall,
  sendTx,
  storageSlot,
} from '../../src/client/index.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/core/constants.js';
import { toHex32 } from '../../src/core/field.js';
import { FEE_JUICE_BALANCES_SLOT } from '../../src/execution/protocol-contracts.js';
import { mapStorageSlot } from '../../src/execution/public-storage.js';
import { FAST_REALTIME, type GroupNode, startInGroup } from '../helpers/node-in-group.js';
import { result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const [alice, bob] = devAccounts(2).map((a) => a.address) as [bigint, bigint];
// Slots of 4 s in epochs of 2: a proof window (one epoch) is 8 s.
const CHAIN = FAST_REALTIME;
const PROOF_WINDOW_S = 8;

interface Tips {
  proposed: { number: number };
  checkpointed: { block: { number: number }; checkpoint: { number: number } };
  proven: { block: { number: number }; checkpoint: { number: number } };
  finalized: { block: { number: number } };
}

describe('a dev node stopped for longer than two proof windows', {
  skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-pause-'));
  const dataDir = join(dir, 'data');
  let node: GroupNode | undefined;
  after(async () => {
    await node?.signalGroup('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('resumes where it stopped: nothing pruned, nobody inactive, the chain goes on', async () => {
    await ensureArtifacts();
    const token: ContractArtifact = parseArtifact(
      loadArtifactJson('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'),
    );
    node = await startInGroup(dataDir, CHAIN);
    const pub = (m: string, p?: unknown) => result(node!.publicUrl, m, p) as Promise<any>;
    const client = new NodeClient(node.publicUrl);
    const checkpointed = async (hash: string) =>
      until(
        `tx ${hash} checkpointed`,
        async () => {
          const r = await pub('svc_getTxReceipt', [hash]);
          return r.status === 'checkpointed' || r.status === 'proven' || r.status === 'finalized'
            ? r
            : undefined;
        },
        60_000,
      );

    const d = await deployContract(client, {
      artifact: token,
      args: [toHex32(alice), 'Pause Token', 'PTK', 18],
      salt: 7n,
      from: alice,
    });
    assert.equal((await checkpointed(d.hash)).executionResult, 'success');
    const mint = await sendTx(
      client,
      { publicCalls: [publicCall(d.address, findFunction(token, 'mint_to_public'), [toHex32(bob), 500])] },
      { from: alice },
      token,
    );
    const minted = await checkpointed(mint.hash);
    assert.equal(minted.executionResult, 'success');

    const storage = (address: bigint, slot: bigint) =>
      pub('svc_getPublicStorageAt', ['latest', toHex32(address), toHex32(slot)]).then(BigInt);
    const tokenBalance = (who: bigint) => storage(d.address, storageSlot(token, 'public_balances', [who]));
    const feeJuice = (who: bigint) =>
      storage(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, mapStorageSlot(FEE_JUICE_BALANCES_SLOT, who));

    // Stop while the newest checkpoints are not proven yet: the ones a jump in time would prune.
    const before = await until(
      'an unproven checkpoint',
      async () => {
        const t = (await pub('svc_getChainTips')) as Tips;
        return t.checkpointed.checkpoint.number > t.proven.checkpoint.number ? t : undefined;
      },
      60_000,
    );
    const blocks = await Promise.all(
      Array.from({ length: before.checkpointed.block.number }, (_, i) => pub('svc_getBlock', [i + 1])),
    );
    const state = {
      bob: await tokenBalance(bob),
      alice: await feeJuice(alice),
      contract: await pub('svc_getContract', [toHex32(d.address)]),
    };
    assert.equal(state.bob, 500n);
    assert.equal(await node.signalGroup('SIGINT'), 0, node.output());
    const stoppedOutput = node.output();
    assert.match(stoppedOutput, /node stopped/);
    assert.doesNotMatch(stoppedOutput, /could not save the embedded L1/);

    await sleep((2 * PROOF_WINDOW_S + 4) * 1000);
    node = await startInGroup(dataDir, CHAIN);
    // The banner says so (JSON logs here: its one-line message, and the facts as fields).
    assert.match(node.output(), /L1 time resumed after its block \d+ \(stopped for \d+ s\)/);
    assert.match(node.output(), /"resumedAfterL1Block":\d+,"downSeconds":\d+/);

    // The chain goes on: a new checkpoint after those it had.
    await until(
      'a new checkpoint',
      async () => {
        const t = (await pub('svc_getChainTips')) as Tips;
        return t.checkpointed.checkpoint.number > before.checkpointed.checkpoint.number ? t : undefined;
      },
      60_000,
    );
    for (const block of blocks) {
      const now = await pub('svc_getBlock', [block.number]);
      assert.equal(now?.hash, block.hash, `block ${block.number} is as before`);
    }
    const again = await pub('svc_getTxReceipt', [mint.hash]);
    assert.equal(again.blockNumber, minted.blockNumber);
    assert.equal(again.transactionFee, minted.transactionFee);
    assert.equal(await tokenBalance(bob), state.bob);
    assert.equal(await feeJuice(alice), state.alice);
    assert.deepEqual(await pub('svc_getContract', [toHex32(d.address)]), state.contract);
    const tips = (await pub('svc_getChainTips')) as Tips;
    assert.ok(tips.proven.block.number >= before.proven.block.number, 'the proven tip did not move back');
    const log = node.output();
    assert.doesNotMatch(log, /pruned on L1/);
    assert.doesNotMatch(log, /slashing offense/);
    assert.doesNotMatch(log, /unwound/);
  });
});
