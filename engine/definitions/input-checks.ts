import { BadInputError } from '../engine-errors';
import { VersionId } from '../../shared/api/workflows.schema';
import { identifierProblem } from '../../shared/workflow/identifier';

/**
 * Identifier checks at the engine's own boundary (DEF-02). The contract checks its inputs already; the
 * engine checks again because the CLI, sub-workflows and start payloads reach it without the contract, and
 * these values become folder names, file names and SQL keys.
 */
export function requireIdentifier(value: string, field: string): string {
  const problem = identifierProblem(value);
  if (problem) throw new BadInputError(`${field}: identifier ${problem}`, 'BAD_INPUT', field);
  return value;
}

/** A version is a content hash: 64 lowercase hex characters. */
export function requireVersion(value: string, field: string): string {
  const parsed = VersionId.safeParse(value);
  if (!parsed.success) throw new BadInputError(`${field}: ${parsed.error.issues[0]?.message ?? 'not a version'}`, 'BAD_INPUT', field);
  return value;
}
