import * as Popover from '@radix-ui/react-popover';
import { useState, type ReactElement } from 'react';
import { focusMarked, keepKeysInside } from '../../components/Dialog';
import { JsonEditor } from '../../components/JsonEditor';
import { parseConfigText } from '../editor/config-text';
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

const PAYLOAD_KEY_PREFIX = 'yukta-studio:last-payload:';

/** The payload last run with Run with payload… for a workflow (`session/workflowId`), kept in this browser. */
export function lastPayload(workflowKey: string): string | null {
  try {
    return localStorage.getItem(PAYLOAD_KEY_PREFIX + workflowKey);
  } catch {
    return null;
  }
}

function rememberPayload(workflowKey: string, text: string): void {
  try {
    localStorage.setItem(PAYLOAD_KEY_PREFIX + workflowKey, text);
  } catch {
    // Storage full or off: the dialog simply starts empty next time.
  }
}

/** "Run with payload…" as a Radix popover on the Run caret (focus trap, Escape, a click outside closes). */
export function RunPayloadPopover({
  trigger,
  open,
  onOpenChange,
  onRun,
  workflowKey,
}: {
  trigger: ReactElement;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRun: (payload: Record<string, unknown>, options: StartOptions) => void;
  workflowKey: string;
}) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="popover start-dialog"
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-label="Run with payload"
          onOpenAutoFocus={focusMarked}
          onKeyDown={keepKeysInside}
          data-testid="run-payload-dialog"
        >
          <RunPayloadDialog key={workflowKey} workflowKey={workflowKey} onRun={onRun} onCancel={() => onOpenChange(false)} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/**
 * "Run with payload…", the start dialog (STU-03, STU-06): a JSON payload (CodeMirror, checked as typed, the
 * last one of this workflow filled in) plus priority, fairness key and weight, time budget and idempotency
 * key. Each refusal is shown at its field.
 */
export function RunPayloadDialog({
  onRun,
  onCancel,
  workflowKey,
}: {
  onRun: (payload: Record<string, unknown>, options: StartOptions) => void;
  onCancel: () => void;
  workflowKey: string;
}) {
  const [fields, setFields] = useState<StartFields>(() => ({ ...EMPTY_START_FIELDS, payload: lastPayload(workflowKey) ?? EMPTY_START_FIELDS.payload }));
  const [errors, setErrors] = useState<Partial<Record<StartField, string>>>({});
  const set = (field: StartField, value: string) => setFields((f) => ({ ...f, [field]: value }));
  const parsed = parseConfigText(fields.payload);
  const payloadError = errors.payload ?? (parsed.ok ? null : parsed.error.replace('Config', 'The payload').replace(' The last valid config is kept.', ''));

  const submit = () => {
    const start = buildStart(fields);
    if (!start.ok) return setErrors(start.errors);
    rememberPayload(workflowKey, fields.payload);
    onRun(start.payload, start.idempotencyKey ? { idempotencyKey: start.idempotencyKey } : {});
  };
  return (
    <>
      <div className="field" data-autofocus tabIndex={-1}>
        <span className="field-label">Start payload (JSON object)</span>
        <JsonEditor
          value={fields.payload}
          onChange={(text) => set('payload', text)}
          label="Start payload (JSON object)"
          testId="run-payload-input"
          minLines={5}
          invalid={payloadError !== null}
        />
        {payloadError && (
          <span className="field-error" role="alert" data-testid="run-payload-error">
            {payloadError}
          </span>
        )}
      </div>
      <StartOptionFields fields={fields} errors={errors} set={set} />
      <div className="popover-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button primary" onClick={submit} data-testid="run-payload-submit">
          Run
        </button>
      </div>
    </>
  );
}

/** Priority, fairness key and weight, time budget and idempotency key: one input each, its refusal or its hint under it. */
function StartOptionFields({
  fields,
  errors,
  set,
}: {
  fields: StartFields;
  errors: Partial<Record<StartField, string>>;
  set: (field: StartField, value: string) => void;
}) {
  return (
    <div className="start-options">
      {SMALL_FIELDS.map(({ field, label, placeholder, hint }) => (
        <label key={field} className="field compact">
          <span className="field-label">{label}</span>
          <input
            value={fields[field]}
            placeholder={placeholder}
            onChange={(e) => set(field, e.target.value)}
            aria-invalid={errors[field] !== undefined}
            spellCheck={false}
            data-testid={`run-payload-${field}`}
          />
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
  );
}
