import type { ErrorInfo } from '../../shared/events/events';
import type { RemoteAttemptInfo, RemoteAttemptOutcome } from '../../shared/api/workers.schema';

/**
 * Which worker ran each attempt of a placed node (SCL-01), in memory: the newest `perRun` attempts of the
 * newest `runs` runs, for the inspector.
 */
export class AttemptRecords {
  private readonly runs = new Map<string, RemoteAttemptInfo[]>();

  constructor(
    private readonly maxRuns = 1000,
    private readonly perRun = 500,
  ) {}

  start(executionId: string, record: RemoteAttemptInfo): RemoteAttemptInfo {
    let list = this.runs.get(executionId);
    if (list === undefined) {
      this.runs.set(executionId, (list = []));
      if (this.runs.size > this.maxRuns) this.runs.delete(this.runs.keys().next().value!);
    }
    list.push(record);
    // Trimmed in batches, so a long run does not shift the whole list at every attempt.
    if (list.length >= this.perRun * 2) list.splice(0, list.length - this.perRun);
    return record;
  }

  end(record: RemoteAttemptInfo, outcome: RemoteAttemptOutcome, at: number, error?: ErrorInfo): void {
    record.outcome = outcome;
    record.endedAt = at;
    if (error) record.error = error;
  }

  of(executionId: string, nodeId?: string): RemoteAttemptInfo[] {
    const list = (this.runs.get(executionId) ?? []).slice(-this.perRun);
    return (nodeId === undefined ? list : list.filter((r) => r.nodeId === nodeId)).map((r) => ({ ...r }));
  }
}
