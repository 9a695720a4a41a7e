// A validator client for tests that run a sequencer without a network: only the node's own
// validators sign, with a real pool, committee view and offense store.
import pino from 'pino';
import type { ChainReader, ProposedBlocks } from '../../src/archiver/chain-reader.js';
import type { L1RollupConstants } from '../../src/core/time.js';
import type { RollupClient } from '../../src/l1/rollup-client.js';
import type { StoreEnvironment } from '../../src/store/environment.js';
import { AttestationPool } from '../../src/validators/attestation-pool.js';
import { CommitteeView } from '../../src/validators/committee.js';
import type { Validator } from '../../src/validators/keystore.js';
import { SigningRecord } from '../../src/validators/signing-record.js';
import { EquivocationWatcher, OffenseStore } from '../../src/validators/slashing.js';
import { RECENT_SLOTS, ValidatorClient } from '../../src/validators/validator-client.js';
import type { WorldState } from '../../src/world-state/world-state.js';

export function localConsensus(o: {
  rollup: RollupClient;
  chainId: number;
  rollupAddress: `0x${string}`;
  chain: ChainReader;
  proposedBlocks: ProposedBlocks;
  worldState: WorldState;
  constants: L1RollupConstants;
  env: StoreEnvironment;
  validators: () => readonly Validator[];
}) {
  const committee = new CommitteeView(o.rollup);
  const pool = new AttestationPool();
  const client = new ValidatorClient({
    domain: { chainId: o.chainId, rollup: o.rollupAddress },
    committee,
    pool,
    equivocation: new EquivocationWatcher({ duplicateProposalPenalty: 1n, duplicateAttestationPenalty: 1n }),
    offenses: new OffenseStore(o.env, { roundSize: 8, epochDuration: o.constants.epochDuration }),
    signingRecord: new SigningRecord(o.env, RECENT_SLOTS),
    chain: o.chain,
    proposedBlocks: o.proposedBlocks,
    worldState: o.worldState,
    rollup: o.rollup,
    constants: o.constants,
    validators: o.validators,
    requestPass: () => {},
    logger: pino({ level: 'silent' }),
  });
  return { committee, pool, client };
}
