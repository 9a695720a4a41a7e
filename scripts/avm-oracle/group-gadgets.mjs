// AvmGadgetsTest group: hash gadgets compiled to AVM code (SHA-256 over many sizes, Keccak,
// Poseidon2, Pedersen). Each output is also checked against an independent implementation.
import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { check, FILES, newWorld, ref, VectorFile } from './common.mjs';

/** Deterministic test bytes: (i * 31 + 7) mod 256. */
const bytes = (n) => Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
const asHexList = (buf) => [...buf].map((b) => `0x${b.toString(16)}`);

export async function gadgetsGroup(ctx) {
  const { R } = ctx;
  const world = newWorld(R);
  const f = new VectorFile(ctx, world);
  const user = R.AztecAddress.fromBigInt(0x5e4de4n);
  const artifact = ctx.loadArtifact(...FILES.AvmGadgetsTest);
  await world.deployArtifact('AvmGadgetsTest', ref(FILES.AvmGadgetsTest), artifact, {
    salt: new R.Fr(1),
    deployer: R.AztecAddress.ZERO,
  });
  const call = (name, fn, args) => f.call(name, 'AvmGadgetsTest', fn, args, { sender: user });
  const same = (s, want, what) => {
    check(!s.expect.reverted, `${what} reverted: ${s.expect.revertReason}`);
    check(JSON.stringify(s.expect.output) === JSON.stringify(want), `${what}: ${s.expect.output} != ${want}`);
    s.step.checkedAgainst = what;
  };

  const sizes = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 255, 256, 511, 512, 1024, 1536];
  for (const n of sizes) {
    const data = bytes(n);
    const s = await call(`sha256_hash_${n}(bytes ${n})`, `sha256_hash_${n}`, [data.map(BigInt)]);
    same(s, asHexList(createHash('sha256').update(Buffer.from(data)).digest()), 'node:crypto sha256');
  }
  for (const [fn, n] of [
    ['keccak_hash', 10],
    ['keccak_hash_1400', 1400],
  ]) {
    const data = bytes(n);
    const s = await call(`${fn}(bytes ${n})`, fn, [data.map(BigInt)]);
    same(s, asHexList(keccak_256(Uint8Array.from(data))), '@noble/hashes keccak_256');
  }
  const lanes = Array.from(
    { length: 25 },
    (_, i) => (BigInt(i + 1) * 0x0123456789abcdefn) & 0xffffffffffffffffn,
  );
  const kf = await call('keccak_f1600(25 lanes)', 'keccak_f1600', [lanes]);
  check(!kf.expect.reverted && kf.expect.output.length === 25, 'keccak_f1600');
  const zeroF = await call('keccak_f1600(all zero)', 'keccak_f1600', [Array(25).fill(0n)]);
  // Keccak-f[1600] of the zero state: the first lane is a published test value.
  check(zeroF.expect.output[0] === '0xf1258f7940e1dde7', `keccak_f1600(0)[0] = ${zeroF.expect.output[0]}`);
  zeroF.step.checkedAgainst = 'Keccak-f[1600] of the zero state (first lane 0xf1258f7940e1dde7)';

  const fields10 = Array.from({ length: 10 }, (_, i) => new R.Fr(BigInt(i + 1) * 0x1000000000001n));
  const fields1000 = Array.from({ length: 1000 }, (_, i) => new R.Fr(BigInt(i) * 7n + 1n));
  same(
    await call('poseidon2_hash(10 fields)', 'poseidon2_hash', [fields10]),
    [`0x${(await R.poseidon.poseidon2Hash(fields10)).toBigInt().toString(16)}`],
    'stdlib poseidon2Hash',
  );
  same(
    await call('poseidon2_hash_1000fields(1000 fields)', 'poseidon2_hash_1000fields', [fields1000]),
    [`0x${(await R.poseidon.poseidon2Hash(fields1000)).toBigInt().toString(16)}`],
    'stdlib poseidon2Hash',
  );
  same(
    await call('pedersen_hash(10 fields)', 'pedersen_hash', [fields10]),
    [`0x${(await R.pedersen.pedersenHash(fields10, 0)).toBigInt().toString(16)}`],
    'bb pedersenHash, index 0',
  );
  same(
    await call('pedersen_hash_with_index(10 fields), separator 20', 'pedersen_hash_with_index', [fields10]),
    [`0x${(await R.pedersen.pedersenHash(fields10, 20)).toBigInt().toString(16)}`],
    'bb pedersenHash, index 20',
  );

  const publicFns = artifact.nonDispatchPublicFunctions.map((fn) => fn.name).sort();
  const called = new Set(f.steps.map((s) => s.function));
  const leftOut = publicFns.filter((fn) => !called.has(fn));
  check(leftOut.length === 0, `AvmGadgetsTest functions not called: ${leftOut}`);
  return f.doc({
    group: 'avm-gadgets',
    description:
      'AvmGadgetsTest (noir-test-contracts.js 4.1.2): SHA-256 over 10 to 1536 bytes, Keccak-256, Keccak-f[1600], Poseidon2 and Pedersen. Input bytes are (i*31+7) mod 256. Each output was also checked against the implementation named in checkedAgainst.',
    coverage: { publicFunctions: publicFns.length, called: publicFns.length, leftOut: [] },
  });
}
