import { z } from 'zod';

/** Longest identifier accepted anywhere (DEF-02). */
export const MAX_IDENTIFIER_LENGTH = 128;

// Control characters: C0, DEL and C1.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why an identifier is refused, or null when it is acceptable.
 * Identifiers become folder names and URL segments, so separators, `..`, `.`, `%` and control characters are refused.
 */
export function identifierProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_IDENTIFIER_LENGTH) return `must be at most ${MAX_IDENTIFIER_LENGTH} characters`;
  if (value.includes('/') || value.includes('\\')) return 'must not contain a path separator';
  if (value.includes('..')) return 'must not contain ".."';
  if (value === '.') return 'must not be "."';
  // Transports decode URL escapes once; a literal "%2e%2e" must not become ".." in a second decoder (SEC-03).
  if (value.includes('%')) return 'must not contain "%"';
  if (CONTROL_CHARS.test(value)) return 'must not contain control characters';
  if (value.trim() !== value) return 'must not start or end with whitespace';
  return null;
}

/** Identifier of a session, workflow, node, plugin type or config key (DEF-02). */
export const Identifier = z.string().superRefine((value, ctx) => {
  const problem = identifierProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `identifier ${problem}` });
});

/** The session used when a caller names none. */
export const DEFAULT_SESSION = 'default';
