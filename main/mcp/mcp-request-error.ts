import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ApiErrorCode, ApiErrorData } from '../../shared/api/errors';
import { formatApiError } from '../cli/issue-format';

/** JSON-RPC code for an unknown resource, as the MCP specification names it. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A refused MCP request: the SDK answers a thrown error with its `code`, `message` and `data`. (The SDK's
 * own McpError would put "MCP error N:" into the message, which the client then prefixes a second time.)
 */
export class McpRequestError extends Error {
  override readonly name = 'McpRequestError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const ERROR_CODES: { [K in ApiErrorCode]: number } = {
  BAD_INPUT: ErrorCode.InvalidParams,
  VALIDATION_FAILED: ErrorCode.InvalidParams,
  NOT_FOUND: RESOURCE_NOT_FOUND,
  UNKNOWN_OPERATION: ErrorCode.MethodNotFound,
  CONFLICT: ErrorCode.InvalidRequest,
  UNAUTHORIZED: ErrorCode.InvalidRequest,
  FORBIDDEN: ErrorCode.InvalidRequest,
  UNSUPPORTED_MEDIA_TYPE: ErrorCode.InvalidRequest,
  PAYLOAD_TOO_LARGE: ErrorCode.InvalidRequest,
  RATE_LIMITED: ErrorCode.InvalidRequest,
  QUEUE_FULL: ErrorCode.InvalidRequest,
  UNAVAILABLE: ErrorCode.InternalError,
  INTERNAL: ErrorCode.InternalError,
};

/** A refused resource request as a JSON-RPC error; the API error (code, field) travels as its data. */
export function resourceError(error: ApiErrorData): McpRequestError {
  return new McpRequestError(ERROR_CODES[error.code], formatApiError(error).join('\n'), error);
}
