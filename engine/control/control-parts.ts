import type { UnnumberedEvent } from '../../shared/events/events';
import type { Clock } from '../runtime/clock';
import type { WorkflowRun } from '../runtime/workflow-run';
import type { CheckpointStore } from '../store/checkpoint-store';
import type { ExecutionLog } from '../store/execution-log';
import { DEFAULT_CHECKPOINT_CAPS, MemoryCheckpointStore } from '../store/memory/memory-checkpoint-store';
import { MemoryExecutionLog } from '../store/memory/memory-execution-log';
import { ControlAudit } from './control-audit';
import type { ControlOptions } from './control-plane';
import { PluginControlBus } from './plugin-bus/plugin-control-bus';
import { RunArchive } from './restart/run-archive';
import { EngineRunControl } from './signals/node-control';
import { SignalHub } from './signals/signal-hub';
import { StoredRules } from './supervisors/stored-rules';

/**
 * What runs need of the control plane before it exists (the engine builds these first, in dependency
 * order): where outputs and end markers are recorded, the restart archive, the plugins' `ctx.control`
 * (signals, the plugin bus), the reviewers and audit trail the scheduler's gate shares, and the supervisor
 * rules read back from their store (starts wait for them).
 */
export interface ControlParts {
  readonly checkpoints: CheckpointStore;
  readonly archive: RunArchive;
  readonly signals: SignalHub;
  readonly pluginBus: PluginControlBus;
  readonly runControl: EngineRunControl;
  readonly audit: ControlAudit;
  readonly rules: StoredRules;
}

export interface ControlPartsDeps {
  clock: Clock;
  publish(event: UnnumberedEvent): void;
  liveRuns(): Iterable<WorkflowRun>;
  /** The audit log when the options name none (the durable execution log, DUR-01). */
  log?: ExecutionLog | undefined;
}

export function createControlParts(deps: ControlPartsDeps, options: ControlOptions = {}): ControlParts {
  const { clock, publish } = deps;
  const caps = {
    maxMessagesPerNode: options.maxMessagesPerNode ?? DEFAULT_CHECKPOINT_CAPS.maxMessagesPerNode,
    maxBytesPerNode: options.maxBytesPerNode ?? DEFAULT_CHECKPOINT_CAPS.maxBytesPerNode,
  };
  const checkpoints = options.checkpoints ?? new MemoryCheckpointStore(caps);
  const archive = new RunArchive({ checkpoints, retainedRuns: options.retainedRuns ?? 100, recordOutputs: options.recordOutputs ?? true });
  const signals = new SignalHub({ clock, checkpoints, emit: (e) => publish(e) });
  const pluginBus = new PluginControlBus({ liveRuns: () => deps.liveRuns() });
  const runControl = new EngineRunControl(signals, pluginBus);
  const audit = new ControlAudit({
    clock,
    log: options.log ?? deps.log ?? new MemoryExecutionLog(),
    reviewers: options.reviewers ?? [],
    emit: (e) => publish(e),
  });
  const rules = new StoredRules(options.ruleStore ?? null);
  return { checkpoints, archive, signals, pluginBus, runControl, audit, rules };
}
