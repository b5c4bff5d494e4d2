import { parseArgs } from 'node:util';
import { lockDataFolder, type DataFolderLock } from '../host/data-folder-lock';
import { loadHostSettings } from '../host/host-settings';
import { STORE_KINDS, StudioHost, type StoreKind } from '../host/studio-host';
import { createHttpServer, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from '../http/http-server';
import { LOOPBACK_HOSTNAMES } from '../http/local-access';
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './cli-io';
import { dataDir, rendererDir } from './paths';

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_HTTP_PORT;
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

/** Resolves on the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/**
 * `yukta serve [--port N] [--host H] [--data DIR] [--store sqlite|file|memory|postgres]`: the studio in a browser
 * (`--store` wins over `yukta.store`; `postgres` reads `yukta.postgres.*`, DUR-04). Prints the address on one
 * line (`Yukta Studio serving at http://127.0.0.1:PORT`, which e2e tests parse) and stops cleanly on
 * SIGINT/SIGTERM.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, store: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new CliError(`serve takes no FILE (got "${positionals[0]}")`, EXIT_USAGE, true);
  const port = parsePort(values.port);
  const store = parseStore(values.store);
  const bindHost = values.host ?? DEFAULT_HTTP_HOST;
  const folder = dataDir(values.data);
  let settings;
  try {
    settings = loadHostSettings(folder, process.env);
  } catch (error) {
    throw new CliError(`settings: ${(error as Error).message}`, EXIT_USAGE);
  }
  const lock = takeDataFolder(folder);
  let host: StudioHost;
  const kind = store ?? settings['yukta.store'] ?? 'sqlite';
  try {
    host = await StudioHost.open({ dataDir: folder, store: kind, settings, onWarning: (m) => io.err(`warning: ${m}`), onInternalError: (e) => io.err(`internal error: ${e instanceof Error ? e.stack : String(e)}`) });
  } catch (error) {
    lock.release();
    throw new CliError(`cannot open the ${kind} store${kind === 'postgres' ? '' : ` in ${folder}`}: ${(error as Error).message}`, EXIT_FAILED);
  }
  try {
    // Boot recovery (DUR-01) before the first request: interrupted runs are ABORTED, history and keys read back.
    await host.ready;
  } catch (error) {
    await host.close().catch(() => undefined);
    lock.release();
    throw new CliError(`recovery of the execution log failed: ${(error as Error).message}`, EXIT_FAILED);
  }
  const server = await createHttpServer({ host, rendererDir: rendererDir(), bind: { host: bindHost, port } });
  let url: string;
  try {
    url = (await server.listen()).url;
  } catch (error) {
    await host.close();
    lock.release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is in use on ${bindHost}: pass --port N, or --port 0 for a free port`, EXIT_FAILED);
    throw new CliError(`cannot listen on ${bindHost}:${port}: ${(error as Error).message}`, EXIT_FAILED);
  }
  lock.update({ url });
  const stopped = stopSignal();
  io.out(`Yukta Studio serving at ${url}`);
  io.out(`Data folder: ${folder}`);
  io.out(`Store: ${STORE_DESCRIPTIONS[kind]}${host.stores.location ? ` at ${host.stores.location}` : ''}`);
  if (!server.servesRenderer) io.out('The studio UI is not built (dist/renderer missing): run `npm run build:renderer`. The API works without it.');
  const bracketed = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  if (host.apiKeys.enabled) io.out(`API keys: ${host.apiKeys.list().length} set; every API request must present one (Authorization: Bearer or X-API-Key).`);
  else if (!LOOPBACK_HOSTNAMES.has(bracketed)) io.out(`Note: listening on ${bindHost}, but without an API key only requests naming localhost, 127.0.0.1 or [::1] are accepted.`);
  const signal = await stopped;
  io.out(`Stopping (${signal})…`);
  await server.close();
  await host.close();
  lock.release();
  return EXIT_OK;
}
