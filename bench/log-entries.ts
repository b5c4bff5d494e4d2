/**
 * What every case of bench/log-append writes (the same entries, in the same order: runs of a 40-node chain as
 * the journal logs them) and how ours is fed (as the engine feeds it).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ExecutionLog, ExecutionLogEntry } from '../engine/store/execution-log';

/** Entries per run: RUN_STARTED, 40 NODE_FINISHED, RUN_FINISHED (a 40-task chain). */
const TASKS = 40;
const NODE_DATA = Array.from({ length: TASKS }, (_, k) => `n${k + 1}`);
const SCOPE = ['trigger', ...NODE_DATA];

/** The same entries, in the same order, for every case: runs of a 40-node chain as the journal logs them. */
export class Entries {
  private i = 0;
  private runId = '';
  private at = 1_764_460_800_000;

  next(): ExecutionLogEntry {
    const k = this.i++ % (TASKS + 2);
    this.at += 0.25;
    if (k === 0) {
      this.runId = `00000000-0000-4000-8000-${String(this.i).padStart(12, '0')}`;
      return {
        runId: this.runId,
        type: 'RUN_STARTED',
        status: 'RUNNING',
        actor: 'engine',
        at: this.at,
        data: { session: 'bench', workflowId: 'chain-40', version: 'a3f9c2d17b5e4c08', payload: { i: this.i }, scope: SCOPE, inputs: [] },
      };
    }
    if (k === TASKS + 1) return { runId: this.runId, type: 'RUN_FINISHED', status: 'SUCCESS', actor: 'engine', at: this.at };
    return { runId: this.runId, type: 'NODE_FINISHED', status: 'SUCCESS', actor: 'engine', at: this.at, data: { nodeId: NODE_DATA[k - 1] } };
  }
}

export interface Result {
  seconds: number;
  /** Events per batch (a transaction, a write). */
  batch: number;
  lag?: { p50: number; p99: number; max: number };
}

/** Feeds ours like the engine does: `CHUNK` appends per turn of the event loop, then the durability barrier. */
export async function produce(log: ExecutionLog, n: number, chunk: number): Promise<Result['lag'] & { seconds: number }> {
  const entries = new Entries();
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n;) {
    const end = Math.min(n, i + chunk);
    for (; i < end; i++) log.append(entries.next());
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await log.flush();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  h.disable();
  return { seconds, p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}

/** One case of bench/log-append: ours, and the raw path writing the same rows in batches of ours' size. */
export interface LogAppendPair {
  label: string;
  ours: (n: number) => Promise<Result>;
  raw: (n: number, batch: number) => Promise<Result>;
}
