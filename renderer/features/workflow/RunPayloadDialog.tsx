import { useEffect, useRef, useState } from 'react';
import { parseConfigText } from '../editor/config-text';

/** "Run with payload…": a JSON object becomes the start payload of the run. */
export function RunPayloadDialog({ onRun, onCancel }: { onRun: (payload: Record<string, unknown>) => void; onCancel: () => void }) {
  const [text, setText] = useState('{\n  \n}');
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => area.current?.focus(), []);

  const submit = () => {
    const parsed = parseConfigText(text);
    if (!parsed.ok) return setError(parsed.error.replace('Config', 'The payload').replace(' The last valid config is kept.', ''));
    onRun(parsed.value);
  };
  return (
    <div className="popover" role="dialog" aria-label="Run with payload" data-testid="run-payload-dialog" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <label className="field">
        <span className="field-label">Start payload (JSON object)</span>
        <textarea ref={area} className="code" rows={6} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} data-testid="run-payload-input" />
        {error && (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
      </label>
      <div className="popover-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button primary" onClick={submit} data-testid="run-payload-submit">
          Run
        </button>
      </div>
    </div>
  );
}
