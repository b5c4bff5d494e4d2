import { RUN_END_TYPES, type ExecutionLogEntry, type LogRetentionOptions } from './execution-log';
import { summaryRunsToDrop, type RunSummary } from './log-retention';

/**
 * The runs of a database log in order of their first entry, as a trim sums them up (DUR-01), kept in step
 * with every append instead of summed up by a scan of the whole table at every trim (at 1,000 retained runs
 * of 400 nodes that scan read 400,000 rows every `compactAfter` appends). Read from the table (`load`) the
 * first time and again after anything that may have put the two out of step (a row dropped unwritten).
 * The log appends in order and its writer stores rows in that order, so the order of first appends is the
 * order of first stored entries; one host writes a data folder's log (the data-folder lock, EXT-04).
 */
export class RunSummaries {
  private readonly runs = new Map<string, RunSummary>();
  /** The map says nothing until it is read from the table. */
  private stale = true;

  constructor(
    /** The table's runs in order of their first entry (everything queued already written). */
    private readonly load: () => RunSummary[],
  ) {}

  /** An entry was queued for the table. */
  appended(entry: ExecutionLogEntry): void {
    if (this.stale) return;
    let run = this.runs.get(entry.runId);
    if (run === undefined) {
      run = { runId: entry.runId, started: false, ended: false };
      this.runs.set(entry.runId, run);
    }
    if (entry.type === 'RUN_STARTED') run.started = true;
    else if (RUN_END_TYPES.has(entry.type)) run.ended = true;
  }

  /** The map may no longer be what the table holds: it is read again at the next trim. */
  invalidate(): void {
    this.stale = true;
    this.runs.clear();
  }

  /** The runs a trim drops now (`summaryRunsToDrop`), with everything queued already written. */
  toDrop(retention: LogRetentionOptions): Set<string> {
    if (this.stale) {
      for (const run of this.load()) this.runs.set(run.runId, { ...run });
      this.stale = false;
    }
    return summaryRunsToDrop([...this.runs.values()], retention);
  }

  /** A trim deleted these runs' rows. */
  deleted(runIds: Iterable<string>): void {
    for (const runId of runIds) this.runs.delete(runId);
  }
}
