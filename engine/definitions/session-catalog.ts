import { BadInputError, ConflictError, NotFoundError } from '../engine-errors';
import {
  DEFAULT_EXECUTION_TIMEOUT_SECONDS,
  ExecutionTimeoutSeconds,
  type ApplySessionResult,
  type SessionConfig,
  type SessionSummary,
} from '../../shared/api/sessions.schema';
import { DEFAULT_SESSION } from '../../shared/workflow/identifier';
import type { DefinitionStore, SessionWorkflowSave, StoredSession } from '../store/definition-store';
import { requireIdentifier } from './input-checks';
import type { WorkflowDefinitions } from './workflow-definitions';

export interface SessionCatalogOptions {
  store: DefinitionStore;
  workflows: WorkflowDefinitions;
  /** True while runs of the session are live: renaming or deleting it is refused then. */
  hasLiveRuns: (session: string) => boolean;
  /** Told the version a configuration replaced, so a prepared copy of it can be dropped (DEF-03). */
  replaced?: (version: string) => void;
}

/**
 * Sessions (DUR-05): namespaces of workflows with a default execution timeout. `default` always exists.
 * A session also comes into being when a workflow is first saved into it (with the default timeout).
 */
export class SessionCatalog {
  constructor(private readonly options: SessionCatalogOptions) {}

  async list(): Promise<SessionSummary[]> {
    const stored = await this.options.store.listSessions();
    const all = stored.some((s) => s.session === DEFAULT_SESSION) ? stored : [emptySession(DEFAULT_SESSION), ...stored];
    return all.map(summary).sort((a, b) => a.session.localeCompare(b.session));
  }

  async get(session: string): Promise<SessionSummary> {
    const stored = await this.options.store.getSession(requireIdentifier(session, 'session'));
    if (stored) return summary(stored);
    if (session === DEFAULT_SESSION) return summary(emptySession(session));
    throw new NotFoundError(`session "${session}" does not exist`, 'session');
  }

  /** The run deadline of the session's runs, in milliseconds (3600 s unless the session sets one). */
  async timeoutMs(session: string): Promise<number> {
    const stored = await this.options.store.getSession(session);
    return (stored?.settings?.defaultExecutionTimeoutSeconds ?? DEFAULT_EXECUTION_TIMEOUT_SECONDS) * 1000;
  }

  async create(session: string, defaultExecutionTimeoutSeconds = DEFAULT_EXECUTION_TIMEOUT_SECONDS): Promise<SessionSummary> {
    requireIdentifier(session, 'session');
    const seconds = requireTimeout(defaultExecutionTimeoutSeconds);
    if (session === DEFAULT_SESSION || (await this.options.store.getSession(session))) {
      throw new ConflictError(`session "${session}" already exists`, 'session');
    }
    await this.options.store.putSession(session, { defaultExecutionTimeoutSeconds: seconds });
    return this.get(session);
  }

  /** Moves the session's settings and workflows (with their history) to `newSession`. */
  async rename(session: string, newSession: string): Promise<SessionSummary> {
    requireIdentifier(newSession, 'newSession');
    this.refuseDefault(session, 'renamed');
    if (session === newSession) throw new BadInputError('newSession: is the same as session', 'BAD_INPUT', 'newSession');
    this.refuseWhileLive(session, 'renamed');
    if (newSession === DEFAULT_SESSION) throw new ConflictError(`session "${newSession}" already exists`, 'newSession');
    const outcome = await this.options.store.renameSession(session, newSession);
    if (outcome === 'not-found') throw new NotFoundError(`session "${session}" does not exist`, 'session');
    if (outcome === 'exists') throw new ConflictError(`session "${newSession}" already exists`, 'newSession');
    return this.get(newSession);
  }

  /** Deletes the session with its workflows and their history. */
  async delete(session: string): Promise<{ deleted: true }> {
    this.refuseDefault(session, 'deleted');
    this.refuseWhileLive(session, 'deleted');
    const versions = (await this.options.store.list(session)).map((w) => w.version);
    if (!(await this.options.store.deleteSession(session))) throw new NotFoundError(`session "${session}" does not exist`, 'session');
    for (const v of versions) this.options.replaced?.(v);
    return { deleted: true };
  }

  /**
   * Applies a session configuration: checks every workflow first (DEF-02, paths like
   * `workflows.2.nodes.0.type`), then stores the settings and all workflows in one store write, or
   * nothing. Workflows the configuration does not name stay as they are.
   */
  async apply(config: SessionConfig): Promise<ApplySessionResult> {
    const session = requireIdentifier(config.session, 'session');
    const seconds = requireTimeout(config.defaultExecutionTimeoutSeconds);
    const definitions = config.workflows.map((raw, i) => this.options.workflows.validated(raw, `workflows.${i}`));
    const seen = new Map<string, number>();
    definitions.forEach((d, i) => {
      const first = seen.get(d.workflowId);
      if (first !== undefined)
        throw new BadInputError(`workflows.${i}.workflowId: "${d.workflowId}" is also workflows.${first}`, 'BAD_INPUT', `workflows.${i}.workflowId`);
      seen.set(d.workflowId, i);
    });
    const existed = session === DEFAULT_SESSION || (await this.options.store.getSession(session)) !== null;
    const previous = new Map((await this.options.store.list(session)).map((w) => [w.definition.workflowId, w.version]));
    const saves = definitions.map((definition) => ({
      definition,
      options: this.options.workflows.saveOptions(definition, config.note),
    })) satisfies SessionWorkflowSave[];
    const results = await this.options.store.applySession(session, { defaultExecutionTimeoutSeconds: seconds }, saves);
    saves.forEach((s, i) => {
      const old = previous.get(s.definition.workflowId);
      if (results[i]?.changed && old !== undefined) this.options.replaced?.(old);
    });
    return {
      session: await this.get(session),
      created: !existed,
      workflows: saves.map((s, i) => ({ workflowId: s.definition.workflowId, version: s.options.version, changed: results[i]?.changed ?? false })),
    };
  }

  private refuseDefault(session: string, what: string): void {
    requireIdentifier(session, 'session');
    if (session === DEFAULT_SESSION) throw new BadInputError(`session: the default session "${DEFAULT_SESSION}" cannot be ${what}`, 'BAD_INPUT', 'session');
  }

  private refuseWhileLive(session: string, what: string): void {
    if (this.options.hasLiveRuns(session)) {
      throw new ConflictError(`session "${session}" has live runs; it can be ${what} once they end (or are cancelled)`, 'session');
    }
  }
}

function summary(stored: StoredSession): SessionSummary {
  return {
    session: stored.session,
    workflowCount: stored.workflowCount,
    defaultExecutionTimeoutSeconds: stored.settings?.defaultExecutionTimeoutSeconds ?? DEFAULT_EXECUTION_TIMEOUT_SECONDS,
  };
}

function emptySession(session: string): StoredSession {
  return { session, workflowCount: 0, settings: null };
}

function requireTimeout(seconds: number): number {
  const parsed = ExecutionTimeoutSeconds.safeParse(seconds);
  if (!parsed.success)
    throw new BadInputError(`defaultExecutionTimeoutSeconds: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'BAD_INPUT', 'defaultExecutionTimeoutSeconds');
  return parsed.data;
}
