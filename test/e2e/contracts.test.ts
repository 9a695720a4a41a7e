// Real contracts from their npm artifacts on a real node, through the client's contract workflow
// (src/client/contracts.ts): Token (public mint, transfer, burn, an authwit transfer through the
// AuthRegistry that works once, a forbidden mint with its decoded reason), NFT (public mint and
// transfer) and Parent/Child (a nested call that emits a public log). State is read back through
// the public methods of both sets. Needs the npm artifacts (CAIRN_SKIP_ARTIFACTS=1 skips it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureArtifacts, loadArtifactJson, REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import {
  type AbiValue,
  authorizePublicCall,
  type ContractArtifact,
  ContractRevertError,
  decodeRevertReason,
  deployContract,
  devAccounts,
  findFunction,
  NodeClient,
  parseArtifact,
  publicCall,
  revertMessage,
  sendTx,
  simulateCall,
  storageSlot,
} from '../../src/client/index.js';
import { toHex32 } from '../../src/core/field.js';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';

const [alice, bob, carol] = devAccounts(3).map((a) => a.address) as [bigint, bigint, bigint];
const NOIR = '@aztec/noir-contracts.js@4.1.2';
const TEST = '@aztec/noir-test-contracts.js@4.1.2';
const load = (pkg: string, file: string) => parseArtifact(loadArtifactJson(pkg, file));
const ids = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test', 'core', 'vectors', 'artifact-ids.json'), 'utf8'),
) as {
  artifacts: { name: string; classId: string }[];
};

