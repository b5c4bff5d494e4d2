import type { Approval } from './control.schema';

/** The text of a notification for a new approval (STU-05), the same in the desktop app and the browser. */
export function approvalNotice(approval: Pick<Approval, 'workflowId' | 'nodeId' | 'signal' | 'session' | 'executionId'>): { title: string; body: string } {
  const where = approval.session === 'default' ? approval.workflowId : `${approval.session}/${approval.workflowId}`;
  return { title: `Approval needed: ${where}`, body: `${approval.nodeId} waits for "${approval.signal}" (run ${approval.executionId.slice(0, 8)})` };
}

const INBOX_ROUTE = '#/inbox/';

/** The studio address (hash) that opens the inbox at one approval: `#/inbox/<run>/<node>/<message>`. */
export function approvalLink(approval: Pick<Approval, 'executionId' | 'nodeId' | 'messageId'>): string {
  return INBOX_ROUTE + [approval.executionId, approval.nodeId, approval.messageId].map(encodeURIComponent).join('/');
}

/** The approval an inbox link names, or null when the hash is not one. */
export function parseApprovalLink(hash: string): { executionId: string; nodeId: string; messageId: string } | null {
  if (!hash.startsWith(INBOX_ROUTE)) return null;
  const parts = hash.slice(INBOX_ROUTE.length).split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  try {
    const [executionId, nodeId, messageId] = parts.map(decodeURIComponent) as [string, string, string];
    return { executionId, nodeId, messageId };
  } catch {
    return null;
  }
}
