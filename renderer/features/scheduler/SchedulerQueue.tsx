import { useState } from 'react';
import type { QueuedRunView, RunningRunView } from '../../../shared/api/scheduler.schema';

/** "12 s", "3 min" — how long ago, from the time the view was read. */
export function since(at: number, readAt: number | null): string {
  const ms = Math.max(0, (readAt ?? at) - at);
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min`;
  return `${Math.floor(ms / 3_600_000)} h`;
}

/** The queue in admission order, each start with why it waits, and its priority editable (OPERATOR). */
export function QueueTable({
  queued,
  readAt,
  onPriority,
}: {
  queued: QueuedRunView[];
  readAt: number | null;
  onPriority: (executionId: string, priority: number) => Promise<boolean>;
}) {
  if (queued.length === 0) {
    return (
      <p className="empty-hint" data-testid="scheduler-queue-empty">
        Nothing is waiting. A start that does not fit the limits waits here, in the order it will be admitted.
      </p>
    );
  }
  return (
    <table className="scheduler-table" data-testid="scheduler-queue">
      <thead>
        <tr>
          <th>#</th>
          <th>Priority</th>
          <th>Workflow</th>
          <th>Fairness key</th>
          <th>Waiting</th>
          <th>Why it waits</th>
        </tr>
      </thead>
      <tbody>
        {queued.map((q) => (
          <tr key={q.executionId} data-testid={`queued-row-${q.executionId}`} data-position={q.position} data-priority={q.priority}>
            <td>{q.position}</td>
            <td>
              <PriorityEditor key={q.priority} entry={q} onPriority={onPriority} />
            </td>
            <td>
              {q.workflowId}
              <span className="muted"> · {q.session}</span>
              <code className="run-id" title={q.executionId}>
                {q.executionId.slice(0, 8)}
              </code>
            </td>
            <td>
              <code>{q.fairnessKey}</code>
              {q.fairnessWeight !== 1 && <span className="muted"> ×{q.fairnessWeight}</span>}
            </td>
            <td>{since(q.enqueuedAt, readAt)}</td>
            <td data-testid={`queued-reason-${q.executionId}`}>
              {q.reason}
              <span className="muted">{q.ahead === 0 ? ' · next' : ` · ${q.ahead} ahead`}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PriorityEditor({ entry, onPriority }: { entry: QueuedRunView; onPriority: (executionId: string, priority: number) => Promise<boolean> }) {
  const [text, setText] = useState(String(entry.priority));
  const value = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(value);
  return (
    <span className="priority-editor">
      <input
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && valid && void onPriority(entry.executionId, value)}
        aria-label={`Priority of ${entry.executionId}`}
        aria-invalid={!valid}
        data-testid={`queued-priority-${entry.executionId}`}
      />
      <button
        type="button"
        className="button small"
        disabled={!valid || value === entry.priority}
        onClick={() => void onPriority(entry.executionId, value)}
        data-testid={`queued-priority-set-${entry.executionId}`}
      >
        Set
      </button>
    </span>
  );
}

/** Runs holding a slot, in the order they got it. */
export function RunningTable({ running, readAt }: { running: RunningRunView[]; readAt: number | null }) {
  if (running.length === 0) return <p className="empty-hint">No run holds a slot.</p>;
  return (
    <table className="scheduler-table" data-testid="scheduler-running">
      <thead>
        <tr>
          <th>Workflow</th>
          <th>Priority</th>
          <th>Fairness key</th>
          <th>Running</th>
        </tr>
      </thead>
      <tbody>
        {running.map((r) => (
          <tr key={r.executionId} data-testid={`running-row-${r.executionId}`}>
            <td>
              {r.workflowId}
              <span className="muted"> · {r.session}</span>
              <code className="run-id" title={r.executionId}>
                {r.executionId.slice(0, 8)}
              </code>
            </td>
            <td>{r.priority}</td>
            <td>
              <code>{r.fairnessKey}</code>
            </td>
            <td>{since(r.grantedAt, readAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
