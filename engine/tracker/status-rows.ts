import type { ErrorInfo, NodeCounts, StudioEvent } from '../../shared/events/events';
import { Status } from '../../shared/status/status';

export type NodeEvent = Extract<StudioEvent, { type: 'NODE_STATUS' }>;

/** Statuses as small numbers (a row holds numbers only). */
const STATUSES: readonly Status[] = Status.options;
const CODE = Object.fromEntries(STATUSES.map((s, i) => [s, i])) as { readonly [K in Status]: number };

export function statusCode(status: Status): number {
  return CODE[status];
}

export function statusOf(code: number): Status {
  return STATUSES[code]!;
}

/** Which optional parts a NODE_STATUS event had (bits of the row's mask). */
const FAILED = 1;
const RETRIED = 2;
const DROPPED = 4;
const BUFFER = 8;
const ATTEMPT = 16;
/** The event had `held` / `error`: their values are kept beside the rows (rare). */
export const HELD = 32;
export const ERROR = 64;

/**
 * What a NODE_STATUS event says beyond its run, node, seq and time, as numbers (OBS-01 compact records):
 * status, the five counts, a mask of the optional parts present, buffer fill and size, attempt. Written at
 * `offset` of a number array; the tracker keeps its runs' state and snapshots this way, so a finished run
 * holds a few arrays of numbers instead of an object per event, node and count.
 */
export const EVENT_FIELDS = 10;

export function writeEvent(row: number[], offset: number, event: NodeEvent, status: Status = event.status): void {
  const c = event.counts;
  let mask = 0;
  if (c.failed !== undefined) mask |= FAILED;
  if (c.retried !== undefined) mask |= RETRIED;
  if (c.dropped !== undefined) mask |= DROPPED;
  if (event.buffer !== undefined) mask |= BUFFER;
  if (event.attempt !== undefined) mask |= ATTEMPT;
  if (event.held !== undefined) mask |= HELD;
  if (event.error !== undefined) mask |= ERROR;
  row[offset] = statusCode(status);
  row[offset + 1] = c.received;
  row[offset + 2] = c.emitted;
  row[offset + 3] = c.failed ?? 0;
  row[offset + 4] = c.retried ?? 0;
  row[offset + 5] = c.dropped ?? 0;
  row[offset + 6] = mask;
  row[offset + 7] = event.buffer?.used ?? 0;
  row[offset + 8] = event.buffer?.size ?? 0;
  row[offset + 9] = event.attempt ?? 0;
}

/** The counts at `offset` (as `writeEvent` wrote them), with exactly the optional keys the event had. */
export function countsAt(row: readonly number[], offset: number): NodeCounts {
  const mask = row[offset + 6]!;
  const counts: NodeCounts = { received: row[offset + 1]!, emitted: row[offset + 2]! };
  if (mask & FAILED) counts.failed = row[offset + 3]!;
  if (mask & RETRIED) counts.retried = row[offset + 4]!;
  if (mask & DROPPED) counts.dropped = row[offset + 5]!;
  return counts;
}

/** The event's values kept beside the rows. */
export interface EventExtras {
  error?: ErrorInfo | undefined;
  held?: string | null | undefined;
}

export function extrasOf(event: NodeEvent): EventExtras | null {
  if (event.error === undefined && event.held === undefined) return null;
  return { error: event.error, held: event.held };
}

/** Rebuilds the NODE_STATUS event `writeEvent` encoded (same keys, in the order the engine makes them). */
export function readEvent(row: readonly number[], offset: number, head: { executionId: string; nodeId: string; seq: number; at: number }, extras: EventExtras | null | undefined): NodeEvent {
  const mask = row[offset + 6]!;
  const event = { type: 'NODE_STATUS', executionId: head.executionId, at: head.at, nodeId: head.nodeId, status: statusOf(row[offset]!), counts: countsAt(row, offset) } as NodeEvent;
  if (mask & ERROR) event.error = extras?.error;
  if (mask & HELD) event.held = extras?.held;
  if (mask & BUFFER) event.buffer = { used: row[offset + 7]!, size: row[offset + 8]! };
  if (mask & ATTEMPT) event.attempt = row[offset + 9]!;
  event.seq = head.seq;
  return event;
}
