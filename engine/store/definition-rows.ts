import { StoredWorkflow } from '../../shared/api/workflows.schema';
import type { StoredSession, VersionEntry } from './definition-store';

/**
 * Definitions as the database stores keep them (SQLite, PostgreSQL: DEF-01, DUR-05, DUR-04): the same
 * tables (`workflows` pointing at the current row of `workflow_versions`, `sessions`), read the same way.
 */
export interface VersionRow {
  session: string;
  workflow_id: string;
  version: string;
  saved_at: number;
  note: string | null;
  /** JSON text. */
  definition: string;
}

/** The current version of each workflow, with its definition. */
export const CURRENT_SELECT = `
  SELECT w.session, w.workflow_id, v.version, v.saved_at, v.note, v.definition
  FROM workflows w JOIN workflow_versions v
    ON v.session = w.session AND v.workflow_id = w.workflow_id AND v.version = w.version`;

/** A stored row as the workflow the store hands out, its shape checked. */
export function storedOf(row: VersionRow): StoredWorkflow {
  return StoredWorkflow.parse({
    session: row.session,
    definition: JSON.parse(row.definition),
    version: row.version,
    savedAt: row.saved_at,
    ...(row.note === null ? {} : { note: row.note }),
  });
}

export function versionEntryOf(row: Pick<VersionRow, 'version' | 'saved_at' | 'note'>): VersionEntry {
  return row.note === null ? { version: row.version, savedAt: row.saved_at } : { version: row.version, savedAt: row.saved_at, note: row.note };
}

/** Every session: those with settings and those with workflows, by name. */
export function sessionsOf(settings: ReadonlyMap<string, number>, workflowCounts: ReadonlyMap<string, number>): StoredSession[] {
  return [...new Set([...settings.keys(), ...workflowCounts.keys()])].sort().map((session) => {
    const timeout = settings.get(session);
    return { session, workflowCount: workflowCounts.get(session) ?? 0, settings: timeout === undefined ? null : { defaultExecutionTimeoutSeconds: timeout } };
  });
}
