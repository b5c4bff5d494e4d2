import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** A workflow id no other test (or earlier run against the same server) uses. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export interface SeedNode {
  nodeId: string;
  type: string;
  config?: Record<string, unknown>;
}

/** Saves a chain (or the given edges) through the REST API, nodes laid out left to right. */
export async function seedWorkflow(
  request: APIRequestContext,
  workflowId: string,
  nodes: SeedNode[],
  edges?: Array<{ source: string; target: string; sourcePort?: string }>,
): Promise<void> {
  const definition = {
    workflowId,
    nodes: nodes.map((n, i) => ({ config: {}, ...n, position: { x: i * 260, y: (i % 2) * 40 } })),
    edges: edges ?? nodes.slice(1).map((n, i) => ({ source: nodes[i]!.nodeId, target: n.nodeId, sourcePort: 'out' })),
  };
  const response = await request.post('/api/workflows', { data: { session: 'default', definition } });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Opens a saved workflow from its URL and waits for its first node. */
export async function openWorkflow(page: Page, workflowId: string, firstNode: string): Promise<void> {
  await page.goto(`/#/w/default/${workflowId}`);
  await expect(page.getByTestId(`node-${firstNode}`)).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
}

/** Run with payload… from the app bar. */
export async function runWithPayload(page: Page, payload: unknown): Promise<void> {
  await page.getByTestId('run-with-payload-button').click();
  await page.getByTestId('run-payload-input').fill(JSON.stringify(payload));
  await page.getByTestId('run-payload-submit').click();
  await expect(page.getByTestId('run-banner')).toBeVisible();
}

/** Starts a run through REST (as another client would) and returns its id. */
export async function startRun(request: APIRequestContext, workflowId: string, payload: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/workflow/start', { data: { session: 'default', workflowId, payload } });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { executionId: string }).executionId;
}

/**
 * Kills every run still RUNNING or QUEUED on the shared e2e server, so a spec that sets a global cap starts from
 * an idle server whatever an earlier spec left waiting (a failed one leaves its 10-minute DELAY running).
 */
export async function killLiveRuns(request: APIRequestContext): Promise<void> {
  for (const status of ['RUNNING', 'QUEUED'] as const) {
    const listed = (await (await request.get(`/api/executions?status=${status}&limit=1000`)).json()) as Array<{ executionId: string }>;
    for (const run of listed) await request.post(`/api/executions/${run.executionId}/control`, { data: { command: { type: 'StopWorkflow', mode: 'KILL' } } });
  }
  await expect.poll(async () => ((await (await request.get('/api/executions?status=RUNNING&limit=1000')).json()) as unknown[]).length).toBe(0);
}
