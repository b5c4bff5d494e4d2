import type { ErrorInfo, NodeCounts, StudioEvent } from '../../shared/events/events';
import { Status } from '../../shared/status/status';

export type NodeEvent = Extract<StudioEvent, { type: 'NODE_STATUS' }>;

/**
 * The numbers of compact records. A typed array of this size keeps its elements outside the JS heap, so a
 * kept run costs the scavenger two small objects to copy instead of its kilobytes of numbers.
 */
export type Rows = Float64Array;

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
const HELD = 32;
const ERROR = 64;
/** Status, mask and attempt share one number: status + 16 × mask + 2048 × attempt (attempts stay ≤ 100). */
const MASK_UNIT = 16;
const ATTEMPT_UNIT = 2048;

/**
 * What a NODE_STATUS event says beyond its run, node, seq and time, as numbers (OBS-01 compact records):
 * status, mask of the optional parts present and attempt (packed), received, emitted, buffer fill and size.
 * Written at `offset` of a number array; the rare parts (failed, retried and dropped counts, held, error)
 * are kept beside the rows (`EventExtras`). The tracker keeps its runs' state and snapshots this way, so a
 * finished run holds a few arrays of numbers instead of an object per event, node and count.
 */
export const EVENT_FIELDS = 5;

/** The event's rare parts, kept beside the rows when it has any. */
export interface EventExtras {
  failed?: number | undefined;
  retried?: number | undefined;
  dropped?: number | undefined;
  error?: ErrorInfo | undefined;
  held?: string | null | undefined;
}

/** Writes the event's common parts at `offset` (its status may be given: a node's advanced status); returns its rare parts, or null. */
export function writeEvent(row: Rows, offset: number, event: NodeEvent, status: Status = event.status): EventExtras | null {
  const c = event.counts;
  let mask = 0;
  if (c.failed !== undefined) mask |= FAILED;
  if (c.retried !== undefined) mask |= RETRIED;
  if (c.dropped !== undefined) mask |= DROPPED;
  if (event.buffer !== undefined) mask |= BUFFER;
  if (event.attempt !== undefined) mask |= ATTEMPT;
  if (event.held !== undefined) mask |= HELD;
  if (event.error !== undefined) mask |= ERROR;
  row[offset] = statusCode(status) + MASK_UNIT * mask + ATTEMPT_UNIT * (event.attempt ?? 0);
  row[offset + 1] = c.received;
  row[offset + 2] = c.emitted;
  row[offset + 3] = event.buffer?.used ?? 0;
  row[offset + 4] = event.buffer?.size ?? 0;
  return mask & (FAILED | RETRIED | DROPPED | HELD | ERROR)
    ? { failed: c.failed, retried: c.retried, dropped: c.dropped, error: event.error, held: event.held }
    : null;
}

/** The status written at `offset`. */
export function statusAt(row: Rows, offset: number): Status {
  return statusOf(row[offset]! % MASK_UNIT);
}

/** Writes counts only (a restored node), with their rare ones as extras. */
export function writeCounts(row: Rows, offset: number, status: Status, counts: NodeCounts): EventExtras | null {
  return writeEvent(row, offset, { type: 'NODE_STATUS', seq: 0, executionId: '', at: 0, nodeId: '', status, counts }, status);
}

/** The counts at `offset` (as `writeEvent` wrote them), with exactly the optional keys the event had. */
export function countsAt(row: Rows, offset: number, extras: EventExtras | null | undefined): NodeCounts {
  const mask = maskAt(row, offset);
  const counts: NodeCounts = { received: row[offset + 1]!, emitted: row[offset + 2]! };
  if (mask & FAILED) counts.failed = extras!.failed!;
  if (mask & RETRIED) counts.retried = extras!.retried!;
  if (mask & DROPPED) counts.dropped = extras!.dropped!;
  return counts;
}

/** Rebuilds the NODE_STATUS event `writeEvent` encoded (same keys, in the order the engine makes them). */
export function readEvent(
  row: Rows,
  offset: number,
  head: { executionId: string; nodeId: string; seq: number; at: number },
  extras: EventExtras | null | undefined,
): NodeEvent {
  const mask = maskAt(row, offset);
  const event = {
    type: 'NODE_STATUS',
    executionId: head.executionId,
    at: head.at,
    nodeId: head.nodeId,
    status: statusAt(row, offset),
    counts: countsAt(row, offset, extras),
  } as NodeEvent;
  if (mask & ERROR) event.error = extras!.error;
  if (mask & HELD) event.held = extras!.held;
  if (mask & BUFFER) event.buffer = { used: row[offset + 3]!, size: row[offset + 4]! };
  if (mask & ATTEMPT) event.attempt = Math.floor(row[offset]! / ATTEMPT_UNIT);
  event.seq = head.seq;
  return event;
}

function maskAt(row: Rows, offset: number): number {
  return Math.floor(row[offset]! / MASK_UNIT) % (ATTEMPT_UNIT / MASK_UNIT);
}
