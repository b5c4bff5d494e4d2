import type { ValidationIssue } from '../../../../shared/workflow/validation-issue';
import type { FieldMessage } from './FieldViews';

const NODE_FIELD = /^nodes\.\d+\.(?:config\.(.+)|(timeoutSeconds))$/;

/**
 * Maps a node's validation issues (paths like `nodes.3.config.engine.retry.maxBackoffMs`) to its form
 * fields (`engine.retry.maxBackoffMs`). Issues that name no field of the form stay in `rest`.
 */
export function issuesByField(
  issues: readonly ValidationIssue[] | undefined,
  fieldKeys: ReadonlySet<string>,
): { byField: Map<string, FieldMessage>; rest: ValidationIssue[] } {
  const byField = new Map<string, FieldMessage>();
  const rest: ValidationIssue[] = [];
  for (const issue of issues ?? []) {
    const match = issue.path ? NODE_FIELD.exec(issue.path) : null;
    const key = match ? (match[1] ?? match[2]!) : null;
    if (key && fieldKeys.has(key) && !byField.has(key)) byField.set(key, { code: issue.code, message: issue.message });
    else rest.push(issue);
  }
  return { byField, rest };
}
