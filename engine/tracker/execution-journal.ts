import type { StudioEvent } from '../../shared/events/events';
import { isTerminal } from '../../shared/status/status';
import type { ExecutionLog } from '../store/execution-log';
import type { StartRecord } from '../store/start-record';
import { UnwritableEntryError } from '../store/unwritable-entry-error';

/** The actor of the entries the engine writes itself. */
export const ENGINE_ACTOR = 'engine';

const MAX_UNWRITTEN = 1000;

/**
 * Feeds the execution log from the engine's event bus (DUR-01; no second path): a run's first event
 * writes RUN_STARTED with its start record (and IDEMPOTENCY_KEY when it has one), a node's terminal status
 * NODE_FINISHED, the run's terminal status RUN_FINISHED. Only runs that went through admission have a
 * start record; sub-workflow runs are part of their parent and are not logged.
 */
export class ExecutionJournal {
  private readonly logged = new Set<string>();
  /** Starts whose RUN_STARTED could not be written at all: their acknowledgment fails with the reason. */
  private readonly unwritten = new Map<string, UnwritableEntryError>();

  constructor(
    private readonly log: ExecutionLog,
    /** The start record of a run being announced, or null (a sub-workflow run). */
    private readonly startRecord: (executionId: string) => StartRecord | null,
  ) {}

  readonly listen = (event: StudioEvent): void => {
    if (event.type === 'EXECUTION_STATUS') this.runStatus(event);
    else if (event.type === 'NODE_STATUS' && isTerminal(event.status) && this.logged.has(event.executionId)) {
      this.log.append({ runId: event.executionId, type: 'NODE_FINISHED', status: event.status, actor: ENGINE_ACTOR, at: event.at, data: { nodeId: event.nodeId } });
    }
  };

  /** The reason a start's RUN_STARTED could not be written, once (the start's acknowledgment throws it), or null. */
  takeUnwritten(executionId: string): UnwritableEntryError | null {
    const error = this.unwritten.get(executionId) ?? null;
    this.unwritten.delete(executionId);
    return error;
  }

  private runStatus(event: Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>): void {
    const id = event.executionId;
    if (event.nodeIds !== undefined) {
      const record = this.startRecord(id);
      if (record === null) return;
      try {
        this.log.append({ runId: id, type: 'RUN_STARTED', status: event.status, actor: ENGINE_ACTOR, at: event.at, data: record });
      } catch (error) {
        if (!(error instanceof UnwritableEntryError)) throw error;
        this.unwritten.set(id, error); // the start is refused with this reason; nothing of the run is logged
        // Restarts and resumes are never acknowledged: their reasons are not kept past the newest few.
        if (this.unwritten.size > MAX_UNWRITTEN) this.unwritten.delete(this.unwritten.keys().next().value!);
        return;
      }
      this.logged.add(id);
      if (record.idempotency) this.log.append({ runId: id, type: 'IDEMPOTENCY_KEY', status: record.idempotency.key, actor: ENGINE_ACTOR, at: event.at, data: record.idempotency });
      return;
    }
    if (!isTerminal(event.status) || !this.logged.delete(id)) return;
    this.log.append({ runId: id, type: 'RUN_FINISHED', status: event.status, actor: ENGINE_ACTOR, at: event.at, ...(event.error ? { data: { error: event.error } } : {}) });
  }
}
