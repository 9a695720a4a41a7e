// The reference's Tx (Aztec 4.1.2's kernel tx) at `/aztec`, end to end on a node with the instant
// clock, through the unmodified stock client `createAztecNodeClient(url)` of @aztec/stdlib 4.1.2
// (installed at test time by test/helpers/aztec-reference.ts, never a dependency of cairn). The txs
// are built with the reference's own classes — its kernel tail output, gas settings, public call
// requests, calldata (HashedValues), ChonkProof, and its constants — on a real anchor (the node's
// own latest header through the stock client) and hashed by the reference's `Tx.create`. Then:
// they are mined and found by the reference hash at both APIs (/aztec and the seeds' `/`); while
// held pending (the manual clock, for a moment) the six Tx methods give back the same tx, byte for
// byte; a tx sent at `/` built by cairn's prepareTx is the reference's tx with the same hash;
// isValidTx refuses each bad tx with the reference's own reason text (@aztec/stdlib's
// tx/validator/error_texts.js) and sendTx of one rejects in the client and changes nothing; a
// malformed tx body is a transport error that leaves the node serving; and simulatePublicCalls of
// a Fee Juice `balance_of_public` call returns the balance, parsed by the reference's schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { NodeClient, prepareTx } from '../../src/client/node-client.js';
import { toHex32 } from '../../src/core/field.js';
import { encodeTx } from '../../src/core/kernel/tx-codec.js';
import {
  AZTEC_CLIENT_DIR,
  type AztecReference,
  closeAztecReference,
  loadAztecReference,
} from '../helpers/aztec-reference.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { post, result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

/** The reference modules beyond loadAztecReference's, imported by path so they share its instances. */
interface TxReference {
  tail: any;
  builder: any;
  PublicCallRequest: any;
  gas: any;
  ChonkProof: any;
  HashedValues: any;
  FunctionSelector: any;
  factories: any;
  /** The reference's reason texts (`TX_ERROR_*`). */
  errors: Record<string, string>;
  jsonStringify: (value: unknown) => string;
}

async function loadTxReference(): Promise<TxReference> {
  const imp = (path: string) =>
    import(pathToFileURL(join(AZTEC_CLIENT_DIR, 'node_modules', '@aztec', path)).href);
  const [tail, builder, call, gas, proof, hashed, selector, factories, errors, convert] = await Promise.all([
    imp('stdlib/dest/kernel/private_kernel_tail_circuit_public_inputs.js'),
    imp('stdlib/dest/kernel/private_to_public_accumulated_data_builder.js'),
    imp('stdlib/dest/kernel/public_call_request.js'),
    imp('stdlib/dest/gas/index.js'),
    imp('stdlib/dest/proofs/chonk_proof.js'),
    imp('stdlib/dest/tx/hashed_values.js'),
    imp('stdlib/dest/abi/function_selector.js'),
    imp('stdlib/dest/tests/factories.js'),
    imp('stdlib/dest/tx/validator/error_texts.js'),
    imp('foundation/dest/json-rpc/convert.js'),
  ]);
  return {
    tail,
    builder: builder.PrivateToPublicAccumulatedDataBuilder,
    PublicCallRequest: call.PublicCallRequest,
    gas,
    ChonkProof: proof.ChonkProof,
    HashedValues: hashed.HashedValues,
    FunctionSelector: selector.FunctionSelector,
    factories,
    errors,
    jsonStringify: convert.jsonStringify,
  };
}

/**
 * 4.1.2's vkTreeRoot and protocolContractsHash, as the reference's own install states them: its
 * L1 deploy script (@aztec/l1-artifacts 4.1.2, DeployAlpha.s.sol). (The packages that compute them,
 * noir-protocol-circuits-types and protocol-contracts, are not part of the pinned client.)
 */
function referenceRoots(): { vkTreeRoot: bigint; protocolContractsHash: bigint } {
  const script = readFileSync(
    join(AZTEC_CLIENT_DIR, 'node_modules/@aztec/l1-artifacts/l1-contracts/script/deploy/DeployAlpha.s.sol'),
    'utf8',
  );
  const constant = (name: string) => {
    const m = new RegExp(`${name}\\s*=\\s*(0x[0-9a-fA-F]{64})`).exec(script);
    if (!m) throw new Error(`${name} not found in the reference's DeployAlpha.s.sol`);
    return BigInt(m[1]!);
  };
  return {
    vkTreeRoot: constant('MAINNET_VK_TREE_ROOT'),
    protocolContractsHash: constant('MAINNET_PROTOCOL_CONTRACTS_HASH'),
  };
}

