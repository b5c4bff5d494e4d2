/** The crash soak's host child process (`crash-host.ts`, bundled once) and its HTTP calls. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Bundles the child entry once (esbuild, npm packages external) so each restart costs a plain `node` start. */
export async function bundleChild(): Promise<string> {
  const outdir = join(ROOT, 'node_modules', '.cache', 'yukta-crash-soak');
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `crash-host-${process.pid}.mjs`);
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['main/test-support/crash-host.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

export interface Child {
  proc: ChildProcess;
  url: string;
  exited: Promise<void>;
  stderr: () => string;
}

/** Starts the host on `dataDir` and waits for its READY line (90 s at most). */
export async function startChild(entry: string, dataDir: string, store: string, storeEnv: Record<string, string>): Promise<Child> {
  const env = {
    ...process.env,
    ...storeEnv,
    NODE_ENV: 'production',
    // Keep every run and checkpoint of the soak, so nothing the checks read is trimmed away.
    YUKTA_EXECUTION_LOG_RETAINED_RUNS: '1000000',
    YUKTA_RESTART_RETAINED_EXECUTIONS: '1000000',
  };
  const proc = spawn(process.execPath, [entry, '--data', dataDir, '--store', store], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rej(new Error(`the host did not print READY within 90 s; stderr: ${err}`));
    }, 90_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[1]!);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`the host exited (${String(code)}) before READY; stderr: ${err}`));
    });
  });
  return { proc, url, exited, stderr: () => err };
}

/** One JSON call to the child host. */
export async function api(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
