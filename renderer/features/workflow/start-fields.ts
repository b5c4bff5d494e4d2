import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../../shared/api/contract';
import {
  FAIRNESS_KEY,
  FAIRNESS_WEIGHT_KEY,
  fairnessKeyProblem,
  fairnessWeightProblem,
  PRIORITY_KEY,
  priorityProblem,
  TIME_BUDGET_KEY,
  timeBudgetProblem,
} from '../../../shared/api/scheduler.schema';
import { parseConfigText } from '../editor/config-text';

/** The start dialog's fields, as typed (empty = not set). */
export interface StartFields {
  payload: string;
  priority: string;
  fairnessKey: string;
  fairnessWeight: string;
  timeBudget: string;
  idempotencyKey: string;
}

export type StartField = keyof StartFields;

export const EMPTY_START_FIELDS: StartFields = { payload: '{\n  \n}', priority: '', fairnessKey: '', fairnessWeight: '', timeBudget: '', idempotencyKey: '' };

export type StartRequestDraft =
  { ok: true; payload: Record<string, unknown>; idempotencyKey?: string } | { ok: false; errors: Partial<Record<StartField, string>> };

const NUMBER_FIELDS: Array<{ field: StartField; key: string; problem: (v: unknown) => string | null; label: string }> = [
  { field: 'priority', key: PRIORITY_KEY, problem: priorityProblem, label: 'Priority' },
  { field: 'fairnessWeight', key: FAIRNESS_WEIGHT_KEY, problem: fairnessWeightProblem, label: 'Weight' },
  { field: 'timeBudget', key: TIME_BUDGET_KEY, problem: timeBudgetProblem, label: 'Time budget' },
];

/**
 * Turns the dialog's fields into a start: the JSON payload plus the scheduling keys (`yukta.priority`,
 * `yukta.fairnessKey`, `yukta.fairnessWeight`, `yukta.timeBudget`; a filled field wins over the same key
 * in the JSON) and the idempotency key. Each refusal names its field, with the host's own rules.
 */
export function buildStart(fields: StartFields): StartRequestDraft {
  const errors: Partial<Record<StartField, string>> = {};
  const parsed = parseConfigText(fields.payload);
  if (!parsed.ok) errors.payload = parsed.error.replace('Config', 'The payload').replace(' The last valid config is kept.', '');
  const payload: Record<string, unknown> = parsed.ok ? { ...parsed.value } : {};
  for (const { field, key, problem, label } of NUMBER_FIELDS) {
    const text = fields[field].trim();
    if (text === '') continue;
    const value = Number(text);
    const why = problem(value);
    if (why) errors[field] = `${label} ${why}.`;
    else payload[key] = value;
  }
  const key = fields.fairnessKey.trim();
  if (key !== '') {
    const why = fairnessKeyProblem(key);
    if (why) errors.fairnessKey = `Fairness key ${why}.`;
    else payload[FAIRNESS_KEY] = key;
  }
  const idempotencyKey = fields.idempotencyKey.trim();
  if (idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) errors.idempotencyKey = `Idempotency key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return idempotencyKey ? { ok: true, payload, idempotencyKey } : { ok: true, payload };
}
