// Token group: the real Token contract with the canonical AuthRegistry.
import { check, FILES, newWorld, ref, VectorFile } from './common.mjs';

export async function tokenGroup(ctx) {
  const { R } = ctx;
  const world = newWorld(R);
  const f = new VectorFile(ctx, world);
  const alice = R.AztecAddress.fromBigInt(0xa11cen);
  const bob = R.AztecAddress.fromBigInt(0xb0bn);
  const carol = R.AztecAddress.fromBigInt(0xca401n);
  const ctorArgs = [alice, 'Cairn Test Token', 'CTT', 18];
  const token = await world.deployArtifact('Token', ref(FILES.Token), ctx.loadArtifact(...FILES.Token), {
    constructorArgs: ctorArgs,
    salt: new R.Fr(12345),
    deployer: alice,
  });
  await world.deployCanonical(
    'AuthRegistry',
    ref(FILES.AuthRegistry),
    ctx.loadArtifact(...FILES.AuthRegistry),
  );
  const ok = (s, what) => check(!s.expect.reverted, `${what} should succeed: ${s.expect.revertReason}`);
  const bad = (s, what) => check(s.expect.reverted, `${what} should revert`);
  const out = (s, v, what) =>
    check(s.expect.output[0] === `0x${BigInt(v).toString(16)}`, `${what} = ${v}, got ${s.expect.output}`);

  ok(
    await f.call(
      'constructor(alice, "Cairn Test Token", "CTT", 18) by alice',
      'Token',
      'constructor',
      ctorArgs,
      { sender: alice },
    ),
    'ctor',
  );
  bad(
    await f.call('constructor again (already initialized)', 'Token', 'constructor', ctorArgs, {
      sender: alice,
    }),
    'ctor twice',
  );
  ok(
    await f.call(
      'mint_to_public(alice, 1000) by alice (admin and minter)',
      'Token',
      'mint_to_public',
      [alice, 1000n],
      { sender: alice },
    ),
    'mint',
  );
  out(
    await f.call('balance_of_public(alice) = 1000', 'Token', 'balance_of_public', [alice], { sender: alice }),
    1000,
    'balance',
  );
  out(await f.call('total_supply() = 1000', 'Token', 'total_supply', [], { sender: bob }), 1000, 'supply');
  ok(
    await f.call(
      'transfer_in_public(alice -> bob, 300, nonce 0) by alice',
      'Token',
      'transfer_in_public',
      [alice, bob, 300n, 0n],
      { sender: alice },
    ),
    'transfer',
  );
  out(
    await f.call('balance_of_public(alice) = 700', 'Token', 'balance_of_public', [alice], { sender: bob }),
    700,
    'alice',
  );
  out(
    await f.call('balance_of_public(bob) = 300', 'Token', 'balance_of_public', [bob], { sender: bob }),
    300,
    'bob',
  );
  bad(
    await f.call(
      'transfer_in_public(alice -> bob, 1, nonce 5) by alice: nonzero nonce without authwit',
      'Token',
      'transfer_in_public',
      [alice, bob, 1n, 5n],
      { sender: alice },
    ),
    'nonce',
  );
  bad(
    await f.call(
      'transfer_in_public(alice -> bob, 100000, nonce 0) by alice: balance too low',
      'Token',
      'transfer_in_public',
      [alice, bob, 100000n, 0n],
      { sender: alice },
    ),
    'underflow',
  );
  bad(
    await f.call(
      'transfer_in_public(alice -> carol, 100, nonce 7) by bob without authwit',
      'Token',
      'transfer_in_public',
      [alice, carol, 100n, 7n],
      { sender: bob },
    ),
    'no authwit',
  );

  // alice authorizes bob's exact call in the canonical AuthRegistry (address 1).
  const transferArgs = [alice, carol, 100n, 7n];
  const transferCalldata = await f.calldata('Token', 'transfer_in_public', transferArgs);
  const argsHash = await R.hash.computeVarArgsHash(transferCalldata.slice(1));
  const inner = await R.authWitness.computeInnerAuthWitHash([bob.toField(), transferCalldata[0], argsHash]);
  const messageHash = await R.authWitness.computeOuterAuthWitHash(
    token.address,
    world.globals.chainId,
    world.globals.version,
    inner,
  );
  ok(
    await f.call(
      'AuthRegistry.set_authorized(H, true) by alice, H = authwit(bob, transfer_in_public(alice, carol, 100, 7))',
      'AuthRegistry',
      'set_authorized',
      [messageHash, true],
      {
        sender: alice,
        note: `H is the outer authwit hash: poseidon2 with the AUTHWIT_OUTER separator over (token address, chainId, version, inner), inner = poseidon2 with AUTHWIT_INNER over (caller bob, selector, poseidon2 with the FUNCTION_ARGS separator over the arguments without the selector). H = ${messageHash.toString()}`,
      },
    ),
    'set_authorized',
  );
  const consumable = await f.call(
    'AuthRegistry.is_consumable(alice, H) = true',
    'AuthRegistry',
    'is_consumable',
    [alice, messageHash],
    { sender: bob },
  );
  out(consumable, 1, 'is_consumable');
  ok(
    await f.call(
      'transfer_in_public(alice -> carol, 100, nonce 7) by bob with authwit (nested CALL to AuthRegistry.consume)',
      'Token',
      'transfer_in_public',
      transferArgs,
      { sender: bob },
    ),
    'authwit transfer',
  );
  bad(
    await f.call(
      'the same transfer replayed: authwit already consumed',
      'Token',
      'transfer_in_public',
      transferArgs,
      { sender: bob },
    ),
    'replay',
  );
  out(
    await f.call('balance_of_public(carol) = 100', 'Token', 'balance_of_public', [carol], { sender: bob }),
    100,
    'carol',
  );
  ok(
    await f.call('burn_public(alice, 50, nonce 0) by alice', 'Token', 'burn_public', [alice, 50n, 0n], {
      sender: alice,
    }),
    'burn',
  );
  out(await f.call('total_supply() = 950', 'Token', 'total_supply', [], { sender: alice }), 950, 'supply2');
  out(
    await f.call('balance_of_public(alice) = 550', 'Token', 'balance_of_public', [alice], { sender: alice }),
    550,
    'alice2',
  );
  bad(
    await f.call('mint_to_public(bob, 5) by bob: not a minter', 'Token', 'mint_to_public', [bob, 5n], {
      sender: bob,
    }),
    'forbidden mint',
  );
  bad(
    await f.call('set_minter(bob, true) by bob: not admin', 'Token', 'set_minter', [bob, true], {
      sender: bob,
    }),
    'forbidden set_minter',
  );
  ok(
    await f.call('set_minter(bob, true) by alice', 'Token', 'set_minter', [bob, true], { sender: alice }),
    'set_minter',
  );
  out(await f.call('is_minter(bob) = true', 'Token', 'is_minter', [bob], { sender: alice }), 1, 'is_minter');
  ok(
    await f.call('mint_to_public(bob, 5) by bob (now a minter)', 'Token', 'mint_to_public', [bob, 5n], {
      sender: bob,
    }),
    'mint by bob',
  );
  await f.call('get_admin() = alice', 'Token', 'get_admin', [], { sender: bob });
  await f.call('public_get_name()', 'Token', 'public_get_name', [], { sender: bob });
  await f.call('public_get_symbol()', 'Token', 'public_get_symbol', [], { sender: bob });
  await f.call('public_get_decimals() = 18', 'Token', 'public_get_decimals', [], { sender: bob });
  await f.call(
    'balance_of_public(alice) called non-statically (it is #[view])',
    'Token',
    'balance_of_public',
    [alice],
    { sender: bob, isStaticCall: false },
  );
  bad(
    await f.call('mint_to_public(alice, 1) in a static call', 'Token', 'mint_to_public', [alice, 1n], {
      sender: alice,
      isStaticCall: true,
    }),
    'static mint',
  );
  // Two calls in one tx: the second write to the same slots is warm (no SSTORE DA gas).
  ok(
    await f.call(
      'tx with two calls (1/2): mint_to_public(carol, 10) by alice',
      'Token',
      'mint_to_public',
      [carol, 10n],
      { sender: alice },
    ),
    'mint1',
  );
  ok(
    await f.call(
      'tx with two calls (2/2): mint_to_public(carol, 10) by alice, same slots written again',
      'Token',
      'mint_to_public',
      [carol, 10n],
      { sender: alice, sameTx: true },
    ),
    'mint2',
  );
  out(
    await f.call('balance_of_public(carol) = 120', 'Token', 'balance_of_public', [carol], { sender: bob }),
    120,
    'carol2',
  );
  bad(
    await f.call(
      'mint_to_public(alice, 1) with too little L2 gas (20000)',
      'Token',
      'mint_to_public',
      [alice, 1n],
      { sender: alice, l2Gas: 20_000 },
    ),
    'oog',
  );
  return f.doc({
    group: 'token',
    description:
      'The real Token contract (noir-contracts.js 4.1.2) and the canonical AuthRegistry at address 1: constructor, mints, transfers with and without authwit, burn, reads and forbidden calls.',
    parties: { alice: alice.toString(), bob: bob.toString(), carol: carol.toString() },
  });
}
