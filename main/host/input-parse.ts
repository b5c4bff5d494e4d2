import type { z } from 'zod';
import { STUDIO_API, type OperationName } from '../../shared/api/contract';
import { StudioApiError } from '../../shared/api/errors';
import { INPUT_ALIASES } from '../../shared/api/input-aliases';
import { checkJsonLimits, describeJsonProblem } from '../../shared/json/json-limits';
import { nearestName } from '../../shared/text/nearest-name';
import { joinPath } from '../../shared/workflow/validation-issue';

/** The limits every operation's input is held to, whatever the transport (SEC-03). */
export interface InputLimits {
  /** `yukta.execution.max-depth`: levels each field of the input may nest. */
  maxDepth: number;
  /** `yukta.execution.max-message-bytes`: the whole input as JSON. */
  maxBytes: number;
}

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Refuses input that breaks a limit before any schema or handler sees it: nesting (400), size (413) and
 * `__proto__` / `constructor` / `prototype` keys anywhere (400), each naming the path. The check is one
 * iterative walk, so hostile nesting never reaches recursive code.
 */
export function checkInputLimits(raw: unknown, limits: InputLimits): void {
  // The input object is the envelope: its fields may each nest `maxDepth` levels.
  const problem = checkJsonLimits(raw, { maxDepth: limits.maxDepth + 1, maxBytes: limits.maxBytes, forbidPrototypeKeys: true, stringBytes: byteLength });
  if (problem === null) return;
  if (problem.kind === 'bytes') throw new StudioApiError('PAYLOAD_TOO_LARGE', describeJsonProblem(problem), problem.path || undefined);
  const shown = problem.kind === 'depth' ? { ...problem, limit: limits.maxDepth } : problem;
  throw new StudioApiError('BAD_INPUT', describeJsonProblem(shown), problem.path || undefined);
}

/** Renames the seed's field names to ours (`sessionId` → `session` on a start); both at once is refused. */
export function applyAliases(operation: OperationName, raw: unknown): unknown {
  const aliases = INPUT_ALIASES[operation];
  if (!aliases || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const input: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [alias, name] of Object.entries(aliases)) {
    if (!Object.prototype.hasOwnProperty.call(input, alias)) continue;
    if (Object.prototype.hasOwnProperty.call(input, name))
      throw new StudioApiError('BAD_INPUT', `give ${name} or ${alias}, not both (${alias} is the seed's name for ${name})`, alias);
    input[name] = input[alias];
    delete input[alias];
  }
  return input;
}

type Issue = z.core.$ZodIssue;

/** The fields a strict object schema knows, read from the schema that raised the issue. */
function knownFields(schema: unknown): string[] {
  const shape = schema !== null && typeof schema === 'object' ? (schema as { shape?: unknown }).shape : undefined;
  return shape !== null && typeof shape === 'object' ? Object.keys(shape) : [];
}

/** Per-parse messages: an unknown field is named with the nearest known one. */
const unknownFieldMessage = (issue: z.core.$ZodRawIssue): string | undefined => {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const field = issue.keys[0] ?? '';
  const near = nearestName(field, knownFields(issue.inst));
  return near === null ? `unknown field ${field}` : `unknown field ${field}; did you mean ${near}?`;
};

function errorOf(issues: readonly Issue[]): StudioApiError {
  // An unknown field explains the rest (a misspelt name also leaves the real one missing): report it first.
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const path = joinPath([...issue.path, issue.keys[0] ?? '']);
    return new StudioApiError('BAD_INPUT', issue.message.replace(`unknown field ${issue.keys[0]}`, `unknown field ${path}`), path);
  }
  const path = joinPath(issue.path);
  return new StudioApiError('BAD_INPUT', `${path || 'input'}: ${issue.message}`, path || undefined);
}

/** Parses an operation's input with the contract's schema (strict objects: unknown fields are refused by name). */
export function parseOperationInput(operation: OperationName, raw: unknown, limits: InputLimits): unknown {
  checkInputLimits(raw, limits);
  const parsed = STUDIO_API[operation].input.safeParse(applyAliases(operation, raw ?? {}), { error: unknownFieldMessage });
  if (!parsed.success) throw errorOf(parsed.error.issues);
  return parsed.data;
}
