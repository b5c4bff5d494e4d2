import { useState } from 'react';

/** Parsed text of a field: a value to apply, or why the text cannot be applied yet. */
export type DraftParse<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The text a field shows while the user types (half-typed numbers, lists, JSON), kept apart from the value
 * in the store. The store wins when it changes from elsewhere (undo, the other tab); a parse error is shown
 * and nothing is applied.
 */
export function useDraft<T>(value: T, format: (value: T) => string, parse: (text: string) => DraftParse<T>, apply: (value: T) => void) {
  const [draft, setDraft] = useState(() => ({ text: format(value), basis: value, error: null as string | null }));
  const current = sameJson(draft.basis, value) ? draft : { text: format(value), basis: value, error: null };
  const onText = (text: string) => {
    const parsed = parse(text);
    if (!parsed.ok) return setDraft({ text, basis: value, error: parsed.error });
    setDraft({ text, basis: parsed.value, error: null });
    if (!sameJson(parsed.value, value)) apply(parsed.value);
  };
  return { text: current.text, error: current.error, onText };
}

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}
