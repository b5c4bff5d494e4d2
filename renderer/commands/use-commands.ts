import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect } from 'react';
import { acceleratorOf, COMMAND_IDS, type CommandId } from '../../shared/desktop/commands';
import { findDesktopBridge } from '../desktop/desktop-bridge';
import { readOnlyReason, useHa } from '../store/ha-store';
import { useInbox } from '../store/inbox-store';
import { useStudio } from '../store/studio-store';
import type { StudioActions } from '../features/workflow/workflow-actions';
import { matchesChord, parseAccelerator, type KeyChord } from './accelerator';
import { COMMAND_TABLE, isTextField, type CommandSource } from './command-table';

export type RunCommand = (id: CommandId, source?: CommandSource) => boolean;

/** Every key of every command: its accelerator and its further keys, parsed once. */
const KEYMAP: ReadonlyArray<{ id: CommandId; chord: KeyChord }> = COMMAND_IDS.flatMap((id) => {
  const accelerator = acceleratorOf(id);
  const keys = [...(accelerator ? [accelerator] : []), ...(COMMAND_TABLE[id].keys ?? [])];
  return keys.map((key) => ({ id, chord: parseAccelerator(key) }));
});

/** Commands that save or start and steer runs: refused on a standby (SCL-02), which is read-only. */
const WRITING_COMMANDS = new Set<CommandId>([
  'file.save',
  'file.save-as',
  'run.run',
  'run.run-with-payload',
  'run.pause-resume',
  'run.step',
  'run.stop',
  'run.stop-drain',
  'run.stop-cancel',
  'run.stop-kill',
]);

/** The command a key event names, if any. */
export function commandForKey(e: KeyboardEvent): CommandId | null {
  return KEYMAP.find((k) => matchesChord(e, k.chord))?.id ?? null;
}

/**
 * Runs the studio's commands (STU-08) from the keyboard, the desktop menu and the buttons: one table,
 * one runner. Nothing runs while a dialog is open (it has the keys, and the menu must not act behind it).
 */
export function useStudioCommands(actions: StudioActions): RunCommand {
  const flow = useReactFlow();
  const run = useCallback<RunCommand>(
    (id, source = 'button') => {
      if (useStudio.getState().dialog !== null) return false;
      const readOnly = WRITING_COMMANDS.has(id) ? readOnlyReason(useHa.getState().status) : null;
      if (readOnly !== null) {
        useStudio.getState().showBanner({ kind: id.startsWith('file.') ? 'save-error' : 'run-error', message: readOnly });
        return false;
      }
      return COMMAND_TABLE[id].run({ actions, flow, desktop: findDesktopBridge(), source }) !== false;
    },
    [actions, flow],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || useStudio.getState().dialog !== null) return;
      // Escape closes the inbox (J/K/A/R belong to the inbox panel itself).
      if (e.key === 'Escape' && useInbox.getState().open && !e.ctrlKey && !e.metaKey) return void (actions.toggleInbox(false), e.preventDefault());
      const id = commandForKey(e);
      if (id === null) return;
      const spec = COMMAND_TABLE[id];
      if (spec.scope === 'canvas' && isTextField(e.target)) return;
      // A global key is the studio's even when it had nothing to do; a canvas key that did nothing keeps the browser's default.
      if (run(id, 'key') || spec.scope === 'global') e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    const offMenu = findDesktopBridge()?.onCommand((id) => void run(id, 'menu'));
    return () => {
      window.removeEventListener('keydown', onKey);
      offMenu?.();
    };
  }, [actions, run]);
  return run;
}
