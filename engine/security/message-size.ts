import { PayloadTooLargeError } from '../engine-errors';
import { BadInputError } from '../runtime/errors';

/** A message or start payload over `yukta.execution.max-message-bytes` (SEC-03); never retried. */
export class MessageTooLargeError extends BadInputError {
  constructor(what: string, max: number) {
    super(`${what} is larger than ${max} bytes as JSON (yukta.execution.max-message-bytes)`, 'MESSAGE_TOO_LARGE');
  }
}

/**
 * The JSON size of a value in UTF-8 bytes (within a few bytes: separators are counted generously, escapes
 * not), counted without building the JSON text and abandoned once it is
 * past `limit` (so a huge value costs no more than the limit to refuse). Returns a number above `limit`
 * when it stopped early.
 */
export function jsonSize(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length) {
    if (total > limit) return total;
    const v = stack.pop();
    if (v === null || v === undefined) total += 4;
    else if (typeof v === 'string') total += Buffer.byteLength(v, 'utf8') + 2;
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') total += String(v).length;
    else if (typeof v === 'object') {
      if (seen.has(v)) continue; // JSON would refuse a cycle; counting it once is enough to bound the walk
      seen.add(v);
      if (Array.isArray(v)) {
        total += 2 + v.length;
        if (total > limit) return total;
        for (const item of v) stack.push(item);
      } else {
        for (const [k, item] of Object.entries(v)) {
          total += Buffer.byteLength(k, 'utf8') + 4;
          stack.push(item);
        }
        total += 2;
      }
    }
  }
  return total;
}

/** Throws MessageTooLargeError when `value` is over `max` bytes as JSON. */
export function checkMessageSize(what: string, value: unknown, max: number): void {
  if (jsonSize(value, max) > max) throw new MessageTooLargeError(what, max);
}

/** Refuses a start payload over `yukta.execution.max-message-bytes` (SEC-03) before anything runs: 413 for callers. */
export function checkStartPayload(payload: unknown, max: number | undefined): void {
  if (max !== undefined && jsonSize(payload, max) > max) {
    throw new PayloadTooLargeError(`the start payload is larger than ${max} bytes as JSON (yukta.execution.max-message-bytes)`, { path: 'payload' });
  }
}
