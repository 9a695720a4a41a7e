// AVM interpreter throughput: a loop of simple instructions (ADD, LT, JUMPI on U32), and, when the
// real Token artifact is available, Token.balance_of_public and mint_to_public against in-memory
// state. Prints `BENCH avm.<name> ...` lines.
//   node --import tsx bench/avm.bench.ts
// The Token artifact (token_contract-Token.json of @aztec/noir-contracts.js 4.1.2) is looked for at
// $AVM_TOKEN_ARTIFACT, then in the cache of scripts/fetch-artifacts.mjs (`node
// scripts/fetch-artifacts.mjs` fills it); without it those figures are skipped.
import { existsSync, readFileSync } from 'node:fs';
import { artifactPath } from '../src/artifacts/npm-artifacts.js';
import { executeBytecode, executePublicCall } from '../src/avm/interpreter.js';
import { AVM_MAX_PROCESSABLE_L2_GAS, AvmJournal } from '../src/avm/journal.js';
import { Tag } from '../src/avm/memory.js';
import { InMemoryAvmWorld } from '../src/avm/memory-world.js';
import { Op } from '../src/avm/opcodes.js';
import { initializationHash } from '../src/core/contracts.js';
import { functionSelector } from '../src/core/hash/selector.js';

const GLOBALS = { chainId: 1n, version: 1n, blockNumber: 1, timestamp: 1n, feePerDaGas: 0n, feePerL2Gas: 0n };
const ROUNDS = Number(process.env.AVM_BENCH_ROUNDS ?? 7);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** counter (mem[1]) += 1 while counter < limit (mem[3]): 3 instructions per iteration. */
function loopProgram(iterations: number): Uint8Array {
  const u32 = (v: number) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
  const set32 = (dst: number, v: number) => [Op.SET_32, 0, 0, dst, Tag.U32, ...u32(v)];
  const setup = [...set32(1, 0), ...set32(2, 1), ...set32(3, iterations), ...set32(5, 0)];
  const loop = setup.length;
  // biome-ignore format: one instruction per line
  return new Uint8Array([
    ...setup,
    Op.ADD_8, 0, 1, 2, 1,
    Op.LT_8, 0, 1, 3, 4,
    Op.JUMPI_32, 0, 0, 4, ...u32(loop),
    Op.RETURN, 0, 0, 5, 0, 1,
  ]);
}

function benchLoop(): void {
  // Within the 6M L2 gas a call may be given (ADD, LT and JUMPI cost about 100 gas a round).
  const iterations = 50_000;
  const bytecode = loopProgram(iterations);
  const world = new InMemoryAvmWorld();
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const journal = new AvmJournal(world, 1n);
    const start = performance.now();
    const result = executeBytecode(
      journal,
      {
        address: 0x100n,
        sender: 0n,
        calldata: [],
        isStaticCall: false,
        gasLimit: { l2: AVM_MAX_PROCESSABLE_L2_GAS, da: 0 },
        transactionFee: 0n,
        globals: GLOBALS,
      },
      bytecode,
    );
    const seconds = (performance.now() - start) / 1000;
    if (result.reverted) throw new Error(`loop reverted: ${result.revertReason}`);
    rates.push(result.instructionsExecuted / seconds);
  }
  console.log(
    `BENCH avm.simple_loop instructions=${3 * iterations} instr_per_s=${Math.round(median(rates))}`,
  );
}

function tokenArtifactPath(): string | undefined {
  const candidates = [
    process.env.AVM_TOKEN_ARTIFACT,
    artifactPath('@aztec/noir-contracts.js@4.1.2', 'artifacts/token_contract-Token.json'),
  ];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

function benchToken(path: string): void {
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as {
    functions: { name: string; bytecode: string }[];
  };
  const dispatch = artifact.functions.find((f) => f.name === 'public_dispatch');
  if (dispatch === undefined) throw new Error(`${path} has no public_dispatch`);
  const bytecode = new Uint8Array(Buffer.from(dispatch.bytecode, 'base64'));
  const world = new InMemoryAvmWorld();
  const token = 0x70c3n;
  const alice = 0xa11cen;
  const text = (s: string) => Array.from({ length: 31 }, (_, i) => BigInt(s.charCodeAt(i) || 0));
  const constructorSignature = 'constructor((Field),str<31>,str<31>,u8)';
  const constructorArgs = [alice, ...text('Token'), ...text('TKN'), 18n];
  world.deploy({
    address: token,
    classId: 0x70c3c1a55n,
    bytecode,
    initializationHash: initializationHash(functionSelector(constructorSignature), constructorArgs),
  });
  let firstNullifier = 1000n;
  const call = (signature: string, args: bigint[], isStaticCall: boolean) => {
    const journal = new AvmJournal(world, firstNullifier++);
    const result = executePublicCall(journal, {
      address: token,
      sender: alice,
      calldata: [BigInt(functionSelector(signature)), ...args],
      isStaticCall,
      gasLimit: { l2: 6_000_000, da: 1_000_000 },
      transactionFee: 0n,
      globals: GLOBALS,
    });
    if (result.reverted) throw new Error(`${signature} reverted: ${result.revertReason}`);
    world.applyJournal(journal);
    return result;
  };
  // The first call decodes as it goes: the cold cost of a contract's first use.
  const coldStart = performance.now();
  const constructed = call(constructorSignature, constructorArgs, false);
  console.log(
    `BENCH avm.token_constructor_cold instructions=${constructed.instructionsExecuted} ms=${(performance.now() - coldStart).toFixed(2)}`,
  );
  call('mint_to_public((Field),u128)', [alice, 1000n], false);

  const measure = (name: string, signature: string, args: bigint[], isStaticCall: boolean, calls: number) => {
    for (let i = 0; i < 50; i++) call(signature, args, isStaticCall);
    const perCall: number[] = [];
    let instructions = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      for (let i = 0; i < calls; i++) instructions = call(signature, args, isStaticCall).instructionsExecuted;
      perCall.push((performance.now() - start) / calls);
    }
    const ms = median(perCall);
    console.log(
      `BENCH avm.token_${name} instructions=${instructions} ms_per_call=${ms.toFixed(3)} instr_per_s=${Math.round((instructions / ms) * 1000)}`,
    );
  };
  measure('balance_of_public', 'balance_of_public((Field))', [alice], true, 200);
  measure('mint_to_public', 'mint_to_public((Field),u128)', [alice, 1n], false, 100);
}

benchLoop();
const path = tokenArtifactPath();
if (path === undefined)
  console.error(
    '# no Token artifact ($AVM_TOKEN_ARTIFACT or the artifact cache); skipping the Token figures',
  );
else benchToken(path);
