import { readFile } from 'node:fs/promises';
import { checkJsonLimits, DEFAULT_MAX_DEPTH, describeJsonProblem } from '../../shared/json/json-limits';
import { CliError, EXIT_USAGE } from './cli-io';

/** The CLI's limits on what it reads (a file, `--payload`): the host's defaults (SEC-03). */
export const CLI_JSON_LIMITS = {
  maxDepth: DEFAULT_MAX_DEPTH,
  maxBytes: 10 * 1024 * 1024,
  forbidPrototypeKeys: true,
  stringBytes: (text: string) => Buffer.byteLength(text, 'utf8'),
};

/** Parses JSON the CLI was given and holds it to the limits; `what` (the file, `--payload`) names it in errors. */
export function parseCliJson(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${what} is not valid JSON: ${(error as Error).message}`, EXIT_USAGE);
  }
  const problem = checkJsonLimits(value, CLI_JSON_LIMITS);
  if (problem !== null) throw new CliError(`${what}: ${describeJsonProblem(problem)}`, EXIT_USAGE);
  return value;
}

/** Reads and parses a workflow JSON file; an unreadable file or bad JSON is a CliError naming the file. */
export async function readWorkflowFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CliError(`cannot read ${file}: ${reason}`, EXIT_USAGE);
  }
  return parseCliJson(text, file);
}
