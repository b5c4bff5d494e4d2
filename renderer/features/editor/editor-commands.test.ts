import { describe, expect, it } from 'vitest';
import { copySelection, freshIdLike, instantiateClip } from '../../store/clipboard';
import { fromDefinition, toDefinition } from '../../store/graph-model';
import { createStudioStore } from '../../store/studio-store';
import { CHAIN } from '../../test-support/open-app';
import { autoLayout, copySelected, deleteSelected, duplicateSelected, PASTE_OFFSET, pasteClipboard } from './editor-commands';

function storeWithChain(selected: string[]) {
  const store = createStudioStore();
  store.getState().openWorkflow('default', { definition: CHAIN, version: 'v0' });
  store.setState((s) => ({ nodes: s.nodes.map((n) => ({ ...n, selected: selected.includes(n.id) })) }));
  return store;
}

describe('STU-01 copy / paste / duplicate', () => {
  it('copies the selection with its internal edges only', () => {
    const graph = fromDefinition(CHAIN);
    const clip = copySelection({ nodes: graph.nodes.map((n) => ({ ...n, selected: n.id !== 'print' })), edges: graph.edges });
    expect(clip?.nodes.map((n) => n.id)).toEqual(['start', 'shape']);
    expect(clip?.edges.map((e) => `${e.source}->${e.target}`)).toEqual(['start->shape']); // shape->print leaves the selection
    expect(copySelection(graph)).toBeNull();
  });

  it('pastes with fresh ids, offset positions and the internal edges renamed', () => {
    const graph = fromDefinition(CHAIN);
    const clip = copySelection({ nodes: graph.nodes.map((n) => ({ ...n, selected: n.id !== 'print' })), edges: graph.edges })!;
    const pasted = instantiateClip(clip, ['start', 'shape', 'print', 'start_1'], { x: 40, y: 40 });
    expect(pasted.nodes.map((n) => n.id)).toEqual(['start_2', 'shape_1']);
    expect(pasted.nodes.map((n) => n.position)).toEqual([
      { x: 40, y: 40 },
      { x: 290, y: 40 },
    ]);
    expect(pasted.edges).toEqual([expect.objectContaining({ id: 'start_2:out->shape_1', source: 'start_2', sourceHandle: 'out', target: 'shape_1' })]);
    // The pasted config is a copy, not shared with the original.
    expect(pasted.nodes[1]!.data.config).toEqual(clip.nodes[1]!.data.config);
    expect(pasted.nodes[1]!.data.config).not.toBe(clip.nodes[1]!.data.config);
    expect(freshIdLike('transform_1', new Set(['transform_1', 'transform_2']))).toBe('transform_3');
  });

  it('Ctrl+V twice moves each paste further; each paste is one undo step and selects the copies', () => {
    const store = storeWithChain(['shape', 'print']);
    expect(copySelected(store)).toBe(true);
    pasteClipboard(store);
    pasteClipboard(store);
    const ids = store.getState().nodes.map((n) => n.id);
    expect(ids).toEqual(['start', 'shape', 'print', 'shape_1', 'print_1', 'shape_2', 'print_2']);
    const at = (id: string) => store.getState().nodes.find((n) => n.id === id)!.position;
    expect(at('shape_2')).toEqual({ x: 250 + 2 * PASTE_OFFSET, y: 2 * PASTE_OFFSET });
    expect(
      store
        .getState()
        .nodes.filter((n) => n.selected)
        .map((n) => n.id),
    ).toEqual(['shape_2', 'print_2']);
    expect(store.getState().edges.map((e) => e.id)).toContain('shape_2:out->print_2');
    store.getState().undo();
    expect(store.getState().nodes).toHaveLength(5);
    const def = toDefinition(store.getState());
    expect(def.edges).toContainEqual({ source: 'shape_1', target: 'print_1', sourcePort: 'out' });
  });

  it('duplicate copies without touching the clipboard', () => {
    const store = storeWithChain(['shape']);
    expect(duplicateSelected(store)).toBe(true);
    expect(store.getState().clipboard).toBeNull();
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['start', 'shape', 'print', 'shape_1']);
  });
});

describe('STU-01 delete and auto-layout are one undo step each', () => {
  it('deletes selected nodes and edges together', () => {
    const store = storeWithChain(['shape']);
    store.setState((s) => ({ edges: s.edges.map((e) => ({ ...e, selected: e.source === 'start' })) }));
    const before = store.getState().past.length;
    expect(deleteSelected(store)).toBe(true);
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['start', 'print']);
    expect(store.getState().edges).toEqual([]);
    expect(store.getState().past.length).toBe(before + 1);
    store.getState().undo();
    expect(store.getState().edges).toHaveLength(2);
  });

  it('lays the graph out left to right', async () => {
    const store = storeWithChain([]);
    store.setState((s) => ({ nodes: s.nodes.map((n) => ({ ...n, position: { x: 0, y: 0 } })) }));
    expect(await autoLayout(store)).toBe(true);
    const x = Object.fromEntries(store.getState().nodes.map((n) => [n.id, n.position.x]));
    expect(x['start']).toBeLessThan(x['shape']!);
    expect(x['shape']).toBeLessThan(x['print']!);
    expect(store.getState().past).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().nodes.every((n) => n.position.x === 0)).toBe(true);
  });

  it('does nothing while a diff is shown (the canvas is read-only)', async () => {
    const store = storeWithChain(['shape']);
    store.setState({
      diffView: {
        from: 'a',
        to: 'b',
        diff: { nodes: { added: [], removed: [], changed: [], moved: [] }, edges: { added: [], removed: [] } },
        nodes: [],
        edges: [],
      },
    });
    expect(deleteSelected(store)).toBe(false);
    expect(duplicateSelected(store)).toBe(false);
    expect(await autoLayout(store)).toBe(false);
  });
});
