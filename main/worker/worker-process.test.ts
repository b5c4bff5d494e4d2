import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import { killAll, startWorker, startWorkerHost, type WorkerChild, type WorkerHost } from '../test-support/worker-harness';

/** This file's port for the workers' listener (4591–4599 are this task's). */
const PORT = 4591;

let host: WorkerHost | null = null;
let children: WorkerChild[] = [];

afterEach(async () => {
  await killAll(children);
  children = [];
  await host?.close();
  host = null;
});

function worker(options: Parameters<typeof startWorker>[0]): WorkerChild {
  const child = startWorker(options);
  children.push(child);
  return child;
}

/** trigger → one placed node → RESULT_TERMINAL. */
function placed(
  workflowId: string,
  type: string,
  pool: string,
  policy: Record<string, unknown> = {},
  extra: Partial<WorkflowDefinitionInput['nodes'][number]> = {},
): WorkflowDefinitionInput {
  return {
    workflowId,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'remote', type, config: { engine: { placement: { pool }, ...policy } }, ...extra },
      { nodeId: 'out', type: 'RESULT_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'remote' },
      { source: 'remote', target: 'out' },
    ],
  };
}

async function run(h: WorkerHost, definition: WorkflowDefinitionInput, payload: Record<string, unknown> = {}): Promise<string> {
  await h.host.engine.saveWorkflow('default', definition);
  return (await h.host.engine.startRun({ session: 'default', workflowId: definition.workflowId, payload })).executionId;
}

const results = (h: WorkerHost, id: string) => h.host.engine.getRun(id).results.map((r) => r.payload);

