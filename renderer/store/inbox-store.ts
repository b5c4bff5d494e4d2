import { create } from 'zustand';
import type { Approval } from '../../shared/api/control.schema';

/** The key of an approval: one message waiting at one node of one run. */
export function approvalKey(a: Pick<Approval, 'executionId' | 'nodeId' | 'messageId'>): string {
  return `${a.executionId}/${a.nodeId}/${a.messageId}`;
}

/**
 * The approval inbox (STU-05): open approvals across every run and workflow, oldest first, as last read
 * (`approvals.list`, read again on APPROVAL events), the selected one, and whether the inbox is open.
 */
export interface InboxState {
  approvals: Approval[];
  /** Read at least once (the badge shows nothing before). */
  loaded: boolean;
  open: boolean;
  /** Key of the selected approval; J/K move it. */
  selected: string | null;
  error: string | null;
  /** Decisions being sent, by key (their rows are disabled). */
  pending: Readonly<Record<string, boolean>>;
  setApprovals(approvals: Approval[]): void;
  setOpen(open: boolean): void;
  select(key: string | null): void;
  /** Moves the selection by `delta` rows (J: +1, K: −1), staying inside the list. */
  move(delta: number): void;
  setError(error: string | null): void;
  setPending(key: string, pending: boolean): void;
}

export const useInbox = create<InboxState>()((set) => ({
  approvals: [],
  loaded: false,
  open: false,
  selected: null,
  error: null,
  pending: {},
  setApprovals: (approvals) =>
    set((s) => {
      const sorted = [...approvals].sort((a, b) => a.since - b.since);
      return { approvals: sorted, loaded: true, selected: keepSelection(s.approvals, sorted, s.selected) };
    }),
  setOpen: (open) => set((s) => ({ open, selected: s.selected ?? (s.approvals[0] ? approvalKey(s.approvals[0]) : null) })),
  select: (selected) => set({ selected }),
  move: (delta) =>
    set((s) => {
      if (s.approvals.length === 0) return {};
      const at = s.approvals.findIndex((a) => approvalKey(a) === s.selected);
      const next = Math.min(s.approvals.length - 1, Math.max(0, at < 0 ? 0 : at + delta));
      return { selected: approvalKey(s.approvals[next]!) };
    }),
  setError: (error) => set({ error }),
  setPending: (key, pending) =>
    set((s) => {
      const { [key]: _old, ...rest } = s.pending;
      return { pending: pending ? { ...rest, [key]: true } : rest };
    }),
}));

/** After a refresh: the same item if it is still open, else the one now at its place, else none. */
function keepSelection(before: readonly Approval[], after: readonly Approval[], selected: string | null): string | null {
  if (after.length === 0) return null;
  if (selected !== null && after.some((a) => approvalKey(a) === selected)) return selected;
  const at =
    selected === null
      ? 0
      : Math.max(
          0,
          before.findIndex((a) => approvalKey(a) === selected),
        );
  return approvalKey(after[Math.min(at, after.length - 1)]!);
}

/** The selected approval, if any. */
export function selectedApproval(s: InboxState): Approval | undefined {
  return s.approvals.find((a) => approvalKey(a) === s.selected);
}
