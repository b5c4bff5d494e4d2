/** One row of the `?` help dialog. `keys` are shown as typed on Windows/Linux; Cmd replaces Ctrl on macOS. */
export interface ShortcutHelp {
  keys: readonly string[];
  action: string;
}

/**
 * The studio's keyboard map (UI.md), for what exists. The handler is `useStudioShortcuts`; the help dialog
 * lists this table, so the two are kept side by side.
 */
export const SHORTCUTS: ReadonlyArray<{ group: string; items: readonly ShortcutHelp[] }> = [
  {
    group: 'Workflow',
    items: [
      { keys: ['Ctrl', 'S'], action: 'Save' },
      { keys: ['F5'], action: 'Run (saves first when needed)' },
      { keys: ['Ctrl', 'K'], action: 'Jump to a node (type, Enter)' },
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
    group: 'Canvas',
    items: [
      { keys: ['Shift', 'Click'], action: 'Add a node to the selection' },
      { keys: ['Shift', 'Drag'], action: 'Select with a box (or turn on box select in the toolbar)' },
      { keys: ['Esc'], action: 'Close a dialog' },
    ],
  },
];
