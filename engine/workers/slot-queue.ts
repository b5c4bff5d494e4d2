import type { ConnectedWorker } from './connected-worker';
import { WorkerUnavailableError } from './worker-errors';

/** The outcome of looking for a worker: one with a free slot, only busy ones, or none that may run the type. */
export type Pick = { kind: 'worker'; worker: ConnectedWorker } | { kind: 'busy' } | { kind: 'none'; why: string };

/**
 * The placement rule (SCL-01): among the connected, non-draining workers of the pool that allow the type,
 * the one with the most free slots; on a tie, the one given an attempt longest ago.
 */
export function pickWorker(workers: Iterable<ConnectedWorker>, pool: string, type: string): Pick {
  let best: ConnectedWorker | null = null;
  let inPool = 0;
  let allowing = 0;
  for (const w of workers) {
    if (w.pool !== pool) continue;
    inPool++;
    if (w.draining || !w.allow.has(type)) continue;
    allowing++;
    if (best === null || w.free > best.free || (w.free === best.free && w.lastAssigned < best.lastAssigned)) best = w;
  }
  if (best === null) {
    const why =
      inPool === 0
        ? `no worker of pool "${pool}" is connected`
        : `none of the ${inPool} connected worker(s) of pool "${pool}" allows ${type}${allowing === 0 ? ' (or all are draining)' : ''}`;
    return { kind: 'none', why };
  }
  return best.free > 0 ? { kind: 'worker', worker: best } : { kind: 'busy' };
}

interface Waiter {
  pool: string;
  type: string;
  /** Opens the attempt on the worker, synchronously, so the slot is taken before the next waiter looks. */
  grant(worker: ConnectedWorker): void;
  fail(error: Error): void;
  /** The pool moved on (a slot freed): the waiting node is not idle (ENG-05). */
  progress(): void;
}

/**
 * Attempts waiting for a free slot, first come first served. A wait ends when a slot of a fitting worker
 * frees, or fails at once (retryably) when no worker that may run the type is left.
 */
export class SlotQueue {
  private waiters: Waiter[] = [];

  constructor(private readonly workers: () => Iterable<ConnectedWorker>) {}

  get length(): number {
    return this.waiters.length;
  }

  /** Attempts waiting, per pool. */
  waitingByPool(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const w of this.waiters) counts.set(w.pool, (counts.get(w.pool) ?? 0) + 1);
    return counts;
  }

  /**
   * Waits for a slot, then calls `open` on the worker in the same turn (so no other waiter takes that slot)
   * and resolves with what it returns; `signal` withdraws the wait.
   */
  wait<T>(pool: string, type: string, signal: AbortSignal, progress: () => void, open: (worker: ConnectedWorker) => T): Promise<T> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      const done = (): void => signal.removeEventListener('abort', onAbort);
      const waiter: Waiter = {
        pool,
        type,
        grant: (worker) => {
          done();
          try {
            resolve(open(worker));
          } catch (error) {
            reject(error);
          }
        },
        fail: (error) => (done(), reject(error)),
        progress,
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * Hands free slots to waiters in arrival order and fails those no worker can serve any more. `freedIn` is the
   * pool where a slot just freed: its other waiters count that as progress.
   */
  serve(freedIn: string | null = null): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      const pick = pickWorker(this.workers(), waiter.pool, waiter.type);
      if (pick.kind === 'worker') waiter.grant(pick.worker);
      else if (pick.kind === 'none') waiter.fail(new WorkerUnavailableError(pick.why));
      else {
        if (waiter.pool === freedIn) waiter.progress();
        still.push(waiter);
      }
    }
    this.waiters = still;
  }
}
