import { DEFAULT_MAX_VERSIONS, type StoredWorkflow } from '../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';

export interface SaveOptions {
  /** Content hash of the definition (DEF-01), computed by the caller. */
  version: string;
  savedAt: number;
  note?: string;
  /** Newest versions kept per workflow (`yukta.definitions.max-versions`, 20); older ones are deleted. */
  maxVersions?: number;
}

/** One entry of a workflow's history as a store keeps it. */
export interface VersionEntry {
  version: string;
  savedAt: number;
  note?: string;
}

/** What a store records about a session besides its workflows (DUR-05). */
export interface SessionSettings {
  defaultExecutionTimeoutSeconds: number;
}

/**
 * A session as a store sees it. A session exists when it has settings (created or configured) or at
 * least one workflow (saving into a new session creates it implicitly, with no settings).
 */
export interface StoredSession {
  session: string;
  workflowCount: number;
  settings: SessionSettings | null;
}

/** One workflow of a session configuration, validated and hashed by the caller. */
export interface SessionWorkflowSave {
  definition: WorkflowDefinition;
  options: SaveOptions;
}

export type RenameOutcome = 'renamed' | 'not-found' | 'exists';

/**
 * Where workflow definitions, their version history and sessions live (DEF-01, DUR-05). Every
 * implementation passes the same contract suite (`definition-store.contract.ts`).
 *
 * History semantics: a version is a content hash, so history holds each content once. Saving content
 * equal to the current version changes nothing; saving (or restoring) older content stamps that entry
 * anew (time, note) and makes it the newest. Writes are serialised: of two concurrent saves the later call
 * becomes current and both stay in history. A failed write leaves the previous state.
 */
export interface DefinitionStore {
  list(session?: string): Promise<StoredWorkflow[]>;
  get(session: string, workflowId: string): Promise<StoredWorkflow | null>;
  /** Stores the definition as current; `changed` is false when the version equals the current one. */
  save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }>;
  /** The workflow's history, newest first; empty when the workflow does not exist. */
  versions(session: string, workflowId: string): Promise<VersionEntry[]>;
  /** One version of the history, or null (also for a version dropped by retention). */
  getVersion(session: string, workflowId: string, version: string): Promise<StoredWorkflow | null>;
  /** Deletes a workflow with its history; false when it did not exist. */
  deleteWorkflow(session: string, workflowId: string): Promise<boolean>;

  listSessions(): Promise<StoredSession[]>;
  getSession(session: string): Promise<StoredSession | null>;
  /** Creates the session's settings or replaces them. */
  putSession(session: string, settings: SessionSettings): Promise<void>;
  /** Moves a session's settings and workflows (with history) to a new id. */
  renameSession(from: string, to: string): Promise<RenameOutcome>;
  /** Deletes a session's settings and workflows; false when it did not exist. */
  deleteSession(session: string): Promise<boolean>;
  /** Stores settings and every workflow as one write (see each implementation for crash behaviour). */
  applySession(session: string, settings: SessionSettings, workflows: readonly SessionWorkflowSave[]): Promise<Array<{ changed: boolean }>>;

  /** Releases files or connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** How many versions a save keeps: its `maxVersions`, else 20; never fewer than the current one. */
export function keptVersions(options: SaveOptions): number {
  return Math.max(1, Math.floor(options.maxVersions ?? DEFAULT_MAX_VERSIONS));
}