const SIGNATURE = 'balance_of_public((Field))';
const MINED = ['proposed', 'checkpointed', 'proven', 'finalized'];

/** What a tx built here may differ in from a good one. */
interface TxOptions {
  /** A public call to Fee Juice's balance_of_public(owner): in app logic, or in setup. */
  publicCall?: { owner: bigint; phase: 'app' | 'setup' };
  /** The nullifiers (the first is the protocol nullifier); one fresh random one by default. */
  nullifiers?: bigint[];
  chainId?: bigint;
  version?: bigint;
  vkTreeRoot?: bigint;
  protocolContractsHash?: bigint;
  /** The anchor header (a reference BlockHeader); the node's latest by default. */
  anchor?: any;
  expirationTimestamp?: bigint;
  gasLimits?: { daGas: number; l2Gas: number };
  /** Max fees per gas; twice the node's current min fees by default. */
  maxFeesPerGas?: { feePerDaGas: bigint; feePerL2Gas: bigint };
  feePayer?: bigint;
}

describe("the reference's Tx at /aztec through the stock client of @aztec/stdlib 4.1.2", () => {
  let ref: AztecReference;
  let k: TxReference;
  let node: CairnProcess;
  /** The stock client on `<public url>/aztec`. */
  let aztec: any;
  let aztecUrl: string;
  let info: any;
  let roots: { vkTreeRoot: bigint; protocolContractsHash: bigint };
  /** The dev accounts of the node's ready facts (funded with Fee Juice at genesis). */
  let accounts: bigint[];
  const svc = (m: string, p?: unknown[]) => result(node.publicUrl, m, p) as Promise<any>;
  const dev = (m: string, p?: unknown[]) => result(node.adminUrl, m, p) as Promise<any>;
  const say = (line: string) => process.stderr.write(`${line}\n`);

  before(async () => {
    const t0 = Date.now();
    ref = await loadAztecReference(say);
    k = await loadTxReference();
    roots = referenceRoots();
    say(`aztec-txs: reference client loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    node = await startCairn(['--clock', 'instant', '--log-format', 'json']);
    aztecUrl = `${node.publicUrl}/aztec`;
    aztec = ref.createAztecNodeClient(aztecUrl);
    info = await aztec.getNodeInfo();
    const factsLine = node
      .output()
      .split('\n')
      .find((l) => l.includes('"facts"'));
    assert.ok(factsLine, `the node printed its ready facts:\n${node.output()}`);
    accounts = (JSON.parse(factsLine).facts.devAccounts as string[]).map((a) => BigInt(a));
    assert.ok(accounts.length >= 3, 'at least three dev accounts');
  });
  after(async () => {
    await node?.stop();
    await closeAztecReference();
  });

  const fr = (x: bigint | number) => new ref.Fr(BigInt(x));
  const big = (x: unknown): bigint => BigInt(String(x));
  /** A fresh random nullifier (a field element). */
  const randomField = (): bigint => ref.Fr.random().toBigInt();
  const feeJuice = () => ref.AztecAddress.fromBigInt(big(info.protocolContractAddresses.feeJuice));
  const txHashOf = (tx: any): string => tx.getTxHash().toString();

  /** A future expiration: a day after the later of the node's L1 time and the wall clock. */
  const futureExpiration = async (): Promise<bigint> => {
    const l1 = BigInt((await svc('svc_getSyncedL1Timestamp')) ?? 0);
    const now = BigInt(Math.floor(Date.now() / 1000));
    return (l1 > now ? l1 : now) + BigInt(ref.constants.MAX_TX_LIFETIME);
  };

  /** The calldata of Fee Juice's balance_of_public(owner), selector first, as the reference hashes it. */
  const balanceCalldata = async (owner: bigint) => {
    const selector = await k.FunctionSelector.fromSignature(SIGNATURE);
    return k.HashedValues.fromCalldata([selector.toField(), fr(owner)]);
  };

  /**
   * A tx built with the reference's classes: the kernel tail's output on the node's latest header
   * (through the stock client), its chain id and rollup version (getNodeInfo), 4.1.2's roots,
   * gas limits within the node's, fees per gas above its current min fees, the private gas used
   * the kernel would report, a dev account paying, a random proof; hashed by `Tx.create`.
   */
  const buildTx = async (o: TxOptions = {}): Promise<any> => {
    const { tail, gas } = k;
    const [anchor, minFees, expiration] = await Promise.all([
      o.anchor ?? aztec.getBlockHeader(),
      aztec.getCurrentMinFees(),
      o.expirationTimestamp ?? futureExpiration(),
    ]);
    const nullifiers = o.nullifiers ?? [randomField()];
    const c = ref.constants;
    const feePayer = o.feePayer ?? accounts[0]!;
    const data = tail.PrivateKernelTailCircuitPublicInputs.empty();
    data.constants.anchorBlockHeader = anchor;
    data.constants.txContext.chainId = fr(o.chainId ?? BigInt(info.l1ChainId));
    data.constants.txContext.version = fr(o.version ?? BigInt(info.rollupVersion));
    const fees = o.maxFeesPerGas ?? {
      feePerDaGas: minFees.feePerDaGas * 2n,
      feePerL2Gas: minFees.feePerL2Gas * 2n,
    };
    const limits = o.gasLimits ?? { daGas: 10_000, l2Gas: o.publicCall ? 2_000_000 : 1_000_000 };
    data.constants.txContext.gasSettings = gas.GasSettings.from({
      gasLimits: gas.Gas.from(limits),
      teardownGasLimits: gas.Gas.empty(),
      maxFeesPerGas: new gas.GasFees(fees.feePerDaGas, fees.feePerL2Gas),
      maxPriorityFeesPerGas: gas.GasFees.empty(),
    });
    data.constants.vkTreeRoot = fr(o.vkTreeRoot ?? roots.vkTreeRoot);
    data.constants.protocolContractsHash = fr(o.protocolContractsHash ?? roots.protocolContractsHash);
    data.feePayer = ref.AztecAddress.fromBigInt(feePayer);
    data.expirationTimestamp = expiration;
    // The gas the private kernel reports: the fixed overhead and each nullifier's cost.
    data.gasUsed = gas.Gas.from({
      daGas: c.TX_DA_GAS_OVERHEAD + nullifiers.length * c.DA_GAS_PER_FIELD,
      l2Gas:
        (o.publicCall ? c.PUBLIC_TX_L2_GAS_OVERHEAD : c.PRIVATE_TX_L2_GAS_OVERHEAD) +
        nullifiers.length * c.L2_GAS_PER_NULLIFIER,
    });
    const publicFunctionCalldata: any[] = [];
    if (!o.publicCall) {
      nullifiers.forEach((n, i) => {
        data.forRollup.end.nullifiers[i] = fr(n);
      });
    } else {
      const calldata = await balanceCalldata(o.publicCall.owner);
      publicFunctionCalldata.push(calldata);
      // A static call: balance_of_public is a view, which Fee Juice's bytecode runs only statically.
      const request = new k.PublicCallRequest(
        ref.AztecAddress.fromBigInt(feePayer),
        feeJuice(),
        true,
        calldata.hash,
      );
      const nonRevertible = new k.builder().withNullifiers(nullifiers.map(fr));
      const revertible = new k.builder();
      (o.publicCall.phase === 'setup' ? nonRevertible : revertible).pushPublicCall(request);
      data.forRollup = undefined;
      data.forPublic = tail.PartialPrivateTailPublicInputsForPublic.empty();
      data.forPublic.nonRevertibleAccumulatedData = nonRevertible.build();
      data.forPublic.revertibleAccumulatedData = revertible.build();
    }
    return ref.Tx.create({
      data,
      chonkProof: k.ChonkProof.random(),
      contractClassLogFields: [],
      publicFunctionCalldata,
    });
  };

  /** The receipt through the stock client once the tx is in a block. */
  const minedReceipt = async (hash: string): Promise<any> => {
    return until(
      `tx ${hash} mined`,
      async () => {
        const receipt = await aztec.getTxReceipt(ref.TxHash.fromString(hash));
        return MINED.includes(receipt.status) && receipt;
      },
      20_000,
    );
  };

  /** Checks a mined tx at both APIs: receipts and effects by the reference hash. */
  const checkMined = async (hash: string, nullifiers: bigint[]): Promise<number> => {
    const receipt = await minedReceipt(hash);
    assert.equal(receipt.txHash.toString(), hash);
    assert.equal(receipt.executionResult, 'success');
    assert.ok(receipt.blockNumber > 0);
    assert.ok(receipt.transactionFee > 0n, 'a fee was paid');
    // The seeds' API at `/`, raw JSON-RPC: the same tx by the same hash.
    const svcReceipt = await svc('svc_getTxReceipt', [hash]);
    assert.equal(svcReceipt.txHash, hash);
    assert.ok(MINED.includes(svcReceipt.status), `svc_getTxReceipt status ${svcReceipt.status}`);
    assert.equal(svcReceipt.blockNumber, receipt.blockNumber);
    assert.equal(BigInt(svcReceipt.transactionFee), receipt.transactionFee);
    const svcEffect = await svc('svc_getTxEffect', [hash]);
    assert.equal(svcEffect.data.txHash, hash);
    assert.equal(svcEffect.l2BlockNumber, receipt.blockNumber);
    // The effect at /aztec: the reference's TxEffect, with the tx's nullifiers.
    const effect = await aztec.getTxEffect(ref.TxHash.fromString(hash));
    assert.ok(effect, 'getTxEffect at /aztec finds the tx');
    assert.equal(effect.data.txHash.toString(), hash);
    assert.equal(effect.l2BlockNumber, receipt.blockNumber);
    const got = effect.data.nullifiers.map((n: any) => n.toBigInt());
    for (const n of nullifiers) assert.ok(got.includes(n), `nullifier ${toHex32(n)} in the effect`);
    assert.deepEqual(got, svcEffect.data.nullifiers.map(big));
    return receipt.blockNumber;
  };

  test("the reference's 4.1.2 roots the txs claim are those the node announces", async () => {
    // The stock client given these versions compares them with the node's x-aztec-* headers.
    const checked = ref.createAztecNodeClient(aztecUrl, {
      l2CircuitsVkTreeRoot: toHex32(roots.vkTreeRoot),
      l2ProtocolContractsHash: toHex32(roots.protocolContractsHash),
    });
    assert.equal(await checked.getChainId(), info.l1ChainId);
  });

  /** A mined private tx (its nullifier is replayed below). */
  let minedPrivate: { hash: string; nullifier: bigint } | undefined;

  test('a private-only tx built with the reference classes is sent by the stock client and mined', async () => {
    const nullifier = randomField();
    const tx = await buildTx({ nullifiers: [nullifier] });
    assert.ok(tx.data.forRollup, 'a private-only tx is forRollup');
    assert.equal(await tx.validateTxHash(), true);
    const hash = txHashOf(tx);
    assert.equal(await aztec.sendTx(tx), undefined);
    await checkMined(hash, [nullifier]);
    minedPrivate = { hash, nullifier };
  });

  test('simulatePublicCalls of a Fee Juice balance_of_public call returns the balance', async () => {
    const owner = accounts[1]!;
    const nullifier = randomField();
    const tx = await buildTx({ nullifiers: [nullifier], publicCall: { owner, phase: 'app' } });
    const out = await aztec.simulatePublicCalls(tx, false);
    // The client parsed it with the reference's PublicSimulationOutput schema.
    assert.equal(out.constructor.name, 'PublicSimulationOutput');
    assert.equal(out.revertReason, undefined);
    const { accounts: balances } = await dev('svcDev_getAccounts');
    const balance = BigInt(balances.find((a: any) => BigInt(a.address) === owner).feeJuice);
    assert.ok(balance > 0n);
    assert.deepEqual(
      out.publicReturnValues[0].values.map((v: any) => v.toBigInt()),
      [balance],
    );
    // The effect of the simulated tx: its hash and nullifier; gas used beyond the private part's.
    assert.equal(out.txEffect.txHash.toString(), txHashOf(tx));
    assert.ok(out.txEffect.nullifiers.some((n: any) => n.toBigInt() === nullifier));
    assert.ok(out.gasUsed.totalGas.l2Gas > tx.data.gasUsed.l2Gas, 'public gas on top of the private gas');
    // Simulation changes nothing: the tx is not pending, the block not built.
    assert.equal((await aztec.getTxReceipt(tx.getTxHash())).status, 'dropped');
  });

  test('a tx with a public call (forPublic) is sent by the stock client and mined', async () => {
    const nullifier = randomField();
    const tx = await buildTx({ nullifiers: [nullifier], publicCall: { owner: accounts[1]!, phase: 'app' } });
    assert.ok(tx.data.forPublic, 'a tx with a public call is forPublic');
    assert.equal(tx.data.numberOfRevertiblePublicCallRequests(), 1);
    const hash = txHashOf(tx);
    assert.equal(await aztec.sendTx(tx), undefined);
    await checkMined(hash, [nullifier]);
  });

  test('pending (manual clock for a moment): getTxByHash, getTxsByHash, getPendingTxs give back the same tx; a tx sent at / is the reference tx with the same hash', async () => {
    await dev('svcDev_setClock', ['manual']);
    try {
      // One tx through the stock client, one at `/` built by cairn's prepareTx.
      const tx = await buildTx({ publicCall: { owner: accounts[2]!, phase: 'app' } });
      const hash = txHashOf(tx);
      await aztec.sendTx(tx);
      const prepared = await prepareTx(new NodeClient(node.publicUrl), { feePayer: accounts[1]! });
      assert.equal(await svc('svc_sendTx', [prepared.wire]), null);
      const svcHash = prepared.hash;
      assert.equal(await aztec.getPendingTxCount(), 2);
      assert.equal((await aztec.getTxReceipt(ref.TxHash.fromString(hash))).status, 'pending');
      assert.equal((await aztec.getTxReceipt(ref.TxHash.fromString(svcHash))).status, 'pending');

      const same = async (got: any, what: string) => {
        assert.ok(got instanceof ref.Tx, `${what} is the reference's Tx`);
        assert.equal(txHashOf(got), hash, `${what}: getTxHash()`);
        assert.ok(got.toBuffer().equals(tx.toBuffer()), `${what}: the same bytes`);
      };
      await same(await aztec.getTxByHash(ref.TxHash.fromString(hash)), 'getTxByHash');
      const byHash = await aztec.getTxsByHash([ref.TxHash.fromString(hash), ref.TxHash.random()]);
      assert.equal(byHash.length, 1);
      await same(byHash[0], 'getTxsByHash');
      const pending = await aztec.getPendingTxs();
      assert.deepEqual(pending.map(txHashOf).sort(), [hash, svcHash].sort());
      await same(
        pending.find((t: any) => txHashOf(t) === hash),
        'getPendingTxs',
      );
      // The seeds' API gives the same tx by the same hash.
      const svcTx = await svc('svc_getTxByHash', [hash]);
      assert.equal(svcTx.txHash, hash);

      // The tx sent at `/`: the stock client reads it as the reference's Tx with the same hash,
      // and its bytes are cairn's binary form of it (hash first).
      const fromSvc = await aztec.getTxByHash(ref.TxHash.fromString(svcHash));
      assert.ok(fromSvc instanceof ref.Tx);
      assert.equal(txHashOf(fromSvc), svcHash);
      assert.equal(await fromSvc.validateTxHash(), true);
      const bytes = Buffer.from(encodeTx({ txHash: BigInt(svcHash), ...prepared.tx }));
      assert.ok(fromSvc.toBuffer().equals(bytes), "the reference's bytes are cairn's encodeTx");
      const decoded = ref.Tx.fromBuffer(bytes);
      assert.equal(txHashOf(decoded), svcHash);
      assert.equal(await decoded.validateTxHash(), true, "the reference's hash of cairn's tx");
    } finally {
      // Back to instant: the pending txs are built at once.
      await dev('svcDev_setClock', ['instant']);
    }
    const pending = await svc('svc_getPendingTxs');
    for (const t of pending) await minedReceipt(t.txHash);
    // The pool moves a tx out of its pending set as it takes the block, a moment after the receipt.
    const deadline = Date.now() + 10_000;
    while ((await aztec.getPendingTxCount()) !== 0 && Date.now() < deadline) await sleep(50);
    assert.equal(await aztec.getPendingTxCount(), 0);
  });

  test('a tx sent at / (svc_sendTx, prepareTx) is found by its hash through the stock client', async () => {
    const prepared = await prepareTx(new NodeClient(node.publicUrl), { feePayer: accounts[2]! });
    assert.equal(await svc('svc_sendTx', [prepared.wire]), null);
    const receipt = await minedReceipt(prepared.hash);
    assert.equal(receipt.txHash.toString(), prepared.hash);
    assert.equal(receipt.executionResult, 'success');
    const effect = await aztec.getTxEffect(ref.TxHash.fromString(prepared.hash));
    assert.equal(effect.data.txHash.toString(), prepared.hash);
    // The reference hashes cairn's tx to the same hash.
    const refTx = ref.Tx.fromBuffer(Buffer.from(encodeTx({ txHash: BigInt(prepared.hash), ...prepared.tx })));
    assert.equal(await refTx.validateTxHash(), true);
  });

  test('isValidTx: a good tx is valid (private and public)', async () => {
    assert.deepEqual(await aztec.isValidTx(await buildTx()), { result: 'valid' });
    assert.deepEqual(
      await aztec.isValidTx(await buildTx({ publicCall: { owner: accounts[0]!, phase: 'app' } })),
      { result: 'valid' },
    );
  });

  /** Each refused tx: what is wrong, how to build it, the reason (the reference's text) and result. */
  const refusals: {
    name: string;
    build: () => Promise<any>;
    reason: () => string;
    result?: 'invalid' | 'skipped';
  }[] = [
    {
      name: 'wrong chain id',
      build: () => buildTx({ chainId: BigInt(info.l1ChainId) + 1n }),
      reason: () => k.errors.TX_ERROR_INCORRECT_L1_CHAIN_ID!,
    },
    {
      name: 'wrong rollup version',
      build: () => buildTx({ version: BigInt(info.rollupVersion) + 1n }),
      reason: () => k.errors.TX_ERROR_INCORRECT_ROLLUP_VERSION!,
    },
    {
      name: 'wrong vkTreeRoot',
      build: () => buildTx({ vkTreeRoot: 12345n }),
      reason: () => k.errors.TX_ERROR_INCORRECT_VK_TREE_ROOT!,
    },
    {
      name: 'wrong protocolContractsHash',
      build: () => buildTx({ protocolContractsHash: 12345n }),
      reason: () => k.errors.TX_ERROR_INCORRECT_PROTOCOL_CONTRACTS_HASH!,
    },
    {
      name: 'an anchor header not in the chain',
      build: () => buildTx({ anchor: k.factories.makeBlockHeader(7) }),
      reason: () => k.errors.TX_ERROR_BLOCK_HEADER!,
    },
    {
      name: 'expired',
      build: () => buildTx({ expirationTimestamp: 1000n }),
      reason: () => k.errors.TX_ERROR_INVALID_EXPIRATION_TIMESTAMP!,
    },
    {
      name: 'gas limit too low',
      build: () => buildTx({ gasLimits: { daGas: 10_000, l2Gas: 100_000 } }),
      reason: () => k.errors.TX_ERROR_INSUFFICIENT_GAS_LIMIT!,
    },
    {
      name: 'gas limit too high',
      build: () => buildTx({ gasLimits: { daGas: 10_000, l2Gas: ref.constants.MAX_PROCESSABLE_L2_GAS + 1 } }),
      reason: () => k.errors.TX_ERROR_GAS_LIMIT_TOO_HIGH!,
    },
    {
      name: 'insufficient fee per gas',
      build: () => buildTx({ maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n } }),
      reason: () => k.errors.TX_ERROR_INSUFFICIENT_FEE_PER_GAS!,
      result: 'skipped',
    },
    {
      name: 'unfunded fee payer',
      build: async () => buildTx({ feePayer: (await ref.AztecAddress.random()).toBigInt() }),
      reason: () => k.errors.TX_ERROR_INSUFFICIENT_FEE_PAYER_BALANCE!,
    },
    {
      name: 'duplicate nullifier in the tx',
      build: () => {
        const n = randomField();
        return buildTx({ nullifiers: [n, n] });
      },
      reason: () => k.errors.TX_ERROR_DUPLICATE_NULLIFIER_IN_TX!,
    },
    {
      name: 'a nullifier already in the tree (a mined tx replayed)',
      build: () => {
        assert.ok(minedPrivate, 'the private tx was mined by the first test');
        return buildTx({ nullifiers: [minedPrivate.nullifier] });
      },
      reason: () => k.errors.TX_ERROR_EXISTING_NULLIFIER!,
    },
    {
      name: 'a setup call not on the allow-list',
      build: () => buildTx({ publicCall: { owner: accounts[0]!, phase: 'setup' } }),
      reason: () => k.errors.TX_ERROR_SETUP_FUNCTION_NOT_ALLOWED!,
    },
  ];

  for (const r of refusals) {
    test(`isValidTx refuses ${r.name}, with the reference's reason text`, async () => {
      const tx = await r.build();
      const reason = r.reason();
      assert.equal(typeof reason, 'string', 'the reference has the text');
      assert.deepEqual(await aztec.isValidTx(tx), { result: r.result ?? 'invalid', reason: [reason] });
    });
  }

  test('sendTx of a refused tx rejects in the stock client with "Invalid tx" and the reason, and changes nothing', async () => {
    const before = await aztec.getPendingTxCount();
    const blockBefore = await aztec.getBlockNumber();
    for (const r of [refusals[0]!, refusals[9]!, refusals[12]!]) {
      const tx = await r.build();
      const reason = r.reason();
      await assert.rejects(aztec.sendTx(tx), (err: Error) => {
        assert.match(err.message, /Invalid tx/);
        assert.ok(err.message.includes(reason), `"${err.message}" names "${reason}"`);
        return true;
      });
      assert.equal(await aztec.getPendingTxCount(), before);
      assert.equal((await aztec.getTxReceipt(tx.getTxHash())).status, 'dropped');
      assert.equal(await aztec.getTxByHash(tx.getTxHash()), undefined);
    }
    assert.equal(await aztec.getBlockNumber(), blockBefore, 'no block was built for a refused tx');
  });

  test('a malformed tx body at /aztec is a -32701 error with HTTP 400, and the node keeps serving', async () => {
    const good = JSON.parse(k.jsonStringify(await buildTx()));
    const before = await aztec.getPendingTxCount();
    const send = async (tx: unknown, method = 'node_sendTx') => {
      const res = await post(aztecUrl, { jsonrpc: '2.0', id: 3, method, params: [tx] });
      const body = JSON.parse(res.text);
      return { status: res.status, body };
    };
    const dataBytes = Buffer.from(good.data, 'base64');
    const shortProof = Buffer.alloc(4 + 10 * 32);
    shortProof.writeUInt32BE(10, 0);
    const cases: [string, unknown, RegExp][] = [
      ['bad base64 in data', { ...good, data: '!!not base64!!' }, /data must be standard padded base64/],
      [
        'truncated data',
        { ...good, data: dataBytes.subarray(0, 100).toString('base64') },
        /kernel tail public inputs: .*needs 32 bytes/,
      ],
      [
        'data with bytes left over',
        { ...good, data: Buffer.concat([dataBytes, Buffer.alloc(3)]).toString('base64') },
        /kernel tail public inputs: the input has 3 bytes after its end/,
      ],
      [
        'a proof of the wrong length',
        { ...good, chonkProof: shortProof.toString('base64') },
        /chonkProof\.length is 10, not 1935/,
      ],
      ['no proof', { ...good, chonkProof: undefined }, /tx\.chonkProof/],
    ];
    for (const [what, tx, message] of cases) {
      for (const method of ['node_sendTx', 'node_isValidTx']) {
        const { status, body } = await send(tx, method);
        assert.equal(status, 400, `${what} (${method}): HTTP ${status} ${JSON.stringify(body)}`);
        assert.equal(body.id, 3);
        assert.equal(body.error?.code, -32701, `${what} (${method}): ${JSON.stringify(body)}`);
        assert.match(body.error.message, message, `${what} (${method}): a clear message`);
      }
    }
    // The node keeps serving, and nothing was added.
    assert.equal(await aztec.getPendingTxCount(), before);
    assert.equal(await aztec.isReady(), true);
    assert.deepEqual(await aztec.isValidTx(await buildTx()), { result: 'valid' });
  });
});
