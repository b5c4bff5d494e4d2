import { BreakpointPath } from '../../../shared/api/control.schema';

/** A breakpoint condition as the engine takes it (CTL-02): the value at `path` compared as text with `equals`. */
export interface BreakpointCondition {
  path: string;
  equals: string;
}

export type ParsedCondition = { ok: true; condition: BreakpointCondition | null } | { ok: false; error: string };

/** Longest value the engine accepts (`SetBreakpoint.equals`). */
const MAX_VALUE_LENGTH = 10_000;
const HOW = 'Write payload.path == value or metadata.key == value, e.g. payload.order.id == 42 (leave empty to stop at every message).';

/**
 * Parses `payload.path == value` or `metadata.key == value` (empty: no condition). The value is compared as
 * text, the way the engine does: a quoted string `"42"` means the text 42; other JSON (numbers, true, objects)
 * is normalised (`{ "a": 1 }` → `{"a":1}`), anything else is taken as typed.
 */
export function parseCondition(text: string): ParsedCondition {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, condition: null };
  const at = trimmed.indexOf('==');
  if (at < 0) return { ok: false, error: `No "==" in the condition. ${HOW}` };
  const path = trimmed.slice(0, at).trim();
  const raw = trimmed.slice(at + 2).trim();
  if (raw.startsWith('=')) return { ok: false, error: 'Use == (two equals signs), not ===.' };
  const pathProblem = checkPath(path);
  if (pathProblem) return { ok: false, error: pathProblem };
  if (raw === '') return { ok: false, error: 'Give the value to stop at after "==" (use "" for the empty text).' };
  const equals = valueText(raw);
  if (equals.length > MAX_VALUE_LENGTH) return { ok: false, error: `The value is longer than ${MAX_VALUE_LENGTH} characters.` };
  return { ok: true, condition: { path, equals } };
}

function checkPath(path: string): string | null {
  if (path === '') return `The condition has no path before "==". ${HOW}`;
  if (path === 'metadata') return 'Name a metadata key: metadata.key == value.';
  if (/^metadata\.[^.]+\./.test(path)) return 'A metadata key is one name (metadata.key): metadata values are text, not objects.';
  if (!path.startsWith('payload') && !path.startsWith('metadata')) return `"${path}" must start with payload or metadata. ${HOW}`;
  if (/\s/.test(path)) return `The path "${path}" contains a space.`;
  if (path.includes('..') || path.endsWith('.')) return `The path "${path}" has an empty part.`;
  return BreakpointPath.safeParse(path).success ? null : `"${path}" is not a valid path. ${HOW}`;
}

/** The text the engine compares with: JSON strings unquoted, other JSON normalised, anything else as typed. */
function valueText(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return raw;
  }
}

/** The condition as the editor shows it (a value that reads as JSON of another kind is quoted). */
export function formatCondition(condition: BreakpointCondition | null): string {
  if (!condition) return '';
  return `${condition.path} == ${quoteIfNeeded(condition.equals)}`;
}

function quoteIfNeeded(text: string): string {
  // Typed back as shown, every value parses to the same text again.
  return text === '' || text.trim() !== text || text.startsWith('"') ? JSON.stringify(text) : text;
}
