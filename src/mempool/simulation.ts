// svc_simulatePublicCalls: a tx run on a fork of the latest state with the next block's globals,
// with the client's public storage and contract instance overrides applied to the fork only.
import type { TxEffect } from '../core/block.js';
import type { GlobalVariables } from '../core/block-header.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../core/constants.js';
import { siloNullifier } from '../core/contracts.js';
import { txRejected } from '../core/errors.js';
import type { Fr } from '../core/field.js';
import { slotStart } from '../core/time.js';
import type { Tx } from '../core/tx.js';
import type { PublicContracts } from '../execution/avm-calls.js';
import {
  type ExecutionOptions,
  executeTx,
  TxExecutionError,
  type TxExecutionResult,
} from '../execution/executor.js';
import { publicDataLeafSlot } from '../execution/public-storage.js';
import { TreeId, type WorldStateFork } from '../world-state/types.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import type { MinFees } from './min-fees.js';
import type { NetworkRules, ValidationContexts } from './validation-context.js';
import type { TxValidator } from './validator.js';

export interface SimulationOverrides {
  /** Public storage values to set on the fork before simulating. */
  publicStorage?: { contractAddress: Fr; slot: Fr; value: Fr }[];
  /**
   * Contract instances to simulate with, by address: public calls to the address run the
   * bytecode of `currentContractClassId` (a class the node knows), as a deployed contract.
   */
  contracts?: Map<Fr, { deployer: Fr; currentContractClassId: Fr; initializationHash: Fr }>;
}

export interface PublicSimulationOutput {
  revertReason?: string;
  /** The reverting public call's revert data (an error selector and its fields, for example). */
  revertData?: Fr[];
  globalVariables: GlobalVariables;
  txEffect: TxEffect;
  publicReturnValues: TxExecutionResult['publicReturnValues'];
  gasUsed: TxExecutionResult['gasUsed'];
  debugLogs: never[];
}

/**
 * What a simulated tx is checked for before it runs: 'all' the rules a sent tx meets (the seeds'
 * svc_simulatePublicCalls: a tx that could not be included is an error), or only its size and
 * structure ('structure': the reference's node_simulatePublicCalls runs any well-formed tx, and a
 * wallet's read-only calls come without expiration, proof or funds).
 */
export type SimulationChecks = 'all' | 'structure';

export class TxSimulator {
  constructor(
    private readonly o: Pick<NetworkRules, 'constants' | 'chainId' | 'rollupVersion'> & {
      worldState: ReadableWorldState;
      fees: MinFees;
      contexts: ValidationContexts;
      validator: TxValidator;
      /** The network's execution rules (class update delay, Fee Juice portal). */
      execution: ExecutionOptions | undefined;
    },
  ) {}

  /**
   * The execution options with instance overrides in the contract source, each overridden address
   * deployed on the fork (its deployment nullifier inserted) so that the AVM runs it.
   */
  #withContractOverrides(
    fork: WorldStateFork,
    overrides: SimulationOverrides['contracts'],
  ): ExecutionOptions {
    const base = this.o.execution ?? {};
    if (overrides === undefined || overrides.size === 0) return base;
    const missing = [...overrides.keys()]
      .map((address) => siloNullifier(PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry, address))
      .filter((n) => fork.findLeaf(TreeId.NULLIFIER, n) === undefined);
    if (missing.length > 0) fork.insertNullifiers(missing);
    const inner = base.contracts;
    const contracts: PublicContracts = {
      instance(address) {
        const o = overrides.get(address);
        if (o === undefined) return inner?.instance(address);
        return {
          deployer: o.deployer,
          originalClassId: o.currentContractClassId,
          initializationHash: o.initializationHash,
        };
      },
      bytecode: (classId) => inner?.bytecode(classId),
      revertMessage: (data) => inner?.revertMessage?.(data),
    };
    return { ...base, contracts };
  }

  /**
   * Runs the tx on a fork of the latest state with the next block's globals (zero coinbase and
   * fee recipient); overrides touch only the fork. A tx that cannot be included is an error.
   */
  async simulatePublicCalls(
    tx: Tx,
    skipFeeEnforcement: boolean,
    overrides: SimulationOverrides,
    checks: SimulationChecks = 'all',
  ): Promise<PublicSimulationOutput> {
    const context = await this.o.contexts.latest(false);
    const { fees, slot } = await this.o.fees.reading();
    const fork = this.o.worldState.fork();
    const writes = (overrides.publicStorage ?? []).map((w) => ({
      slot: publicDataLeafSlot(w.contractAddress, w.slot),
      value: w.value,
    }));
    if (writes.length > 0) fork.writePublicData(writes);
    const execution = this.#withContractOverrides(fork, overrides.contracts);
    // The checks before execution see the overrides too (the fee payer's balance is one).
    const validation = this.o.validator.validate(
      tx,
      undefined,
      { ...context, state: fork, nextBlockNumber: fork.blockNumber + 1 },
      { isSimulation: true, skipFeeEnforcement, structureOnly: checks === 'structure' },
    );
    if (validation.result === 'invalid') throw txRejected(validation.reason);
    const globalVariables: GlobalVariables = {
      chainId: BigInt(this.o.chainId),
      version: BigInt(this.o.rollupVersion),
      blockNumber: fork.blockNumber + 1,
      slotNumber: slot,
      timestamp: slotStart(slot, this.o.constants),
      coinbase: `0x${'0'.repeat(40)}`,
      feeRecipient: 0n,
      gasFees: skipFeeEnforcement ? { feePerDaGas: 0n, feePerL2Gas: 0n } : fees,
    };
    try {
      const result = executeTx(fork, tx, validation.hash!, globalVariables, {
        ...execution,
        skipFeeEnforcement,
      });
      return {
        ...(result.revertReason !== undefined ? { revertReason: result.revertReason } : {}),
        ...(result.revertData !== undefined ? { revertData: result.revertData } : {}),
        globalVariables,
        txEffect: result.effect,
        publicReturnValues: result.publicReturnValues,
        gasUsed: result.gasUsed,
        debugLogs: [],
      };
    } catch (err) {
      if (err instanceof TxExecutionError) throw txRejected([err.reason]);
      throw err;
    }
  }
}
