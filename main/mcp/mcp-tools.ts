import { z } from 'zod';
import { isOperationName, OPERATION_NAMES, STUDIO_API, type OperationName } from '../../shared/api/contract';
import type { Role } from '../../shared/api/roles';
import { MCP_TOOL_DECISIONS } from './tool-decisions';

/** A tool's input schema as MCP lists it: a JSON Schema object. */
export interface ToolInputSchema {
  type: 'object';
  [key: string]: unknown;
}

/** One MCP tool, generated from a contract operation and its decision. */
export interface McpToolSpec {
  name: string;
  operation: OperationName;
  role: Role;
  description: string;
  inputSchema: ToolInputSchema;
  /** VIEWER operations only read (SEC-01), which MCP clients may use to skip a confirmation. */
  readOnly: boolean;
}

/**
 * The operation's input schema as JSON Schema, as a caller writes it (defaults optional). Draft-07, because
 * that is what the SDK's validator (Ajv) reads without extra set-up.
 */
export function inputJsonSchema(operation: OperationName): ToolInputSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(STUDIO_API[operation].input, { io: 'input', target: 'draft-07' });
  if (schema.type !== 'object') throw new Error(`${operation}: an MCP tool's input must be an object schema, not ${String(schema.type)}`);
  return { ...schema, type: 'object' };
}

function toolOf(operation: OperationName, name: string, hint: string | undefined): McpToolSpec {
  const { summary, role } = STUDIO_API[operation];
  const description = [summary, hint, `Needs role ${role}.`].filter(Boolean).join(' ');
  return { name, operation, role, description, inputSchema: inputJsonSchema(operation), readOnly: role === 'VIEWER' };
}

function buildTools(): McpToolSpec[] {
  const tools: McpToolSpec[] = [];
  for (const operation of OPERATION_NAMES) {
    const decision = MCP_TOOL_DECISIONS[operation];
    if ('tool' in decision) tools.push(toolOf(operation, decision.tool, decision.hint));
  }
  return tools;
}

/** Every exposed tool, in the contract's order. */
export const MCP_TOOLS: readonly McpToolSpec[] = buildTools();

const BY_NAME = new Map(MCP_TOOLS.map((t) => [t.name, t]));

export function toolNamed(name: string): McpToolSpec | undefined {
  return BY_NAME.get(name);
}

/** Why an operation is not a tool, when `name` is one kept from agents; undefined otherwise. */
export function notForAgentsReason(name: string): string | undefined {
  if (!isOperationName(name)) return undefined;
  const decision = MCP_TOOL_DECISIONS[name];
  return 'notForAgents' in decision ? decision.notForAgents : undefined;
}
