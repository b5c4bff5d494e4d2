import { selectedNodeId } from '../../store/graph-slice';
import { useDebug } from '../../store/debug-store';
import { useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import type { StudioActions } from '../workflow/workflow-actions';
import { shownRunLive } from './debug-actions';

type Rule = { match: (e: KeyboardEvent, key: string, mod: boolean) => boolean; run: (actions: StudioActions) => void };

/**
 * The debugger's and the inbox's keys (UI.md), also while typing in a field: Shift+F5 opens the Stop menu,
 * F6 pauses or resumes the shown run, F9 toggles the selected node's breakpoint, F10 steps, Ctrl/Cmd+Shift+I
 * opens or closes the inbox (Escape closes it). J/K/A/R belong to the inbox panel itself.
 */
export const DEBUG_SHORTCUTS: readonly Rule[] = [
  { match: (e, _key, mod) => e.key === 'F5' && e.shiftKey && !mod, run: () => shownRunLive() && useDebug.getState().setStopMenuOpen(true) },
  { match: (e, _key, mod) => e.key === 'F6' && !e.shiftKey && !mod, run: (a) => shownRunLive() && void a.pauseOrResume() },
  {
    match: (e, _key, mod) => e.key === 'F9' && !e.shiftKey && !mod,
    run: (a) => {
      const nodeId = selectedNodeId(useStudio.getState());
      if (nodeId !== null && !useStudio.getState().diffView) a.toggleBreakpoint(nodeId);
    },
  },
  { match: (e, _key, mod) => e.key === 'F10' && !e.shiftKey && !mod, run: (a) => useLive.getState().executionId !== null && void a.step() },
  { match: (e, key, mod) => mod && e.shiftKey && !e.altKey && key === 'i', run: (a) => a.toggleInbox() },
  { match: (e, _key, mod) => e.key === 'Escape' && !mod && useInbox.getState().open, run: (a) => a.toggleInbox(false) },
];
