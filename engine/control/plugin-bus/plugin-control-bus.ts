import type { PluginControlReply } from '../../../shared/api/control.schema';
import { BadInputError } from '../../engine-errors';
import type { NodeCounts } from '../../../shared/events/events';
import type { PluginControlMessage } from '../../plugins/contract';
import type { WorkflowRun } from '../../runtime/workflow-run';

/** A node of a workflow, across its runs (CTL-08). */
export interface NodeKey {
  readonly session: string;
  readonly workflowId: string;
  readonly nodeId: string;
}

export type PluginControlHandler = (message: PluginControlMessage) => unknown;

export interface PluginControlBusOptions {
  /** The live runs (the bus reaches every run of a workflow). */
  liveRuns(): Iterable<WorkflowRun>;
}

const keyOf = (k: NodeKey): string => `${k.session}\u0000${k.workflowId}\u0000${k.nodeId}`;

/**
 * The plugin-level control bus (CTL-08), keyed by workflow and node, not by run: `heartbeat` keeps the
 * node's idle clock alive in every live run, `statistics` reports its counts per run, and any other kind
 * goes to the handlers its plugins registered through `ctx.control.onControl`. It bypasses the reviewers
 * and is not audited like run commands; a `signal` kind is refused (signals are run commands, CTL-05).
 */
export class PluginControlBus {
  private readonly handlers = new Map<string, Set<PluginControlHandler>>();

  constructor(private readonly options: PluginControlBusOptions) {}

  /** Registers a plugin's handler; returns the function that removes it. */
  register(key: NodeKey, handler: PluginControlHandler): () => void {
    const k = keyOf(key);
    let set = this.handlers.get(k);
    if (!set) this.handlers.set(k, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(k) === set) this.handlers.delete(k);
    };
  }

  send(key: NodeKey, message: PluginControlMessage): PluginControlReply {
    if (message.kind === 'signal') {
      throw new BadInputError(
        'the plugin-level bus refuses signal bodies: send a Signal command to the run (POST /api/executions/{executionId}/signal)',
        'BAD_INPUT',
        'kind',
      );
    }
    const runs = this.runsOf(key);
    if (message.kind === 'heartbeat') {
      for (const run of runs) run.stage(key.nodeId).activity();
      return { kind: message.kind, runs: runs.length, delivered: runs.length, answers: [] };
    }
    if (message.kind === 'statistics') {
      const answers = runs.map((run) => {
        const stage = run.stage(key.nodeId);
        return { executionId: run.executionId, status: stage.currentStatus, counts: compactCounts(stage.counts) };
      });
      return { kind: message.kind, runs: runs.length, delivered: runs.length, answers };
    }
    const answers: unknown[] = [];
    for (const handler of this.handlers.get(keyOf(key)) ?? []) answers.push(handler(message));
    return { kind: message.kind, runs: runs.length, delivered: answers.length, answers };
  }

  private runsOf(key: NodeKey): WorkflowRun[] {
    const out: WorkflowRun[] = [];
    for (const run of this.options.liveRuns()) {
      if (!run.released && run.session === key.session && run.workflowId === key.workflowId && run.hasNode(key.nodeId)) out.push(run);
    }
    return out;
  }
}

/** Counts as events carry them: zero optional counts left out. */
function compactCounts(c: Readonly<Required<NodeCounts>>): NodeCounts {
  const counts: NodeCounts = { received: c.received, emitted: c.emitted };
  if (c.failed) counts.failed = c.failed;
  if (c.retried) counts.retried = c.retried;
  if (c.dropped) counts.dropped = c.dropped;
  return counts;
}
