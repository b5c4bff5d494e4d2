import { describe, expect, it } from 'vitest';
import { COMMAND_IDS, COMMANDS } from '../../shared/desktop/commands';
import { appMenuTemplate } from './app-menu';
import { fakeElectron, type FakeMenuItem } from './test-support/fake-electron';
import { aboutText, flattenMenu, MAIN_ACTIONS, menuTemplate, MENU_ROLES, type MenuState } from './menu-template';

const state = (platform: string, extra: Partial<MenuState> = {}): MenuState => ({
  platform,
  appName: 'Yukta Studio',
  recent: [],
  theme: 'system',
  developer: true,
  ...extra,
});

/** The menu as Electron gets it, built through the fake Electron's Menu, with what each click did. */
function built(menuState: MenuState) {
  const fake = fakeElectron('/tmp');
  const clicks: string[] = [];
  const { Menu } = fake.module as { Menu: { buildFromTemplate(t: unknown): unknown; setApplicationMenu(m: unknown): void } };
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate(menuState, { command: (id) => clicks.push(`command ${id}`), action: (a, path) => clicks.push(`action ${a}${path ? ` ${path}` : ''}`) }),
    ),
  );
  const walk = (items: FakeMenuItem[]): FakeMenuItem[] => items.flatMap((i) => [i, ...walk(i.submenu ?? [])]);
  return { items: walk(fake.menu!), top: fake.menu!, clicks };
}

describe('STU-08 native menu (menus as data, built on the fake Electron)', () => {
  for (const platform of ['darwin', 'linux', 'win32']) {
    it(`${platform}: File, Edit, View, Run, Window, Help; every item has a handler; no accelerator repeats`, () => {
      const { items, top, clicks } = built(state(platform, { recent: ['/w/a.yukta.json'] }));
      expect(top.filter((i) => i.label).map((i) => i.label)).toEqual(['File', 'Edit', 'View', 'Run', 'Window', 'Help']);
      if (platform === 'darwin') expect(top[0]).toEqual({ role: 'appMenu' });
      for (const item of items) {
        if (item.type === 'separator' || item.submenu) continue;
        // A leaf runs something: a click (ours) or an Electron role.
        expect(Boolean(item.click) || Boolean(item.role), JSON.stringify(item)).toBe(true);
        if (item.role) expect(MENU_ROLES as readonly string[]).toContain(item.role);
      }
      const accelerators = items.map((i) => i.accelerator).filter((a): a is string => Boolean(a));
      expect(new Set(accelerators).size).toBe(accelerators.length);
      for (const item of items) item.click?.();
      const commands = clicks.filter((c) => c.startsWith('command ')).map((c) => c.slice('command '.length));
      // Every command id the menu sends is one of the table's (the renderer's table has a run for each: command-table.test.ts).
      for (const id of commands) expect(COMMAND_IDS as string[]).toContain(id);
      expect(new Set(commands).size).toBe(commands.length);
      const actions = clicks.filter((c) => c.startsWith('action ')).map((c) => c.split(' ')[1]);
      for (const action of actions) expect(MAIN_ACTIONS as readonly string[]).toContain(action);
      expect(clicks).toContain('action open-recent /w/a.yukta.json');
      expect(items.some((i) => i.role === 'quit')).toBe(platform !== 'darwin');
    });
  }

  it('shows the accelerators of UI.md on the items, and does not register them with the system (the renderer handles keys)', () => {
    const { items } = built(state('linux'));
    const byLabel = (label: string) => items.find((i) => i.label === label && !i.submenu)!;
    expect(byLabel('Save')).toMatchObject({ accelerator: 'CmdOrCtrl+S', registerAccelerator: false });
    expect(byLabel('Undo').accelerator).toBe('CmdOrCtrl+Z');
    expect(byLabel('Redo').accelerator).toBe('CmdOrCtrl+Shift+Z');
    expect(byLabel('Copy').accelerator).toBe('CmdOrCtrl+C');
    expect(byLabel('Paste').accelerator).toBe('CmdOrCtrl+V');
    expect(byLabel('Duplicate').accelerator).toBe('CmdOrCtrl+D');
    expect(byLabel('Delete').accelerator).toBe('Delete');
    expect(byLabel('Jump to node…').accelerator).toBe('CmdOrCtrl+K');
    expect(byLabel('Run').accelerator).toBe('F5');
    expect(byLabel('Stop…').accelerator).toBe('Shift+F5');
    expect(byLabel('Pause / Resume').accelerator).toBe('F6');
    expect(byLabel('Toggle breakpoint').accelerator).toBe('F9');
    expect(byLabel('Step').accelerator).toBe('F10');
    expect(byLabel('Approval inbox').accelerator).toBe('CmdOrCtrl+Shift+I');
    expect(byLabel('Settings…').accelerator).toBe('CmdOrCtrl+,');
    // Main's own items keep a registered accelerator: the page does not handle these keys.
    expect(byLabel('Open…')).toMatchObject({ accelerator: 'CmdOrCtrl+O' });
    expect(byLabel('Open…').registerAccelerator).toBeUndefined();
  });

  it('has the items the issue lists, Stop ▸ Drain/Cancel/Kill and the theme as radio items', () => {
    const { items } = built(state('linux', { theme: 'dark' }));
    const labels = items.map((i) => i.label);
    for (const label of [
      'New workflow',
      'Open…',
      'Open recent',
      'Save',
      'Save as…',
      'Import…',
      'Export…',
      'Connect to server…',
      'Settings…',
      'Select all',
      'Zoom in',
      'Zoom out',
      'Fit the workflow',
      'Node palette',
      'Inspector',
      'Theme',
      'Run with payload…',
      'Keyboard shortcuts',
      'Documentation',
      'About Yukta Studio',
    ])
      expect(labels).toContain(label);
    const stop = items.find((i) => i.label === 'Stop')!;
    expect(stop.submenu!.map((i) => i.label)).toEqual([COMMANDS['run.stop-drain'].label, COMMANDS['run.stop-cancel'].label, COMMANDS['run.stop-kill'].label]);
    const theme = items.find((i) => i.label === 'Theme')!.submenu!;
    expect(theme.map((i) => [i.label, i.type, i.checked])).toEqual([
      ['Follow the system', 'radio', false],
      ['Light', 'radio', false],
      ['Dark', 'radio', true],
    ]);
    expect(items.find((i) => i.label === 'Open recent')!.submenu!.map((i) => i.label)).toEqual(['No recent files']);
  });

  it('offers the developer tools only from a checkout', () => {
    expect(flattenMenu(menuTemplate(state('linux', { developer: false }))).some((i) => i.kind === 'action' && i.action === 'toggle-devtools')).toBe(false);
    expect(flattenMenu(menuTemplate(state('linux'))).some((i) => i.kind === 'action' && i.action === 'toggle-devtools')).toBe(true);
  });

  it('About names the app and every runtime version with the native ABI', () => {
    expect(aboutText({ name: 'Yukta Studio', version: '0.1.0' }, { electron: '41.7.1', chrome: '146.0', node: '24.1.0', v8: '14.6', modules: '145' })).toBe(
      'Yukta Studio 0.1.0\nElectron 41.7.1\nChromium 146.0\nNode 24.1.0\nV8 14.6\nNative module ABI 145',
    );
  });
});
