import { z } from 'zod';

/** Start-payload keys the scheduler reads (ADM-01, ADM-04). */
export const PRIORITY_KEY = 'yukta.priority';
export const FAIRNESS_KEY = 'yukta.fairnessKey';
export const FAIRNESS_WEIGHT_KEY = 'yukta.fairnessWeight';
export const TIME_BUDGET_KEY = 'yukta.timeBudget';

/** A fairness key: 1–256 ASCII letters, digits, `.`, `_` and `-`; case-sensitive (ADM-04). */
export const FAIRNESS_KEY_PATTERN = /^[A-Za-z0-9._-]{1,256}$/;
/** Largest fairness weight (2^20). */
export const MAX_FAIRNESS_WEIGHT = 2 ** 20;
/** Largest time budget and queue timeout: a 32-bit count of milliseconds (just under 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const OnLimit = z.enum(['QUEUE', 'REJECT']);
export type OnLimit = z.infer<typeof OnLimit>;

const Count = z.number().int().min(0).max(10_000_000);
const Millis = z.number().int().min(0).max(MAX_TIMER_MS);

/** The scheduler's limits (ADM-01); 0 switches a cap off. */
export const SchedulerLimits = z.object({
  maxConcurrent: Count,
  maxConcurrentPerWorkflow: Count,
  maxConcurrentPerSession: Count,
  onLimit: OnLimit,
  queueCapacity: Count,
  queueCapacityPerWorkflow: Count,
  queueTimeoutMs: Millis,
  shutdownTimeoutMs: Millis,
});
export type SchedulerLimits = z.infer<typeof SchedulerLimits>;

/** A change of some limits (`scheduler.setLimits`); an unknown field is refused by name. */
export const SchedulerLimitsPatch = SchedulerLimits.partial().strict();
export type SchedulerLimitsPatch = z.infer<typeof SchedulerLimitsPatch>;

/** Defaults of the seed's table: every cap off, QUEUE, 100 waiting starts, 30 s to finish on shutdown. */
export const DEFAULT_SCHEDULER_LIMITS: SchedulerLimits = {
  maxConcurrent: 0,
  maxConcurrentPerWorkflow: 0,
  maxConcurrentPerSession: 0,
  onLimit: 'QUEUE',
  queueCapacity: 100,
  queueCapacityPerWorkflow: 0,
  queueTimeoutMs: 0,
  shutdownTimeoutMs: 30_000,
};

/** The setting name of each limit, as the seed and the configuration spell it. */
export const LIMIT_SETTING_NAMES: { [K in keyof SchedulerLimits]: string } = {
  maxConcurrent: 'yukta.execution.max-concurrent',
  maxConcurrentPerWorkflow: 'yukta.execution.max-concurrent-per-workflow',
  maxConcurrentPerSession: 'yukta.execution.max-concurrent-per-session',
  onLimit: 'yukta.execution.on-limit',
  queueCapacity: 'yukta.execution.queue-capacity',
  queueCapacityPerWorkflow: 'yukta.execution.queue-capacity-per-workflow',
  queueTimeoutMs: 'yukta.execution.queue-timeout',
  shutdownTimeoutMs: 'yukta.execution.shutdown-timeout',
};

/** Why a start was refused or dropped: the `reason` tag of `yukta.executions.rejected`. */
export const REJECT_REASONS = ['shutdown', 'limit', 'queue_full', 'workflow_queue_full', 'queue_timeout', 'not_leader'] as const;
export const RejectReason = z.enum(REJECT_REASONS);
export type RejectReason = z.infer<typeof RejectReason>;

/** The caps a waiting start can be held by, named by their setting's last segment. */
export const Cap = z.enum(['max-concurrent', 'max-concurrent-per-workflow', 'max-concurrent-per-session']);
export type Cap = z.infer<typeof Cap>;

export const Blocker = z.object({
  cap: Cap,
  limit: z.number().int(),
  /** The workflow (`session/workflowId`) or session whose cap is full; absent for the total cap. */
  scope: z.string().optional(),
});
export type Blocker = z.infer<typeof Blocker>;

const Admission = {
  executionId: z.string(),
  session: z.string(),
  workflowId: z.string(),
  priority: z.number(),
  /** The fairness key the start is counted under: `yukta.fairnessKey`, else `session:<session>`. */
  fairnessKey: z.string(),
  fairnessWeight: z.number(),
};

/** A start waiting for a slot, with why it waits (ADM-04: position, blocking caps, how many are ahead). */
export const QueuedRunView = z.object({
  ...Admission,
  enqueuedAt: z.number(),
  /** 1-based position in admission order. */
  position: z.number().int(),
  /** Starts that would be admitted before this one. */
  ahead: z.number().int(),
  blockedBy: z.array(Blocker),
  /** The explanation in words, e.g. `waiting for a slot (max-concurrent 1)`. */
  reason: z.string(),
});
export type QueuedRunView = z.infer<typeof QueuedRunView>;

/** A run holding a slot. */
export const RunningRunView = z.object({ ...Admission, grantedAt: z.number() });
export type RunningRunView = z.infer<typeof RunningRunView>;

export const SchedulerGroupCount = z.object({ session: z.string(), workflowId: z.string().optional(), running: z.number().int(), queued: z.number().int() });
export type SchedulerGroupCount = z.infer<typeof SchedulerGroupCount>;

/** The scheduler as `GET /api/scheduler` shows it. */
export const SchedulerView = z.object({
  limits: SchedulerLimits,
  shuttingDown: z.boolean(),
  /** Gauges `yukta.executions.running` / `yukta.executions.queued` and the counter `yukta.executions.rejected` by reason. */
  metrics: z.object({ running: z.number().int(), queued: z.number().int(), rejected: z.record(RejectReason, z.number().int()) }),
  running: z.array(RunningRunView),
  /** In admission order; at most `limit` entries (`queuedTruncated` says when more wait). */
  queued: z.array(QueuedRunView),
  queuedTruncated: z.boolean(),
  byWorkflow: z.array(SchedulerGroupCount),
  bySession: z.array(SchedulerGroupCount),
});
export type SchedulerView = z.infer<typeof SchedulerView>;

export const SetPriorityResult = z.object({ executionId: z.string(), priority: z.number(), position: z.number().int() });
export type SetPriorityResult = z.infer<typeof SetPriorityResult>;

/** Why a fairness key is refused, or null (shared by the start dialog and the engine). */
export function fairnessKeyProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  return FAIRNESS_KEY_PATTERN.test(value) ? null : 'must be 1 to 256 of the characters A-Z a-z 0-9 . _ -';
}

/** Why a fairness weight is refused, or null. */
export function fairnessWeightProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  return value > 0 && value <= MAX_FAIRNESS_WEIGHT ? null : `must be more than 0 and at most ${MAX_FAIRNESS_WEIGHT}`;
}

/** Why a priority is refused, or null. */
export function priorityProblem(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number (higher runs first)';
}

/** Why a time budget is refused, or null. */
export function timeBudgetProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be a whole number of milliseconds';
  return value >= 1 && value <= MAX_TIMER_MS ? null : `must be from 1 to ${MAX_TIMER_MS} ms`;
}
