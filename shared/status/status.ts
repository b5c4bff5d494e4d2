import { z } from 'zod';

/** Terminal statuses of a node or a run (ENG-06). */
export const TERMINAL_STATUSES = ['SUCCESS', 'FAILURE', 'ERROR', 'STOPPED', 'CANCELLED', 'TIMED_OUT', 'SKIPPED', 'UPSTREAM_FAILED', 'ABORTED'] as const;

export const Status = z.enum(['PENDING', 'QUEUED', 'RUNNING', ...TERMINAL_STATUSES]);
/** Status of a node or a run: PENDING < QUEUED < RUNNING < any terminal status. */
export type Status = z.infer<typeof Status>;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

const RANK: { [K in Status]: number } = {
  PENDING: 0,
  QUEUED: 1,
  RUNNING: 2,
  SUCCESS: 3,
  FAILURE: 3,
  ERROR: 3,
  STOPPED: 3,
  CANCELLED: 3,
  TIMED_OUT: 3,
  SKIPPED: 3,
  UPSTREAM_FAILED: 3,
  ABORTED: 3,
};

export function isTerminal(status: Status): status is TerminalStatus {
  return RANK[status] === 3;
}

/**
 * Forward-only status merge (ENG-06): the next status wins only if it moves forward.
 * Once terminal, a status never changes (a second end is ignored).
 */
export function advanceStatus(current: Status, next: Status): Status {
  if (isTerminal(current)) return current;
  return RANK[next] > RANK[current] ? next : current;
}

/** Statuses that count as a failure for joins and run outcome. */
export function isFailure(status: Status): boolean {
  return status === 'FAILURE' || status === 'ERROR' || status === 'TIMED_OUT' || status === 'CANCELLED' || status === 'UPSTREAM_FAILED' || status === 'ABORTED';
}
