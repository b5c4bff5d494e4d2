/**
 * `yukta://` links (STU-08): `yukta://approval/<execution>/<node>` opens that approval in the inbox. Links
 * come from the OS (the protocol handler: macOS `open-url`, a launch's argv elsewhere) and from approval
 * notifications, so they are parsed strictly: the exact shape, both ids valid identifiers, nothing else
 * (no user, port, query or fragment). Anything else is ignored by the caller and logged.
 */
import { identifierProblem } from '../../shared/workflow/identifier';

export const DEEP_LINK_SCHEME = 'yukta';

export type DeepLink = { kind: 'approval'; executionId: string; nodeId: string };

/** Longest link considered (two identifiers of 128 characters, percent-encoded, fit well within). */
const MAX_LINK_LENGTH = 2048;

/**
 * The raw text must be exactly `yukta://approval/<a>/<b>`: matched before any URL parser could fold dot
 * segments (`…/x/%2e%2e/n` would otherwise normalise into a valid-looking link).
 */
const APPROVAL_LINK = /^yukta:\/\/approval\/([^/?#\\@:]+)\/([^/?#\\@:]+)$/i;

/** The link a URL names, or null when it is not exactly one of ours. */
export function parseDeepLink(text: string): DeepLink | null {
  if (typeof text !== 'string' || text.length > MAX_LINK_LENGTH) return null;
  const match = APPROVAL_LINK.exec(text);
  if (!match) return null;
  let executionId: string;
  let nodeId: string;
  try {
    executionId = decodeURIComponent(match[1]!);
    nodeId = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  // Identifiers refuse separators, "..", ".", "%" and control characters (after decoding, so %2F and %2e%2e too).
  if (identifierProblem(executionId) || identifierProblem(nodeId)) return null;
  return { kind: 'approval', executionId, nodeId };
}

/** The link of one approval (what a notification and the OS protocol handler open). */
export function approvalDeepLink(approval: { executionId: string; nodeId: string }): string {
  return `${DEEP_LINK_SCHEME}://approval/${encodeURIComponent(approval.executionId)}/${encodeURIComponent(approval.nodeId)}`;
}

/** A link for the log: cut short, control characters shown as `?`. */
export function linkForLog(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
