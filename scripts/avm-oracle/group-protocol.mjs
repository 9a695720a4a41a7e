// Protocol-contracts group: the real 4.1.2 public bytecode of FeeJuice (address 5), the
// ContractInstanceRegistry (2), the ContractClassRegistry (3) and PublicChecks (6), deployed as
// canonical contracts at their protocol addresses and called directly, as a node runs them.
import { assemble, ret, set, TAG } from './asm.mjs';
import { check, FILES, newWorld, ref, reverted, succeeded, VectorFile } from './common.mjs';

const U128_MAX = (1n << 128n) - 1n;
/** Comparator operations of aztec-nr's `compare` (utils/comparison.nr), as PublicChecks takes them. */
const OPS = { EQ: 1, NEQ: 2, LT: 3, LTE: 4, GT: 5, GTE: 6 };

/**
 * The first of the three fields a DelayedPublicMutable keeps (the instance registry's per-contract
 * update record), as the layout in the reference's DelayedPublicMutableValues documents it:
 * svc.timestamp_of_change in bits 0-31, sdc.timestamp_of_change in 32-63, sdc.post is_some at 64
 * and value in 72-103, sdc.pre is_some at 104 and value in 112-143. (svc: the scheduled value
 * change, here of the class id; sdc: the scheduled change of the delay.)
 */
function packDpm({ svcChange = 0n, sdcChange = 0n, sdcPost, sdcPre }) {
  let v = svcChange | (sdcChange << 32n);
  if (sdcPost !== undefined) v |= (1n << 64n) | (sdcPost << 72n);
  if (sdcPre !== undefined) v |= (1n << 104n) | (sdcPre << 112n);
  return v;
}

/** A program that returns one field, `version`: the bytecode of the classes a contract is updated between. */
function versionProgram(version) {
  return assemble([set('SET_8', 0, TAG.U32, 1), set('SET_8', 1, TAG.FF, version), ret(0, 1)]);
}

