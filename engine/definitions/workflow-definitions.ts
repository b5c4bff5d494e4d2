import { NotFoundError, ValidationError } from '../engine-errors';
import type { SaveResult, StoredWorkflow, WorkflowSummary, WorkflowVersion } from '../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import type { VersionId } from '../../shared/workflow/ids';
import { hasErrors, type ValidationIssue } from '../../shared/workflow/validation-issue';
import { diffWorkflows, type WorkflowDiff } from '../../shared/workflow/workflow-diff';
import type { PluginRegistry } from '../plugins/registry';
import type { Clock } from '../runtime/clock';
import type { DefinitionStore, SaveOptions } from '../store/definition-store';
import { definitionVersion } from './definition-version';
import { requireIdentifier, requireVersion } from './input-checks';
import { validateDefinition } from './validate-definition';

export interface WorkflowDefinitionsOptions {
  store: DefinitionStore;
  registry: PluginRegistry;
  clock: Clock;
  /** Newest versions kept per workflow (`yukta.definitions.max-versions`, 20). */
  maxVersions: number;
  /** Told the version a write replaced or deleted, so a prepared copy of it can be dropped (DEF-03). */
  replaced?: (version: string) => void;
}

/**
 * The definition side of the engine (DEF-01, DEF-02): validated saves, versions, restore, diff and
 * delete on top of a DefinitionStore. Errors are engine errors that name the field at fault.
 */
export class WorkflowDefinitions {
  constructor(private readonly options: WorkflowDefinitionsOptions) {}

  /**
   * The authoritative check: returns the parsed definition or throws VALIDATION_FAILED with every issue.
   * `at` prefixes issue paths when the definition sits inside a larger input (`workflows.2`).
   */
  validated(raw: unknown, at = ''): WorkflowDefinition {
    const { definition, issues } = validateDefinition(raw, this.options.registry);
    if (definition && !hasErrors(issues)) return definition;
    const located = at ? issues.map((i) => relocate(i, at)) : issues;
    const first = located.find((i) => i.severity === 'error');
    const where = at ? `${at}: ` : '';
    throw new ValidationError(`${where}workflow refused: ${first?.message ?? 'invalid definition'}`, located, first?.path);
  }

  /** How a definition is stored: its content hash, the clock's time, the note and the retention. */
  saveOptions(definition: WorkflowDefinition, note?: string): SaveOptions & { version: VersionId } {
    const options: SaveOptions & { version: VersionId } = {
      version: definitionVersion(definition),
      savedAt: this.options.clock.now(),
      maxVersions: this.options.maxVersions,
    };
    if (note !== undefined) options.note = note;
    return options;
  }

  /** Validates and stores a definition; an invalid one is refused and nothing is written. */
  async save(session: string, raw: unknown, note?: string): Promise<SaveResult> {
    requireIdentifier(session, 'session');
    const definition = this.validated(raw);
    const previous = await this.options.store.get(session, definition.workflowId);
    const options = this.saveOptions(definition, note);
    const { changed } = await this.options.store.save(session, definition, options);
    if (changed && previous) this.options.replaced?.(previous.version);
    return { workflowId: definition.workflowId, version: options.version, changed };
  }

  async get(session: string, workflowId: string): Promise<StoredWorkflow> {
    const stored = await this.options.store.get(requireIdentifier(session, 'session'), requireIdentifier(workflowId, 'workflowId'));
    if (!stored) throw new NotFoundError(`workflow "${workflowId}" does not exist in session "${session}"`, 'workflowId');
    return stored;
  }

  async list(session?: string): Promise<WorkflowSummary[]> {
    const all = await this.options.store.list(session === undefined ? undefined : requireIdentifier(session, 'session'));
    return all
      .map((w) => ({
        session: w.session,
        workflowId: w.definition.workflowId,
        description: w.definition.description,
        version: w.version,
        savedAt: w.savedAt,
        nodeCount: w.definition.nodes.length,
      }))
      .sort((a, b) => a.session.localeCompare(b.session) || a.workflowId.localeCompare(b.workflowId));
  }

  /** The workflow's versions, newest first, the current one marked. */
  async versions(session: string, workflowId: string): Promise<WorkflowVersion[]> {
    const current = await this.get(session, workflowId);
    const entries = await this.options.store.versions(session, workflowId);
    return entries.map((e) => ({ ...e, current: e.version === current.version }));
  }

  async getVersion(session: string, workflowId: string, version: string, field = 'version'): Promise<StoredWorkflow> {
    requireVersion(version, field);
    await this.get(session, workflowId);
    const stored = await this.options.store.getVersion(session, workflowId, version);
    if (!stored)
      throw new NotFoundError(`workflow "${workflowId}" has no saved version ${version.slice(0, 12)}… (never saved, or older than the versions kept)`, field);
    return stored;
  }

  /**
   * Saves an older version's graph as the current one. It is validated again (plugins may have changed
   * since); restoring the current version adds nothing (`changed: false`).
   */
  async restore(session: string, workflowId: string, version: string, note?: string): Promise<SaveResult> {
    const old = await this.getVersion(session, workflowId, version);
    return this.save(session, old.definition, note ?? `restored version ${version.slice(0, 12)}`);
  }

  /** What changed from version `from` to version `to` (see shared/workflow/workflow-diff.ts). */
  async diff(session: string, workflowId: string, from: string, to: string): Promise<WorkflowDiff> {
    const before = await this.getVersion(session, workflowId, from, 'from');
    const after = await this.getVersion(session, workflowId, to, 'to');
    return diffWorkflows(before.definition, after.definition);
  }

  /** Deletes a workflow and its history. Runs already started keep their own copy of the graph. */
  async delete(session: string, workflowId: string): Promise<{ deleted: true }> {
    const current = await this.get(session, workflowId);
    if (!(await this.options.store.deleteWorkflow(session, workflowId))) {
      throw new NotFoundError(`workflow "${workflowId}" does not exist in session "${session}"`, 'workflowId');
    }
    this.options.replaced?.(current.version);
    return { deleted: true };
  }
}

function relocate(issue: ValidationIssue, at: string): ValidationIssue {
  return { ...issue, path: issue.path ? `${at}.${issue.path}` : at };
}
