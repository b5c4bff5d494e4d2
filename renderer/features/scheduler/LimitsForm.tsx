import { useState, type FormEvent } from 'react';
import { LIMIT_SETTING_NAMES, type SchedulerLimits, type SchedulerLimitsPatch } from '../../../shared/api/scheduler.schema';

type NumericLimit = Exclude<keyof SchedulerLimits, 'onLimit'>;

const FIELDS: Array<{ key: NumericLimit; label: string; hint: string }> = [
  { key: 'maxConcurrent', label: 'Max concurrent', hint: 'all runs; 0 = off' },
  { key: 'maxConcurrentPerWorkflow', label: 'Per workflow', hint: '0 = off' },
  { key: 'maxConcurrentPerSession', label: 'Per session', hint: '0 = off' },
  { key: 'queueCapacity', label: 'Queue capacity', hint: 'waiting starts; beyond: 429' },
  { key: 'queueCapacityPerWorkflow', label: 'Queue per workflow', hint: '0 = off' },
  { key: 'queueTimeoutMs', label: 'Queue timeout (ms)', hint: '0 = off; then TIMED_OUT' },
  { key: 'shutdownTimeoutMs', label: 'Shutdown timeout (ms)', hint: 'time running runs get' },
];

/** Why a typed limit is refused, or null. */
function problemOf(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return 'must be a whole number, 0 or more';
  return Number(text) > 2_147_483_647 ? 'is too large' : null;
}

/** Live limit editing (ADM-03, ADMIN): only the fields that changed are sent; the host applies them at once. */
export function LimitsForm({ limits, onApply }: { limits: SchedulerLimits; onApply: (patch: SchedulerLimitsPatch) => Promise<boolean> }) {
  const [text, setText] = useState<Record<NumericLimit, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f.key, String(limits[f.key])])) as Record<NumericLimit, string>,
  );
  const [onLimit, setOnLimit] = useState(limits.onLimit);
  const [busy, setBusy] = useState(false);
  const problems = Object.fromEntries(FIELDS.map((f) => [f.key, problemOf(text[f.key])])) as Record<NumericLimit, string | null>;
  const invalid = FIELDS.some((f) => problems[f.key] !== null);
  const patch: SchedulerLimitsPatch = {};
  for (const f of FIELDS) if (!problems[f.key] && Number(text[f.key]) !== limits[f.key]) patch[f.key] = Number(text[f.key]);
  if (onLimit !== limits.onLimit) patch.onLimit = onLimit;
  const changed = Object.keys(patch).length > 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (invalid || !changed) return;
    setBusy(true);
    await onApply(patch);
    setBusy(false);
  };

  return (
    <form className="limits-form" onSubmit={(e) => void submit(e)} data-testid="scheduler-limits" aria-label="Scheduler limits">
      {FIELDS.map((f) => (
        <label key={f.key} className="limit-field" title={LIMIT_SETTING_NAMES[f.key]}>
          <span className="field-label">{f.label}</span>
          <input
            inputMode="numeric"
            value={text[f.key]}
            onChange={(e) => setText({ ...text, [f.key]: e.target.value })}
            aria-invalid={problems[f.key] !== null}
            data-testid={`limit-${f.key}`}
          />
          {problems[f.key] ? <span className="field-error" role="alert">{`${f.label} ${problems[f.key]}`}</span> : <span className="field-hint">{f.hint}</span>}
        </label>
      ))}
      <label className="limit-field" title={LIMIT_SETTING_NAMES.onLimit}>
        <span className="field-label">On limit</span>
        <select value={onLimit} onChange={(e) => setOnLimit(e.target.value as SchedulerLimits['onLimit'])} data-testid="limit-onLimit">
          <option value="QUEUE">QUEUE (wait)</option>
          <option value="REJECT">REJECT (429)</option>
        </select>
        <span className="field-hint">when no slot is free</span>
      </label>
      <div className="limit-actions">
        <button type="submit" className="button primary small" disabled={busy || invalid || !changed} data-testid="scheduler-limits-apply">
          {busy ? 'Applying…' : 'Apply limits'}
        </button>
      </div>
    </form>
  );
}
