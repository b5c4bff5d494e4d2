import { SCHEDULER_RUN } from '../../shared/api/control.schema';
import { StudioApiError } from '../../shared/api/errors';
import { roleAllows } from '../../shared/api/roles';
import { SchedulerLimits, SetPriorityResult } from '../../shared/api/scheduler.schema';
import type { Engine } from '../../engine/index';
import type { OperationHandlers } from './operation-handlers';

type ControlOperations =
  | 'control.send'
  | 'control.state'
  | 'control.audit'
  | 'approvals.list'
  | 'signals.send'
  | 'supervisors.list'
  | 'supervisors.getRules'
  | 'supervisors.setRules'
  | 'plugins.control'
  | 'runs.setPriority'
  | 'runs.recorded'
  | 'runs.recordedSummary'
  | 'scheduler.setLimits';

/**
 * The control plane's operations (CTL-01…08). Limit and priority changes go through the same command
 * pipeline as every other change (ordered, reviewed, audited); a limit or setting change needs ADMIN also
 * when sent as a SetLimits or SetSetting command (ADM-03, CFG-01).
 */
export function createControlHandlers(engine: Engine): Pick<OperationHandlers, ControlOperations> {
  const control = engine.control;
  return {
    'control.send': async ({ executionId, command }, caller) => {
      if ((command.type === 'SetLimits' || command.type === 'SetSetting') && !roleAllows(caller.role, 'ADMIN')) {
        throw new StudioApiError('FORBIDDEN', `${command.type} needs role ADMIN; ${caller.actor} has ${caller.role}`, 'command.type');
      }
      return control.send(executionId, command, caller.actor);
    },
    'control.state': async ({ executionId }) => control.state(executionId),
    'control.audit': async (query) => control.audit(query),
    'approvals.list': async ({ executionId, limit }) => control.approvals({ executionId, limit }),
    'signals.send': async ({ executionId, nodeId, decision, data }, caller) =>
      control.send(executionId, { type: 'Signal', nodeId, decision, data }, caller.actor),
    'supervisors.list': async () => control.listSupervisors(),
    'supervisors.getRules': async ({ session }) => control.getRules(session),
    'supervisors.setRules': ({ session, rules }) => control.saveRules(session, rules),
    'plugins.control': async ({ session, workflowId, nodeId, kind, body }) => control.pluginControl({ session, workflowId, nodeId }, { kind, body }),
    'runs.recorded': async ({ executionId, nodeId, offset, limit }) => control.recorded(executionId, nodeId, { offset, limit }),
    'runs.recordedSummary': async ({ executionId }) => control.recordedSummary(executionId),
    'runs.setPriority': async ({ executionId, priority }, caller) =>
      SetPriorityResult.parse((await control.send(executionId, { type: 'SetPriority', priority }, caller.actor)).value),
    'scheduler.setLimits': async (limits, caller) =>
      SchedulerLimits.parse((await control.send(SCHEDULER_RUN, { type: 'SetLimits', limits }, caller.actor)).value),
  };
}
