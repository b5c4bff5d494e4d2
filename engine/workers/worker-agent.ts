import { WORKER_PROTOCOL_VERSION, type Hello, type HostToWorker, type StartMessage, type Welcome, type WireError } from '../../shared/workers/worker-protocol';
import type { Plugin } from '../plugins/contract';
import type { PluginRegistry } from '../plugins/registry';
import { createPluginServices, type EngineSecurityOptions, type PluginServices } from '../plugins/services';
import { SystemClock, type Clock, type TimerHandle } from '../runtime/clock';
import { CancelledError } from '../runtime/errors';
import type { SecretRedactor } from '../security/secrets';
import { AgentSession, type AgentSessionEvents, type WorkerIdentity } from './agent-session';
import { OutboundFrames } from './outbound-frames';
import { WorkerAttempt } from './worker-attempt';
import { WorkerDrainingError } from './worker-errors';
import { FRAME_ENVELOPE_BYTES } from './worker-registry';

export interface WorkerAgentOptions {
  /** The plugins this worker hosts (the engine's built-ins, and any added with `--plugins`). */
  plugins: PluginRegistry;
  /** Types it runs (`--allow`); START of another type is refused. */
  allow: ReadonlySet<string>;
  /** Attempts at once (`--slots`). */
  slots: number;
  /** Inputs the host may send per stream before credit (`yukta.workers.window`). */
  window: number;
  /** SEC-02/SEC-03 on this worker: its own settings, secrets and environment. */
  security?: EngineSecurityOptions;
  clock?: Clock;
}

/** After the drain timeout ended its attempts, how long a worker waits for them to stop. */
const DRAIN_GRACE_MS = 1000;

/** Why a START is refused: the host reads the name and code as it reads a plugin's error, and may retry elsewhere. */
function refusal(name: string, code: string, message: string): { refused: WireError } {
  return { refused: { name, code, message } };
}

/**
 * The worker's side of the protocol (SCL-01): the engine's plugin registry and nothing else (no scheduler, no
 * stores). It answers START with an attempt when it has a free slot and allows the type, runs the attempts,
 * and on drain takes no new ones while those running finish.
 */
export class WorkerAgent {
  private readonly attempts = new Map<number, WorkerAttempt>();
  private readonly services: PluginServices & { readonly redactor: SecretRedactor };
  private out: OutboundFrames | null = null;
  private welcome: Welcome | null = null;
  private draining = false;
  private idle: (() => void) | null = null;
  private readonly clock: Clock;

  constructor(private readonly options: WorkerAgentOptions) {
    this.clock = options.clock ?? new SystemClock();
    this.services = createPluginServices(options.security ?? {}, this.clock);
  }

  /** A new connection: HELLO is written at once; the session reads the host's frames. */
  connect(write: (frame: string) => void, identity: WorkerIdentity, events: AgentSessionEvents): AgentSession {
    return new AgentSession(this, write, identity, events);
  }

  /** The HELLO this worker says on every connection. */
  hello(name: string, pool: string, version: string): Hello {
    return {
      t: 'HELLO',
      protocol: WORKER_PROTOCOL_VERSION,
      name,
      pool,
      allow: [...this.options.allow],
      slots: this.options.slots,
      window: this.options.window,
      version,
    };
  }

  /** A connection was welcomed: the attempts' messages go out through `write`, within the host's limits. */
  attach(welcome: Welcome, write: (frame: string) => void): void {
    this.welcome = welcome;
    this.out = new OutboundFrames(write, welcome.maxMessageBytes + FRAME_ENVELOPE_BYTES);
  }

  /** The connection is gone: results can no longer be delivered, so running attempts are stopped. */
  detach(reason: string): void {
    this.out?.close();
    this.out = null;
    this.welcome = null;
    for (const attempt of this.attempts.values()) attempt.abort(new Error(`the connection to the host closed: ${reason}`));
  }

