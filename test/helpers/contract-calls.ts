// Helpers for contract tests on an anvil that mines only on request: read, send (mined in a block
// with a chosen timestamp), simulate, expect a revert by custom error name, and decode events.
// Shared by test/l1/contracts.process.test.ts and test/l1/slasher.process.test.ts so both drive anvil the same way.
import assert from 'node:assert/strict';
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hash,
  type Log,
  type PrivateKeyAccount,
  type PublicClient,
  parseEventLogs,
  type TestClient,
  type TransactionReceipt,
  type WalletClient,
} from 'viem';

/** A contract call, as the tests build it: sent, simulated or expected to revert. */
export interface Call {
  account: PrivateKeyAccount;
  address: Address;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}

export interface ContractClients {
  publicClient: PublicClient;
  testClient: TestClient;
  walletClient: WalletClient;
}

/** The revert of a failed call: its custom error's name (undefined if not a decoded revert) and arguments. */
export function revertOf(err: unknown): {
  errorName: string | undefined;
  args: readonly unknown[];
  message: string;
} {
  assert.ok(err instanceof BaseError, `not a viem error: ${String(err)}`);
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
    return { errorName: reverted.data.errorName, args: reverted.data.args ?? [], message: err.message };
  }
  return { errorName: undefined, args: [], message: err.message };
}

/** The logs of `receipt` that decode as `eventName` of `abi`, with their arguments. */
export function events(receipt: TransactionReceipt, abi: Abi, eventName: string): (Log & { args: any })[] {
  return parseEventLogs({ abi, logs: receipt.logs, eventName }) as (Log & { args: any })[];
}

/**
 * The helpers bound to a test file's clients. The clients are created in the file's before() hook,
 * after the helpers are (at module load), so they are taken through `clients()` at each call.
 * `gas` is the fixed gas limit of every sent call (so no gas estimate is made).
 */
export function contractCalls(clients: () => ContractClients, options: { gas: bigint }) {
  async function read(
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[] = [],
  ): Promise<any> {
    return clients().publicClient.readContract({ address, abi, functionName, args });
  }

  async function latestTimestamp(): Promise<bigint> {
    return (await clients().publicClient.getBlock({ blockTag: 'latest' })).timestamp;
  }

  /** Sets the next block's timestamp to `ts` (default: latest + 1), so block times are deterministic. */
  async function setNextTimestamp(ts?: bigint): Promise<void> {
    await clients().testClient.setNextBlockTimestamp({ timestamp: ts ?? (await latestTimestamp()) + 1n });
  }

  /** Mines the pending transaction `hash` in a block with timestamp `ts` (default: latest + 1); asserts it succeeded. */
  async function mineTx(hash: Hash, what: string, ts?: bigint): Promise<TransactionReceipt> {
    await setNextTimestamp(ts);
    await clients().testClient.mine({ blocks: 1 });
    const receipt = await clients().publicClient.getTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success', `${what} failed`);
    return receipt;
  }

  /** Sends a call and mines it in a block with timestamp `ts` (default: latest + 1); asserts it succeeded. */
  async function send(call: Call, ts?: bigint): Promise<TransactionReceipt> {
    const { walletClient } = clients();
    const hash = await walletClient.writeContract({ ...call, chain: walletClient.chain, gas: options.gas });
    return mineTx(hash, call.functionName, ts);
  }

  /** The return value of a call simulated in the next block (timestamp `ts`, default: latest + 1). */
  async function simulate(call: Call, ts?: bigint): Promise<any> {
    await setNextTimestamp(ts);
    const { result } = await clients().publicClient.simulateContract({ ...call, blockTag: 'pending' });
    return result;
  }

  /**
   * Asserts that the call, simulated in the next block (timestamp `ts`, default: latest + 1), reverts
   * with the custom error `errorName`; returns the error's args.
   */
  async function expectRevert(call: Call, errorName: string, ts?: bigint): Promise<readonly unknown[]> {
    try {
      await simulate(call, ts);
    } catch (err) {
      const r = revertOf(err);
      assert.equal(r.errorName, errorName, r.message);
      return r.args;
    }
    assert.fail(`${call.functionName} did not revert (expected ${errorName})`);
  }

  return { read, latestTimestamp, mineTx, send, simulate, expectRevert };
}