describe('SCL-01 placement on worker processes (real children on loopback)', () => {
  it('runs attempts on the worker of the pool that allows the type and has the most free slots; none → a retryable failure', async () => {
    host = await startWorkerHost({ port: PORT });
    const url = host.url;
    const a = worker({ urls: [url], name: 'a', pool: 'p', slots: 1, allow: ['WHO'] });
    const b = worker({ urls: [url], name: 'b', pool: 'p', slots: 2, allow: ['WHO'] });
    const c = worker({ urls: [url], name: 'c', pool: 'p', slots: 3, allow: ['TRANSFORM'] });
    await Promise.all([a.registered(), b.registered(), c.registered()]);
    // c has the most free slots but does not allow WHO; b has more than a.
    const first = await run(host, placed('who', 'WHO', 'p'), { n: 1 });
    expect(await host.host.engine.waitForRun(first)).toBe('SUCCESS');
    expect(results(host, first)).toEqual([{ n: 1, ranOn: 'b' }]);
    expect(host.host.engine.remoteAttempts(first)).toMatchObject([{ worker: 'b', outcome: 'SUCCESS', pool: 'p' }]);
    expect(host.host.engine.workersView().pools).toEqual([{ pool: 'p', workers: 3, draining: 0, slots: 6, used: 0, waiting: 0 }]);
    // No worker of pool "gpu": the attempt fails at once, each time, retryably.
    const none = await run(host, placed('none', 'WHO', 'gpu', { retry: { maxAttempts: 2, backoffMs: 10 } }));
    expect(await host.host.engine.waitForRun(none)).toBe('FAILURE');
    const node = host.host.engine.getRun(none).nodes.find((n) => n.nodeId === 'remote')!;
    expect(node).toMatchObject({
      counts: { retried: 1 },
      error: { name: 'WorkerUnavailableError', code: 'NO_WORKER', message: 'no worker of pool "gpu" is connected' },
    });
    const metrics = await host.host.engine.metrics.text();
    expect(metrics).toContain('yukta_workers_connected{pool="p"} 3');
    expect(metrics).toContain('yukta_workers_attempts_total{pool="p",worker="b",outcome="SUCCESS"} 1');
    expect(metrics).toContain('yukta_workers_attempts_total{pool="gpu",worker="none",outcome="UNAVAILABLE"} 2');
    expect(metrics).toMatch(/yukta_workers_attempt_duration_seconds_count\{pool="p"\} 1/);
  });

  it('kill -9 of a worker mid-attempt: the attempt fails naming it, the retry runs on another worker, the run ends SUCCESS with no duplicate output', async () => {
    host = await startWorkerHost({ port: PORT });
    const a = worker({ urls: [host.url], name: 'a', pool: 'p', slots: 2, env: { TEST_PARTIAL_HANG: '1' } });
    const b = worker({ urls: [host.url], name: 'b', pool: 'p', slots: 1 });
    await Promise.all([a.registered(), b.registered()]);
    const firstPart = new Promise<void>((resolve) => {
      const stop = host!.host.engine.subscribe((e) => e.type === 'LOG' && e.text === 'first part sent' && (stop(), resolve()));
    });
    const id = await run(host, placed('kill', 'PARTIAL', 'p', { retry: { maxAttempts: 2, backoffMs: 10 } }));
    await firstPart; // a sent part 1 (held back by the node: all or nothing) and hangs
    a.child.kill('SIGKILL');
    expect(await host.host.engine.waitForRun(id)).toBe('SUCCESS');
    expect(results(host, id)).toEqual([
      { part: 1, ranOn: 'b' },
      { part: 2, ranOn: 'b' },
    ]);
    const [lost, retried] = host.host.engine.remoteAttempts(id);
    expect(lost).toMatchObject({ worker: 'a', attempt: 1, outcome: 'LOST', error: { name: 'WorkerLostError', code: 'WORKER_LOST' } });
    expect(lost!.error!.message).toMatch(/^worker "a" \(pool p\) was lost during attempt 1 of node "remote": its connection closed \(code 1006/);
    expect(retried).toMatchObject({ worker: 'b', attempt: 2, outcome: 'SUCCESS' });
  });

  it('SIGSTOP past the lease: the worker is dropped and its attempt retried elsewhere; after SIGCONT it registers again', async () => {
    host = await startWorkerHost({ port: PORT, settings: { 'yukta.workers.lease': 1500 } });
    const a = worker({ urls: [host.url], name: 'a', pool: 'p', slots: 2 });
    const b = worker({ urls: [host.url], name: 'b', pool: 'p', slots: 1 });
    await Promise.all([a.registered(), b.registered()]);
    const id = await run(host, placed('stop', 'WHO', 'p', { retry: { maxAttempts: 2, backoffMs: 10 } }), { ms: 1000 });
    await vi.waitFor(() => expect(host!.host.engine.remoteAttempts(id)[0]).toMatchObject({ worker: 'a', outcome: 'RUNNING' }), {
      timeout: 10_000,
      interval: 20,
    });
    a.child.kill('SIGSTOP');
    const dropped = await host.line(/worker "a" \(pool p\) dropped: it missed its lease/);
    expect(dropped).toMatch(/; 1 attempt\(s\) failed$/);
    expect(await host.host.engine.waitForRun(id)).toBe('SUCCESS');
    expect(results(host, id)).toEqual([{ ms: 1000, ranOn: 'b' }]);
    expect(host.host.engine.remoteAttempts(id).map((r) => [r.worker, r.outcome])).toEqual([
      ['a', 'LOST'],
      ['b', 'SUCCESS'],
    ]);
    a.child.kill('SIGCONT');
    await a.registered(2);
    expect(host.host.engine.workersView().workers.map((w) => w.name)).toEqual(['a', 'b']);
  });
});

describe('SCL-01 back-pressure and cancel across processes', () => {
  it('a fast worker into a slow host consumer: the host buffers at most the window, and the worker is paced', async () => {
    host = await startWorkerHost({ port: PORT, settings: { 'yukta.workers.window': 8 }, engine: { channelCapacity: 4 } });
    const w = worker({ urls: [host.url], name: 'w', pool: 'p' });
    await w.registered();
    const definition: WorkflowDefinitionInput = {
      workflowId: 'paced',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'remote', type: 'MANY', config: { engine: { placement: { pool: 'p' } } } },
        { nodeId: 'slow', type: 'DELAY', config: { ms: 2 } },
        { nodeId: 'out', type: 'RESULT_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'remote' },
        { source: 'remote', target: 'slow' },
        { source: 'slow', target: 'out' },
      ],
    };
    const id = await run(host, definition, { count: 300 });
    const attempt = () => host!.host.engine.workers.connected[0]?.attempts[0];
    await vi.waitFor(() => expect(attempt()).toBeDefined(), { timeout: 10_000, interval: 5 });
    const seen = attempt()!;
    let most = 0;
    const sample = setInterval(() => (most = Math.max(most, seen.buffered)), 1);
    expect(await host.host.engine.waitForRun(id)).toBe('SUCCESS');
    clearInterval(sample);
    expect(host.host.engine.getRun(id).nodes.find((n) => n.nodeId === 'slow')?.counts.received).toBe(300);
    expect(seen.maxBuffered).toBeLessThanOrEqual(8);
    expect(seen.maxBuffered).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(8);
  });

  it("a slow worker paces the trigger: the remote node's input stays within its channel while the producer waits", async () => {
    host = await startWorkerHost({ port: PORT, engine: { channelCapacity: 4 } });
    const w = worker({ urls: [host.url], name: 'w', pool: 'p' });
    await w.registered();
    const definition: WorkflowDefinitionInput = {
      workflowId: 'slow-worker',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'split', type: 'SPLIT', config: { path: 'payload.items' } },
        { nodeId: 'remote', type: 'WHO', config: { engine: { placement: { pool: 'p' } } } },
        { nodeId: 'out', type: 'RESULT_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'split' },
        { source: 'split', target: 'remote' },
        { source: 'remote', target: 'out' },
      ],
    };
    const id = await run(host, definition, { items: Array.from({ length: 200 }, () => ({ ms: 20 })) });
    await vi.waitFor(() => expect(host!.host.engine.remoteAttempts(id).length).toBeGreaterThanOrEqual(5), { timeout: 20_000, interval: 10 });
    const nodes = () => Object.fromEntries(host!.host.engine.getRun(id).nodes.map((n) => [n.nodeId, n.counts]));
    // The remote node has taken a few; SPLIT has emitted at most those, the channel (4) and one it waits to send.
    const { split, remote } = nodes();
    expect(split!.emitted).toBeLessThanOrEqual(remote!.received + 4 + 1);
    expect(split!.emitted).toBeLessThan(200);
    host.host.engine.cancelRun(id);
    expect(await host.host.engine.waitForRun(id)).toBe('CANCELLED');
  });

  it('cancelling the run stops the remote attempt on the worker within a second', async () => {
    host = await startWorkerHost({ port: PORT });
    const w = worker({ urls: [host.url], name: 'w', pool: 'p' });
    await w.registered();
    const id = await run(host, placed('cancel', 'WHO', 'p'), { ms: 600_000 });
    await vi.waitFor(() => expect(host!.host.engine.workersView().workers[0]?.used).toBe(1), { timeout: 10_000, interval: 10 });
    host.host.engine.cancelRun(id);
    expect(await host.host.engine.waitForRun(id)).toBe('CANCELLED');
    // The slot frees only when the worker says its attempt ended: the cancel crossed and stopped it.
    await vi.waitFor(() => expect(host!.host.engine.workersView().workers[0]).toMatchObject({ used: 0, attempts: { CANCELLED: 1 } }), {
      timeout: 1000,
      interval: 5,
    });
  });
});

