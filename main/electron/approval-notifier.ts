import { z } from 'zod';
import { approvalLink, approvalNotice } from '../../shared/api/approval-notice';
import { Approval } from '../../shared/api/control.schema';
import type { EventFilter, StudioEvent } from '../../shared/events/events';

/** What the notifier needs: the host's feed and approvals, and the desktop's notifications and badge. */
export interface ApprovalNotifierDeps {
  subscribe(filter: EventFilter, listener: (batch: StudioEvent[]) => void): () => void;
  /** The open approvals (`approvals.list`), oldest first. */
  listApprovals(): Promise<unknown>;
  /** Shows one notification; `onClick` when the user clicks it. */
  notify(notice: { title: string; body: string; onClick: () => void }): void;
  /** The dock / taskbar badge (0 clears it). */
  setBadge(count: number): void;
  /** Brings the studio forward at a renderer address (the inbox link of one approval). */
  openLink(hash: string): void;
}

export interface ApprovalNotifier {
  /** Settles once the first read has set the badge. */
  readonly ready: Promise<void>;
  stop(): void;
}

const Approvals = z.array(Approval);
const keyOf = (a: { executionId: string; nodeId: string; messageId: string }) => `${a.executionId}/${a.nodeId}/${a.messageId}`;

/**
 * The desktop side of the inbox (STU-05): keeps the dock/taskbar badge at the number of open approvals and
 * shows a native notification for each approval that opens while the app runs (not for those already open
 * at start); a click brings the window forward with the inbox at that item. Reads `approvals.list` once at
 * start and again after APPROVAL events (one read at a time, one more if events came meanwhile).
 */
export function startApprovalNotifier(deps: ApprovalNotifierDeps): ApprovalNotifier {
  const opened = new Set<string>();
  let stopped = false;
  let reading: Promise<void> | null = null;
  let again = false;

  const readOnce = async (): Promise<void> => {
    const wanted = new Set(opened);
    opened.clear();
    const parsed = Approvals.safeParse(await deps.listApprovals().catch(() => null));
    if (stopped || !parsed.success) return;
    deps.setBadge(parsed.data.length);
    for (const approval of parsed.data) {
      if (!wanted.has(keyOf(approval))) continue;
      deps.notify({ ...approvalNotice(approval), onClick: () => deps.openLink(approvalLink(approval)) });
    }
  };
  const read = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        await readOnce();
      } while (again && !stopped);
    })().finally(() => (reading = null));
    return reading;
  };

  const unsubscribe = deps.subscribe({ type: ['APPROVAL'] }, (batch) => {
    for (const event of batch) {
      if (event.type !== 'APPROVAL') continue;
      if (event.state === 'OPEN') opened.add(keyOf(event));
      else opened.delete(keyOf(event));
    }
    void read();
  });
  return {
    ready: read(),
    stop() {
      stopped = true;
      unsubscribe();
    },
  };
}
