import { assertNever } from '../../../../shared/assert-never';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo } from 'react';
import { useApi } from '../../../api/api-context';
import { connectedPools, readWorkers, useWorkers } from '../../../store/workers-store';
import { JsonEditor } from '../../../components/JsonEditor';
import { FieldFrame, inputProps, placeholderOf, type FieldMessage, type FieldProps } from './field-frame';
import { RecordField } from './RecordField';
import { getAt, itemFields, pathKey, type FieldSpec } from './schema-fields';
import { useDraft, type DraftParse } from './use-draft';

export type { FieldMessage, FieldProps };

/** One generated field, by kind; objects recurse into a fieldset. */
export function FieldView(props: FieldProps) {
  const { field } = props;
  switch (field.kind) {
    case 'object':
      return <ObjectField {...props} field={field} />;
    case 'object-list':
      return <ObjectListField {...props} field={field} />;
    case 'boolean':
      return <BooleanField {...props} field={field} />;
    case 'enum':
      return <EnumField {...props} field={field} />;
    case 'string':
      return field.suggest === 'worker-pools' ? <PoolField {...props} field={field} /> : <TextField {...props} field={field} />;
    case 'number':
    case 'integer':
      return <NumberField {...props} field={field} />;
    case 'string-list':
      return <StringListField {...props} field={field} />;
    case 'record':
      return <RecordField {...props} field={field} />;
    case 'json':
      return <JsonField {...props} field={field} />;
    default:
      return assertNever(field, 'field');
  }
}

function ObjectField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'object' }>>) {
  const key = pathKey(field.path);
  const issue = errors.get(key);
  return (
    <fieldset className="form-group" data-testid={`group-${key}`}>
      <legend>{field.label}</legend>
      {field.description && <span className="field-hint">{field.description}</span>}
      {issue && (
        <span className="field-error" data-testid={`field-error-${key}`}>
          {issue.code && <code>{issue.code}</code>} {issue.message}
        </span>
      )}
      {field.children.map((child) => (
        <FieldView key={child.key} field={child} root={root} errors={errors} onFieldChange={onFieldChange} />
      ))}
    </fieldset>
  );
}

