import type { Blocker, SchedulerLimits } from '../../shared/api/scheduler.schema';

/** What the explanation reads from the scheduler. */
export interface CapState {
  readonly limits: SchedulerLimits;
  readonly runningCount: number;
  runningOfWorkflow(session: string, workflowId: string): number;
  runningOfSession(session: string): number;
}

/** The caps that are full for this start right now, the total cap first. */
export function blockersOf(state: CapState, h: { session: string; workflowId: string }): Blocker[] {
  const l = state.limits;
  const out: Blocker[] = [];
  if (l.maxConcurrent > 0 && state.runningCount >= l.maxConcurrent) out.push({ cap: 'max-concurrent', limit: l.maxConcurrent });
  if (l.maxConcurrentPerWorkflow > 0 && state.runningOfWorkflow(h.session, h.workflowId) >= l.maxConcurrentPerWorkflow) {
    out.push({ cap: 'max-concurrent-per-workflow', limit: l.maxConcurrentPerWorkflow, scope: `${h.session}/${h.workflowId}` });
  }
  if (l.maxConcurrentPerSession > 0 && state.runningOfSession(h.session) >= l.maxConcurrentPerSession) {
    out.push({ cap: 'max-concurrent-per-session', limit: l.maxConcurrentPerSession, scope: h.session });
  }
  return out;
}

/**
 * Why a start waits, in words: `waiting for a slot (max-concurrent 1)`, `waiting for a slot of workflow
 * "ops/nightly" (max-concurrent-per-workflow 2)`. A start no cap holds is next in line (it is being
 * admitted) or, at shutdown, about to be refused.
 */
export function reasonText(blockers: readonly Blocker[], shuttingDown: boolean): string {
  if (blockers.length === 0) return shuttingDown ? 'refused: the server is shutting down' : 'next in line for a free slot';
  const parts = blockers.map((b) => {
    if (b.cap === 'max-concurrent') return `a slot (max-concurrent ${b.limit})`;
    const what = b.cap === 'max-concurrent-per-workflow' ? 'workflow' : 'session';
    return `a slot of ${what} "${b.scope}" (${b.cap} ${b.limit})`;
  });
  return `waiting for ${parts.join(' and ')}`;
}
