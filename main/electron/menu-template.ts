/**
 * The desktop app's native menu as data (STU-08): File, Edit, View, Run, Window, Help. Each item is a
 * studio command (its id goes to the renderer, which runs the same command as the button or the key), a
 * main-process action (native dialogs, recent files, theme, about) or one of Electron's roles. Plain data,
 * so it is tested without Electron; `app-menu.ts` builds Electron's Menu from it.
 */
import { basename } from 'node:path';
import { acceleratorOf, COMMANDS, type CommandId } from '../../shared/desktop/commands';

/** What the main process does itself. */
export const MAIN_ACTIONS = [
  'open-file',
  'open-recent',
  'clear-recent',
  'theme-system',
  'theme-light',
  'theme-dark',
  'documentation',
  'about',
  'reload',
  'toggle-devtools',
] as const;
export type MainAction = (typeof MAIN_ACTIONS)[number];

/** Electron menu roles used here (they need no handler of ours). */
export const MENU_ROLES = ['appMenu', 'close', 'quit', 'minimize', 'zoom', 'front', 'togglefullscreen', 'window', 'help'] as const;
export type MenuRole = (typeof MENU_ROLES)[number];

export type Theme = 'system' | 'light' | 'dark';

export type MenuItemData =
  | { kind: 'command'; id: CommandId; label: string; accelerator?: string }
  | { kind: 'action'; action: MainAction; label: string; accelerator?: string; path?: string; checked?: boolean }
  | { kind: 'role'; role: MenuRole; label?: string }
  | { kind: 'separator' }
  | { kind: 'submenu'; label: string; items: MenuItemData[]; role?: MenuRole };

export interface MenuState {
  platform: string;
  appName: string;
  /** Workflow files opened lately, newest first. */
  recent: readonly string[];
  theme: Theme;
  /** From a checkout (not packaged): the developer tools are offered. */
  developer: boolean;
}

const separator: MenuItemData = { kind: 'separator' };

function command(id: CommandId): MenuItemData {
  const accelerator = acceleratorOf(id);
  return { kind: 'command', id, label: COMMANDS[id].label, ...(accelerator ? { accelerator } : {}) };
}

function recentMenu(recent: readonly string[]): MenuItemData {
  const items: MenuItemData[] = recent.map((path) => ({ kind: 'action', action: 'open-recent', label: basename(path), path }));
  if (items.length === 0) items.push({ kind: 'action', action: 'clear-recent', label: 'No recent files' });
  else items.push(separator, { kind: 'action', action: 'clear-recent', label: 'Clear recent' });
  return { kind: 'submenu', label: 'Open recent', items };
}

function theme(state: MenuState, value: Theme, label: string): MenuItemData {
  return { kind: 'action', action: `theme-${value}`, label, checked: state.theme === value };
}

/** File: new, open, recent, save, import/export, connect, settings, close (and Quit off macOS). */
function fileMenu(state: MenuState, mac: boolean): MenuItemData[] {
  return [
    command('file.new'),
    { kind: 'action', action: 'open-file', label: 'Open…', accelerator: 'CmdOrCtrl+O' },
    recentMenu(state.recent),
    separator,
    command('file.save'),
    command('file.save-as'),
    separator,
    command('file.import'),
    command('file.export'),
    separator,
    command('file.connect'),
    command('file.settings'),
    separator,
    { kind: 'role', role: 'close' },
    ...(mac ? [] : [{ kind: 'role', role: 'quit' } as const]),
  ];
}

/** Edit: undo/redo, the clipboard, duplicate, delete, select all. */
function editMenu(): MenuItemData[] {
  return (['edit.undo', 'edit.redo', null, 'edit.cut', 'edit.copy', 'edit.paste', 'edit.duplicate', 'edit.delete', null, 'edit.select-all'] as const).map(
    (id) => (id ? command(id) : separator),
  );
}

