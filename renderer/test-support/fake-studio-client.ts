import { vi } from 'vitest';
import { z } from 'zod';
import type { StudioClient } from '../../shared/api/client';
import { StudioApiError } from '../../shared/api/errors';
import type { StoredBreakpoint } from '../../shared/api/breakpoints.schema';
import type { RunDetail } from '../../shared/api/runs.schema';
import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import { ExecutionId } from '../../shared/workflow/ids';
import type { StudioEvent } from '../../shared/events/events';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import type { NodeTypeInfo } from '../../shared/workflow/node-type';
import { validateGraph } from '../../shared/workflow/graph-validation';
import { hasErrors } from '../../shared/workflow/validation-issue';
import { diffWorkflows } from '../../shared/workflow/workflow-diff';
import { createFakeControl } from './fake-control';
import { createFakeHistory } from './fake-history';
import { createFakeMetrics } from './fake-metrics';
import { createFakeScheduler } from './fake-scheduler';
import { createFakeSecurity } from './fake-security';
import { createFakeSettings } from './fake-settings';
import { createFakeWorkers } from './fake-workers';
import { SINGLE_SERVER_STATUS, type HaStatus } from '../../shared/api/ha.schema';

const schemaOf = (config: z.ZodType) => z.toJSONSchema(config, { io: 'input' }) as Record<string, unknown>;

/** Node types like the registry's (schemas produced the same way, with zod's toJSONSchema). */
export const NODE_TYPES: NodeTypeInfo[] = [
  {
    type: 'API_TRIGGER',
    kind: 'trigger',
    title: 'API trigger',
    description: 'Starts the workflow with the start payload.',
    outputs: ['out'],
    configSchema: schemaOf(z.strictObject({ requiredFields: z.array(z.string().min(1)).default([]) })),
    defaultConfig: {},
  },
  {
    type: 'TRANSFORM',
    kind: 'processor',
    title: 'Transform',
    description: 'Sets payload fields from templates.',
    outputs: ['out'],
    configSchema: schemaOf(z.strictObject({ set: z.record(z.string(), z.unknown()).default({}), mode: z.enum(['merge', 'replace']).default('merge') })),
    defaultConfig: { set: {}, mode: 'merge' },
  },
  {
    type: 'ROUTER',
    kind: 'processor',
    title: 'Router',
    description: 'Sends each message to the matching routes.',
    outputs: ['default'],
    outputsFromConfig: { list: 'routes', key: 'port' },
    configSchema: schemaOf(
      z.strictObject({
        routes: z
          .array(z.strictObject({ port: z.string().min(1), when: z.string().min(1) }))
          .max(50)
          .default([]),
        mode: z.enum(['first', 'all']).default('first'),
      }),
    ),
    defaultConfig: { routes: [{ port: 'yes', when: 'payload.ok == true' }], mode: 'first' },
  },
  {
    type: 'DELAY',
    kind: 'processor',
    title: 'Delay',
    description: 'Waits.',
    outputs: ['out'],
    configSchema: schemaOf(z.strictObject({ ms: z.union([z.number().int().min(0), z.string()]) })),
    defaultConfig: { ms: 1000 },
  },
  {
    type: 'CONSOLE_TERMINAL',
    kind: 'terminal',
    title: 'Console',
    description: 'Logs every message.',
    outputs: [],
    configSchema: schemaOf(z.strictObject({ prefix: z.string().max(200).default('') })),
    defaultConfig: {},
  },
];

const CATALOG = new Map(NODE_TYPES.map((t) => [t.type, { kind: t.kind, outputs: t.outputs, outputsFromConfig: t.outputsFromConfig }]));

/**
 * An in-memory stand-in for the host, with the server's save rule (DEF-02 refuses an invalid graph).
 * Renderer tests may not import main/, so this is the renderer's own fake.
 */
