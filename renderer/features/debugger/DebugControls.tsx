import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, Pause, Play, Square, StepForward } from 'lucide-react';
import { keepKeysInside } from '../../components/Dialog';
import type { StopMode } from '../../../shared/api/control.schema';
import { isTerminal } from '../../../shared/status/status';
import { useDebug } from '../../store/debug-store';
import { useLive } from '../../store/live-store';
import type { DebugActions } from './debug-actions';

const STOP_MODES: ReadonlyArray<{ mode: StopMode; label: string; hint: string }> = [
  { mode: 'DRAIN', label: 'Drain', hint: 'Triggers stop; messages in flight finish; ends STOPPED' },
  { mode: 'CANCEL', label: 'Cancel', hint: 'Every node stops taking messages; calls in plugins may finish; ends CANCELLED' },
  { mode: 'KILL', label: 'Kill', hint: 'Work inside plugins is abandoned at once; ends CANCELLED' },
];

/** Stop (cancel) and its ▾ menu of modes (Shift+F5 opens it: Drain, Cancel, Kill). */
function StopButton({ actions, ended }: { actions: DebugActions; ended: boolean }) {
  const menuOpen = useDebug((s) => s.stopMenuOpen);
  const setMenuOpen = useDebug((s) => s.setStopMenuOpen);
  return (
    <div className="split-button">
      <button
        type="button"
        className="button danger"
        onClick={() => void actions.stop('CANCEL')}
        disabled={ended}
        data-testid="debug-stop"
        title="Stop the run: cancel (Shift+F5 for the modes)"
      >
        <Square size={13} aria-hidden="true" /> Stop
      </button>
      <DropdownMenu.Root open={menuOpen && !ended} onOpenChange={setMenuOpen} modal={false}>
        <DropdownMenu.Trigger asChild disabled={ended}>
          <button type="button" className="button danger caret" aria-label="Stop with a mode…" data-testid="debug-stop-menu-button">
            <ChevronDown size={15} aria-hidden="true" />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4} aria-label="Stop mode" onKeyDown={keepKeysInside} data-testid="debug-stop-menu">
            {STOP_MODES.map(({ mode, label, hint }) => (
              <DropdownMenu.Item key={mode} className="menu-item" onSelect={() => void actions.stop(mode)} data-testid={`debug-stop-${mode}`}>
                <span className="menu-item-label">{label}</span>
                <span className="menu-item-hint">{hint}</span>
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

/**
 * The app bar's debug controls while a run is shown (UI.md): Pause/Resume (F6), Step n (F10) and Stop ▾
 * (Shift+F5 opens the menu: Drain, Cancel, Kill; a Radix menu: arrows, Enter, Escape). Disabled once the run has ended.
 */
export function DebugControls({ actions }: { actions: DebugActions }) {
  const executionId = useLive((s) => s.executionId);
  const runStatus = useLive((s) => s.runStatus);
  const holding = useDebug((s) => Boolean(s.control?.paused || s.control?.nodes.some((n) => n.paused || n.held)));
  const canStep = useDebug((s) => Boolean(s.control?.paused || s.control?.stepMode || s.control?.nodes.some((n) => n.paused || n.held)));
  const stepCount = useDebug((s) => s.stepCount);
  const setStepCount = useDebug((s) => s.setStepCount);
  if (executionId === null) return null;
  const ended = runStatus !== null && isTerminal(runStatus);
  return (
    <div className="debug-controls" role="group" aria-label="Debug the shown run" data-testid="debug-controls">
      <button
        type="button"
        className="button"
        onClick={() => void actions.pauseOrResume()}
        disabled={ended}
        data-testid="debug-pause"
        data-holding={holding}
        title={holding ? 'Resume the run (F6)' : 'Pause the run (F6)'}
      >
        {holding ? <Play size={15} aria-hidden="true" /> : <Pause size={15} aria-hidden="true" />} {holding ? 'Resume' : 'Pause'}
      </button>
      <div className="split-button">
        <button
          type="button"
          className="button"
          onClick={() => void actions.step()}
          disabled={ended || !canStep}
          data-testid="debug-step"
          title={`Let ${stepCount} message(s) through the node holding one, then hold again (F10)`}
        >
          <StepForward size={15} aria-hidden="true" /> Step
        </button>
        <input
          className="step-count"
          type="number"
          min={1}
          value={stepCount}
          onChange={(e) => setStepCount(Number(e.target.value))}
          aria-label="Messages per step"
          data-testid="debug-step-count"
        />
      </div>
      <StopButton actions={actions} ended={ended} />
    </div>
  );
}
