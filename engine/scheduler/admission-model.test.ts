import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineError } from '../engine-errors';
import type { SchedulerLimits, SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';
import { ManualClock } from '../runtime/clock';
import { AdmissionScheduler, type Slot, type Ticket } from './admission-scheduler';
import { MAX_EMPTY_LEVELS } from './fair-queue';

// A reference model of admission, written the plain way (arrays, linear scans), against which the real
// scheduler (heaps, intrusive lists, one timeout timer) runs random interleavings of commands.

interface MEntry {
  id: string;
  seq: number;
  priority: number;
  session: string;
  wf: string;
  key: string;
  weight: number;
  enqueuedAt: number;
}
interface MLevel {
  vtime: number;
  pass: Map<string, number>;
}
interface Model {
  limits: SchedulerLimits;
  now: number;
  seq: number;
  running: Array<{ id: string; session: string; wf: string }>;
  queued: MEntry[];
  levels: Map<number, MLevel>;
  grants: string[];
  drops: string[];
}

interface Real {
  clock: ManualClock;
  s: AdmissionScheduler;
  slots: Map<string, Slot>;
  tickets: Map<string, Ticket>;
  grants: string[];
  drops: string[];
  everGranted: Set<string>;
  violations: string[];
}

const fitsModel = (m: Model, e: { session: string; wf: string }) =>
  (m.limits.maxConcurrent === 0 || m.running.length < m.limits.maxConcurrent) &&
  (m.limits.maxConcurrentPerWorkflow === 0 || m.running.filter((r) => r.session === e.session && r.wf === e.wf).length < m.limits.maxConcurrentPerWorkflow) &&
  (m.limits.maxConcurrentPerSession === 0 || m.running.filter((r) => r.session === e.session).length < m.limits.maxConcurrentPerSession);

function join(m: Model, e: MEntry): void {
  const level = m.levels.get(e.priority) ?? { vtime: 0, pass: new Map<string, number>() };
  m.levels.set(e.priority, level);
  const idle = !m.queued.some((q) => q.priority === e.priority && q.key === e.key);
  if (idle) level.pass.set(e.key, Math.max(level.pass.get(e.key) ?? 0, level.vtime));
  m.queued.push(e);
}

function leave(m: Model, e: MEntry, admitted: boolean): void {
  const level = m.levels.get(e.priority)!;
  if (admitted) {
    const pass = level.pass.get(e.key)!;
    level.vtime = Math.max(level.vtime, pass);
    const weight = Math.min(...m.queued.filter((q) => q.priority === e.priority && q.key === e.key).map((q) => q.weight));
    level.pass.set(e.key, pass + 1 / weight);
  }
  m.queued.splice(m.queued.indexOf(e), 1);
  // An emptied level keeps its virtual times until more than MAX_EMPTY_LEVELS empty ones pile up.
  const empty = [...m.levels.keys()].filter((p) => !m.queued.some((q) => q.priority === p));
  if (empty.length > MAX_EMPTY_LEVELS) for (const p of empty) m.levels.delete(p);
}

/** Priority levels high to low; keys by (virtual time, oldest head); the first start a cap does not hold. */
function pick(m: Model): MEntry | null {
  for (const p of [...m.levels.keys()].sort((a, b) => b - a)) {
    const level = m.levels.get(p)!;
    const entries = m.queued.filter((e) => e.priority === p);
    if (entries.length === 0) continue;
    const head = (k: string) => Math.min(...entries.filter((e) => e.key === k).map((e) => e.seq));
    const keys = [...new Set(entries.map((e) => e.key))].sort((a, b) => level.pass.get(a)! - level.pass.get(b)! || head(a) - head(b));
    for (const k of keys) {
      const found = entries.filter((e) => e.key === k && fitsModel(m, e)).sort((a, b) => a.seq - b.seq)[0];
      if (found) return found;
    }
  }
  return null;
}

function pumpModel(m: Model): void {
  for (let next = pick(m); next; next = pick(m)) {
    leave(m, next, true);
    m.running.push({ id: next.id, session: next.session, wf: next.wf });
    m.grants.push(next.id);
  }
}

function checkCaps(r: Real, session: string, wf: string): void {
  const l = r.s.limits;
  const view = { total: r.s.runningCount, wf: r.s.runningOfWorkflow(session, wf), session: r.s.runningOfSession(session) };
  if (
    (l.maxConcurrent && view.total > l.maxConcurrent) ||
    (l.maxConcurrentPerWorkflow && view.wf > l.maxConcurrentPerWorkflow) ||
    (l.maxConcurrentPerSession && view.session > l.maxConcurrentPerSession)
  ) {
    r.violations.push(`granted over a cap: ${JSON.stringify(view)} ${JSON.stringify(l)}`);
  }
}

type Cmd = fc.Command<Model, Real>;
const same = (m: Model, r: Real) => {
  expect(r.grants).toEqual(m.grants);
  expect([...r.drops].sort()).toEqual([...m.drops].sort());
  expect(r.s.queued().map((e) => e.executionId)).toEqual(orderOf(m));
  expect(r.violations).toEqual([]);
  expect(r.s.runningCount).toBe(m.running.length);
};

/** The model's admission order of everything queued (as if slots were endless and caps off). */
function orderOf(m: Model): string[] {
  const copy: Model = {
    ...m,
    limits: { ...m.limits, maxConcurrent: 0, maxConcurrentPerWorkflow: 0, maxConcurrentPerSession: 0 },
    queued: [...m.queued],
    running: [],
    levels: new Map([...m.levels].map(([p, l]) => [p, { vtime: l.vtime, pass: new Map(l.pass) }])),
    grants: [],
  };
  pumpModel(copy);
  return copy.grants;
}

class Start implements Cmd {
  constructor(readonly o: { session: string; wf: string; priority: number; key: string | undefined; weight: number }) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const id = `r${++m.seq}`;
    const { session, wf, priority, key, weight } = this.o;
    let outcome: string;
    try {
      const res = r.s.admit(
        {
          session,
          workflowId: wf,
          priority,
          fairnessKey: key,
          fairnessWeight: weight,
          granted: (slot) => {
            if (r.everGranted.has(id)) r.violations.push(`admitted twice: ${id}`);
            r.everGranted.add(id);
            checkCaps(r, session, wf);
            r.slots.set(id, slot);
            r.grants.push(id);
          },
          dropped: () => r.drops.push(id),
        },
        () => id,
      );
      r.tickets.set(id, res);
      if (res.state === 'running') {
        r.everGranted.add(id);
        r.slots.set(id, res);
      }
      outcome = res.state === 'running' ? 'granted' : 'queued';
    } catch (e) {
      outcome = (e as EngineError).code;
    }
    const l = m.limits;
    const wfQueued = m.queued.filter((q) => q.session === session && q.wf === wf).length;
    let expected: string;
    if (fitsModel(m, { session, wf })) expected = 'granted';
    else if (l.onLimit === 'REJECT') expected = 'RATE_LIMITED';
    else if (m.queued.length >= l.queueCapacity || (l.queueCapacityPerWorkflow > 0 && wfQueued >= l.queueCapacityPerWorkflow)) expected = 'QUEUE_FULL';
    else expected = 'queued';
    if (expected === 'granted') m.running.push({ id, session, wf });
    if (expected === 'queued') join(m, { id, seq: m.seq, priority, session, wf, key: key ?? `session:${session}`, weight, enqueuedAt: m.now });
    if (expected !== 'granted' && expected !== 'queued') m.seq--; // a refused start gets no id
    expect(outcome).toBe(expected);
    same(m, r);
  }
  toString = () => `start(${JSON.stringify(this.o)})`;
}

