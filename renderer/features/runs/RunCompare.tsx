import { GitCompare, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { RecordedSummary, RunDetail } from '../../../shared/api/runs.schema';
import { useApi } from '../../api/api-context';
import { JsonTree } from '../../components/JsonTree';
import { StatusBadge } from '../../components/status';
import { describeError } from '../workflow/describe-error';
import { compareRuns, differs, type NodeComparison, type NodeSide } from './run-compare';

interface Loaded {
  a: RunDetail;
  b: RunDetail;
  rows: NodeComparison[];
  /** Why a run's outputs could not be compared (not in the archive, recording off), if so. */
  notes: string[];
}

/**
 * Two runs of the workflow side by side, node by node (STU-04): status, counts and whether the recorded
 * outputs differ; a node whose output differs shows its first differing message from each run.
 */
export function RunCompare({ a, b, onClose }: { a: string; b: string; onClose: () => void }) {
  const { loaded, error } = useComparison(a, b);
  return (
    <section className="run-compare" aria-label="Run comparison" data-testid="run-compare">
      <div className="versions-toolbar">
        <GitCompare size={14} aria-hidden="true" />
        <strong>
          A <code>{a.slice(0, 8)}</code> vs B <code>{b.slice(0, 8)}</code>
        </strong>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close the comparison" data-testid="run-compare-close">
          <X size={14} aria-hidden="true" />
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {!loaded && !error && <p className="empty-hint">Reading both runs…</p>}
      {loaded && <Comparison loaded={loaded} a={a} b={b} />}
    </section>
  );
}

/** Both runs and their recorded-output summaries, compared node by node once all four are read. */
function useComparison(a: string, b: string) {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const summary = (id: string) => api['runs.recordedSummary']({ executionId: id }).catch((e: unknown) => describeError(e));
    void Promise.all([api['runs.get']({ executionId: a }), api['runs.get']({ executionId: b }), summary(a), summary(b)])
      .then(([ra, rb, sa, sb]) => {
        if (!current) return;
        const recorded = (s: RecordedSummary | string) => (typeof s === 'string' ? null : s);
        const notes = [sa, sb].flatMap((s, i) =>
          typeof s === 'string'
            ? [`Run ${i === 0 ? 'A' : 'B'}: outputs not compared (${s}).`]
            : s.recorded
              ? []
              : [`Run ${i === 0 ? 'A' : 'B'} recorded no outputs.`],
        );
        setLoaded({ a: ra, b: rb, rows: compareRuns(ra, rb, recorded(sa), recorded(sb)), notes });
      })
      .catch((e: unknown) => current && setError(describeError(e)));
    return () => {
      current = false;
    };
  }, [api, a, b]);
  return { loaded, error };
}

/** The summary line, the notes, and the node-by-node table (one node's messages open at a time). */
function Comparison({ loaded, a, b }: { loaded: Loaded; a: string; b: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const outputDiffs = loaded.rows.filter((r) => r.outputDiffers);
  return (
    <>
      <p className="field-hint" data-testid="compare-summary">
        {loaded.rows.filter(differs).length} of {loaded.rows.length} nodes differ; output differs at{' '}
        {outputDiffs.length ? outputDiffs.map((r) => r.nodeId).join(', ') : 'no node'}.
        {loaded.a.definitionVersion !== loaded.b.definitionVersion && ' The runs used different versions.'}
      </p>
      {loaded.notes.map((n) => (
        <p key={n} className="field-hint is-warning">
          {n}
        </p>
      ))}
      <table className="compare-table">
        <thead>
          <tr>
            <th>Node</th>
            <th>A</th>
            <th>B</th>
            <th>Differs</th>
          </tr>
        </thead>
        <tbody>
          {loaded.rows.map((row) => (
            <CompareRow key={row.nodeId} row={row} a={a} b={b} open={open === row.nodeId} onToggle={() => setOpen(open === row.nodeId ? null : row.nodeId)} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function CompareRow({ row, a, b, open, onToggle }: { row: NodeComparison; a: string; b: string; open: boolean; onToggle: () => void }) {
  const what = [row.statusDiffers && 'status', row.countsDiffer && 'counts', row.outputDiffers && 'output'].filter(Boolean).join(' ');
  return (
    <>
      <tr
        className={differs(row) ? 'is-different' : ''}
        data-testid={`compare-row-${row.nodeId}`}
        data-differs={what || 'none'}
        data-output-differs={row.outputDiffers}
      >
        <td>
          <code>{row.nodeId}</code>
        </td>
        <td>
          <Side side={row.a} />
        </td>
        <td>
          <Side side={row.b} />
        </td>
        <td>
          {what || 'same'}
          {row.outputDiffers && (
            <button type="button" className="button small" onClick={onToggle} aria-expanded={open} data-testid={`compare-show-${row.nodeId}`}>
              {open ? 'Hide' : 'Show'} messages
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={4}>
            <FirstDifference a={a} b={b} nodeId={row.nodeId} />
          </td>
        </tr>
      )}
    </>
  );
}

function Side({ side }: { side: NodeSide | null }) {
  if (!side) return <span className="muted">not in this run</span>;
  return (
    <span className="compare-side">
      <StatusBadge status={side.status} compact />
      <span>
        {side.counts.received} in · {side.counts.emitted} out
      </span>
    </span>
  );
}

/** The first recorded output message that differs between the two runs (within the first page). */
function FirstDifference({ a, b, nodeId }: { a: string; b: string; nodeId: string }) {
  const api = useApi();
  const [found, setFound] = useState<{ index: number; a: unknown; b: unknown } | string | null>(null);
  useEffect(() => {
    let current = true;
    void Promise.all([api['runs.recorded']({ executionId: a, nodeId, limit: 100 }), api['runs.recorded']({ executionId: b, nodeId, limit: 100 })])
      .then(([ra, rb]) => {
        const xs = ra.outputs.messages;
        const ys = rb.outputs.messages;
        const at = Array.from({ length: Math.max(xs.length, ys.length) }, (_, i) => i).find(
          (i) => JSON.stringify(xs[i]?.payload) !== JSON.stringify(ys[i]?.payload) || xs[i]?.port !== ys[i]?.port,
        );
        if (current)
          setFound(
            at === undefined ? 'The first 100 messages are the same; the difference is further on.' : { index: at, a: xs[at]?.payload, b: ys[at]?.payload },
          );
      })
      .catch((e: unknown) => current && setFound(describeError(e)));
    return () => {
      current = false;
    };
  }, [api, a, b, nodeId]);
  if (found === null) return <p className="empty-hint">Reading the recorded messages…</p>;
  if (typeof found === 'string') return <p className="field-hint">{found}</p>;
  return (
    <div className="compare-messages" data-testid={`compare-messages-${nodeId}`}>
      <div>
        <div className="field-label">A, message #{found.index + 1}</div>
        <JsonTree value={found.a} />
      </div>
      <div>
        <div className="field-label">B, message #{found.index + 1}</div>
        <JsonTree value={found.b} />
      </div>
    </div>
  );
}