describe('SCL-01 drain: SIGTERM to a worker', () => {
  it('finishes the attempts in flight, sends new ones elsewhere, and exits 0; one past yukta.workers.drain-timeout is ended and retried elsewhere', async () => {
    host = await startWorkerHost({ port: PORT });
    const a = worker({ urls: [host.url], name: 'a', pool: 'p', slots: 3 });
    const b = worker({ urls: [host.url], name: 'b', pool: 'p', slots: 1 });
    const c = worker({ urls: [host.url], name: 'c', pool: 'q', slots: 2, set: ['yukta.workers.drain-timeout=300ms'] });
    const d = worker({ urls: [host.url], name: 'd', pool: 'q', slots: 1 });
    await Promise.all([a.registered(), b.registered(), c.registered(), d.registered()]);
    const inFlight = await run(host, placed('drain', 'WHO', 'p'), { ms: 1500 });
    const stuck = await run(host, placed('stuck', 'WHO', 'q', { retry: { maxAttempts: 2, backoffMs: 10 } }), { ms: 600_000, then: 'retried' });
    await vi.waitFor(() => expect(host!.host.engine.workersView().workers.map((w) => w.used)).toEqual([1, 0, 1, 0]), { timeout: 10_000, interval: 10 });
    a.signal('SIGTERM');
    c.signal('SIGTERM');
    await host.line(/worker "a" \(pool p\) is draining/);
    expect(host.host.engine.workersView().workers.find((w) => w.name === 'a')).toMatchObject({ draining: true, used: 1 });
    const next = await run(host, placed('drain', 'WHO', 'p'), { ms: 0 });
    expect(await host.host.engine.waitForRun(next)).toBe('SUCCESS');
    expect(results(host, next)).toEqual([{ ms: 0, ranOn: 'b' }]);
    expect(await host.host.engine.waitForRun(inFlight)).toBe('SUCCESS');
    expect(results(host, inFlight)).toEqual([{ ms: 1500, ranOn: 'a' }]);
    expect(await a.exited).toBe(0);
    // c's attempt could not finish within 300 ms: it was ended (retryably) and ran again on d.
    await vi.waitFor(
      () =>
        expect(host!.host.engine.remoteAttempts(stuck).map((r) => [r.worker, r.outcome])).toEqual([
          ['c', 'FAILURE'],
          ['d', 'RUNNING'],
        ]),
      { timeout: 10_000, interval: 10 },
    );
    expect(host.host.engine.remoteAttempts(stuck)[0]?.error).toMatchObject({ name: 'WorkerDrainingError', code: 'WORKER_DRAINING' });
    expect(await c.exited).toBe(0);
    expect(c.lines.at(-1)).toBe('Stopped: 1 attempt(s) did not finish within the drain timeout and were ended.');
    host.host.engine.cancelRun(stuck);
  });
});
