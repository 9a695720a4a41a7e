// AvmTest group: every public function of the AvmTest test contract, each call its own tx over a
// world that carries over (storage, nullifiers, note hashes) from call to call.
import { check, FILES, newWorld, ref, reverted, succeeded, VectorFile } from './common.mjs';

const GRUMPKIN_G = { x: 1n, y: 17631683881184975370165255887551781615748388533673675138860n };
const P = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

export async function avmTestGroup(ctx) {
  const { R } = ctx;
  const world = newWorld(R);
  const f = new VectorFile(ctx, world);
  const user = R.AztecAddress.fromBigInt(0x5e4de4n);
  const deployer = R.AztecAddress.fromBigInt(0xde9107e4n);
  const artifact = ctx.loadArtifact(...FILES.AvmTest);
  const avm = await world.deployArtifact('AvmTest', ref(FILES.AvmTest), artifact, {
    salt: new R.Fr(1),
    deployer,
  });
  const avm2 = await world.deployArtifact('AvmTest#2', ref(FILES.AvmTest), artifact, {
    salt: new R.Fr(2),
    deployer,
  });
  await world.deployArtifact('AvmTest#3', ref(FILES.AvmTest), artifact, { salt: new R.Fr(3), deployer });
  for (const name of ['AuthRegistry', 'FeeJuice', 'ContractInstanceRegistry']) {
    await world.deployCanonical(name, ref(FILES[name]), ctx.loadArtifact(...FILES[name]));
  }
  // The instance test_get_contract_instance expects (deployer 0x456, class 0x789, init hash 0x101112).
  const fixed = await world.deployInstanceOnly('InstanceOnly', {
    salt: new R.Fr(0x42),
    deployer: R.AztecAddress.fromBigInt(0x456n),
    classId: new R.Fr(0x789),
    initializationHash: new R.Fr(0x101112),
  });
  // 21 more AvmTest instances whose class ids are made up (same bytecode), for the limit of 21
  // distinct contract classes per tx.
  const classTwins = [];
  for (let i = 0; i < 21; i++) {
    const c = await world.deployArtifact(`AvmTest@class${i + 1}`, ref(FILES.AvmTest), artifact, {
      salt: new R.Fr(100 + i),
      deployer,
      classIdOverride: new R.Fr(0xc1a55000n + BigInt(i)),
    });
    classTwins.push(c.address);
  }
  // Pre-state: two note hashes in the tree, one L1->L2 message at leaf 3.
  const seededNoteHash = new R.Fr(0x5eed0001n);
  world.seedNoteHash(new R.Fr(0x5eed0000n));
  world.seedNoteHash(seededNoteHash);
  const l1Msg = new R.Fr(0x11a1n);
  world.seedL1ToL2(3, l1Msg);
  // Storage written directly: AvmTest#3's `single` (slot 1).
  await world.seedStorage('AvmTest#3', new R.Fr(1), new R.Fr(0x5eed));

  const o = { sender: user, transactionFee: new R.Fr(0x1234) };
  const call = (name, fn, args = [], more = {}) => f.call(name, 'AvmTest', fn, args, { ...o, ...more });
  const ok = succeeded;
  const bad = reverted;
  const eq = (s, values) => {
    const want = values.map((v) => `0x${BigInt(v).toString(16)}`);
    check(
      JSON.stringify(s.expect.output) === JSON.stringify(want),
      `${s.step.name}: want ${want}, got ${s.expect.output}`,
    );
    return s;
  };

  // Storage
  const seeded = await f.call(
    'AvmTest#3.read_storage_single() = 0x5eed (pre-state)',
    'AvmTest#3',
    'read_storage_single',
    [],
    o,
  );
  eq(seeded, [0x5eed]);
  ok(await call('set_storage_single(42)', 'set_storage_single', [42n]));
  eq(await call('read_storage_single() = 42', 'read_storage_single'), [42]);
  ok(await call('read_assert_storage_single(42)', 'read_assert_storage_single', [42n]));
  bad(await call('read_assert_storage_single(43): mismatch', 'read_assert_storage_single', [43n]));
  eq(await call('set_read_storage_single(7) = 7', 'set_read_storage_single', [7n]), [7]);
  ok(await call('set_storage_list(5, 6)', 'set_storage_list', [5n, 6n]));
  eq(await call('read_storage_list() = [5, 6]', 'read_storage_list'), [5, 6]);
  ok(await call('set_storage_map(user, 10) returns the map slot', 'set_storage_map', [user, 10n]));
  ok(await call('add_storage_map(user, 5)', 'add_storage_map', [user, 5n]));
  eq(await call('read_storage_map(user) = 15', 'read_storage_map', [user]), [15]);
  eq(await call('read_storage_map(deployer) = 0 (never written)', 'read_storage_map', [deployer]), [0]);

  // Constants and arithmetic
  eq(await call('add_args_return(1, 2) = 3', 'add_args_return', [1n, 2n]), [3]);
  eq(await call('add_args_return(p-1, 2) = 1 (mod p)', 'add_args_return', [P - 1n, 2n]), [1]);
  eq(await call('set_opcode_u8() = 8', 'set_opcode_u8'), [8]);
  eq(await call('set_opcode_u8_view() = 8 (static)', 'set_opcode_u8_view'), [8]);
  bad(
    await call('set_opcode_u8_view() called non-statically', 'set_opcode_u8_view', [], {
      isStaticCall: false,
    }),
  );
  eq(await call('set_opcode_u32() = 2^30', 'set_opcode_u32'), [1n << 30n]);
  eq(await call('set_opcode_u64() = 2^60', 'set_opcode_u64'), [1n << 60n]);
  eq(await call('set_opcode_small_field()', 'set_opcode_small_field'), [
    0x001234567890abcdef1234567890abcdefn,
  ]);
  eq(await call('set_opcode_big_field()', 'set_opcode_big_field'), [0x991234567890abcdef1234567890abcdefn]);
  eq(await call('set_opcode_really_big_field()', 'set_opcode_really_big_field'), [
    0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn,
  ]);
  eq(await call('add_u128(2^64 + 1, 3)', 'add_u128', [(1n << 64n) + 1n, 3n]), [(1n << 64n) + 4n]);
  eq(await call('add_u128(2^127, 2^127 - 1) = 2^128 - 1', 'add_u128', [1n << 127n, (1n << 127n) - 1n]), [
    (1n << 128n) - 1n,
  ]);
  bad(await call('add_u128(2^127, 2^127): overflow', 'add_u128', [1n << 127n, 1n << 127n]));
  bad(await call('u128_addition_overflow()', 'u128_addition_overflow'));
  eq(await call('modulo2(5) = 1', 'modulo2', [5n]), [1]);
  eq(await call('modulo2(2^63) = 0', 'modulo2', [1n << 63n]), [0]);
  bad(await call('divide_by_zero(0): exceptional halt', 'divide_by_zero', [0n]));
  eq(await call('divide_by_zero(2) = 0', 'divide_by_zero', [2n]), [0]);
  eq(await call('conditional_move([1], [2], true) = [1]', 'conditional_move', [[1n], [2n], true]), [1]);
  eq(await call('conditional_move([1], [2], false) = [2]', 'conditional_move', [[1n], [2n], false]), [2]);
  eq(
    await call('to_le_bytes(0x0102030405) (10 bytes)', 'to_le_bytes', [0x0102030405n]),
    [5, 4, 3, 2, 1, 0, 0, 0, 0, 0],
  );
  await call('to_le_bytes(2^80 + 1): does not fit in 10 bytes', 'to_le_bytes', [(1n << 80n) + 1n]);
  eq(
    await call('to_le_bits(0x801f) (16 bits)', 'to_le_bits', [0x801fn]),
    [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  );
  await call('to_le_bits(2^16): does not fit in 16 bits', 'to_le_bits', [1n << 16n]);

  // Curve operations
  const g = { x: GRUMPKIN_G.x, y: GRUMPKIN_G.y, is_infinite: false };
  const three = ok(await call('elliptic_curve_add_and_double() = 3G', 'elliptic_curve_add_and_double'));
  const [x3, y3] = three.expect.output.map((h) => BigInt(h));
  ok(
    await call('elliptic_curve_add(G, 3G) = 4G', 'elliptic_curve_add', [
      g,
      { x: x3, y: y3, is_infinite: false },
    ]),
  );
  ok(await call('elliptic_curve_add(G, G) = 2G', 'elliptic_curve_add', [g, g]));
  const inf = ok(
    await call('elliptic_curve_add(G, -G) = infinity', 'elliptic_curve_add', [
      g,
      { x: g.x, y: P - g.y, is_infinite: false },
    ]),
  );
  check(inf.expect.output[2] === '0x1', 'G + -G is the point at infinity');
  await call('elliptic_curve_add(G, (1, 2)): second point not on the curve', 'elliptic_curve_add', [
    g,
    { x: 1n, y: 2n, is_infinite: false },
  ]);
  ok(await call('variable_base_msm(3, 0, 20, 0) = 23G', 'variable_base_msm', [3n, 0n, 20n, 0n]));
  ok(await call('pedersen_commit(1, 2)', 'pedersen_commit', [1n, 2n]));

  // Environment
  eq(await call('get_address()', 'get_address'), [avm.address.toBigInt()]);
  eq(await call('get_sender() = user', 'get_sender'), [user.toBigInt()]);
  eq(await call('get_transaction_fee() = 0x1234', 'get_transaction_fee'), [0x1234]);
  eq(await call('get_chain_id() = 31337', 'get_chain_id'), [31337]);
  eq(await call('get_version() = 1', 'get_version'), [1]);
  eq(await call('get_block_number() = 42', 'get_block_number'), [42]);
  eq(await call('get_timestamp()', 'get_timestamp'), [1_767_225_600n]);
  eq(await call('get_fee_per_l2_gas() = 5', 'get_fee_per_l2_gas'), [5]);
  eq(await call('get_fee_per_da_gas() = 3', 'get_fee_per_da_gas'), [3]);
  ok(await call('get_l2_gas_left()', 'get_l2_gas_left'));
  ok(await call('get_da_gas_left()', 'get_da_gas_left'));
  ok(await call('get_l2_gas_left() with a 100000 L2 limit', 'get_l2_gas_left', [], { l2Gas: 100_000 }));
  ok(await call('get_args_hash(7, [1, 2, 3])', 'get_args_hash', [7n, [1n, 2n, 3n]]));

  // Calldata and return data
  ok(await call('assert_calldata_copy([1, 2, 3], true)', 'assert_calldata_copy', [[1n, 2n, 3n], true]));
  bad(
    await call('assert_calldata_copy([1, 2, 3], false): reads the selector too', 'assert_calldata_copy', [
      [1n, 2n, 3n],
      false,
    ]),
  );
  const big = Array.from({ length: 300 }, (_, i) => BigInt(i + 1));
  ok(await call('assert_calldata_copy_large(1..300, true)', 'assert_calldata_copy_large', [big, true]));
  eq(await call('fn_w_large_calldata(1..300) = 5', 'fn_w_large_calldata', [big]), [5]);
  eq(await call('nested_call_large_calldata(1..300) = 5', 'nested_call_large_calldata', [big]), [5]);
  eq(await call('return_oracle() = [1, 2, 3] (RETURN from a helper)', 'return_oracle'), [1, 2, 3]);
  eq(bad(await call('revert_oracle(): REVERT with [1, 2, 3]', 'revert_oracle')), [1, 2, 3]);
  ok(await call('returndata_copy_oracle()', 'returndata_copy_oracle'));
  ok(await call('debug_logging() (DEBUGLOG is a no-op here)', 'debug_logging'));

  // Assertions and failing nested calls
  bad(await call('assertion_failure()', 'assertion_failure'));
  bad(await call('external_call_to_assertion_failure()', 'external_call_to_assertion_failure'));
  bad(await call('external_call_to_divide_by_zero()', 'external_call_to_divide_by_zero'));
  ok(await call('external_call_to_divide_by_zero_recovers()', 'external_call_to_divide_by_zero_recovers'));
  eq(await call('assert_same(1, 1) = 1', 'assert_same', [1n, 1n]), [1]);
  bad(await call('assert_same(1, 2)', 'assert_same', [1n, 2n]));
  eq(await call('nested_call_to_assert_same(3, 3) = 1', 'nested_call_to_assert_same', [3n, 3n]), [1]);
  bad(await call('nested_call_to_assert_same(3, 4)', 'nested_call_to_assert_same', [3n, 4n]));

  // Nested calls
  eq(await call('nested_call_to_add(1, 2) = 3', 'nested_call_to_add', [1n, 2n]), [3]);
  eq(await call('nested_static_call_to_add(1, 2) = 3', 'nested_static_call_to_add', [1n, 2n]), [3]);
  eq(
    await call('nested_call_to_add_with_gas(1, 2, 100000, 100000) = 3', 'nested_call_to_add_with_gas', [
      1n,
      2n,
      100_000n,
      100_000n,
    ]),
    [3],
  );
  bad(
    await call(
      'nested_call_to_add_with_gas(1, 2, 300, 0): nested call runs out of gas',
      'nested_call_to_add_with_gas',
      [1n, 2n, 300n, 0n],
    ),
  );
  bad(
    await call(
      'nested_static_call_to_set_storage(): SSTORE in a static call',
      'nested_static_call_to_set_storage',
    ),
  );
  bad(await call('nested_call_to_nothing(): no contract at 42', 'nested_call_to_nothing'));
  ok(await call('nested_call_to_nothing_recovers()', 'nested_call_to_nothing_recovers'));
  const noAddrs = Array(23).fill(R.AztecAddress.ZERO);
  ok(
    await call(
      'nested_call_to_add_n_times_different_addresses([AvmTest#2, AvmTest#3, 0...])',
      'nested_call_to_add_n_times_different_addresses',
      [[avm2.address, world.contract('AvmTest#3').address, ...noAddrs.slice(2)]],
    ),
  );
  ok(
    await call(
      'nested_call_to_add_n_times_different_addresses(20 other classes): 21 distinct classes, the limit',
      'nested_call_to_add_n_times_different_addresses',
      [[...classTwins.slice(0, 20), ...noAddrs.slice(20)]],
      { note: 'AvmTest@classN reuse AvmTest bytecode under made-up class ids (classIdIsSynthetic)' },
    ),
  );
  bad(
    await call(
      'nested_call_to_add_n_times_different_addresses(21 other classes): 22nd distinct class fails',
      'nested_call_to_add_n_times_different_addresses',
      [[...classTwins, ...noAddrs.slice(21)]],
      {
        note: 'the 22nd distinct class id cannot be fetched: that nested call fails like a call to a missing contract',
      },
    ),
  );
  bad(
    await call(
      'create_same_nullifier_in_nested_call(AvmTest, 0x600): collision in the nested call',
      'create_same_nullifier_in_nested_call',
      [avm.address, 0x600n],
    ),
  );
  ok(
    await call(
      'create_same_nullifier_in_nested_call(AvmTest#2, 0x600): siloed differently',
      'create_same_nullifier_in_nested_call',
      [avm2.address, 0x600n],
    ),
  );
  ok(
    await call(
      'create_different_nullifier_in_nested_call(AvmTest, 0x700)',
      'create_different_nullifier_in_nested_call',
      [avm.address, 0x700n],
    ),
  );

  // Contract instances
  ok(await call('test_get_contract_instance(InstanceOnly)', 'test_get_contract_instance', [fixed.address]));
  bad(
    await call('test_get_contract_instance(0x1234567): no such contract', 'test_get_contract_instance', [
      R.AztecAddress.fromBigInt(0x1234567n),
    ]),
  );
  const inst = [
    avm.address,
    deployer,
    world.contract('AvmTest').record.classId,
    world.contract('AvmTest').record.initializationHash,
  ].map((v) => (typeof v === 'string' ? R.Fr.fromString(v) : v));
  ok(
    await call(
      'test_get_contract_instance_matches(AvmTest, its deployer, class, init hash)',
      'test_get_contract_instance_matches',
      inst,
    ),
  );
  bad(
    await call(
      'test_get_contract_instance_matches(AvmTest, wrong deployer)',
      'test_get_contract_instance_matches',
      [inst[0], user, inst[2], inst[3]],
    ),
  );
  ok(await call('call_fee_juice(): static call to FeeJuice.balance_of_public at 5', 'call_fee_juice'));
  ok(
    await call('call_auth_registry(): static call to AuthRegistry.is_reject_all at 1', 'call_auth_registry'),
  );
  ok(
    await call(
      'call_instance_registry(): static call to ContractInstanceRegistry.get_update_delay at 2',
      'call_instance_registry',
    ),
  );

  // Side effects
  const nh = ok(await call('new_note_hash(0x1234)', 'new_note_hash', [0x1234n]));
  const unique = nh.expect.noteHashes[0];
  eq(
    await call('note_hash_exists(the unique note hash just emitted, leaf 2) = true', 'note_hash_exists', [
      BigInt(unique),
      2n,
    ]),
    [1],
  );
  eq(
    await call('note_hash_exists(0x1234, 2) = false (the tree holds the unique hash)', 'note_hash_exists', [
      0x1234n,
      2n,
    ]),
    [0],
  );
  eq(
    await call('note_hash_exists(seeded, leaf 1) = true', 'note_hash_exists', [
      seededNoteHash.toBigInt(),
      1n,
    ]),
    [1],
  );
  eq(
    await call('note_hash_exists(seeded, leaf 0) = false', 'note_hash_exists', [
      seededNoteHash.toBigInt(),
      0n,
    ]),
    [0],
  );
  ok(await call('new_nullifier(0x77)', 'new_nullifier', [0x77n]));
  eq(await call('nullifier_exists(0x77) = true', 'nullifier_exists', [0x77n]), [1]);
  eq(await call('nullifier_exists(0x78) = false', 'nullifier_exists', [0x78n]), [0]);
  ok(await call('assert_nullifier_exists(0x77)', 'assert_nullifier_exists', [0x77n]));
  bad(await call('assert_nullifier_exists(0x99)', 'assert_nullifier_exists', [0x99n]));
  bad(await call('new_nullifier(0x77) again: collision with the tree', 'new_nullifier', [0x77n]));
  ok(await call('emit_nullifier_and_check(0x88)', 'emit_nullifier_and_check', [0x88n]));
  bad(
    await call('nullifier_collision(0x55): same nullifier twice in one call', 'nullifier_collision', [0x55n]),
  );
  eq(await call('nullifier_exists(0x55) = false (the collision reverted)', 'nullifier_exists', [0x55n]), [0]);
  eq(await call('l1_to_l2_msg_exists(seeded, 3) = true', 'l1_to_l2_msg_exists', [l1Msg.toBigInt(), 3n]), [1]);
  eq(
    await call('l1_to_l2_msg_exists(seeded, 4) = false', 'l1_to_l2_msg_exists', [l1Msg.toBigInt(), 4n]),
    [0],
  );
  ok(
    await call('send_l2_to_l1_msg(0xdead..., 0x42)', 'send_l2_to_l1_msg', [
      0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefn,
      0x42n,
    ]),
  );
  ok(await call('raw_l2_to_l1_msg(0x1234, 0x43)', 'raw_l2_to_l1_msg', [0x1234n, 0x43n]));
  await call(
    'raw_l2_to_l1_msg(2^160 + 1, 0x44): recipient wider than an Ethereum address',
    'raw_l2_to_l1_msg',
    [(1n << 160n) + 1n, 0x44n],
  );
  ok(await call('emit_public_log()', 'emit_public_log'));
  ok(await call('n_storage_writes(5)', 'n_storage_writes', [5n]));
  ok(await call('n_storage_writes(63): the most distinct slots a tx may write', 'n_storage_writes', [63n]));
  bad(await call('n_storage_writes(64): one distinct slot too many', 'n_storage_writes', [64n]));
  ok(await call('n_new_note_hashes(5)', 'n_new_note_hashes', [5n]));
  ok(await call('n_new_note_hashes(64)', 'n_new_note_hashes', [64n]));
  bad(await call('n_new_note_hashes(65): over the tx limit', 'n_new_note_hashes', [65n]));
  ok(await call('n_new_nullifiers(5)', 'n_new_nullifiers', [5n]));
  bad(await call('n_new_nullifiers(5) again: collisions', 'n_new_nullifiers', [5n]));
  ok(await call('n_new_l2_to_l1_msgs(8)', 'n_new_l2_to_l1_msgs', [8n]));
  bad(await call('n_new_l2_to_l1_msgs(9): over the tx limit', 'n_new_l2_to_l1_msgs', [9n]));
  ok(await call('n_new_public_logs(3)', 'n_new_public_logs', [3n]));
  // (n_new_public_logs(1365), the largest that fits, is left out: its 1,365 logs would make the
  // file ten times bigger. The instruction count of the 1366 case pins where the limit hits.)
  bad(
    await call(
      'n_new_public_logs(1366): 1366 logs of 1 field + 2 header fields = 4098 > 4096',
      'n_new_public_logs',
      [1366n],
    ),
  );
  // Two calls in one tx: the side-effect limits are per tx, not per call.
  ok(await call('tx with two calls (1/2): n_new_note_hashes(40)', 'n_new_note_hashes', [40n]));
  bad(
    await call('tx with two calls (2/2): n_new_note_hashes(40), 80 in the tx', 'n_new_note_hashes', [40n], {
      sameTx: true,
    }),
  );
  const fields = (from) => Array.from({ length: 10 }, (_, i) => BigInt(from + i));
  ok(
    await call('bulk_testing(1001..1010, 1..10, AvmTest, ...)', 'bulk_testing', [
      fields(1001),
      big.slice(0, 10),
      ...inst,
      false,
    ]),
  );
  ok(
    await call('bulk_testing(2001..2010, ..., skip_strictly_limited_side_effects = true)', 'bulk_testing', [
      fields(2001),
      big.slice(0, 10),
      ...inst,
      true,
    ]),
  );

  // Coverage: every public function of AvmTest is called at least once.
  const publicFns = artifact.nonDispatchPublicFunctions.map((fn) => fn.name).sort();
  const called = new Set(f.steps.filter((s) => s.contract === 'AvmTest').map((s) => s.function));
  const leftOut = publicFns
    .filter((fn) => !called.has(fn))
    .map((fn) => ({ function: fn, reason: 'not called' }));
  check(leftOut.length === 0, `AvmTest functions not called: ${leftOut.map((l) => l.function)}`);
  return f.doc({
    group: 'avm-test',
    description:
      'Every public function of the AvmTest contract (noir-test-contracts.js 4.1.2). Each step is its own tx; state carries over.',
    parties: { user: user.toString(), deployer: deployer.toString() },
    coverage: { publicFunctions: publicFns.length, called: publicFns.length, leftOut },
  });
}
