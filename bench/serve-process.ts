import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root (benches run the CLI and read `dist/renderer` from there). */
export const ROOT = resolve(import.meta.dirname, '..');

/** Debian Chromium's arguments for the studio benches (no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts `yukta serve` on a port and data folder; resolves once its API answers. */
export async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  // Its own process group, so stopping it also stops the tsx child that holds the port.
  const server = spawn('npx', ['tsx', 'main/cli/index.ts', 'serve', '--port', String(port), '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/node-types`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stopServer(server);
  throw new Error(`yukta serve did not answer on port ${port}`);
}

export function stopServer(server: ChildProcess): void {
  if (server.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
}
