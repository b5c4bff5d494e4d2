/**
 * Journeys an agent takes through the MCP surface (EXT-04), written once and run by the tests over each
 * transport (streamable HTTP, stdio, the stdio bridge) with the official SDK client. Not a test file itself.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { z } from 'zod';
import { Approval } from '../../shared/api/control.schema';
import { ApiErrorData } from '../../shared/api/errors';
import { RecordedNode, RunDetail, RunWaitResult } from '../../shared/api/runs.schema';

/** The tools an agent is offered (EXT-04 decisions), written out: 35 of the contract's 49 operations. */
export const EXPOSED_TOOL_NAMES = [
  'approvals.list',
  'auth.whoami',
  'control.audit',
  'control.send',
  'control.state',
  'metrics.get',
  'nodeTypes.list',
  'plugins.control',
  'runs.get',
  'runs.list',
  'runs.recorded',
  'runs.recordedSummary',
  'runs.resume',
  'runs.setPriority',
  'runs.start',
  'runs.wait',
  'scheduler.get',
  'scheduler.setLimits',
  'sessions.create',
  'sessions.list',
  'settings.get',
  'signals.send',
  'supervisors.getRules',
  'supervisors.list',
  'triggers.list',
  'workers.attempts',
  'workers.list',
  'workflows.diff',
  'workflows.get',
  'workflows.getVersion',
  'workflows.list',
  'workflows.restore',
  'workflows.save',
  'workflows.validate',
  'workflows.versions',
];

/** API_TRIGGER → TRANSFORM → RESULT: greets `payload.name`. */
export const GREETER = {
  workflowId: 'greeter',
  description: 'Greets whoever is named',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' } } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'start', target: 'greet' },
    { source: 'greet', target: 'out' },
  ],
};

/** API_TRIGGER → WAIT_FOR_SIGNAL → CONSOLE_TERMINAL: the run waits for a person's approval. */
export const GATED = {
  workflowId: 'gated',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager' } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'start', target: 'gate' },
    { source: 'gate', target: 'out' },
  ],
};

export interface ToolAnswer {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

/** Calls a tool and reads its answer through the SDK's result schema. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { isError: result.isError === true, text, structured: result.structuredContent ?? {} };
}

/** A tool's value, failing the test (with the tool's error text) when it answered an error. */
export async function value<T>(client: Client, name: string, args: Record<string, unknown>, schema: z.ZodType<T>): Promise<T> {
  const answer = await callTool(client, name, args);
  expect(answer.isError, answer.text).toBe(false);
  return schema.parse(answer.structured);
}

/** A tool's error, failing the test when it succeeded. */
export async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; error: ApiErrorData }> {
  const answer = await callTool(client, name, args);
  expect(answer.isError, answer.text).toBe(true);
  return { text: answer.text, error: ApiErrorData.parse(answer.structured.error) };
}

export async function readJson<T>(client: Client, uri: string, schema: z.ZodType<T>): Promise<T> {
  const { contents } = await client.readResource({ uri });
  const first = contents[0];
  expect(first?.uri).toBe(uri);
  return schema.parse(JSON.parse(first && 'text' in first ? first.text : 'null'));
}

/** `notifications/resources/updated` as they arrive; `next(uri)` resolves on the next one for that URI. */
export function resourceUpdates(client: Client) {
  const seen: string[] = [];
  const waiting: Array<{ uri: string; resolve: () => void }> = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    const { uri } = notification.params;
    seen.push(uri);
    for (const w of waiting.filter((x) => x.uri === uri)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  return {
    seen,
    next: (uri: string) => new Promise<void>((resolve) => waiting.push({ uri, resolve })),
  };
}

const StartAnswer = z.object({ executionId: z.string() });
const Items = <T>(item: z.ZodType<T>) => z.object({ items: z.array(item) });

/** tools/list offers exactly the exposed operations, each with a description naming its role and an object input schema. */
export async function expectExposedTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(EXPOSED_TOOL_NAMES);
  expect(tools).toHaveLength(35);
  const start = tools.find((t) => t.name === 'runs.start')!;
  expect(start.description).toContain('Needs role OPERATOR.');
  expect(start.inputSchema).toMatchObject({ type: 'object', required: ['workflowId'] });
  expect(start.annotations?.readOnlyHint).toBe(false);
  expect(tools.find((t) => t.name === 'runs.get')!.annotations?.readOnlyHint).toBe(true);
}

/** Save a workflow, start a run, wait for it, and read the run and the workflow as resources. */
export async function saveStartWaitRead(client: Client): Promise<string> {
  const saved = await value(client, 'workflows.save', { definition: GREETER }, z.object({ workflowId: z.string(), changed: z.boolean() }));
  expect(saved).toEqual(expect.objectContaining({ workflowId: 'greeter' }));
  const { executionId } = await value(client, 'runs.start', { workflowId: 'greeter', payload: { name: 'Ada' } }, StartAnswer);
  const ended = await value(client, 'runs.wait', { executionId, timeoutSeconds: 60 }, RunWaitResult);
  expect(ended).toMatchObject({ executionId, status: 'SUCCESS', timedOut: false });
  expect(ended.results.map((r) => r.payload)).toEqual([{ name: 'Ada', greeting: 'Hello Ada' }]);
  const run = await readJson(client, `yukta://runs/${executionId}`, RunDetail);
  expect(run).toMatchObject({ executionId, workflowId: 'greeter', status: 'SUCCESS' });
  const workflow = await readJson(client, 'yukta://workflows/default/greeter', z.object({ definition: z.object({ workflowId: z.string() }) }));
  expect(workflow.definition.workflowId).toBe('greeter');
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining(['yukta://approvals', 'yukta://workflows/default/greeter', `yukta://runs/${executionId}`]),
  );
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['yukta://workflows/{session}/{workflowId}', 'yukta://runs/{executionId}']);
  return executionId;
}

