import { z } from 'zod';
import type { StudioEvent } from '../../shared/events/events';
import type { WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import type { ExecutionId } from '../../shared/workflow/ids';
import { Engine, type EngineOptions } from '../engine';
import { builtinPlugins } from '../plugins/builtin';
import { definePlugin, type Plugin, type PluginContext, type PluginResult } from '../plugins/contract';
import { ManualClock } from '../runtime/clock';
import type { Message } from '../runtime/message';
import type { RunDebugSettings } from '../runtime/run-debug';

/** Test helpers for engine behaviour: an engine on a manual clock, and small plugins to drive it. */
export interface Harness {
  engine: Engine;
  clock: ManualClock;
  events: StudioEvent[];
  /** Saves the workflow and starts it; returns the execution id. */
  run(definition: WorkflowDefinitionInput, payload?: Record<string, unknown>, debug?: RunDebugSettings): Promise<ExecutionId>;
  statuses(executionId: ExecutionId): Record<string, string>;
  /** Lets pending promise callbacks run (no time passes). */
  settle(): Promise<void>;
}

export function harness(extra: Array<Plugin<never>> = [], options: EngineOptions = {}): Harness {
  const clock = new ManualClock(1_000_000);
  const engine = new Engine({ plugins: [...builtinPlugins(), ...extra], clock, randomSeed: 42, ...options });
  const events: StudioEvent[] = [];
  engine.subscribe((e) => events.push(e));
  return {
    engine,
    clock,
    events,
    async run(definition, payload = {}, debug) {
      await engine.saveWorkflow('test', definition);
      return (await engine.startRun({ session: 'test', workflowId: definition.workflowId, payload, debug })).executionId;
    },
    statuses(executionId) {
      return Object.fromEntries(engine.getRun(executionId).nodes.map((n) => [n.nodeId, n.status]));
    },
    async settle() {
      for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

const Any = z.record(z.string(), z.unknown());

/** A processor whose behaviour the test supplies. */
export function processor(
  type: string,
  process: (message: Message, ctx: PluginContext) => PluginResult | Promise<PluginResult>,
  extra: Partial<Plugin<Record<string, unknown>>> = {},
): Plugin<never> {
  return definePlugin({
    type,
    kind: 'processor',
    title: type,
    description: '',
    configSchema: Any,
    defaultConfig: {},
    outputs: ['out'],
    process: (m, _c, ctx) => process(m, ctx),
    ...extra,
  }) as unknown as Plugin<never>;
}

/** A terminal that records every payload it gets. */
export function recorder(type = 'REC'): { plugin: Plugin<never>; seen: unknown[] } {
  const seen: unknown[] = [];
  const plugin = definePlugin({
    type,
    kind: 'terminal',
    title: type,
    description: '',
    configSchema: Any,
    defaultConfig: {},
    outputs: [],
    process(m) {
      seen.push(m.payload);
    },
  }) as unknown as Plugin<never>;
  return { plugin, seen };
}

/** A promise the test opens when it wants. */
export function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A chain definition: `t` (API_TRIGGER) → each of `middle` → `out` (the given terminal type). */
export function chain(
  workflowId: string,
  middle: Array<{ nodeId: string; type: string; config?: Record<string, unknown>; timeoutSeconds?: number | string }>,
  terminal = 'REC',
): WorkflowDefinitionInput {
  const nodes = [{ nodeId: 't', type: 'API_TRIGGER' }, ...middle.map((n) => ({ config: {}, ...n })), { nodeId: 'out', type: terminal }];
  const edges = nodes.slice(1).map((n, i) => ({ source: nodes[i]!.nodeId, target: n.nodeId }));
  return { workflowId, nodes, edges };
}
