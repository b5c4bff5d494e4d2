import { randomUUID } from 'node:crypto';

/**
 * A new execution id (a UUID), as one flat string. Node builds `randomUUID()` by concatenating its hex
 * pieces, a tree of about fifteen strings (~490 bytes) that every map keyed by the id keeps alive as long
 * as the run is remembered; `toLowerCase` (the UUID is lower case already) returns it flattened (~60 bytes).
 */
export function newExecutionId(): string {
  return randomUUID().toLowerCase();
}
