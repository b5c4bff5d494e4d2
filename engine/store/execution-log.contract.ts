import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionLog, ExecutionLogEntry, LogRetentionOptions } from './execution-log';

/** One storage place (a folder, a database file) a log can be opened on, again and again. */
export interface LogStorage {
  /** Opens a log on this storage; a durable one finds what an earlier log wrote. */
  open(retention?: Partial<LogRetentionOptions>): Promise<ExecutionLog>;
  /** False for the memory log: nothing survives reopening. */
  readonly durable: boolean;
}

const entry = (runId: string, type: ExecutionLogEntry['type'], status: string, at: number, extra: Partial<ExecutionLogEntry> = {}): ExecutionLogEntry => ({
  runId,
  type,
  status,
  actor: 'engine',
  at,
  ...extra,
});

/** Lets queued writes and scheduled trims run (no time passes). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** A finished run: started, one node, finished. */
const finishedRun = (runId: string, at: number): ExecutionLogEntry[] => [
  entry(runId, 'RUN_STARTED', 'PENDING', at, { data: { session: 's', workflowId: 'w', payload: { n: at } } }),
  entry(runId, 'NODE_FINISHED', 'SUCCESS', at, { data: { nodeId: 'a' } }),
  entry(runId, 'RUN_FINISHED', 'SUCCESS', at),
];

/** The one contract every ExecutionLog implementation passes (DUR-01, CTL-01 audit). */
export function executionLogContract(name: string, makeStorage: () => Promise<LogStorage>): void {
  const opened: ExecutionLog[] = [];
  const open = async (storage: LogStorage, retention?: Partial<LogRetentionOptions>): Promise<ExecutionLog> => {
    const log = await storage.open(retention);
    opened.push(log);
    return log;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close().catch(() => undefined)));
  });

  describe(`DUR-01 execution log contract: ${name}`, () => {
    it('keeps every entry in append order with its data (JSON) and serves one run oldest first', async () => {
      const log = await open(await makeStorage());
      const all = [
        ...finishedRun('r1', 1),
        entry('r2', 'RUN_STARTED', 'QUEUED', 2, { data: { payload: { deep: [1, { x: 'y' }] } } }),
        entry('r1', 'RUN_RESUMED', 'ABORTED', 3, { data: { newExecutionId: 'r3' } }),
      ];
      for (const e of all) log.append(e);
      await log.flush();
      expect(await log.entries()).toEqual(all);
      expect(await log.runEntries('r1')).toEqual([...finishedRun('r1', 1), all[4]]);
      expect(await log.runEntries('nope')).toEqual([]);
    });

    it('sees an append at once, before any flush', async () => {
      const log = await open(await makeStorage());
      log.append(entry('r', 'IDEMPOTENCY_KEY', 'k', 1, { data: { key: 'k' } }));
      expect(await log.runEntries('r')).toHaveLength(1);
    });

    it('answers audit queries with control rows only, newest first, filtered and paged, with the total', async () => {
      const log = await open(await makeStorage());
      log.append(entry('r1', 'RUN_STARTED', 'PENDING', 1));
      log.append(entry('r1', 'CONTROL_APPLIED', 'PauseWorkflow', 2, { actor: 'ui' }));
      log.append(entry('r2', 'CONTROL_REJECTED', 'Skip: no', 3, { actor: 'cli' }));
      log.append(entry('r1', 'CONTROL_APPLIED', 'ResumeWorkflow', 4, { actor: 'ui' }));
      const all = await log.query({ offset: 0, limit: 100 });
      expect(all.total).toBe(3);
      expect(all.entries.map((e) => e.status)).toEqual(['ResumeWorkflow', 'Skip: no', 'PauseWorkflow']);
      expect(all.entries[0]).toEqual({ runId: 'r1', type: 'CONTROL_APPLIED', status: 'ResumeWorkflow', actor: 'ui', at: 4 });
      expect((await log.query({ executionId: 'r1', offset: 0, limit: 100 })).total).toBe(2);
      expect((await log.query({ actor: 'cli', offset: 0, limit: 100 })).entries.map((e) => e.runId)).toEqual(['r2']);
      expect((await log.query({ type: 'CONTROL_REJECTED', offset: 0, limit: 100 })).total).toBe(1);
      expect(await log.query({ offset: 1, limit: 1 })).toEqual({ entries: [expect.objectContaining({ status: 'Skip: no' })], total: 3 });
    });

    it('keeps the newest retained-runs runs and never a run without an end', async () => {
      const log = await open(await makeStorage(), { retainedRuns: 2, compactAfter: 4 });
      log.append(entry('open', 'RUN_STARTED', 'PENDING', 0));
      for (let i = 1; i <= 5; i++) for (const e of finishedRun(`r${i}`, i)) log.append(e);
      log.append(entry('late', 'RUN_STARTED', 'PENDING', 9));
      await log.flush();
      await settle();
      const runs = [...new Set((await log.entries()).map((e) => e.runId))];
      expect(runs).toEqual(['open', 'r4', 'r5', 'late']);
    });

    it("keeps the scheduler's newest recorded limits however many rows follow", async () => {
      const log = await open(await makeStorage(), { retainedRuns: 1, compactAfter: 50 });
      log.append(entry('scheduler', 'CONTROL_APPLIED', 'SetLimits', 1, { data: { limits: { maxConcurrent: 3 } } }));
      for (let i = 0; i < 260; i++) log.append(entry('scheduler', 'CONTROL_REJECTED', 'SetLimits: no', 2 + i));
      await log.flush();
      await settle();
      const rows = await log.runEntries('scheduler');
      expect(rows.length).toBeLessThanOrEqual(201 + 50); // trimmed every compactAfter appends
      expect(rows.find((r) => r.data !== undefined)?.data).toEqual({ limits: { maxConcurrent: 3 } });
    });

    it('flush resolves once written; a durable log finds everything again after reopening', async () => {
      const storage = await makeStorage();
      const first = await open(storage, { retainedRuns: 3, compactAfter: 5 });
      for (let i = 1; i <= 6; i++) for (const e of finishedRun(`r${i}`, i)) first.append(e);
      first.append(entry('open', 'RUN_STARTED', 'RUNNING', 7, { data: { payload: {} } }));
      await first.flush();
      await settle();
      const before = await first.entries();
      await first.close();
      const again = await open(storage, { retainedRuns: 3, compactAfter: 5 });
      if (storage.durable) expect(await again.entries()).toEqual(before);
      else expect(await again.entries()).toEqual([]);
    });
  });
}
