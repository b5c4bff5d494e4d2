// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createStudioClient } from '../../shared/api/client';
import { StudioApiError } from '../../shared/api/errors';
import type { StudioEvent } from '../../shared/events/events';
import { findBridge } from './bridge';
import { createHttpTransport, eventStreamUrl, type EventSourceLike } from './http-transport';
import { chooseTransport } from './index';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

class FakeEventSource implements EventSourceLike {
  listeners = new Map<string, (e: MessageEvent) => void>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  emit(data: unknown) {
    this.listeners.get('batch')?.(new MessageEvent('batch', { data: JSON.stringify(data) }));
  }
}

describe('STU-01 StudioApi client over HTTP', () => {
  it('sends each operation to its REST route with contract defaults applied', async () => {
    const fetch = vi.fn(async () =>
      jsonResponse(200, { session: 'default', definition: { workflowId: 'w', description: '', nodes: [], edges: [] }, version: 'v', savedAt: 1 }),
    );
    const client = createStudioClient(createHttpTransport({ fetch }));
    await client['workflows.get']({ workflowId: 'w' });
    expect(fetch).toHaveBeenCalledWith('/api/workflows/default/w', expect.objectContaining({ method: 'GET' }));

    fetch.mockResolvedValueOnce(jsonResponse(200, { workflowId: 'w', version: 'v2', changed: true }));
    await client['workflows.save']({ definition: { workflowId: 'w', nodes: [] } });
    const [url, init] = fetch.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/workflows');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toMatchObject({ session: 'default', definition: { workflowId: 'w' } });
  });

  it('turns an error body into a StudioApiError with code and issues', async () => {
    const issue = { code: 'DEF-02/cycle', severity: 'error', message: 'the graph has a cycle: a → b → a', nodeIds: ['a', 'b'] };
    const fetch = vi.fn(async () =>
      jsonResponse(422, { error: { code: 'VALIDATION_FAILED', message: 'workflow refused: the graph has a cycle: a → b → a', issues: [issue] } }),
    );
    const client = createStudioClient(createHttpTransport({ fetch }));
    const error = await client['workflows.save']({ definition: { workflowId: 'w', nodes: [] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StudioApiError);
    expect((error as StudioApiError).code).toBe('VALIDATION_FAILED');
    expect((error as StudioApiError).issues?.[0]?.code).toBe('DEF-02/cycle');
  });

  it('reports an unreachable server as UNAVAILABLE', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await createHttpTransport({ fetch }).invoke('nodeTypes.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it('subscribes over SSE: one listener call per batch, malformed events dropped, close on unsubscribe', () => {
    let source: FakeEventSource | null = null;
    const transport = createHttpTransport({ createEventSource: (url) => (source = new FakeEventSource(url)) });
    const listener = vi.fn();
    const stop = transport.subscribe({ executionId: 'r1', type: ['NODE_STATUS', 'EXECUTION_STATUS'] }, listener);
    expect(source!.url).toBe('/api/events/stream?executionId=r1&type=NODE_STATUS&type=EXECUTION_STATUS');
    const good: StudioEvent = { type: 'NODE_STATUS', seq: 1, executionId: 'r1', at: 1, nodeId: 'a', status: 'RUNNING', counts: { received: 0, emitted: 0 } };
    source!.emit([good, { type: 'NODE_STATUS', nonsense: true }, { ...good, seq: 2 }]);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]![0]).toHaveLength(2);
    stop();
    expect(source!.closed).toBe(true);
  });

  it('builds the stream URL without a filter', () => {
    expect(eventStreamUrl({})).toBe('/api/events/stream');
  });
});

describe('STU-01 transport choice', () => {
  it('uses IPC when the preload bridge exists, HTTP otherwise', async () => {
    const bridge = { invoke: vi.fn(async () => ({ ok: true, value: [] })), subscribe: vi.fn(() => () => {}) };
    expect(findBridge({})).toBeNull();
    expect(chooseTransport({}).kind).toBe('http');
    const chosen = chooseTransport({ yukta: bridge });
    expect(chosen.kind).toBe('ipc');
    await expect(chosen.transport.invoke('nodeTypes.list', {})).resolves.toEqual({ ok: true, value: [] });
    expect(bridge.invoke).toHaveBeenCalledWith('nodeTypes.list', {});
  });

  it('turns a bridge failure into an error result instead of a throw', async () => {
    const bridge = { invoke: vi.fn(async () => Promise.reject(new Error('ipc closed'))), subscribe: vi.fn(() => () => {}) };
    const result = await chooseTransport({ yukta: bridge }).transport.invoke('nodeTypes.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });
});
