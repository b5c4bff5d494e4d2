import { parseArgs } from 'node:util';
import type { ValidationIssue } from '../../shared/workflow/validation-issue';
import { CLI_CALLER, StudioHost } from '../host/studio-host';
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './cli-io';
import { formatApiError, formatIssue } from './issue-format';
import { readWorkflowFile } from './workflow-file';

/** `yukta validate FILE`: 0 valid, 1 invalid, 2 unreadable file or bad JSON. */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file || extra.length) throw new CliError('validate takes exactly one FILE', EXIT_USAGE, true);
  const definition = await readWorkflowFile(file);
  const host = new StudioHost();
  try {
    const result = await host.invoke('workflows.validate', { definition }, CLI_CALLER);
    if (!result.ok) {
      for (const line of formatApiError(result.error)) io.err(line);
      return EXIT_FAILED;
    }
    const { valid, issues } = result.value as { valid: boolean; issues: ValidationIssue[] };
    for (const issue of issues) io.out(formatIssue(issue));
    if (valid) io.out('valid');
    return valid ? EXIT_OK : EXIT_FAILED;
  } finally {
    await host.close();
  }
}
