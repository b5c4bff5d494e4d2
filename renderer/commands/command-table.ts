import type { CommandId, NativeEdit } from '../../shared/desktop/commands';
import type { DesktopBridge } from '../../shared/desktop/desktop-bridge';
import { selectedNodeId } from '../store/graph-slice';
import { useDebug } from '../store/debug-store';
import { useLive } from '../store/live-store';
import { useStudio } from '../store/studio-store';
import { shownRunLive } from '../features/debugger/debug-actions';
import { copySelected, deleteSelected, duplicateSelected, pasteClipboard } from '../features/editor/editor-commands';
import { confirmDiscard } from '../features/workflow/unsaved-guard';
import type { StudioActions } from '../features/workflow/workflow-actions';
import { chooseWorkflowFile } from './choose-file';

/** Where a command came from: a key, the desktop menu, or a button of the studio. */
export type CommandSource = 'key' | 'menu' | 'button';

/** What a command may use. */
export interface CommandContext {
  actions: StudioActions;
  /** The canvas viewport (React Flow), when mounted. */
  flow: { zoomIn(): unknown; zoomOut(): unknown; fitView(): unknown } | null;
  desktop: DesktopBridge | null;
  source: CommandSource;
}

/**
 * `global`: its key works while typing in a field too (Ctrl+S, F5…); `canvas`: a field keeps its own
 * keys (undo, copy, Delete…). `keys` are further accelerators of the same command.
 */
export interface CommandSpec {
  scope: 'global' | 'canvas';
  keys?: readonly string[];
  /** Runs the command; false when there was nothing to do (a key then keeps its browser default). */
  run(ctx: CommandContext): boolean | void;
}

/** True when the keyboard focus is in a text field (its own undo, copy and paste apply there). */
export function isTextField(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

/**
 * An Edit command from the menu while a field has the focus edits the field (natively, through the
 * desktop app); on the canvas, it edits the graph. Keys in a field never get here (`canvas` scope).
 */
function editing(native: NativeEdit, onCanvas: () => boolean | void): CommandSpec['run'] {
  return (ctx) => {
    if (ctx.source === 'menu' && isTextField(document.activeElement)) {
      ctx.desktop?.nativeEdit(native);
      return true;
    }
    return onCanvas();
  };
}

const studio = () => useStudio.getState();
const openDialog = (dialog: Parameters<ReturnType<typeof studio>['openDialog']>[0]) => studio().openDialog(dialog);
const stop = (mode: 'DRAIN' | 'CANCEL' | 'KILL') => (ctx: CommandContext) => (shownRunLive() ? void ctx.actions.stop(mode) : false);

/**
 * The studio's one command table (STU-08): every id of `shared/desktop/commands.ts` with what it does.
 * The keyboard, the app bar's buttons and the desktop menu all run commands through it, so a key, a
 * button and a menu item can never do different things.
 */
export const COMMAND_TABLE: { readonly [K in CommandId]: CommandSpec } = {
  'file.new': {
    scope: 'global',
    run: (ctx) => void confirmDiscard().then((ok) => ok && ctx.actions.newWorkflow()),
  },
  'file.save': { scope: 'global', run: (ctx) => void ctx.actions.save() },
  'file.save-as': { scope: 'global', run: () => openDialog('save-as') },
  'file.import': {
    scope: 'global',
    // A page may open a file chooser only during a click or key press; a menu command is neither.
    run: (ctx) => (ctx.source === 'menu' && ctx.desktop ? ctx.desktop.openFileDialog() : chooseWorkflowFile((file) => void ctx.actions.importWorkflow(file))),
  },
  'file.export': { scope: 'global', run: (ctx) => ctx.actions.exportWorkflow() },
  'file.connect': { scope: 'global', run: () => openDialog('connect-server') },
  'file.settings': { scope: 'global', run: () => openDialog('settings') },
  'edit.undo': { scope: 'canvas', run: editing('undo', () => studio().undo()) },
  'edit.redo': { scope: 'canvas', keys: ['CmdOrCtrl+Y'], run: editing('redo', () => studio().redo()) },
  'edit.cut': { scope: 'canvas', run: editing('cut', () => copySelected() && deleteSelected()) },
  // Text selected on the page (a message in a panel) is copied by the browser, not the node selection.
  'edit.copy': { scope: 'canvas', run: editing('copy', () => !window.getSelection()?.toString() && copySelected()) },
  'edit.paste': { scope: 'canvas', run: editing('paste', () => pasteClipboard()) },
  'edit.duplicate': { scope: 'canvas', run: () => duplicateSelected() },
  'edit.delete': { scope: 'canvas', keys: ['Backspace'], run: () => deleteSelected() },
  'edit.select-all': {
    scope: 'canvas',
    run: editing('selectAll', () => {
      const s = studio();
      if (s.diffView || s.nodes.length === 0) return false;
      s.edit({ kind: 'flow-nodes', changes: s.nodes.map((n) => ({ type: 'select', id: n.id, selected: true })) });
      return true;
    }),
  },
  'view.jump-to-node': { scope: 'global', run: () => openDialog('node-search') },
  'view.zoom-in': { scope: 'canvas', run: (ctx) => void ctx.flow?.zoomIn() },
  'view.zoom-out': { scope: 'canvas', run: (ctx) => void ctx.flow?.zoomOut() },
  'view.fit': { scope: 'canvas', run: (ctx) => void ctx.flow?.fitView() },
  'view.palette': { scope: 'global', run: () => studio().togglePanel('palette') },
  'view.inspector': { scope: 'global', run: () => studio().togglePanel('inspector') },
  'view.inbox': { scope: 'global', run: (ctx) => ctx.actions.toggleInbox() },
  'view.problems': { scope: 'global', run: () => studio().setBottomTab('problems') },
  'view.runs': { scope: 'global', run: () => studio().setBottomTab('runs') },
  'view.logs': { scope: 'global', run: () => studio().setBottomTab('logs') },
  'run.run': { scope: 'global', run: (ctx) => void ctx.actions.run() },
  'run.run-with-payload': { scope: 'global', run: () => !studio().running && openDialog('run-payload') },
  'run.pause-resume': { scope: 'global', run: (ctx) => shownRunLive() && void ctx.actions.pauseOrResume() },
  'run.step': { scope: 'global', run: (ctx) => useLive.getState().executionId !== null && void ctx.actions.step() },
  'run.toggle-breakpoint': {
    scope: 'global',
    run: (ctx) => {
      const nodeId = selectedNodeId(studio());
      if (nodeId === null || studio().diffView) return false;
      ctx.actions.toggleBreakpoint(nodeId);
    },
  },
  'run.stop': { scope: 'global', run: () => shownRunLive() && useDebug.getState().setStopMenuOpen(true) },
  'run.stop-drain': { scope: 'global', run: stop('DRAIN') },
  'run.stop-cancel': { scope: 'global', run: stop('CANCEL') },
  'run.stop-kill': { scope: 'global', run: stop('KILL') },
  'help.shortcuts': { scope: 'canvas', keys: ['?'], run: () => openDialog('shortcuts') },
};
