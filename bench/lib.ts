/**
 * Benchmark helpers: every bench compares our path with a baseline in the same process run and prints
 * ratios (ARCHITECTURE.md). No test asserts a wall-clock time.
 */
export interface Measurement {
  name: string;
  /** Median seconds of the timed runs. */
  seconds: number;
  /** Units of work per run (messages, events…). */
  units: number;
}

export async function measure(name: string, units: number, runs: number, body: () => Promise<void>): Promise<Measurement> {
  await body(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = process.hrtime.bigint();
    await body();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  return { name, seconds: times[Math.floor(times.length / 2)]!, units };
}

export function printTable(title: string, rows: Array<{ label: string; ours: Measurement; baseline: Measurement; perUnitDivisor?: number }>): void {
  console.log(`\n### ${title}\n`);
  console.log('| case | ours msgs/s | baseline msgs/s | ours µs/unit | baseline µs/unit | ratio (ours/baseline time) |');
  console.log('| - | - | - | - | - | - |');
  for (const { label, ours, baseline, perUnitDivisor = 1 } of rows) {
    const o = (ours.seconds * 1e6) / ours.units / perUnitDivisor;
    const b = (baseline.seconds * 1e6) / baseline.units / perUnitDivisor;
    console.log(
      `| ${label} | ${fmt(ours.units / ours.seconds)} | ${fmt(baseline.units / baseline.seconds)} | ${o.toFixed(3)} | ${b.toFixed(3)} | ${(o / b).toFixed(2)}× |`,
    );
  }
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function argNumber(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return v;
}
