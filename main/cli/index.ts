/**
 * The `yukta` command line: `tsx main/cli/index.ts …`, `bin/yukta.mjs …` or the bundled `dist/main/cli.mjs`.
 */
import { runCli } from './cli';
import { processIo } from './cli-io';

process.exitCode = await runCli(process.argv.slice(2), processIo);
