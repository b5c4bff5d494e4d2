import type { ErrorInfo, UnnumberedEvent } from '../../shared/events/events';
import { isFailure, isTerminal, type Status } from '../../shared/status/status';
import type { Clock } from './clock';
import type { Message } from './message';
import { NodeStage, type StageRun } from './node-stage';
import type { PreparedWorkflow } from './prepared-workflow';

export interface RunOptions {
  executionId: string;
  session: string;
  prepared: PreparedWorkflow;
  payload: unknown;
  clock: Clock;
  emit(event: UnnumberedEvent): void;
  /** Capacity of each node's input channel (ENG-01). */
  channelCapacity: number;
}

/**
 * One execution of a prepared workflow: builds a stage per node, wires every channel before any
 * stage starts (no early message is lost), and ends the run once (ENG-06).
 */
export class WorkflowRun implements StageRun {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  /** Resolves with the run's final status once every node has ended. */
  readonly done: Promise<Status>;
  private readonly stages = new Map<string, NodeStage>();
  private readonly abort = new AbortController();
  private runStatus: Status = 'PENDING';
  private resolveDone!: (status: Status) => void;
  /** The first node that failed, named in the run's error. */
  private rootCause: { nodeId: string; error: ErrorInfo } | null = null;

  constructor(private readonly options: RunOptions) {
    this.executionId = options.executionId;
    this.session = options.session;
    this.workflowId = options.prepared.definition.workflowId;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    for (const node of options.prepared.nodes.values()) {
      this.stages.set(node.nodeId, new NodeStage(node, this, options.channelCapacity));
    }
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get cancelled(): boolean {
    return this.abort.signal.aborted;
  }

  get status(): Status {
    return this.runStatus;
  }

  now(): number {
    return this.options.clock.now();
  }

  emit(event: UnnumberedEvent): void {
    this.options.emit(event);
  }

  stage(nodeId: string): NodeStage {
    const stage = this.stages.get(nodeId);
    if (!stage) throw new Error(`run ${this.executionId} has no node "${nodeId}"`);
    return stage;
  }

  /** Announces the run and its nodes as PENDING; called before `start` so subscribers see the whole graph. */
  announce(): void {
    this.setRunStatus('PENDING');
    for (const stage of this.stages.values()) {
      this.emit({ type: 'NODE_STATUS', executionId: this.executionId, at: this.now(), nodeId: stage.node.nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } });
    }
  }

  /** Starts every stage; returns at once. */
  start(): void {
    this.setRunStatus('RUNNING');
    const startMessage: Message = { id: `${this.executionId}:start`, payload: this.options.payload, metadata: {}, headers: {} };
    const ends = [...this.stages.values()].map((stage) =>
      stage.execute(startMessage).then(({ status, error }) => this.onStageEnd(stage, status, error)),
    );
    void Promise.all(ends).then(() => this.onAllEnded());
  }

  /** A caller cancels: the run ends CANCELLED and every node stops taking input. */
  cancel(): void {
    this.endRun('CANCELLED');
  }

  private onStageEnd(stage: NodeStage, status: Status, error: ErrorInfo | undefined): void {
    if (error && !this.rootCause) this.rootCause = { nodeId: stage.node.nodeId, error };
    // The first sink that fails ends the run at once and cancels the other branches (ENG-06).
    if (stage.isSink && isFailure(status) && !this.cancelled) this.endRun('FAILURE', this.failureInfo(stage.node.nodeId, status));
  }

  private failureInfo(sinkId: string, status: Status): ErrorInfo {
    const cause = this.rootCause;
    if (!cause) return { name: 'NodeFailed', message: `node "${sinkId}" ended ${status}` };
    return { name: cause.error.name, message: `node "${cause.nodeId}" failed: ${cause.error.message}`, ...(cause.error.code ? { code: cause.error.code } : {}) };
  }

  private onAllEnded(): void {
    if (!isTerminal(this.runStatus)) {
      const sinks = [...this.stages.values()].filter((s) => s.isSink);
      const failed = sinks.find((s) => isFailure(s.currentStatus));
      this.endRun(failed ? 'FAILURE' : 'SUCCESS', failed ? this.failureInfo(failed.node.nodeId, failed.currentStatus) : undefined);
    }
    this.resolveDone(this.runStatus);
  }

  private endRun(status: Status, error?: ErrorInfo): void {
    if (isTerminal(this.runStatus)) return; // a second end is ignored
    this.setRunStatus(status, error);
    if (status !== 'SUCCESS') {
      this.abort.abort();
      for (const stage of this.stages.values()) stage.cancel();
    }
  }

  private setRunStatus(status: Status, error?: ErrorInfo): void {
    this.runStatus = status;
    const { prepared } = this.options;
    const event: UnnumberedEvent = {
      type: 'EXECUTION_STATUS',
      executionId: this.executionId,
      at: this.now(),
      session: this.session,
      workflowId: this.workflowId,
      definitionVersion: prepared.version,
      status,
    };
    if (error) event.error = error;
    this.emit(event);
  }
}
