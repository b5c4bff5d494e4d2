/** Test helpers for SCL-01: a host with the workers' listener in this process, and `yukta worker` children. Not a test file. */
import { builtinPlugins, type EngineOptions, type Plugin } from '../../engine/index';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { startCli, type RunningCli } from '../cli/cli-process';
import { startWorkerListener, type ListenerTls, type WorkerListener } from '../workers/worker-listener';
import { plugins as testPlugins } from './worker-test-plugins';

export const TOKEN = 'worker-token-0123456789';
export const TEST_PLUGINS_MODULE = 'main/test-support/worker-test-plugins.ts';

export interface WorkerHost {
  host: StudioHost;
  listener: WorkerListener;
  url: string;
  /** The registry's and the listener's log lines. */
  lines: string[];
  /** Resolves with the first log line (so far or to come) matching. */
  line(pattern: RegExp): Promise<string>;
  close(): Promise<void>;
}

export interface WorkerHostOptions {
  port: number;
  settings?: Record<string, unknown>;
  engine?: Omit<EngineOptions, 'definitions'>;
  tls?: ListenerTls;
  host?: string;
}

/** A memory-store host with the test node types and its listener on `port`. */
export async function startWorkerHost(options: WorkerHostOptions): Promise<WorkerHost> {
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const log = (level: string, text: string): void => {
    const line = `${level}: ${text}`;
    lines.push(line);
    for (const w of [...waiting]) {
      if (!w.pattern.test(line)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(line);
    }
  };
  const host = new StudioHost({
    settings: parseHostSettings({ 'yukta.execution.shutdown-timeout': 0, ...options.settings }),
    engine: { plugins: [...builtinPlugins(), ...(testPlugins as Array<Plugin<never>>)], ...options.engine },
    onWorkerLog: log,
  });
  const listener = await startWorkerListener({
    registry: host.engine.workers,
    host: options.host ?? '127.0.0.1',
    port: options.port,
    path: '/workers',
    token: TOKEN,
    log,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  return {
    host,
    listener,
    url: listener.url,
    lines,
    line: (pattern) => {
      const seen = lines.find((l) => pattern.test(l));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
    async close() {
      await listener.close();
      await host.close();
    },
  };
}

export interface WorkerChild extends RunningCli {
  readonly name: string;
  /** Resolves once the worker printed that a host registered it (the next time, after a reconnect). */
  registered(times?: number): Promise<void>;
}

/** `yukta worker` as a child process, with the test node types. */
export function startWorker(options: {
  urls: string[];
  name: string;
  pool: string;
  slots?: number;
  allow?: string[];
  env?: Record<string, string>;
  set?: string[];
  token?: string;
}): WorkerChild {
  const args = [
    'worker',
    '--control-plane',
    options.urls.join(','),
    '--pool',
    options.pool,
    '--name',
    options.name,
    '--slots',
    String(options.slots ?? 1),
    '--plugins',
    TEST_PLUGINS_MODULE,
  ];
  if (options.allow) args.push('--allow', options.allow.join(','));
  for (const s of options.set ?? []) args.push('--set', s);
  const child = startCli(args, { YUKTA_WORKER_TOKEN: options.token ?? TOKEN, TEST_WORKER: options.name, ...options.env });
  return {
    ...child,
    name: options.name,
    async registered(times = 1) {
      const count = () => child.lines.filter((l) => l.startsWith('registered with ')).length;
      const exited = child.exited.then((code) =>
        Promise.reject(new Error(`worker ${options.name} exited ${code}; stdout:\n${child.lines.join('\n')}\nstderr:\n${child.stderr()}`)),
      );
      exited.catch(() => undefined);
      // readline reads each chunk before this listener hears it, so the count is current when it wakes.
      while (count() < times) await Promise.race([new Promise((resolve) => child.child.stdout!.once('data', resolve)), exited]);
    },
  };
}

/** Stops every child still running (SIGKILL: a test that wants a drain sends SIGTERM itself and awaits the exit). */
export async function killAll(children: readonly WorkerChild[]): Promise<void> {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
}
