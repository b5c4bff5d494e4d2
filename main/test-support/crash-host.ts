/**
 * The host as the kill -9 harness runs it (DUR-01…03): `node crash-host.mjs --data DIR [--store KIND]` serves
 * the StudioApi over HTTP on a free port with the SQLite store (or the one named: `postgres` reads YUKTA_POSTGRES_*), like `yukta serve`, plus the soak node types
 * (`soak-plugins.ts`), which log every call. Prints `READY <url>` once boot
 * recovery is done and the port answers. Not a test itself: `crash-soak.ts` starts and kills it.
 */
import { parseArgs } from 'node:util';
import { builtinPlugins } from '../../engine/index';
import { createHttpServer } from '../http/http-server';
import { loadHostSettings } from '../host/host-settings';
import { STORE_KINDS, StudioHost } from '../host/studio-host';
import { soakPlugins } from './soak-plugins';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: 'string' }, store: { type: 'string' } }, strict: true });
  const store = STORE_KINDS.find((k) => k === (values.store ?? 'sqlite'));
  if (!store) throw new Error(`--store must be one of ${STORE_KINDS.join(', ')}`);
  const dataDir = values.data;
  if (!dataDir) throw new Error('--data DIR is required');
  // `open`: the postgres store (YUKTA_POSTGRES_URL, …_SCHEMA) connects and migrates first.
  const host = await StudioHost.open({
    dataDir,
    store,
    settings: loadHostSettings(dataDir, process.env),
    engine: { plugins: [...builtinPlugins(), ...soakPlugins(dataDir)] },
    onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
    onInternalError: (e) => process.stderr.write(`internal error: ${e instanceof Error ? e.stack : String(e)}\n`),
  });
  await host.ready;
  const server = await createHttpServer({ host, bind: { host: '127.0.0.1', port: 0 } });
  const { url } = await server.listen();
  process.stdout.write(`READY ${url}\n`);
  const stop = async () => {
    await server.close();
    await host.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`crash-host: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
