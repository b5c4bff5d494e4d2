import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-errors';
import type { SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';
import { ManualClock } from '../runtime/clock';
import { AdmissionScheduler, type DropReason, type Slot, type Ticket } from './admission-scheduler';
import { schedulerView } from './scheduler-view';

interface Started {
  id: string;
  slot: Slot | null;
  ticket: Ticket;
}

/** A scheduler on a manual clock that records grants and drops; ids are `r1`, `r2`, … */
function setup(limits: SchedulerLimitsPatch = {}) {
  const clock = new ManualClock(0);
  const s = new AdmissionScheduler({ clock, limits });
  const slots = new Map<string, Slot>();
  const granted: string[] = [];
  const dropped: Array<[string, DropReason]> = [];
  let n = 0;
  const start = (o: { session?: string; workflowId?: string; priority?: number; key?: string; weight?: number } = {}): Started => {
    let id = '';
    const r = s.admit(
      {
        session: o.session ?? 's',
        workflowId: o.workflowId ?? 'w',
        priority: o.priority ?? 0,
        fairnessKey: o.key,
        fairnessWeight: o.weight ?? 1,
        granted: (slot) => {
          granted.push(id);
          slots.set(id, slot);
        },
        dropped: (reason) => dropped.push([id, reason]),
      },
      () => `r${++n}`,
    );
    id = r.executionId;
    if (r.state === 'running') slots.set(id, r);
    return { id, slot: r.state === 'running' ? r : null, ticket: r };
  };
  const finish = (id: string) => slots.get(id)!.release();
  const refusal = (f: () => unknown): EngineError => {
    try {
      f();
    } catch (e) {
      if (e instanceof EngineError) return e;
      throw e;
    }
    throw new Error('expected a refusal');
  };
  return { clock, s, start, finish, granted, dropped, refusal, ids: () => n };
}

describe('ADM-01 scheduler, limits and queue', () => {
  it('with every cap off (the default) admits everything at once', () => {
    const { s, start } = setup();
    for (let i = 0; i < 500; i++) expect(start().slot).not.toBeNull();
    expect(s.runningCount).toBe(500);
    expect(s.limits).toMatchObject({ maxConcurrent: 0, onLimit: 'QUEUE', queueCapacity: 100, queueTimeoutMs: 0, shutdownTimeoutMs: 30_000 });
  });

  it('QUEUE: a start beyond max-concurrent waits and gets the slot freed by a finished run', () => {
    const { s, start, finish, granted } = setup({ maxConcurrent: 2 });
    const a = start();
    start();
    const c = start();
    expect(c.slot).toBeNull();
    expect(c.ticket.state).toBe('queued');
    expect(s.queuedCount).toBe(1);
    finish(a.id);
    expect(granted).toEqual([c.id]);
    expect(s.runningCount).toBe(2);
    finish(a.id); // release is idempotent
    expect(s.runningCount).toBe(2);
  });

  it('REJECT: a start beyond a cap is refused with 429 RATE_LIMITED and Retry-After, and gets no id', () => {
    const { s, start, refusal, ids } = setup({ maxConcurrent: 1, onLimit: 'REJECT' });
    start();
    const e = refusal(() => start());
    expect(e).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect(e.message).toContain('max-concurrent 1');
    expect(ids()).toBe(1);
    expect(s.rejectedCounts().limit).toBe(1);
  });

  it('refuses beyond the queue capacity (queue_full) and the per-workflow queue capacity (workflow_queue_full)', () => {
    const { s, start, refusal } = setup({ maxConcurrent: 1, queueCapacity: 3, queueCapacityPerWorkflow: 2 });
    start();
    start();
    start();
    expect(refusal(() => start()).code).toBe('QUEUE_FULL');
    expect(s.rejectedCounts().workflow_queue_full).toBe(1);
    start({ workflowId: 'other' });
    expect(refusal(() => start({ workflowId: 'third' })).code).toBe('QUEUE_FULL');
    expect(s.rejectedCounts().queue_full).toBe(1);
  });

  it('a queue capacity of 0 refuses every start that does not fit', () => {
    const { start, refusal } = setup({ maxConcurrent: 1, queueCapacity: 0 });
    start();
    expect(refusal(() => start()).code).toBe('QUEUE_FULL');
  });

  it('per-workflow and per-session caps hold only their own starts; others pass them', () => {
    const { s, start, finish, granted } = setup({ maxConcurrentPerWorkflow: 1, maxConcurrentPerSession: 2 });
    const a1 = start({ workflowId: 'a' });
    const a2 = start({ workflowId: 'a' });
    expect(a2.slot).toBeNull();
    expect(start({ workflowId: 'b' }).slot).not.toBeNull();
    const c = start({ workflowId: 'c' });
    expect(c.slot).toBeNull(); // session s holds 2
    expect(start({ session: 'other', workflowId: 'c' }).slot).not.toBeNull();
    expect(s.blockersOf(s.queued()[0]!)).toEqual([
      { cap: 'max-concurrent-per-workflow', limit: 1, scope: 's/a' },
      { cap: 'max-concurrent-per-session', limit: 2, scope: 's' },
    ]);
    finish(a1.id);
    expect(granted).toEqual([a2.id]);
  });

  it('admits by priority (higher first), then the session with the fewest running, then arrival', () => {
    const { start, finish, granted } = setup({ maxConcurrent: 1 });
    const first = start({ session: 'busy' });
    const low = start({ session: 'busy', priority: 0 });
    const high = start({ session: 'busy', priority: 5 });
    const mid = start({ session: 'busy', priority: 1 });
    const other = start({ session: 'quiet', priority: 1 });
    const mid2 = start({ session: 'busy', priority: 1 });
    finish(first.id);
    for (let i = 0; i < 4; i++) finish(granted[i]!);
    expect(granted).toEqual([high.id, mid.id, other.id, mid2.id, low.id]);
  });

  it('a busy session cannot starve another: with both backlogged they alternate', () => {
    const { start, finish, granted } = setup({ maxConcurrent: 1 });
    const first = start({ session: 'busy' });
    for (let i = 0; i < 50; i++) start({ session: 'busy' });
    for (let i = 0; i < 5; i++) start({ session: 'quiet' });
    finish(first.id);
    for (let i = 0; i < 10; i++) finish(granted[i]!);
    const sessions = granted.slice(0, 10).map((id) => Number(id.slice(1)) > 51);
    expect(sessions).toEqual([false, true, false, true, false, true, false, true, false, true]);
  });

  it('a start waiting longer than queue-timeout ends (queue_timeout) without running; virtual time', () => {
    const { s, clock, start, finish, dropped, granted } = setup({ maxConcurrent: 1, queueTimeoutMs: 1000 });
    const a = start();
    const b = start();
    clock.advance(400);
    const c = start();
    clock.advance(599);
    expect(dropped).toEqual([]);
    clock.advance(1);
    expect(dropped).toEqual([[b.id, 'queue_timeout']]);
    clock.advance(399);
    expect(dropped).toHaveLength(1);
    finish(a.id);
    expect(granted).toEqual([c.id]);
    clock.advance(10_000);
    expect(dropped).toHaveLength(1);
    expect(s.rejectedCounts().queue_timeout).toBe(1);
  });

  it('a limit change applies at once: a raised cap admits waiting starts; a new timeout counts from arrival', () => {
    const { s, clock, start, granted, dropped } = setup({ maxConcurrent: 1 });
    start();
    const b = start();
    const c = start();
    clock.advance(5000);
    s.setLimits({ queueTimeoutMs: 6000 });
    s.setLimits({ maxConcurrent: 2 });
    expect(granted).toEqual([b.id]);
    clock.advance(1000);
    expect(dropped).toEqual([[c.id, 'queue_timeout']]);
  });

  it('moves a waiting start to another priority, keeping its arrival', () => {
    const { s, start } = setup({ maxConcurrent: 1 });
    start();
    const a = start();
    const b = start();
    const c = start();
    expect(s.setPriority(c.ticket, 3)).toBe(1);
    expect(s.queued().map((e) => e.executionId)).toEqual([c.id, a.id, b.id]);
    expect(s.setPriority(c.ticket, 0)).toBe(3);
    expect(s.queued().map((e) => e.executionId)).toEqual([a.id, b.id, c.id]);
    s.withdraw(a.ticket);
    expect(s.setPriority(a.ticket, 1)).toBeNull();
    expect(s.withdraw(a.ticket)).toBe(false);
  });

  it('shutdown refuses the queued starts and every new one (shutdown), and admits nothing more', () => {
    const { s, start, finish, dropped, refusal } = setup({ maxConcurrent: 1 });
    const a = start();
    const b = start();
    s.close();
    expect(dropped).toEqual([[b.id, 'shutdown']]);
    expect(refusal(() => start())).toMatchObject({ code: 'UNAVAILABLE', retryAfterSeconds: undefined });
    finish(a.id);
    expect(s.runningCount).toBe(0);
    expect(s.rejectedCounts()).toEqual({ shutdown: 2, limit: 0, queue_full: 0, workflow_queue_full: 0, queue_timeout: 0, not_leader: 0 });
  });

  it('a standby refuses every start (not_leader)', () => {
    const s = new AdmissionScheduler({ clock: new ManualClock(), isLeader: () => false });
    const request = { session: 's', workflowId: 'w', priority: 0, fairnessWeight: 1, granted: () => undefined, dropped: () => undefined };
    expect(() => s.admit(request, () => 'x')).toThrow(/standby/);
    expect(s.rejectedCounts().not_leader).toBe(1);
  });

  it('a grant whose callback throws frees the slot for the next start', () => {
    const clock = new ManualClock();
    const errors: unknown[] = [];
    const s = new AdmissionScheduler({ clock, limits: { maxConcurrent: 1 }, onCallbackError: (e) => errors.push(e) });
    const base = { session: 's', workflowId: 'w', priority: 0, fairnessWeight: 1, dropped: () => undefined };
    const first = s.admit({ ...base, granted: () => undefined }, () => 'a');
    s.admit(
      {
        ...base,
        granted: () => {
          throw new Error('boom');
        },
      },
      () => 'b',
    );
    let third: Slot | null = null;
    s.admit({ ...base, granted: (slot) => (third = slot) }, () => 'c');
    first.release();
    expect(errors).toHaveLength(1);
    expect(third).not.toBeNull();
    expect(s.runningCount).toBe(1);
  });

  it('explains every waiting start: position, how many are ahead, and the cap that holds it', () => {
    const { s, start } = setup({ maxConcurrent: 1 });
    start();
    start({ priority: 0 });
    start({ priority: 5 });
    start({ priority: 1 });
    const view = schedulerView(s, 10);
    expect(view.queued.map((q) => [q.priority, q.position, q.ahead, q.reason])).toEqual([
      [5, 1, 0, 'waiting for a slot (max-concurrent 1)'],
      [1, 2, 1, 'waiting for a slot (max-concurrent 1)'],
      [0, 3, 2, 'waiting for a slot (max-concurrent 1)'],
    ]);
    expect(view.metrics).toMatchObject({ running: 1, queued: 3 });
    expect(view.byWorkflow).toEqual([{ session: 's', workflowId: 'w', running: 1, queued: 3 }]);
    expect(view.bySession).toEqual([{ session: 's', running: 1, queued: 3 }]);
    expect(schedulerView(s, 2)).toMatchObject({ queuedTruncated: true });
  });
});