class Finish implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.running.length > 0;
  run(m: Model, r: Real): void {
    const [gone] = m.running.splice(this.index % m.running.length, 1);
    r.slots.get(gone!.id)!.release();
    pumpModel(m);
    same(m, r);
  }
  toString = () => `finish(${this.index})`;
}

class Cancel implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.queued.length > 0;
  run(m: Model, r: Real): void {
    const e = [...m.queued].sort((a, b) => a.seq - b.seq)[this.index % m.queued.length]!;
    expect(r.s.withdraw(r.tickets.get(e.id)!)).toBe(true);
    leave(m, e, false);
    m.drops.push(e.id);
    same(m, r);
  }
  toString = () => `cancel(${this.index})`;
}

class SetPriority implements Cmd {
  constructor(
    readonly index: number,
    readonly priority: number,
  ) {}
  check = (m: Readonly<Model>) => m.queued.length > 0;
  run(m: Model, r: Real): void {
    const e = [...m.queued].sort((a, b) => a.seq - b.seq)[this.index % m.queued.length]!;
    const position = r.s.setPriority(r.tickets.get(e.id)!, this.priority);
    leave(m, e, false);
    join(m, { ...e, priority: this.priority });
    expect(position).toBe(orderOf(m).indexOf(e.id) + 1);
    same(m, r);
  }
  toString = () => `priority(${this.index}, ${this.priority})`;
}

