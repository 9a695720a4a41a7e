// fast-check arbitraries shared by property tests.
import fc from 'fast-check';
import { PRIVATE_LOG_SIZE_IN_FIELDS, type PrivateLog } from '../../src/core/block.js';

/** A private log: its full PRIVATE_LOG_SIZE_IN_FIELDS fields drawn from `field`, any emitted length. */
export const privateLogArb = (field: fc.Arbitrary<bigint>): fc.Arbitrary<PrivateLog> =>
  fc.record({
    fields: fc.array(field, { minLength: PRIVATE_LOG_SIZE_IN_FIELDS, maxLength: PRIVATE_LOG_SIZE_IN_FIELDS }),
    emittedLength: fc.integer({ min: 0, max: PRIVATE_LOG_SIZE_IN_FIELDS }),
  });
