// bench/sched-admit: admit + release cycles on the admission scheduler with a standing queue of N starts
// (16 priorities, 1,000 fairness keys), against a bare binary heap doing the same pushes and pops in the
// same process run. Each cycle: a running start finishes (its slot frees, the next start is admitted: a
// pop) and a new start arrives and waits (a push), so the queue stays at N.
// Times are CPU time of this process (the machine is shared). Run: npx tsx bench/sched-admit.ts
// [--cycles 200000 --runs 9 --only N]
import { AdmissionScheduler, type Slot } from '../engine/scheduler/admission-scheduler';
import { BinaryHeap } from '../engine/scheduler/binary-heap';
import { ManualClock } from '../engine/runtime/clock';
import { argNumber, printTable, type Measurement } from './lib';

const CYCLES = argNumber('cycles', 200_000);
const RUNS = argNumber('runs', 9);
const PRIORITIES = 16;
const KEYS = 1000;
const CAP = 8;

/** The same pseudo-random arrivals for both sides. */
function arrivals(count: number): { priority: Int32Array; key: Int32Array } {
  const priority = new Int32Array(count);
  const key = new Int32Array(count);
  let seed = 12345;
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    priority[i] = seed % PRIORITIES;
    key[i] = (seed >> 8) % KEYS;
  }
  return { priority, key };
}

const KEY_NAMES = Array.from({ length: KEYS }, (_, i) => `tenant-${i}`);
/** Execution ids are the caller's (the launcher's randomUUID); made up front so neither side pays for them. */
const IDS = Array.from({ length: 400_000 }, (_, i) => `run-${i}`);

/**
 * Times only the cycles (each run builds its standing queue first, untimed), in CPU time of this process:
 * on a shared machine wall time also counts the time other processes held the CPU.
 */
function timeCycles(prepare: () => () => void): number {
  const cycles = prepare();
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = process.cpuUsage();
  cycles();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / 1e6;
}

/**
 * Runs ours and the baseline alternately (the machine's load changes less between neighbours), and keeps
 * the median of each side.
 */
function measurePair(queued: number, runs: number, ours: () => () => void, baseline: () => () => void): [Measurement, Measurement] {
  timeCycles(ours);
  timeCycles(baseline);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(timeCycles(ours));
    b.push(timeCycles(baseline));
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  return [
    { name: `scheduler N=${queued}`, seconds: median(a), units: CYCLES },
    { name: `heap N=${queued}`, seconds: median(b), units: CYCLES },
  ];
}

function prepareScheduler(queued: number, a: { priority: Int32Array; key: Int32Array }): () => void {
  const s = new AdmissionScheduler({ clock: new ManualClock(), limits: { maxConcurrent: CAP, queueCapacity: queued + CAP } });
  const running: Slot[] = [];
  let n = 0;
  const granted = (slot: Slot) => void running.push(slot);
  const dropped = () => undefined;
  const newId = () => IDS[n % IDS.length]!;
  const start = (i: number) => {
    n++;
    const r = s.admit({ session: 'bench', workflowId: 'w', priority: a.priority[i]!, fairnessKey: KEY_NAMES[a.key[i]!], fairnessWeight: 1, granted, dropped }, newId);
    if (r.state === 'running') running.push(r);
  };
  for (let i = 0; i < queued + CAP; i++) start(i);
  return () => {
    for (let c = 0; c < CYCLES; c++) {
      running.pop()!.release(); // the next start is admitted
      start((queued + CAP + c) % a.priority.length);
    }
    if (s.queuedCount !== queued || s.runningCount !== CAP) throw new Error('scheduler lost a start');
  };
}

interface HeapItem {
  priority: number;
  seq: number;
  key: number;
}

function prepareHeap(queued: number, a: { priority: Int32Array; key: Int32Array }): () => void {
  const heap = new BinaryHeap<HeapItem>((x, y) => x.priority > y.priority || (x.priority === y.priority && x.seq < y.seq));
  let seq = 0;
  const push = (i: number) => heap.push({ priority: a.priority[i]!, key: a.key[i]!, seq: seq++ });
  for (let i = 0; i < queued; i++) push(i);
  return () => {
    for (let c = 0; c < CYCLES; c++) {
      heap.pop();
      push((queued + CAP + c) % a.priority.length);
    }
    if (heap.size !== queued) throw new Error('heap lost an item');
  };
}

const a = arrivals(1_000_000);
const rows: Array<{ label: string; ours: Measurement; baseline: Measurement }> = [];
const perCycle: number[] = [];
const SIZES = process.argv.includes('--only') ? [argNumber('only', 1000)] : [100, 1_000, 10_000, 100_000];
for (const queued of SIZES) {
  const [ours, baseline] = measurePair(queued, RUNS, () => prepareScheduler(queued, a), () => prepareHeap(queued, a));
  rows.push({ label: `${queued.toLocaleString('en-US')} queued`, ours, baseline });
  perCycle.push(ours.seconds / ours.units);
}
printTable(`sched-admit: ${CYCLES.toLocaleString('en-US')} admit + release cycles, ${PRIORITIES} priorities, ${KEYS} keys, cap ${CAP}, median of ${RUNS} runs (Node ${process.version})`, rows);
if (SIZES.length === 4) console.log(`\nscaling: cost per cycle at 10^5 / at 10^3 = ${(perCycle[3]! / perCycle[1]!).toFixed(2)}× (target ≤ 2×); ratios above: target ≤ 3×`);
