import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FRAME_ENVELOPE_BYTES, WorkerAgent } from '../../engine/index';
import { WorkerName } from '../../shared/workers/worker-protocol';
import { CliError, EXIT_OK, EXIT_USAGE, type CliIo } from '../cli/cli-io';
import { packageRoot } from '../cli/paths';
import { cliSettings, stopSignals } from '../cli/shutdown';
import { securitySettingsOf } from '../host/host-settings';
import { SettingsError } from '../host/settings-sources';
import { tlsOf } from '../workers/listener-settings';
import { WorkerClient } from './worker-client';
import { placeableTypes, workerPlugins } from './worker-plugins';

/** The worker's token as the issue names it, read before the strict settings (which know `YUKTA_WORKERS_TOKEN`). */
export const WORKER_TOKEN_ENV = 'YUKTA_WORKER_TOKEN';

function name(flag: string, value: string): string {
  const parsed = WorkerName.safeParse(value);
  if (!parsed.success) throw new CliError(`${flag} "${value}": ${parsed.error.issues[0]!.message}`, EXIT_USAGE);
  return parsed.data;
}

function slotsOf(text: string | undefined): number {
  if (text === undefined) return 1;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 10_000) throw new CliError(`--slots must be a whole number from 1 to 10000, not "${text}"`, EXIT_USAGE);
  return n;
}

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

type Settings = ReturnType<typeof cliSettings>['values'];
type Registry = Awaited<ReturnType<typeof workerPlugins>>;

function parseWorkerArgs(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'control-plane': { type: 'string' },
      pool: { type: 'string' },
      token: { type: 'string' },
      slots: { type: 'string' },
      allow: { type: 'string' },
      name: { type: 'string' },
      plugins: { type: 'string', multiple: true },
      set: { type: 'string', multiple: true },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new CliError(`worker takes no FILE (got "${positionals[0]}")`, EXIT_USAGE, true);
  return values;
}

/** The host addresses to try: `--control-plane` (comma-separated) or yukta.workers.control-plane, each ws:// or wss://. */
function controlPlaneUrls(flag: string | undefined, settings: Settings): string[] {
  const urls = flag
    ? flag
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean)
    : settings['yukta.workers.control-plane'];
  if (urls.length === 0) throw new CliError('worker needs --control-plane URL[,URL…] (or yukta.workers.control-plane)', EXIT_USAGE, true);
  for (const url of urls) if (!/^wss?:\/\/\S+$/.test(url)) throw new CliError(`--control-plane "${url}" must be a ws:// or wss:// address`, EXIT_USAGE);
  return urls;
}

/** The plugin types this worker runs: `--allow` (each one it has) or every placeable type of its registry. */
function allowedTypes(flag: string | undefined, registry: Registry): string[] {
  const allow = flag ? flag.split(',').map((t) => name('--allow', t.trim())) : placeableTypes(registry);
  for (const type of allow) if (!registry.has(type)) throw new CliError(`--allow ${type}: this worker has no plugin of that type`, EXIT_USAGE);
  return allow;
}

function workerTls(settings: Settings): ReturnType<typeof tlsOf> {
  try {
    return tlsOf(settings, 'worker');
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(`cannot start: ${error.message}`, EXIT_USAGE);
    throw error;
  }
}

/** On the first stop signal: drain the agent within the drain timeout, tell the host at once, then disconnect. */
async function drainOnSignal(io: CliIo, signals: ReturnType<typeof stopSignals>, agent: WorkerAgent, client: WorkerClient, drainMs: number): Promise<void> {
  const signal = await signals.first;
  io.out(`Draining (${signal}): no new attempts; ${agent.running} running get ${drainMs} ms (yukta.workers.drain-timeout). Send it again to exit at once.`);
  const drained = agent.drain(drainMs);
  client.renewNow();
  const { aborted } = await drained;
  await client.stop('the worker drained');
  signals.dispose();
  io.out(`Stopped${aborted ? `: ${aborted} attempt(s) did not finish within the drain timeout and were ended` : ''}.`);
}

/**
 * `yukta worker --control-plane URL[,URL…] --pool NAME [--token T] [--slots N] [--allow TYPE,…] [--name N]
 * [--plugins MODULE]… [--set key=value]…` (SCL-01): runs node attempts placed on its pool. It hosts the engine's
 * plugin registry only. SIGTERM/SIGINT drains: no new attempts, those running get yukta.workers.drain-timeout,
 * then it exits 0; a second signal exits at once.
 */
export async function workerCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const values = parseWorkerArgs(args);
  const { [WORKER_TOKEN_ENV]: envToken, ...rest } = env;
  const settings = cliSettings(null, values.set ?? [], rest).values;
  const urls = controlPlaneUrls(values['control-plane'], settings);
  if (values.pool === undefined) throw new CliError('worker needs --pool NAME', EXIT_USAGE, true);
  const pool = name('--pool', values.pool);
  const token = values.token ?? envToken ?? settings['yukta.workers.token'];
  if (!token) throw new CliError(`worker needs the host's token: --token, ${WORKER_TOKEN_ENV} or yukta.workers.token`, EXIT_USAGE);
  const registry = await workerPlugins(values.plugins ?? []);
  const allow = allowedTypes(values.allow, registry);
  const tls = workerTls(settings);
  const slots = slotsOf(values.slots);
  const identity = { name: name('--name', values.name ?? `${hostname()}-${process.pid}`), pool, version: version() };
  const agent = new WorkerAgent({
    plugins: registry,
    allow: new Set(allow),
    slots,
    window: settings['yukta.workers.window'],
    security: { settings: securitySettingsOf(settings), env: rest },
  });
  const signals = stopSignals(io);
  io.out(`Yukta worker "${identity.name}" for pool ${pool}: ${slots} slot(s), runs ${allow.join(', ')}; connecting to ${urls.join(', ')}`);
  const client = new WorkerClient({
    urls,
    token,
    agent,
    identity,
    tls,
    maxPayload: settings['yukta.execution.max-message-bytes'] + FRAME_ENVELOPE_BYTES,
    log: (text) => io.out(text),
  });
  await drainOnSignal(io, signals, agent, client, settings['yukta.workers.drain-timeout']);
  return EXIT_OK;
}
