// bench/sched-admit: admit + release cycles on the admission scheduler with a standing queue of N starts
// (16 priorities, 1,000 fairness keys), against a bare binary heap doing the same pushes and pops in the
// same process run. Each cycle: a running start finishes (its slot frees, the next start is admitted: a
// pop) and a new start arrives and waits (a push), so the queue stays at N.
// Times are CPU time of this process (the machine is shared); the ratio is taken per run (ours next to the
// heap run beside it), then the median of the ratios, with their spread. Run: npm run bench:sched-admit
// [-- --cycles 200000 --runs 9 --only N] (it calls gc() between timed runs: node --expose-gc).
import { AdmissionScheduler, type Slot } from '../engine/scheduler/admission-scheduler';
import { BinaryHeap } from '../engine/scheduler/binary-heap';
import { ManualClock } from '../engine/runtime/clock';
import { argNumber, type Measurement } from './lib';

const CYCLES = argNumber('cycles', 200_000);
const RUNS = argNumber('runs', 9);
const PRIORITIES = 16;
const KEYS = 1000;
const CAP = 8;

/**
 * The same pseudo-random arrivals for both sides: a 32-bit LCG in integer arithmetic (`Math.imul`), its high
 * bits used. (The generator before 2026-12-02 multiplied in floating point, past 2^53: the low bits it read
 * were mostly zero: 96.6 % of the arrivals had priority 0, 3 % priority 8, and only 6 of the 16 priorities came up.)
 */
function arrivals(count: number): { priority: Int32Array; key: Int32Array } {
  const priority = new Int32Array(count);
  const key = new Int32Array(count);
  let seed = 12345;
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    priority[i] = (seed >>> 28) % PRIORITIES;
    key[i] = ((seed >>> 8) & 0xfffff) % KEYS;
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

interface Pair {
  ours: Measurement;
  baseline: Measurement;
  /** ours / heap, one per run pair. */
  ratios: number[];
}

const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

/**
 * Runs ours and the baseline alternately, the order swapped every run (the machine's load changes less
 * between neighbours); each pair gives one ratio. Times are the medians of each side.
 */
function measurePair(queued: number, runs: number, ours: () => () => void, baseline: () => () => void): Pair {
  timeCycles(ours);
  timeCycles(baseline);
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const first = i % 2 === 0;
    const x = first ? timeCycles(ours) : 0;
    const y = timeCycles(baseline);
    const o = first ? x : timeCycles(ours);
    a.push(o);
    b.push(y);
    ratios.push(o / y);
  }
  return {
    ours: { name: `scheduler N=${queued}`, seconds: median(a), units: CYCLES },
    baseline: { name: `heap N=${queued}`, seconds: median(b), units: CYCLES },
    ratios,
  };
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
    const r = s.admit(
      { session: 'bench', workflowId: 'w', priority: a.priority[i]!, fairnessKey: KEY_NAMES[a.key[i]!], fairnessWeight: 1, granted, dropped },
      newId,
    );
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
const SIZES = process.argv.includes('--only') ? [argNumber('only', 1000)] : [100, 1_000, 10_000, 100_000];
const pairs = SIZES.map((queued) => ({
  queued,
  ...measurePair(
    queued,
    RUNS,
    () => prepareScheduler(queued, a),
    () => prepareHeap(queued, a),
  ),
}));
const us = (m: Measurement) => (m.seconds * 1e6) / m.units;
console.log(
  `\n### sched-admit: ${CYCLES.toLocaleString('en-US')} admit + release cycles, ${PRIORITIES} priorities, ${KEYS} keys, cap ${CAP}, ${RUNS} run pairs (Node ${process.version})\n`,
);
console.log('| queued | ours µs/cycle (median) | heap µs/cycle (median) | ratio ours/heap, median of the pairs (min–max) |');
console.log('| - | - | - | - |');
for (const p of pairs) {
  console.log(
    `| ${p.queued.toLocaleString('en-US')} | ${us(p.ours).toFixed(3)} | ${us(p.baseline).toFixed(3)} | ${median(p.ratios).toFixed(2)}× (${Math.min(...p.ratios).toFixed(2)}–${Math.max(...p.ratios).toFixed(2)}) |`,
  );
}
if (SIZES.length === 4) {
  const growth = (m: (p: Pair) => Measurement) => us(m(pairs[3]!)) / us(m(pairs[0]!));
  console.log(
    `\ngrowth of the cost per cycle from 10^2 to 10^5 queued: ours ${growth((p) => p.ours).toFixed(2)}×, heap ${growth((p) => p.baseline).toFixed(2)}× (target: ours no faster than the heap); ratio target ≤ 3× at every N`,
  );
}
