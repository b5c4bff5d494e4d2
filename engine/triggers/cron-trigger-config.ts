import { z } from 'zod';
import { cronProblem, isTimeZone } from './cron-schedule';

/** The node type the trigger scheduler looks for. */
export const CRON_TRIGGER_TYPE = 'CRON_TRIGGER';

/** Start-payload key of a run started by a cron fire: which node fired, for which time. */
export const CRON_PAYLOAD_KEY = 'yukta.cron';

/** What happens to fires that were due while the app was closed or the machine slept. */
export const MISSED_FIRE_POLICIES = ['SKIP', 'RUN_ONCE'] as const;
export type MissedFirePolicy = (typeof MISSED_FIRE_POLICIES)[number];

export const CronTriggerConfig = z.strictObject({
  /** Cron expression: 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first. */
  expression: z
    .string()
    .min(1)
    .max(256)
    .superRefine((value, ctx) => {
      const problem = cronProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `not a cron expression: ${problem}` });
    }),
  /** IANA time zone the expression is read in (daylight saving included). */
  timezone: z.string().min(1).max(64).refine(isTimeZone, 'an IANA time zone, e.g. Europe/Berlin').default('UTC'),
  /** SKIP (default): missed fires are dropped; RUN_ONCE: one run catches up for all of them. */
  missedFires: z.enum(MISSED_FIRE_POLICIES).default('SKIP'),
  /** False keeps the schedule but stops it firing. */
  enabled: z.boolean().default(true),
  /** The payload each fired run starts with. */
  payload: z.record(z.string(), z.unknown()).default({}),
});
export type CronTriggerConfig = z.infer<typeof CronTriggerConfig>;

/** What a fire puts under `yukta.cron` in the start payload. */
export interface CronFireInfo {
  nodeId: string;
  /** ISO time the fire was due. */
  scheduledAt: string;
  /** ISO time the run was started. */
  firedAt: string;
  /** Fires that were due and did not get a run of their own (coalesced into this one). */
  missed: number;
  /** True when every due fire was later than the grace (a RUN_ONCE catch-up after a closed app or a sleep). */
  catchUp: boolean;
}

export function isCronFireInfo(value: unknown): value is CronFireInfo {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.nodeId === 'string' &&
    typeof v.scheduledAt === 'string' &&
    typeof v.firedAt === 'string' &&
    typeof v.missed === 'number' &&
    typeof v.catchUp === 'boolean'
  );
}