/**
 * A run reaching WAIT_FOR_SIGNAL appears in approvals (tool and resource), is approved through MCP and ends
 * SUCCESS with the decision tagged on the message (`signal.decision`); subscribers of the run's URI and of
 * yukta://approvals get resource updates as it goes. `admin` saves the workflow (an OPERATOR may not). Returns the run's id.
 */
export async function approveThroughMcp(client: Client, admin: Client = client): Promise<string> {
  const updates = resourceUpdates(client);
  await value(admin, 'workflows.save', { definition: GATED }, z.object({ workflowId: z.string() }));
  await client.subscribeResource({ uri: 'yukta://approvals' });
  const opened = updates.next('yukta://approvals');
  const { executionId } = await value(client, 'runs.start', { workflowId: 'gated', payload: { order: 7 } }, StartAnswer);
  await opened; // the APPROVAL OPEN event
  const open = await value(client, 'approvals.list', {}, Items(Approval));
  expect(open.items.map((a) => [a.executionId, a.nodeId, a.signal, a.payload])).toEqual([[executionId, 'gate', 'manager', { order: 7 }]]);
  const listed = await readJson(client, 'yukta://approvals', z.array(Approval));
  expect(listed.map((a) => a.executionId)).toEqual([executionId]);

  const runUri = `yukta://runs/${executionId}`;
  const caughtUp = updates.next(runUri);
  await client.subscribeResource({ uri: runUri });
  await caughtUp; // a new subscriber first hears of the run's current state (OBS-01 catch-up)
  const progressed = updates.next(runUri);
  const answer = await value(
    client,
    'signals.send',
    { executionId, nodeId: 'gate', decision: 'APPROVE', data: { by: 'agent' } },
    z.object({ signal: z.string() }),
  );
  expect(answer.signal).toBe('ACCEPTED');
  const ended = await value(client, 'runs.wait', { executionId, timeoutSeconds: 60 }, RunWaitResult);
  expect(ended).toMatchObject({ status: 'SUCCESS', timedOut: false });
  await progressed;
  expect(updates.seen).toContain(runUri);
  expect((await readJson(client, runUri, RunDetail)).status).toBe('SUCCESS');
  const recorded = await value(client, 'runs.recorded', { executionId, nodeId: 'gate' }, RecordedNode);
  expect(recorded.outputs.messages[0]?.metadata).toMatchObject({ 'signal.name': 'manager', 'signal.decision': 'APPROVED', 'signal.data': '{"by":"agent"}' });
  expect((await value(client, 'approvals.list', {}, Items(Approval))).items).toEqual([]);
  await client.unsubscribeResource({ uri: runUri });
  await client.unsubscribeResource({ uri: 'yukta://approvals' });
  return executionId;
}

/** Bad input comes back as a tool error naming the code and the field; an unknown resource as -32002. */
export async function badInputNamesTheField(client: Client): Promise<void> {
  const payload = await toolError(client, 'runs.start', { workflowId: 'greeter', payload: 5 });
  expect(payload.error).toMatchObject({ code: 'BAD_INPUT', path: 'payload' });
  expect(payload.text).toMatch(/^BAD_INPUT: .*\(at payload\)$/);
  const nested = await toolError(client, 'workflows.save', { definition: { ...GREETER, nodes: [{ nodeId: '', type: 'API_TRIGGER' }] } });
  expect(nested.error).toMatchObject({ code: 'BAD_INPUT', path: 'definition.nodes.0.nodeId' });
  const cycle = await toolError(client, 'workflows.save', {
    definition: {
      workflowId: 'loop',
      nodes: [
        { nodeId: 's', type: 'API_TRIGGER' },
        { nodeId: 'a', type: 'TRANSFORM' },
        { nodeId: 'b', type: 'TRANSFORM' },
      ],
      edges: [
        { source: 's', target: 'a' },
        { source: 'a', target: 'b' },
        { source: 'b', target: 'a' },
      ],
    },
  });
  expect(cycle.error.code).toBe('VALIDATION_FAILED');
  expect(cycle.text).toMatch(/^DEF-02\/cycle /m);
  const wait = await toolError(client, 'runs.wait', { executionId: 'x', timeoutSeconds: 301 });
  expect(wait.error).toMatchObject({ code: 'BAD_INPUT', path: 'timeoutSeconds' });
  await expect(client.readResource({ uri: 'yukta://runs/no-such-run' })).rejects.toMatchObject({
    code: -32002,
    data: { code: 'NOT_FOUND', path: 'executionId' },
  });
  await expect(client.callTool({ name: 'secrets.set', arguments: {} })).rejects.toThrow(/secrets\.set is not offered to agents/);
}

/** A VIEWER may read but is refused a start, with both roles named. */
export async function viewerIsRefusedAStart(client: Client, actor: string): Promise<void> {
  expect((await callTool(client, 'workflows.list')).isError).toBe(false);
  const refused = await toolError(client, 'runs.start', { workflowId: 'greeter' });
  expect(refused.error.code).toBe('FORBIDDEN');
  expect(refused.text).toBe(`FORBIDDEN: runs.start needs role OPERATOR; ${actor} has VIEWER`);
}
