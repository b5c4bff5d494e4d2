import { useEffect, useState } from 'react';
import type { RemoteAttemptInfo } from '../../../shared/api/workers.schema';
import { useApi } from '../../api/api-context';
import { describeError } from '../workflow/describe-error';
import { formatMs } from '../../components/format-duration';

/**
 * Which worker ran each attempt of a placed node in the shown run (SCL-01): attempt, message, worker (or none
 * connected), outcome and time, with the error of a failed one. Read again as the node's status and counts move.
 */
export function RemoteAttempts({ executionId, nodeId, pool, progress }: { executionId: string; nodeId: string; pool: string; progress: string }) {
  const api = useApi();
  const [attempts, setAttempts] = useState<RemoteAttemptInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api['workers.attempts']({ executionId, nodeId }).then(
      (list) => current && (setAttempts(list), setError(null)),
      (e: unknown) => current && setError(describeError(e)),
    );
    return () => {
      current = false;
    };
  }, [api, executionId, nodeId, progress]);
  return (
    <section className="inspector-section remote-attempts" aria-label="Remote attempts" data-testid="remote-attempts">
      <div className="field-label">Ran on workers of pool {pool}</div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {attempts && attempts.length === 0 && <p className="empty-hint">No attempt yet.</p>}
      {attempts && attempts.length > 0 && (
        <table className="scheduler-table">
          <thead>
            <tr>
              <th title="Attempt">#</th>
              <th>Message</th>
              <th>Worker</th>
              <th>Outcome</th>
              <th>Took</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((a, i) => (
              <tr key={i} data-testid={`remote-attempt-${i}`} title={a.error ? `${a.error.name}: ${a.error.message}` : undefined}>
                <td>{a.attempt}</td>
                <td>{a.messageId}</td>
                <td data-testid={`remote-attempt-${i}-worker`}>{a.worker ?? 'none connected'}</td>
                <td data-testid={`remote-attempt-${i}-outcome`}>{a.outcome}</td>
                <td>{a.endedAt === undefined ? '…' : formatMs(a.endedAt - a.startedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {attempts?.some((a) => a.error) && (
        <ul className="field-hint" data-testid="remote-attempt-errors">
          {attempts.flatMap((a, i) => (a.error ? [<li key={i}>{`attempt ${a.attempt} (${a.worker ?? 'no worker'}): ${a.error.message}`}</li>] : []))}
        </ul>
      )}
    </section>
  );
}