function ObjectListField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'object-list' }>>) {
  const key = pathKey(field.path);
  const value = getAt(root, field.path);
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const issue = errors.get(key);
  const singular = field.label.replace(/s$/, '');
  const full = field.maxItems !== undefined && items.length >= field.maxItems;
  return (
    <fieldset className="form-group" data-testid={`group-${key}`}>
      <legend>{field.label}</legend>
      {field.description && <span className="field-hint">{field.description}</span>}
      {issue && (
        <span className="field-error" data-testid={`field-error-${key}`}>
          {issue.code && <code>{issue.code}</code>} {issue.message}
        </span>
      )}
      {items.map((_, i) => (
        <div className="list-item" key={i} data-testid={`field-${key}-item-${i}`}>
          <div className="list-item-header">
            <span>
              {singular} {i + 1}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${singular.toLowerCase()} ${i + 1}`}
              onClick={() =>
                onFieldChange(
                  field.path,
                  items.filter((_, j) => j !== i),
                )
              }
              data-testid={`field-${key}-remove-${i}`}
            >
              <Trash2 size={13} aria-hidden="true" />
            </button>
          </div>
          {itemFields(field, i).map((child) => (
            <FieldView key={child.key} field={child} root={root} errors={errors} onFieldChange={onFieldChange} />
          ))}
        </div>
      ))}
      <button
        type="button"
        className="button small list-add"
        disabled={full}
        onClick={() => onFieldChange(field.path, [...items, {}])}
        data-testid={`field-${key}-add`}
      >
        <Plus size={13} aria-hidden="true" /> Add {singular.toLowerCase()}
      </button>
    </fieldset>
  );
}

function BooleanField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'boolean' }>>) {
  const id = useId();
  const value = getAt(root, field.path);
  const checked = typeof value === 'boolean' ? value : field.defaultValue === true;
  // Unchecking an optional flag whose default is false removes it, so the config stays minimal.
  const set = (on: boolean) => onFieldChange(field.path, on ? true : field.required || field.defaultValue === true ? false : undefined);
  return (
    <FieldFrame field={field} errors={errors} inputId={id}>
      <input type="checkbox" checked={checked} onChange={(e) => set(e.target.checked)} {...inputProps(field, id, errors)} />
    </FieldFrame>
  );
}

function EnumField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'enum' }>>) {
  const id = useId();
  const value = getAt(root, field.path);
  const unset = field.defaultValue !== undefined ? `default (${String(field.defaultValue)})` : 'not set';
  return (
    <FieldFrame field={field} errors={errors} inputId={id}>
      <select
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onFieldChange(field.path, e.target.value === '' ? undefined : e.target.value)}
        {...inputProps(field, id, errors)}
      >
        {(!field.required || value === undefined) && <option value="">— {unset} —</option>}
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

function TextField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'string' }>>) {
  const id = useId();
  const value = getAt(root, field.path);
  return (
    <FieldFrame field={field} errors={errors} inputId={id}>
      <input
        type="text"
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholderOf(field)}
        maxLength={field.maxLength}
        onChange={(e) => onFieldChange(field.path, e.target.value === '' && !field.required ? undefined : e.target.value)}
        {...inputProps(field, id, errors)}
      />
    </FieldFrame>
  );
}

/** A pool name, offering the pools of the workers connected now (SCL-01); any name may still be typed. */
function PoolField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'string' }>>) {
  const id = useId();
  const api = useApi();
  const view = useWorkers((s) => s.view);
  const pools = useMemo(() => connectedPools(view), [view]);
  useEffect(() => void readWorkers(api), [api]);
  const value = getAt(root, field.path);
  return (
    <FieldFrame field={field} errors={errors} inputId={id}>
      <input
        type="text"
        list={`${id}-pools`}
        value={typeof value === 'string' ? value : ''}
        placeholder={pools.length ? `connected: ${pools.join(', ')}` : 'no worker connected'}
        onChange={(e) => onFieldChange(field.path, e.target.value === '' && !field.required ? undefined : e.target.value)}
        {...inputProps(field, id, errors)}
      />
      <datalist id={`${id}-pools`} data-testid={`field-${pathKey(field.path)}-pools`}>
        {pools.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
    </FieldFrame>
  );
}

function NumberField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'number' | 'integer' }>>) {
  const id = useId();
  const value = getAt(root, field.path);
  const draft = useDraft<unknown>(
    value,
    (v) => (v === undefined ? '' : String(v)),
    parseNumber,
    (v) => onFieldChange(field.path, v),
  );
  return (
    <FieldFrame field={field} errors={errors} inputId={id} draftError={draft.error}>
      <input
        type="text"
        inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
        value={draft.text}
        placeholder={placeholderOf(field)}
        onChange={(e) => draft.onText(e.target.value)}
        {...inputProps(field, id, errors, draft.error)}
      />
    </FieldFrame>
  );
}

function parseNumber(text: string): DraftParse<unknown> {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const n = Number(t);
  return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, error: `"${t}" is not a number` };
}

function StringListField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'string-list' }>>) {
  const id = useId();
  const value = getAt(root, field.path);
  const format = (v: unknown) => (Array.isArray(v) ? v.map(String).join('\n') : '');
  const parse = (text: string): DraftParse<unknown> => {
    const items = text
      .split('\n')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return { ok: true, value: items.length === 0 && !field.required ? undefined : items };
  };
  const draft = useDraft<unknown>(value, format, parse, (v) => onFieldChange(field.path, v));
  return (
    <FieldFrame field={field} errors={errors} inputId={id}>
      <textarea
        className="code list-input"
        rows={3}
        value={draft.text}
        placeholder={field.options ? field.options.join('\n') : 'one item per line'}
        onChange={(e) => draft.onText(e.target.value)}
        {...inputProps(field, id, errors)}
      />
    </FieldFrame>
  );
}

function JsonField({ field, root, errors, onFieldChange }: FieldProps<Extract<FieldSpec, { kind: 'json' }>>) {
  const id = useId();
  const value = getAt(root, field.path);
  const parse = (text: string): DraftParse<unknown> => {
    if (text.trim() === '') return { ok: true, value: undefined };
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
  const draft = useDraft<unknown>(
    value,
    (v) => (v === undefined ? '' : JSON.stringify(v, null, 2)),
    parse,
    (v) => onFieldChange(field.path, v),
  );
  return (
    <FieldFrame field={field} errors={errors} inputId={id} draftError={draft.error}>
      <JsonEditor
        value={draft.text}
        onChange={draft.onText}
        label={field.label}
        testId={`field-${pathKey(field.path)}`}
        invalid={Boolean(draft.error) || errors.has(pathKey(field.path))}
        minLines={3}
        placeholder={placeholderOf(field)}
      />
    </FieldFrame>
  );
}
