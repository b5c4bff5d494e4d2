import { Pause, Play, RotateCcw, SkipForward, Square, StepForward, Undo2 } from 'lucide-react';
import { isTerminal } from '../../../shared/status/status';
import { formatMs } from '../../components/format-duration';
import { HoldBadge, StatusBadge } from '../../components/status';
import { heldMs, splitDuration } from '../../store/hold-clock';
import { nodeControl, useDebug } from '../../store/debug-store';
import type { NodeControlState } from '../../../shared/api/control.schema';
import { useLive, type LiveNodeState } from '../../store/live-store';
import { useActions } from '../workflow/actions-context';
import { useWaitingCount } from '../editor/node-run-state';
import { HeldMessage } from './HeldMessage';
import { RecordedMessages } from './RecordedMessages';
import { RemoteAttempts } from './RemoteAttempts';
import { useStudio } from '../../store/studio-store';

/**
 * The selected node in the shown run (STU-03/04): status, counts, attempt, timings and input buffer; in a
 * live run its valve (paused, skipped, steps left, breakpoint), node commands and the held message; and the
 * messages it received and sent, as recorded.
 */
export function NodeRunSection({ nodeId, kind }: { nodeId: string; kind: string | undefined }) {
  const executionId = useLive((s) => s.executionId);
  const runStatus = useLive((s) => s.runStatus);
  const live = useLive((s) => s.nodes[nodeId]);
  const pool = useStudio((s) => placementPool(s.nodes.find((n) => n.id === nodeId)?.data.config));
  if (executionId === null) return null;
  const runLive = runStatus === null || !isTerminal(runStatus);
  return (
    <div className="inspector-run" data-testid="inspector-run">
      {live ? (
        <NodeFigures nodeId={nodeId} live={live} />
      ) : (
        <p className="field-hint" data-testid="inspector-status">
          Not part of this run.
        </p>
      )}
      {runLive && live && <ValveControls nodeId={nodeId} kind={kind} />}
      {live && <RestartControls nodeId={nodeId} status={live.status} />}
      {live && pool !== null && (
        <RemoteAttempts
          executionId={executionId}
          nodeId={nodeId}
          pool={pool}
          progress={`${live.status}/${live.counts.received}/${live.counts.emitted}/${live.attempt ?? 0}`}
        />
      )}
      {live && (
        <RecordedMessages
          key={`${executionId}/${nodeId}`}
          executionId={executionId}
          nodeId={nodeId}
          progress={`${live.status}/${live.counts.received}/${live.counts.emitted}`}
        />
      )}
    </div>
  );
}

/** The pool of a node's `engine.placement` (SCL-01), or null. */
function placementPool(config: Readonly<Record<string, unknown>> | undefined): string | null {
  const engine = config?.['engine'];
  const placement = engine && typeof engine === 'object' ? (engine as Record<string, unknown>)['placement'] : undefined;
  const pool = placement && typeof placement === 'object' ? (placement as Record<string, unknown>)['pool'] : undefined;
  return typeof pool === 'string' && pool !== '' ? pool : null;
}

function NodeFigures({ nodeId, live }: { nodeId: string; live: LiveNodeState }) {
  const { counts } = live;
  const waiting = useWaitingCount(nodeId);
  // Held or waiting is its own state here too, never "Running" (UI.md).
  const running = live.status === 'RUNNING' || live.status === 'PENDING';
  return (
    <div className="inspector-live" data-testid="inspector-status">
      {running && live.held ? (
        <HoldBadge kind="held" />
      ) : running && waiting > 0 ? (
        <HoldBadge kind="waiting" detail={`${waiting} waiting`} />
      ) : (
        <StatusBadge status={live.status} />
      )}
      <span data-testid="inspector-counts">
        {counts.received} received · {counts.emitted} emitted
        {counts.failed ? ` · ${counts.failed} failed` : ''}
        {counts.retried ? ` · ${counts.retried} retried (attempts beyond the first)` : ''}
        {live.attempt ? ` · attempt ${live.attempt} running` : ''}
        {counts.dropped ? ` · ${counts.dropped} dropped by the edge buffer` : ''}
      </span>
      <span className="muted" data-testid="inspector-timing">
        {timing(live)}
      </span>
      {live.buffer && (
        <span className="muted">
          Input buffer {live.buffer.used} / {live.buffer.size}
        </span>
      )}
    </div>
  );
}