export function createFakeStudioClient(seed: StoredWorkflow[] = []) {
  const history = createFakeHistory(seed);
  const workflows = history.current;
  const runs = new Map<string, RunDetail>();
  const listeners = new Set<(batch: StudioEvent[]) => void>();
  let runCounter = 0;
  const scheduler = createFakeScheduler();
  const workers = createFakeWorkers();
  const breakpoints = new Map<string, StoredBreakpoint[]>();
  const ha: { status: HaStatus } = { status: SINGLE_SERVER_STATUS };

  const client: StudioClient = {
    ...scheduler.ops,
    ...createFakeControl().ops,
    ...createFakeSecurity().ops,
    ...createFakeMetrics().ops,
    ...createFakeSettings().ops,
    ...workers.ops,
    'ha.status': vi.fn(async () => ha.status),
    'nodeTypes.list': vi.fn(async () => NODE_TYPES),
    'workflows.list': vi.fn(async ({ session }) =>
      [...workflows.values()]
        .filter((w) => !session || w.session === session)
        .map((w) => ({
          session: w.session,
          workflowId: w.definition.workflowId,
          description: w.definition.description,
          version: w.version,
          savedAt: w.savedAt,
          nodeCount: w.definition.nodes.length,
        })),
    ),
    'workflows.get': vi.fn(async ({ session = 'default', workflowId }) => {
      const stored = workflows.get(`${session}/${workflowId}`);
      if (!stored) throw new StudioApiError('NOT_FOUND', `workflow "${workflowId}" does not exist`);
      return stored;
    }),
    'workflows.save': vi.fn(async ({ session = 'default', definition, note }) => {
      const def = definition as WorkflowDefinition;
      const issues = validateGraph(def, CATALOG);
      if (hasErrors(issues)) throw new StudioApiError('VALIDATION_FAILED', `workflow refused: ${issues[0]!.message}`, issues[0]!.path, issues);
      return history.save(session, def, note);
    }),
    'workflows.versions': vi.fn(async ({ session = 'default', workflowId }) => history.versions(session, workflowId)),
    'workflows.getVersion': vi.fn(async ({ session = 'default', workflowId, version }) => history.getVersion(session, workflowId, version)),
    'workflows.restore': vi.fn(async ({ session = 'default', workflowId, version, note }) => history.restore(session, workflowId, version, note)),
    'workflows.diff': vi.fn(async ({ session = 'default', workflowId, from, to }) =>
      diffWorkflows(history.getVersion(session, workflowId, from).definition, history.getVersion(session, workflowId, to).definition),
    ),
    'workflows.delete': vi.fn(async ({ session = 'default', workflowId }) => {
      workflows.delete(`${session}/${workflowId}`);
      return { deleted: true as const };
    }),
    'sessions.list': vi.fn(async () => history.sessionList()),
    'sessions.create': vi.fn(async ({ session }) => history.createSession(session)),
    'sessions.rename': vi.fn(async ({ session, newSession }) => history.renameSession(session, newSession)),
    'sessions.delete': vi.fn(async ({ session }) => (history.deleteSession(session), { deleted: true as const })),
    'sessions.applyConfig': vi.fn(async () => {
      throw new StudioApiError('UNAVAILABLE', 'not part of the renderer fake');
    }),
    'workflows.validate': vi.fn(async () => ({ valid: true, issues: [] })),
    'runs.start': vi.fn(async ({ session = 'default', workflowId }) => {
      const executionId = ExecutionId.parse(`run-${++runCounter}`);
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
    'runs.wait': vi.fn(async () => {
      throw new StudioApiError('UNAVAILABLE', 'not part of the renderer fake (the studio follows runs through events)');
    }),
    'triggers.list': vi.fn(async () => []),
    'breakpoints.get': vi.fn(async ({ session = 'default', workflowId }) => ({ breakpoints: breakpoints.get(`${session}/${workflowId}`) ?? [] })),
    'breakpoints.set': vi.fn(
      async ({ session = 'default', workflowId, breakpoints: list }) => (breakpoints.set(`${session}/${workflowId}`, list), { breakpoints: list }),
    ),
    'runs.resume': vi.fn(async ({ executionId }) => {
      throw new StudioApiError('CONFLICT', `run "${executionId}" was not interrupted by a crash`, 'executionId');
    }),
    'runs.list': vi.fn(async ({ workflowId }) =>
      [...runs.values()].filter((r) => !workflowId || r.workflowId === workflowId).map(({ nodes: _n, results: _r, resultsTruncated: _t, ...s }) => s),
    ),
    subscribe: vi.fn((_filter, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
  };

  return {
    client,
    workflows,
    /** Breakpoints kept per `session/workflowId`, as the host keeps them. */
    breakpoints,
    history,
    /** The scheduler view `scheduler.get` returns; tests set it. */
    scheduler: scheduler.state,
    /** The workers view and remote attempts `workers.list` / `workers.attempts` return; tests set them. */
    workers: workers.state,
    /** What `ha.status` answers (SCL-02): a single server unless a test sets a standby. */
    ha,
    /** Delivers a batch to every subscriber, as a transport would. */
    emit(batch: StudioEvent[]) {
      for (const l of listeners) l(batch);
    },
  };
}

export function storedWorkflow(definition: WorkflowDefinition, version = 'v0'): StoredWorkflow {
  return { session: 'default', definition, version, savedAt: 1 };
}
