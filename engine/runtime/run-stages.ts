import type { Clock } from './clock';
import { NodeStage } from './node-stage';
import type { StageRun } from './stage-run';
import type { PreparedWorkflow } from './prepared-workflow';

/**
 * The stages of one prepared workflow, wired to each other once (each stage's children, their inputs per
 * port) and bound to one run at a time. A run that ended SUCCESS without handing any stage out gives them
 * back (`StagePool`), so the next run of the same graph allocates no stage, channel or clock of its own.
 */
export class RunStages {
  readonly byId = new Map<string, NodeStage>();
  readonly list: NodeStage[] = [];

  constructor(prepared: PreparedWorkflow, channelCapacity: number, clock: Clock) {
    for (const node of prepared.nodes.values()) {
      const stage = new NodeStage(node, channelCapacity, clock);
      this.byId.set(node.nodeId, stage);
      this.list.push(stage);
    }
    for (const stage of this.list) {
      const ports: string[] = [];
      const targets: NodeStage[][] = [];
      for (const [port, children] of stage.node.outgoing) {
        ports.push(port);
        targets.push(children.map((id) => this.byId.get(id)!));
      }
      stage.wire(ports, targets);
    }
  }

  bind(run: StageRun): void {
    for (const stage of this.list) stage.bind(run);
  }

  /** True when no stage can still be reached from the run they served (see `NodeStage.reusable`). */
  get reusable(): boolean {
    for (const stage of this.list) if (!stage.reusable) return false;
    return true;
  }
}

/** Stage sets waiting for the next run of their prepared workflow; a few per workflow (concurrent runs need more). */
export class StagePool {
  private readonly free = new WeakMap<PreparedWorkflow, RunStages[]>();

  constructor(
    private readonly channelCapacity: number,
    private readonly clock: Clock,
    private readonly perWorkflow = 4,
  ) {}

  acquire(prepared: PreparedWorkflow): RunStages {
    return this.free.get(prepared)?.pop() ?? new RunStages(prepared, this.channelCapacity, this.clock);
  }

  release(prepared: PreparedWorkflow, stages: RunStages): void {
    let free = this.free.get(prepared);
    if (!free) this.free.set(prepared, (free = []));
    if (free.length < this.perWorkflow) free.push(stages);
  }
}
