import { vi } from 'vitest';
import { ControlCommand, type Approval, type ControlAuditEntry, type ControlCommandInput, type ControlResult } from '../../shared/api/control.schema';
import { StudioApiError } from '../../shared/api/errors';
import type { RecordedNode, RecordedSummary } from '../../shared/api/runs.schema';
import { SupervisorRules, type SupervisorRule } from '../../shared/api/supervisors.schema';

/**
 * The control-plane operations of the renderer's fake host (CTL-01…08): commands are recorded and
 * audited as applied; approvals are whatever the test puts in `approvals`.
 */
export function createFakeControl() {
  const state = {
    commands: [] as Array<{ executionId: string; command: ControlCommand }>,
    audit: [] as ControlAuditEntry[],
    approvals: [] as Approval[],
    rules: new Map<string, SupervisorRule[]>(),
    /** `runs.recorded` answers by `executionId/nodeId`, and `runs.recordedSummary` by run (STU-04). */
    recorded: new Map<string, RecordedNode>(),
    summaries: new Map<string, RecordedSummary>(),
  };
  let at = 0;
  const apply = (executionId: string, input: ControlCommandInput): ControlResult => {
    const command = ControlCommand.parse(input);
    state.commands.push({ executionId, command });
    state.audit.unshift({ runId: executionId, type: 'CONTROL_APPLIED', status: command.type, actor: 'ui:local', at: ++at });
    return command.type === 'Signal' ? { executionId, command: command.type, at, signal: 'ACCEPTED' } : { executionId, command: command.type, at };
  };
  const ops = {
    'control.send': vi.fn(async ({ executionId, command }: { executionId: string; command: ControlCommandInput }) => apply(executionId, command)),
    'control.state': vi.fn(async ({ executionId }: { executionId: string }) => ({ executionId, live: false, paused: false, stepMode: false, nodes: [] })),
    'control.audit': vi.fn(async ({ executionId }: { executionId?: string }) => {
      const entries = state.audit.filter((e) => executionId === undefined || e.runId === executionId);
      return { entries, total: entries.length };
    }),
    'approvals.list': vi.fn(async () => [...state.approvals]),
    'signals.send': vi.fn(
      async ({ executionId, nodeId, decision = 'APPROVE', data }: { executionId: string; nodeId: string; decision?: 'APPROVE' | 'REJECT'; data?: unknown }) =>
        apply(executionId, { type: 'Signal', nodeId, decision, data }),
    ),
    'supervisors.list': vi.fn(async () => []),
    'supervisors.getRules': vi.fn(async ({ session }: { session: string }) => state.rules.get(session) ?? []),
    'supervisors.setRules': vi.fn(async ({ session, rules }: { session: string; rules: unknown }) => {
      const parsed = SupervisorRules.parse(rules);
      state.rules.set(session, parsed);
      return parsed;
    }),
    'runs.recorded': vi.fn(async ({ executionId, nodeId }: { executionId: string; nodeId: string }) => {
      const empty = { total: 0, messages: [], end: null, overCap: null };
      return state.recorded.get(`${executionId}/${nodeId}`) ?? { executionId, nodeId, outputs: empty, inputs: [] };
    }),
    'runs.recordedSummary': vi.fn(async ({ executionId }: { executionId: string }) => {
      const summary = state.summaries.get(executionId);
      if (!summary) throw new StudioApiError('NOT_FOUND', `run "${executionId}" is not in the run archive`);
      return summary;
    }),
    'plugins.control': vi.fn(async ({ kind }: { kind: string }) => ({ kind, runs: 0, delivered: 0, answers: [] })),
  };
  return { state, ops };
}
