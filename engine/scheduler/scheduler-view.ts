import type { QueuedRunView, RunningRunView, SchedulerGroupCount, SchedulerView } from '../../shared/api/scheduler.schema';
import type { AdmissionScheduler } from './admission-scheduler';
import type { SlotHolder } from './admission-types';
import { reasonText } from './queue-explain';

function admissionOf(executionId: string, h: SlotHolder) {
  return { executionId, session: h.session, workflowId: h.workflowId, priority: h.priority, fairnessKey: h.fairnessKey, fairnessWeight: h.fairnessWeight };
}

/**
 * The scheduler as the panel and `GET /api/scheduler` show it: limits, gauges and refusals, the runs
 * holding slots, and the first `limit` waiting starts in admission order, each with its position, how many
 * are ahead and the caps that hold it back (ADM-04).
 */
export function schedulerView(s: AdmissionScheduler, limit: number): SchedulerView {
  const queued: QueuedRunView[] = s.queued(limit).map((entry, i) => {
    const blockedBy = s.blockersOf(entry);
    return { ...admissionOf(entry.executionId, entry.holder), enqueuedAt: entry.enqueuedAt, position: i + 1, ahead: i, blockedBy, reason: reasonText(blockedBy, s.shuttingDown) };
  });
  const running: RunningRunView[] = [];
  for (const slot of s.holders.values()) {
    if (running.length >= limit) break;
    running.push({ ...admissionOf(slot.executionId, slot.holder), grantedAt: slot.grantedAt });
  }
  return {
    limits: s.limits,
    shuttingDown: s.shuttingDown,
    metrics: { running: s.runningCount, queued: s.queuedCount, rejected: s.rejectedCounts() },
    running,
    queued,
    queuedTruncated: s.queuedCount > queued.length,
    byWorkflow: groups(s.runningByWorkflow, s.queuedByWorkflow, (key) => {
      const at = key.indexOf('/');
      return { session: key.slice(0, at), workflowId: key.slice(at + 1) };
    }),
    bySession: groups(s.runningBySession, s.queuedBySession, (session) => ({ session })),
  };
}

function groups(running: ReadonlyMap<string, number>, queued: ReadonlyMap<string, number>, name: (key: string) => { session: string; workflowId?: string }): SchedulerGroupCount[] {
  const keys = [...new Set([...running.keys(), ...queued.keys()])].sort();
  return keys.map((key) => ({ ...name(key), running: running.get(key) ?? 0, queued: queued.get(key) ?? 0 }));
}
