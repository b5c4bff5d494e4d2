import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Counter, Histogram, Registry, register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';
import { RunTracker } from '../tracker/run-tracker';
import type { RunSummary } from '../../shared/api/runs.schema';
import type { Status } from '../../shared/status/status';
import { DURATION_BUCKETS, EngineMetrics, type MetricsSources } from './engine-metrics';
import { RunTracing } from './run-tracing';

/** `name{labels} value` lines of the Prometheus text whose name and labels include the given parts. */
function sample(text: string, name: string, ...labels: string[]): number | undefined {
  const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && labels.every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A node that takes `ms` of engine time per message, and one that fails its first attempt. */
function plugins() {
  let calls = 0;
  return [
    processor('SLOW', async (m, ctx) => {
      await ctx.sleep(1500);
      return [{ payload: m.payload }];
    }),
    processor('FLAKY', (m) => {
      if (calls++ === 0) throw new Error('first attempt fails');
      return [{ payload: m.payload }];
    }),
    recorder().plugin,
  ];
}

describe('OBS-04 metrics', () => {
  it('records run and node meters at their end, with session, workflow, node and status tags', async () => {
    const h = harness(plugins());
    const id = await h.run(
      chain('wf', [
        { nodeId: 'slow', type: 'SLOW' },
        { nodeId: 'flaky', type: 'FLAKY', config: { engine: { retry: { maxAttempts: 3, backoffMs: 0 } } } },
      ]),
    );
    await h.settle();
    h.clock.advance(1500);
    await h.settle();
    h.clock.advance(0); // the retry's backoff timer
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const text = await h.engine.metrics.text();
    expect(sample(text, 'yukta_executions_completed_total', 'session="test"', 'workflow="wf"', 'status="SUCCESS"')).toBe(1);
    expect(sample(text, 'yukta_execution_duration_seconds_count', 'workflow="wf"', 'status="SUCCESS"')).toBe(1);
    expect(sample(text, 'yukta_execution_duration_seconds_sum', 'workflow="wf"')).toBe(1.5);
    expect(sample(text, 'yukta_execution_queue_wait_seconds_count', 'workflow="wf"')).toBe(1);
    for (const node of ['t', 'slow', 'flaky', 'out']) expect(sample(text, 'yukta_node_executions_total', `node="${node}"`, 'status="SUCCESS"')).toBe(1);
    expect(sample(text, 'yukta_node_duration_seconds_sum', 'node="slow"')).toBe(1.5);
    expect(sample(text, 'yukta_node_duration_seconds_bucket', 'node="slow"', 'le="1"')).toBe(0);
    expect(sample(text, 'yukta_node_duration_seconds_bucket', 'node="slow"', 'le="2.5"')).toBe(1);
    expect(sample(text, 'yukta_node_retries_total', 'node="flaky"')).toBe(1);
    expect(sample(text, 'yukta_executions_running')).toBe(0);
    expect(sample(text, 'yukta_tracker_queue_depth')).toBe(0);
    expect(text).toContain('# TYPE yukta_node_duration_seconds histogram');
  });

  it('observes a node duration once per node end, however many messages it handled', async () => {
    const burst = processor('BURST', (m) => Array.from({ length: 500 }, (_, i) => ({ payload: { i, from: m.payload } })));
    const h = harness([burst, recorder().plugin]);
    const id = await h.run(
      chain('many', [
        { nodeId: 'b', type: 'BURST' },
        { nodeId: 'x', type: 'TRANSFORM' },
      ]),
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const text = await h.engine.metrics.text();
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'x')!.counts.received).toBe(500);
    expect(sample(text, 'yukta_node_duration_seconds_count', 'node="x"')).toBe(1);
    expect(sample(text, 'yukta_node_executions_total', 'node="x"')).toBe(1);
  });

  it('scheduler gauges and refusals by reason; queue wait of a queued run', async () => {
    const h = harness(plugins(), { scheduler: { limits: { maxConcurrent: 1, queueCapacity: 1, shutdownTimeoutMs: 0 } } });
    const first = await h.run(chain('q', [{ nodeId: 'slow', type: 'SLOW' }]));
    const second = (await h.engine.startRun({ session: 'test', workflowId: 'q', payload: {} })).executionId;
    await expect(h.engine.startRun({ session: 'test', workflowId: 'q', payload: {} })).rejects.toMatchObject({ code: 'QUEUE_FULL' });
    await h.settle();
    let text = await h.engine.metrics.text();
    expect(sample(text, 'yukta_executions_running')).toBe(1);
    expect(sample(text, 'yukta_executions_queued')).toBe(1);
    expect(sample(text, 'yukta_executions_rejected_total', 'reason="queue_full"')).toBe(1);
    expect(sample(text, 'yukta_executions_rejected_total', 'reason="limit"')).toBe(0);
    h.clock.advance(1500);
    expect(await h.engine.waitForRun(first)).toBe('SUCCESS');
    await h.settle();
    h.clock.advance(1500);
    expect(await h.engine.waitForRun(second)).toBe('SUCCESS');
    text = await h.engine.metrics.text();
    expect(sample(text, 'yukta_execution_queue_wait_seconds_sum', 'workflow="q"')).toBe(1.5);
    expect(sample(text, 'yukta_execution_queue_wait_seconds_count', 'workflow="q"')).toBe(2);
    const snap = await h.engine.metrics.snapshot(h.clock.now());
    expect(snap).toMatchObject({ runs: { completed: 2, failed: 0, byStatus: { SUCCESS: 2 } }, running: 0, queued: 0, rejected: { queue_full: 1 } });
    expect(snap.nodeDuration.count).toBe(6);
    expect(snap.nodeDuration.cumulative.at(-1)).toBe(6);
  });

  it('a failed run counts under its status and in the snapshot failures', async () => {
    const boom = processor('BOOM', () => {
      throw new Error('no');
    });
    const h = harness([boom, recorder().plugin]);
    const id = await h.run(chain('bad', [{ nodeId: 'b', type: 'BOOM' }]));
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const text = await h.engine.metrics.text();
    expect(sample(text, 'yukta_executions_completed_total', 'workflow="bad"', 'status="FAILURE"')).toBe(1);
    expect(sample(text, 'yukta_node_executions_total', 'node="b"', 'status="FAILURE"')).toBe(1);
    expect((await h.engine.metrics.snapshot(0)).runs.failed).toBe(1);
  });

  it('exports run and node meters as prom-client meters fed the same records would (text and JSON)', async () => {
    const sources: MetricsSources = {
      tracker: () => ({ queueDepth: 0, droppedLogs: 0, droppedState: 0, logAppendFailed: { node: 0, run: 0 } }),
      scheduler: () => ({ running: 0, queued: 0, rejected: { shutdown: 0, limit: 0, queue_full: 0, workflow_queue_full: 0, queue_timeout: 0, not_leader: 0 } }),
      checkpoints: () => ({ bytes: 0, errors: 0 }),
      edgeDrops: () => new Map(),
      supervisorDrops: () => 0,
    };
    const metrics = new EngineMetrics(sources);
    const reference = new Registry();
    const registers = [reference];
    // Registered in the engine's order.
    const runsCompleted = new Counter({
      name: 'yukta_executions_completed_total',
      help: 'Runs ended, by final status (yukta.executions.completed).',
      labelNames: ['session', 'workflow', 'status'],
      registers,
    });
    const runDuration = new Histogram({
      name: 'yukta_execution_duration_seconds',
      help: 'Run duration from RUNNING to its end (yukta.execution.duration).',
      labelNames: ['session', 'workflow', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const nodeExecutions = new Counter({
      name: 'yukta_node_executions_total',
      help: 'Node executions at their terminal status (yukta.node.executions).',
      labelNames: ['session', 'workflow', 'node', 'status'],
      registers,
    });
    const nodeDuration = new Histogram({
      name: 'yukta_node_duration_seconds',
      help: 'Node duration from RUNNING to its end (yukta.node.duration).',
      labelNames: ['session', 'workflow', 'node', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const run = (session: string, workflowId: string, status: Status, startedAt?: number, endedAt?: number): RunSummary => ({
      executionId: 'e',
      session,
      workflowId,
      definitionVersion: 'v',
      status,
      createdAt: 0,
      startedAt,
      endedAt,
    });
    // Durations on bounds, between them, past the last one, and none at all.
    const nodes: Array<[string, string, string, Status, number, number]> = [
      ['s1', 'w1', 'a', 'SUCCESS', 0, 5],
      ['s1', 'w1', 'b', 'FAILURE', 10, 11],
      ['s2', 'w1', 'a', 'SUCCESS', 0, 7_000_000],
      ['s1', 'w1', 'a', 'SUCCESS', 0, 1000],
      ['s1', 'w2', 'a', 'SUCCESS', 3, 3],
    ];
    for (const [session, workflow, node, status, startedAt, endedAt] of nodes) {
      metrics.nodeChanged(run(session, workflow, 'RUNNING'), { nodeId: node, status, startedAt, endedAt, counts: { received: 1, emitted: 1 } }, 'RUNNING');
      const labels = { session, workflow, node, status };
      nodeExecutions.inc(labels);
      nodeDuration.observe(labels, (endedAt - startedAt) / 1000);
    }
    const runs: Array<[string, string, Status, number, number]> = [
      ['s1', 'w1', 'SUCCESS', 0, 2500],
      ['s1', 'w1', 'FAILURE', 1, 2],
      ['s1', 'w1', 'SUCCESS', 0, 40],
    ];
    for (const [session, workflow, status, startedAt, endedAt] of runs) {
      metrics.runChanged(run(session, workflow, status, startedAt, endedAt), 'RUNNING');
      runsCompleted.inc({ session, workflow, status });
      runDuration.observe({ session, workflow, status }, (endedAt - startedAt) / 1000);
    }
    const lines = (text: string, names: string[]) => text.split('\n').filter((l) => names.some((n) => l.includes(n)));
    const names = ['yukta_node_executions_total', 'yukta_node_duration_seconds', 'yukta_executions_completed_total', 'yukta_execution_duration_seconds'];
    expect(lines(await metrics.text(), names)).toEqual(lines(await reference.metrics(), names));
    const json = async (registry: Registry) => (await registry.getMetricsAsJSON()).filter((m) => names.includes(m.name));
    expect(await json(metrics.registry)).toEqual(await json(reference));
  });

  it('reads edge drops, checkpoint bytes and errors, dropped events and failed log writes when scraped', async () => {
    const sources: MetricsSources = {
      tracker: () => ({ queueDepth: 7, droppedLogs: 3, droppedState: 2, logAppendFailed: { node: 4, run: 1 } }),
      scheduler: () => ({ running: 0, queued: 0, rejected: { shutdown: 0, limit: 5, queue_full: 0, workflow_queue_full: 0, queue_timeout: 1, not_leader: 0 } }),
      checkpoints: () => ({ bytes: 2048, errors: 2 }),
      edgeDrops: () =>
        new Map([
          ['wf/a', 11],
          ['wf/b', 1],
        ]),
      supervisorDrops: () => 9,
    };
    const text = await new EngineMetrics(sources).text();
    expect(sample(text, 'yukta_edge_dropped_total', 'workflow="wf"', 'node="a"')).toBe(11);
    expect(sample(text, 'yukta_edge_dropped_total', 'node="b"')).toBe(1);
    expect(sample(text, 'yukta_checkpoint_bytes')).toBe(2048);
    expect(sample(text, 'yukta_checkpoint_errors_total')).toBe(2);
    expect(sample(text, 'yukta_tracker_queue_depth')).toBe(7);
    expect(sample(text, 'yukta_tracker_dropped_total', 'type="log"')).toBe(3);
    expect(sample(text, 'yukta_tracker_dropped_total', 'type="state"')).toBe(2);
    expect(sample(text, 'yukta_tracker_dropped_total', 'kind="supervisor"')).toBe(9);
    expect(sample(text, 'yukta_tracker_log_append_failed_total', 'type="node"')).toBe(4);
    expect(sample(text, 'yukta_executions_rejected_total', 'reason="limit"')).toBe(5);
    expect(sample(text, 'yukta_executions_rejected_total', 'reason="queue_timeout"')).toBe(1);
    // Scraping twice reports the same totals (read, not added up).
    expect(sample(await new EngineMetrics(sources).text(), 'yukta_edge_dropped_total', 'node="a"')).toBe(11);
  });

  it('counts edge buffer drops of a real run as yukta.edge.dropped', async () => {
    const burst = processor('BURST', () => Array.from({ length: 50 }, (_, i) => ({ payload: { i } })));
    const h = harness([burst, plugins()[0]!, recorder().plugin], { channelCapacity: 1 });
    const id = await h.run(
      chain('drops', [
        { nodeId: 'b', type: 'BURST' },
        { nodeId: 'slow', type: 'SLOW', config: { engine: { edgeBuffer: { size: 1, overflow: 'DROP_OLDEST' } } } },
      ]),
    );
    await h.settle();
    for (let i = 0; i < 60 && h.engine.liveRun(id); i++) {
      h.clock.advance(1500);
      await h.settle();
    }
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const dropped = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'slow')!.counts.dropped ?? 0;
    expect(dropped).toBeGreaterThan(0);
    expect(sample(await h.engine.metrics.text(), 'yukta_edge_dropped_total', 'workflow="drops"', 'node="slow"')).toBe(dropped);
  });

  it('each engine has its own registry; the global prom-client registry stays empty of ours', async () => {
    const a = harness(plugins());
    const b = harness(plugins());
    await a.engine.waitForRun(await a.run(chain('one', [])));
    expect(sample(await a.engine.metrics.text(), 'yukta_executions_completed_total', 'workflow="one"')).toBe(1);
    expect(sample(await b.engine.metrics.text(), 'yukta_executions_completed_total', 'workflow="one"')).toBeUndefined();
    expect(await globalRegistry.metrics()).not.toContain('yukta_');
  });
});

describe('OBS-05 tracing', () => {
  function provider() {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    return { exporter, tracerProvider };
  }

  it('a run span with one child span per node, on engine time, ended with their status', async () => {
    const { exporter, tracerProvider } = provider();
    const h = harness(plugins(), { tracing: { tracerProvider } });
    const id = await h.run(chain('traced', [{ nodeId: 'slow', type: 'SLOW' }]));
    await h.settle();
    h.clock.advance(1500);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    h.engine.getRun(id); // applies the tracker's queue
    const spans = exporter.getFinishedSpans();
    const run = spans.find((s) => s.name === 'run traced')!;
    expect(run.attributes).toMatchObject({ 'yukta.execution.id': id, 'yukta.workflow.id': 'traced', 'yukta.session': 'test', 'yukta.status': 'SUCCESS' });
    expect(run.attributes['yukta.definition.version']).toBe(h.engine.getRun(id).definitionVersion);
    const nodes = spans.filter((s) => s.name.startsWith('node '));
    expect(nodes.map((s) => s.name).sort()).toEqual(['node out', 'node slow', 'node t']);
    for (const n of nodes) {
      expect(n.spanContext().traceId).toBe(run.spanContext().traceId);
      expect(n.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    }
    const slow = nodes.find((s) => s.name === 'node slow')!;
    expect(slow.duration[0] * 1000 + slow.duration[1] / 1e6).toBe(1500);
    expect(h.engine.tracing.openRuns).toBe(0);
  });

  it('a failed node and run end with an ERROR status', async () => {
    const { exporter, tracerProvider } = provider();
    const boom = processor('BOOM', () => {
      throw new Error('no');
    });
    const h = harness([boom, recorder().plugin], { tracing: { tracerProvider } });
    const id = await h.run(chain('bad', [{ nodeId: 'b', type: 'BOOM' }]));
    await h.engine.waitForRun(id);
    h.engine.getRun(id);
    const spans = exporter.getFinishedSpans();
    expect(spans.find((s) => s.name === 'node b')!.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(spans.find((s) => s.name === 'run bad')!.status.code).toBe(2);
  });

  it('no open span for a late RUNNING of an ended node', () => {
    const { exporter, tracerProvider } = provider();
    const tracing = new RunTracing({ tracerProvider });
    const tracker = new RunTracker({ observers: [tracing] });
    let seq = 0;
    const base = { executionId: 'r1', at: 5 };
    const run = (status: 'RUNNING' | 'SUCCESS') =>
      tracker.apply({ ...base, seq: ++seq, type: 'EXECUTION_STATUS', session: 's', workflowId: 'w', definitionVersion: 'v', status });
    const node = (status: 'RUNNING' | 'SUCCESS') =>
      tracker.apply({ ...base, seq: ++seq, type: 'NODE_STATUS', nodeId: 'a', status, counts: { received: 0, emitted: 0 } });
    run('RUNNING');
    node('RUNNING');
    node('SUCCESS');
    node('RUNNING'); // late
    tracker.drain();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['node a']);
    run('SUCCESS');
    tracker.drain();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['node a', 'run w']);
  });

  it('is a no-op while no tracer provider is registered', async () => {
    expect(trace.getTracerProvider().getTracer('x').startSpan('probe').isRecording()).toBe(false);
    const h = harness(plugins());
    const id = await h.run(chain('quiet', [{ nodeId: 'slow', type: 'SLOW' }]));
    await h.settle();
    h.engine.getRun(id);
    expect(h.engine.tracing.openRuns).toBe(0); // a running run keeps no span
    h.clock.advance(1500);
    await h.engine.waitForRun(id);
  });
});
