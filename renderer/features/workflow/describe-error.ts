import { StudioApiError } from '../../../shared/api/errors';

/** A message for the banner: what went wrong, including the first validation issue when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof StudioApiError) {
    const first = error.issues?.find((i) => i.severity === 'error') ?? error.issues?.[0];
    const more = error.issues && error.issues.length > 1 ? ` (${error.issues.length} problems — see the Problems tab)` : '';
    if (first && !error.message.includes(first.message)) return `${error.message}: ${first.message}${more}`;
    return `${error.message}${more}`;
  }
  return error instanceof Error ? error.message : String(error);
}
