import { Cpu } from 'lucide-react';
import { useEffect } from 'react';
import type { WorkersView } from '../../../shared/api/workers.schema';
import { useApi } from '../../api/api-context';
import { readWorkers, useWorkers } from '../../store/workers-store';
import { formatMs } from '../../components/format-duration';

/** How often the open Scheduler tab reads the workers: connections and leases change without run events. */
export const WORKERS_REFRESH_MS = 2000;

/**
 * Remote workers in the Scheduler tab (STU-06, SCL-01): each pool (workers, slots used of all, attempts
 * waiting for a slot) and each worker (slots used/free, lease age, attempts running and ended, version,
 * draining). Read while the tab is open.
 */
export function WorkersSection() {
  const api = useApi();
  const view = useWorkers((s) => s.view);
  const error = useWorkers((s) => s.error);
  useEffect(() => {
    void readWorkers(api);
    const timer = setInterval(() => void readWorkers(api), WORKERS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [api]);
  return (
    <section className="scheduler-section" aria-label="Workers" data-testid="workers-section">
      <h3 className="section-title">
        <Cpu size={14} aria-hidden="true" /> Remote workers
      </h3>
      {error && (
        <p className="field-error" role="alert" data-testid="workers-error">
          Could not read the workers: {error}
        </p>
      )}
      {view && <WorkersTables view={view} />}
    </section>
  );
}

/**
 * The workers in the tab's gauge strip, so they show without scrolling to the section: how many are
 * connected and their slots in use. Nothing when the host takes no workers.
 */
export function WorkersGauge() {
  const view = useWorkers((s) => s.view);
  if (!view || view.listener === null) return null;
  const used = view.pools.reduce((n, p) => n + p.used, 0);
  const slots = view.pools.reduce((n, p) => n + p.slots, 0);
  return (
    <span data-testid="workers-gauge" title="yukta.workers.connected">
      Workers <strong>{view.workers.length}</strong>
      {view.workers.length > 0 && ` · ${used} / ${slots} slots used`}
    </span>
  );
}

function WorkersTables({ view }: { view: WorkersView }) {
  if (view.workers.length === 0) {
    return (
      <p className="empty-hint" data-testid="workers-empty">
        {view.listener
          ? `No worker is connected. Start one with: npx yukta worker --control-plane ${view.listener} --pool NAME --token …`
          : 'This host takes no workers: set yukta.workers.enabled (and yukta.workers.token), then restart it.'}
      </p>
    );
  }
  return (
    <>
      <p className="field-hint" data-testid="workers-listener">
        Workers connect at {view.listener ?? '—'}; lease {formatMs(view.leaseMs)}.
      </p>
      <PoolsTable pools={view.pools} />
      <WorkersTable workers={view.workers} />
    </>
  );
}

/** Each pool: its workers (and how many drain), slots used of all, attempts waiting for a slot. */
function PoolsTable({ pools }: { pools: WorkersView['pools'] }) {
  return (
    <table className="scheduler-table" data-testid="workers-pools">
      <thead>
        <tr>
          <th>Pool</th>
          <th>Workers</th>
          <th>Slots used</th>
          <th>Waiting</th>
        </tr>
      </thead>
      <tbody>
        {pools.map((p) => (
          <tr key={p.pool} data-testid={`workers-pool-${p.pool}`}>
            <td>{p.pool}</td>
            <td>
              {p.workers}
              {p.draining ? ` (${p.draining} draining)` : ''}
            </td>
            <td>
              {p.used} / {p.slots}
            </td>
            <td>{p.waiting}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Each worker: slots used/free, attempts running and ended, lease age, version, draining. */
function WorkersTable({ workers }: { workers: WorkersView['workers'] }) {
  return (
    <table className="scheduler-table" data-testid="workers-list">
      <thead>
        <tr>
          <th>Worker</th>
          <th>Pool</th>
          <th>Slots used / free</th>
          <th>Running</th>
          <th>Lease age</th>
          <th>Ended (ok / failed / lost)</th>
          <th>Version</th>
          <th>State</th>
        </tr>
      </thead>
      <tbody>
        {workers.map((w) => (
          <tr key={w.name} data-testid={`worker-${w.name}`} title={`from ${w.peer}; runs ${w.allow.join(', ')}`}>
            <td>{w.name}</td>
            <td>{w.pool}</td>
            <td>
              {w.used} / {w.free}
            </td>
            <td data-testid={`worker-${w.name}-running`}>{w.used}</td>
            <td>{formatMs(w.leaseAgeMs)}</td>
            <td>
              {w.attempts.SUCCESS} / {w.attempts.FAILURE} / {w.attempts.LOST}
            </td>
            <td>{w.version}</td>
            <td data-testid={`worker-${w.name}-state`}>{w.draining ? 'draining' : 'taking attempts'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
