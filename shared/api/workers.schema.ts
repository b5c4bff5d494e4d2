import { z } from 'zod';
import { ErrorInfo } from '../events/events';

/** How a remote attempt ended (SCL-01); RUNNING while it runs, UNAVAILABLE when no worker could take it. */
export const RemoteAttemptOutcome = z.enum(['RUNNING', 'SUCCESS', 'FAILURE', 'LOST', 'CANCELLED', 'UNAVAILABLE']);
export type RemoteAttemptOutcome = z.infer<typeof RemoteAttemptOutcome>;

/** One attempt of a placed node: which worker ran it (the inspector's "ran on"). */
export const RemoteAttemptInfo = z.object({
  nodeId: z.string(),
  messageId: z.string(),
  attempt: z.number().int(),
  pool: z.string(),
  /** The worker, or null when none could take it. */
  worker: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  outcome: RemoteAttemptOutcome,
  error: ErrorInfo.optional(),
});
export type RemoteAttemptInfo = z.infer<typeof RemoteAttemptInfo>;

const Count = z.number().int().min(0);

/** A connected worker as the Scheduler tab lists it (STU-06). */
export const WorkerInfo = z.object({
  name: z.string(),
  pool: z.string(),
  /** Where it connects from. */
  peer: z.string(),
  version: z.string(),
  allow: z.array(z.string()),
  slots: Count,
  used: Count,
  free: z.number().int(),
  draining: z.boolean(),
  connectedAt: z.number(),
  /** Milliseconds since its lease was last renewed. */
  leaseAgeMs: Count,
  /** Attempts ended on it, by outcome. */
  attempts: z.object({ SUCCESS: Count, FAILURE: Count, LOST: Count, CANCELLED: Count }),
});
export type WorkerInfo = z.infer<typeof WorkerInfo>;

export const PoolInfo = z.object({ pool: z.string(), workers: Count, draining: Count, slots: Count, used: Count, waiting: Count });
export type PoolInfo = z.infer<typeof PoolInfo>;

/** `workers.list`: the pools and workers connected to this host (SCL-01). */
export const WorkersView = z.object({
  at: z.number(),
  /** Where workers connect (`ws://host:port/path`), or null when this host takes no workers. */
  listener: z.string().nullable(),
  leaseMs: z.number().int(),
  pools: z.array(PoolInfo),
  workers: z.array(WorkerInfo),
});
export type WorkersView = z.infer<typeof WorkersView>;
