import { RefreshCw, ScrollText } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ControlAuditPage } from '../../../shared/api/control.schema';
import { useApi } from '../../api/api-context';
import { useStudio } from '../../store/studio-store';
import { describeError } from '../workflow/describe-error';

const PAGE = 200;

/**
 * Audit tab (CTL-01): who did what — every command applied or refused, newest first, with its actor; all of
 * the host's, or one run of this workflow's.
 */
export function AuditPanel() {
  const runs = useStudio((s) => s.runs);
  const [runId, setRunId] = useState('');
  const { page, error, load } = useAuditPage(runId);
  return (
    <div className="audit-panel" data-testid="audit-panel">
      <div className="runs-toolbar">
        <label className="field compact inline">
          <span className="field-label">Run</span>
          <select value={runId} onChange={(e) => setRunId(e.target.value)} aria-label="Filter the audit by run" data-testid="audit-run-filter">
            <option value="">All runs and actions</option>
            {runs.map((r) => (
              <option key={r.executionId} value={r.executionId}>
                {r.executionId.slice(0, 8)} · {r.status}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button small" onClick={load} data-testid="audit-refresh">
          <RefreshCw size={12} aria-hidden="true" /> Refresh
        </button>
        {page && <span className="muted">{page.total} row(s)</span>}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {page && page.entries.length === 0 ? (
        <div className="empty-hint" data-testid="audit-empty">
          <ScrollText size={16} aria-hidden="true" />
          <p>Nothing audited yet: pausing, stepping, stopping, approving, restarting or deleting a workflow each leaves a row here.</p>
        </div>
      ) : (
        <AuditTable entries={page?.entries} />
      )}
    </div>
  );
}

/** The newest audit rows, of one run or of all; read again when the filter changes and on `load` (Refresh). */
function useAuditPage(runId: string) {
  const api = useApi();
  const [page, setPage] = useState<ControlAuditPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let current = true;
    api['control.audit']({ ...(runId ? { executionId: runId } : {}), offset: 0, limit: PAGE }).then(
      (p) => current && (setPage(p), setError(null)),
      (e: unknown) => current && setError(`Could not read the audit: ${describeError(e)}`),
    );
    return () => void (current = false);
  }, [api, runId, reads]);
  const load = () => setReads((n) => n + 1);
  return { page, error, load };
}

function AuditTable({ entries }: { entries: ControlAuditPage['entries'] | undefined }) {
  return (
    <table className="audit-table" data-testid="audit-table">
      <thead>
        <tr>
          <th>When</th>
          <th>Who</th>
          <th>What</th>
          <th>Outcome</th>
          <th>Run</th>
        </tr>
      </thead>
      <tbody>
        {entries?.map((e, i) => (
          <tr key={`${e.runId}-${e.at}-${i}`} data-testid="audit-row" className={e.type === 'CONTROL_REJECTED' ? 'is-rejected' : undefined}>
            <td title={new Date(e.at).toISOString()}>{new Date(e.at).toLocaleString()}</td>
            <td>{e.actor}</td>
            <td>{e.status}</td>
            <td>{e.type === 'CONTROL_APPLIED' ? 'applied' : 'refused'}</td>
            <td>
              <code title={e.runId}>{e.runId.length > 24 ? `${e.runId.slice(0, 24)}…` : e.runId}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
