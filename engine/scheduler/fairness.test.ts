import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../runtime/clock';
import { AdmissionScheduler, type Slot } from './admission-scheduler';
import { FairEntry, FairQueue } from './fair-queue';

/** Queues `counts[key]` starts per key (weights from `weights`) behind `cap` running ones, then admits `total`, releasing in a seeded order. */
function admitShares(options: { cap: number; total: number; keys: Record<string, { weight: number; backlog: number }>; seed?: number }): Map<string, number> {
  const clock = new ManualClock();
  const s = new AdmissionScheduler({ clock, limits: { maxConcurrent: options.cap, queueCapacity: 1_000_000 } });
  const running: Slot[] = [];
  const admitted = new Map<string, number>();
  let n = 0;
  const start = (key: string | undefined, weight: number, counted: boolean) => {
    const r = s.admit(
      {
        session: 'one-session',
        workflowId: 'w',
        priority: 0,
        fairnessKey: key,
        fairnessWeight: weight,
        granted: (slot) => {
          running.push(slot);
          if (counted && key) admitted.set(key, (admitted.get(key) ?? 0) + 1);
        },
        dropped: () => undefined,
      },
      () => `r${++n}`,
    );
    if (r.state === 'running') running.push(r);
  };
  for (let i = 0; i < options.cap; i++) start(undefined, 1, false);
  const keys = Object.entries(options.keys);
  const most = Math.max(...keys.map(([, k]) => k.backlog));
  for (let i = 0; i < most; i++) for (const [key, k] of keys) if (i < k.backlog) start(key, k.weight, true);
  let seed = options.seed ?? 1;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let done = 0; done < options.total; done++) {
    const i = Math.floor(random() * running.length);
    const [slot] = running.splice(i, 1);
    slot!.release();
  }
  return admitted;
}

describe('ADM-04 weighted fairness keys', () => {
  it('a weight-4 key gets 4x the admissions of a weight-1 key (4 ± 0.4 over 1,000 admissions)', () => {
    const shares = admitShares({ cap: 1, total: 1000, keys: { light: { weight: 1, backlog: 2000 }, heavy: { weight: 4, backlog: 2000 } } });
    expect((shares.get('heavy') ?? 0) + (shares.get('light') ?? 0)).toBe(1000);
    const ratio = shares.get('heavy')! / shares.get('light')!;
    expect(ratio).toBeGreaterThanOrEqual(3.6);
    expect(ratio).toBeLessThanOrEqual(4.4);
  });

  it('holds 4 ± 0.4 for any cap, release order and backlog sizes (both backlogged)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 1000, max: 3000 }),
        fc.integer({ min: 1000, max: 3000 }),
        (cap, seed, lightBacklog, heavyBacklog) => {
          const shares = admitShares({
            cap,
            total: 1000,
            seed,
            keys: { light: { weight: 1, backlog: lightBacklog }, heavy: { weight: 4, backlog: heavyBacklog } },
          });
          const ratio = shares.get('heavy')! / shares.get('light')!;
          return ratio >= 3.6 && ratio <= 4.4;
        },
      ),
      { numRuns: 30 },
    );
  });

  it('shares across three keys follow their weights (1 : 2 : 0.5)', () => {
    const shares = admitShares({
      cap: 2,
      total: 700,
      keys: { a: { weight: 1, backlog: 1000 }, b: { weight: 2, backlog: 1000 }, c: { weight: 0.5, backlog: 1000 } },
    });
    expect([shares.get('a'), shares.get('b'), shares.get('c')]).toEqual([200, 400, 100]);
  });

  it('is FIFO within a key, whichever session a start came from', () => {
    const q = new FairQueue<FairEntry>();
    const entries = [1, 2, 3, 4, 5].map((seq) => new FairEntry(seq, 0, 'k', 1));
    for (const e of [entries[2]!, entries[0]!, entries[4]!, entries[1]!, entries[3]!]) q.push(e);
    expect(q.ordered().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    const out: number[] = [];
    while (q.size) {
      const next = q.peek()!;
      q.admit(next);
      out.push(next.seq);
    }
    expect(out).toEqual([1, 2, 3, 4, 5]);
  });

  it('a key with mixed weights admits at its lowest weight while that start waits', () => {
    const q = new FairQueue<FairEntry>();
    let seq = 0;
    for (let i = 0; i < 8; i++) q.push(new FairEntry(++seq, 0, 'mixed', 4));
    q.push(new FairEntry(++seq, 0, 'mixed', 1)); // the last start of the key holds it at weight 1
    for (let i = 0; i < 20; i++) q.push(new FairEntry(++seq, 0, 'plain', 1));
    const first8 = q.ordered(8).map((e) => e.key);
    expect(first8.filter((k) => k === 'mixed')).toHaveLength(4);
    // The same backlog with one weight throughout gets 4 of every 5.
    const pure = new FairQueue<FairEntry>();
    seq = 0;
    for (let i = 0; i < 9; i++) pure.push(new FairEntry(++seq, 0, 'mixed', 4));
    for (let i = 0; i < 20; i++) pure.push(new FairEntry(++seq, 0, 'plain', 1));
    expect(pure.ordered(10).filter((e) => e.key === 'mixed')).toHaveLength(8);
  });

  it('the simulated order (the panel) is the order admissions really take', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ p: fc.integer({ min: 0, max: 3 }), k: fc.constantFrom('a', 'b', 'c', 'd'), w: fc.constantFrom(0.5, 1, 2, 4) }), { maxLength: 60 }),
        (specs) => {
          const q = new FairQueue<FairEntry>();
          specs.forEach((s, i) => q.push(new FairEntry(i + 1, s.p, s.k, s.w)));
          const predicted = q.ordered().map((e) => e.seq);
          const actual: number[] = [];
          while (q.size) {
            const next = q.peek()!;
            q.admit(next);
            actual.push(next.seq);
          }
          expect(actual).toEqual(predicted);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a key that was idle rejoins at the current virtual time: no saved-up credit, no old debt', () => {
    const q = new FairQueue<FairEntry>();
    let seq = 0;
    for (let i = 0; i < 10; i++) q.push(new FairEntry(++seq, 0, 'a', 1));
    for (let i = 0; i < 6; i++) q.admit(q.peek()!); // only a was waiting: its virtual time ran ahead
    q.push(new FairEntry(11, 0, 'b', 1));
    q.push(new FairEntry(12, 0, 'b', 1));
    expect(q.ordered(4).map((e) => e.key)).toEqual(['b', 'a', 'b', 'a']);
  });
});
