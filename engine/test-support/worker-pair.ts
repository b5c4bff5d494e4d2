import type { Welcome } from '../../shared/workers/worker-protocol';
import type { Engine } from '../engine';
import { builtinPlugins } from '../plugins/builtin';
import type { Plugin } from '../plugins/contract';
import { PluginRegistry } from '../plugins/registry';
import type { Clock } from '../runtime/clock';
import type { AgentSession } from '../workers/agent-session';
import { WorkerAgent } from '../workers/worker-agent';
import type { WorkerConnection } from '../workers/worker-session';

/** A worker joined to an engine in the same process, frames crossing in order one turn later (as on a socket). */
export interface InProcessWorker {
  readonly agent: WorkerAgent;
  readonly session: AgentSession;
  readonly welcomed: Promise<Welcome>;
  /** Frames the worker sent, in order (what crossed). */
  readonly sentByWorker: string[];
  readonly sentByHost: string[];
  /** Closes the connection from either side: both ends see it close. */
  close(code?: number, reason?: string): void;
  /** Messages from the worker stop crossing (a stopped process): the host hears nothing more. */
  freeze(): void;
}

export interface InProcessWorkerOptions {
  name: string;
  pool: string;
  allow: string[];
  slots?: number;
  window?: number;
  /** The worker's plugins (the built-ins by default): a test can give it a type that behaves differently from the host's. */
  plugins?: Array<Plugin<never>>;
  clock?: Clock;
}

export function connectInProcess(engine: Engine, options: InProcessWorkerOptions): InProcessWorker {
  const agent = new WorkerAgent({
    plugins: new PluginRegistry(options.plugins ?? builtinPlugins()),
    allow: new Set(options.allow),
    slots: options.slots ?? 1,
    window: options.window ?? 16,
    clock: options.clock,
  });
  const sentByWorker: string[] = [];
  const sentByHost: string[] = [];
  let open = true;
  let frozen = false;
  let host: WorkerConnection | null = null;
  const hostLink = {
    peer: `in-process:${options.name}`,
    send: (frame: string) => {
      if (!open) return;
      sentByHost.push(frame);
      setImmediate(() => open && session.receive(frame));
    },
    close: (code: number, reason: string) => closeBoth(code, reason),
  };
  let resolveWelcome!: (w: Welcome) => void;
  const welcomed = new Promise<Welcome>((resolve) => (resolveWelcome = resolve));
  const toHost = (frame: string): void => {
    if (!open || frozen) return;
    sentByWorker.push(frame);
    setImmediate(() => open && host?.receive(frame));
  };
  host = engine.workers.connect(hostLink);
  const session = agent.connect(
    toHost,
    { name: options.name, pool: options.pool, version: 'test' },
    {
      welcomed: resolveWelcome,
      refused: (reason, message) => closeBoth(4001, `${reason}: ${message}`),
      broken: (code, reason) => closeBoth(code, reason),
    },
  );
  function closeBoth(code: number, reason: string): void {
    if (!open) return;
    open = false;
    setImmediate(() => {
      host?.closed(code, reason);
      session.closed(reason);
    });
  }
  return { agent, session, welcomed, sentByWorker, sentByHost, close: (code = 1006, reason = '') => closeBoth(code, reason), freeze: () => (frozen = true) };
}
