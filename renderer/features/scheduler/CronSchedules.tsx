import { CalendarClock, RefreshCw } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { CronTriggerInfo } from '../../../shared/api/triggers.schema';
import { useApi } from '../../api/api-context';
import { describeError } from '../workflow/describe-error';

const CronRow = lazy(() => import('./CronRow'));

/** The Scheduler tab's cron schedules (`triggers.list`): each armed CRON_TRIGGER with its next and last fire. */
export function CronSchedules() {
  const api = useApi();
  const [list, setList] = useState<CronTriggerInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let current = true;
    api['triggers.list']({}).then(
      (l) => current && (setList(l), setError(null)),
      (e: unknown) => current && setError(`Could not read the schedules: ${describeError(e)}`),
    );
    return () => void (current = false);
  }, [api, reads]);
  const load = () => setReads((n) => n + 1);
  return (
    <section className="scheduler-section" aria-label="Cron schedules" data-testid="cron-schedules">
      <h3 className="section-title">
        <CalendarClock size={13} aria-hidden="true" /> Cron schedules
        <button type="button" className="icon-button" onClick={load} aria-label="Read the schedules again" data-testid="cron-schedules-refresh">
          <RefreshCw size={12} aria-hidden="true" />
        </button>
      </h3>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {list && list.length === 0 && (
        <p className="field-hint" data-testid="cron-schedules-empty">
          No schedule is armed: save a workflow with a Cron trigger and its fires appear here.
        </p>
      )}
      {list && list.length > 0 && (
        <table className="audit-table" data-testid="cron-schedules-table">
          <thead>
            <tr>
              <th>Workflow · node</th>
              <th>When</th>
              <th>Next fire</th>
              <th>Last fire</th>
            </tr>
          </thead>
          <tbody>
            <Suspense fallback={null}>
              {list.map((t) => (
                <CronRow key={`${t.session}/${t.workflowId}/${t.nodeId}`} trigger={t} />
              ))}
            </Suspense>
          </tbody>
        </table>
      )}
    </section>
  );
}
