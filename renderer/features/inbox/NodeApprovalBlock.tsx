import { Check, Inbox, X } from 'lucide-react';
import { useState } from 'react';
import type { SignalDecision } from '../../../shared/api/control.schema';
import { HoldBadge } from '../../components/status';
import { JsonTree } from '../../components/JsonTree';
import { approvalKey, useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { waitingAt } from '../editor/node-run-state';
import { useActions } from '../workflow/actions-context';
import { DecisionDataField } from './DecisionDataField';
import { parseDecisionData } from './inbox-actions';

/**
 * In the inspector of a node whose messages wait for a signal (CTL-05): how many wait and since when, the
 * oldest message, data to send, Approve / Reject, and "Open in inbox" at that approval.
 */
export function NodeApprovalBlock({ nodeId }: { nodeId: string }) {
  const executionId = useLive((s) => s.executionId);
  const approvals = useInbox((s) => s.approvals);
  const actions = useActions();
  const [data, setData] = useState('');
  const [dataError, setDataError] = useState<string | null>(null);
  const waiting = waitingAt(approvals, executionId, nodeId);
  const oldest = waiting[0];
  if (!oldest || !actions) return null;
  const decide = async (decision: SignalDecision) => {
    const parsed = parseDecisionData(data);
    if (!parsed.ok) return setDataError(parsed.error);
    setDataError(null);
    if (await actions.decide(oldest, decision, parsed.data)) setData('');
  };
  return (
    <section className="approval-block" aria-label="Waiting for approval" data-testid="inspector-approval">
      <HoldBadge kind="waiting" detail={`${oldest.signal}, ${waiting.length} waiting`} testId="inspector-approval-state" />
      <p className="field-hint">Oldest waiting since {new Date(oldest.since).toLocaleTimeString()}:</p>
      <JsonTree value={oldest.payload} testId="inspector-approval-payload" label="waiting message" />
      <DecisionDataField data={data} setData={setData} dataError={dataError} testId="inspector-approval-data" />
      <div className="inspector-actions">
        <button type="button" className="button small primary" onClick={() => void decide('APPROVE')} data-testid="inspector-approve">
          <Check size={12} aria-hidden="true" /> Approve
        </button>
        <button type="button" className="button small danger" onClick={() => void decide('REJECT')} data-testid="inspector-reject">
          <X size={12} aria-hidden="true" /> Reject
        </button>
        <button type="button" className="button small" onClick={() => void actions.openApproval(approvalKey(oldest))} data-testid="inspector-open-inbox">
          <Inbox size={12} aria-hidden="true" /> Open in inbox
        </button>
      </div>
    </section>
  );
}
