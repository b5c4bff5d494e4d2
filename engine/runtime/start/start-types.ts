import type { ExecutionId } from '../../../shared/workflow/ids';
import type { StartOptions } from '../../scheduler/start-options';
import type { IdempotencyRecord, StartRecord } from '../../store/start-record';
import type { UnwritableEntryError } from '../../store/unwritable-entry-error';
import type { PreparedWorkflow } from '../prepared-workflow';
import type { RunDebugSettings } from '../run-debug';

/** Start-payload keys the engine reads (SPEC: `yukta.*`). */
export const VERSION_KEY = 'yukta.version';
export const DEPTH_KEY = 'yukta.depth';
export const PARENT_KEY = 'yukta.parentExecutionId';
/** Deepest sub-workflow nesting (ENG-07). */
export const MAX_DEPTH = 5;
/** The run deadline when the session sets none (ENG-05, DUR-05): 3600 s. */
export const DEFAULT_RUN_TIMEOUT_MS = 3_600_000;

/** A caller's start of a stored workflow (`runs.start`, cron fires, the CLI). */
export interface StartRequest {
  session: string;
  workflowId: string;
  payload: Record<string, unknown>;
  /** A repeat with the same key, session and workflow returns the first execution id (ADM-02). */
  idempotencyKey?: string | undefined;
  /** Valve settings applied before the first message moves (breakpoints set on the canvas before Run). */
  debug?: RunDebugSettings | undefined;
}

/** A start of a prepared graph with a payload (restart, restart-from-node, retry: CTL-04; resume: DUR-03). */
export interface PreparedStart {
  session: string;
  workflowId: string;
  prepared: PreparedWorkflow;
  payload: Record<string, unknown>;
  /** A resume of an ABORTED run (DUR-03). */
  resume?: ResumeStart | undefined;
}

/** What a resume adds to a prepared start (DUR-03). */
export interface ResumeStart {
  /** The ABORTED run it continues. */
  from: string;
  /** The original run's scope and replayed inputs, kept for a later resume. */
  scope: string[];
  inputs: string[];
  /** Replayed nodes whose checkpoints are copied over instead of recorded again. */
  unrecorded: ReadonlySet<string>;
  /** Runs once the new id exists, before the run is built (copies checkpoints and signal answers). */
  beforeBuild(executionId: string): void;
}

/** What a run is made of, once its definition is resolved (the run factory's input). */
export interface RunSpec {
  readonly session: string;
  readonly workflowId: string;
  readonly payload: Record<string, unknown>;
  /** The graph to run, with the start's time budget applied. */
  readonly prepared: PreparedWorkflow;
  /** The run's deadline (ENG-05): the session's default execution timeout. */
  readonly deadlineMs: number;
  /** `yukta.timeBudget` (ADM-04), inherited by sub-workflows. */
  readonly timeBudgetMs: number | undefined;
  /** Sub-workflow runs keep their terminals' input for the parent's result collector (ENG-07). */
  readonly collectResults: boolean;
  readonly debug?: RunDebugSettings | undefined;
  /** Replayed nodes not recorded again (a resume copies their checkpoints). */
  readonly unrecorded?: ReadonlySet<string> | undefined;
}

/**
 * The value a top-level start passes from step to step (resolve → idempotency → admission → create run →
 * record the start → acknowledge): the run to make, what admission is asked, and what RUN_STARTED records.
 */
export interface StartPlan extends RunSpec {
  readonly admission: Pick<StartOptions, 'priority' | 'fairnessKey' | 'fairnessWeight'>;
  /** Resume origin, scope and inputs (DUR-03); derived from the graph when absent. */
  readonly origin?: Pick<StartRecord, 'resumedFrom' | 'scope' | 'inputs'> | undefined;
  /** The start's idempotency key (ADM-02), recorded with RUN_STARTED. */
  readonly idempotency?: IdempotencyRecord | undefined;
  /** Runs once the id exists, before the run is built (a resume copies checkpoints). */
  readonly beforeBuild?: ((executionId: string) => void) | undefined;
}

/** The answer to a start that took (or waits for) a slot. */
export interface Launched {
  executionId: ExecutionId;
  queued: boolean;
  /** Why its start record can never be written (DUR-01), or null: recorded. */
  unwritten: UnwritableEntryError | null;
}

/** A run's sub-workflow nesting level (ENG-07): `yukta.depth` of its payload, 0 for a run started by a caller. */
export function runDepth(payload: Record<string, unknown>): number {
  const depth = payload[DEPTH_KEY];
  return typeof depth === 'number' && Number.isInteger(depth) && depth > 0 ? depth : 0;
}