  get running(): number {
    return this.attempts.size;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** A message from the host; returns a protocol error (the connection should be dropped), or null. */
  receive(message: Exclude<HostToWorker, { t: 'WELCOME' | 'REFUSED' }>): string | null {
    if (message.t === 'START') return this.startAttempt(message);
    const attempt = this.attempts.get(message.s);
    // A stream that ended here already: the host's late messages (a CANCEL crossing our COMPLETE) are harmless.
    if (attempt === undefined) return null;
    if (message.t === 'INPUT') return attempt.input(message.message);
    if (message.t === 'COMPLETE') attempt.complete();
    else if (message.t === 'CREDIT') attempt.credit(message.n);
    else attempt.abort(new CancelledError(message.reason));
    return null;
  }

  /**
   * Stops taking attempts; resolves once those running ended, or after `timeoutMs` (`yukta.workers.drain-timeout`)
   * aborts the rest (their streams end with a retryable WorkerDrainingError).
   */
  async drain(timeoutMs: number): Promise<{ aborted: number }> {
    this.draining = true;
    if (this.attempts.size === 0) return { aborted: 0 };
    let aborted = 0;
    const idle = new Promise<void>((resolve) => (this.idle = resolve));
    let grace: TimerHandle | null = null;
    const timer = this.clock.setTimer(() => {
      aborted = this.attempts.size;
      const error = new WorkerDrainingError(`the worker stopped: its attempts did not finish within the drain timeout of ${timeoutMs} ms`);
      for (const attempt of this.attempts.values()) attempt.abort(error);
      // A plugin that ignores its signal is not waited for long: the host counts its attempt lost when the connection closes.
      grace = this.clock.setTimer(() => this.idle?.(), DRAIN_GRACE_MS);
    }, timeoutMs);
    await idle;
    this.idle = null;
    this.clock.clearTimer(timer);
    if (grace !== null) this.clock.clearTimer(grace);
    return { aborted };
  }

  private startAttempt(start: StartMessage): string | null {
    const out = this.out;
    const welcome = this.welcome;
    if (out === null || welcome === null) return 'START before WELCOME';
    if (this.attempts.has(start.s)) return `START of stream ${start.s}, which is running`;
    const chosen = this.pluginFor(start);
    if ('refused' in chosen) {
      out.push({ t: 'ERROR', s: start.s, error: chosen.refused });
      out.flush();
      return null;
    }
    const limits = { outputWindow: welcome.window, inputWindow: this.options.window, maxMessageBytes: welcome.maxMessageBytes, maxDepth: welcome.maxDepth };
    const attempt = new WorkerAttempt(start.s, start, chosen.plugin, chosen.config, out, limits, this.services, this.services.redactor);
    this.attempts.set(start.s, attempt);
    void attempt.run().then(() => this.ended(attempt));
    return null;
  }

  /** The plugin and parsed config to run the attempt with, or why it is refused. */
  private pluginFor(start: StartMessage): { plugin: Plugin<unknown>; config: unknown } | { refused: WireError } {
    if (this.draining) return refusal('WorkerDrainingError', 'WORKER_DRAINING', 'this worker is draining: it takes no new attempts');
    if (this.attempts.size >= this.options.slots)
      return refusal('WorkerBusyError', 'NO_FREE_SLOT', `this worker has no free slot (${this.options.slots} in use)`);
    const plugin = this.options.plugins.get(start.type);
    if (!this.options.allow.has(start.type) || plugin === undefined || plugin.kind !== 'processor') {
      return refusal(
        'WorkerRefusedError',
        'TYPE_NOT_ALLOWED',
        `this worker does not run ${start.type} (it allows ${[...this.options.allow].join(', ') || 'nothing'})`,
      );
    }
    const parsed = plugin.configSchema.safeParse(start.config);
    if (!parsed.success)
      return refusal(
        'BadInputError',
        'BAD_INPUT',
        `node "${start.nodeId}" (${start.type}) config on this worker: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    return { plugin, config: parsed.data };
  }

  private ended(attempt: WorkerAttempt): void {
    this.attempts.delete(attempt.id);
    if (this.attempts.size === 0 && this.idle) {
      const idle = this.idle;
      this.idle = null;
      idle();
    }
  }
}