/** View: jump, zoom, panels, theme, full screen, reload (and the developer tools from a checkout). */
function viewMenu(state: MenuState): MenuItemData[] {
  return [
    command('view.jump-to-node'),
    separator,
    command('view.zoom-in'),
    command('view.zoom-out'),
    command('view.fit'),
    separator,
    command('view.palette'),
    command('view.inspector'),
    command('view.inbox'),
    { kind: 'submenu', label: 'Bottom panel', items: [command('view.problems'), command('view.runs'), command('view.logs')] },
    separator,
    { kind: 'submenu', label: 'Theme', items: [theme(state, 'system', 'Follow the system'), theme(state, 'light', 'Light'), theme(state, 'dark', 'Dark')] },
    { kind: 'role', role: 'togglefullscreen' },
    separator,
    { kind: 'action', action: 'reload', label: 'Reload the studio', accelerator: 'CmdOrCtrl+R' },
    ...(state.developer ? [{ kind: 'action', action: 'toggle-devtools', label: 'Developer tools', accelerator: 'CmdOrCtrl+Alt+I' } as const] : []),
  ];
}

/** Run: run, pause and step, breakpoints, the three ways to stop. */
function runMenu(): MenuItemData[] {
  const stop: MenuItemData = { kind: 'submenu', label: 'Stop', items: [command('run.stop-drain'), command('run.stop-cancel'), command('run.stop-kill')] };
  return [
    command('run.run'),
    command('run.run-with-payload'),
    separator,
    command('run.pause-resume'),
    command('run.step'),
    command('run.toggle-breakpoint'),
    separator,
    stop,
    command('run.stop'),
  ];
}

/** Window: minimize, zoom (and bring all to front on macOS). */
function windowMenu(mac: boolean): MenuItemData[] {
  return [{ kind: 'role', role: 'minimize' }, { kind: 'role', role: 'zoom' }, ...(mac ? [separator, { kind: 'role', role: 'front' } as const] : [])];
}

/** Help: shortcuts, documentation, about. */
function helpMenu(state: MenuState): MenuItemData[] {
  return [
    command('help.shortcuts'),
    { kind: 'action', action: 'documentation', label: 'Documentation' },
    separator,
    { kind: 'action', action: 'about', label: `About ${state.appName}` },
  ];
}

/** The whole menu bar for a platform (macOS gets the app menu first and Quit there). */
export function menuTemplate(state: MenuState): MenuItemData[] {
  const mac = state.platform === 'darwin';
  return [
    ...(mac ? [{ kind: 'role', role: 'appMenu' } as const] : []),
    { kind: 'submenu', label: 'File', items: fileMenu(state, mac) },
    { kind: 'submenu', label: 'Edit', items: editMenu() },
    { kind: 'submenu', label: 'View', items: viewMenu(state) },
    { kind: 'submenu', label: 'Run', items: runMenu() },
    { kind: 'submenu', label: 'Window', items: windowMenu(mac), role: 'window' },
    { kind: 'submenu', label: 'Help', items: helpMenu(state), role: 'help' },
  ];
}

/** Every item, depth first (tests and the accelerator check walk it). */
export function flattenMenu(items: readonly MenuItemData[]): MenuItemData[] {
  return items.flatMap((item) => (item.kind === 'submenu' ? [item, ...flattenMenu(item.items)] : [item]));
}

/** The text of Help → About: the app's and every runtime's version, and the ABI the native modules need. */
export function aboutText(app: { name: string; version: string }, versions: Readonly<Record<string, string | undefined>>): string {
  const line = (name: string, key: string) => (versions[key] ? `${name} ${versions[key]}` : null);
  return [
    `${app.name} ${app.version}`,
    line('Electron', 'electron'),
    line('Chromium', 'chrome'),
    line('Node', 'node'),
    line('V8', 'v8'),
    versions.modules ? `Native module ABI ${versions.modules}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}
