import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Caller } from '../../shared/api/roles';
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from '../cli/cli-io';
import { dataDir } from '../cli/paths';
import { parseStore } from '../cli/serve.command';
import { cliSettings, stopSignal } from '../cli/shutdown';
import { DataFolderInUseError, lockDataFolder, type DataFolderLock } from '../host/data-folder-lock';
import { StudioHost } from '../host/studio-host';
import { createStudioMcpServer } from './mcp-server';
import { mcpEndpoint, relayStdioToHttp, remoteTransport } from './stdio-bridge';

/** Environment names of `--url` and `--key`, for MCP client configurations that pass env rather than args. */
export const MCP_URL_ENV = 'YUKTA_URL';
export const MCP_KEY_ENV = 'YUKTA_KEY';
/** The caller of `yukta mcp` on a data folder without `--key`: the local user, like the CLI (SEC-01). */
export const MCP_STDIO_CALLER: Caller = { actor: 'mcp:stdio', role: 'ADMIN' };

/** Resolves when the agent closes our stdin (its MCP client ends the session that way). */
function stdinEnded(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
}

function refusedFolder(error: DataFolderInUseError): CliError {
  const { holder } = error;
  const hint = holder.url
    ? `bridge to it instead: yukta mcp --url ${holder.url} (with --key when it has API keys)`
    : holder.command === 'desktop'
      ? 'turn on its HTTP API (yukta.http.enabled) and bridge to it with --url, or quit it'
      : 'stop it, or pass another --data folder';
  return new CliError(`${error.message}: ${hint}`, EXIT_FAILED);
}

function takeFolder(folder: string): DataFolderLock {
  try {
    return lockDataFolder(folder, { command: 'mcp' });
  } catch (error) {
    throw error instanceof DataFolderInUseError ? refusedFolder(error) : new CliError(`cannot lock ${folder}: ${(error as Error).message}`, EXIT_FAILED);
  }
}

/** `--key` on a data folder stands for that key's caller (role, sessions); without one, the local user. */
function callerFor(host: StudioHost, key: string | undefined): Caller {
  if (key === undefined) return MCP_STDIO_CALLER;
  const caller = host.apiKeys.authenticate(key);
  if (!caller) throw new CliError(`--key is not an API key of this data folder (or ${MCP_KEY_ENV})`, EXIT_USAGE);
  return caller;
}

async function openHost(folder: string, store: ReturnType<typeof parseStore>, io: CliIo): Promise<StudioHost> {
  const settings = cliSettings(folder, []);
  // `open`: the postgres store (DUR-04) connects and migrates first; no --store: `yukta.store`, else SQLite.
  const host = await StudioHost.open({
    dataDir: folder,
    store: store ?? settings.values['yukta.store'] ?? 'sqlite',
    settings,
    onWarning: (m) => io.err(`warning: ${m}`),
    onInternalError: (e) => io.err(`internal error: ${e instanceof Error ? e.stack : String(e)}`),
  });
  await host.ready;
  return host;
}

/** Opens the data folder itself (locked for as long as the agent is connected) and serves MCP over stdio. */
async function serveFolder(folder: string, storeFlag: string | undefined, key: string | undefined, io: CliIo): Promise<number> {
  const store = parseStore(storeFlag);
  const lock = takeFolder(folder);
  let host: StudioHost | null = null;
  try {
    host = await openHost(folder, store, io);
    const caller = callerFor(host, key);
    const mcp = createStudioMcpServer(host, () => caller);
    const ended = Promise.race([stdinEnded(), stopSignal()]);
    await mcp.server.connect(new StdioServerTransport());
    io.err(`yukta mcp: serving ${folder} (${host.storeKind} store) over stdio as ${caller.actor}`);
    await ended;
    await mcp.close();
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot open ${folder}: ${(error as Error).message}`, EXIT_FAILED);
  } finally {
    await host?.close();
    lock.release();
  }
}

/** Relays stdio to a running host's `/mcp`; the host answers with the key's role. */
async function bridge(url: string, key: string | undefined, io: CliIo): Promise<number> {
  let endpoint: URL;
  try {
    endpoint = mcpEndpoint(url);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT_USAGE);
  }
  const remote = remoteTransport(endpoint, key);
  const local = new StdioServerTransport();
  io.err(`yukta mcp: bridging stdio to ${endpoint.href}`);
  await Promise.race([relayStdioToHttp(local, remote, endpoint, io.err), stdinEnded(), stopSignal()]);
  await remote.terminateSession().catch(() => undefined); // ends the host's session (DELETE /mcp)
  await remote.close();
  await local.close();
  return EXIT_OK;
}

/**
 * `yukta mcp [--url URL] [--key KEY] [--data DIR] [--store KIND]`: the StudioApi as an MCP server on stdio
 * (EXT-04). With `--url` (or $YUKTA_URL) it bridges to a running host; otherwise it opens the data folder
 * itself, refusing when another process holds it. Writes nothing but MCP to stdout.
 */
export async function mcpCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { url: { type: 'string' }, key: { type: 'string' }, data: { type: 'string' }, store: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new CliError(`mcp takes no arguments besides its flags (got "${positionals[0]}")`, EXIT_USAGE, true);
  const url = values.url ?? (process.env[MCP_URL_ENV] || undefined);
  const key = values.key ?? (process.env[MCP_KEY_ENV] || undefined);
  if (url !== undefined) {
    if (values.data !== undefined || values.store !== undefined)
      throw new CliError('--url bridges to a running host, --data/--store open a folder: pass one or the other', EXIT_USAGE, true);
    return bridge(url, key, io);
  }
  return serveFolder(dataDir(values.data), values.store, key, io);
}
