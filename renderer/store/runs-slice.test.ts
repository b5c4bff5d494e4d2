// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../shared/api/runs.schema';
import { applyStatusChanges, mergeRunLists } from './runs-slice';

const run = (executionId: string, createdAt: number, status: RunSummary['status'] = 'PENDING'): RunSummary => ({
  executionId,
  session: 'default',
  workflowId: 'w',
  definitionVersion: 'v1',
  status,
  createdAt,
});
const change = (executionId: string, status: RunSummary['status'], at: number) => ({
  executionId,
  session: 'default',
  workflowId: 'w',
  definitionVersion: 'v1',
  status,
  at,
});

describe('STU-03 run list', () => {
  it('applies EXECUTION_STATUS forward-only and records start and end times', () => {
    let runs = [run('r1', 1)];
    runs = applyStatusChanges(runs, [change('r1', 'RUNNING', 10), change('r1', 'SUCCESS', 25)], 'default', 'w');
    expect(runs[0]).toMatchObject({ status: 'SUCCESS', startedAt: 10, endedAt: 25 });
    expect(applyStatusChanges(runs, [change('r1', 'RUNNING', 30)], 'default', 'w')).toBe(runs);
  });

  it('adds runs of the open workflow started elsewhere, newest first, and ignores other workflows', () => {
    const runs = applyStatusChanges([run('r1', 1)], [change('r2', 'PENDING', 5), { ...change('x', 'PENDING', 6), workflowId: 'other' }], 'default', 'w');
    expect(runs.map((r) => r.executionId)).toEqual(['r2', 'r1']);
  });

  it('a stale list refresh never moves a run backwards', () => {
    const merged = mergeRunLists([run('r1', 1, 'SUCCESS')], [run('r1', 1, 'RUNNING')]);
    expect(merged[0]!.status).toBe('SUCCESS');
  });
});
