import { useEffect } from 'react';
import { useStudio } from '../../store/studio-store';
import { DEBUG_SHORTCUTS } from '../debugger/debug-shortcuts';
import { copySelected, deleteSelected, duplicateSelected, pasteClipboard } from '../editor/editor-commands';
import type { StudioActions } from './workflow-actions';

type Handler = (e: KeyboardEvent) => boolean;

/** Shortcuts that work everywhere, also while typing in a field. */
const GLOBAL: Array<{ match: (e: KeyboardEvent, key: string, mod: boolean) => boolean; run: (actions: StudioActions) => void }> = [
  { match: (e, key, mod) => mod && !e.shiftKey && !e.altKey && key === 's', run: (a) => void a.save() },
  { match: (e, key, mod) => mod && !e.altKey && key === 'k', run: () => useStudio.getState().openDialog('node-search') },
  { match: (e, _key, mod) => e.key === 'F5' && !e.shiftKey && !mod, run: (a) => void a.run() },
  ...DEBUG_SHORTCUTS,
];

/** Shortcuts of the canvas: not while typing in a field (text fields keep their own undo, copy and paste). */
const CANVAS: Array<{ match: (e: KeyboardEvent, key: string, mod: boolean) => boolean; run: () => boolean | void }> = [
  { match: (e, key, mod) => mod && !e.altKey && ((key === 'z' && e.shiftKey) || (key === 'y' && !e.shiftKey)), run: () => useStudio.getState().redo() },
  { match: (e, key, mod) => mod && !e.altKey && !e.shiftKey && key === 'z', run: () => useStudio.getState().undo() },
  // Selected text on the page (a message in a panel) is copied by the browser, not the node selection.
  { match: (e, key, mod) => mod && !e.altKey && !e.shiftKey && key === 'c' && !window.getSelection()?.toString(), run: () => copySelected() },
  { match: (e, key, mod) => mod && !e.altKey && !e.shiftKey && key === 'v', run: () => pasteClipboard() },
  { match: (e, key, mod) => mod && !e.altKey && !e.shiftKey && key === 'd', run: () => duplicateSelected() },
  { match: (e, _key, mod) => !mod && (e.key === 'Delete' || e.key === 'Backspace'), run: () => deleteSelected() },
  { match: (e, _key, mod) => !mod && e.key === '?', run: () => useStudio.getState().openDialog('shortcuts') },
];

/** The keyboard map of UI.md for what exists; the `?` dialog lists the same (shortcuts.ts). */
export function useStudioShortcuts(actions: StudioActions): void {
  useEffect(() => {
    const handlers: Handler[] = [
      (e) => runFirst(e, GLOBAL, (r) => (r.run(actions), true)),
      (e) => !isTextField(e.target) && runFirst(e, CANVAS, (r) => r.run() !== false),
    ];
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || useStudio.getState().dialog !== null) return;
      for (const handler of handlers) if (handler(e)) return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}

/** Runs the first matching rule; the browser's default is prevented only when the rule did something. */
function runFirst<R extends { match: (e: KeyboardEvent, key: string, mod: boolean) => boolean }>(e: KeyboardEvent, rules: readonly R[], run: (rule: R) => boolean): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  const rule = rules.find((r) => r.match(e, key, mod));
  if (!rule || !run(rule)) return false;
  e.preventDefault();
  return true;
}

export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}
