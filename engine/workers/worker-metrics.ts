import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptOutcome } from './remote-attempt';

/** The workers' meters (SCL-01, OBS-04), in the engine's registry beside the others. */
export const WORKER_METER_NAMES = {
  'yukta.workers.connected': 'yukta_workers_connected',
  'yukta.workers.attempts': 'yukta_workers_attempts_total',
  'yukta.workers.attempt.duration': 'yukta_workers_attempt_duration_seconds',
} as const;

/** Seconds; a remote attempt on loopback takes a tenth of a millisecond. */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Workers connected per pool (a gauge read when scraped), attempts per worker and outcome, remote attempt latency. */
export class WorkerMetrics {
  private readonly attempts: Counter<'pool' | 'worker' | 'outcome'>;
  private readonly latency: Histogram<'pool'>;

  constructor(registry: Registry, connected: () => ReadonlyMap<string, number>) {
    const registers = [registry];
    new Gauge({
      name: WORKER_METER_NAMES['yukta.workers.connected'],
      help: 'Workers connected, per pool (yukta.workers.connected).',
      labelNames: ['pool'],
      registers,
      collect() {
        this.reset();
        for (const [pool, n] of connected()) this.set({ pool }, n);
      },
    });
    this.attempts = new Counter({
      name: WORKER_METER_NAMES['yukta.workers.attempts'],
      help: 'Remote attempts ended, per pool, worker and outcome (yukta.workers.attempts).',
      labelNames: ['pool', 'worker', 'outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: WORKER_METER_NAMES['yukta.workers.attempt.duration'],
      help: 'Remote attempt latency from START to its end, per pool (yukta.workers.attempt.duration).',
      labelNames: ['pool'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
  }

  ended(pool: string, worker: string, outcome: AttemptOutcome | 'UNAVAILABLE', seconds: number | null): void {
    this.attempts.inc({ pool, worker, outcome });
    if (seconds !== null) this.latency.observe({ pool }, seconds);
  }
}
