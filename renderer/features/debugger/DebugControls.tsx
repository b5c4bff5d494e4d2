import { ChevronDown, Pause, Play, Square, StepForward } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
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

/**
 * The app bar's debug controls while a run is shown (UI.md): Pause/Resume (F6), Step n (F10) and Stop ▾
 * (Shift+F5 opens the menu: Drain, Cancel, Kill). Disabled once the run has ended.
 */
export function DebugControls({ actions }: { actions: DebugActions }) {
  const executionId = useLive((s) => s.executionId);
  const runStatus = useLive((s) => s.runStatus);
  const holding = useDebug((s) => Boolean(s.control?.paused || s.control?.nodes.some((n) => n.paused || n.held)));
  const canStep = useDebug((s) => Boolean(s.control?.paused || s.control?.stepMode || s.control?.nodes.some((n) => n.paused || n.held)));
  const stepCount = useDebug((s) => s.stepCount);
  const setStepCount = useDebug((s) => s.setStepCount);
  const menuOpen = useDebug((s) => s.stopMenuOpen);
  const setMenuOpen = useDebug((s) => s.setStopMenuOpen);
  if (executionId === null) return null;
  const ended = runStatus !== null && isTerminal(runStatus);
  return (
    <div className="debug-controls" role="group" aria-label="Debug the shown run" data-testid="debug-controls">
      <button type="button" className="button" onClick={() => void actions.pauseOrResume()} disabled={ended} data-testid="debug-pause" data-holding={holding} title={holding ? 'Resume the run (F6)' : 'Pause the run (F6)'}>
        {holding ? <Play size={15} aria-hidden="true" /> : <Pause size={15} aria-hidden="true" />} {holding ? 'Resume' : 'Pause'}
      </button>
      <div className="split-button">
        <button type="button" className="button" onClick={() => void actions.step()} disabled={ended || !canStep} data-testid="debug-step" title={`Let ${stepCount} message(s) through the node holding one, then hold again (F10)`}>
          <StepForward size={15} aria-hidden="true" /> Step
        </button>
        <input className="step-count" type="number" min={1} value={stepCount} onChange={(e) => setStepCount(Number(e.target.value))} aria-label="Messages per step" data-testid="debug-step-count" />
      </div>
      <div className="split-button menu-anchor">
        <button type="button" className="button danger" onClick={() => void actions.stop('CANCEL')} disabled={ended} data-testid="debug-stop" title="Stop the run: cancel (Shift+F5 for the modes)">
          <Square size={13} aria-hidden="true" /> Stop
        </button>
        <button type="button" className="button danger caret" onClick={() => setMenuOpen(!menuOpen)} disabled={ended} aria-haspopup="menu" aria-expanded={menuOpen} aria-label="Stop with a mode…" data-testid="debug-stop-menu-button">
          <ChevronDown size={15} aria-hidden="true" />
        </button>
        {menuOpen && !ended && <StopMenu onPick={(mode) => void actions.stop(mode)} />}
      </div>
    </div>
  );
}

/** The stop modes as a menu: arrows move, Enter picks, Escape or a click elsewhere closes. */
function StopMenu({ onPick }: { onPick: (mode: StopMode) => void }) {
  const menu = useRef<HTMLDivElement>(null);
  const setOpen = useDebug((s) => s.setStopMenuOpen);
  const onClose = () => setOpen(false);
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const away = (e: MouseEvent) => {
      if (!menu.current?.parentElement?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [setOpen]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    }
    e.nativeEvent.stopImmediatePropagation();
  };
  return (
    <div ref={menu} className="menu" role="menu" aria-label="Stop mode" onKeyDown={onKey} data-testid="debug-stop-menu">
      {STOP_MODES.map(({ mode, label, hint }) => (
        <button key={mode} type="button" role="menuitem" className="menu-item" onClick={() => onPick(mode)} data-testid={`debug-stop-${mode}`}>
          <span className="menu-item-label">{label}</span>
          <span className="menu-item-hint">{hint}</span>
        </button>
      ))}
    </div>
  );
}
