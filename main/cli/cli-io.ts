/** Where the CLI writes; tests and the entry point pass their own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Exit codes: 0 success, 1 the workflow is invalid or the run did not succeed, 2 the command line or a file is bad. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A failure that ends the command with a message and an exit code (the message names the file or flag at fault). */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
    /** Print the usage text after the message. */
    readonly showUsage = false,
  ) {
    super(message);
  }
}
