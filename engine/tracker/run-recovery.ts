import type { NodeRunState, RunDetail } from '../../shared/api/runs.schema';
import type { ErrorInfo } from '../../shared/events/events';
import { Status } from '../../shared/status/status';
import type { ExecutionLog, ExecutionLogEntry } from '../store/execution-log';
import { startRecordOf, type IdempotencyRecord, type StartRecord } from '../store/start-record';

/** The actor of entries written by boot recovery. */
export const RECOVERY_ACTOR = 'recovery';

/** A run as the execution log tells it. */
export interface LoggedRun {
  executionId: string;
  record: StartRecord;
  /** RUNNING until an end entry; ABORTED after a crash. */
  status: Status;
  createdAt: number;
  endedAt?: number;
  error?: ErrorInfo;
  /** Node ends in log order. */
  nodes: Map<string, { status: Status; at: number }>;
  /** The run that resumed it (RUN_RESUMED, or a later RUN_STARTED naming it in `resumedFrom`). */
  resumedBy: string | null;
}

/** What boot recovery found: every logged run (oldest first), the idempotency keys, and the runs it aborted. */
export interface Recovery {
  runs: LoggedRun[];
  keys: Array<{ executionId: string; record: IdempotencyRecord }>;
  aborted: string[];
}

/** Reads the runs out of log entries (oldest first). */
export function loggedRuns(entries: readonly ExecutionLogEntry[]): Map<string, LoggedRun> {
  const runs = new Map<string, LoggedRun>();
  for (const e of entries) {
    const record = startRecordOf(e);
    if (record) {
      runs.set(e.runId, { executionId: e.runId, record, status: 'RUNNING', createdAt: e.at, nodes: new Map(), resumedBy: null });
      const from = record.resumedFrom === undefined ? undefined : runs.get(record.resumedFrom);
      if (from) from.resumedBy ??= e.runId;
      continue;
    }
    const run = runs.get(e.runId);
    if (!run) continue;
    applyEntry(run, e);
  }
  return runs;
}

function applyEntry(run: LoggedRun, e: ExecutionLogEntry): void {
  const data = (e.data ?? {}) as { nodeId?: unknown; error?: ErrorInfo; newExecutionId?: unknown };
  if (e.type === 'NODE_FINISHED' && typeof data.nodeId === 'string') run.nodes.set(data.nodeId, { status: asStatus(e.status), at: e.at });
  else if (e.type === 'RUN_FINISHED' || e.type === 'RUN_ABORTED') {
    run.status = asStatus(e.status);
    run.endedAt = e.at;
    if (data.error) run.error = data.error;
  } else if (e.type === 'RUN_RESUMED' && typeof data.newExecutionId === 'string') run.resumedBy ??= data.newExecutionId;
}

function asStatus(text: string): Status {
  const parsed = Status.safeParse(text);
  return parsed.success ? parsed.data : 'ERROR';
}

/**
 * Boot recovery (DUR-01): every run the log shows started and never ended was interrupted by the end of
 * the last process; it is marked ABORTED (a RUN_ABORTED entry, written before anything else starts).
 */
export async function recoverLog(log: ExecutionLog, now: number): Promise<Recovery> {
  const entries = await log.entries();
  const runs = loggedRuns(entries);
  const aborted: string[] = [];
  for (const run of runs.values()) {
    if (run.status !== 'RUNNING') continue;
    const error: ErrorInfo = {
      name: 'RunAbortedError',
      code: 'ABORTED',
      message: 'the process stopped while the run was going (crash or kill); resume it to continue from its last checkpoints',
    };
    log.append({ runId: run.executionId, type: 'RUN_ABORTED', status: 'ABORTED', actor: RECOVERY_ACTOR, at: now, data: { error } });
    Object.assign(run, { status: 'ABORTED', endedAt: now, error });
    aborted.push(run.executionId);
  }
  if (aborted.length) await log.flush();
  const keys: Recovery['keys'] = [];
  for (const e of entries) {
    if (e.type === 'IDEMPOTENCY_KEY' && e.data && typeof e.data === 'object') keys.push({ executionId: e.runId, record: e.data as IdempotencyRecord });
  }
  return { runs: [...runs.values()], keys, aborted };
}

/** A logged run as `runs.get` shows it after a restart: its nodes' last statuses, no results. */
export function runDetailOf(run: LoggedRun): RunDetail {
  const nodes: NodeRunState[] = [];
  const ids = new Set([...run.record.scope, ...run.record.inputs, ...run.nodes.keys()]);
  for (const nodeId of ids) {
    const ended = run.nodes.get(nodeId);
    const status: Status = ended?.status ?? (run.status === 'ABORTED' ? 'ABORTED' : 'PENDING');
    const node: NodeRunState = { nodeId, status, counts: { received: 0, emitted: 0 } };
    if (ended) node.endedAt = ended.at;
    nodes.push(node);
  }
  const detail: RunDetail = {
    executionId: run.executionId,
    session: run.record.session,
    workflowId: run.record.workflowId,
    definitionVersion: run.record.version,
    status: run.status,
    createdAt: run.createdAt,
    nodes,
    results: [],
    resultsTruncated: false,
  };
  if (run.endedAt !== undefined) detail.endedAt = run.endedAt;
  if (run.error) detail.error = run.error;
  return detail;
}
