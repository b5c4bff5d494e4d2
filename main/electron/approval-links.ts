import { z } from 'zod';
import { approvalLink } from '../../shared/api/approval-notice';
import { Approval } from '../../shared/api/control.schema';
import { linkForLog, parseDeepLink } from './deep-link';

export interface ApprovalLinkDeps {
  /** The open approvals (`approvals.list`), oldest first. */
  listApprovals(): Promise<unknown>;
  /** Brings the studio forward at a renderer address (`#/inbox/<run>/<node>/<message>`). */
  openHash(hash: string): void;
  log(message: string): void;
}

const Approvals = z.array(Approval);

/**
 * Opens a `yukta://approval/<execution>/<node>` link (STU-08): the inbox at the oldest open approval of
 * that node of that run — the one a decision would answer. A link that is not exactly ours, or names no
 * open approval, is logged and ignored. Resolves with what happened.
 */
export async function openApprovalDeepLink(text: string, deps: ApprovalLinkDeps): Promise<'opened' | 'ignored' | 'not-open'> {
  const link = parseDeepLink(text);
  if (!link) {
    deps.log(`yukta: ignored link ${linkForLog(text)} (only yukta://approval/<execution>/<node> is understood)`);
    return 'ignored';
  }
  const parsed = Approvals.safeParse(await deps.listApprovals().catch(() => null));
  const approval = parsed.success ? parsed.data.find((a) => a.executionId === link.executionId && a.nodeId === link.nodeId) : undefined;
  if (!approval) {
    deps.log(`yukta: link ${linkForLog(text)} names no open approval (decided already, or not on this host)`);
    return 'not-open';
  }
  deps.openHash(approvalLink(approval));
  return 'opened';
}
