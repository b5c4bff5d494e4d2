import { BadInputError, NotFoundError, ValidationError } from '../../engine-errors';
import type { StoredWorkflow } from '../../../shared/api/workflows.schema';
import { hasErrors } from '../../../shared/workflow/validation-issue';
import { PreparationCache } from '../../definitions/preparation-cache';
import { validateDefinition } from '../../definitions/validate-definition';
import type { PluginRegistry } from '../../plugins/registry';
import type { DefinitionStore } from '../../store/definition-store';
import { prepareWorkflow, type NodePlacement, type PreparedWorkflow } from '../prepared-workflow';
import { DEFAULT_RUN_TIMEOUT_MS, VERSION_KEY } from './start-types';

export interface DefinitionResolverOptions {
  registry: PluginRegistry;
  definitions: DefinitionStore;
  /** Remote processors for nodes with `engine.placement` (SCL-01), chosen at preparation. */
  placement?: NodePlacement | undefined;
}

/**
 * The first step of a start (DEF-01, DEF-03): the definition to run — the current one through the
 * content-keyed preparation cache, or the saved version named by `yukta.version` (which bypasses it) —
 * checked again and prepared; and the session's run deadline (ENG-05, DUR-05).
 */
export class DefinitionResolver {
  private readonly preparations = new PreparationCache();

  constructor(private readonly options: DefinitionResolverOptions) {}

  /**
   * The prepared workflow a start payload asks for. When the current version is already prepared, only the
   * version list is read, not the whole definition.
   */
  async prepared(session: string, workflowId: string, payload: Record<string, unknown>): Promise<PreparedWorkflow> {
    const pinned = payload[VERSION_KEY];
    if (pinned !== undefined) return this.prepare(await this.pinnedVersion(session, workflowId, pinned), workflowId);
    const head = (await this.options.definitions.versions(session, workflowId))[0];
    const cached = head && this.preparations.peek(head.version);
    if (cached) return cached;
    const stored = await this.current(session, workflowId);
    return this.preparations.get(stored.version, () => this.prepare(stored, workflowId));
  }

  /** A saved version of a workflow, prepared (DUR-03 resume, CTL-04 archive entries rebuilt after a restart). */
  async preparedVersion(session: string, workflowId: string, version: string): Promise<PreparedWorkflow> {
    const cached = this.preparations.peek(version);
    if (cached) return cached;
    const stored = await this.pinnedVersion(session, workflowId, version);
    return this.preparations.get(stored.version, () => this.prepare(stored, workflowId));
  }

  /** The session's default execution timeout, or 3600 s. */
  async deadlineMs(session: string): Promise<number> {
    const stored = await this.options.definitions.getSession(session);
    const seconds = stored?.settings?.defaultExecutionTimeoutSeconds;
    return seconds === undefined ? DEFAULT_RUN_TIMEOUT_MS : seconds * 1000;
  }

  /** Forgets the prepared copy of a version that a save, restore, delete or session configuration replaced. */
  dropPrepared(version: string): void {
    this.preparations.drop(version);
  }

  stats(): { hits: number; misses: number; size: number } {
    return this.preparations.stats();
  }

  private async current(session: string, workflowId: string): Promise<StoredWorkflow> {
    const stored = await this.options.definitions.get(session, workflowId);
    if (!stored) throw new NotFoundError(`workflow "${workflowId}" does not exist in session "${session}"`, 'workflowId');
    return stored;
  }

  private async pinnedVersion(session: string, workflowId: string, version: unknown): Promise<StoredWorkflow> {
    if (typeof version !== 'string' || !/^[0-9a-f]{64}$/.test(version)) {
      throw new BadInputError(`payload.${VERSION_KEY} must be a saved version (64 hex characters)`, 'BAD_INPUT', `payload.${VERSION_KEY}`);
    }
    const stored = await this.options.definitions.getVersion(session, workflowId, version);
    if (!stored) throw new NotFoundError(`workflow "${workflowId}" has no saved version ${version.slice(0, 12)}`, `payload.${VERSION_KEY}`);
    return stored;
  }

  /** Checks the stored graph again (the plugin registry may have changed since it was saved) and prepares it. */
  private prepare(stored: StoredWorkflow, workflowId: string): PreparedWorkflow {
    const { registry } = this.options;
    const { definition, issues } = validateDefinition(stored.definition, registry);
    if (!definition || hasErrors(issues)) {
      throw new ValidationError(`workflow "${workflowId}" cannot run: ${issues[0]?.message ?? 'invalid'}`, issues);
    }
    if (!definition.nodes.some((n) => registry.get(n.type)?.kind === 'trigger')) {
      throw new BadInputError(`workflow "${workflowId}" has no trigger, so it cannot be started`, 'BAD_INPUT', 'workflowId');
    }
    return prepareWorkflow(definition, stored.version, registry, this.options.placement);
  }
}
