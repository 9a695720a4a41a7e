// Result shapes shared by several topics' methods.
import { z } from 'zod';

/** The result of a method that returns nothing: `null` on the wire. */
export const voidResult = z
  .codec(z.null(), z.void(), { decode: () => undefined, encode: () => null })
  .describe('No value (null)');
