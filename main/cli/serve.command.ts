import { parseArgs } from 'node:util';
import { showDuration } from '../../shared/settings/setting-values';
import { lockDataFolder, type DataFolderLock } from '../host/data-folder-lock';
import { STORE_KINDS, StudioHost, type StoreKind } from '../host/studio-host';
import { describeLeaseStatus } from '../host/ha-log';
import { createHttpServer, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from '../http/http-server';
import { LOOPBACK_HOSTNAMES } from '../http/local-access';
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './cli-io';
import { dataDir, rendererDir } from './paths';
import { cliSettings, stopSignals } from './shutdown';
import type { LoadedSettings } from '../host/loaded-settings';
import type { HostSettings } from '../host/host-settings';
import { SettingsError } from '../host/settings-sources';
import { listenerSettingsOf, type ListenerSettings } from '../workers/listener-settings';
import { startWorkerListener, type WorkerListener } from '../workers/worker-listener';

function parsePort(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new CliError(`--port must be a number from 0 to 65535 (0 picks a free port), not "${text}"`, EXIT_USAGE);
  return port;
}

const STORE_DESCRIPTIONS: { [K in StoreKind]: string } = {
  sqlite: 'SQLite database yukta.db in the data folder (definitions, execution log, checkpoints)',
  file: 'JSON files under workflows/, logs/executions.jsonl and checkpoints/ in the data folder',
  memory: 'in memory only (lost when the server stops; no crash recovery)',
  postgres: 'PostgreSQL (yukta.postgres.url): definitions, execution log, checkpoints and trigger state',
};

/** `--store`: a kind, or undefined when not given (then `yukta.store`, else SQLite). */
export function parseStore(text: string | undefined): StoreKind | undefined {
  if (text === undefined) return undefined;
  const kind = STORE_KINDS.find((k) => k === text);
  if (!kind) throw new CliError(`--store must be one of ${STORE_KINDS.join(', ')}, not "${text}"`, EXIT_USAGE);
  return kind;
}

/** One host per data folder: a second `serve` (or `yukta mcp`, or the desktop app) on it is refused. */
function takeDataFolder(folder: string): DataFolderLock {
  try {
    return lockDataFolder(folder, { command: 'serve' });
  } catch (error) {
    throw new CliError(`${(error as Error).message}: stop it, or pass another --data folder`, EXIT_FAILED);
  }
}

/** The workers' listener settings (SCL-01), or null when `yukta.workers.enabled` is off; a bad one stops serve (exit 2). */
function workerListenerSettings(settings: HostSettings): ListenerSettings | null {
  try {
    return listenerSettingsOf(settings);
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(`cannot start: ${error.message}`, EXIT_USAGE);
    throw error;
  }
}

/** Opens the workers' listener on the host's registry; a port in use is named with the key that moves it. */
async function openWorkerListener(config: ListenerSettings, host: StudioHost, io: CliIo): Promise<WorkerListener> {
  try {
    return await startWorkerListener({
      ...config,
      registry: host.engine.workers,
      log: (level, text) => (level === 'warn' ? io.err : io.out)(`workers: ${text}`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'EADDRINUSE'
        ? `the workers' port ${config.port} is in use on ${config.host}: set yukta.workers.port (0 picks a free one)`
        : `cannot open the workers' listener: ${(error as Error).message}`,
      EXIT_FAILED,
    );
  }
}

/**
 * `yukta serve [--port N] [--host H] [--data DIR] [--store sqlite|file|memory|postgres] [--set key=value]…`:
 * the studio in a browser (`--store` wins over `yukta.store`; `postgres` reads `yukta.postgres.*`, DUR-04).
 * Prints the address on one line (`Yukta Studio serving at http://127.0.0.1:PORT`, which e2e tests parse).
 * A bad setting stops it before anything opens (CFG-01). On SIGINT/SIGTERM it shuts down (ADM-01): the API
 * keeps answering, refusing new starts, while running runs get the shutdown timeout; then the server and the
 * stores close and it exits 0. A second signal exits at once.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const options = serveOptions(args);
  const lock = takeDataFolder(options.folder);
  const host = await openRecoveredHost(options, lock, io);
  let workers: WorkerListener | null = null;
  try {
    if (options.workerConfig) workers = await openWorkerListener(options.workerConfig, host, io);
  } catch (error) {
    await host.close();
    lock.release();
    throw error;
  }
  const server = await createHttpServer({ host, rendererDir: rendererDir(), bind: { host: options.bindHost, port: options.port } });
  let url: string;
  try {
    url = (await server.listen()).url;
  } catch (error) {
    await workers?.close();
    await host.close();
    lock.release();
    throw listenError(error, options);
  }
  lock.update({ url });
  const signals = stopSignals(io);
  printServing(io, { url, options, host, workers, servesRenderer: server.servesRenderer });
  const signal = await signals.first;
  const grace = showDuration(host.engine.schedulerLimits().shutdownTimeoutMs);
  io.out(`Stopping (${signal}): no new runs are admitted; running runs get ${grace} (yukta.execution.shutdown-timeout). Send it again to exit at once.`);
  await host.drain();
  await workers?.close();
  await server.close();
  await host.close();
  lock.release();
  signals.dispose();
  io.out('Stopped.');
  return EXIT_OK;
}

/** What `serve` was asked for: flags and settings read and checked before anything opens (CFG-01). */
interface ServeOptions {
  bindHost: string;
  port: number;
  folder: string;
  kind: StoreKind;
  settings: LoadedSettings;
  workerConfig: ListenerSettings | null;
}

function serveOptions(args: string[]): ServeOptions {
  const { values, positionals } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      store: { type: 'string' },
      set: { type: 'string', multiple: true },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new CliError(`serve takes no FILE (got "${positionals[0]}")`, EXIT_USAGE, true);
  const store = parseStore(values.store);
  const bindHost = values.host ?? DEFAULT_HTTP_HOST;
  const folder = dataDir(values.data);
  // `--store X` is the flag form of `yukta.store`: settings.get and the Settings screen name it as the source.
  const settings = cliSettings(folder, [...(values.set ?? []), ...(store ? [`yukta.store=${store}`] : [])]);
  const port = parsePort(values.port, settings.values['yukta.http.port'] ?? DEFAULT_HTTP_PORT);
  const workerConfig = workerListenerSettings(settings.values);
  return { bindHost, port, folder, kind: settings.values['yukta.store'] ?? 'sqlite', settings, workerConfig };
}

/** Opens the host on the data folder and recovers it; on a failure the folder's lock is released. */
async function openRecoveredHost({ folder, kind, settings }: ServeOptions, lock: DataFolderLock, io: CliIo): Promise<StudioHost> {
  let host: StudioHost;
  try {
    host = await StudioHost.open({
      dataDir: folder,
      store: kind,
      settings,
      onWarning: (m) => io.err(`warning: ${m}`),
      onHaLog: (text) => io.out(`ha: ${text}`),
      onWorkerLog: (level, text) => (level === 'warn' ? io.err : io.out)(`workers: ${text}`),
      onInternalError: (e, id) => io.err(`internal error ${id}: ${e instanceof Error ? e.stack : String(e)}`),
    });
  } catch (error) {
    lock.release();
    throw new CliError(`cannot open the ${kind} store${kind === 'postgres' ? '' : ` in ${folder}`}: ${(error as Error).message}`, EXIT_FAILED);
  }
  try {
    // Boot recovery (DUR-01) before the first request: interrupted runs are ABORTED, history and keys read back.
    // A standby (SCL-02) answers reads at once and recovers when it takes over.
    if (!host.lease || host.lease.lease.isLeader()) await host.ready;
  } catch (error) {
    await host.close().catch(() => undefined);
    lock.release();
    throw new CliError(`recovery of the execution log failed: ${(error as Error).message}`, EXIT_FAILED);
  }
  return host;
}

function listenError(error: unknown, { bindHost, port }: ServeOptions): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${port} is in use on ${bindHost}: pass --port N, or --port 0 for a free port`, EXIT_FAILED);
  return new CliError(`cannot listen on ${bindHost}:${port}: ${(error as Error).message}`, EXIT_FAILED);
}

/** The lines a started `serve` prints: the address first (e2e tests parse it), then the store, HA, workers, keys. */
function printServing(
  io: CliIo,
  serving: { url: string; options: ServeOptions; host: StudioHost; workers: WorkerListener | null; servesRenderer: boolean },
): void {
  const { url, options, host, workers } = serving;
  io.out(`Yukta Studio serving at ${url}`);
  io.out(`Data folder: ${options.folder}`);
  io.out(`Store: ${STORE_DESCRIPTIONS[options.kind]}${host.stores.location ? ` at ${host.stores.location}` : ''}`);
  if (host.lease)
    io.out(`High availability: ${describeLeaseStatus(host.lease.lease.status())} (yukta.ha.lease ${showDuration(host.lease.status().leaseMs ?? 0)}, SCL-02)`);
  if (workers) io.out(`Workers connect at ${workers.url} (SCL-01)`);
  if (!serving.servesRenderer) io.out('The studio UI is not built (dist/renderer missing): run `npm run build:renderer`. The API works without it.');
  const bracketed = options.bindHost.includes(':') ? `[${options.bindHost}]` : options.bindHost;
  if (host.apiKeys.enabled) io.out(`API keys: ${host.apiKeys.list().length} set; every API request must present one (Authorization: Bearer or X-API-Key).`);
  else if (!LOOPBACK_HOSTNAMES.has(bracketed))
    io.out(`Note: listening on ${options.bindHost}, but without an API key only requests naming localhost, 127.0.0.1 or [::1] are accepted.`);
}
