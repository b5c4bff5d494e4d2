import type { StudioClient } from '../../../shared/api/client';
import { useDebug } from '../../store/debug-store';
import { useLive } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import { createBreakpointActions, type BreakpointActions } from './breakpoint-actions';
import { createRestartActions, type RestartActions } from './restart-actions';
import { createRunCommandActions, type DebugStores, type RunCommandActions } from './run-command-actions';

export { shownRunLive } from './run-command-actions';

/** The debugger (STU-04): commands to the shown run, its valves, and the canvas breakpoints. */
export interface DebugActions extends RunCommandActions, BreakpointActions, RestartActions {}

export function createDebugActions(
  api: StudioClient,
  showRun: (executionId: string) => Promise<void>,
  stores: DebugStores = { studio: useStudio, live: useLive, debug: useDebug },
): DebugActions {
  const commands = createRunCommandActions(api, stores);
  return {
    ...commands,
    ...createBreakpointActions(api, stores, commands.command),
    ...createRestartActions(api, stores, showRun),
  };
}
