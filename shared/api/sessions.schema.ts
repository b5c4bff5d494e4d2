import { z } from 'zod';
import { Identifier } from '../workflow/identifier';
import { WorkflowDefinition } from '../workflow/definition.schema';
import { SaveResult } from './workflows.schema';

/** A run's deadline when its session sets none (DUR-05): one hour. */
export const DEFAULT_EXECUTION_TIMEOUT_SECONDS = 3600;
/** Longest per-session execution timeout accepted: 30 days. */
export const MAX_EXECUTION_TIMEOUT_SECONDS = 30 * 24 * 3600;
/** Most workflows in one session configuration. */
export const MAX_SESSION_WORKFLOWS = 1000;

export const ExecutionTimeoutSeconds = z.number().int().min(1).max(MAX_EXECUTION_TIMEOUT_SECONDS);

/** A session as listed: its id, how many workflows it holds and its default execution timeout. */
export const SessionSummary = z.object({
  session: z.string(),
  workflowCount: z.number().int(),
  defaultExecutionTimeoutSeconds: z.number().int(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/**
 * A session configuration (DUR-05): the session's default execution timeout and workflows to store in it.
 * Applying one validates every workflow first and stores all or nothing; workflows it does not name stay.
 */
export const SessionConfig = z.strictObject({
  session: Identifier,
  defaultExecutionTimeoutSeconds: ExecutionTimeoutSeconds.default(DEFAULT_EXECUTION_TIMEOUT_SECONDS),
  workflows: z.array(WorkflowDefinition).max(MAX_SESSION_WORKFLOWS).default([]),
  /** Note recorded on every version this configuration adds. */
  note: z.string().max(1000).optional(),
});
export type SessionConfig = z.infer<typeof SessionConfig>;

export const ApplySessionResult = z.object({
  session: SessionSummary,
  /** True when the session did not exist before. */
  created: z.boolean(),
  /** One result per workflow of the configuration, in its order (`changed: false` = identical, no version). */
  workflows: z.array(SaveResult),
});
export type ApplySessionResult = z.infer<typeof ApplySessionResult>;
