import { CliError, escapingIo, EXIT_OK, EXIT_USAGE, type CliIo } from './cli-io';
import { mcpCommand } from '../mcp/mcp.command';
import { controlCommand } from './control.command';
import { runCommand } from './run.command';
import { serveCommand } from './serve.command';
import { USAGE } from './usage';
import { validateCommand } from './validate.command';
import { workerCommand } from '../worker/worker.command';

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  validate: validateCommand,
  run: runCommand,
  control: controlCommand,
  mcp: mcpCommand,
  worker: (args, io) => workerCommand(args, io),
  help: async (_args, io) => {
    io.out(USAGE);
    return EXIT_OK;
  },
};

function isParseArgsError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * Runs one CLI command and returns its exit code; bad arguments and unreadable files are reported, not
 * thrown. Everything written goes through the escaping writers, so nothing echoed can drive the terminal.
 */
export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  const io = escapingIo(rawIo);
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.out(USAGE);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`unknown command "${name}"\n`);
    io.err(USAGE);
    return EXIT_USAGE;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      if (error.showUsage) io.err(`\n${USAGE}`);
      return error.exitCode;
    }
    if (isParseArgsError(error)) {
      io.err(error.message);
      io.err(`\n${USAGE}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
