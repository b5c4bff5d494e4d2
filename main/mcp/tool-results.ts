import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiResult } from '../../shared/api/errors';
import { formatApiError } from '../cli/issue-format';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An operation's answer as an MCP tool result: the value as structured content (a list is wrapped as
 * `{items}`, since structured content is an object) with its JSON as text; an error as a tool error
 * (`isError`) whose text is the code, message and field (then each validation issue), with the error data as structured content.
 */
export function toolResult(result: ApiResult<unknown>): CallToolResult {
  if (!result.ok) {
    return { isError: true, content: [{ type: 'text', text: formatApiError(result.error).join('\n') }], structuredContent: { error: result.error } };
  }
  const value = result.value;
  return { content: [{ type: 'text', text: JSON.stringify(value ?? null) }], structuredContent: isRecord(value) ? value : { items: value ?? null } };
}
