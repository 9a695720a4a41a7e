// The vector groups, one output file each (test/avm/vectors/<id>.json).
import { avmTestGroup } from './group-avm-test.mjs';
import { bytecodeGroup } from './group-bytecode.mjs';
import { gadgetsGroup } from './group-gadgets.mjs';
import { nestedGroup } from './group-nested.mjs';
import { protocolGroup } from './group-protocol.mjs';
import { tokenGroup } from './group-token.mjs';

export const GROUPS = [
  { id: 'token', generate: tokenGroup },
  { id: 'avm-test', generate: avmTestGroup },
  { id: 'avm-gadgets', generate: gadgetsGroup },
  { id: 'nested-calls', generate: nestedGroup },
  { id: 'custom-bytecode', generate: bytecodeGroup },
  { id: 'protocol-contracts', generate: protocolGroup },
];
