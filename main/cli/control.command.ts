import { parseArgs } from 'node:util';
import type { ControlCommandInput, ControlResult } from '../../shared/api/control.schema';
import type { OperationName } from '../../shared/api/contract';
import { ApiErrorData } from '../../shared/api/errors';
import { toHttpRequest } from '../../shared/api/http-routes';
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './cli-io';
import { formatApiError } from './issue-format';
import { parseCliJson } from './workflow-file';

/** Where `yukta serve` listens unless `--url` says otherwise. */
export const DEFAULT_CONTROL_URL = 'http://127.0.0.1:4310';

type Request = { operation: OperationName; input: Record<string, unknown> };

function parseJson(text: string | undefined, flag: string): unknown {
  return text === undefined ? undefined : parseCliJson(text, flag);
}

function parseCount(text: string | undefined): number {
  const count = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || count < 1)
    throw new CliError(`step needs a positive whole number of messages, not "${text ?? ''}"`, EXIT_USAGE, true);
  return count;
}

function parseMode(text: string | undefined, node: string | undefined): 'DRAIN' | 'CANCEL' | 'KILL' {
  const mode = (text ?? 'CANCEL').toUpperCase();
  const allowed = node === undefined ? ['DRAIN', 'CANCEL', 'KILL'] : ['CANCEL', 'KILL'];
  if (!allowed.includes(mode))
    throw new CliError(`--mode must be one of ${allowed.join(', ')}${node ? ' when stopping a node' : ''}, not "${text}"`, EXIT_USAGE);
  return mode as 'DRAIN' | 'CANCEL' | 'KILL';
}

/** Turns `pause|resume|step N|stop|signal NODE` (with their flags) into the operation to call. */
function requestFor(
  executionId: string,
  action: string,
  rest: string[],
  flags: { node?: string | undefined; mode?: string | undefined; data?: string | undefined; reject?: boolean | undefined },
): Request {
  const node = flags.node;
  const command = (c: ControlCommandInput): Request => ({ operation: 'control.send', input: { executionId, command: c } });
  switch (action) {
    case 'pause':
      return command(node ? { type: 'PauseNode', nodeId: node } : { type: 'PauseWorkflow' });
    case 'resume':
      return command(node ? { type: 'ResumeNode', nodeId: node } : { type: 'ResumeWorkflow' });
    case 'step':
      return command({ type: 'Step', count: parseCount(rest[0]), ...(node ? { nodeId: node } : {}) });
    case 'stop': {
      const mode = parseMode(flags.mode, node);
      return command(node ? { type: 'StopNode', nodeId: node, mode: mode as 'CANCEL' | 'KILL' } : { type: 'StopWorkflow', mode });
    }
    case 'signal': {
      const nodeId = rest[0];
      if (!nodeId) throw new CliError('signal needs the node id: yukta control ID signal NODE [--data JSON] [--reject]', EXIT_USAGE, true);
      const data = parseJson(flags.data, '--data');
      return {
        operation: 'signals.send',
        input: { executionId, nodeId, decision: flags.reject ? 'REJECT' : 'APPROVE', ...(data === undefined ? {} : { data }) },
      };
    }
    default:
      throw new CliError(`unknown control action "${action}" (pause, resume, step N, stop, signal NODE)`, EXIT_USAGE, true);
  }
}

async function send(base: string, request: Request): Promise<{ ok: true; value: ControlResult } | { ok: false; error: ApiErrorData }> {
  const http = toHttpRequest(request.operation, request.input);
  let response: Response;
  try {
    response = await fetch(new URL(http.url, base), {
      method: http.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(http.body ?? {}),
    });
  } catch (error) {
    throw new CliError(
      `cannot reach yukta serve at ${base}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
      EXIT_FAILED,
    );
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, value: body as ControlResult };
  const parsed = ApiErrorData.safeParse((body as { error?: unknown } | null)?.error);
  return { ok: false, error: parsed.success ? parsed.data : { code: 'INTERNAL', message: `HTTP ${response.status}` } };
}

function describe(result: ControlResult): string {
  if (result.signal) return `${result.command} ${result.signal} (run ${result.executionId})`;
  if (result.newExecutionId) return `${result.command} applied: new run ${result.newExecutionId}${result.queued ? ' (QUEUED)' : ''}`;
  return `${result.command} applied (run ${result.executionId})`;
}

/**
 * `yukta control <executionId> pause|resume|step N|stop [--mode M]|signal NODE [--data JSON] [--reject]`
 * (`--node X` aims pause, resume, step and stop at one node): sends the command to a running `yukta serve`
 * over HTTP (`--url`, default http://127.0.0.1:4310). Exits 0 once applied, 1 when refused.
 */
export async function controlCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      url: { type: 'string', default: DEFAULT_CONTROL_URL },
      node: { type: 'string' },
      mode: { type: 'string' },
      data: { type: 'string' },
      reject: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [executionId, action, ...rest] = positionals;
  if (!executionId || !action) throw new CliError('control needs an execution id and an action', EXIT_USAGE, true);
  const result = await send(values.url, requestFor(executionId, action, rest, values));
  if (!result.ok) {
    for (const line of formatApiError(result.error)) io.err(line);
    return EXIT_FAILED;
  }
  io.out(describe(result.value));
  return EXIT_OK;
}
