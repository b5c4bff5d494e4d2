import type { z } from 'zod';
import { checkJsonLimits } from '../json/json-limits';
import { CLOSE_CODES, MAX_BATCH } from './worker-protocol';

/**
 * Containers a frame adds around a payload: the batch array, the message object and its `message`/`out`
 * object. A payload may nest `maxDepth` deep (`yukta.execution.max-depth`); the frame that carries it three more.
 */
export const FRAME_DEPTH_OVERHEAD = 3;

/** A frame refused: the close code to drop the connection with, and why (for the log). */
export interface FrameRefusal {
  ok: false;
  code: (typeof CLOSE_CODES)['malformed' | 'policy' | 'tooBig'];
  reason: string;
}

export type DecodedFrame<T> = { ok: true; messages: T[] } | FrameRefusal;

/**
 * Reads one WebSocket text frame: JSON, an array of 1…1024 messages, nested no deeper than the limit, each
 * message valid for `schema`. Anything else is refused with the close code for it; the byte limit of a
 * frame is the transport's (ws `maxPayload`), so an oversized frame never reaches here.
 */
export function decodeFrame<T>(text: string, schema: z.ZodType<T>, maxDepth: number): DecodedFrame<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, code: CLOSE_CODES.malformed, reason: `not JSON (${(error as Error).message})` };
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_BATCH)
    return { ok: false, code: CLOSE_CODES.malformed, reason: `a frame must be a JSON array of 1 to ${MAX_BATCH} messages` };
  if (checkJsonLimits(raw, { maxDepth: maxDepth + FRAME_DEPTH_OVERHEAD }) !== null)
    return { ok: false, code: CLOSE_CODES.policy, reason: `JSON nested deeper than ${maxDepth} (yukta.execution.max-depth)` };
  const messages: T[] = [];
  for (let i = 0; i < raw.length; i++) {
    const parsed = schema.safeParse(raw[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const at = issue.path.length ? ` at ${issue.path.join('.')}` : '';
      return { ok: false, code: CLOSE_CODES.malformed, reason: `message ${i}${at}: ${issue.message}` };
    }
    messages.push(parsed.data);
  }
  return { ok: true, messages };
}

/** One frame of messages. */
export function encodeFrame(messages: readonly unknown[]): string {
  return JSON.stringify(messages);
}
