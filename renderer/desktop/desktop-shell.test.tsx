// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandId } from '../../shared/desktop/commands';
import type { DesktopBridge, OpenedFile } from '../../shared/desktop/desktop-bridge';
import { useStudio } from '../store/studio-store';
import { CHAIN, openStudio, selectNode } from '../test-support/open-app';

/** The desktop bridge as the preload gives it, driven by the test as main would. */
function installFakeDesktop() {
  const commandListeners = new Set<(id: CommandId) => void>();
  const fileListeners = new Set<(file: OpenedFile) => void>();
  const calls: string[] = [];
  const bridge: DesktopBridge = {
    onCommand: (l) => (commandListeners.add(l), () => void commandListeners.delete(l)),
    onOpenFile: (l) => (fileListeners.add(l), () => void fileListeners.delete(l)),
    nativeEdit: (edit) => void calls.push(`nativeEdit ${edit}`),
    openFileDialog: () => void calls.push('openFileDialog'),
    host: async () => ({ kind: 'local' }),
    connect: async () => ({ ok: true }),
    disconnect: async () => undefined,
  };
  (window as unknown as { yuktaDesktop?: DesktopBridge }).yuktaDesktop = bridge;
  return {
    calls,
    menu: (id: CommandId) => act(() => commandListeners.forEach((l) => l(id))),
    open: (file: OpenedFile) => act(() => fileListeners.forEach((l) => l(file))),
  };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as { yuktaDesktop?: unknown }).yuktaDesktop;
});

const ids = () => useStudio.getState().nodes.map((n) => n.id);

describe('STU-08 desktop menu commands reach the same commands as keys and buttons', () => {
  it('Edit commands from the menu edit the graph on the canvas, and the focused field (natively) in a field', async () => {
    const desktop = installFakeDesktop();
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    selectNode('shape');
    desktop.menu('edit.copy');
    desktop.menu('edit.paste');
    expect(ids()).toEqual(['start', 'shape', 'print', 'shape_1']);
    desktop.menu('edit.undo');
    expect(ids()).toEqual(['start', 'shape', 'print']);
    desktop.menu('edit.select-all');
    expect(useStudio.getState().nodes.every((n) => n.selected)).toBe(true);
    selectNode('shape');
    const label = await screen.findByTestId('inspector-label');
    label.focus();
    desktop.menu('edit.paste');
    desktop.menu('edit.undo');
    expect(desktop.calls).toEqual(['nativeEdit paste', 'nativeEdit undo']);
    expect(ids()).toEqual(['start', 'shape', 'print']);
  });

  it('Import… from the menu asks main for the native dialog (a page cannot open a file chooser there); Save as… saves under a new id', async () => {
    const desktop = installFakeDesktop();
    const { fake } = await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    desktop.menu('file.import');
    expect(desktop.calls).toEqual(['openFileDialog']);
    desktop.menu('file.save-as');
    fireEvent.change(await screen.findByTestId('save-as-input'), { target: { value: 'hello-copy' } });
    fireEvent.click(screen.getByTestId('save-as-submit'));
    await waitFor(() => expect(fake.client['workflows.save']).toHaveBeenCalled());
    expect(useStudio.getState().storedWorkflowId).toBe('hello-copy');
  });

  it('runs nothing while a dialog is open', async () => {
    const desktop = installFakeDesktop();
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    desktop.menu('help.shortcuts');
    await screen.findByTestId('shortcuts-dialog');
    desktop.menu('view.palette');
    expect(useStudio.getState().paletteOpen).toBe(true);
  });
});

describe('STU-08 workflow files opened by the desktop app', () => {
  it('imports a file main read into the current session, and shows why main refused one', async () => {
    const desktop = installFakeDesktop();
    await openStudio('#/');
    desktop.open({ name: 'hello.yukta.json', text: JSON.stringify({ ...CHAIN, workflowId: 'opened' }) });
    await waitFor(() => expect(useStudio.getState().workflowId).toBe('opened'));
    expect(ids()).toEqual(['start', 'shape', 'print']);
    desktop.open({ name: 'evil.json', refused: 'a path with ".." (path traversal) is refused; give the file itself' });
    expect((await screen.findByTestId('import-error')).textContent).toBe(
      'Opening evil.json refused — a path with ".." (path traversal) is refused; give the file itself. Nothing was changed.',
    );
    expect(useStudio.getState().workflowId).toBe('opened');
  });
});
