import { parseArgs } from 'node:util';
import type { RunDetail } from '../../shared/api/runs.schema';
import { STUDIO_API } from '../../shared/api/contract';
import type { SaveResult } from '../../shared/api/workflows.schema';
import type { StudioEvent } from '../../shared/events/events';
import { CLI_CALLER, StudioHost } from '../host/studio-host';
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './cli-io';
import { formatApiError } from './issue-format';
import { progressLine } from './run-progress';
import { cliSettings, stopSignals } from './shutdown';
import { showDuration } from '../../shared/settings/setting-values';
import { parseCliJson, readWorkflowFile } from './workflow-file';

function parsePayload(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  const value = parseCliJson(text, '--payload');
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CliError('--payload must be a JSON object, e.g. \'{"name":"Ada"}\'', EXIT_USAGE);
  return value as Record<string, unknown>;
}

/** Prints the run's events once its id is known; events that arrive before are held, others' are skipped. */
function progressPrinter(io: CliIo) {
  let executionId: string | null = null;
  const held: StudioEvent[] = [];
  const print = (e: StudioEvent): void => {
    const line = e.executionId === executionId ? progressLine(e) : null;
    if (line !== null) io.out(line);
  };
  return {
    onBatch: (batch: StudioEvent[]): void => {
      if (executionId === null) held.push(...batch);
      else batch.forEach(print);
    },
    follow(id: string): void {
      executionId = id;
      held.splice(0).forEach(print);
    },
  };
}

async function runWorkflow(host: StudioHost, io: CliIo, session: string, definition: unknown, payload: Record<string, unknown>): Promise<number> {
  const saved = await host.invoke('workflows.save', { session, definition }, CLI_CALLER);
  if (!saved.ok) {
    for (const line of formatApiError(saved.error)) io.err(line);
    return EXIT_FAILED;
  }
  const { workflowId } = saved.value as SaveResult;
  const printer = progressPrinter(io);
  const unsubscribe = host.subscribe({}, printer.onBatch);
  try {
    const started = await host.invoke('runs.start', { session, workflowId, payload }, CLI_CALLER);
    if (!started.ok) {
      for (const line of formatApiError(started.error)) io.err(line);
      return EXIT_FAILED;
    }
    const { executionId } = STUDIO_API['runs.start'].output.parse(started.value);
    io.out(`Running ${workflowId} (session ${session}), execution ${executionId}`);
    printer.follow(executionId);
    const status = await host.engine.waitForRun(executionId);
    unsubscribe(); // delivers the last batch before the summary
    const run = await host.invoke('runs.get', { executionId }, CLI_CALLER);
    const error = run.ok ? (run.value as RunDetail).error : undefined;
    io.out(`Final status: ${status}${error ? ` (${error.message})` : ''}`);
    return status === 'SUCCESS' ? EXIT_OK : EXIT_FAILED;
  } finally {
    unsubscribe();
  }
}

/**
 * `yukta run FILE [--payload JSON] [--session S] [--set key=value]…`: runs a workflow file once in memory;
 * 0 on SUCCESS, else 1. Settings come from the `YUKTA_*` environment and `--set` (CFG-01). On SIGINT/SIGTERM
 * the run gets `yukta.execution.shutdown-timeout` to finish, then is killed (ADM-01); the exit code is still
 * the run's (0 only if it ended SUCCESS). A second signal exits at once.
 */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { payload: { type: 'string' }, session: { type: 'string', default: 'default' }, set: { type: 'string', multiple: true } },
    allowPositionals: true,
    strict: true,
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length) throw new CliError('run takes exactly one FILE', EXIT_USAGE, true);
  const payload = parsePayload(values.payload);
  const definition = await readWorkflowFile(file);
  const settings = cliSettings(null, values.set ?? []);
  const host = new StudioHost({ settings, onInternalError: (e, id) => io.err(`internal error ${id}: ${e instanceof Error ? e.stack : String(e)}`) });
  const signals = stopSignals(io);
  void signals.first.then((signal) => {
    io.out(
      `Stopping (${signal}): the run gets ${showDuration(host.engine.schedulerLimits().shutdownTimeoutMs)} (yukta.execution.shutdown-timeout). Send it again to exit at once.`,
    );
    return host.drain();
  });
  // Engine timers are unref'd (they must never hold a host open), so a run waiting on a DELAY or a signal
  // would leave Node with nothing to wait for: this handle keeps the process alive until the run ends.
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    return await runWorkflow(host, io, values.session, definition, payload);
  } finally {
    await host.close();
    signals.dispose();
    clearInterval(keepAlive);
  }
}
