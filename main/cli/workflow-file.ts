import { readFile } from 'node:fs/promises';
import { CliError, EXIT_USAGE } from './cli-io';

/** Reads and parses a workflow JSON file; an unreadable file or bad JSON is a CliError naming the file. */
export async function readWorkflowFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CliError(`cannot read ${file}: ${reason}`, EXIT_USAGE);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`, EXIT_USAGE);
  }
}
