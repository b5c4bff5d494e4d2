import { Pencil } from 'lucide-react';
import { useState } from 'react';
import type { NodeControlState } from '../../../shared/api/control.schema';
import { JsonEditor } from '../../components/JsonEditor';
import { JsonTree } from '../../components/JsonTree';

type Held = NonNullable<NodeControlState['held']>;

/**
 * The message held at the node (breakpoint, pause or step) as a JSON tree with its metadata; Edit opens
 * its payload in the JSON editor and Replace sends it (ReplaceHeldMessage) before the message is let go.
 */
export function HeldMessage({ held, onReplace }: { held: Held; onReplace: (payload: unknown) => Promise<boolean> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const replace = async () => {
    if (draft === null) return;
    let payload: unknown;
    try {
      payload = JSON.parse(draft);
    } catch (e) {
      return setError(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    setError(null);
    if (await onReplace(payload)) setDraft(null);
  };
  return (
    <section className="inspector-section held-message" aria-label="Held message" data-testid="held-message" data-message-id={held.id}>
      <div className="section-header">
        <span className="field-label">Held message</span>
        <code className="muted" title={held.id}>
          {held.id.slice(0, 12)}
        </code>
        {draft === null && (
          <button type="button" className="button small" onClick={() => setDraft(JSON.stringify(held.payload, null, 2))} data-testid="held-edit">
            <Pencil size={12} aria-hidden="true" /> Edit
          </button>
        )}
      </div>
      {draft === null ? (
        <JsonTree value={held.payload} testId="held-payload" />
      ) : (
        <>
          <JsonEditor value={draft} onChange={setDraft} label="Held message payload" testId="held-payload-editor" invalid={error !== null} minLines={4} />
          {error && (
            <span className="field-error" role="alert" data-testid="held-error">
              {error}
            </span>
          )}
          <div className="dialog-actions">
            <button type="button" className="button small" onClick={() => (setDraft(null), setError(null))} data-testid="held-cancel">
              Cancel
            </button>
            <button type="button" className="button small primary" onClick={() => void replace()} data-testid="held-replace">
              Replace payload
            </button>
          </div>
        </>
      )}
      {Object.keys(held.metadata).length > 0 && (
        <details className="held-metadata">
          <summary>Metadata</summary>
          <JsonTree value={held.metadata} label="metadata" />
        </details>
      )}
      <p className="field-hint">Step (F10) lets it go and holds the next; Resume (F6) lets everything go.</p>
    </section>
  );
}
