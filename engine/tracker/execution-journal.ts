import type { StudioEvent } from '../../shared/events/events';
import { isTerminal } from '../../shared/status/status';
import type { StartJournal } from '../runtime/start/start-record';
import type { ExecutionLog } from '../store/execution-log';
import type { StartRecord } from '../store/start-record';
import { UnwritableEntryError } from '../store/unwritable-entry-error';

/** The actor of the entries the engine writes itself. */
export const ENGINE_ACTOR = 'engine';

/**
 * Feeds the execution log (DUR-01): the start pipeline hands it each admitted start's record (RUN_STARTED,
 * and IDEMPOTENCY_KEY when it has one); from the event bus (no second path) it writes a logged run's node
 * ends (NODE_FINISHED) and its end (RUN_FINISHED). Sub-workflow runs are part of their parent and are
 * never handed over, so they are not logged.
 */
export class ExecutionJournal implements StartJournal {
  private readonly logged = new Set<string>();

  constructor(private readonly log: ExecutionLog) {}

  started(executionId: string, record: StartRecord, at: number): UnwritableEntryError | null {
    try {
      this.log.append({ runId: executionId, type: 'RUN_STARTED', status: 'PENDING', actor: ENGINE_ACTOR, at, data: record });
    } catch (error) {
      if (!(error instanceof UnwritableEntryError)) throw error;
      return error; // the start is refused with this reason; nothing of the run is logged
    }
    this.logged.add(executionId);
    if (record.idempotency)
      this.log.append({ runId: executionId, type: 'IDEMPOTENCY_KEY', status: record.idempotency.key, actor: ENGINE_ACTOR, at, data: record.idempotency });
    return null;
  }

  readonly listen = (event: StudioEvent): void => {
    if (event.type === 'NODE_STATUS') {
      if (isTerminal(event.status) && this.logged.has(event.executionId)) {
        this.log.append({
          runId: event.executionId,
          type: 'NODE_FINISHED',
          status: event.status,
          actor: ENGINE_ACTOR,
          at: event.at,
          data: { nodeId: event.nodeId },
        });
      }
    } else if (event.type === 'EXECUTION_STATUS') {
      if (isTerminal(event.status) && this.logged.delete(event.executionId)) {
        this.log.append({
          runId: event.executionId,
          type: 'RUN_FINISHED',
          status: event.status,
          actor: ENGINE_ACTOR,
          at: event.at,
          ...(event.error ? { data: { error: event.error } } : {}),
        });
      }
    }
  };
}
