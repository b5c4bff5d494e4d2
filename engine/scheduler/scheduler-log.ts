import type { SchedulerLimits, SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';

/** The run id scheduler records are logged under (ADM-03). */
export const SCHEDULER_RUN_ID = 'scheduler';

/** A live limit change as the execution log keeps it: the change, the limits it produced, who and when. */
export interface SetLimitsRecord {
  type: 'SetLimits';
  runId: typeof SCHEDULER_RUN_ID;
  patch: SchedulerLimitsPatch;
  limits: SchedulerLimits;
  actor: string;
  at: number;
}

/**
 * Where limit changes are recorded (ADM-03). The durability issue's execution log implements this over
 * SQLite / PostgreSQL; until then the memory log below keeps them for the process's life. At startup the
 * newest record is re-applied, so the log wins over configuration from then on.
 */
export interface SchedulerLog {
  append(record: SetLimitsRecord): Promise<void>;
  /** The newest SetLimits record, or null. */
  latestLimits(): Promise<SetLimitsRecord | null>;
}

export class MemorySchedulerLog implements SchedulerLog {
  readonly records: SetLimitsRecord[] = [];

  async append(record: SetLimitsRecord): Promise<void> {
    this.records.push(structuredClone(record));
  }

  async latestLimits(): Promise<SetLimitsRecord | null> {
    const last = this.records.at(-1);
    return last ? structuredClone(last) : null;
  }
}
