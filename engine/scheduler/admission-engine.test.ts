import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StudioApiError } from '../../shared/api/errors';
import { EngineError } from '../engine-errors';
import type { SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';
import type { StudioEvent } from '../../shared/events/events';
import { isTerminal } from '../../shared/status/status';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';
import { MemorySchedulerLog } from './scheduler-log';

/** An engine whose `hold` node waits until the test releases that run; counts RUNNING top-level runs from events. */
function setup(limits: SchedulerLimitsPatch, extra: { log?: MemorySchedulerLog } = {}) {
  const held = new Map<string, () => void>();
  const hold = processor('HOLD', (m, ctx) => new Promise((resolve) => held.set(ctx.executionId, () => resolve([{ payload: m.payload }]))));
  const h = harness([hold, recorder().plugin], { scheduler: { limits, log: extra.log } });
  let running = 0;
  let maxRunning = 0;
  const runningEvents = new Map<string, number>();
  h.engine.subscribe((e: StudioEvent) => {
    if (e.type !== 'EXECUTION_STATUS') return;
    if (e.status === 'RUNNING') {
      running++;
      maxRunning = Math.max(maxRunning, running);
      runningEvents.set(e.executionId, (runningEvents.get(e.executionId) ?? 0) + 1);
    } else if (isTerminal(e.status) && runningEvents.has(e.executionId)) running--;
  });
  const start = (payload: Record<string, unknown> = {}, idempotencyKey?: string) =>
    h.engine.startRun({ session: 'test', workflowId: 'held', payload, idempotencyKey });
  const release = async (id: string) => {
    held.get(id)!();
    held.delete(id);
    await h.settle();
  };
  return {
    ...h,
    held,
    start,
    release,
    stats: () => ({ maxRunning, runningEvents }),
    save: () => h.engine.saveWorkflow('test', chain('held', [{ nodeId: 'h', type: 'HOLD' }])),
  };
}

const statusOf = (events: StudioEvent[], id: string) =>
  events.filter((e) => e.type === 'EXECUTION_STATUS' && e.executionId === id).map((e) => (e as { status: string }).status);

describe('ADM-01 admission through the engine', () => {
  it('a start that does not fit is QUEUED with an id (PENDING, QUEUED, later RUNNING) and visible in runs.list', async () => {
    const t = setup({ maxConcurrent: 1 });
    await t.save();
    const a = (await t.start()).executionId;
    const b = (await t.start()).executionId;
    await t.settle();
    expect(statusOf(t.events, b)).toEqual(['PENDING', 'QUEUED']);
    expect(t.engine.listRuns({ status: 'QUEUED', limit: 10 }).map((r) => r.executionId)).toEqual([b]);
    expect(t.engine.getRun(b).nodes.map((n) => n.nodeId)).toEqual(['t', 'h', 'out']);
    await t.release(a);
    expect(statusOf(t.events, b)).toEqual(['PENDING', 'QUEUED', 'RUNNING']);
    await t.release(b);
    expect(await t.engine.waitForRun(b)).toBe('SUCCESS');
  });

  it('1,000 concurrent starts at cap 8 over 100 seeds: never more than 8 running; accepted + refused = 1,000; none lost or duplicated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom('QUEUE' as const, 'REJECT' as const),
        fc.integer({ min: 0, max: 1200 }),
        async (seed, onLimit, queueCapacity) => {
          const t = setup({ maxConcurrent: 8, onLimit, queueCapacity });
          await t.save();
          const results = await Promise.allSettled(Array.from({ length: 1000 }, () => t.start()));
          const accepted = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.executionId] : []));
          const refused = results.filter((r) => r.status === 'rejected');
          expect(accepted.length + refused.length).toBe(1000);
          for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(EngineError);
          expect(new Set(accepted).size).toBe(accepted.length);
          const expectedAccepted = onLimit === 'REJECT' ? 8 : Math.min(1000, 8 + queueCapacity);
          expect(accepted.length).toBe(expectedAccepted);
          let random = seed;
          await t.settle();
          while (t.held.size > 0) {
            const ids = [...t.held.keys()];
            random = (random * 1103515245 + 12345) % 2 ** 31;
            await t.release(ids[random % ids.length]!);
          }
          const statuses = await Promise.all(accepted.map((id) => t.engine.waitForRun(id)));
          expect(statuses.every((s) => s === 'SUCCESS')).toBe(true);
          const { maxRunning, runningEvents } = t.stats();
          expect(maxRunning).toBeLessThanOrEqual(8);
          expect([...runningEvents.values()].every((n) => n === 1)).toBe(true);
          expect(runningEvents.size).toBe(accepted.length);
          // Refused starts were never announced: the only runs in the feed are the accepted ones.
          expect(new Set(t.events.map((e) => e.executionId)).size).toBe(accepted.length);
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);

  it('queue limit Q with Q + cap + 50 starts: exactly 50 refused (429 QUEUE_FULL, Retry-After) and none of them announced', async () => {
    const t = setup({ maxConcurrent: 8, queueCapacity: 20 });
    await t.save();
    const results = await Promise.allSettled(Array.from({ length: 78 }, () => t.start()));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as EngineError);
    expect(refused).toHaveLength(50);
    for (const e of refused) expect(e).toMatchObject({ code: 'QUEUE_FULL', retryAfterSeconds: 1 });
    expect(new Set(t.events.map((e) => e.executionId)).size).toBe(28);
    const view = await t.engine.schedulerView();
    expect(view.metrics).toMatchObject({ running: 8, queued: 20, rejected: expect.objectContaining({ queue_full: 50 }) });
  });

  it('100 parallel starts with one idempotency key, queued behind a full cap: 1 run, 100 identical ids', async () => {
    const t = setup({ maxConcurrent: 1 });
    await t.save();
    await t.start();
    const ids = await Promise.all(Array.from({ length: 100 }, () => t.start({}, 'same-key')));
    expect(new Set(ids.map((r) => r.executionId)).size).toBe(1);
    expect((await t.engine.schedulerView()).metrics.queued).toBe(1);
  });

  it('a refused start is not remembered under its idempotency key: a retry once there is room starts it', async () => {
    const t = setup({ maxConcurrent: 1, onLimit: 'REJECT' });
    await t.save();
    const first = (await t.start()).executionId;
    await expect(t.start({}, 'k')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await t.release(first);
    await expect(t.start({}, 'k')).resolves.toMatchObject({ executionId: expect.any(String) });
  });

  it('a queued start that waits longer than the queue timeout ends TIMED_OUT without running (virtual time)', async () => {
    const t = setup({ maxConcurrent: 1, queueTimeoutMs: 5000 });
    await t.save();
    await t.start();
    const b = (await t.start()).executionId;
    await t.clock.advanceAsync(5000);
    expect(statusOf(t.events, b)).toEqual(['PENDING', 'QUEUED', 'TIMED_OUT']);
    expect(t.engine.getRun(b).error).toMatchObject({ code: 'QUEUE_TIMEOUT' });
    expect(await t.engine.waitForRun(b)).toBe('TIMED_OUT');
    expect((await t.engine.schedulerView()).metrics.rejected.queue_timeout).toBe(1);
  });

  it('cancelling a queued start ends it CANCELLED without running', async () => {
    const t = setup({ maxConcurrent: 1 });
    await t.save();
    await t.start();
    const b = (await t.start()).executionId;
    t.engine.cancelRun(b);
    expect(statusOf(t.events, b)).toEqual(['PENDING', 'QUEUED', 'CANCELLED']);
    expect(t.engine.hasLiveRuns('test')).toBe(true);
  });

  it('shutdown refuses queued starts and new ones, gives running runs the shutdown timeout, then cancels them (virtual time)', async () => {
    const t = setup({ maxConcurrent: 2, shutdownTimeoutMs: 10_000 });
    await t.save();
    const a = (await t.start()).executionId;
    const b = (await t.start()).executionId;
    const c = (await t.start()).executionId;
    await t.settle();
    const closing = t.engine.shutdown();
    await t.settle();
    expect(statusOf(t.events, c)).toEqual(['PENDING', 'QUEUED', 'CANCELLED']);
    expect(t.engine.getRun(c).error).toMatchObject({ code: 'SHUTDOWN' });
    await expect(t.start()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await t.release(a); // finishes within the grace period
    expect(await t.engine.waitForRun(a)).toBe('SUCCESS');
    await t.clock.advanceAsync(10_000);
    await closing;
    expect(t.engine.getRun(b).status).toBe('CANCELLED');
    expect((await t.engine.schedulerView()).metrics.rejected.shutdown).toBe(2);
  });

  it("a sub-workflow child runs on its parent's slot (never queued behind it)", async () => {
    const rec = recorder('REC2');
    const h = harness([rec.plugin, recorder().plugin], { scheduler: { limits: { maxConcurrent: 1 } } });
    await h.engine.saveWorkflow('test', chain('child', [], 'REC2'));
    const id = await h.run(chain('parent', [{ nodeId: 'sub', type: 'SUB_WORKFLOW', config: { workflowId: 'child' } }]));
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(h.events.some((e) => e.type === 'EXECUTION_STATUS' && e.status === 'QUEUED')).toBe(false);
  });
});

