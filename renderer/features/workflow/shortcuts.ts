/** One row of the `?` help dialog. `keys` are shown as typed on Windows/Linux; Cmd replaces Ctrl on macOS. */
export interface ShortcutHelp {
  keys: readonly string[];
  action: string;
}

/**
 * The studio's keyboard map (UI.md) as the `?` help shows it. The keys themselves are the accelerators of
 * the command table (`shared/desktop/commands.ts`, run by `renderer/commands/`); a test checks that every
 * one of them is listed here.
 */
export const SHORTCUTS: ReadonlyArray<{ group: string; items: readonly ShortcutHelp[] }> = [
  {
    group: 'Workflow',
    items: [
      { keys: ['Ctrl', 'S'], action: 'Save' },
      { keys: ['F5'], action: 'Run (saves first when needed)' },
      { keys: ['Ctrl', 'K'], action: 'Jump to a node (type, Enter)' },
      { keys: ['Ctrl', ','], action: 'Settings (keys, secrets, variables, HTTP API, theme)' },
      { keys: ['?'], action: 'This help' },
    ],
  },
  {
    group: 'Editing',
    items: [
      { keys: ['Ctrl', 'Z'], action: 'Undo' },
      { keys: ['Ctrl', 'Shift', 'Z'], action: 'Redo (also Ctrl+Y)' },
      { keys: ['Ctrl', 'C'], action: 'Copy the selected nodes (with the edges between them)' },
      { keys: ['Ctrl', 'V'], action: 'Paste (fresh ids, moved aside)' },
      { keys: ['Ctrl', 'D'], action: 'Duplicate the selection' },
      { keys: ['Del'], action: 'Delete the selection (also Backspace)' },
    ],
  },
  {
    group: 'Debugging a run',
    items: [
      { keys: ['Shift', 'F5'], action: 'Stop the shown run (choose Drain, Cancel or Kill)' },
      { keys: ['F6'], action: 'Pause or resume the shown run' },
      { keys: ['F9'], action: 'Toggle a breakpoint on the selected node' },
      { keys: ['F10'], action: 'Step: let the held message(s) through, then hold again' },
    ],
  },
  {
    group: 'Approval inbox',
    items: [
      { keys: ['Ctrl', 'Shift', 'I'], action: 'Open or close the inbox' },
      { keys: ['J'], action: 'Next approval' },
      { keys: ['K'], action: 'Previous approval' },
      { keys: ['A'], action: 'Approve (with the data typed, if any)' },
      { keys: ['R'], action: 'Reject' },
    ],
  },
  {
    group: 'Files, view and runs (also in the desktop menu)',
    items: [
      { keys: ['Ctrl', 'N'], action: 'New workflow' },
      { keys: ['Ctrl', 'Shift', 'S'], action: 'Save as… (another workflow id)' },
      { keys: ['Ctrl', 'I'], action: 'Import a workflow file' },
      { keys: ['Ctrl', 'E'], action: 'Export this workflow as a file' },
      { keys: ['Alt', 'F5'], action: 'Run with payload…' },
      { keys: ['Ctrl', 'A'], action: 'Select every node' },
      { keys: ['Ctrl', 'X'], action: 'Cut the selected nodes' },
      { keys: ['Ctrl', '='], action: 'Zoom in' },
      { keys: ['Ctrl', '-'], action: 'Zoom out' },
      { keys: ['Ctrl', '0'], action: 'Fit the workflow in view' },
      { keys: ['Ctrl', 'B'], action: 'Show or hide the node palette' },
      { keys: ['Ctrl', 'Alt', 'B'], action: 'Show or hide the inspector' },
      { keys: ['Ctrl', 'O'], action: 'Open a workflow file (desktop app)' },
    ],
  },
  {
    group: 'Canvas',
    items: [
      { keys: ['Shift', 'Click'], action: 'Add a node to the selection' },
      { keys: ['Shift', 'Drag'], action: 'Select with a box (or turn on box select in the toolbar)' },
      { keys: ['Esc'], action: 'Close a dialog' },
    ],
  },
];
