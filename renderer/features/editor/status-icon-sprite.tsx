import type { Status } from '../../../shared/status/status';
import { ALL_STATUSES, NO_STATUS, STATUS_STYLES } from '../../components/status';

const symbolId = (status: Status | undefined) => `yukta-status-icon-${status ?? 'NONE'}`;

/**
 * Every status icon once, as SVG symbols (mounted once with the canvas). Canvas nodes draw theirs with
 * `<use>`, so a status change swaps one attribute instead of React building a new icon per node: hundreds
 * of nodes changing status in one frame did that (bench/ui-live).
 */
export function StatusIconSprite() {
  return (
    <svg width="0" height="0" style={{ position: 'absolute' }} aria-hidden="true" focusable="false" data-testid="status-icon-sprite">
      {[...ALL_STATUSES, undefined].map((status) => {
        const Icon = status ? STATUS_STYLES[status].icon : NO_STATUS.icon;
        return (
          <symbol key={status ?? 'NONE'} id={symbolId(status)} viewBox="0 0 24 24">
            <Icon size={24} />
          </symbol>
        );
      })}
    </svg>
  );
}

/** A status icon drawn from the sprite (the canvas's `StatusIconSprite` must be mounted). */
export function SpriteStatusIcon({ status, size }: { status: Status | undefined; size: number }) {
  return (
    <svg width={size} height={size} className="status-icon" aria-hidden="true" focusable="false">
      <use href={`#${symbolId(status)}`} />
    </svg>
  );
}
