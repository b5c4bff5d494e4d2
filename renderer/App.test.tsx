// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../shared/workflow/definition.schema';
import { App } from './App';
import { useStudio } from './store/studio-store';
import { setEditorText } from './test-support/codemirror';
import { createFakeStudioClient, storedWorkflow } from './test-support/fake-studio-client';
import { manualFrames, resetStores } from './test-support/reset-stores';

const chain = WorkflowDefinition.parse({
  workflowId: 'hello',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: {}, mode: 'merge' }, position: { x: 250, y: 0 } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL', position: { x: 500, y: 0 } },
  ],
  edges: [
    { source: 'start', target: 'shape', sourcePort: 'out' },
    { source: 'shape', target: 'print', sourcePort: 'out' },
  ],
});

beforeEach(() => {
  resetStores();
  window.history.replaceState(null, '', '#/');
});
afterEach(cleanup);

async function openApp(hash: string, seed = [storedWorkflow(chain)]) {
  window.history.replaceState(null, '', hash);
  const fake = createFakeStudioClient(seed);
  const frames = manualFrames();
  render(<App client={fake.client} schedule={frames.schedule} />);
  await screen.findByTestId('palette-item-API_TRIGGER');
  return { fake, frames };
}

describe('STU-01 editor shell', () => {
  it('lists node types by kind and teaches on an empty canvas', async () => {
    await openApp('#/');
    const palette = screen.getByTestId('palette');
    expect(
      within(palette)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Triggers', 'Processors', 'Terminals']);
    expect(screen.getByTestId('palette-item-TRANSFORM').getAttribute('draggable')).toBe('true');
    expect(screen.getByTestId('canvas-empty').textContent).toContain('Drag a trigger from the palette');

    fireEvent.change(screen.getByTestId('palette-search'), { target: { value: 'console' } });
    expect(screen.queryByTestId('palette-item-TRANSFORM')).toBeNull();
    expect(screen.getByTestId('palette-item-CONSOLE_TERMINAL')).toBeTruthy();
  });

  it('collapses and reopens the side panels', async () => {
    await openApp('#/');
    fireEvent.click(screen.getByTestId('palette-toggle'));
    expect(screen.queryByTestId('palette')).toBeNull();
    expect(screen.getByTestId('palette-toggle').getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(screen.getByTestId('palette-toggle'));
    expect(screen.getByTestId('palette')).toBeTruthy();
    fireEvent.click(screen.getByTestId('inspector-toggle'));
    expect(screen.queryByTestId('inspector')).toBeNull();
  });

  it('reopens the workflow named in the URL hash, with handles per port', async () => {
    await openApp('#/w/default/hello');
    await screen.findByTestId('node-shape');
    expect(screen.getByTestId('workflow-id-input')).toHaveProperty('value', 'hello');
    expect(screen.getByTestId('save-status').textContent).toBe('Saved');
    expect(screen.queryByTestId('handle-start-target')).toBeNull(); // triggers take no input
    expect(screen.getByTestId('handle-start-source-out')).toBeTruthy();
    expect(screen.getByTestId('handle-shape-target')).toBeTruthy();
    expect(screen.queryByTestId('handle-print-source-out')).toBeNull(); // terminals have no outputs
    expect(screen.getByTestId('node-shape').getAttribute('data-status')).toBe('NONE');
  });

  it('edits config as JSON in the inspector, naming a parse error and keeping the last valid config', async () => {
    await openApp('#/w/default/hello');
    await screen.findByTestId('node-shape');
    act(() => useStudio.getState().edit({ kind: 'select', nodeId: 'shape' }));
    fireEvent.mouseDown(await screen.findByTestId('inspector-tab-json'), { button: 0 });
    const config = await screen.findByTestId('inspector-config');
    act(() => setEditorText(config, '{"set": {"a": "1"}, '));
    expect(screen.getByTestId('inspector-config-error').textContent).toMatch(/Not valid JSON/);
    expect(useStudio.getState().nodes.find((n) => n.id === 'shape')!.data.config).toEqual({ set: {}, mode: 'merge' });
    act(() => setEditorText(config, '{"set": {"a": "1"}, "mode": "replace"}'));
    expect(screen.queryByTestId('inspector-config-error')).toBeNull();
    expect(useStudio.getState().nodes.find((n) => n.id === 'shape')!.data.config).toEqual({ set: { a: '1' }, mode: 'replace' });
    expect(screen.getByTestId('unsaved-dot')).toBeTruthy();
  });

  it('renames a node from the inspector and refuses an invalid id with the reason', async () => {
    await openApp('#/w/default/hello');
    await screen.findByTestId('node-shape');
    act(() => useStudio.getState().edit({ kind: 'select', nodeId: 'shape' }));
    const input = await screen.findByTestId('inspector-node-id');
    fireEvent.change(input, { target: { value: 'a/b' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByTestId('inspector-node-id-error').textContent).toContain('path separator');
    fireEvent.change(input, { target: { value: 'enrich' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await screen.findByTestId('node-enrich');
    expect(useStudio.getState().edges.map((e) => `${e.source}->${e.target}`)).toEqual(['start->enrich', 'enrich->print']);
  });
});

describe('DEF-02 live validation in the editor', () => {
  it('marks a cycle on both nodes, lists it in Problems, and shows the server refusal on Save', async () => {
    const { fake } = await openApp('#/w/default/hello');
    await screen.findByTestId('node-shape');
    act(() => {
      useStudio
        .getState()
        .edit({ kind: 'add-node', node: { id: 'loop', type: 'studio', position: { x: 250, y: 200 }, data: { type: 'TRANSFORM', config: {} } } });
      useStudio.getState().edit({ kind: 'connect', source: 'shape', sourcePort: 'out', target: 'loop' });
      useStudio.getState().edit({ kind: 'connect', source: 'loop', sourcePort: 'out', target: 'shape' });
    });
    const badge = await screen.findByTestId('node-problem-loop');
    expect(badge.getAttribute('title')).toContain('DEF-02/cycle');
    expect(screen.getByTestId('node-problem-shape')).toBeTruthy();
    expect(screen.queryByTestId('node-problem-start')).toBeNull();

    const items = within(screen.getByTestId('problems-list')).getAllByTestId('problem-item');
    expect(items.map((i) => i.getAttribute('data-code'))).toContain('DEF-02/cycle');

    fireEvent.click(screen.getByTestId('save-button'));
    const refusal = await screen.findByTestId('save-error');
    expect(refusal.textContent).toContain('cycle');
    expect(fake.workflows.get('default/hello')!.definition.nodes).toHaveLength(3); // nothing saved
    expect(screen.getByTestId('unsaved-dot')).toBeTruthy();
  });
});

describe('STU-03 / OBS-01 run live on the canvas', () => {
  it('runs, then applies coalesced NODE_STATUS and EXECUTION_STATUS events once per frame', async () => {
    const { fake, frames } = await openApp('#/w/default/hello');
    await screen.findByTestId('node-print');
    fireEvent.keyDown(window, { key: 'F5' });
    await waitFor(() => expect(screen.getByTestId('node-print').getAttribute('data-status')).toBe('PENDING'));
    expect(await screen.findByTestId('run-row-run-1')).toBeTruthy();

    const base = { executionId: 'run-1', at: 2000 };
    fake.emit([{ ...base, seq: 1, type: 'EXECUTION_STATUS', session: 'default', workflowId: 'hello', definitionVersion: 'v0', status: 'RUNNING' }]);
    fake.emit(
      ['start', 'shape', 'print'].map((nodeId, i) => ({
        ...base,
        seq: 2 + i,
        type: 'NODE_STATUS' as const,
        nodeId,
        status: 'SUCCESS' as const,
        counts: { received: 1, emitted: nodeId === 'print' ? 0 : 1 },
      })),
    );
    fake.emit([{ ...base, seq: 5, at: 2040, type: 'EXECUTION_STATUS', session: 'default', workflowId: 'hello', definitionVersion: 'v0', status: 'SUCCESS' }]);
    // Nothing is applied before the frame.
    expect(screen.getByTestId('node-print').getAttribute('data-status')).toBe('PENDING');
    expect(frames.pending).toBe(1);
    act(() => frames.frame());

    for (const id of ['start', 'shape', 'print']) expect(screen.getByTestId(`node-${id}`).getAttribute('data-status')).toBe('SUCCESS');
    const row = screen.getByTestId('run-row-run-1');
    expect(row.getAttribute('data-status')).toBe('SUCCESS');
    expect(row.textContent).toContain('40 ms');
  });

  it('saves a new workflow before running it, and shows a refusal instead of running', async () => {
    const { fake } = await openApp('#/');
    fireEvent.click(screen.getByTestId('run-button'));
    expect((await screen.findByTestId('save-error')).textContent).toMatch(/workflow id must not be empty/);
    expect(fake.client['runs.start']).not.toHaveBeenCalled();
  });
});
