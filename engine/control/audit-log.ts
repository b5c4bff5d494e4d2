import type { ControlAuditPage, ControlAuditQuery } from '../../shared/api/control.schema';
import { SCHEDULER_RUN_ID } from '../scheduler/scheduler-log';
import type { ExecutionLog, ExecutionLogEntry } from '../store/execution-log';

/**
 * The control audit on the durable execution log (CTL-01, DUR-01). An audit row is answered once it is
 * stored (the pipeline awaits `append`); a write that fails is not the command's failure — the row stays
 * queued and is written when the disk recovers. The SetLimits row the scheduler's log already wrote, with
 * the limits as data, is not written twice.
 */
export class DurableAuditLog implements ExecutionLog {
  private lastLimits: { actor: string; at: number } | null = null;

  constructor(private readonly log: ExecutionLog) {}

  append(entry: ExecutionLogEntry): Promise<void> {
    if (entry.runId === SCHEDULER_RUN_ID && entry.status === 'SetLimits' && entry.type === 'CONTROL_APPLIED') {
      const last = this.lastLimits;
      if (entry.data !== undefined) this.lastLimits = { actor: entry.actor, at: entry.at };
      else if (last && last.actor === entry.actor && last.at === entry.at) return Promise.resolve();
    }
    this.log.append(entry);
    return this.log.flush().catch(() => undefined);
  }

  flush(): Promise<void> {
    return this.log.flush();
  }

  query(query: ControlAuditQuery): Promise<ControlAuditPage> {
    return this.log.query(query);
  }

  entries(): Promise<ExecutionLogEntry[]> {
    return this.log.entries();
  }

  runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    return this.log.runEntries(runId);
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
