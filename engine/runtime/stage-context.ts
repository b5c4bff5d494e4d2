import type { UnnumberedEvent } from '../../shared/events/events';
import type { NodeControl, PluginContext, PluginLogger, SubWorkflowResult, SubWorkflowRunner } from '../plugins/contract';
import type { PluginServices } from '../plugins/services';
import type { NodeTimers } from './node-timers';

/** What a plugin context reaches of its node while it runs: one narrow interface. */
export interface ContextHost {
  /** Fires when the run or the node stops, times out or ends. */
  readonly signal: AbortSignal;
  readonly state: Record<string, unknown>;
  /** Signals and the plugin-level control bus (CTL-05, CTL-08). */
  readonly control: NodeControl;
  /** Feeds the node's idle clock (a heartbeat). */
  activity(): void;
  emit(event: UnnumberedEvent): void;
  runWorkflow: SubWorkflowRunner;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * The context a plugin gets (ENG-02): one small object per node (and per attempt under a failure policy),
 * with the logger and the AbortSignal made only when a plugin asks for them.
 */
export class StageContext implements PluginContext {
  private logSink: PluginLogger | null = null;

  /** The run's ids are the context's own: a context kept past its run still names that run. */
  constructor(
    readonly executionId: string,
    readonly session: string,
    readonly workflowId: string,
    readonly nodeId: string,
    /** `ctx.services` (SEC-02, SEC-03, EXT-03). */
    readonly services: PluginServices,
    private readonly timers: NodeTimers,
    private readonly host: ContextHost,
    readonly attempt = 1,
    private readonly attemptSignal: AbortSignal | null = null,
  ) {}

  get state(): Record<string, unknown> {
    return this.host.state;
  }

  get signal(): AbortSignal {
    return this.attemptSignal ?? this.host.signal;
  }

  get control(): NodeControl {
    return this.host.control;
  }

  get log(): PluginLogger {
    return (this.logSink ??= {
      debug: (text) => this.line('debug', text),
      info: (text) => this.line('info', text),
      warn: (text) => this.line('warn', text),
      error: (text) => this.line('error', text),
    });
  }

  heartbeat(): void {
    this.host.activity();
  }

  sleep(ms: number): Promise<void> {
    return this.timers.sleep(ms, this.signal);
  }

  runWorkflow(request: Parameters<SubWorkflowRunner>[0], signal?: AbortSignal): Promise<SubWorkflowResult> {
    return this.host.runWorkflow(request, signal ?? this.signal);
  }

  /** The context of one attempt: its number and a signal that also fires on the attempt's timeout. */
  forAttempt(attempt: number, signal: AbortSignal): StageContext {
    return new StageContext(this.executionId, this.session, this.workflowId, this.nodeId, this.services, this.timers, this.host, attempt, signal);
  }

  private line(level: Level, text: string): void {
    this.host.emit({ type: 'LOG', executionId: this.executionId, at: this.timers.now(), nodeId: this.nodeId, level, text });
  }
}
