import type { ReactNode } from 'react';
import { pathKey, type FieldSpec } from './schema-fields';

/** A field's message: a DEF-02 issue from validation (with its code) or an instant check. */
export interface FieldMessage {
  code?: string;
  message: string;
}

export interface FieldProps<F extends FieldSpec = FieldSpec> {
  field: F;
  root: Readonly<Record<string, unknown>>;
  errors: ReadonlyMap<string, FieldMessage>;
  onFieldChange: (path: readonly string[], value: unknown) => void;
}

/** A field's label, required mark, control and its message (an issue, else the field's description). */
export function FieldFrame({
  field,
  errors,
  draftError,
  inputId,
  children,
}: {
  field: FieldSpec;
  errors: ReadonlyMap<string, FieldMessage>;
  draftError?: string | null;
  inputId: string;
  children: ReactNode;
}) {
  const key = pathKey(field.path);
  const issue: FieldMessage | undefined = draftError ? { message: draftError } : errors.get(key);
  return (
    <div className="field form-field" data-field={key}>
      <label className="field-label" htmlFor={inputId}>
        {field.label}
        {field.required && (
          <span className="required-mark" aria-label="required">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {issue ? (
        <span className="field-error" id={`${inputId}-error`} data-testid={`field-error-${key}`}>
          {issue.code && <code>{issue.code}</code>} {issue.message}
        </span>
      ) : (
        field.description && <span className="field-hint">{field.description}</span>
      )}
    </div>
  );
}

export function inputProps(field: FieldSpec, id: string, errors: ReadonlyMap<string, FieldMessage>, draftError?: string | null) {
  const key = pathKey(field.path);
  const invalid = Boolean(draftError) || errors.has(key);
  return { id, 'data-testid': `field-${key}`, 'aria-invalid': invalid, 'aria-describedby': invalid ? `${id}-error` : undefined, spellCheck: false };
}

export function placeholderOf(field: FieldSpec): string | undefined {
  return field.defaultValue === undefined
    ? undefined
    : `default: ${typeof field.defaultValue === 'string' ? field.defaultValue : JSON.stringify(field.defaultValue)}`;
}
