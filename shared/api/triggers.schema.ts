import { z } from 'zod';
import { Identifier } from '../workflow/identifier';

/** The newest fire a schedule handled (EXT-01 CRON_TRIGGER): a run started, a start refused, or missed fires skipped. */
export const CronFireInfo = z.object({
  scheduledAt: z.number(),
  handledAt: z.number(),
  outcome: z.enum(['STARTED', 'REFUSED', 'SKIPPED']),
  /** Fires that got no run of their own. */
  missed: z.number().int(),
  executionId: z.string().optional(),
  error: z.string().optional(),
});
export type CronFireInfo = z.infer<typeof CronFireInfo>;

/** One armed CRON_TRIGGER schedule (`triggers.list`). */
export const CronTriggerInfo = z.object({
  session: z.string(),
  workflowId: z.string(),
  nodeId: z.string(),
  expression: z.string(),
  timezone: z.string(),
  missedFires: z.enum(['SKIP', 'RUN_ONCE']),
  /** The next fire time (epoch ms), or null when the expression never fires again. */
  nextFireAt: z.number().nullable(),
  lastFire: CronFireInfo.optional(),
});
export type CronTriggerInfo = z.infer<typeof CronTriggerInfo>;

export const TriggersQuery = z.strictObject({ session: Identifier.optional(), workflowId: Identifier.optional() });
