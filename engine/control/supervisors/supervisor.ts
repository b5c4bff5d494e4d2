import type { ControlCommandInput } from '../../../shared/api/control.schema';
import type { StudioEvent } from '../../../shared/events/events';

/** A command a supervisor wants applied to a run, with the supervisor's id as actor. */
export interface SupervisorCommand {
  executionId: string;
  command: ControlCommandInput;
}

/**
 * A supervisor (CTL-07): reads the global event feed and answers with commands. The feed is bounded
 * (a slow supervisor loses events, counted, instead of slowing the engine) and never carries the outcome
 * of the supervisor's own commands. A supervisor that throws is subscribed again after a backoff.
 */
export interface Supervisor {
  readonly id: string;
  supervise(events: AsyncIterable<StudioEvent>, signal: AbortSignal): AsyncIterable<SupervisorCommand>;
  /**
   * Whether the supervisor has any use for an event right now; the host does not queue those it has none
   * for (absent: every event). Asked for each event of the bus, so it must be cheap.
   */
  wants?(event: StudioEvent): boolean;
}
