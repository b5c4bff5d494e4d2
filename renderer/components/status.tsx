import {
  Ban,
  CircleCheck,
  CircleDashed,
  CircleMinus,
  CircleSlash,
  CircleStop,
  CircleX,
  Clock,
  Hand,
  Hourglass,
  LoaderCircle,
  OctagonX,
  CirclePause,
  SkipForward,
  Timer,
  type LucideIcon,
} from 'lucide-react';
import { Status } from '../../shared/status/status';

/** How one status looks, wherever it appears (nodes, run list, timeline). */
export interface StatusStyle {
  label: string;
  /** Main colour: icon, border and tint. */
  color: string;
  icon: LucideIcon;
  /** Extra cue beyond colour (UI.md): RUNNING pulses, CANCELLED is struck, SKIPPED is dashed. */
  cue?: 'pulse' | 'struck' | 'dashed';
}

/**
 * THE status map of the studio (UI.md "Status colours"): one entry per Status, checked by the compiler.
 * Never colour alone — every status also has an icon and a text label.
 */
export const STATUS_STYLES: { readonly [K in Status]: StatusStyle } = {
  PENDING: { label: 'Pending', color: '#8a8f98', icon: Clock },
  QUEUED: { label: 'Queued', color: '#64748b', icon: Hourglass },
  RUNNING: { label: 'Running', color: '#2f7de1', icon: LoaderCircle, cue: 'pulse' },
  SUCCESS: { label: 'Success', color: '#2e9e53', icon: CircleCheck },
  FAILURE: { label: 'Failure', color: '#d93f3f', icon: CircleX },
  ERROR: { label: 'Error', color: '#d93f3f', icon: OctagonX },
  TIMED_OUT: { label: 'Timed out', color: '#e8820c', icon: Timer },
  STOPPED: { label: 'Stopped', color: '#4b5058', icon: CircleStop },
  CANCELLED: { label: 'Cancelled', color: '#4b5058', icon: Ban, cue: 'struck' },
  SKIPPED: { label: 'Skipped', color: '#8a8f98', icon: SkipForward, cue: 'dashed' },
  UPSTREAM_FAILED: { label: 'Upstream failed', color: '#ef9a9a', icon: CircleSlash },
  ABORTED: { label: 'Aborted', color: '#8e44ad', icon: CircleMinus },
};

/**
 * A running node that holds a message is not "Running" (UI.md): held at a breakpoint it pulses amber, waiting
 * for a signal it has its own colour. The run and its row use the same looks.
 */
export type HoldKind = 'held' | 'waiting';
export const HOLD_STYLES: { readonly [K in HoldKind]: StatusStyle } = {
  held: { label: 'Paused at breakpoint', color: '#e0a100', icon: CirclePause, cue: 'pulse' },
  waiting: { label: 'Waiting for approval', color: '#0f8b8d', icon: Hand },
};

/** A badge for a held or waiting node or run, with an optional detail ("approve, 2 waiting"). */
export function HoldBadge({ kind, detail, testId }: { kind: HoldKind; detail?: string; testId?: string }) {
  const style = HOLD_STYLES[kind];
  const Icon = style.icon;
  return (
    <span className={`status-badge hold-${kind}`} style={{ ['--status-color' as string]: style.color }} data-testid={testId} data-hold={kind}>
      <Icon size={12} aria-hidden="true" className="status-icon" />
      <span className="status-label">
        {style.label}
        {detail ? ` (${detail})` : ''}
      </span>
    </span>
  );
}

/** Placeholder when no run is shown (the node has no status). */
export const NO_STATUS: StatusStyle = { label: 'Not run', color: '#9aa3ad', icon: CircleDashed };

export const ALL_STATUSES: readonly Status[] = Status.options;

export function statusStyle(status: Status): StatusStyle {
  return STATUS_STYLES[status];
}

/** Class names carrying the status colour and its non-colour cue. */
export function statusClassName(status: Status): string {
  const cue = STATUS_STYLES[status].cue;
  return `status status-${status.toLowerCase()}${cue ? ` status-cue-${cue}` : ''}`;
}

/** A compact badge: icon + label, coloured by status. */
export function StatusBadge({ status, testId, compact = false }: { status: Status; testId?: string; compact?: boolean }) {
  const style = STATUS_STYLES[status];
  const Icon = style.icon;
  return (
    <span
      className={`status-badge ${statusClassName(status)}`}
      style={{ ['--status-color' as string]: style.color }}
      data-testid={testId}
      data-status={status}
      title={style.label}
    >
      <Icon size={compact ? 12 : 14} aria-hidden="true" className="status-icon" />
      <span className="status-label">{style.label}</span>
    </span>
  );
}
