import type { QueuedRunView, RunningRunView, SchedulerGroupCount, SchedulerView } from '../../shared/api/scheduler.schema';
import type { AdmissionScheduler } from './admission-scheduler';
import type { Ticket } from './admission-types';
import { reasonText } from './queue-explain';

function admissionOf(t: Ticket) {
  return { executionId: t.executionId, session: t.session, workflowId: t.workflowId, priority: t.priority, fairnessKey: t.key, fairnessWeight: t.weight };
}

/**
 * The scheduler as the panel and `GET /api/scheduler` show it: limits, gauges and refusals, the runs
 * holding slots, and the first `limit` waiting starts in admission order, each with its position, how many
 * are ahead and the caps that hold it back (ADM-04).
 */
export function schedulerView(s: AdmissionScheduler, limit: number): SchedulerView {
  const queued: QueuedRunView[] = s.queued(limit).map((t, i) => {
    const blockedBy = s.blockersOf(t);
    return { ...admissionOf(t), enqueuedAt: t.since, position: i + 1, ahead: i, blockedBy, reason: reasonText(blockedBy, s.shuttingDown) };
  });
  const running: RunningRunView[] = s.holders(limit).map((t) => ({ ...admissionOf(t), grantedAt: t.since }));
  const byWorkflow: SchedulerGroupCount[] = [];
  const bySession: SchedulerGroupCount[] = [];
  for (const session of [...s.sessions.values()].sort((a, b) => a.session.localeCompare(b.session))) {
    bySession.push({ session: session.session, running: session.running, queued: session.queued });
    for (const wf of [...session.workflows!.values()].sort((a, b) => a.workflowId!.localeCompare(b.workflowId!))) {
      byWorkflow.push({ session: wf.session, workflowId: wf.workflowId!, running: wf.running, queued: wf.queued });
    }
  }
  return {
    limits: s.limits,
    shuttingDown: s.shuttingDown,
    metrics: { running: s.runningCount, queued: s.queuedCount, rejected: s.rejectedCounts() },
    running,
    queued,
    queuedTruncated: s.queuedCount > queued.length,
    byWorkflow,
    bySession,
  };
}
