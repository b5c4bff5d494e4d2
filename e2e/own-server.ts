import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '..');

/** A `yukta serve` of a spec's own (the shared e2e server has no API keys), with its address and a stop. */
export interface OwnServer {
  base: string;
  dataDir: string;
  stop(): void;
}

/**
 * Starts `yukta serve` on a free port (port 0: it prints the one it took) with a fresh data folder and the
 * given environment; its own process group, so stopping it stops tsx's child too.
 */
export async function startOwnServer(env: Record<string, string>, prefix = 'yukta-e2e-own-'): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const server: ChildProcess = spawn('npx', ['tsx', 'main/cli/index.ts', 'serve', '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const lines = createInterface({ input: server.stdout! });
  const base = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('yukta serve printed no address in 60 s')), 60_000);
    server.on('exit', (code) => reject(new Error(`yukta serve exited with ${code}`)));
    lines.on('line', (line) => {
      const match = /serving at (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    });
  });
  return { base, dataDir, stop: () => server.pid !== undefined && process.kill(-server.pid, 'SIGTERM') };
}
