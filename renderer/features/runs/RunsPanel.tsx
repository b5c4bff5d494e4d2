import { History } from 'lucide-react';
import type { RunSummary } from '../../../shared/api/runs.schema';
import { StatusBadge } from '../../components/status';
import { useStudio } from '../../store/studio-store';

/** Runs tab: this workflow's runs, newest first; a click shows that run's node statuses on the canvas. */
export function RunsPanel({ onSelect }: { onSelect: (executionId: string) => void }) {
  const runs = useStudio((s) => s.runs);
  const selected = useStudio((s) => s.selectedRunId);
  const saved = useStudio((s) => s.storedWorkflowId !== null);

  if (runs.length === 0) {
    return (
      <div className="empty-hint" data-testid="runs-empty">
        <History size={16} aria-hidden="true" />
        <p>{saved ? 'No runs yet. Press Run (F5) to start this workflow with an empty payload.' : 'Save the workflow, then press Run (F5): its runs appear here.'}</p>
      </div>
    );
  }
  return (
    <ul className="runs-list" data-testid="runs-list">
      {runs.map((run) => (
        <li key={run.executionId}>
          <RunRow run={run} selected={run.executionId === selected} onSelect={onSelect} />
        </li>
      ))}
    </ul>
  );
}

function RunRow({ run, selected, onSelect }: { run: RunSummary; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <button
      type="button"
      className={`run-row${selected ? ' is-selected' : ''}`}
      onClick={() => onSelect(run.executionId)}
      aria-pressed={selected}
      data-testid={`run-row-${run.executionId}`}
      data-status={run.status}
    >
      <StatusBadge status={run.status} compact />
      <span className="run-time" title={new Date(run.createdAt).toISOString()}>
        {formatTime(run.createdAt)}
      </span>
      <span className="run-duration">{formatDuration(run)}</span>
      <code className="run-id" title={run.executionId}>
        {run.executionId.slice(0, 8)}
      </code>
      {run.definitionVersion && (
        <code className="run-version" title={`Definition version ${run.definitionVersion}`} data-testid={`run-version-${run.executionId}`}>
          v {run.definitionVersion.slice(0, 8)}
        </code>
      )}
      {run.error && <span className="run-error-text">{run.error.message}</span>}
    </button>
  );
}

function formatTime(at: number): string {
  const date = new Date(at);
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  return sameDay ? date.toLocaleTimeString() : date.toLocaleString();
}

/** Duration from start to end; "running" until it ends. */
export function formatDuration(run: Pick<RunSummary, 'startedAt' | 'endedAt' | 'createdAt'>): string {
  if (run.endedAt === undefined) return 'running…';
  const ms = run.endedAt - (run.startedAt ?? run.createdAt);
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
