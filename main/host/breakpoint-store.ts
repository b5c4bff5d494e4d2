import { z } from 'zod';
import { StoredBreakpoint } from '../../shared/api/breakpoints.schema';
import { readJsonFile, writeJsonFileAtomic } from './json-file';

/** The file beside the data that keeps every workflow's breakpoints (STU-04). */
export const BREAKPOINTS_FILE = 'breakpoints.json';

const BreakpointsFile = z.object({ version: z.literal(1), workflows: z.record(z.string(), z.array(StoredBreakpoint)) });

/**
 * Breakpoints per workflow (`session/workflowId`), outside the definitions: setting one makes no version.
 * Kept in `<data>/breakpoints.json` (written atomically, so a crash leaves the old file or the new one), or
 * in memory without a data folder. A file that does not parse is named in the error, never overwritten.
 */
export class BreakpointStore {
  private readonly workflows: Map<string, StoredBreakpoint[]>;

  constructor(private readonly path: string | null) {
    this.workflows = new Map(Object.entries(path ? readBreakpointsFile(path) : {}));
  }

  get(session: string, workflowId: string): StoredBreakpoint[] {
    return this.workflows.get(keyOf(session, workflowId)) ?? [];
  }

  set(session: string, workflowId: string, breakpoints: StoredBreakpoint[]): StoredBreakpoint[] {
    const key = keyOf(session, workflowId);
    const next = new Map(this.workflows);
    if (breakpoints.length === 0) next.delete(key);
    else next.set(key, breakpoints);
    // Written before it is kept: a failed write leaves the store as it was.
    if (this.path) writeJsonFileAtomic(this.path, { version: 1, workflows: Object.fromEntries(next) });
    if (breakpoints.length === 0) this.workflows.delete(key);
    else this.workflows.set(key, breakpoints);
    return breakpoints;
  }
}

function keyOf(session: string, workflowId: string): string {
  return `${session}/${workflowId}`;
}

function readBreakpointsFile(path: string): Record<string, StoredBreakpoint[]> {
  const raw = readJsonFile(path);
  if (raw === null) return {};
  const parsed = BreakpointsFile.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not a breakpoints file: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
  return parsed.data.workflows;
}
