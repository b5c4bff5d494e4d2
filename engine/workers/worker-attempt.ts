import type { StartMessage, WireError, WireMessage } from '../../shared/workers/worker-protocol';
import type { JsonLimits } from '../../shared/json/json-limits';
import type { NodeControl, Plugin, PluginContext, PluginLogger, PluginResult, SubWorkflowResult } from '../plugins/contract';
import type { PluginServices } from '../plugins/services';
import { BadInputError, toErrorInfo } from '../runtime/errors';
import type { Message, OutputMessage } from '../runtime/message';
import { checkNodeOutput, messageJsonLimits } from '../security/message-size';
import type { SecretRedactor } from '../security/secrets';

/** Where an attempt's messages go: the worker's connection, batched into frames. */
export interface AttemptSink {
  push(message: object): void;
  flush(): void;
}

/** What the host said in WELCOME, and the worker's own input window. */
export interface AttemptLimits {
  /** Outputs this worker may send per stream before the host gives credit back. */
  outputWindow: number;
  /** Inputs the host may send per stream before this worker gives credit back (its HELLO window). */
  inputWindow: number;
  maxMessageBytes: number;
  maxDepth: number;
}

/** Heartbeats cross at most this often per attempt; the host's idle timeouts are seconds long. */
const HEARTBEAT_EVERY_MS = 100;

const NO_CONTROL_ON_WORKER: NodeControl = {
  waitForSignal: () => Promise.reject(new BadInputError('signals (WAIT_FOR_SIGNAL) need the engine: they cannot run on a worker')),
  onControl: () => undefined,
};

/**
 * One attempt on a worker (SCL-01): runs the local plugin for each input of the stream, in order, and sends
 * every output within the host's credit, then COMPLETE; a throw becomes ERROR with the error's name and code.
 * CANCEL fires the plugin's AbortSignal. Secrets the plugin resolved here are masked in whatever leaves the
 * worker (outputs, log lines, errors), since the host never learns them.
 */
export class WorkerAttempt implements PluginContext {
  private readonly inputs: WireMessage[] = [];
  private inputsDone = false;
  private outputCredit: number;
  private takenSinceCredit = 0;
  private wakeUp: (() => void) | null = null;
  private readonly controller = new AbortController();
  private lastHeartbeat = -Infinity;
  private logger: PluginLogger | null = null;
  private readonly outputLimits: JsonLimits;
  readonly state: Record<string, unknown> = {};
  readonly control = NO_CONTROL_ON_WORKER;

  constructor(
    readonly id: number,
    private readonly start: StartMessage,
    private readonly plugin: Plugin<unknown>,
    private readonly config: unknown,
    private readonly sink: AttemptSink,
    private readonly limits: AttemptLimits,
    readonly services: PluginServices,
    private readonly redactor: SecretRedactor,
  ) {
    this.outputCredit = limits.outputWindow;
    this.outputLimits = messageJsonLimits(limits);
  }

  // --- PluginContext ------------------------------------------------------------------------------

  get executionId(): string {
    return this.start.executionId;
  }

  get session(): string {
    return this.start.session;
  }

  get workflowId(): string {
    return this.start.workflowId;
  }

  get nodeId(): string {
    return this.start.nodeId;
  }

  get attempt(): number {
    return this.start.attempt;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get log(): PluginLogger {
    const line = (level: 'debug' | 'info' | 'warn' | 'error') => (text: string) =>
      this.sink.push({ t: 'LOG', s: this.id, level, text: this.redactor.redactText(text).slice(0, 10_000) });
    return (this.logger ??= { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') });
  }

  heartbeat(): void {
    const now = this.services.now();
    if (now - this.lastHeartbeat < HEARTBEAT_EVERY_MS) return;
    this.lastHeartbeat = now;
    this.sink.push({ t: 'HEARTBEAT', s: this.id });
  }

  sleep(ms: number): Promise<void> {
    return this.services.sleep(ms, this.signal);
  }

  runWorkflow(): Promise<SubWorkflowResult> {
    return Promise.reject(new BadInputError('sub-workflows need the engine: SUB_WORKFLOW cannot run on a worker'));
  }

  // --- the stream, from the host ------------------------------------------------------------------

  /** An input; returns a protocol error when the host sent past this worker's window. */
  input(message: WireMessage): string | null {
    if (this.inputsDone) return `INPUT after COMPLETE on stream ${this.id}`;
    if (this.inputs.length >= this.limits.inputWindow) return `stream ${this.id} sent more than its window of ${this.limits.inputWindow} inputs`;
    this.inputs.push(message);
    this.wake();
    return null;
  }

  complete(): void {
    this.inputsDone = true;
    this.wake();
  }

  credit(n: number): void {
    this.outputCredit += n;
    this.wake();
  }

  /** Stops the attempt: its signal fires with `error`; what it is waiting for gives up. */
  abort(error: Error): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(error);
    this.wake();
  }

  /** Runs to the end of the stream; always ends it with COMPLETE or ERROR, and never rejects. */
  async run(): Promise<void> {
    try {
      for (let input = await this.nextInput(); input !== null; input = await this.nextInput()) {
        const result = await this.plugin.process(input, this.config, this);
        await this.emitAll(result);
      }
      this.throwIfAborted();
      this.sink.push({ t: 'COMPLETE', s: this.id });
    } catch (error) {
      const reason = this.controller.signal.aborted ? this.controller.signal.reason : error;
      this.sink.push({ t: 'ERROR', s: this.id, error: this.wireError(reason) });
    }
    this.sink.flush();
  }

  private async nextInput(): Promise<Message | null> {
    for (;;) {
      this.throwIfAborted();
      const next = this.inputs.shift();
      if (next !== undefined) {
        if (++this.takenSinceCredit >= Math.ceil(this.limits.inputWindow / 2)) {
          this.sink.push({ t: 'CREDIT', s: this.id, n: this.takenSinceCredit });
          this.takenSinceCredit = 0;
        }
        return next;
      }
      if (this.inputsDone) return null;
      await new Promise<void>((resolve) => (this.wakeUp = resolve));
    }
  }

  private async emitAll(result: PluginResult): Promise<void> {
    if (!result) return;
    if (Symbol.asyncIterator in result) {
      for await (const out of result) await this.send(out);
      return;
    }
    for (const out of result) await this.send(out);
  }

  /** Sends one output within the host's credit, after the limits of SEC-03. */
  private async send(raw: OutputMessage): Promise<void> {
    const out = this.redactor.redact(raw);
    // Checked here as well as by the host's node wrapper: an output over the limits would not fit a frame.
    checkNodeOutput(this.nodeId, out.payload, this.outputLimits);
    while (this.outputCredit === 0) {
      this.throwIfAborted();
      await new Promise<void>((resolve) => (this.wakeUp = resolve));
    }
    this.throwIfAborted();
    this.outputCredit--;
    const wire: Record<string, unknown> = { payload: out.payload };
    if (out.metadata !== undefined) wire.metadata = out.metadata;
    if (out.port !== undefined) wire.port = out.port;
    this.sink.push({ t: 'OUTPUT', s: this.id, out: wire });
  }

  private throwIfAborted(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
  }

  private wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  private wireError(error: unknown): WireError {
    const info = toErrorInfo(error);
    const message = this.redactor.redactText(info.message).slice(0, 10_000);
    return info.code === undefined ? { name: info.name.slice(0, 200), message } : { name: info.name.slice(0, 200), message, code: info.code.slice(0, 200) };
  }
}
