import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionLogEntry, ExecutionLogType, LogRetentionOptions } from './execution-log';
import { retainEntries } from './log-retention';
import { RunSummaries } from './run-summaries';
import { openDatabase } from './sqlite/open-database';
import { SqliteExecutionLog } from './sqlite/sqlite-execution-log';
import { SqliteWriter } from './sqlite/sqlite-writer';

const entry = (runId: string, type: ExecutionLogType, at: number): ExecutionLogEntry => ({ runId, type, status: 'S', actor: 'engine', at });

/** Interleaved runs: most finish (or are aborted), every seventh never ends, some get a late entry after their end. */
function history(runs: number, from = 0): ExecutionLogEntry[] {
  const out: ExecutionLogEntry[] = [];
  for (let i = from; i < from + runs; i++) {
    out.push(entry(`r${i}`, 'RUN_STARTED', i));
    if (i > from) out.push(entry(`r${i - 1}`, 'NODE_FINISHED', i));
    if (i % 7 !== 3) out.push(entry(`r${i}`, i % 5 === 0 ? 'RUN_ABORTED' : 'RUN_FINISHED', i));
    if (i % 4 === 1) out.push(entry(`r${i - 1}`, 'CONTROL_APPLIED', i));
  }
  return out;
}

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
});

async function sqliteLog(file: string, retention: Partial<LogRetentionOptions>) {
  const db = openDatabase(file);
  const writer = new SqliteWriter(db);
  closers.push(() => db.close());
  return new SqliteExecutionLog(writer, retention);
}

describe('DUR-01 RunSummaries: the runs a trim drops, kept in step with the appends', () => {
  it('drops what retention over every entry says, trim after trim, and again after reopening (read from the table)', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'yukta-summaries-')), 'yukta.db');
    const retention = { retainedRuns: 5, compactAfter: 1_000_000 };
    const first = await sqliteLog(file, retention);
    let reference: ExecutionLogEntry[] = [];
    const appendAndTrim = async (log: SqliteExecutionLog, entries: ExecutionLogEntry[]) => {
      for (const e of entries) log.append(e);
      log.trim();
      reference = retainEntries([...reference, ...entries], { ...retention });
      expect(await log.entries()).toEqual(reference);
    };
    await appendAndTrim(first, history(12));
    await appendAndTrim(first, history(9, 12));
    const again = await sqliteLog(file, retention);
    await appendAndTrim(again, history(10, 21));
    await appendAndTrim(again, history(3, 31));
  });

  it('reads the table again after it was told the two may differ', () => {
    let loads = 0;
    const summaries = new RunSummaries(() => {
      loads++;
      return [{ runId: 'a', started: true, ended: true }];
    });
    summaries.appended(entry('ignored', 'RUN_STARTED', 1)); // before the first load: the table says
    expect([...summaries.toDrop({ retainedRuns: 0, compactAfter: 1 })]).toEqual(['a']);
    summaries.deleted(['a']);
    summaries.appended(entry('b', 'RUN_STARTED', 2));
    summaries.appended(entry('b', 'RUN_FINISHED', 3));
    expect([...summaries.toDrop({ retainedRuns: 0, compactAfter: 1 })]).toEqual(['b']);
    expect(loads).toBe(1);
    summaries.invalidate();
    expect([...summaries.toDrop({ retainedRuns: 0, compactAfter: 1 })]).toEqual(['a']);
    expect(loads).toBe(2);
  });
});
