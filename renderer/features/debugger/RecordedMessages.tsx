import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import type { RecordedNode, RecordedStream } from '../../../shared/api/runs.schema';
import { useApi } from '../../api/api-context';
import { JsonTree } from '../../components/JsonTree';
import { MessageMetadata } from '../../components/MessageMetadata';
import { describeError } from '../workflow/describe-error';

/** Messages per page of the recorded lists. */
export const RECORDED_PAGE = 20;

/**
 * What the node received and sent in the shown run, as recorded (STU-04, the checkpoints restarts replay):
 * its outputs, and its inputs (each parent's outputs on the edge into it), a page at a time. Read when
 * opened, whenever the node's status or counts move, and with Refresh.
 */
export function RecordedMessages({ executionId, nodeId, progress }: { executionId: string; nodeId: string; progress: string }) {
  const [offset, setOffset] = useState(0);
  const [view, setView] = useState<'outputs' | 'inputs'>('outputs');
  const { data, error, load } = useRecorded(executionId, nodeId, offset, progress);

  const streams: Array<{ title: string; stream: RecordedStream }> = !data
    ? []
    : view === 'outputs'
      ? [{ title: 'Sent', stream: data.outputs }]
      : data.inputs.map((i) => ({ title: `From ${i.from} (${i.port})`, stream: i }));
  const total = Math.max(0, ...streams.map((s) => s.stream.total));
  return (
    <section className="inspector-section" aria-label="Recorded messages" data-testid="recorded-messages">
      <div className="section-header">
        <span className="field-label">Recorded messages</span>
        <div className="segmented" role="group" aria-label="Which messages">
          <button
            type="button"
            className={`button small${view === 'outputs' ? ' is-active' : ''}`}
            aria-pressed={view === 'outputs'}
            onClick={() => (setView('outputs'), setOffset(0))}
            data-testid="recorded-outputs"
          >
            Outputs {data ? `(${data.outputs.total})` : ''}
          </button>
          <button
            type="button"
            className={`button small${view === 'inputs' ? ' is-active' : ''}`}
            aria-pressed={view === 'inputs'}
            onClick={() => (setView('inputs'), setOffset(0))}
            data-testid="recorded-inputs"
          >
            Inputs {data ? `(${data.inputs.reduce((n, i) => n + i.total, 0)})` : ''}
          </button>
        </div>
        <button type="button" className="button small" onClick={load} data-testid="recorded-refresh">
          Refresh
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="recorded-error">
          {error}
        </p>
      )}
      {data && streams.length === 0 && <p className="empty-hint">{view === 'inputs' ? 'A trigger has no inputs.' : 'Nothing recorded.'}</p>}
      {streams.map(({ title, stream }) => (
        <RecordedList key={title} title={title} stream={stream} />
      ))}
      {total > RECORDED_PAGE && <RecordedPager offset={offset} total={total} onOffset={setOffset} />}
    </section>
  );
}

/**
 * One page of the node's recorded messages, read when shown, when the page or `progress` (status and
 * counts: they change as the node works) moves, and on `load` (Refresh).
 */
function useRecorded(executionId: string, nodeId: string, offset: number, progress: string) {
  const api = useApi();
  const [data, setData] = useState<RecordedNode | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  const load = useCallback(() => setReads((n) => n + 1), []);
  useEffect(() => {
    let current = true;
    api['runs.recorded']({ executionId, nodeId, offset, limit: RECORDED_PAGE }).then(
      (recorded) => current && (setData(recorded), setError(null)),
      (e: unknown) => current && setError(describeError(e)),
    );
    return () => {
      current = false;
    };
    // `progress` (status and counts) changes as the node works: read again then.
  }, [api, executionId, nodeId, offset, reads, progress]);
  return { data, error, load };
}

function RecordedPager({ offset, total, onOffset }: { offset: number; total: number; onOffset(offset: number): void }) {
  return (
    <div className="pager">
      <button
        type="button"
        className="icon-button"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - RECORDED_PAGE))}
        aria-label="Previous page"
        data-testid="recorded-prev"
      >
        <ChevronLeft size={14} aria-hidden="true" />
      </button>
      <span>
        {offset + 1}–{Math.min(total, offset + RECORDED_PAGE)} of {total}
      </span>
      <button
        type="button"
        className="icon-button"
        disabled={offset + RECORDED_PAGE >= total}
        onClick={() => onOffset(offset + RECORDED_PAGE)}
        aria-label="Next page"
        data-testid="recorded-next"
      >
        <ChevronRight size={14} aria-hidden="true" />
      </button>
    </div>
  );
}

function RecordedList({ title, stream }: { title: string; stream: RecordedStream }) {
  return (
    <div className="recorded-list">
      <div className="field-hint">
        {title}: {stream.total} message(s){stream.end ? `, ended ${stream.end}` : ', still running'}
        {stream.overCap && <span className="is-warning"> — recording stopped: {stream.overCap}</span>}
      </div>
      <ol>
        {stream.messages.map((m) => (
          <li key={m.index} data-testid={`recorded-message-${m.index}`}>
            <span className="muted">
              #{m.index + 1} · {m.port}
            </span>
            <JsonTree value={m.payload} />
            {Object.keys(m.metadata).length > 0 && (
              // Open when it carries an approval's outcome: that is what the user came to read.
              <details open={m.metadata['signal.decision'] !== undefined}>
                <summary>Metadata</summary>
                <MessageMetadata metadata={m.metadata} testId={`recorded-metadata-${m.index}`} />
              </details>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
