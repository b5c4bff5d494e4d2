import { CircleDot } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { currentBreakpoints, useDebug, type Breakpoint } from '../../store/debug-store';
import { formatCondition, parseCondition } from './breakpoint-condition';

/** The condition being typed, its parse error, and the three ways it is applied (Enter/Apply, Escape, the toggle). */
function useBreakpointDraft(breakpoint: Breakpoint | undefined, onChange: (breakpoint: Breakpoint | null) => void) {
  const [draft, setDraft] = useState(() => formatCondition(breakpoint?.condition ?? null));
  const [error, setError] = useState<string | null>(null);
  const applied = formatCondition(breakpoint?.condition ?? null);

  const apply = () => {
    const parsed = parseCondition(draft);
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    if (parsed.condition === null && !breakpoint) return;
    onChange({ condition: parsed.condition });
    setDraft(formatCondition(parsed.condition));
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') apply();
    if (e.key === 'Escape') {
      setDraft(applied);
      setError(null);
    }
  };
  const toggle = (on: boolean) => {
    if (!on) return onChange(null);
    const parsed = parseCondition(draft);
    onChange({ condition: parsed.ok ? parsed.condition : null });
  };
  return { draft, setDraft, error, applied, apply, onKey, toggle };
}

/** What the breakpoint will do, under the condition field. */
function BreakpointHint({ breakpoint }: { breakpoint: Breakpoint | undefined }) {
  return (
    <span className="field-hint">
      {breakpoint?.condition
        ? `Stops before a message whose ${breakpoint.condition.path} is ${JSON.stringify(breakpoint.condition.equals)}.`
        : breakpoint
          ? 'Stops before the next message (no condition).'
          : 'Empty: stop before every message; or payload.path == value, metadata.key == value.'}
    </span>
  );
}

/**
 * The selected node's breakpoint (STU-04): on or off (F9, or the dot on the node), and an optional
 * condition `payload.path == value` / `metadata.key == value`, checked as it is applied (Enter or Apply); a
 * condition that does not parse is named under the field and not applied.
 */
export function BreakpointEditor({ nodeId, onChange }: { nodeId: string; onChange: (breakpoint: Breakpoint | null) => void }) {
  const breakpoint = useDebug((s) => currentBreakpoints(s)[nodeId]);
  const { draft, setDraft, error, applied, apply, onKey, toggle } = useBreakpointDraft(breakpoint, onChange);

  return (
    <section className="inspector-section" aria-label="Breakpoint" data-testid="breakpoint-editor">
      <label className="checkbox-field">
        <input type="checkbox" checked={breakpoint !== undefined} onChange={(e) => toggle(e.target.checked)} data-testid="breakpoint-toggle" />
        <CircleDot size={13} aria-hidden="true" className="breakpoint-icon" />
        <span>Breakpoint (F9)</span>
      </label>
      <label className="field">
        <span className="field-label">Condition</span>
        <div className="field-row">
          <input
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            placeholder="payload.order.id == 42"
            spellCheck={false}
            aria-invalid={error !== null}
            data-testid="breakpoint-condition"
          />
          <button type="button" className="button small" onClick={apply} disabled={draft === applied && error === null} data-testid="breakpoint-apply">
            Apply
          </button>
        </div>
        {error && (
          <span className="field-error" role="alert" data-testid="breakpoint-condition-error">
            {error}
          </span>
        )}
        <BreakpointHint breakpoint={breakpoint} />
      </label>
    </section>
  );
}
