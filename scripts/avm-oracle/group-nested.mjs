// Nested-calls group: Parent/Child and StaticParent/StaticChild, i.e. CALL and STATICCALL between
// real contracts, state and logs from nested frames, static propagation and failing callees.
import { check, FILES, newWorld, ref, VectorFile } from './common.mjs';

export async function nestedGroup(ctx) {
  const { R } = ctx;
  const world = newWorld(R);
  const f = new VectorFile(ctx, world);
  const user = R.AztecAddress.fromBigInt(0x5e4de4n);
  const deployer = R.AztecAddress.ZERO;
  const load = (name) => ctx.loadArtifact(...FILES[name]);
  const parent = await world.deployArtifact('Parent', ref(FILES.Parent), load('Parent'), {
    salt: new R.Fr(1),
    deployer,
  });
  const child = await world.deployArtifact('Child', ref(FILES.Child), load('Child'), {
    salt: new R.Fr(1),
    deployer,
  });
  const sparent = await world.deployArtifact('StaticParent', ref(FILES.StaticParent), load('StaticParent'), {
    salt: new R.Fr(1),
    deployer,
  });
  const schild = await world.deployArtifact('StaticChild', ref(FILES.StaticChild), load('StaticChild'), {
    salt: new R.Fr(1),
    deployer,
  });
  void sparent;

  const o = { sender: user };
  const call = (name, contract, fn, args = [], more = {}) =>
    f.call(name, contract, fn, args, { ...o, ...more });
  const ok = (s) => {
    check(!s.expect.reverted, `${s.step.name} should succeed: ${s.expect.revertReason}`);
    return s;
  };
  const bad = (s) => {
    check(s.expect.reverted, `${s.step.name} should revert`);
    return s;
  };
  const eq = (s, v) => {
    ok(s);
    check(
      s.expect.output[0] === `0x${BigInt(v).toString(16)}`,
      `${s.step.name}: want ${v}, got ${s.expect.output}`,
    );
    return s;
  };
  const sel = (contract, fn) => f.selector(contract, fn);
  // pub_get_value(x) = x + chainId + version + blockNumber + timestamp
  const got = (x) => BigInt(x) + 31337n + 1n + 42n + 1_767_225_600n;

  const getValue = await sel('Child', 'pub_get_value');
  const setValue = await sel('Child', 'pub_set_value');
  const incValue = await sel('Child', 'pub_inc_value');
  eq(await call('Child.pub_get_value(1) directly', 'Child', 'pub_get_value', [1n]), got(1));
  eq(
    await call('Parent.pub_entry_point(Child, pub_get_value, 42)', 'Parent', 'pub_entry_point', [
      child.address,
      getValue,
      42n,
    ]),
    got(42),
  );
  eq(
    await call(
      'Parent.pub_entry_point(Child, pub_set_value, 20): nested SSTORE and log',
      'Parent',
      'pub_entry_point',
      [child.address, setValue, 20n],
    ),
    20,
  );
  eq(
    await call(
      'Parent.pub_entry_point_twice(Child, pub_inc_value, 5): two nested calls',
      'Parent',
      'pub_entry_point_twice',
      [child.address, incValue, 5n],
    ),
    5,
  );
  eq(await call('Child.pub_inc_value(100) directly', 'Child', 'pub_inc_value', [100n]), 100);
  ok(await call('Child.set_value_twice_with_nested_first()', 'Child', 'set_value_twice_with_nested_first'));
  ok(await call('Child.set_value_twice_with_nested_last()', 'Child', 'set_value_twice_with_nested_last'));
  ok(await call('Child.set_value_with_two_nested_calls()', 'Child', 'set_value_with_two_nested_calls'));
  eq(
    await call('Parent.public_static_call(Child, pub_get_value, [7])', 'Parent', 'public_static_call', [
      child.address,
      getValue,
      [7n],
    ]),
    got(7),
  );
  bad(
    await call(
      'Parent.public_static_call(Child, pub_set_value, [7]): SSTORE under STATICCALL',
      'Parent',
      'public_static_call',
      [child.address, setValue, [7n]],
    ),
  );
  eq(
    await call(
      'Parent.public_nested_static_call(Child, pub_get_value, [8]): static Parent -> Parent -> Child',
      'Parent',
      'public_nested_static_call',
      [child.address, getValue, [8n]],
    ),
    got(8),
  );
  bad(
    await call(
      'Parent.public_nested_static_call(Child, pub_set_value, [8]): the inner CALL stays static',
      'Parent',
      'public_nested_static_call',
      [child.address, setValue, [8n]],
    ),
  );
  bad(
    await call('Parent.pub_entry_point(Child, unknown selector 0x12345678, 1)', 'Parent', 'pub_entry_point', [
      child.address,
      R.abi.FunctionSelector.fromField(new R.Fr(0x12345678)),
      1n,
    ]),
  );
  bad(
    await call(
      'Parent.pub_entry_point(no contract at 0xdead, pub_get_value, 1)',
      'Parent',
      'pub_entry_point',
      [R.AztecAddress.fromBigInt(0xdeadn), getValue, 1n],
    ),
  );
  bad(
    await call(
      'Parent.pub_entry_point(Child, pub_set_value, 1) with 40000 L2 gas: the nested call runs out',
      'Parent',
      'pub_entry_point',
      [child.address, setValue, 1n],
      { l2Gas: 40_000 },
    ),
  );
  ok(
    await call(
      'Parent.public_call_with_max_over_n_args(1600 zeros)',
      'Parent',
      'public_call_with_max_over_n_args',
      [Array(1600).fill(0n)],
    ),
  );
  // One tx, two enqueued calls, the second reverting: the first call's effects stay.
  eq(await call('tx (1/2): Child.pub_set_value(11)', 'Child', 'pub_set_value', [11n]), 11);
  bad(
    await call(
      'tx (2/2): Parent.pub_entry_point(Child, unknown selector, 2) reverts on its own',
      'Parent',
      'pub_entry_point',
      [child.address, R.abi.FunctionSelector.fromField(new R.Fr(0x1)), 2n],
      { sameTx: true },
    ),
  );
  eq(
    await call('Parent.pub_entry_point(Child, pub_inc_value, 1) sees 11 -> 12', 'Parent', 'pub_entry_point', [
      child.address,
      incValue,
      1n,
    ]),
    1,
  );

  const sGet = await sel('StaticChild', 'pub_get_value');
  const sSet = await sel('StaticChild', 'pub_set_value');
  const sIllegal = await sel('StaticChild', 'pub_illegal_inc_value');
  eq(await call('StaticChild.pub_get_value(3) (static)', 'StaticChild', 'pub_get_value', [3n]), got(3));
  eq(await call('StaticChild.pub_set_value(7)', 'StaticChild', 'pub_set_value', [7n]), 7);
  eq(await call('StaticChild.pub_inc_value(2)', 'StaticChild', 'pub_inc_value', [2n]), 2);
  bad(
    await call(
      'StaticChild.pub_illegal_inc_value(1) called statically: SSTORE in a static frame',
      'StaticChild',
      'pub_illegal_inc_value',
      [1n],
    ),
  );
  bad(
    await call(
      'StaticChild.pub_illegal_inc_value(1) called non-statically: #[view] check',
      'StaticChild',
      'pub_illegal_inc_value',
      [1n],
      { isStaticCall: false },
    ),
  );
  eq(
    await call(
      'StaticParent.public_call(StaticChild, pub_get_value, 4) (static, #[view])',
      'StaticParent',
      'public_call',
      [schild.address, sGet, 4n],
    ),
    got(4),
  );
  bad(
    await call(
      'StaticParent.public_call(StaticChild, pub_set_value, 4): CALL inside a static frame',
      'StaticParent',
      'public_call',
      [schild.address, sSet, 4n],
    ),
  );
  eq(
    await call(
      'StaticParent.public_get_value_from_child(StaticChild, 5)',
      'StaticParent',
      'public_get_value_from_child',
      [schild.address, 5n],
    ),
    got(5),
  );
  eq(
    await call(
      'StaticParent.public_static_call(StaticChild, pub_get_value, [6])',
      'StaticParent',
      'public_static_call',
      [schild.address, sGet, [6n]],
    ),
    got(6),
  );
  bad(
    await call(
      'StaticParent.public_static_call(StaticChild, pub_illegal_inc_value, [6])',
      'StaticParent',
      'public_static_call',
      [schild.address, sIllegal, [6n]],
    ),
  );
  eq(
    await call(
      'StaticParent.public_nested_static_call(StaticChild, pub_get_value, [9])',
      'StaticParent',
      'public_nested_static_call',
      [schild.address, sGet, [9n]],
    ),
    got(9),
  );
  bad(
    await call(
      'StaticParent.public_nested_static_call(StaticChild, pub_set_value, [9])',
      'StaticParent',
      'public_nested_static_call',
      [schild.address, sSet, [9n]],
    ),
  );
  void parent;

  const publicOf = (name) =>
    world.contract(name).artifact.nonDispatchPublicFunctions.map((fn) => `${name}.${fn.name}`);
  const all = ['Parent', 'Child', 'StaticParent', 'StaticChild'].flatMap(publicOf).sort();
  const called = new Set(f.steps.map((s) => `${s.contract}.${s.function}`));
  const leftOut = all.filter((x) => !called.has(x));
  check(leftOut.length === 0, `not called: ${leftOut}`);
  return f.doc({
    group: 'nested-calls',
    description:
      'Parent/Child and StaticParent/StaticChild (noir-test-contracts.js 4.1.2): nested CALL and STATICCALL, nested storage writes and logs, static propagation, failing and missing callees.',
    parties: { user: user.toString() },
    coverage: { publicFunctions: all.length, called: all.length, leftOut: [] },
  });
}
