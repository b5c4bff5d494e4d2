import { afterEach, describe, expect, it } from 'vitest';
import { closeHosts, failure, openHost } from './host-test-support';

afterEach(closeHosts);

const waiting = {
  workflowId: 'gate',
  nodes: [
    { nodeId: 'in', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'in', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

describe('issue 15 item 11: workflows.delete (ADMIN, audited, refused while runs are going)', () => {
  it('refuses while a run of the workflow is still going and deletes nothing; deletes once it ended, audited with the actor', async () => {
    const { host, api } = openHost();
    await api['workflows.save']({ definition: waiting });
    const { executionId } = await api['runs.start']({ workflowId: 'gate', payload: {} });
    await expect.poll(async () => (await api['approvals.list']({})).length).toBe(1);

    const refused = await failure(api['workflows.delete']({ workflowId: 'gate' }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.path).toBe('workflowId');
    expect(refused.message).toContain(`has 1 run(s) still going (${executionId.slice(0, 8)}): stop them first`);
    expect((await api['workflows.list']({})).map((w) => w.workflowId)).toEqual(['gate']);

    await api['control.send']({ executionId, command: { type: 'StopWorkflow', mode: 'CANCEL' } });
    expect(await host.engine.waitForRun(executionId)).toBe('CANCELLED');
    expect(await api['workflows.delete']({ workflowId: 'gate' })).toEqual({ deleted: true });
    expect(await api['workflows.list']({})).toEqual([]);
    // Finished runs stay in the history.
    expect((await api['runs.get']({ executionId })).status).toBe('CANCELLED');
    const audit = await api['control.audit']({ limit: 10, offset: 0 });
    expect(audit.entries[0]).toMatchObject({ runId: 'workflow:default/gate', type: 'CONTROL_APPLIED', status: 'DeleteWorkflow', actor: 'ui:local' });
  });

  it('a workflow that does not exist is NOT_FOUND and audits nothing', async () => {
    const { api } = openHost();
    expect((await failure(api['workflows.delete']({ workflowId: 'nope' }))).code).toBe('NOT_FOUND');
    expect((await api['control.audit']({ limit: 10, offset: 0 })).total).toBe(0);
  });
});
