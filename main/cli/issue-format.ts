import type { ApiErrorData } from '../../shared/api/errors';
import type { ValidationIssue } from '../../shared/workflow/validation-issue';

/** One issue as `code node path: message` (`-` for a missing node or path). */
export function formatIssue(issue: ValidationIssue): string {
  const suffix = issue.severity === 'warning' ? ' (warning)' : '';
  return `${issue.code} ${issue.nodeId ?? '-'} ${issue.path ?? '-'}: ${issue.message}${suffix}`;
}

/** An API error as lines: its code and message, then its validation issues. */
export function formatApiError(error: ApiErrorData): string[] {
  const where = error.path ? ` (at ${error.path})` : '';
  return [`${error.code}: ${error.message}${where}`, ...(error.issues ?? []).map(formatIssue)];
}
