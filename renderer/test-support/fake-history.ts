import { StudioApiError } from '../../shared/api/errors';
import type { SessionSummary } from '../../shared/api/sessions.schema';
import type { SaveResult, StoredWorkflow, WorkflowVersion } from '../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { VersionId } from '../../shared/workflow/ids';

interface Entry {
  version: string;
  savedAt: number;
  note?: string;
  definition: WorkflowDefinition;
}

/**
 * The fake host's definition store: versions by content (64 hex characters, like the real hash), newest
 * first, identical saves add nothing, restore re-saves an older graph; and sessions with a live-run guard.
 */
export function createFakeHistory(seed: readonly StoredWorkflow[]) {
  const current = new Map<string, StoredWorkflow>();
  const history = new Map<string, Entry[]>();
  const sessions = new Set<string>(['default']);
  /** Sessions whose deletion or rename is refused as if runs were live. */
  const liveSessions = new Set<string>();
  let clock = 1000;

  const key = (session: string, workflowId: string) => `${session}/${workflowId}`;
  const save = (session: string, definition: WorkflowDefinition, note?: string): SaveResult => {
    const version = VersionId.parse(fakeHash(definition));
    const k = key(session, definition.workflowId);
    sessions.add(session);
    if (current.get(k)?.version === version) return { workflowId: definition.workflowId, version, changed: false };
    const savedAt = ++clock;
    const entry: Entry = { version, savedAt, definition: structuredClone(definition), ...(note ? { note } : {}) };
    history.set(k, [entry, ...(history.get(k) ?? []).filter((e) => e.version !== version)].slice(0, 20));
    current.set(k, { session, definition: entry.definition, version, savedAt, ...(note ? { note } : {}) });
    return { workflowId: definition.workflowId, version, changed: true };
  };
  // Seeds get a content version like every save, so restoring a seeded graph finds it again.
  for (const w of seed) save(w.session, w.definition, w.note);

  const entries = (session: string, workflowId: string): Entry[] => {
    const list = history.get(key(session, workflowId));
    if (!list) throw new StudioApiError('NOT_FOUND', `workflow "${workflowId}" does not exist`);
    return list;
  };
  const requireSession = (session: string) => {
    if (!sessions.has(session)) throw new StudioApiError('NOT_FOUND', `session "${session}" does not exist`);
    if (liveSessions.has(session)) throw new StudioApiError('CONFLICT', `session "${session}" has live runs; stop them first`);
  };
  const summary = (session: string): SessionSummary => ({
    session,
    workflowCount: [...current.values()].filter((w) => w.session === session).length,
    defaultExecutionTimeoutSeconds: 3600,
  });

  return {
    current,
    liveSessions,
    save,
    versions: (session: string, workflowId: string): WorkflowVersion[] =>
      entries(session, workflowId).map((e) => ({
        version: e.version,
        savedAt: e.savedAt,
        current: current.get(key(session, workflowId))?.version === e.version,
        ...(e.note ? { note: e.note } : {}),
      })),
    getVersion(session: string, workflowId: string, version: string): StoredWorkflow {
      const entry = entries(session, workflowId).find((e) => e.version === version);
      if (!entry) throw new StudioApiError('NOT_FOUND', `version ${version.slice(0, 8)} of "${workflowId}" does not exist`);
      return {
        session,
        definition: structuredClone(entry.definition),
        version: entry.version,
        savedAt: entry.savedAt,
        ...(entry.note ? { note: entry.note } : {}),
      };
    },
    restore(session: string, workflowId: string, version: string, note?: string): SaveResult {
      return save(session, this.getVersion(session, workflowId, version).definition, note);
    },
    sessionList: (): SessionSummary[] => [...sessions].sort().map(summary),
    createSession(session: string): SessionSummary {
      if (sessions.has(session)) throw new StudioApiError('CONFLICT', `session "${session}" already exists`);
      sessions.add(session);
      return summary(session);
    },
    renameSession(session: string, newSession: string): SessionSummary {
      requireSession(session);
      if (sessions.has(newSession)) throw new StudioApiError('CONFLICT', `session "${newSession}" already exists`);
      sessions.delete(session);
      sessions.add(newSession);
      for (const [k, w] of [...current]) {
        if (w.session !== session) continue;
        current.delete(k);
        current.set(key(newSession, w.definition.workflowId), { ...w, session: newSession });
      }
      return summary(newSession);
    },
    deleteSession(session: string): void {
      requireSession(session);
      sessions.delete(session);
      for (const [k, w] of [...current]) if (w.session === session) current.delete(k);
    },
  };
}

/** A deterministic 64-hex "hash" of a definition (the fake needs stable, distinct versions, not SHA-256). */
export function fakeHash(definition: WorkflowDefinition): string {
  const text = JSON.stringify(definition);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 + text.charCodeAt(i), 2246822519) >>> 0;
  }
  return (h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).repeat(4);
}
