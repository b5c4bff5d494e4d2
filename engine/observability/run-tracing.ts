import { context, ProxyTracerProvider, SpanKind, SpanStatusCode, trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { NodeRunState, RunSummary } from '../../shared/api/runs.schema';
import { isFailure, isTerminal, type Status } from '../../shared/status/status';
import type { TrackerObserver } from './tracker-observer';

export interface TracingOptions {
  /** The provider to trace with; by default the global one (`trace.getTracerProvider()`), a no-op until one is registered. */
  tracerProvider?: TracerProvider;
}

interface RunSpans {
  /** The tracer the run span came from; its nodes' spans come from it too. */
  tracer: Tracer;
  span: Span;
  nodes: Map<string, Span>;
}

/** Span attributes: run and node ids (OBS-05). */
export const SPAN_ATTRIBUTES = {
  executionId: 'yukta.execution.id',
  session: 'yukta.session',
  workflowId: 'yukta.workflow.id',
  definitionVersion: 'yukta.definition.version',
  nodeId: 'yukta.node.id',
  status: 'yukta.status',
} as const;

const A = SPAN_ATTRIBUTES;
const TRACER_NAME = 'yukta-engine';

/**
 * OpenTelemetry spans, run → node, through `@opentelemetry/api` only (OBS-05). A run span opens when the run
 * state accepts RUNNING and closes at its end; node spans are its children, opened only for a RUNNING the
 * run state accepted (so a late RUNNING of an ended node opens nothing) and closed at the node's end.
 * Times are the engine clock's. Without a registered provider the run span does not record and nothing is kept.
 */
export class RunTracing implements TrackerObserver {
  private readonly runs = new Map<string, RunSpans>();

  constructor(private readonly options: TracingOptions = {}) {}

  private tracer(): Tracer | null {
    const provider = this.options.tracerProvider ?? trace.getTracerProvider();
    // The global provider stays a proxy without a delegate until one is registered: no span could record.
    if (provider instanceof ProxyTracerProvider && provider.getDelegateTracer(TRACER_NAME) === undefined) return null;
    return provider.getTracer(TRACER_NAME);
  }

  /** Spans still open (runs), for tests and shutdown. */
  get openRuns(): number {
    return this.runs.size;
  }

  runChanged(run: Readonly<RunSummary>, _before: Status): void {
    if (run.status === 'RUNNING') {
      const tracer = this.tracer();
      if (tracer === null) return;
      const span = tracer.startSpan(`run ${run.workflowId}`, {
        kind: SpanKind.INTERNAL,
        startTime: new Date(run.startedAt ?? run.createdAt),
        attributes: {
          [A.executionId]: run.executionId,
          [A.session]: run.session,
          [A.workflowId]: run.workflowId,
          [A.definitionVersion]: run.definitionVersion,
        },
      });
      if (span.isRecording()) this.runs.set(run.executionId, { tracer, span, nodes: new Map() });
      else span.end();
      return;
    }
    if (!isTerminal(run.status)) return;
    const spans = this.runs.get(run.executionId);
    if (!spans) return;
    this.runs.delete(run.executionId);
    const end = run.endedAt ?? run.startedAt ?? run.createdAt;
    // A node still open when its run ends (its end event is lost with the run) closes with the run.
    for (const span of spans.nodes.values()) finish(span, run.status, end, undefined);
    finish(spans.span, run.status, end, run.error?.message);
  }

  nodeChanged(run: Readonly<RunSummary>, node: Readonly<NodeRunState>, _before: Status): void {
    const spans = this.runs.get(run.executionId);
    if (!spans) return;
    if (node.status === 'RUNNING') {
      if (spans.nodes.has(node.nodeId)) return;
      const parent = trace.setSpan(context.active(), spans.span);
      const span = spans.tracer.startSpan(
        `node ${node.nodeId}`,
        {
          kind: SpanKind.INTERNAL,
          startTime: new Date(node.startedAt ?? run.startedAt ?? run.createdAt),
          attributes: { [A.executionId]: run.executionId, [A.workflowId]: run.workflowId, [A.nodeId]: node.nodeId },
        },
        parent,
      );
      spans.nodes.set(node.nodeId, span);
      return;
    }
    if (!isTerminal(node.status)) return;
    const span = spans.nodes.get(node.nodeId);
    if (!span) return;
    spans.nodes.delete(node.nodeId);
    finish(span, node.status, node.endedAt ?? run.startedAt ?? run.createdAt, node.error?.message);
  }
}

function finish(span: Span, status: Status, end: number, message: string | undefined): void {
  span.setAttribute(A.status, status);
  if (isFailure(status)) span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? status });
  else span.setStatus({ code: SpanStatusCode.OK });
  span.end(new Date(end));
}
