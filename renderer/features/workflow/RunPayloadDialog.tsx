import { useEffect, useRef, useState } from 'react';
import { buildStart, EMPTY_START_FIELDS, type StartField, type StartFields } from './start-fields';

export interface StartOptions {
  idempotencyKey?: string;
}

const SMALL_FIELDS: Array<{ field: StartField; label: string; placeholder: string; hint: string }> = [
  { field: 'priority', label: 'Priority', placeholder: '0', hint: 'higher is admitted first' },
  { field: 'fairnessKey', label: 'Fairness key', placeholder: 'the session', hint: 'e.g. a tenant' },
  { field: 'fairnessWeight', label: 'Weight', placeholder: '1', hint: 'share of its key' },
  { field: 'timeBudget', label: 'Time budget (ms)', placeholder: 'none', hint: 'per node attempt' },
  { field: 'idempotencyKey', label: 'Idempotency key', placeholder: 'none', hint: 'a retry returns the same run' },
];

/**
 * "Run with payload…", the start dialog (STU-03, STU-06): a JSON payload plus priority, fairness key and
 * weight, time budget and idempotency key. Each refusal is shown at its field.
 */
export function RunPayloadDialog({ onRun, onCancel }: { onRun: (payload: Record<string, unknown>, options: StartOptions) => void; onCancel: () => void }) {
  const [fields, setFields] = useState<StartFields>(EMPTY_START_FIELDS);
  const [errors, setErrors] = useState<Partial<Record<StartField, string>>>({});
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => area.current?.focus(), []);
  const set = (field: StartField, value: string) => setFields({ ...fields, [field]: value });

  const submit = () => {
    const start = buildStart(fields);
    if (!start.ok) return setErrors(start.errors);
    onRun(start.payload, start.idempotencyKey ? { idempotencyKey: start.idempotencyKey } : {});
  };
  return (
    <div className="popover start-dialog" role="dialog" aria-label="Run with payload" data-testid="run-payload-dialog" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <label className="field">
        <span className="field-label">Start payload (JSON object)</span>
        <textarea ref={area} className="code" rows={6} value={fields.payload} onChange={(e) => set('payload', e.target.value)} spellCheck={false} data-testid="run-payload-input" />
        {errors.payload && (
          <span className="field-error" role="alert">
            {errors.payload}
          </span>
        )}
      </label>
      <div className="start-options">
        {SMALL_FIELDS.map(({ field, label, placeholder, hint }) => (
          <label key={field} className="field compact">
            <span className="field-label">{label}</span>
            <input value={fields[field]} placeholder={placeholder} onChange={(e) => set(field, e.target.value)} aria-invalid={errors[field] !== undefined} spellCheck={false} data-testid={`run-payload-${field}`} />
            {errors[field] ? (
              <span className="field-error" role="alert">
                {errors[field]}
              </span>
            ) : (
              <span className="field-hint">{hint}</span>
            )}
          </label>
        ))}
      </div>
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
