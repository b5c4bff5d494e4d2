import { Gauge, X } from 'lucide-react';
import { useMemo } from 'react';
import { REJECT_REASONS, type SchedulerView } from '../../../shared/api/scheduler.schema';
import { useApi } from '../../api/api-context';
import type { FrameScheduler } from '../../api/event-coalescer';
import { useScheduler } from '../../store/scheduler-store';
import { CronSchedules } from './CronSchedules';
import { LimitsForm } from './LimitsForm';
import { createSchedulerActions } from './scheduler-actions';
import { QueueTable, RunningTable } from './SchedulerQueue';
import { useSchedulerFeed } from './use-scheduler-feed';
import { WorkersGauge, WorkersSection } from './WorkersSection';

/**
 * Scheduler tab (STU-06): gauges and refusals, limits (editable, ADMIN), running and waiting counts per
 * workflow and session, the runs holding slots, and the queue in admission order with why each start
 * waits (priority editable, OPERATOR), and the remote workers (SCL-01). Refreshed from the event stream while open.
 */
export function SchedulerPanel({ schedule }: { schedule?: FrameScheduler }) {
  const api = useApi();
  const actions = useMemo(() => createSchedulerActions(api), [api]);
  useSchedulerFeed(api, actions.refresh, schedule);
  const view = useScheduler((s) => s.view);
  const readAt = useScheduler((s) => s.readAt);
  const error = useScheduler((s) => s.error);
  const setError = useScheduler((s) => s.setError);

  return (
    <div className="scheduler-panel" data-testid="scheduler-panel">
      {error && (
        <div className="banner banner-run-error" role="alert">
          <span data-testid="scheduler-error">{error}</span>
          <button type="button" className="icon-button" onClick={() => setError(null)} aria-label="Dismiss">
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      )}
      {!view ? (
        <p className="empty-hint">Reading the scheduler…</p>
      ) : (
        <>
          <Gauges view={view} />
          <div className="scheduler-columns">
            <section className="scheduler-section" aria-label="Queue">
              <h3 className="section-title">Queue, in admission order</h3>
              <QueueTable queued={view.queued} readAt={readAt} onPriority={actions.setPriority} />
              {view.queuedTruncated && (
                <p className="field-hint">
                  Showing the first {view.queued.length} of {view.metrics.queued} waiting starts.
                </p>
              )}
              <h3 className="section-title">Holding a slot</h3>
              <RunningTable running={view.running} readAt={readAt} />
            </section>
            <section className="scheduler-section narrow" aria-label="Limits and counts">
              <h3 className="section-title">Limits</h3>
              <LimitsForm key={JSON.stringify(view.limits)} limits={view.limits} onApply={actions.setLimits} />
              <h3 className="section-title">Per workflow and session</h3>
              <GroupCounts view={view} />
            </section>
            <CronSchedules />
          </div>
          <WorkersSection />
        </>
      )}
    </div>
  );
}

function Gauges({ view }: { view: SchedulerView }) {
  const refused = REJECT_REASONS.filter((r) => view.metrics.rejected[r] > 0);
  return (
    <div className="scheduler-gauges" data-testid="scheduler-gauges">
      <Gauge size={15} aria-hidden="true" />
      <span data-testid="scheduler-running-count" title="yukta.executions.running">
        Running <strong>{view.metrics.running}</strong>
        {view.limits.maxConcurrent > 0 && ` / ${view.limits.maxConcurrent}`}
      </span>
      <span data-testid="scheduler-queued-count" title="yukta.executions.queued">
        Queued <strong>{view.metrics.queued}</strong> / {view.limits.queueCapacity}
      </span>
      <span title="yukta.executions.rejected">
        Refused: {refused.length === 0 ? 'none' : refused.map((r) => `${r} ${view.metrics.rejected[r]}`).join(', ')}
      </span>
      <WorkersGauge />
      {view.shuttingDown && <span className="field-error">Shutting down: nothing new is admitted.</span>}
    </div>
  );
}

function GroupCounts({ view }: { view: SchedulerView }) {
  if (view.byWorkflow.length === 0) return <p className="empty-hint">No run is running or waiting.</p>;
  return (
    <table className="scheduler-table" data-testid="scheduler-groups">
      <thead>
        <tr>
          <th>Workflow / session</th>
          <th>Running</th>
          <th>Queued</th>
        </tr>
      </thead>
      <tbody>
        {view.bySession.map((s) => (
          <GroupRows key={s.session} session={s} workflows={view.byWorkflow.filter((w) => w.session === s.session)} />
        ))}
      </tbody>
    </table>
  );
}

function GroupRows({ session, workflows }: { session: SchedulerView['bySession'][number]; workflows: SchedulerView['byWorkflow'] }) {
  return (
    <>
      <tr className="group-session" data-testid={`group-session-${session.session}`}>
        <td>{session.session}</td>
        <td>{session.running}</td>
        <td>{session.queued}</td>
      </tr>
      {workflows.map((w) => (
        <tr key={w.workflowId} data-testid={`group-workflow-${w.session}-${w.workflowId}`}>
          <td className="indent">{w.workflowId}</td>
          <td>{w.running}</td>
          <td>{w.queued}</td>
        </tr>
      ))}
    </>
  );
}
