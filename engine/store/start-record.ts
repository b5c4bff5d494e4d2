import type { ExecutionLogEntry } from './execution-log';

/** A start's idempotency key as the log keeps it (ADM-02), so a repeat after a restart finds the first run. */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  payloadHash: string;
}

/**
 * What RUN_STARTED records of a run (DUR-01): enough to start it again (DUR-03) or to rebuild its archive
 * entry after a restart (CTL-04). `scope` are the nodes the run is responsible for (every node of a plain
 * run, the nodes run again by a restart from a node); `inputs` are nodes replayed into it from another
 * run's recording (restart from a node), which its own checkpoints then hold.
 */
export interface StartRecord {
  session: string;
  workflowId: string;
  /** The definition version (content hash) the run executes. */
  version: string;
  payload: Record<string, unknown>;
  scope: string[];
  inputs: string[];
  /** The ABORTED run this one resumes (DUR-03). */
  resumedFrom?: string;
  idempotency?: IdempotencyRecord;
}

/** The start record of a RUN_STARTED entry, or null for an entry without one. */
export function startRecordOf(entry: ExecutionLogEntry): StartRecord | null {
  if (entry.type !== 'RUN_STARTED' || entry.data === null || typeof entry.data !== 'object') return null;
  const d = entry.data as Partial<StartRecord>;
  if (typeof d.session !== 'string' || typeof d.workflowId !== 'string' || typeof d.version !== 'string' || !Array.isArray(d.scope)) return null;
  return { inputs: [], payload: {}, ...d } as StartRecord;
}
