import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BREAKPOINTS_FILE } from './breakpoint-store';
import { closeHosts, failure, greeter, openHost, tempDataDir } from './host-test-support';

afterEach(closeHosts);

describe('STU-04 breakpoints persist per workflow outside the definition (issue 15 item 8)', () => {
  it('keeps them across a restart of the host, and setting them makes no version', async () => {
    const dataDir = await tempDataDir();
    const first = openHost({ dataDir });
    await first.api['workflows.save']({ definition: greeter() });
    const list = [
      { nodeId: 'greet', enabled: true, condition: null },
      { nodeId: 'print', enabled: false, condition: { path: 'payload.name', equals: 'Ada' } },
    ];
    expect(await first.api['breakpoints.set']({ workflowId: 'hello', breakpoints: list })).toEqual({ breakpoints: list });
    expect(await first.api['workflows.versions']({ workflowId: 'hello' })).toHaveLength(1);
    await first.host.close();

    const second = openHost({ dataDir });
    expect(await second.api['breakpoints.get']({ workflowId: 'hello' })).toEqual({ breakpoints: list });
    expect(await second.api['breakpoints.get']({ workflowId: 'other' })).toEqual({ breakpoints: [] });
  });

  it('keeps each workflow apart, and an empty list removes the entry', async () => {
    const { api } = openHost();
    await api['breakpoints.set']({ workflowId: 'a', breakpoints: [{ nodeId: 'n1', enabled: true, condition: null }] });
    await api['breakpoints.set']({ session: 'default', workflowId: 'b', breakpoints: [{ nodeId: 'n2', enabled: true, condition: null }] });
    expect((await api['breakpoints.get']({ workflowId: 'a' })).breakpoints.map((b) => b.nodeId)).toEqual(['n1']);
    await api['breakpoints.set']({ workflowId: 'a', breakpoints: [] });
    expect(await api['breakpoints.get']({ workflowId: 'a' })).toEqual({ breakpoints: [] });
    expect((await api['breakpoints.get']({ workflowId: 'b' })).breakpoints.map((b) => b.nodeId)).toEqual(['n2']);
  });

  it('refuses a bad condition path or a node named twice, naming the field, and keeps what was there', async () => {
    const { api } = openHost();
    await api['breakpoints.set']({ workflowId: 'w', breakpoints: [{ nodeId: 'n', enabled: true, condition: null }] });
    const badPath = await failure(
      api['breakpoints.set']({ workflowId: 'w', breakpoints: [{ nodeId: 'n', enabled: true, condition: { path: 'body.x', equals: '1' } }] }),
    );
    expect(badPath.code).toBe('BAD_INPUT');
    expect(badPath.path).toBe('breakpoints.0.condition.path');
    const twice = await failure(
      api['breakpoints.set']({
        workflowId: 'w',
        breakpoints: [
          { nodeId: 'n', enabled: true, condition: null },
          { nodeId: 'n', enabled: false, condition: null },
        ],
      }),
    );
    expect(twice.message).toMatch(/names a node twice/);
    expect(await api['breakpoints.get']({ workflowId: 'w' })).toEqual({ breakpoints: [{ nodeId: 'n', enabled: true, condition: null }] });
  });

  it('a breakpoints file that does not parse stops the host with its name instead of being overwritten', async () => {
    const dataDir = await tempDataDir();
    writeFileSync(join(dataDir, BREAKPOINTS_FILE), '{"version": 1, "workflows": {"default/x": [{"node": 1}]}}');
    expect(() => openHost({ dataDir })).toThrow(/breakpoints\.json is not a breakpoints file/);
  });
});
