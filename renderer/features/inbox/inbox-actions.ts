import type { StudioClient } from '../../../shared/api/client';
import type { Approval, SignalDecision } from '../../../shared/api/control.schema';
import type { StudioEvent } from '../../../shared/events/events';
import { singleFlight } from '../../api/single-flight';
import { approvalKey, useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { describeError } from '../workflow/describe-error';

type ApprovalEvent = Extract<StudioEvent, { type: 'APPROVAL' }>;

/** The optional JSON data typed with a decision: none when blank, else the value, or why it is not JSON. */
export function parseDecisionData(text: string): { ok: true; data: unknown } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, data: undefined };
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: `The data is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Most approvals the inbox reads at once (the host's `approvals.list` cap). */
export const INBOX_LIMIT = 1000;

/** Says "a new approval" somewhere outside the page (browser notifications; the desktop app does it in main). */
export type ApprovalAnnouncer = (approval: Approval) => void;

/** The approval inbox (STU-05). */
export interface InboxActions {
  /** Reads the open approvals again (a burst of APPROVAL events makes at most two reads). */
  refreshApprovals(): Promise<void>;
  /** Approves or rejects the approval's node with optional data; false (the reason shown) when refused. */
  decide(approval: Approval, decision: SignalDecision, data?: unknown): Promise<boolean>;
  toggleInbox(open?: boolean): void;
  /** Opens the inbox at one approval (a notification click, a link), reading the list first when needed. */
  openApproval(key: string): Promise<void>;
  /** The feed's APPROVAL events: re-read, and announce each approval opened since. */
  approvalsChanged(events: readonly ApprovalEvent[]): void;
}

export function createInboxActions(api: StudioClient, announce: ApprovalAnnouncer | null, inbox = useInbox, live = useLive): InboxActions {
  const toAnnounce = new Set<string>();
  const read = singleFlight(async () => {
    // Those opened before this read started; later ones wait for the next read.
    const wanted = new Set(toAnnounce);
    toAnnounce.clear();
    try {
      const approvals = await api['approvals.list']({ limit: INBOX_LIMIT });
      inbox.getState().setApprovals(approvals);
      inbox.getState().setError(null);
      // Waits that began before the shown run was on the canvas start counting from their `since`.
      live.getState().reconcileWaits(approvals);
      // One already closed again is not in the list: nothing to say about it.
      for (const a of approvals) if (wanted.has(approvalKey(a))) announce?.(a);
    } catch (error) {
      inbox.getState().setError(`Could not read the approvals: ${describeError(error)}`);
    }
  });

  const actions: InboxActions = {
    refreshApprovals: read,
    async decide(approval, decision, data) {
      const key = approvalKey(approval);
      const state = inbox.getState();
      if (state.pending[key]) return false;
      state.setPending(key, true);
      try {
        await api['signals.send']({ executionId: approval.executionId, nodeId: approval.nodeId, decision, ...(data === undefined ? {} : { data }) });
        // Answered: it leaves the list at once; the APPROVAL CLOSED event confirms it with a read.
        inbox.getState().setApprovals(inbox.getState().approvals.filter((a) => approvalKey(a) !== key));
        inbox.getState().setError(null);
        return true;
      } catch (error) {
        inbox.getState().setError(`${decision === 'APPROVE' ? 'Approve' : 'Reject'} refused: ${describeError(error)}`);
        void read();
        return false;
      } finally {
        inbox.getState().setPending(key, false);
      }
    },
    toggleInbox(open) {
      const next = open ?? !inbox.getState().open;
      inbox.getState().setOpen(next);
      if (next) void read();
    },
    async openApproval(key) {
      if (!inbox.getState().approvals.some((a) => approvalKey(a) === key)) await read();
      inbox.getState().setOpen(true);
      if (inbox.getState().approvals.some((a) => approvalKey(a) === key)) inbox.getState().select(key);
    },
    approvalsChanged(events) {
      for (const e of events) {
        const key = approvalKey(e);
        if (e.state === 'OPEN') toAnnounce.add(key);
        else toAnnounce.delete(key);
      }
      void read();
    },
  };
  return actions;
}