function timing(live: LiveNodeState): string {
  if (live.startedAt === undefined) return 'Not started.';
  const start = `Started ${new Date(live.startedAt).toLocaleTimeString()}`;
  if (live.endedAt === undefined) return `${start}, still going.`;
  return `${start}, took ${splitDuration(live.endedAt - live.startedAt, heldMs(live.hold, live.endedAt), 'held or waiting', formatMs)}.`;
}

/** The valve's state in one line: open or paused, skipped, steps left, breakpoint. */
function valveSummary(valve: NodeControlState): string {
  return [
    valve.paused ? 'paused' : 'open',
    valve.skipped ? 'skipped' : null,
    valve.stepRemaining !== null ? `${valve.stepRemaining} step(s) left` : null,
    valve.breakpoint ? `breaks at ${valve.breakpoint.path} == ${valve.breakpoint.equals}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

function ValveControls({ nodeId, kind }: { nodeId: string; kind: string | undefined }) {
  const actions = useActions();
  const valve = useDebug((s) => nodeControl(s, nodeId));
  const stepCount = useDebug((s) => s.stepCount);
  if (!actions) return null;
  const send = actions.command;
  return (
    <>
      <div className="inspector-actions" role="group" aria-label="Node commands">
        {valve?.paused || valve?.held ? (
          <button type="button" className="button small" onClick={() => void send({ type: 'ResumeNode', nodeId })} data-testid="node-resume">
            <Play size={12} aria-hidden="true" /> Resume node
          </button>
        ) : (
          <button type="button" className="button small" onClick={() => void send({ type: 'PauseNode', nodeId })} data-testid="node-pause">
            <Pause size={12} aria-hidden="true" /> Pause node
          </button>
        )}
        <button
          type="button"
          className="button small"
          onClick={() => void send({ type: 'Step', nodeId, count: stepCount })}
          data-testid="node-step"
          title={`Let ${stepCount} message(s) through, then hold again`}
        >
          <StepForward size={12} aria-hidden="true" /> Step {stepCount}
        </button>
        <button
          type="button"
          className="button small danger"
          onClick={() => void actions.stopNode(nodeId)}
          data-testid="node-stop"
          title="Stop this node: it ends STOPPED and its children see the end of their input"
        >
          <Square size={11} aria-hidden="true" /> Stop node
        </button>
        {kind === 'processor' && (
          <button
            type="button"
            className="button small"
            aria-pressed={valve?.skipped ?? false}
            onClick={() => void send({ type: valve?.skipped ? 'Unskip' : 'Skip', nodeId })}
            data-testid="node-skip"
          >
            <SkipForward size={12} aria-hidden="true" /> {valve?.skipped ? 'Unskip' : 'Skip'}
          </button>
        )}
      </div>
      {valve && (
        <p className="field-hint" data-testid="node-valve">
          {valveSummary(valve)}
        </p>
      )}
      {valve?.held && <HeldMessage key={valve.held.id} held={valve.held} onReplace={(payload) => actions.replaceHeld(nodeId, payload)} />}
    </>
  );
}

function RestartControls({ nodeId, status }: { nodeId: string; status: LiveNodeState['status'] }) {
  const actions = useActions();
  if (!actions) return null;
  const retryable = status === 'FAILURE' || status === 'TIMED_OUT';
  return (
    <div className="inspector-actions" role="group" aria-label="Restart">
      <button
        type="button"
        className="button small"
        onClick={() => void actions.restart('RestartFromNode', nodeId)}
        data-testid="node-restart-from"
        title="A new run that re-runs this node and its descendants, replaying what fed it"
      >
        <RotateCcw size={12} aria-hidden="true" /> Restart from here
      </button>
      {retryable && (
        <button type="button" className="button small" onClick={() => void actions.restart('RetryNode', nodeId)} data-testid="node-retry">
          <Undo2 size={12} aria-hidden="true" /> Retry node
        </button>
      )}
    </div>
  );
}
