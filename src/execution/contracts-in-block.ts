// Published contracts as public execution sees them while a block is built: the node's contract
// index (blocks already stored) plus what the block's earlier txs published, plus what the running
// tx publishes itself — so a contract can be deployed and called in the same block, or deployed and
// initialized in one tx. As in the contract index, the first publication of a class or an address
// counts and a malformed one is ignored.
import type { ContractClassLog, PrivateLog } from '../core/block.js';
import { parseClassPublished, parseInstancePublished } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import type { PublicContracts } from './avm-calls.js';

type PublishedInstance = NonNullable<ReturnType<PublicContracts['instance']>>;

export class ContractsInBlock implements PublicContracts {
  private readonly instances = new Map<Fr, PublishedInstance>();
  private readonly classes = new Map<Fr, Uint8Array>();

  constructor(private readonly below: PublicContracts) {}

  instance(address: Fr): PublishedInstance | undefined {
    return this.instances.get(address) ?? this.below.instance(address);
  }

  bytecode(classId: Fr): Uint8Array | undefined {
    return this.classes.get(classId) ?? this.below.bytecode(classId);
  }

  revertMessage(revertData: readonly Fr[]): string | undefined {
    return this.below.revertMessage?.(revertData);
  }

  /** Takes in the publications among these logs (a tx's effect, or part of a running tx). */
  add(logs: { contractClassLogs: readonly ContractClassLog[]; privateLogs: readonly PrivateLog[] }): void {
    for (const log of logs.contractClassLogs) {
      const parsed = parseClassPublished(log);
      if (parsed?.ok && this.bytecode(parsed.value.id) === undefined) {
        this.classes.set(parsed.value.id, parsed.value.packedBytecode);
      }
    }
    for (const log of logs.privateLogs) {
      const parsed = parseInstancePublished(log);
      if (parsed?.ok && this.instance(parsed.value.address) === undefined) {
        const i = parsed.value;
        this.instances.set(i.address, {
          deployer: i.deployer,
          originalClassId: i.originalContractClassId,
          initializationHash: i.initializationHash,
        });
      }
    }
  }
}