class SetLimits implements Cmd {
  constructor(readonly patch: SchedulerLimitsPatch) {}
  check = () => true;
  run(m: Model, r: Real): void {
    r.s.setLimits(this.patch);
    m.limits = { ...m.limits, ...this.patch };
    pumpModel(m);
    same(m, r);
  }
  toString = () => `limits(${JSON.stringify(this.patch)})`;
}

class Advance implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    r.clock.advance(this.ms);
    m.now += this.ms;
    const timeout = m.limits.queueTimeoutMs;
    if (timeout > 0) {
      for (const e of m.queued.filter((q) => q.enqueuedAt + timeout <= m.now)) {
        leave(m, e, false);
        m.drops.push(e.id);
      }
    }
    same(m, r);
  }
  toString = () => `advance(${this.ms})`;
}

const start = fc
  .record({
    session: fc.constantFrom('s1', 's2', 's3'),
    wf: fc.constantFrom('a', 'b'),
    priority: fc.integer({ min: 0, max: 2 }),
    key: fc.constantFrom(undefined, 'k1', 'k2'),
    weight: fc.constantFrom(0.5, 1, 2, 4),
  })
  .map((o) => new Start(o));
const finish = fc.nat().map((i) => new Finish(i));
// Starts and finishes drawn more often than the rest, so queues build up and drain.
const commands = [
  start,
  start,
  start,
  finish,
  finish,
  fc.nat().map((i) => new Cancel(i)),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 })).map(([i, p]) => new SetPriority(i, p)),
  fc
    .record(
      {
        maxConcurrent: fc.integer({ min: 0, max: 4 }),
        maxConcurrentPerWorkflow: fc.integer({ min: 0, max: 2 }),
        maxConcurrentPerSession: fc.integer({ min: 0, max: 3 }),
        onLimit: fc.constantFrom('QUEUE' as const, 'QUEUE' as const, 'REJECT' as const),
        queueCapacity: fc.integer({ min: 0, max: 12 }),
        queueCapacityPerWorkflow: fc.integer({ min: 0, max: 6 }),
        queueTimeoutMs: fc.constantFrom(0, 0, 100, 1000),
      },
      { requiredKeys: [] },
    )
    .map((p) => new SetLimits(p)),
  fc.integer({ min: 0, max: 700 }).map((ms) => new Advance(ms)),
];

describe('ADM-01 scheduler against a reference model (fast-check)', () => {
  it("never admits over a cap, never loses or double-admits a start, and admits in the model's order", () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 200 }), (cmds) => {
        const initial: SchedulerLimitsPatch = { maxConcurrent: 2 };
        const clock = new ManualClock(0);
        const real: Real = {
          clock,
          s: new AdmissionScheduler({ clock, limits: initial }),
          slots: new Map(),
          tickets: new Map(),
          grants: [],
          drops: [],
          everGranted: new Set(),
          violations: [],
        };
        const limits = real.s.limits;
        const model: Model = { limits, now: 0, seq: 0, running: [], queued: [], levels: new Map(), grants: [], drops: [] };
        fc.modelRun(() => ({ model, real }), cmds);
        // Nothing lost: every id handed out is running, waiting, finished or dropped.
        const accounted = new Set([...real.everGranted, ...real.drops, ...real.s.queued().map((e) => e.executionId)]);
        expect(accounted.size).toBe(model.seq);
      }),
      { numRuns: 1000 },
    );
  });
});
