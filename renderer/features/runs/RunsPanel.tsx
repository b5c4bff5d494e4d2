import { ChevronDown, ChevronRight, GitCompare, History, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { RunSummary } from '../../../shared/api/runs.schema';
import { formatMs } from '../../components/format-duration';
import { HoldBadge, StatusBadge } from '../../components/status';
import { heldMs, splitDuration } from '../../store/hold-clock';
import { useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import { RunCompare } from './RunCompare';
import { countByFilter, filterRuns, RUN_FILTER_KEYS, RUN_FILTERS, type RunFilter } from './run-filters';

/** Runs ticked for comparison (the last two) and the pair being compared, the older run as A. */
function useComparePick(runs: readonly RunSummary[]) {
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<[string, string] | null>(null);
  const togglePick = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  // The older run is A: the list is newest first.
  const pair = (): [string, string] => {
    const [x, y] = picked as [string, string];
    return runs.findIndex((r) => r.executionId === x) > runs.findIndex((r) => r.executionId === y) ? [x, y] : [y, x];
  };
  return { picked, togglePick, comparing, compare: () => setComparing(pair()), closeCompare: () => setComparing(null) };
}

/** The runs whose whole error is unfolded. */
function useExpanded() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggleExpanded = (id: string) =>
    setExpanded((e) => {
      const next = new Set(e);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return { expanded, toggleExpanded };
}

/** No runs yet: how to get one (save first if the workflow is not stored). */
function NoRuns({ saved }: { saved: boolean }) {
  return (
    <div className="empty-hint" data-testid="runs-empty">
      <History size={16} aria-hidden="true" />
      <p>
        {saved ? 'No runs yet. Press Run (F5) to start this workflow with an empty payload.' : 'Save the workflow, then press Run (F5): its runs appear here.'}
      </p>
    </div>
  );
}

/**
 * Runs tab (STU-03): this workflow's runs, newest first, with status filters and a search; a click shows
 * that run on the canvas; ticking two and Compare shows them node by node (STU-04).
 */
export function RunsPanel({ onSelect }: { onSelect: (executionId: string) => void }) {
  const runs = useStudio((s) => s.runs);
  const selected = useStudio((s) => s.selectedRunId);
  const saved = useStudio((s) => s.storedWorkflowId !== null);
  const [filter, setFilter] = useState<RunFilter>('all');
  const [search, setSearch] = useState('');
  const { picked, togglePick, comparing, compare, closeCompare } = useComparePick(runs);
  const { expanded, toggleExpanded } = useExpanded();
  const shown = useMemo(() => filterRuns(runs, filter, search), [runs, filter, search]);
  const counts = useMemo(() => countByFilter(runs), [runs]);

  if (runs.length === 0) return <NoRuns saved={saved} />;
  return (
    <div className="runs-panel" data-testid="runs-panel">
      <div className="runs-column">
        <RunsToolbar
          filter={filter}
          onFilter={setFilter}
          counts={counts}
          search={search}
          onSearch={setSearch}
          canCompare={picked.length === 2}
          onCompare={compare}
        />
        {shown.length === 0 ? (
          <p className="empty-hint" data-testid="runs-none-match">
            No run matches. Clear the search or pick another filter.
          </p>
        ) : (
          <ul className="runs-list" data-testid="runs-list">
            {shown.map((run) => (
              <RunItem
                key={run.executionId}
                run={run}
                selected={run.executionId === selected}
                onSelect={onSelect}
                picked={picked.includes(run.executionId)}
                onPick={() => togglePick(run.executionId)}
                expanded={expanded.has(run.executionId)}
                onExpand={() => toggleExpanded(run.executionId)}
              />
            ))}
          </ul>
        )}
      </div>
      {comparing && <RunCompare key={comparing.join('|')} a={comparing[0]} b={comparing[1]} onClose={closeCompare} />}
    </div>
  );
}

type RunsToolbarProps = {
  filter: RunFilter;
  onFilter(filter: RunFilter): void;
  counts: Readonly<Record<RunFilter, number>>;
  search: string;
  onSearch(search: string): void;
  canCompare: boolean;
  onCompare(): void;
};

/** Status filters with their counts, the search, and Compare (enabled with two runs ticked). */
function RunsToolbar({ filter, onFilter, counts, search, onSearch, canCompare, onCompare }: RunsToolbarProps) {
  return (
    <div className="runs-toolbar">
      <div className="segmented" role="group" aria-label="Filter runs by status">
        {RUN_FILTER_KEYS.map((key) => (
          <button
            key={key}
            type="button"
            className={`button small${filter === key ? ' is-active' : ''}`}
            aria-pressed={filter === key}
            onClick={() => onFilter(key)}
            data-testid={`runs-filter-${key}`}
          >
            {RUN_FILTERS[key].label} <span className="tab-count">{counts[key]}</span>
          </button>
        ))}
      </div>
      <label className="search-field">
        <Search size={13} aria-hidden="true" />
        <input
          type="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder="Search id, version, status, error"
          aria-label="Search runs"
          data-testid="runs-search"
        />
      </label>
      <button
        type="button"
        className="button small"
        disabled={!canCompare}
        onClick={onCompare}
        data-testid="runs-compare"
        title="Compare the two ticked runs node by node"
      >
        <GitCompare size={13} aria-hidden="true" /> Compare
      </button>
    </div>
  );
}

type RunItemProps = {
  run: RunSummary;
  selected: boolean;
  onSelect: (id: string) => void;
  picked: boolean;
  onPick(): void;
  expanded: boolean;
  onExpand(): void;
};

/** One run of the list: its compare tick, its row, and its whole error when expanded. */
function RunItem({ run, selected, onSelect, picked, onPick, expanded, onExpand }: RunItemProps) {
  return (
    <li className="run-item">
      <input
        type="checkbox"
        checked={picked}
        onChange={onPick}
        aria-label={`Pick run ${run.executionId.slice(0, 8)} to compare`}
        data-testid={`run-pick-${run.executionId}`}
      />
      <RunRow run={run} selected={selected} onSelect={onSelect} />
      {run.error && (
        <button
          type="button"
          className="icon-button"
          onClick={onExpand}
          aria-expanded={expanded}
          aria-label="Show the whole error"
          title="Show the whole error"
          data-testid={`run-expand-${run.executionId}`}
        >
          {expanded ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
        </button>
      )}
      {run.error && expanded && (
        <div className="run-error-full" data-testid={`run-error-full-${run.executionId}`}>
          {run.error.name}: {run.error.message}
        </div>
      )}
    </li>
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
      <RunStatus run={run} />
      <span className="run-time" title={new Date(run.createdAt).toISOString()}>
        {formatTime(run.createdAt)}
      </span>
      <RunDuration run={run} />
      <code className="run-id" title={run.executionId}>
        {run.executionId.slice(0, 8)}
      </code>
      {run.definitionVersion && (
        <code className="run-version" title={`Definition version ${run.definitionVersion}`} data-testid={`run-version-${run.executionId}`}>
          v {run.definitionVersion.slice(0, 8)}
        </code>
      )}
      {run.error && (
        <span className="run-error-text" title={run.error.message}>
          {run.error.message}
        </span>
      )}
    </button>
  );
}

/** A running run that holds messages says so (UI.md): paused at a breakpoint (the shown run) or waiting. */
function RunStatus({ run }: { run: RunSummary }) {
  const held = useLive((s) => s.executionId === run.executionId && Object.values(s.nodes).some((n) => n.held));
  const waiting = useInbox((s) => s.approvals.reduce((n, a) => (a.executionId === run.executionId ? n + 1 : n), 0));
  if (run.status === 'RUNNING' && held) return <HoldBadge kind="held" testId={`run-hold-${run.executionId}`} />;
  if (run.status === 'RUNNING' && waiting > 0) return <HoldBadge kind="waiting" detail={`${waiting} waiting`} testId={`run-hold-${run.executionId}`} />;
  return <StatusBadge status={run.status} compact />;
}

/** Duration; for the shown run, active time and held/waiting time apart. */
function RunDuration({ run }: { run: RunSummary }) {
  const hold = useLive((s) => (s.executionId === run.executionId ? s.runHold : null));
  const text =
    run.endedAt !== undefined && hold
      ? splitDuration(run.endedAt - (run.startedAt ?? run.createdAt), heldMs(hold, run.endedAt), 'held', formatMs)
      : formatDuration(run);
  return (
    <span className="run-duration" data-testid={`run-duration-${run.executionId}`}>
      {text}
    </span>
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
  return formatMs(run.endedAt - (run.startedAt ?? run.createdAt));
}
