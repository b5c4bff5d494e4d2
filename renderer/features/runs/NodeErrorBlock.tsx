import { OctagonX } from 'lucide-react';
import { CopyButton } from '../../components/CopyButton';
import { JsonTree } from '../../components/JsonTree';
import { useLive } from '../../store/live-store';

/**
 * At the top of the inspector when the selected node failed in the shown run (UI.md): the message, its kind
 * (error name and code), attempt n of m, when, the input that failed, and Copy (the whole error as JSON).
 */
export function NodeErrorBlock({ nodeId }: { nodeId: string }) {
  const error = useLive((s) => s.nodes[nodeId]?.error);
  const endedAt = useLive((s) => s.nodes[nodeId]?.endedAt);
  if (!error) return null;
  return (
    <section className="error-block" role="alert" aria-label="Error" data-testid="inspector-error">
      <div className="error-block-title">
        <OctagonX size={14} aria-hidden="true" /> Error
        <span className="app-bar-spacer" />
        <CopyButton
          text={() => JSON.stringify({ nodeId, ...error, ...(endedAt ? { at: new Date(endedAt).toISOString() } : {}) }, null, 2)}
          testId="inspector-error-copy"
          title="Copy the error, its attempt and input as JSON"
        />
      </div>
      <p className="error-block-message" data-testid="inspector-error-message">
        {error.message}
      </p>
      <dl className="error-block-facts">
        <dt>Kind</dt>
        <dd data-testid="inspector-error-kind">{error.code ? `${error.name} (${error.code})` : error.name}</dd>
        {error.attempt !== undefined && error.maxAttempts !== undefined && (
          <>
            <dt>Attempt</dt>
            <dd data-testid="inspector-error-attempt">
              {error.attempt} of {error.maxAttempts}
            </dd>
          </>
        )}
        {endedAt !== undefined && (
          <>
            <dt>When</dt>
            <dd data-testid="inspector-error-when">{new Date(endedAt).toLocaleString()}</dd>
          </>
        )}
      </dl>
      {error.input !== undefined && (
        <>
          <div className="field-label">Input that failed</div>
          <JsonTree value={error.input} testId="inspector-error-input" label="input that failed" />
        </>
      )}
    </section>
  );
}
