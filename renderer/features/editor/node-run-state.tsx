import { Check, X } from 'lucide-react';
import { memo } from 'react';
import type { Approval } from '../../../shared/api/control.schema';
import { Tip } from '../../components/Tooltip';
import { useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { useActions } from '../workflow/actions-context';

/** Open approvals of one node of one run, oldest first (the inbox list is sorted so). */
export function waitingAt(approvals: readonly Approval[], executionId: string | null, nodeId: string): Approval[] {
  if (executionId === null) return [];
  return approvals.filter((a) => a.executionId === executionId && a.nodeId === nodeId);
}

/** How many messages wait for a signal at the node in the shown run (a number: re-renders only when it changes). */
export function useWaitingCount(nodeId: string): number {
  const executionId = useLive((s) => s.executionId);
  return useInbox((s) => (executionId === null ? 0 : waitingAt(s.approvals, executionId, nodeId).length));
}

/** The signal the node waits for, for its label ("approve, 2 waiting"). */
export function useWaitingSignal(nodeId: string): string {
  const executionId = useLive((s) => s.executionId);
  return useInbox((s) => waitingAt(s.approvals, executionId, nodeId)[0]?.signal ?? '');
}

/**
 * The first line of a failed node's error on the node itself (UI.md "a failure shows where the user
 * looks"); the whole text in a tooltip on hover or keyboard focus.
 */
export const NodeErrorStrip = memo(function NodeErrorStrip({ id }: { id: string }) {
  const error = useLive((s) => s.nodes[id]?.error);
  if (!error) return null;
  const firstLine = error.message.split('\n')[0] ?? '';
  const attempts = error.attempt !== undefined && error.maxAttempts !== undefined ? ` (attempt ${error.attempt} of ${error.maxAttempts})` : '';
  return (
    <Tip content={<span className="tooltip-error">{`${error.name}: ${error.message}${attempts}`}</span>} testId={`node-error-tip-${id}`}>
      <div className="node-error-strip nodrag" tabIndex={0} role="note" aria-label={`Error: ${error.message}`} data-testid={`node-error-${id}`}>
        {firstLine}
      </div>
    </Tip>
  );
});

/** Approve and Reject on a node whose messages wait for a signal (CTL-05): each answers the oldest one. */
export const NodeApprovalButtons = memo(function NodeApprovalButtons({ id }: { id: string }) {
  const executionId = useLive((s) => s.executionId);
  const oldest = useInbox((s) => waitingAt(s.approvals, executionId, id)[0]);
  const actions = useActions();
  if (!oldest || !actions) return null;
  return (
    <div className="node-approval nodrag nopan" role="group" aria-label={`Answer "${oldest.signal}"`}>
      <button type="button" className="button tiny primary" onClick={() => void actions.decide(oldest, 'APPROVE')} data-testid={`node-approve-${id}`}>
        <Check size={11} aria-hidden="true" /> Approve
      </button>
      <button type="button" className="button tiny danger" onClick={() => void actions.decide(oldest, 'REJECT')} data-testid={`node-reject-${id}`}>
        <X size={11} aria-hidden="true" /> Reject
      </button>
    </div>
  );
});
