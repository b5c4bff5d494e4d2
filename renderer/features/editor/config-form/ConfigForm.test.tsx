// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStudio } from '../../../store/studio-store';
import { editorText, setEditorText } from '../../../test-support/codemirror';
import { CHAIN, definition, nodeConfig, openStudio, selectNode } from '../../../test-support/open-app';

afterEach(cleanup);

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('STU-01 config form generated from the plugin schema', () => {
  it('edits TRANSFORM fields (record rows, enum) into the node config', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    selectNode('shape');
    const form = await screen.findByTestId('config-form');
    fireEvent.change(within(form).getByTestId('field-mode'), { target: { value: 'replace' } });
    expect(nodeConfig('shape')).toEqual({ set: {}, mode: 'replace' });

    fireEvent.click(screen.getByTestId('field-set-add'));
    type('field-set-key-0', 'greeting');
    type('field-set-value-0', 'Hello ${payload.name}');
    fireEvent.click(screen.getByTestId('field-set-add'));
    type('field-set-key-1', 'n');
    type('field-set-value-1', '42');
    expect(nodeConfig('shape')).toEqual({ set: { greeting: 'Hello ${payload.name}', n: 42 }, mode: 'replace' });

    // A repeated name is refused at the field and not applied.
    type('field-set-key-1', 'greeting');
    expect(screen.getByTestId('field-error-set').textContent).toContain('named twice');
    expect(nodeConfig('shape')).toEqual({ set: { greeting: 'Hello ${payload.name}', n: 42 }, mode: 'replace' });
  });

  it('edits ROUTER routes as sub-forms, and the new route is a port on the node', async () => {
    const router = definition({
      workflowId: 'r',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'route', type: 'ROUTER', config: { routes: [{ port: 'yes', when: 'payload.ok' }], mode: 'first' } },
      ],
      edges: [{ source: 't', target: 'route' }],
    });
    await openStudio('#/w/default/r', [{ session: 'default', definition: router, version: 'v0', savedAt: 1 }]);
    await screen.findByTestId('node-route');
    selectNode('route');
    fireEvent.click(await screen.findByTestId('field-routes-add'));
    expect(screen.getByTestId('field-error-routes.1.port').textContent).toContain('required');
    type('field-routes.1.port', 'big');
    type('field-routes.1.when', 'payload.n > 10');
    expect(nodeConfig('route')).toEqual({
      routes: [
        { port: 'yes', when: 'payload.ok' },
        { port: 'big', when: 'payload.n > 10' },
      ],
      mode: 'first',
    });
    expect(await screen.findByTestId('handle-route-source-big')).toBeTruthy();
    expect(screen.getByTestId('handle-route-source-default')).toBeTruthy();
  });

  it('falls back to a CodeMirror JSON editor for a shape it does not know (a union)', async () => {
    const delay = definition({ workflowId: 'd', nodes: [{ nodeId: 'wait', type: 'DELAY', config: { ms: 1000 } }], edges: [] });
    await openStudio('#/w/default/d', [{ session: 'default', definition: delay, version: 'v0', savedAt: 1 }]);
    await screen.findByTestId('node-wait');
    selectNode('wait');
    const editor = await screen.findByTestId('field-ms');
    expect(editor.getAttribute('contenteditable')).toBe('true');
    expect(editorText(editor)).toBe('1000');
    act(() => setEditorText(editor, '"${payload.wait}"'));
    expect(nodeConfig('wait')).toEqual({ ms: '${payload.wait}' });
    act(() => setEditorText(editor, '{"oops"'));
    expect(screen.getByTestId('field-error-ms').textContent).toContain('Not valid JSON');
    expect(nodeConfig('wait')).toEqual({ ms: '${payload.wait}' });
  });
});

describe('STU-01 / DEF-02 engine policy form', () => {
  it('writes config.engine and timeoutSeconds; a DEF-02 issue shows under its field with the code', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    selectNode('shape');
    await screen.findByTestId('engine-policy');
    type('field-timeoutSeconds', '5');
    type('field-engine.retry.maxAttempts', '3');
    for (const text of ['6', '60', '600', '6000']) type('field-engine.retry.maxBackoffMs', text);
    expect(useStudio.getState().nodes.find((n) => n.id === 'shape')!.data).toMatchObject({
      timeoutSeconds: 5,
      config: { engine: { retry: { maxAttempts: 3, maxBackoffMs: 6000 } } },
    });

    const error = await screen.findByTestId('field-error-engine.retry.maxBackoffMs');
    expect(error.textContent).toContain('DEF-02/policy');
    expect(error.textContent).toContain('must be below the node timeout (5000 ms)');
    expect(screen.getByTestId('node-problem-shape').getAttribute('title')).toContain('maxBackoffMs');

    // Typing in one field is one undo step: undo removes the whole 6000, not the last digit.
    act(() => useStudio.getState().undo());
    expect(nodeConfig('shape')).toEqual({ set: {}, mode: 'merge', engine: { retry: { maxAttempts: 3 } } });
    expect(screen.queryByTestId('field-error-engine.retry.maxBackoffMs')).toBeNull();
  });

  it('refuses a number it cannot read at the field, and keeps the config', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    selectNode('shape');
    type('field-engine.elementTimeoutMs', '10s');
    expect(screen.getByTestId('field-error-engine.elementTimeoutMs').textContent).toContain('"10s" is not a number');
    expect(nodeConfig('shape')).toEqual(CHAIN.nodes[1]!.config);
    type('field-engine.elementTimeoutMs', '0');
    expect((await screen.findByTestId('field-error-engine.elementTimeoutMs')).textContent).toContain('DEF-02/policy');
  });

  it('onError ROUTE adds the error port to the node; back to FAIL removes it', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    selectNode('shape');
    fireEvent.change(await screen.findByTestId('field-engine.onError'), { target: { value: 'ROUTE' } });
    expect(await screen.findByTestId('handle-shape-source-error')).toBeTruthy();
    fireEvent.change(screen.getByTestId('field-engine.onError'), { target: { value: '' } });
    expect(screen.queryByTestId('handle-shape-source-error')).toBeNull();
    expect(nodeConfig('shape')).toEqual({ set: {}, mode: 'merge' });
  });
});