describe('ADM-03 live limit and priority changes', () => {
  it('raising a cap admits waiting starts at once; the change is logged under run id scheduler and re-applied at startup', async () => {
    const log = new MemorySchedulerLog();
    const t = setup({ maxConcurrent: 1 }, { log });
    await t.save();
    for (let i = 0; i < 3; i++) await t.start();
    expect(await t.engine.setSchedulerLimits({ maxConcurrent: 3 }, 'key:ops')).toMatchObject({ maxConcurrent: 3 });
    await t.settle();
    expect((await t.engine.schedulerView()).metrics).toMatchObject({ running: 3, queued: 0 });
    expect(log.records).toEqual([expect.objectContaining({ type: 'SetLimits', runId: 'scheduler', actor: 'key:ops', patch: { maxConcurrent: 3 } })]);
    const restarted = setup({ maxConcurrent: 1, queueCapacity: 7 }, { log });
    expect((await restarted.engine.schedulerView()).limits).toMatchObject({ maxConcurrent: 3, queueCapacity: 100 });
  });

  it('moves a QUEUED start to another priority; refuses a run that is not waiting (CONFLICT) or unknown (NOT_FOUND)', async () => {
    const t = setup({ maxConcurrent: 1 });
    await t.save();
    const a = (await t.start()).executionId;
    const b = (await t.start({ 'yukta.priority': 0 })).executionId;
    const c = (await t.start({ 'yukta.priority': 1 })).executionId;
    expect(await t.engine.setRunPriority(b, 9, 'ui:local')).toEqual({ executionId: b, priority: 9, position: 1 });
    expect((await t.engine.schedulerView()).queued.map((q) => q.executionId)).toEqual([b, c]);
    await expect(t.engine.setRunPriority(a, 1, 'ui:local')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(t.engine.setRunPriority('missing', 1, 'ui:local')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("a command gate (the reviewers' seam) can refuse a change before it is applied", async () => {
    const audited: string[] = [];
    const gate = {
      review: (cmd: { type: string }) => {
        if (cmd.type === 'SetLimits') throw new StudioApiError('FORBIDDEN', 'reviewer says no');
      },
      audit: (cmd: { type: string }, actor: string) => audited.push(`${cmd.type} by ${actor}`),
    };
    const h = harness([], { scheduler: { gate, limits: { maxConcurrent: 1 } } });
    await expect(h.engine.setSchedulerLimits({ maxConcurrent: 5 }, 'x')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await h.engine.schedulerView()).limits.maxConcurrent).toBe(1);
    expect(audited).toEqual([]);
  });
});
