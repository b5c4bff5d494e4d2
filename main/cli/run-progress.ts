import { assertNever } from '../../shared/assert-never';
import type { StudioEvent } from '../../shared/events/events';

const MAX_SHOWN = 400;

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}… (${text.length} chars)` : text;
}

/**
 * One progress line for an event, or null for events not worth a line (the PENDING announcements).
 * `yukta run` prints these as the run goes.
 */
export function progressLine(event: StudioEvent): string | null {
  switch (event.type) {
    case 'EXECUTION_STATUS':
      if (event.status === 'PENDING') return null;
      return `run ${event.status}${event.error ? `: ${event.error.message}` : ''}`;
    case 'NODE_STATUS': {
      if (event.status === 'PENDING') return null;
      const counts = event.status === 'RUNNING' ? '' : ` (in ${event.counts.received}, out ${event.counts.emitted})`;
      return `  [${event.nodeId}] ${event.status}${counts}${event.error ? `: ${event.error.message}` : ''}`;
    }
    case 'LOG':
      return `  [${event.nodeId ?? 'run'}] ${event.level}: ${shown(event.text)}`;
    case 'NODE_RESULT':
      return `  [${event.nodeId}] result: ${shown(event.payload)}`;
    case 'CONTROL':
      return `  control ${event.outcome === 'CONTROL_APPLIED' ? 'applied' : 'rejected'}: ${event.status} (by ${event.actor})`;
    case 'APPROVAL':
      return `  [${event.nodeId}] ${event.state === 'OPEN' ? `waiting for signal "${event.signal}"` : `signal "${event.signal}" ${event.decision ?? 'closed'}`}`;
    default:
      return assertNever(event, 'event');
  }
}
