import { vi } from 'vitest';
import type { StudioClient } from '../../shared/api/client';
import { StudioApiError } from '../../shared/api/errors';
import type { RunDetail } from '../../shared/api/runs.schema';
import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import type { StudioEvent } from '../../shared/events/events';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import type { NodeTypeInfo } from '../../shared/workflow/node-type';
import { validateGraph } from '../../shared/workflow/graph-validation';
import { hasErrors } from '../../shared/workflow/validation-issue';

export const NODE_TYPES: NodeTypeInfo[] = [
  { type: 'API_TRIGGER', kind: 'trigger', title: 'API trigger', description: 'Starts the workflow with the start payload.', outputs: ['out'], configSchema: {}, defaultConfig: {} },
  { type: 'TRANSFORM', kind: 'processor', title: 'Transform', description: 'Sets payload fields from templates.', outputs: ['out'], configSchema: {}, defaultConfig: { set: {}, mode: 'merge' } },
  { type: 'CONSOLE_TERMINAL', kind: 'terminal', title: 'Console', description: 'Logs every message.', outputs: [], configSchema: {}, defaultConfig: {} },
];

const CATALOG = new Map(NODE_TYPES.map((t) => [t.type, { kind: t.kind, outputs: t.outputs }]));

/**
 * An in-memory stand-in for the host, with the server's save rule (DEF-02 refuses an invalid graph).
 * Renderer tests may not import main/, so this is the renderer's own fake.
 */
export function createFakeStudioClient(seed: StoredWorkflow[] = []) {
  const workflows = new Map(seed.map((w) => [`${w.session}/${w.definition.workflowId}`, w]));
  const runs = new Map<string, RunDetail>();
  const listeners = new Set<(batch: StudioEvent[]) => void>();
  let runCounter = 0;

  const client: StudioClient = {
    'nodeTypes.list': vi.fn(async () => NODE_TYPES),
    'workflows.list': vi.fn(async () =>
      [...workflows.values()].map((w) => ({ session: w.session, workflowId: w.definition.workflowId, description: w.definition.description, version: w.version, savedAt: w.savedAt, nodeCount: w.definition.nodes.length })),
    ),
    'workflows.get': vi.fn(async ({ session = 'default', workflowId }) => {
      const stored = workflows.get(`${session}/${workflowId}`);
      if (!stored) throw new StudioApiError('NOT_FOUND', `workflow "${workflowId}" does not exist`);
      return stored;
    }),
    'workflows.save': vi.fn(async ({ session = 'default', definition }) => {
      const def = definition as WorkflowDefinition;
      const issues = validateGraph(def, CATALOG);
      if (hasErrors(issues)) throw new StudioApiError('VALIDATION_FAILED', `workflow refused: ${issues[0]!.message}`, issues[0]!.path, issues);
      const version = `v${workflows.size + 1}`;
      workflows.set(`${session}/${def.workflowId}`, { session, definition: def, version, savedAt: Date.now() });
      return { workflowId: def.workflowId, version, changed: true };
    }),
    'workflows.validate': vi.fn(async () => ({ valid: true, issues: [] })),
    'runs.start': vi.fn(async ({ session = 'default', workflowId }) => {
      const executionId = `run-${++runCounter}`;
      const stored = workflows.get(`${session}/${workflowId}`)!;
      runs.set(executionId, {
        executionId,
        session,
        workflowId,
        definitionVersion: stored.version,
        status: 'PENDING',
        createdAt: 1000 + runCounter,
        nodes: stored.definition.nodes.map((n) => ({ nodeId: n.nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } })),
        results: [],
        resultsTruncated: false,
      });
      return { executionId };
    }),
    'runs.get': vi.fn(async ({ executionId }) => {
      const run = runs.get(executionId);
      if (!run) throw new StudioApiError('NOT_FOUND', `run "${executionId}" does not exist`);
      return run;
    }),
    'runs.list': vi.fn(async ({ workflowId }) => [...runs.values()].filter((r) => !workflowId || r.workflowId === workflowId).map(({ nodes: _n, results: _r, resultsTruncated: _t, ...s }) => s)),
    subscribe: vi.fn((_filter, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
  };

  return {
    client,
    workflows,
    /** Delivers a batch to every subscriber, as a transport would. */
    emit(batch: StudioEvent[]) {
      for (const l of listeners) l(batch);
    },
  };
}

export function storedWorkflow(definition: WorkflowDefinition, version = 'v0'): StoredWorkflow {
  return { session: 'default', definition, version, savedAt: 1 };
}