describe('contracts from artifacts on a real node', {
  skip: process.env.CAIRN_SKIP_ARTIFACTS === '1' ? 'CAIRN_SKIP_ARTIFACTS=1' : false,
}, () => {
  let node: CairnProcess;
  let client: NodeClient;
  let token: ContractArtifact;
  let registry: ContractArtifact;
  let tokenAt: bigint;
  let slot = 0;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p) as Promise<any>;
  /** Builds the next block; returns the receipt of `hash`. */
  const mined = async (hash: string) => {
    await result(node.adminUrl, 'svcDev_advanceToSlot', [++slot]);
    return pub('svc_getTxReceipt', [hash]);
  };
  const send = async (
    from: bigint,
    address: bigint,
    artifact: ContractArtifact,
    fn: string,
    args: AbiValue[],
  ) => {
    const sent = await sendTx(
      client,
      { publicCalls: [publicCall(address, findFunction(artifact, fn), args)] },
      { from },
      artifact,
    );
    return mined(sent.hash);
  };
  /** A public storage value through both method sets, which must agree. */
  const stored = async (address: bigint, slotOf: bigint) => {
    const [svc, earlier] = await Promise.all([
      pub('svc_getPublicStorageAt', ['latest', toHex32(address), toHex32(slotOf)]),
      pub('node_getPublicStorageAt', ['latest', toHex32(address), toHex32(slotOf)]),
    ]);
    assert.equal(svc, earlier, 'svc_ and node_ agree');
    return BigInt(svc);
  };
  const balance = (who: bigint) => stored(tokenAt, storageSlot(token, 'public_balances', [who]));

  before(async () => {
    await ensureArtifacts();
    token = load(NOIR, 'artifacts/token_contract-Token.json');
    registry = load('@aztec/protocol-contracts@4.1.2', 'artifacts/AuthRegistry.json');
    node = await startCairn(['--clock', 'manual']);
    client = new NodeClient(node.publicUrl);
  });
  after(async () => {
    await node?.stop();
  });

  test('Token: deploy with its constructor, mint, transfer and burn in public', async () => {
    const d = await deployContract(client, {
      artifact: token,
      args: [toHex32(alice), 'Cairn Token', 'CTK', 18],
      salt: 1n,
      from: alice,
    });
    assert.equal(d.publishesClass, true);
    assert.equal(
      toHex32(d.classId),
      ids.artifacts.find((a) => a.name === 'Token')!.classId,
      'the reference class id',
    );
    const deployed = await mined(d.hash);
    assert.equal(deployed.executionResult, 'success', deployed.error);
    tokenAt = d.address;
    const published = await pub('svc_getContract', [toHex32(tokenAt)]);
    assert.equal(BigInt(published.currentContractClassId), d.classId);
    // Gas limits came from a simulation: the constructor's 625,506 L2 gas fits.
    assert.ok(d.gasLimits.l2Gas > 625_506, `limits ${JSON.stringify(d.gasLimits)}`);

    assert.equal(
      (await send(alice, tokenAt, token, 'mint_to_public', [toHex32(alice), 1000])).executionResult,
      'success',
    );
    assert.equal(
      (await send(alice, tokenAt, token, 'transfer_in_public', [toHex32(alice), toHex32(bob), 300, 0]))
        .executionResult,
      'success',
    );
    assert.equal(
      (await send(alice, tokenAt, token, 'burn_public', [toHex32(alice), 100, 0])).executionResult,
      'success',
    );
    assert.deepEqual([await balance(alice), await balance(bob)], [600n, 300n]);
    const supply = await simulateCall(client, {
      artifact: token,
      address: tokenAt,
      fn: 'total_supply',
      args: [],
      from: bob,
    });
    assert.equal(supply.value, 900n);
    const name = await simulateCall(client, {
      artifact: token,
      address: tokenAt,
      fn: 'public_get_name',
      args: [],
      from: bob,
    });
    assert.equal(name.value, 'Cairn Token');
  });

  test('Token: an authwit in the AuthRegistry lets bob move alice’s tokens once; the replay fails', async () => {
    const transfer = findFunction(token, 'transfer_in_public');
    const args = [toHex32(alice), toHex32(carol), 50, 9];
    // Without the authwit, bob's transfer would revert (the registry's "unauthorized").
    await assert.rejects(
      sendTx(client, { publicCalls: [publicCall(tokenAt, transfer, args)] }, { from: bob }, token),
      (err: Error) =>
        err instanceof ContractRevertError && revertMessage(registry, err.revertData) === 'unauthorized',
    );
    const authorized = await authorizePublicCall(client, {
      owner: alice,
      address: tokenAt,
      fn: transfer,
      args,
      caller: bob,
    });
    assert.equal((await mined(authorized.hash)).executionResult, 'success');
    const used = await send(bob, tokenAt, token, 'transfer_in_public', args);
    assert.equal(used.executionResult, 'success', used.error);
    assert.deepEqual([await balance(alice), await balance(carol)], [550n, 50n]);
    // The same call again: the authwit is spent. Sent anyway (limits given, no simulation), it
    // reverts in its block with the registry's reason, and nothing moves.
    const replay = await sendTx(
      client,
      { publicCalls: [publicCall(tokenAt, transfer, args)] },
      { from: bob, gasLimits: { l2Gas: 2_000_000, daGas: 100_000 } },
    );
    const replayed = await mined(replay.hash);
    assert.equal(replayed.executionResult, 'reverted');
    assert.equal(decodeRevertReason(replayed.error, { ...token, errors: registry.errors }), 'unauthorized');
    assert.deepEqual([await balance(alice), await balance(carol)], [550n, 50n]);
  });

  test('cairn tx --call measures the gas a real call needs (more than the old per-call allowance)', async () => {
    const mint = `${toHex32(tokenAt)}:mint_to_public((Field),u128):${toHex32(carol)},5`;
    const tx = (...args: string[]) =>
      runCairn(['tx', '--rpc-url', node.publicUrl, '--call', mint, '--send', ...args]);
    const sent = await tx();
    assert.equal(sent.code, 0, sent.stderr);
    const receipt = await mined(sent.stdout.trim());
    assert.equal(receipt.executionResult, 'success', receipt.error);
    assert.equal(await balance(carol), 55n);
    // A call that would revert (account 1 is no minter) is not sent without --gas-limit; with it, it is.
    const refused = await tx('--account', '1');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /App logic reverted/);
    const forced = await tx('--account', '1', '--gas-limit', '2000000');
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((await mined(forced.stdout.trim())).executionResult, 'reverted');
  });

  test('Token: a mint by a non-minter is refused with the contract’s reason', async () => {
    await assert.rejects(
      simulateCall(client, {
        artifact: token,
        address: tokenAt,
        fn: 'mint_to_public',
        args: [toHex32(bob), 1],
        from: bob,
      }),
      (err: Error) => err instanceof ContractRevertError && err.reason === 'caller is not minter',
    );
    const forced = await sendTx(
      client,
      { publicCalls: [publicCall(tokenAt, findFunction(token, 'mint_to_public'), [toHex32(bob), 1])] },
      { from: bob, gasLimits: { l2Gas: 2_000_000, daGas: 100_000 } },
    );
    const receipt = await mined(forced.hash);
    assert.equal(receipt.executionResult, 'reverted');
    assert.equal(decodeRevertReason(receipt.error, token), 'caller is not minter');
    assert.equal(await balance(bob), 300n);
  });

  test('NFT: public mint and transfer; the owner read back', async () => {
    const nft = load(NOIR, 'artifacts/nft_contract-NFT.json');
    const d = await deployContract(client, {
      artifact: nft,
      args: [toHex32(alice), 'Cairn NFT', 'CNFT'],
      from: alice,
    });
    assert.equal((await mined(d.hash)).executionResult, 'success');
    assert.equal(
      (await send(alice, d.address, nft, 'mint', [toHex32(alice), 42])).executionResult,
      'success',
    );
    const owners = storageSlot(nft, 'public_owners', [42n]);
    assert.equal(await stored(d.address, owners), alice);
    assert.equal(
      (await send(alice, d.address, nft, 'transfer_in_public', [toHex32(alice), toHex32(bob), 42, 0]))
        .executionResult,
      'success',
    );
    assert.equal(await stored(d.address, owners), bob);
    const owner = await simulateCall(client, {
      artifact: nft,
      address: d.address,
      fn: 'owner_of',
      args: [42],
      from: carol,
    });
    assert.equal(owner.value, toHex32(bob));
    // A second mint of the same token id is refused.
    await assert.rejects(
      simulateCall(client, {
        artifact: nft,
        address: d.address,
        fn: 'mint',
        args: [toHex32(carol), 42],
        from: alice,
      }),
      ContractRevertError,
    );
  });

  test('Parent/Child: a nested call sets the child’s value and emits its public log', async () => {
    const parent = load(TEST, 'artifacts/parent_contract-Parent.json');
    const child = load(TEST, 'artifacts/child_contract-Child.json');
    const c = await deployContract(client, { artifact: child, from: alice });
    const p = await deployContract(client, { artifact: parent, from: alice });
    assert.equal(c.initializer, undefined, 'Child has no initializer');
    await mined(c.hash);
    await mined(p.hash);
    const setValue = findFunction(child, 'pub_set_value');
    const entry = await simulateCall(client, {
      artifact: parent,
      address: p.address,
      fn: 'pub_entry_point',
      args: [toHex32(c.address), setValue.selector, 42],
      from: alice,
    });
    assert.equal(entry.value, toHex32(42n), 'the child’s return value comes back through the parent');
    const receipt = await send(alice, p.address, parent, 'pub_entry_point', [
      toHex32(c.address),
      setValue.selector,
      42,
    ]);
    assert.equal(receipt.executionResult, 'success', receipt.error);
    assert.equal(await stored(c.address, storageSlot(child, 'current_value')), 42n);
    const logs = await pub('node_getPublicLogs', [{ contractAddress: toHex32(c.address) }]);
    assert.equal(logs.logs.length, 1);
    assert.ok(logs.logs[0].log.fields.map(BigInt).includes(42n), JSON.stringify(logs.logs[0].log));
  });
});
