import { Crosshair, GitCompare, OctagonX, Play, Radio, RotateCcw, X } from 'lucide-react';
import { useMemo } from 'react';
import { isTerminal } from '../../../shared/status/status';
import { HoldBadge, StatusBadge } from '../../components/status';
import { useDebug } from '../../store/debug-store';
import { useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import { useShowNode } from '../editor/use-show-node';
import { useActions } from '../workflow/actions-context';
import { runFailure, runHoldState } from './run-state';

/** "Paused at breakpoint (node)" and "Waiting for approval (n waiting)" while the shown run is held. */
function RunHold({ executionId }: { executionId: string }) {
  const nodes = useLive((s) => s.nodes);
  const runStatus = useLive((s) => s.runStatus);
  const approvals = useInbox((s) => s.approvals);
  const hold = useMemo(() => runHoldState(executionId, nodes, approvals), [executionId, nodes, approvals]);
  if (runStatus !== null && isTerminal(runStatus)) return null;
  return (
    <>
      {hold.heldAt.length > 0 && <HoldBadge kind="held" detail={hold.heldAt.join(', ')} testId="run-banner-held" />}
      {hold.waiting > 0 && <HoldBadge kind="waiting" detail={`${hold.waiting} waiting`} testId="run-banner-waiting" />}
    </>
  );
}

/** Restart the whole run (a new run, same version and payload) once it ended; Resume an ABORTED one (DUR-03). */
function RunActions() {
  const runStatus = useLive((s) => s.runStatus);
  const actions = useActions();
  if (!actions || runStatus === null || !isTerminal(runStatus)) return null;
  return (
    <>
      {runStatus === 'ABORTED' && (
        <button
          type="button"
          className="button small primary"
          onClick={() => void actions.resume()}
          data-testid="run-banner-resume"
          title="Continue this run from its last checkpoint (it was interrupted by a crash or a kill)"
        >
          <Play size={12} aria-hidden="true" /> Resume
        </button>
      )}
      <button
        type="button"
        className="button small"
        onClick={() => void actions.restart('Restart')}
        data-testid="run-banner-restart"
        title="A new run of the same version with the same start payload"
      >
        <RotateCcw size={12} aria-hidden="true" /> Restart run
      </button>
    </>
  );
}

/** "Failed at <node>: <message>" with Show node, once the shown run failed. */
function RunFailureText({ executionId }: { executionId: string }) {
  const run = useStudio((s) => s.runs.find((r) => r.executionId === executionId));
  const nodes = useLive((s) => s.nodes);
  const showNode = useShowNode();
  const failure = useMemo(() => runFailure(run, nodes), [run, nodes]);
  if (!failure) return null;
  const text = failure.nodeId ? `Failed at ${failure.nodeId}: ${failure.message}` : `Failed: ${failure.message}`;
  return (
    <span className="run-banner-failure" data-testid="run-banner-failure">
      <OctagonX size={13} aria-hidden="true" />
      <span className="run-banner-failure-text" title={text}>
        {text}
      </span>
      {failure.nodeId && (
        <button type="button" className="button tiny" onClick={() => showNode(failure.nodeId!)} data-testid="run-banner-show-node">
          <Crosshair size={11} aria-hidden="true" /> Show node
        </button>
      )}
    </span>
  );
}

/**
 * Above the canvas while a run is shown (STU-03): which run, its status, the definition version it used
 * (with "Diff with draft" when the canvas differs from it: another version saved since, or unsaved edits),
 * the debugger's last refusal, and a way back to editing.
 */
export function RunBanner({ onDiff, onExit }: { onDiff: (runVersion: string) => void; onExit: () => void }) {
  const executionId = useLive((s) => s.executionId);
  const runStatus = useLive((s) => s.runStatus);
  const run = useStudio((s) => s.runs.find((r) => r.executionId === executionId));
  const current = useStudio((s) => s.storedVersion);
  const dirty = useStudio((s) => s.dirty);
  const error = useDebug((s) => s.error);
  const setError = useDebug((s) => s.setError);
  if (executionId === null) return null;
  const version = run?.definitionVersion ?? '';
  const older = version !== '' && current !== null && version !== current;
  const draftDiffers = version !== '' && (older || dirty);
  return (
    <div className="run-banner" role="status" data-testid="run-banner" data-run={executionId}>
      <Radio size={14} aria-hidden="true" />
      <span>
        Run <code title={executionId}>{executionId.slice(0, 8)}</code>
      </span>
      {runStatus && <StatusBadge status={runStatus} compact testId="run-banner-status" />}
      <RunHold executionId={executionId} />
      <RunFailureText executionId={executionId} />
      {version && (
        <span className="muted" data-testid="run-banner-version" title={`Definition version ${version}`}>
          version <code>{version.slice(0, 8)}</code>
          {older ? ' (not the current one)' : current !== null ? ` (current${dirty ? ', with unsaved edits on the canvas' : ''})` : ''}
        </span>
      )}
      {draftDiffers && (
        <button
          type="button"
          className="button small"
          onClick={() => onDiff(version)}
          data-testid="run-banner-diff"
          title="Draw the difference between the version this run used and the canvas as it is now (the draft, saved or not)"
        >
          <GitCompare size={12} aria-hidden="true" /> Diff with draft
        </button>
      )}
      {error && (
        <span className="field-error" role="alert" data-testid="debug-error">
          {error}
          <button type="button" className="icon-button" onClick={() => setError(null)} aria-label="Dismiss">
            <X size={12} aria-hidden="true" />
          </button>
        </span>
      )}
      <span className="app-bar-spacer" />
      <RunActions />
      <button type="button" className="button small" onClick={onExit} data-testid="run-banner-exit" title="Back to editing: no run on the canvas">
        <X size={12} aria-hidden="true" /> Exit run view
      </button>
    </div>
  );
}
