// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStudio } from '../../store/studio-store';
import { CHAIN, definition, nodeConfig, openStudio } from '../../test-support/open-app';
import { buildDiffView } from './diff-view';

afterEach(cleanup);

const V2 = definition({
  workflowId: 'hello',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: { a: '1' }, mode: 'merge' }, position: { x: 260, y: 40 } },
    { nodeId: 'extra', type: 'CONSOLE_TERMINAL', position: { x: 500, y: 200 } },
  ],
  edges: [
    { source: 'start', target: 'shape', sourcePort: 'out' },
    { source: 'shape', target: 'extra', sourcePort: 'out' },
  ],
});

describe('STU-02 diff drawn on the canvas', () => {
  it('marks nodes added, changed (not when only moved), unchanged, and removed ones as ghosts; edges likewise', () => {
    const view = buildDiffView(CHAIN, V2, 'a'.repeat(64), 'b'.repeat(64));
    const marks = Object.fromEntries(view.nodes.map((n) => [n.id, n.data.diff]));
    expect(marks).toEqual({ start: 'unchanged', shape: 'changed', extra: 'added', print: 'removed' });
    const ghost = view.nodes.find((n) => n.id === 'print')!;
    expect(ghost.position).toEqual({ x: 500, y: 0 }); // where it was
    expect(ghost.draggable).toBe(false);
    const edges = Object.fromEntries(view.edges.map((e) => [e.id, e.className]));
    expect(edges).toEqual({ 'start:out->shape': 'diff-unchanged', 'shape:out->extra': 'diff-added', 'removed:shape:out->print': 'diff-removed' });
    expect(view.diff.nodes.changed).toEqual([{ nodeId: 'shape', changes: [{ key: 'config.set.a', path: ['config', 'set', 'a'], after: '1' }] }]);
  });

  it('renders the marks, the ghost and the changed keys side by side; the canvas is read-only', async () => {
    // Two saved versions: the chain, then V2 (the current one).
    await openStudio(
      '#/w/default/hello',
      [CHAIN, V2].map((d) => ({ session: 'default', definition: d, version: '', savedAt: 1 })),
    );
    await screen.findByTestId('node-extra');
    fireEvent.mouseDown(screen.getByTestId('versions-tab'), { button: 0 });
    const rows = await screen.findAllByTestId(/^version-row-/);
    expect(rows).toHaveLength(2);
    for (const row of rows) fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('versions-compare'));

    await waitFor(() => expect(screen.getByTestId('canvas').getAttribute('data-mode')).toBe('diff'));
    expect(screen.getByTestId('node-shape').getAttribute('data-diff')).toBe('changed');
    expect(screen.getByTestId('node-diff-shape').textContent).toBe('Changed');
    expect(screen.getByTestId('node-extra').getAttribute('data-diff')).toBe('added');
    expect(screen.getByTestId('node-print').getAttribute('data-diff')).toBe('removed');
    expect(screen.getByTestId('node-start').getAttribute('data-diff')).toBe('unchanged');
    expect(screen.queryByTestId('node-diff-start')).toBeNull();
    const change = screen.getByTestId('diff-change-shape-config.set.a');
    expect([...change.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['—', '"1"']);
    expect(screen.getByTestId('diff-banner').textContent).toContain('read-only');

    fireEvent.click(screen.getByTestId('diff-exit'));
    expect(screen.getByTestId('canvas').getAttribute('data-mode')).toBe('edit');
    expect(screen.getByTestId('node-shape').getAttribute('data-diff')).toBeNull();
  });
});

describe('STU-02 versions: save with note, restore, version per run', () => {
  it("saves with a note, restores the first version as a new current one, and shows each run's version", async () => {
    const { fake } = await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    act(() => useStudio.getState().edit({ kind: 'set-config', nodeId: 'shape', config: { set: {}, mode: 'replace' } }));
    fireEvent.click(screen.getByTestId('save-with-note-button'));
    fireEvent.change(await screen.findByTestId('save-note-input'), { target: { value: 'replace mode' } });
    fireEvent.click(screen.getByTestId('save-note-submit'));
    await waitFor(() => expect(useStudio.getState().versions).toHaveLength(2));
    expect(fake.client['workflows.save']).toHaveBeenCalledWith(expect.objectContaining({ note: 'replace mode' }));

    fireEvent.mouseDown(screen.getByTestId('versions-tab'), { button: 0 });
    const [newest, first] = useStudio.getState().versions;
    expect(screen.getByTestId(`version-note-${newest!.version}`).textContent).toBe('replace mode');
    expect(screen.getByTestId(`version-row-${newest!.version}`).getAttribute('data-current')).toBe('true');

    fireEvent.click(screen.getByTestId(`version-restore-${first!.version}`));
    // Restore asks first (issue 15 item 11).
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(nodeConfig('shape')).toEqual({ set: {}, mode: 'merge' }));
    await waitFor(() => expect(screen.getByTestId(`version-row-${first!.version}`).getAttribute('data-current')).toBe('true'));
    expect(useStudio.getState().dirty).toBe(false);

    fireEvent.keyDown(window, { key: 'F5' });
    expect((await screen.findByTestId('run-version-run-1')).textContent).toContain(first!.version.slice(0, 8));
  });
});
