import { z } from 'zod';
import { ControlCommand } from './control.schema';

/** A rule of the built-in rule supervisor (CTL-07): when the CEL condition holds for an event, send the command to its run. */
export const SupervisorRule = z.strictObject({
  name: z.string().min(1).max(128).optional(),
  /** CEL over the event as `event` (`event.type`, `event.status`, `event.nodeId`, `event.counts.failed`, …). */
  when: z.string().min(1).max(2000),
  then: ControlCommand,
});
export type SupervisorRule = z.infer<typeof SupervisorRule>;

export const SupervisorRules = z.array(SupervisorRule).max(100);

/** Commands a supervisor sent, by fate. */
export const SupervisorCounts = z.object({
  applied: z.number().int(),
  rejected: z.number().int(),
  /** Recorded without applying (`yukta.supervisor.dry-run`). */
  dryRun: z.number().int(),
  /** Dropped by `yukta.supervisor.max-commands-per-second`. */
  rateLimited: z.number().int(),
  /** Not a valid command. */
  invalid: z.number().int(),
});

/** One entry of `GET /api/supervisors`: a reviewer of the pipeline (CONTROL_PLANE) or a supervisor. */
export const SupervisorInfo = z.object({
  id: z.string(),
  kind: z.enum(['CONTROL_PLANE', 'SUPERVISOR']),
  order: z.number().int(),
  dryRun: z.boolean(),
  /** SUPERVISOR: RUNNING, BACKOFF (resubscribing after a failure) or ENDED. */
  state: z.enum(['RUNNING', 'BACKOFF', 'ENDED']).optional(),
  commands: SupervisorCounts.optional(),
  /** Events dropped from its full buffer (`yukta.tracker.dropped{kind=supervisor}`). */
  dropped: z.number().int().optional(),
  /** Times it failed and was subscribed again. */
  restarts: z.number().int().optional(),
  lastError: z.string().optional(),
  /** CONTROL_PLANE: commands this reviewer refused. */
  refused: z.number().int().optional(),
});
export type SupervisorInfo = z.infer<typeof SupervisorInfo>;
