import { Cron } from 'croner';

/** A cron expression in a time zone; croner computes the fire times, the engine clock schedules them. */
export interface CronSpec {
  expression: string;
  /** IANA time zone the expression is read in (e.g. `Europe/Berlin`); `UTC` by default. */
  timezone: string;
}

/** Why an expression cannot be used, or null. Accepts 5 fields (minute first), 6 (seconds first) or 7 (year last). */
export function cronProblem(expression: string): string | null {
  try {
    new Cron(expression, { paused: true });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
  }
}

/** True for a time zone this runtime knows. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The fire times of one schedule. `dom` and `dow` combine with AND when both are restricted (croner's
 * default, like Quartz), which is stricter than classic cron's OR.
 */
export class CronSchedule {
  private readonly cron: Cron;

  constructor(readonly spec: CronSpec) {
    this.cron = new Cron(spec.expression, { timezone: spec.timezone, paused: true });
  }

  /** The first fire strictly after `afterMs`, or null when the schedule never fires again. */
  nextAfter(afterMs: number): number | null {
    return this.cron.nextRun(new Date(afterMs))?.getTime() ?? null;
  }

  /** The last fire at or before `ms`, or null. */
  latestAtOrBefore(ms: number): number | null {
    // croner works in whole seconds and looks strictly before its reference: ask before the next second.
    const second = Math.floor(ms / 1000) * 1000;
    return this.cron.previousRuns(1, new Date(second + 1000))[0]?.getTime() ?? null;
  }

  /**
   * The fires in (fromMs, toMs]: how many (counting stops at `limit`) and the latest. Computed from both
   * ends, so a schedule that was asleep for a year costs `limit` steps at most.
   */
  firesBetween(fromMs: number, toMs: number, limit = 1_000): { count: number; latest: number | null } {
    const latest = this.latestAtOrBefore(toMs);
    if (latest === null || latest <= fromMs) return { count: 0, latest: null };
    let count = 0;
    for (let at = this.nextAfter(fromMs); at !== null && at <= toMs && count < limit; at = this.nextAfter(at)) count++;
    return { count, latest };
  }
}