export async function protocolGroup(ctx) {
  const { R } = ctx;
  const world = newWorld(R);
  const f = new VectorFile(ctx, world);
  const alice = R.AztecAddress.fromBigInt(0xa11cen);
  const bob = R.AztecAddress.fromBigInt(0xb0bn);
  const carol = R.AztecAddress.fromBigInt(0xca401n);
  const nobody = R.AztecAddress.fromBigInt(0xdeadn); // no deployment nullifier
  const deployer = R.AztecAddress.fromBigInt(0xde9107e4n);
  const T0 = world.timestamp;
  const C = R.constants;
  const DEFAULT_UPDATE_DELAY = BigInt(C.DEFAULT_UPDATE_DELAY); // 86400
  const MINIMUM_UPDATE_DELAY = BigInt(C.MINIMUM_UPDATE_DELAY); // 600

  const artifacts = {};
  for (const name of ['FeeJuice', 'ContractInstanceRegistry', 'ContractClassRegistry', 'PublicChecks']) {
    artifacts[name] = ctx.loadArtifact(...FILES[name]);
    await world.deployCanonical(name, ref(FILES[name]), artifacts[name]);
  }
  const feeJuice = world.contract('FeeJuice').address;

  // Contracts of the instance registry's steps. Updatable and DelaySetter run the same one-field
  // program (class V1) and are deployed; ClassV2 and ClassV3 are only there for their classes
  // (their instances are not deployed). V1 and V2 are published (the class id siloed by the class
  // registry, address 3, is in the nullifier tree), V3 is not.
  /** Deploys `name` running versionProgram(version), its assembly listed in the vector file. */
  const deployVersion = async (name, version, salt, deployed = true) => {
    const program = versionProgram(version);
    const c = await world.deployBytecode(name, program.bytes, {
      salt: new R.Fr(salt),
      deployer,
      ...(deployed ? {} : { deployed: false }),
    });
    c.record.asm = program.listing;
    return c;
  };
  const updatable = await deployVersion('Updatable', 1, 1);
  const delaySetter = await deployVersion('DelaySetter', 1, 2);
  const classV2 = await deployVersion('ClassV2', 2, 3, false);
  const classV3 = await deployVersion('ClassV3', 3, 4, false);
  const classRegistry = R.AztecAddress.fromNumber(3);
  const classIdV1 = updatable.contractClass.id;
  const classIdV2 = classV2.contractClass.id;
  const classIdV3 = classV3.contractClass.id;
  await world.seedNullifier(
    await R.hash.siloNullifier(classRegistry, classIdV1),
    'class V1 (Updatable, DelaySetter) published: its id siloed by the class registry (3)',
  );
  await world.seedNullifier(
    await R.hash.siloNullifier(classRegistry, classIdV2),
    'class V2 (ClassV2) published: its id siloed by the class registry (3)',
  );

  // FeeJuice's `balances` map is at slot 1; alice holds 1000 before the first step.
  const balancesSlot = artifacts.FeeJuice.storageLayout.balances.slot;
  check(balancesSlot.toBigInt() === 1n, `FeeJuice balances at slot ${balancesSlot}`);
  const balanceSlot = (owner) => R.hash.deriveStorageSlotInMap(balancesSlot, owner);
  await world.seedStorage('FeeJuice', await balanceSlot(alice), new R.Fr(1000));

  const ok = succeeded;
  const bad = reverted;
  const out = (s, values, what = s.step.name) => {
    const want = values.map((v) => `0x${BigInt(v).toString(16)}`);
    check(
      JSON.stringify(s.expect.output) === JSON.stringify(want),
      `${what}: output ${JSON.stringify(s.expect.output)}, expected ${JSON.stringify(want)}`,
    );
    return s;
  };
  const says = (s, message, what = s.step.name) => {
    check(s.expect.errorMessage === message, `${what}: "${s.expect.errorMessage}", expected "${message}"`);
    return s;
  };
  /** An exceptional halt: no revert data, all gas of the frame used. */
  const halts = (s, what = s.step.name) => {
    bad(s, what);
    check(s.expect.output.length === 0, `${what}: an exceptional halt has no revert data`);
    check(
      s.expect.l2GasUsed === s.step.call.l2GasLimit && s.expect.daGasUsed === s.step.call.daGasLimit,
      `${what}: an exceptional halt uses all gas`,
    );
    return s;
  };
  /**
   * Reads an explicit revert whose error type is a fmtstring (the generator's errorMessage only
   * reads plain strings): checks the layout of the revert data and keeps the reading as a note.
   */
  const fmt = (s, template, items, what = s.step.name) => {
    bad(s, what);
    const o = s.expect.output.map((x) => BigInt(x));
    const key = o[0]?.toString();
    const type = Object.values(artifacts)
      .flatMap((a) => a.functions.map((fn) => fn.errorTypes?.[key]))
      .find((t) => t !== undefined);
    check(
      type?.error_kind === 'fmtstring' && type.length === template.length,
      `${what}: a fmtstring error type`,
    );
    const chars = String.fromCharCode(...o.slice(1, 1 + template.length).map(Number));
    check(chars === template, `${what}: template "${chars}"`);
    const rest = o.slice(1 + template.length);
    const want = [BigInt(items.length), ...items.map(BigInt)];
    check(JSON.stringify(rest.map(String)) === JSON.stringify(want.map(String)), `${what}: items ${rest}`);
    s.step.note = `Revert data of a Noir fmtstring assertion: the error selector ${s.expect.output[0]} (error_kind fmtstring, length ${template.length}), then the template "${template}" one character a field, then the number of item fields (${items.length})${items.length ? `, then the items: ${items.map((x) => `0x${BigInt(x).toString(16)}`).join(', ')}` : ''}.`;
    return s;
  };
  const writes = (s, n, what = s.step.name) => {
    check(
      s.expect.storageWrites.length === n,
      `${what}: ${s.expect.storageWrites.length} writes, expected ${n}`,
    );
    return s;
  };
  const fj = (name, fn, args, opts) => f.call(name, 'FeeJuice', fn, args, opts);

  // ---- FeeJuice ------------------------------------------------------------------------------
  out(
    ok(
      await fj('FeeJuice.balance_of_public(alice) = 1000 (seeded)', 'balance_of_public', [alice], {
        sender: bob,
      }),
    ),
    [1000],
  );
  out(
    ok(
      await fj('FeeJuice.balance_of_public(bob) = 0 (no balance)', 'balance_of_public', [bob], {
        sender: bob,
      }),
    ),
    [0],
  );
  says(
    bad(
      await fj(
        'FeeJuice.balance_of_public(alice) called non-statically (it is #[view])',
        'balance_of_public',
        [alice],
        {
          sender: bob,
          isStaticCall: false,
        },
      ),
    ),
    'Function balance_of_public can only be called statically',
  );
  out(
    ok(
      await fj('FeeJuice.check_balance(999) by alice (balance 1000)', 'check_balance', [999n], {
        sender: alice,
      }),
    ),
    [],
  );
  out(
    ok(
      await fj('FeeJuice.check_balance(1000) by alice: equal to the balance', 'check_balance', [1000n], {
        sender: alice,
      }),
    ),
    [],
  );
  says(
    bad(
      await fj('FeeJuice.check_balance(1001) by alice: above the balance', 'check_balance', [1001n], {
        sender: alice,
      }),
    ),
    'Balance too low',
  );
  out(
    ok(await fj('FeeJuice.check_balance(0) by bob (no balance)', 'check_balance', [0n], { sender: bob })),
    [],
  );
  says(
    bad(
      await fj(
        'FeeJuice.check_balance(1) by alice called non-statically (it is #[view])',
        'check_balance',
        [1n],
        {
          sender: alice,
          isStaticCall: false,
        },
      ),
    ),
    'Function check_balance can only be called statically',
  );
  writes(
    ok(
      await fj(
        'FeeJuice._increase_public_balance(bob, 500) sent by FeeJuice itself (5)',
        '_increase_public_balance',
        [bob, 500n],
        {
          sender: feeJuice,
        },
      ),
    ),
    1,
  );
  out(
    ok(await fj('FeeJuice.balance_of_public(bob) = 500', 'balance_of_public', [bob], { sender: bob })),
    [500],
  );
  says(
    bad(
      await fj(
        'FeeJuice._increase_public_balance(alice, 1) sent by alice: only FeeJuice itself may',
        '_increase_public_balance',
        [alice, 1n],
        {
          sender: alice,
        },
      ),
    ),
    'Function _increase_public_balance can only be called by the same contract',
  );
  halts(
    await fj(
      'FeeJuice._increase_public_balance(bob, 1) by FeeJuice in a static call: SSTORE in a static frame',
      '_increase_public_balance',
      [bob, 1n],
      {
        sender: feeJuice,
        isStaticCall: true,
      },
    ),
  );
  writes(
    ok(
      await fj(
        'FeeJuice._increase_public_balance(carol, 2^128 - 1) by FeeJuice: 0 -> u128 max',
        '_increase_public_balance',
        [carol, U128_MAX],
        {
          sender: feeJuice,
        },
      ),
    ),
    1,
  );
  says(
    bad(
      await fj(
        'FeeJuice._increase_public_balance(carol, 1) by FeeJuice: the balance would exceed u128',
        '_increase_public_balance',
        [carol, 1n],
        {
          sender: feeJuice,
        },
      ),
    ),
    'attempt to add with overflow',
  );
  out(
    ok(
      await fj('FeeJuice.balance_of_public(carol) = 2^128 - 1 (unchanged)', 'balance_of_public', [carol], {
        sender: bob,
      }),
    ),
    [U128_MAX],
  );
  // Two increases in one tx: the second write to the slot is warm (no SSTORE DA gas).
  const first = ok(
    await fj(
      'tx with two calls (1/2): FeeJuice._increase_public_balance(bob, 7) by FeeJuice',
      '_increase_public_balance',
      [bob, 7n],
      {
        sender: feeJuice,
      },
    ),
  );
  const second = ok(
    await fj(
      'tx with two calls (2/2): FeeJuice._increase_public_balance(bob, 7) by FeeJuice, same slot again',
      '_increase_public_balance',
      [bob, 7n],
      {
        sender: feeJuice,
        sameTx: true,
      },
    ),
  );
  check(
    second.expect.daGasUsed < first.expect.daGasUsed,
    'the second write of a slot in a tx pays no DA gas',
  );
  out(
    ok(await fj('FeeJuice.balance_of_public(bob) = 514', 'balance_of_public', [bob], { sender: bob })),
    [514],
  );
  halts(
    await fj(
      'FeeJuice._increase_public_balance(bob, 1) by FeeJuice with too little L2 gas (2000)',
      '_increase_public_balance',
      [bob, 1n],
      {
        sender: feeJuice,
        l2Gas: 2_000,
      },
    ),
  );
  const unknown = bad(
    await f.rawCall('FeeJuice: unknown selector 0x12345678', 'FeeJuice', [new R.Fr(0x12345678)], {
      sender: alice,
    }),
  );
  const claimSelector = await R.abi.FunctionSelector.fromSignature('claim((Field),u128,Field,Field)');
  check(
    claimSelector.equals(await f.selector('FeeJuice', 'claim')),
    "claim((Field),u128,Field,Field) is the selector of the artifact's private claim",
  );
  const claim = bad(
    await f.rawCall(
      `FeeJuice: selector ${claimSelector} of claim((Field),u128,Field,Field) (a private function, not in the public dispatcher) with (alice, 100, secret 0x5ec4e7, leaf 0)`,
      'FeeJuice',
      [claimSelector.toField(), alice.toField(), new R.Fr(100), new R.Fr(0x5ec4e7), new R.Fr(0)],
      { sender: alice },
    ),
  );
  fmt(unknown, 'Unknown selector {selector}', [0x12345678n]);
  fmt(claim, 'Unknown selector {selector}', [claimSelector.toField().toBigInt()]);

  // ---- ContractInstanceRegistry ---------------------------------------------------------------
  const ir = (name, fn, args, opts) => f.call(name, 'ContractInstanceRegistry', fn, args, opts);
  /**
   * The writes of set_update_delay and update: the sender's DelayedPublicMutable at
   * S = map slot (UPDATED_CLASS_IDS_SLOT, sender), in order S (packed first field), S + 1
   * (svc.pre), S + 2 (svc.post), S + 3 (poseidon2 of the three, which the AVM checks on every
   * contract fetch).
   */
  const dpmWrites = async (s, owner, { first, pre = 0n, post }) => {
    const what = s.step.name;
    const base = (await R.hash.deriveStorageSlotInMap(new R.Fr(C.UPDATED_CLASS_IDS_SLOT), owner)).toBigInt();
    const w = s.expect.storageWrites;
    check(
      w.length === 4 && w.every((x, i) => BigInt(x.contract) === 2n && BigInt(x.slot) === base + BigInt(i)),
      `${what}: writes S..S+3 of the registry`,
    );
    const v = w.map((x) => BigInt(x.value));
    check(v[0] === first, `${what}: first field 0x${v[0].toString(16)}, expected 0x${first.toString(16)}`);
    check(v[1] === pre && v[2] === post, `${what}: svc pre ${v[1]} post ${v[2]}`);
    const hash = await R.poseidon.poseidon2Hash(v.slice(0, 3).map((x) => new R.Fr(x)));
    check(hash.toBigInt() === v[3], `${what}: S + 3 holds the hash of S..S+2`);
  };
  /** The ContractInstanceUpdated log: magic, address, previous class id, new class id, timestamp of change. */
  const updateLog = (s, owner, prev, next, at) => {
    const l = s.expect.publicLogs;
    const want = [
      BigInt(C.CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE),
      owner.toBigInt(),
      prev,
      next.toBigInt(),
      at,
    ];
    check(
      l.length === 1 &&
        BigInt(l[0].contract) === 2n &&
        JSON.stringify(l[0].fields.map((x) => BigInt(x).toString())) === JSON.stringify(want.map(String)),
      `${s.step.name}: log ${JSON.stringify(l)}`,
    );
  };
  out(
    ok(
      await ir(
        'ContractInstanceRegistry.get_update_delay() by Updatable (never set) = 86400, the default',
        'get_update_delay',
        [],
        { sender: updatable.address },
      ),
    ),
    [DEFAULT_UPDATE_DELAY],
  );
  says(
    bad(
      await ir(
        'ContractInstanceRegistry.get_update_delay() by Updatable called non-statically (it is #[view])',
        'get_update_delay',
        [],
        {
          sender: updatable.address,
          isStaticCall: false,
        },
      ),
    ),
    'Function get_update_delay can only be called statically',
  );
  out(
    ok(
      await ir(
        'ContractInstanceRegistry.get_update_delay() by a never-deployed address = 86400 (no deployment check)',
        'get_update_delay',
        [],
        { sender: nobody },
      ),
    ),
    [DEFAULT_UPDATE_DELAY],
  );
  says(
    bad(
      await ir(
        'ContractInstanceRegistry.set_update_delay(599) by DelaySetter: below MINIMUM_UPDATE_DELAY (600)',
        'set_update_delay',
        [MINIMUM_UPDATE_DELAY - 1n],
        {
          sender: delaySetter.address,
        },
      ),
    ),
    'New update delay is too low',
  );
  says(
    bad(
      await ir(
        'ContractInstanceRegistry.set_update_delay(600) by a never-deployed address',
        'set_update_delay',
        [MINIMUM_UPDATE_DELAY],
        { sender: nobody },
      ),
    ),
    'msg.sender is not deployed',
  );

  // update() at T0, with the default delay: the new class takes effect at T0 + 86400.
  const upd = ok(
    await ir('ContractInstanceRegistry.update(V2) by Updatable: V2 published', 'update', [classIdV2], {
      sender: updatable.address,
    }),
  );
  await dpmWrites(upd, updatable.address, {
    first: packDpm({ svcChange: T0 + DEFAULT_UPDATE_DELAY }),
    post: classIdV2.toBigInt(),
  });
  updateLog(upd, updatable.address, 0n, classIdV2, T0 + DEFAULT_UPDATE_DELAY);
  out(
    ok(
      await f.rawCall(
        'Updatable called after its update, same tx: still runs V1 (the update is scheduled for T0 + 86400)',
        'Updatable',
        [],
        {
          sender: alice,
          sameTx: true,
        },
      ),
    ),
    [1],
  );
  says(
    bad(
      await ir('ContractInstanceRegistry.update(V2) by a never-deployed address', 'update', [classIdV2], {
        sender: nobody,
      }),
    ),
    'msg.sender is not deployed',
  );
  says(
    bad(
      await ir('ContractInstanceRegistry.update(V3) by Updatable: V3 not published', 'update', [classIdV3], {
        sender: updatable.address,
      }),
    ),
    'New contract class is not registered',
  );
  const upd2 = ok(
    await ir(
      'ContractInstanceRegistry.update(V1) by Updatable: a second update, back to its original class, replaces the scheduled one',
      'update',
      [classIdV1],
      {
        sender: updatable.address,
      },
    ),
  );
  // The previous class id in the log is the registry's current value, 0 (never updated), not V1.
  await dpmWrites(upd2, updatable.address, {
    first: packDpm({ svcChange: T0 + DEFAULT_UPDATE_DELAY }),
    post: classIdV1.toBigInt(),
  });
  updateLog(upd2, updatable.address, 0n, classIdV1, T0 + DEFAULT_UPDATE_DELAY);
  // DA gas: the four SSTOREs take 4 x 64, the 5-field log (5 + 2) x 32 more.
  check(upd2.expect.daGasUsed === 4 * 64 + 7 * 32, `update's DA gas ${upd2.expect.daGasUsed}`);
  halts(
    await ir(
      'ContractInstanceRegistry.update(V2) by Updatable with 300 DA gas: enough for its four writes (256), not for its log (224)',
      'update',
      [classIdV2],
      { sender: updatable.address, daGas: 300 },
    ),
  );
  halts(
    await ir('ContractInstanceRegistry.update(V2) by Updatable in a static call', 'update', [classIdV2], {
      sender: updatable.address,
      isStaticCall: true,
    }),
  );
  out(
    ok(
      await ir(
        'ContractInstanceRegistry.get_update_delay() by Updatable after its updates = 86400',
        'get_update_delay',
        [],
        { sender: updatable.address },
      ),
    ),
    [DEFAULT_UPDATE_DELAY],
  );

  // set_update_delay(600) at T0: lowering the delay takes effect at T0 + (86400 - 600).
  const setDelay = ok(
    await ir(
      'ContractInstanceRegistry.set_update_delay(600) by DelaySetter',
      'set_update_delay',
      [MINIMUM_UPDATE_DELAY],
      {
        sender: delaySetter.address,
      },
    ),
  );
  check(setDelay.expect.publicLogs.length === 0, 'set_update_delay emits no log');
  const delayChange = {
    sdcChange: T0 + DEFAULT_UPDATE_DELAY - MINIMUM_UPDATE_DELAY,
    sdcPost: MINIMUM_UPDATE_DELAY,
    sdcPre: DEFAULT_UPDATE_DELAY,
  };
  await dpmWrites(setDelay, delaySetter.address, { first: packDpm(delayChange), post: 0n });
  out(
    ok(
      await ir(
        'ContractInstanceRegistry.get_update_delay() by DelaySetter, same tx = 86400 (the change is scheduled)',
        'get_update_delay',
        [],
        {
          sender: delaySetter.address,
          sameTx: true,
        },
      ),
    ),
    [DEFAULT_UPDATE_DELAY],
  );
  const effective = T0 + DEFAULT_UPDATE_DELAY - MINIMUM_UPDATE_DELAY;
  out(
    ok(
      await ir(
        `ContractInstanceRegistry.get_update_delay() by DelaySetter in a block at T0 + 85799 (${effective - 1n}) = 86400`,
        'get_update_delay',
        [],
        {
          sender: delaySetter.address,
          timestamp: effective - 1n,
        },
      ),
    ),
    [DEFAULT_UPDATE_DELAY],
  );
  out(
    ok(
      await ir(
        `ContractInstanceRegistry.get_update_delay() by DelaySetter in a block at T0 + 85800 (${effective}) = 600`,
        'get_update_delay',
        [],
        {
          sender: delaySetter.address,
          timestamp: effective,
        },
      ),
    ),
    [MINIMUM_UPDATE_DELAY],
  );
  const upd3 = ok(
    await ir(
      `ContractInstanceRegistry.update(V2) by DelaySetter in a block at T0 + 85800 (${effective}): with the 600 s delay`,
      'update',
      [classIdV2],
      {
        sender: delaySetter.address,
        timestamp: effective,
      },
    ),
  );
  // The change takes effect 600 s later: T0 + 86400 again.
  await dpmWrites(upd3, delaySetter.address, {
    first: packDpm({ ...delayChange, svcChange: effective + MINIMUM_UPDATE_DELAY }),
    post: classIdV2.toBigInt(),
  });
  updateLog(upd3, delaySetter.address, 0n, classIdV2, effective + MINIMUM_UPDATE_DELAY);

  // ---- ContractClassRegistry ------------------------------------------------------------------
  says(
    bad(
      await f.rawCall(
        'ContractClassRegistry: selector 0x12345678',
        'ContractClassRegistry',
        [new R.Fr(0x12345678)],
        { sender: alice },
      ),
    ),
    'No public functions',
  );

  // ---- PublicChecks ---------------------------------------------------------------------------
  // check_block_number(operation, value) asserts `block number <op> value` (block 42);
  // check_timestamp(operation, value) asserts `timestamp <op> value` (T0).
  // The public functions, as the artifact lists them (`abi_public`), besides the dispatcher.
  const pcFns = ctx
    .raw(...FILES.PublicChecks)
    .functions.filter((fn) => fn.custom_attributes.includes('abi_public') && fn.name !== 'public_dispatch');
  const pcCalled = new Set();
  const pc = (name, fn, args, opts = {}) => {
    pcCalled.add(fn);
    return f.call(name, 'PublicChecks', fn, args, { sender: alice, ...opts });
  };
  const checks = [
    ['check_block_number', BigInt(world.globals.blockNumber), 'Block number mismatch.'],
    ['check_timestamp', T0, 'Timestamp mismatch.'],
  ];
  for (const [fn, now, mismatch] of checks) {
    const cases = [
      ['EQ', now, now - 1n],
      ['NEQ', now - 1n, now],
      ['LT', now + 1n, now],
      ['LTE', now, now - 1n],
      ['GT', now - 1n, now],
      ['GTE', now, now + 1n],
    ];
    for (const [op, pass, fail] of cases) {
      out(ok(await pc(`PublicChecks.${fn}(${op}, ${pass}): passes`, fn, [OPS[op], pass])), []);
      says(bad(await pc(`PublicChecks.${fn}(${op}, ${fail}): fails`, fn, [OPS[op], fail])), mismatch);
    }
    for (const op of [0, 7])
      fmt(
        await pc(`PublicChecks.${fn}(operation ${op}, ${now}): no such operation`, fn, [op, now]),
        'Invalid operation',
        [],
      );
    says(
      bad(
        await pc(`PublicChecks.${fn}(EQ, ${now}) called non-statically (it is #[view])`, fn, [OPS.EQ, now], {
          isStaticCall: false,
        }),
      ),
      `Function ${fn} can only be called statically`,
    );
  }
  const pcNames = pcFns.map((fn) => fn.name).sort();
  check(
    JSON.stringify(pcNames) === JSON.stringify([...pcCalled].sort()),
    `PublicChecks public functions ${pcNames} all called (${[...pcCalled]})`,
  );

  return f.doc({
    group: 'protocol-contracts',
    description:
      'The real public bytecode of the protocol contracts (protocol-contracts 4.1.2) at their canonical addresses: FeeJuice (5) balances, checks and self-only increases; ContractInstanceRegistry (2) update delays and class updates (senders deployed or not, classes published or not, later blocks through per-step timestamps); ContractClassRegistry (3), which has no public functions; PublicChecks (6) with every comparison passing and failing.',
    parties: {
      alice: alice.toString(),
      bob: bob.toString(),
      carol: carol.toString(),
      neverDeployed: nobody.toString(),
    },
  });
}
