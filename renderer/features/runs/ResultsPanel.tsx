import * as Switch from '@radix-ui/react-switch';
import { Flag } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { RunResult } from '../../../shared/api/runs.schema';
import { JsonTree } from '../../components/JsonTree';
import { MessageMetadata } from '../../components/MessageMetadata';
import { useLive } from '../../store/live-store';
import { useRunFeed } from '../../store/run-feed-store';

/**
 * Results tab (STU-03, OBS-03): what the shown run's terminal nodes received, oldest first, live; says so
 * when older results were dropped (`truncated`). The Metadata switch shows each result's metadata (an
 * approval's decision, actor and data readable).
 */
export function ResultsPanel() {
  const executionId = useLive((s) => s.executionId);
  const results = useRunFeed((s) => s.results);
  const [nodeId, setNodeId] = useState('');
  const [showMetadata, setShowMetadata] = useState(false);
  const terminals = useMemo(() => [...new Set(results.items.map((r) => r.nodeId))], [results.items]);
  const shown = nodeId ? results.items.filter((r) => r.nodeId === nodeId) : results.items;
  if (executionId === null || results.executionId !== executionId) {
    return (
      <div className="empty-hint" data-testid="results-empty">
        <Flag size={16} aria-hidden="true" />
        <p>Select a run in the Runs tab: the messages its terminal nodes received appear here.</p>
      </div>
    );
  }
  return (
    <div className="results-panel" data-testid="results-panel">
      <div className="runs-toolbar">
        <select value={nodeId} onChange={(e) => setNodeId(e.target.value)} aria-label="Terminal node" data-testid="results-node">
          <option value="">All terminals</option>
          {terminals.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
        <span className="field-hint" data-testid="results-count">
          {shown.length} result(s)
        </span>
        <label className="switch-field">
          <Switch.Root className="switch" checked={showMetadata} onCheckedChange={setShowMetadata} data-testid="results-metadata-toggle">
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          Metadata
        </label>
        {results.truncated && (
          <span className="field-hint is-warning" data-testid="results-truncated">
            Truncated: older results were dropped (only the newest are kept).
          </span>
        )}
      </div>
      {shown.length === 0 ? (
        <p className="empty-hint">No results yet: a terminal node has not received a message.</p>
      ) : (
        <ResultList results={shown} showMetadata={showMetadata} />
      )}
    </div>
  );
}

function ResultList({ results, showMetadata }: { results: readonly RunResult[]; showMetadata: boolean }) {
  return (
    <ol className="results-list" data-testid="results-list">
      {results.map((r, i) => (
        <li key={`${r.nodeId}/${r.messageId}`} data-testid={`result-${i}`} data-node={r.nodeId}>
          <span className="muted">
            <code>{r.nodeId}</code> · {r.messageId.slice(0, 12)}
          </span>
          <code className="result-json" data-testid={`result-json-${i}`}>
            {preview(r.payload)}
          </code>
          <details>
            <summary>Tree</summary>
            <JsonTree value={r.payload} />
          </details>
          {showMetadata &&
            (r.metadata ? <MessageMetadata metadata={r.metadata} testId={`result-metadata-${i}`} /> : <span className="muted">no metadata</span>)}
        </li>
      ))}
    </ol>
  );
}

/** Longest payload text shown in a row (the tree below has all of it). */
const PREVIEW_CHARS = 500;

function preview(payload: unknown): string {
  const text = JSON.stringify(payload) ?? String(payload);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
