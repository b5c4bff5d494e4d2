import type { OperationName, OperationOutput, ParsedInput } from '../../shared/api/contract';
import type { Caller } from '../../shared/api/roles';
import type { Engine } from '../../engine/index';
import { SINGLE_SERVER_STATUS, type HaStatus } from '../../shared/api/ha.schema';
import type { BreakpointStore } from './breakpoint-store';
import { createControlHandlers } from './control-handlers';
import { waitForRunEnd } from './run-wait';
import { createSecurityHandlers, type SecurityServices } from './security-handlers';
import type { SettingsService } from './settings-service';
import { deleteWorkflow } from './workflow-delete';

export type OperationHandler<K extends OperationName> = (input: ParsedInput<K>, caller: Caller) => Promise<OperationOutput<K>>;

/** One handler per operation; a missing operation fails to compile. */
export type OperationHandlers = { [K in OperationName]: OperationHandler<K> };

/** The StudioApi implemented on the engine. */
export function createOperationHandlers(
  engine: Engine,
  security: SecurityServices,
  settings: SettingsService,
  breakpoints: BreakpointStore,
  haStatus: () => HaStatus = () => SINGLE_SERVER_STATUS,
): OperationHandlers {
  return {
    'nodeTypes.list': async () => engine.nodeTypes(),
    'workflows.list': async ({ session }) => engine.listWorkflows(session),
    'workflows.get': async ({ session, workflowId }) => engine.getWorkflow(session, workflowId),
    'workflows.save': async ({ session, definition, note }) => engine.saveWorkflow(session, definition, note),
    'workflows.validate': async ({ definition }) => engine.validate(definition),
    'workflows.versions': async ({ session, workflowId }) => engine.workflows.versions(session, workflowId),
    'workflows.getVersion': async ({ session, workflowId, version }) => engine.workflows.getVersion(session, workflowId, version),
    'workflows.restore': async ({ session, workflowId, version, note }) => engine.workflows.restore(session, workflowId, version, note),
    'workflows.diff': async ({ session, workflowId, from, to }) => engine.workflows.diff(session, workflowId, from, to),
    'workflows.delete': async ({ session, workflowId }, caller) => deleteWorkflow(engine, session, workflowId, caller.actor),
    'sessions.list': async () => engine.sessions.list(),
    'sessions.create': async ({ session, defaultExecutionTimeoutSeconds }) => engine.sessions.create(session, defaultExecutionTimeoutSeconds),
    'sessions.rename': async ({ session, newSession }) => engine.sessions.rename(session, newSession),
    'sessions.delete': async ({ session }) => engine.sessions.delete(session),
    'sessions.applyConfig': async (config) => engine.sessions.apply(config),
    'runs.start': async ({ session, workflowId, payload, idempotencyKey, debug }) => engine.startRun({ session, workflowId, payload, idempotencyKey, debug }),
    // Runs older than the tracker keeps are read back from the durable execution log (DUR-01).
    'runs.get': async ({ executionId }) => engine.findRun(executionId),
    'runs.wait': async ({ executionId, timeoutSeconds }) => waitForRunEnd(engine, executionId, timeoutSeconds),
    'runs.resume': async ({ executionId }, caller) => engine.resumeRun(executionId, caller.actor),
    'runs.list': async (query) => engine.listRuns(query),
    'scheduler.get': async ({ limit }) => engine.schedulerView(limit),
    'metrics.get': async () => engine.metrics.snapshot(engine.clock.now()),
    'ha.status': async () => haStatus(),
    'workers.list': async () => engine.workersView(),
    'workers.attempts': async ({ executionId, nodeId }) => {
      engine.getRun(executionId); // NOT_FOUND for a run the host does not know
      return engine.remoteAttempts(executionId, nodeId);
    },
    'triggers.list': async ({ session, workflowId }) => engine.triggers.view({ session, workflowId }),
    'settings.get': async () => settings.view(),
    'settings.set': async ({ key, value }, caller) => settings.set(key, value, caller),
    'breakpoints.get': async ({ session, workflowId }) => ({ breakpoints: breakpoints.get(session, workflowId) }),
    'breakpoints.set': async ({ session, workflowId, breakpoints: list }) => ({ breakpoints: breakpoints.set(session, workflowId, list) }),
    ...createControlHandlers(engine),
    ...createSecurityHandlers(security),
  };
}
