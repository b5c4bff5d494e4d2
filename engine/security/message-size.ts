import { PayloadTooLargeError } from '../engine-errors';
import { checkJsonLimits, describeJsonProblem, jsonBytes, type JsonLimits } from '../../shared/json/json-limits';
import { BadInputError } from '../runtime/errors';
import type { SecuritySettings } from './security-settings';

/** A message or start payload over `yukta.execution.max-message-bytes` (SEC-03); never retried. */
export class MessageTooLargeError extends BadInputError {
  constructor(what: string, max: number) {
    super(`${what} is larger than ${max} bytes as JSON (yukta.execution.max-message-bytes)`, 'MESSAGE_TOO_LARGE');
  }
}

/** A message that nests deeper than `yukta.execution.max-depth` (SEC-03); never retried. */
export class MessageTooDeepError extends BadInputError {
  constructor(what: string, max: number) {
    super(`${what} nests deeper than ${max} levels (yukta.execution.max-depth)`, 'MESSAGE_TOO_DEEP');
  }
}

/** The limits a message is held to (the engine's security settings). */
export type MessageLimits = Pick<SecuritySettings, 'maxMessageBytes' | 'maxDepth'>;

function nodeByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The JSON size of a value in UTF-8 bytes (within a few bytes: separators are counted generously, escapes
 * not), counted without building the JSON text and abandoned once it is past `limit` (so a huge value
 * costs no more than the limit to refuse). Returns a number above `limit` when it stopped early.
 */
export function jsonSize(value: unknown, limit: number): number {
  return jsonBytes(value, limit, nodeByteLength);
}

/** The JSON limits of messages, built once per node (the check runs for every output). */
export function messageJsonLimits(limits: MessageLimits, at?: string): JsonLimits {
  return { maxDepth: limits.maxDepth, maxBytes: limits.maxMessageBytes, stringBytes: nodeByteLength, ...(at === undefined ? {} : { at }) };
}

/**
 * Checks one output of a node where it leaves the plugin (the node wrapper): over a limit it throws the
 * typed error, which fails that message like a failed attempt (the node's failure policy applies).
 */
export function checkNodeOutput(nodeId: string, payload: unknown, limits: JsonLimits): void {
  const problem = checkJsonLimits(payload, limits);
  if (problem === null) return;
  const what = `node "${nodeId}" output`;
  throw problem.kind === 'bytes' ? new MessageTooLargeError(what, problem.limit) : new MessageTooDeepError(what, limits.maxDepth);
}

/**
 * Refuses a start payload over `yukta.execution.max-message-bytes` (413) or deeper than
 * `yukta.execution.max-depth` (400) before anything runs, naming the path under `payload`.
 */
export function checkStartPayload(payload: unknown, maxBytes: number | undefined, maxDepth?: number): void {
  const problem = checkJsonLimits(
    payload,
    messageJsonLimits({ maxMessageBytes: maxBytes ?? Number.POSITIVE_INFINITY, maxDepth: maxDepth ?? Number.POSITIVE_INFINITY }, 'payload'),
  );
  if (problem === null) return;
  if (problem.kind === 'bytes')
    throw new PayloadTooLargeError(`the start payload is larger than ${problem.limit} bytes as JSON (yukta.execution.max-message-bytes)`, { path: 'payload' });
  throw new BadInputError(describeJsonProblem(problem), 'BAD_INPUT', problem.path);
}
