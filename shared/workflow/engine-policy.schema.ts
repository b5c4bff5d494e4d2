import { z } from 'zod';

/** Per-node failure and time policy, `config.engine` (ENG-04). Unknown keys are refused (DEF-02). */
export const RetryPolicy = z.strictObject({
  maxAttempts: z.number().int().min(1).max(100),
  backoffMs: z.number().int().min(0).optional(),
  maxBackoffMs: z.number().int().min(0).optional(),
  retryOn: z.array(z.string().min(1)).optional(),
  noRetryOn: z.array(z.string().min(1)).optional(),
});

export const OnError = z.enum(['FAIL', 'CONTINUE', 'ROUTE']);
export type OnError = z.infer<typeof OnError>;

export const JoinTrigger = z.enum(['ALL_SUCCESS', 'ALL_DONE', 'ONE_SUCCESS']);
export type JoinTrigger = z.infer<typeof JoinTrigger>;

export const EdgeBufferPolicy = z.strictObject({
  size: z.number().int().min(1).max(1_000_000),
  overflow: z.enum(['DROP_OLDEST', 'DROP_NEWEST']).default('DROP_OLDEST'),
});

export const EnginePolicy = z.strictObject({
  retry: RetryPolicy.optional(),
  onError: OnError.optional(),
  trigger: JoinTrigger.optional(),
  elementTimeoutMs: z.number().int().min(1).optional(),
  deadlineMs: z.number().int().min(1).optional(),
  failureBudget: z.strictObject({ maxFailures: z.number().int().min(0), windowMs: z.number().int().min(1) }).optional(),
  edgeBuffer: EdgeBufferPolicy.optional(),
  placement: z.strictObject({ pool: z.string().min(1) }).optional(),
});
export type EnginePolicy = z.infer<typeof EnginePolicy>;

/** The name of the output port that receives `{error, input}` when `onError` is ROUTE. */
export const ERROR_PORT = 'error';
/** The port a plugin emits to when it names none. */
export const DEFAULT_PORT = 'out';
