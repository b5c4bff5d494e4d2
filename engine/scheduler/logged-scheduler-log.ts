import { SchedulerLimits } from '../../shared/api/scheduler.schema';
import type { ExecutionLog, ExecutionLogEntry } from '../store/execution-log';
import { SCHEDULER_RUN_ID, type SchedulerLog, type SetLimitsRecord } from './scheduler-log';

/**
 * The scheduler's log on the execution log (ADM-03, DUR-01): a live limit change is the audit row of its
 * SetLimits command under run id `scheduler`, with the change and the limits it produced as data; at boot
 * the newest one is applied again, so the log wins over configuration.
 */
export class ExecutionSchedulerLog implements SchedulerLog {
  constructor(private readonly log: ExecutionLog) {}

  async append(record: SetLimitsRecord): Promise<void> {
    this.log.append({
      runId: SCHEDULER_RUN_ID,
      type: 'CONTROL_APPLIED',
      status: 'SetLimits',
      actor: record.actor,
      at: record.at,
      data: { patch: record.patch, limits: record.limits },
    });
  }

  async latestLimits(): Promise<SetLimitsRecord | null> {
    const entries = await this.log.runEntries(SCHEDULER_RUN_ID);
    for (let i = entries.length - 1; i >= 0; i--) {
      const record = limitsRecord(entries[i]!);
      if (record) return record;
    }
    return null;
  }
}

function limitsRecord(entry: ExecutionLogEntry): SetLimitsRecord | null {
  const data = entry.data as { patch?: unknown; limits?: unknown } | undefined;
  if (entry.type !== 'CONTROL_APPLIED' || !data || data.limits === undefined) return null;
  const limits = SchedulerLimits.safeParse(data.limits);
  if (!limits.success) return null;
  return {
    type: 'SetLimits',
    runId: SCHEDULER_RUN_ID,
    patch: (data.patch ?? {}) as SetLimitsRecord['patch'],
    limits: limits.data,
    actor: entry.actor,
    at: entry.at,
  };
}
