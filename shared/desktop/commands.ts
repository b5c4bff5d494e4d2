/**
 * The studio's commands (STU-08): one id per thing a user can do from the native menu, a button or a key.
 * The renderer's command table (`renderer/commands/`) gives each id its `run`; the desktop menu
 * (`main/electron/menu-template.ts`) sends ids; the preload lets only these ids through. Accelerators are
 * Electron's syntax (`CmdOrCtrl+S`), follow UI.md's keyboard table, and are unique (tested).
 *
 * Kept free of imports: the sandboxed preload bundles this file.
 */
export const COMMANDS = {
  'file.new': { label: 'New workflow', accelerator: 'CmdOrCtrl+N' },
  'file.save': { label: 'Save', accelerator: 'CmdOrCtrl+S' },
  'file.save-as': { label: 'Save as…', accelerator: 'CmdOrCtrl+Shift+S' },
  'file.import': { label: 'Import…', accelerator: 'CmdOrCtrl+I' },
  'file.export': { label: 'Export…', accelerator: 'CmdOrCtrl+E' },
  'file.connect': { label: 'Connect to server…' },
  'file.settings': { label: 'Settings…', accelerator: 'CmdOrCtrl+,' },
  'edit.undo': { label: 'Undo', accelerator: 'CmdOrCtrl+Z' },
  'edit.redo': { label: 'Redo', accelerator: 'CmdOrCtrl+Shift+Z' },
  'edit.cut': { label: 'Cut', accelerator: 'CmdOrCtrl+X' },
  'edit.copy': { label: 'Copy', accelerator: 'CmdOrCtrl+C' },
  'edit.paste': { label: 'Paste', accelerator: 'CmdOrCtrl+V' },
  'edit.duplicate': { label: 'Duplicate', accelerator: 'CmdOrCtrl+D' },
  'edit.delete': { label: 'Delete', accelerator: 'Delete' },
  'edit.select-all': { label: 'Select all', accelerator: 'CmdOrCtrl+A' },
  'view.jump-to-node': { label: 'Jump to node…', accelerator: 'CmdOrCtrl+K' },
  'view.zoom-in': { label: 'Zoom in', accelerator: 'CmdOrCtrl+=' },
  'view.zoom-out': { label: 'Zoom out', accelerator: 'CmdOrCtrl+-' },
  'view.fit': { label: 'Fit the workflow', accelerator: 'CmdOrCtrl+0' },
  'view.palette': { label: 'Node palette', accelerator: 'CmdOrCtrl+B' },
  'view.inspector': { label: 'Inspector', accelerator: 'CmdOrCtrl+Alt+B' },
  'view.inbox': { label: 'Approval inbox', accelerator: 'CmdOrCtrl+Shift+I' },
  'view.problems': { label: 'Problems' },
  'view.runs': { label: 'Runs' },
  'view.logs': { label: 'Logs' },
  'run.run': { label: 'Run', accelerator: 'F5' },
  'run.run-with-payload': { label: 'Run with payload…', accelerator: 'Alt+F5' },
  'run.pause-resume': { label: 'Pause / Resume', accelerator: 'F6' },
  'run.step': { label: 'Step', accelerator: 'F10' },
  'run.toggle-breakpoint': { label: 'Toggle breakpoint', accelerator: 'F9' },
  'run.stop': { label: 'Stop…', accelerator: 'Shift+F5' },
  'run.stop-drain': { label: 'Drain (finish what is in flight)' },
  'run.stop-cancel': { label: 'Cancel (stop starting new work)' },
  'run.stop-kill': { label: 'Kill (abandon at once)' },
  'help.shortcuts': { label: 'Keyboard shortcuts' },
} as const satisfies Record<string, { label: string; accelerator?: string }>;

export type CommandId = keyof typeof COMMANDS;

export const COMMAND_IDS = Object.keys(COMMANDS) as CommandId[];

const KNOWN = new Set<string>(COMMAND_IDS);

/** Parse, don't cast: only the ids above (never `__proto__`, `toString`…). */
export function isCommandId(value: unknown): value is CommandId {
  return typeof value === 'string' && KNOWN.has(value);
}

/** The accelerator of a command, or undefined. */
export function acceleratorOf(id: CommandId): string | undefined {
  const command: { label: string; accelerator?: string } = COMMANDS[id];
  return command.accelerator;
}

/** Native text editing the renderer may ask the desktop main for (Electron's webContents methods). */
export const NATIVE_EDITS = ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'] as const;
export type NativeEdit = (typeof NATIVE_EDITS)[number];

export function isNativeEdit(value: unknown): value is NativeEdit {
  return typeof value === 'string' && (NATIVE_EDITS as readonly string[]).includes(value);
}
