// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toDefinition } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';
import { CHAIN, openStudio } from '../../test-support/open-app';
import { checkWorkflowFile, MAX_IMPORT_BYTES, workflowFileText } from './workflow-file';
import { createFileActions } from './file-actions';
import { createFakeStudioClient } from '../../test-support/fake-studio-client';

afterEach(cleanup);

const importFile = (file: File) => fireEvent.change(screen.getByTestId('import-file-input'), { target: { files: [file] } });
const jsonFile = (value: unknown, name = 'in.json') =>
  new File([typeof value === 'string' ? value : JSON.stringify(value)], name, { type: 'application/json' });

describe('STU-01 import refusal: nothing changes, the reason names code, node and path', () => {
  it.each([
    ['not JSON', jsonFile('{"workflowId": "x", nodes: ['), /IMPORT\/not-json/],
    ['not a workflow', jsonFile({ hello: 'world' }), /IMPORT\/not-a-workflow/],
    ['a schema error', jsonFile({ workflowId: 'x', nodes: [{ nodeId: 'a/b', type: 'TRANSFORM' }] }), /DEF-02\/schema · node "a\/b" at nodes\.0\.nodeId/],
    [
      'an invalid graph',
      jsonFile({
        workflowId: 'x',
        nodes: [
          { nodeId: 't', type: 'API_TRIGGER' },
          { nodeId: 'a', type: 'TRANSFORM' },
          { nodeId: 'b', type: 'TRANSFORM' },
        ],
        edges: [
          { source: 't', target: 'a' },
          { source: 'a', target: 'b' },
          { source: 'b', target: 'a' },
        ],
      }),
      /DEF-02\/cycle · node "[ab]" at edges/,
    ],
    [
      'an unknown port',
      jsonFile({
        workflowId: 'x',
        nodes: [
          { nodeId: 't', type: 'API_TRIGGER' },
          { nodeId: 'a', type: 'TRANSFORM' },
        ],
        edges: [{ source: 't', target: 'a', sourcePort: 'nope' }],
      }),
      /DEF-02\/unknown-port · node "t" at edges\.0\.sourcePort/,
    ],
  ])('refuses %s', async (_what, file, reason) => {
    const { fake } = await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    const before = useStudio.getState();
    importFile(file);
    const banner = await screen.findByTestId('import-error');
    expect(banner.textContent).toMatch(reason);
    expect(banner.textContent).toContain('Nothing was changed');
    const after = useStudio.getState();
    expect(after.nodes).toBe(before.nodes);
    expect(after.edges).toBe(before.edges);
    expect(after.workflowId).toBe('hello');
    expect(after.dirty).toBe(false);
    expect(fake.client['workflows.save']).not.toHaveBeenCalled();
  });

  it('refuses a file over 1 MiB without reading it', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    const big = new File(['x'.repeat(MAX_IMPORT_BYTES + 1)], 'big.json');
    importFile(big);
    expect((await screen.findByTestId('import-error')).textContent).toMatch(/IMPORT\/too-large: the file is 1\.0 MiB; a workflow file is at most 1\.0 MiB/);
    expect(useStudio.getState().workflowId).toBe('hello');
  });

  it("refuses what only the host finds (plugin config), with the host's issue", async () => {
    const { fake } = await openStudio('#/');
    fake.client['workflows.validate'] = async () => ({
      valid: false,
      issues: [
        {
          code: 'DEF-02/config',
          severity: 'error',
          message: 'node "shape" (TRANSFORM) config.mode: Invalid option',
          nodeId: 'shape',
          path: 'nodes.1.config.mode',
        },
      ],
    });
    importFile(jsonFile(CHAIN));
    expect((await screen.findByTestId('import-error')).textContent).toContain('DEF-02/config · node "shape" at nodes.1.config.mode');
    expect(useStudio.getState().nodes).toEqual([]);
  });
});

describe('STU-01 import and export', () => {
  it('imports a valid file as a new unsaved workflow; the graph equals the file', async () => {
    await openStudio('#/');
    importFile(jsonFile(CHAIN, 'hello.json'));
    await screen.findByTestId('node-shape');
    const state = useStudio.getState();
    expect(state).toMatchObject({ workflowId: 'hello', storedWorkflowId: null, dirty: true });
    expect(toDefinition(state)).toEqual(CHAIN);
  });

  it('asks before an import replaces unsaved changes; Cancel keeps them', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    useStudio.getState().setWorkflowId('hello-2');
    importFile(jsonFile({ ...CHAIN, workflowId: 'other' }));
    fireEvent.click(await screen.findByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(useStudio.getState().workflowId).toBe('hello-2');
  });

  it('exports <workflowId>.json holding the definition, which imports back unchanged', () => {
    const fake = createFakeStudioClient();
    useStudio.getState().openWorkflow('default', { definition: CHAIN, version: 'v0' });
    const downloads: Array<[string, string]> = [];
    createFileActions(fake.client, useStudio, (name, text) => downloads.push([name, text])).exportWorkflow();
    expect(downloads).toHaveLength(1);
    const [name, text] = downloads[0]!;
    expect(name).toBe('hello.json');
    expect(text).toBe(workflowFileText(CHAIN));
    const back = checkWorkflowFile(text, text.length);
    expect(back.ok && back.definition).toEqual(CHAIN);
  });
});
