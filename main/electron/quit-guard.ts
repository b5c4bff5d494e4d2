/**
 * Quitting with runs active (STU-08): the app asks Drain / Cancel / Kill / Keep running, sends the chosen
 * stop to every active run, and only then lets the quit go on (the host's shutdown waits for runs to end,
 * up to its grace period). Plain logic with its parts injected, so it is tested without Electron.
 */
import type { StopMode } from '../../shared/api/control.schema';

export type QuitChoice = StopMode | 'KEEP';

/** The dialog's buttons, in order; "Keep running" is the cancel button (Escape). */
export const QUIT_BUTTONS: ReadonlyArray<{ label: string; choice: QuitChoice }> = [
  { label: 'Drain', choice: 'DRAIN' },
  { label: 'Cancel runs', choice: 'CANCEL' },
  { label: 'Kill', choice: 'KILL' },
  { label: 'Keep running', choice: 'KEEP' },
];

/** Electron `dialog.showMessageBox` options for `count` active runs. */
export function quitDialogOptions(count: number) {
  return {
    type: 'question' as const,
    title: 'Runs are active',
    message: `${count} run${count === 1 ? ' is' : 's are'} still active. Stop ${count === 1 ? 'it' : 'them'} and quit?`,
    detail:
      'Drain lets each node finish the message it holds and stops taking new ones. Cancel stops starting new work. Kill abandons the work at once. Keep running leaves the app open.',
    buttons: QUIT_BUTTONS.map((b) => b.label),
    defaultId: 0,
    cancelId: QUIT_BUTTONS.length - 1,
    noLink: true,
  };
}

/** The choice of a dialog answer (an unknown index keeps the app running). */
export function quitChoiceOf(response: number): QuitChoice {
  return QUIT_BUTTONS[response]?.choice ?? 'KEEP';
}

export interface QuitGuardDeps {
  /** Ids of the runs not yet ended. */
  activeRuns(): Promise<string[]>;
  /** Shows the question; resolves with the choice. */
  ask(count: number): Promise<QuitChoice>;
  /** Sends a stop with this mode to one run. */
  stop(executionId: string, mode: StopMode): Promise<void>;
}

/**
 * Whether the quit may go on: yes at once without active runs; otherwise as the user chose (the stop sent
 * to each run first). Once yes, later calls say yes without asking again.
 */
export function createQuitGuard(deps: QuitGuardDeps): { confirm(): Promise<boolean>; readonly confirmed: boolean } {
  let confirmed = false;
  let asking: Promise<boolean> | null = null;
  const decide = async (): Promise<boolean> => {
    const active = await deps.activeRuns();
    if (active.length > 0) {
      const choice = await deps.ask(active.length);
      if (choice === 'KEEP') return false;
      await Promise.all(active.map((id) => deps.stop(id, choice).catch(() => undefined)));
    }
    confirmed = true;
    return true;
  };
  return {
    get confirmed() {
      return confirmed;
    },
    confirm() {
      if (confirmed) return Promise.resolve(true);
      // One question at a time: closing the window and Cmd+Q together ask once.
      asking ??= decide().finally(() => (asking = null));
      return asking;
    },
  };
}
