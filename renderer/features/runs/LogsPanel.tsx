import { ScrollText } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLive } from '../../store/live-store';
import { logsOf, useRunFeed, type LogLine } from '../../store/run-feed-store';
import { useStudio } from '../../store/studio-store';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];
/** Lines drawn at most (the newest); the rest stay kept and searchable. */
export const MAX_SHOWN_LINES = 1000;

/** Lines of the shown run that pass the node, level and text filters. */
export function filterLogs(lines: readonly LogLine[], nodeId: string, minLevel: Level, text: string): LogLine[] {
  const floor = LEVELS.indexOf(minLevel);
  const needle = text.trim().toLowerCase();
  return lines.filter(
    (l) => (nodeId === '' || l.nodeId === nodeId) && LEVELS.indexOf(l.level) >= floor && (needle === '' || l.text.toLowerCase().includes(needle)),
  );
}

/** The node, lowest level and text the lines are filtered by. */
interface LogFilter {
  nodeId: string;
  setNodeId(nodeId: string): void;
  level: Level;
  setLevel(level: Level): void;
  text: string;
  setText(text: string): void;
}

function useLogFilter(): LogFilter {
  const [nodeId, setNodeId] = useState('');
  const [level, setLevel] = useState<Level>('debug');
  const [text, setText] = useState('');
  return { nodeId, setNodeId, level, setLevel, text, setText };
}

/** The filter's controls: the node (or the whole run), the lowest level, the text. */
function LogFilters({ filter }: { filter: LogFilter }) {
  const nodeIds = useStudio((s) => s.nodes.map((n) => n.id).join('\u0000'));
  return (
    <>
      <select value={filter.nodeId} onChange={(e) => filter.setNodeId(e.target.value)} aria-label="Node" data-testid="logs-node">
        <option value="">Whole run</option>
        {nodeIds
          .split('\u0000')
          .filter(Boolean)
          .map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
      </select>
      <select value={filter.level} onChange={(e) => filter.setLevel(e.target.value as Level)} aria-label="Lowest level" data-testid="logs-level">
        {LEVELS.map((l) => (
          <option key={l} value={l}>
            {l} and above
          </option>
        ))}
      </select>
      <input
        type="search"
        value={filter.text}
        onChange={(e) => filter.setText(e.target.value)}
        placeholder="Filter text"
        aria-label="Filter log lines"
        data-testid="logs-filter"
      />
    </>
  );
}

/**
 * Logs tab (STU-03): the shown run's log lines as they arrive, for the whole run or one node, with a level
 * and a text filter; Follow keeps the newest line in view.
 */
export function LogsPanel() {
  const executionId = useLive((s) => s.executionId);
  const version = useRunFeed((s) => s.logsVersion);
  const dropped = useRunFeed((s) => (executionId ? (s.droppedLogs[executionId] ?? 0) : 0));
  const filter = useLogFilter();
  const { nodeId, level, text } = filter;
  const [follow, setFollow] = useState(true);
  const lines = useMemo(
    () => (executionId ? filterLogs(logsOf(executionId), nodeId, level, text) : []),
    // `version` changes whenever lines were appended (the kept arrays grow in place).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [executionId, version, nodeId, level, text],
  );
  const shown = lines.length > MAX_SHOWN_LINES ? lines.slice(-MAX_SHOWN_LINES) : lines;

  if (executionId === null) {
    return (
      <div className="empty-hint" data-testid="logs-empty">
        <ScrollText size={16} aria-hidden="true" />
        <p>Select a run in the Runs tab (or press Run): its log lines appear here as they are written.</p>
      </div>
    );
  }
  return (
    <div className="logs-panel" data-testid="logs-panel">
      <div className="runs-toolbar">
        <LogFilters filter={filter} />
        <label className="checkbox-field">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} data-testid="logs-follow" /> Follow
        </label>
        <span className="field-hint" data-testid="logs-count">
          {lines.length} line(s){lines.length > shown.length ? `, newest ${shown.length} shown` : ''}
          {dropped ? `; ${dropped} older line(s) dropped` : ''}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="empty-hint" data-testid="logs-none">
          No log lines{nodeId || text || level !== 'debug' ? ' match the filters' : ' yet'}.
        </p>
      ) : (
        <LogList lines={shown} follow={follow} onUnfollow={() => setFollow(false)} />
      )}
    </div>
  );
}

/** The lines drawn; while following, the newest stays in view until the user scrolls. */
function LogList({ lines, follow, onUnfollow }: { lines: readonly LogLine[]; follow: boolean; onUnfollow(): void }) {
  const list = useRef<HTMLOListElement>(null);
  useLayoutEffect(() => {
    if (follow && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [follow, lines]);
  return (
    <ol ref={list} className="logs-list" data-testid="logs-list" onWheel={() => follow && onUnfollow()}>
      {lines.map((l) => (
        <li key={l.seq} className={`log-line level-${l.level}`} data-testid="log-line">
          <span className="muted">{new Date(l.at).toLocaleTimeString()}</span>
          <span className={`log-level level-${l.level}`}>{l.level}</span>
          {l.nodeId && <code>{l.nodeId}</code>}
          <span className="log-text">{l.text}</span>
        </li>
      ))}
    </ol>
  );
}
