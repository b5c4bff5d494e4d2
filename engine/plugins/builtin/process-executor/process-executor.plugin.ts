import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { BadInputError } from '../../../runtime/errors';
import { definePlugin, type PluginContext } from '../../contract';
import { renderTemplate, type TemplateScope } from '../../expressions/template';
import { withDeadline } from '../shared/deadline';
import { runProcess } from './process-runner';

const DEFAULT_TIMEOUT_MS = 300_000;
const MAX_TIMEOUT_MS = 24 * 3_600_000;
/** ENG-05: the idle timeout is the process timeout + 10 %, at least 5 s. */
export function processIdleTimeoutMs(timeoutMs: number): number {
  return Math.max(5_000, Math.ceil(timeoutMs * 1.1));
}

const ProcessExecutorConfig = z.strictObject({
  /** The program, exactly as listed in `yukta.process.allowed-commands` (an absolute path is best). */
  command: z.string().min(1).max(4096),
  /** Arguments, each one template; passed as an array, never through a shell. */
  args: z.array(z.string().max(65_536)).max(1000).default([]),
  /** Environment of the process (templates; `decrypted:<name>` allowed). Nothing else is inherited but PATH and LANG. */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string().max(65_536)).default({}),
  cwd: z.string().min(1).max(4096).optional(),
  /** Text written to the process's input (a template). */
  stdin: z
    .string()
    .max(10 * 1024 * 1024)
    .optional(),
  timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS),
  /** `json` parses stdout; `lines` splits it. */
  output: z.enum(['text', 'json', 'lines']).default('text'),
  /** A non-zero exit fails the call (its failure policy applies); false emits it with the exit code. */
  failOnExitCode: z.boolean().default(true),
  /** Each line of stdout becomes a live log line. */
  logOutput: z.boolean().default(false),
});
type ProcessExecutorConfig = z.infer<typeof ProcessExecutorConfig>;

/** A process that exited with a non-zero code (retryable like any failed call). */
export class ProcessExitError extends Error {
  override readonly name = 'ProcessExitError';
  readonly code = 'PROCESS_EXIT';
}

function checkAllowed(config: ProcessExecutorConfig, ctx: PluginContext): void {
  const { enabled, allowedCommands } = ctx.services.limits.process;
  if (!enabled)
    throw new BadInputError(
      'PROCESS_EXECUTOR is off: set yukta.process.enabled=true and list the command in yukta.process.allowed-commands',
      'PROCESS_DISABLED',
    );
  if (!allowedCommands.includes(config.command))
    throw new BadInputError(`command "${config.command}" is not in yukta.process.allowed-commands`, 'COMMAND_NOT_ALLOWED');
}

function parseOutput(stdout: string, output: ProcessExecutorConfig['output']): unknown {
  if (output === 'lines') return stdout.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1);
  if (output === 'text') return stdout;
  try {
    return JSON.parse(stdout) as unknown;
  } catch {
    throw new BadInputError('the process output is not valid JSON (output json)', 'OUTPUT_NOT_JSON');
  }
}

/**
 * PROCESS_EXECUTOR (SEC-03): off unless `yukta.process.enabled`; only allow-listed commands; no shell; its
 * own process group, killed with SIGKILL on timeout, CANCEL or KILL. Runs off the event loop (a child
 * process), so the studio and other runs stay responsive.
 */
export const processExecutorPlugin = definePlugin({
  type: 'PROCESS_EXECUTOR',
  kind: 'processor',
  title: 'Process',
  description: 'Runs an allow-listed command (no shell) and emits its output.',
  configSchema: ProcessExecutorConfig,
  defaultConfig: { command: '/bin/echo', args: ['${payload}'] },
  outputs: [DEFAULT_PORT],
  defaultTimeoutMs: (config) => processIdleTimeoutMs(config.timeoutMs),
  async process(message, config, ctx) {
    checkAllowed(config, ctx);
    const scope: TemplateScope = {
      payload: message.payload,
      metadata: message.metadata,
      context: { executionId: ctx.executionId, nodeId: ctx.nodeId },
      variables: ctx.services.variables,
    };
    const text = (t: string, withSecrets = false) => String(renderTemplate(t, withSecrets ? { ...scope, secrets: ctx.services.secrets } : scope));
    const spec = {
      command: config.command,
      args: config.args.map((a) => text(a)),
      env: Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, text(v, true)])),
      cwd: config.cwd,
      stdin: config.stdin === undefined ? undefined : text(config.stdin),
      maxOutputBytes: ctx.services.limits.maxMessageBytes,
      onLine: config.logOutput ? (line: string) => ctx.log.info(line) : undefined,
    };
    const result = await withDeadline(ctx, config.timeoutMs, `process ${config.command}`, (signal) => runProcess(spec, signal));
    const redact = ctx.services.secrets.redactor;
    if (config.failOnExitCode && result.exitCode !== 0) {
      throw new ProcessExitError(redact.redactText(`${config.command} exited with ${result.exitCode ?? result.signal}: ${result.stderr.slice(0, 500)}`));
    }
    const payload = redact.redact({ exitCode: result.exitCode, stdout: parseOutput(result.stdout, config.output), stderr: result.stderr });
    return [{ payload, metadata: { ...message.metadata, 'process.exitCode': String(result.exitCode) } }];
  },
});
