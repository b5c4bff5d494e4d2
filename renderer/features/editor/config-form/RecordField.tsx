import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { FieldFrame, type FieldProps } from './field-frame';
import { getAt, pathKey, type FieldSpec } from './schema-fields';
import { useDraft, type DraftParse } from './use-draft';

type Row = readonly [string, string];

/** A record as name/value rows (TRANSFORM-style maps, headers). */
export function RecordField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'record' }>>) {
  const id = useId();
  const key = pathKey(field.path);
  const value = getAt(root, field.path);
  const format = (v: unknown): string =>
    JSON.stringify(Object.entries(v && typeof v === 'object' ? v : {}).map(([k, x]) => [k, field.valueKind === 'any' ? formatAny(x) : String(x)]));
  const parse = (text: string): DraftParse<unknown> => rowsToRecord(JSON.parse(text) as Row[], field.valueKind);
  const draft = useDraft<unknown>(value ?? (field.required ? {} : undefined), format, parse, (v) => onFieldChange(field.path, v));
  const rows = JSON.parse(draft.text || '[]') as Row[];
  const setRows = (next: Row[]) => draft.onText(JSON.stringify(next));
  return (
    <FieldFrame field={field} errors={errors} inputId={id} draftError={draft.error}>
      <div className="record-rows" id={id} data-testid={`field-${key}`}>
        {rows.map(([k, v], i) => (
          <div className="record-row" key={i}>
            <input
              aria-label={`${field.label} name ${i + 1}`}
              value={k}
              placeholder="name"
              spellCheck={false}
              onChange={(e) => setRows(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
              data-testid={`field-${key}-key-${i}`}
            />
            <input
              aria-label={`${field.label} value ${i + 1}`}
              value={v}
              placeholder={field.valueKind === 'any' ? 'text or JSON' : 'text'}
              spellCheck={false}
              onChange={(e) => setRows(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))}
              data-testid={`field-${key}-value-${i}`}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${k || 'row'}`}
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
              data-testid={`field-${key}-remove-${i}`}
            >
              <Trash2 size={13} aria-hidden="true" />
            </button>
          </div>
        ))}
        <button type="button" className="button small" onClick={() => setRows([...rows, ['', '']])} data-testid={`field-${key}-add`}>
          <Plus size={13} aria-hidden="true" /> Add
        </button>
      </div>
      {field.valueKind === 'any' && <span className="field-hint">Values are text; JSON such as 42, true or {'{…}'} is read as JSON.</span>}
    </FieldFrame>
  );
}

function formatAny(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Rows → record; an empty or repeated name keeps the draft (shown as the field's error). */
export function rowsToRecord(rows: readonly Row[], valueKind: 'string' | 'any'): DraftParse<unknown> {
  const record: Record<string, unknown> = {};
  for (const [k, v] of rows) {
    if (k.trim() === '') return { ok: false, error: 'every row needs a name' };
    if (k in record) return { ok: false, error: `"${k}" is named twice` };
    record[k] = valueKind === 'any' ? readAny(v) : v;
  }
  return { ok: true, value: record };
}

function readAny(text: string): unknown {
  const t = text.trim();
  if (/^([[{"]|-?\d|true$|false$|null$)/.test(t)) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
