import { create } from 'zustand';
import type { ValidationIssue } from '../../shared/workflow/validation-issue';

const NONE: readonly ValidationIssue[] = Object.freeze([]);

/**
 * Live validation results. Kept apart so a node subscribes only to its own problems
 * (`useProblems(s => s.byNode[id])`) and re-renders only when they change.
 */
export interface ProblemsState {
  issues: readonly ValidationIssue[];
  byNode: Readonly<Record<string, readonly ValidationIssue[]>>;
  setIssues(issues: readonly ValidationIssue[]): void;
}

export function createProblemsStore() {
  return create<ProblemsState>()((set) => ({
    issues: NONE,
    byNode: {},
    setIssues: (issues) => set((s) => ({ issues, byNode: groupByNode(issues, s.byNode) })),
  }));
}

/** Groups issues by every node they name; keeps the previous array of a node whose issues are unchanged. */
export function groupByNode(
  issues: readonly ValidationIssue[],
  previous: Readonly<Record<string, readonly ValidationIssue[]>> = {},
): Record<string, readonly ValidationIssue[]> {
  const grouped: Record<string, ValidationIssue[]> = {};
  for (const issue of issues) {
    const ids = new Set([...(issue.nodeIds ?? []), ...(issue.nodeId ? [issue.nodeId] : [])]);
    for (const id of ids) (grouped[id] ??= []).push(issue);
  }
  const result: Record<string, readonly ValidationIssue[]> = {};
  for (const [id, list] of Object.entries(grouped)) {
    const prev = previous[id];
    result[id] = prev && sameIssues(prev, list) ? prev : list;
  }
  return result;
}

function sameIssues(a: readonly ValidationIssue[], b: readonly ValidationIssue[]): boolean {
  return a.length === b.length && a.every((issue, i) => JSON.stringify(issue) === JSON.stringify(b[i]));
}

export const useProblems = createProblemsStore();
