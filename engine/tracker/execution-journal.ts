import type { StudioEvent } from '../../shared/events/events';
import { isTerminal } from '../../shared/status/status';
import type { ExecutionLog } from '../store/execution-log';
import type { StartRecord } from '../store/start-record';

/** The actor of the entries the engine writes itself. */
export const ENGINE_ACTOR = 'engine';

/**
 * Feeds the execution log from the engine's event bus (DUR-01; no second path): a run's first event
 * writes RUN_STARTED with its start record (and IDEMPOTENCY_KEY when it has one), a node's terminal status
 * NODE_FINISHED, the run's terminal status RUN_FINISHED. Only runs that went through admission have a
 * start record; sub-workflow runs are part of their parent and are not logged.
 */
export class ExecutionJournal {
  private readonly logged = new Set<string>();

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

  private runStatus(event: Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>): void {
    const id = event.executionId;
    if (event.nodeIds !== undefined) {
      const record = this.startRecord(id);
      if (record === null) return;
      this.logged.add(id);
      this.log.append({ runId: id, type: 'RUN_STARTED', status: event.status, actor: ENGINE_ACTOR, at: event.at, data: record });
      if (record.idempotency) this.log.append({ runId: id, type: 'IDEMPOTENCY_KEY', status: record.idempotency.key, actor: ENGINE_ACTOR, at: event.at, data: record.idempotency });
      return;
    }
    if (!isTerminal(event.status) || !this.logged.delete(id)) return;
    this.log.append({ runId: id, type: 'RUN_FINISHED', status: event.status, actor: ENGINE_ACTOR, at: event.at, ...(event.error ? { data: { error: event.error } } : {}) });
  }
}
