/** Where the CLI writes; tests and the entry point pass their own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Characters a terminal acts on instead of showing: C0 controls but tab and newline (ESC starts colour
 * and cursor sequences, CR overwrites a line, BEL rings), DEL, C1 controls (CSI U+009B works like ESC [),
 * and the BIDI controls that reorder what is shown (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes text safe to print (SEC-03): every character in `UNSAFE` is written as its escape (`\x1b`,
 * `\u202e`), so a node id, message, path or log line can never recolour, move or reorder the user's
 * terminal. Tab and newline stay as they are.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** The CLI's writers: every line goes through `terminalSafe`, whatever it echoes. */
export function escapingIo(io: CliIo): CliIo {
  return { out: (line) => io.out(terminalSafe(line)), err: (line) => io.err(terminalSafe(line)) };
}

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
