import type { SubWorkflowResult, SubWorkflowRunner } from '../../plugins/contract';
import { BadInputError } from '../errors';
import type { RunLauncher } from '../run-launcher';
import type { DefinitionResolver } from './definition-resolver';
import { newExecutionId } from './execution-id';
import { resolveChild } from './resolve-start';
import type { RunFactory } from './run-factory';
import { DEPTH_KEY, MAX_DEPTH, PARENT_KEY } from './start-types';

/** What a child run inherits from the run whose node starts it. */
export interface ParentRun {
  readonly executionId: string;
  readonly session: string;
  /** The parent's nesting level (0 for a caller's run). */
  readonly depth: number;
  readonly timeBudgetMs: number | undefined;
}

export interface SubWorkflowsOptions {
  resolver: DefinitionResolver;
  factory: RunFactory;
  registry: RunLauncher;
}

/**
 * Sub-workflows (ENG-07): a child is a normal run with its own id, one level deeper, that enters the start
 * pipeline after admission — it runs on its parent's slot (never queued, so a parent waiting on children
 * cannot starve them) and is neither recorded in the execution log nor archived. Cancelling the node
 * cancels the child; a child that does not end SUCCESS fails the node.
 */
export class SubWorkflows {
  constructor(private readonly options: SubWorkflowsOptions) {}

  /** The `ctx.runWorkflow` of a run's plugins. */
  runnerFor(parent: ParentRun): SubWorkflowRunner {
    return (request, signal) => this.run(parent, request, signal);
  }

  private async run(parent: ParentRun, request: Parameters<SubWorkflowRunner>[0], signal: AbortSignal): Promise<SubWorkflowResult> {
    const depth = parent.depth + 1;
    if (depth > MAX_DEPTH) throw new BadInputError(`sub-workflow "${request.workflowId}" would nest ${depth} levels deep (at most ${MAX_DEPTH})`);
    const payload = { ...request.payload, [DEPTH_KEY]: depth, [PARENT_KEY]: parent.executionId };
    const spec = await resolveChild(
      this.options.resolver,
      { session: request.session ?? parent.session, workflowId: request.workflowId, payload },
      parent.timeBudgetMs,
    );
    const executionId = newExecutionId();
    const child = this.options.factory.create(
      executionId,
      spec,
      this.runnerFor({ executionId, session: spec.session, depth, timeBudgetMs: spec.timeBudgetMs }),
    );
    child.announce();
    this.options.registry.track(child, null);
    const onAbort = () => child.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const status = await child.done;
      if (status !== 'SUCCESS') throw new Error(`sub-workflow "${request.workflowId}" (${child.executionId}) ended ${status}`);
      return { executionId: child.executionId, results: child.results };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
