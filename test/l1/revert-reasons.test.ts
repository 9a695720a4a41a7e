// L1 reverts in words: viem's errors for reverted rollup calls, decoded with the rollup's ABI,
// become one line that names the cause; the expected ones (a slot passed, a window closed) are
// marked so.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Abi,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
} from 'viem';
import { artifacts } from '../../src/l1/generated/artifacts.js';
import { describeL1Revert, l1RevertOf } from '../../src/l1/revert-reasons.js';
import { errorSummary } from '../../src/node/logger.js';

const abi = artifacts.Rollup.abi as Abi;
const ROLLUP = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';

/** The error viem throws for `functionName` reverting with `errorName(args)`. */
function reverted(functionName: string, errorName: string, args: readonly unknown[]): Error {
  const data = encodeErrorResult({ abi, errorName, args } as never);
  const cause = new ContractFunctionRevertedError({ abi, data, functionName });
  return new ContractFunctionExecutionError(cause, { abi, functionName, args: [], contractAddress: ROLLUP });
}

describe('L1 reverts in words', () => {
  test('a passed slot: expected, in one line with the numbers', () => {
    const err = reverted('propose', 'Rollup__InvalidSlot', [12n, 11n]);
    assert.ok(err.message.split('\n').length > 5, 'viem’s own message spans many lines');
    const revert = l1RevertOf(err)!;
    assert.equal(revert.errorName, 'Rollup__InvalidSlot');
    assert.equal(revert.expected, true);
    assert.equal(
      describeL1Revert(revert),
      'L1 rejected propose: the slot passed: L1 is in slot 12, the proposal was for slot 11 (Rollup__InvalidSlot(12, 11))',
    );
    assert.equal(errorSummary(err), describeL1Revert(revert));
  });

  test('a closed proof window and a stale checkpoint number are expected', () => {
    const window = l1RevertOf(reverted('submitEpochRootProof', 'Rollup__ProofWindowClosed', [2n, 4n]))!;
    assert.equal(window.expected, true);
    assert.match(
      describeL1Revert(window),
      /^L1 rejected submitEpochRootProof: the proof window of epoch 2 closed/,
    );
    const stale = l1RevertOf(reverted('propose', 'Rollup__InvalidCheckpointNumber', [4n, 5n]))!;
    assert.equal(stale.expected, true);
    assert.match(stale.reason, /L1 expects checkpoint 4, not 5/);
  });

  test('other reverts are not expected, and still one line with their name and arguments', () => {
    const err = reverted('propose', 'Rollup__InvalidInHash', [
      `0x${'11'.repeat(32)}`,
      `0x${'22'.repeat(32)}`,
    ]);
    const revert = l1RevertOf(err)!;
    assert.equal(revert.expected, false);
    assert.equal(errorSummary(err).includes('\n'), false);
    assert.match(errorSummary(err), /^L1 rejected propose: Rollup__InvalidInHash\(0x1111/);
  });

  test('an error that is not a revert is not one', () => {
    assert.equal(l1RevertOf(new Error('boom')), undefined);
    const http = new HttpRequestError({
      url: 'http://127.0.0.1:8545',
      body: { method: 'eth_call' },
      details: 'fetch failed',
    });
    assert.equal(l1RevertOf(http), undefined);
    assert.equal(errorSummary(http).includes('\n'), false, errorSummary(http));
  });
});
