import type { PluginServices } from '../../plugins/services';
import { readStartOptions } from '../../scheduler/start-options';
import { childBudget, withTimeBudget } from '../../scheduler/time-budget';
import { checkStartPayload } from '../../security/message-size';
import { checkDebug } from '../run-debug';
import type { DefinitionResolver } from './definition-resolver';
import type { PreparedStart, RunSpec, StartPlan, StartRequest } from './start-types';

/**
 * Step 1 of a caller's start: the payload checked (size, `yukta.*` scheduling keys), the definition and
 * version resolved and prepared with the start's time budget, the debug settings checked against it (before
 * any slot is taken), and the session's run deadline.
 */
export async function resolveStart(resolver: DefinitionResolver, request: StartRequest, services: PluginServices | null): Promise<StartPlan> {
  checkStartPayload(request.payload, services?.limits.maxMessageBytes, services?.limits.maxDepth);
  const options = readStartOptions(request.payload);
  const prepared = withTimeBudget(await resolver.prepared(request.session, request.workflowId, request.payload), options.timeBudgetMs);
  if (request.debug) checkDebug(prepared, request.debug);
  const deadlineMs = await resolver.deadlineMs(request.session);
  return {
    session: request.session,
    workflowId: request.workflowId,
    payload: request.payload,
    prepared,
    deadlineMs,
    timeBudgetMs: options.timeBudgetMs,
    collectResults: false,
    debug: request.debug,
    admission: options,
  };
}

/**
 * Step 1 of a restart, restart-from-node, retry or resume: the graph is given (the archived version or a
 * replay graph); the payload's scheduling keys, the time budget and the session's deadline still apply.
 */
export async function resolvePreparedStart(resolver: DefinitionResolver, start: PreparedStart): Promise<StartPlan> {
  const options = readStartOptions(start.payload);
  const resume = start.resume;
  const deadlineMs = await resolver.deadlineMs(start.session);
  return {
    session: start.session,
    workflowId: start.workflowId,
    payload: start.payload,
    prepared: withTimeBudget(start.prepared, options.timeBudgetMs),
    deadlineMs,
    timeBudgetMs: options.timeBudgetMs,
    collectResults: false,
    admission: options,
    unrecorded: resume?.unrecorded,
    origin: resume ? { resumedFrom: resume.from, scope: resume.scope, inputs: resume.inputs } : undefined,
    beforeBuild: resume ? (executionId) => resume.beforeBuild(executionId) : undefined,
  };
}

/** Step 1 of a sub-workflow's run (ENG-07): its definition, its parent's budget (its own may only shorten it), its session's deadline. */
export async function resolveChild(
  resolver: DefinitionResolver,
  child: { session: string; workflowId: string; payload: Record<string, unknown> },
  parentBudgetMs: number | undefined,
): Promise<RunSpec> {
  const timeBudgetMs = childBudget(parentBudgetMs, readStartOptions(child.payload).timeBudgetMs);
  const prepared = withTimeBudget(await resolver.prepared(child.session, child.workflowId, child.payload), timeBudgetMs);
  const deadlineMs = await resolver.deadlineMs(child.session);
  return { ...child, prepared, deadlineMs, timeBudgetMs, collectResults: true };
}
