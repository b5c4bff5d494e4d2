import type { SupervisorRule } from '../../../shared/api/supervisors.schema';
import { BadInputError } from '../../engine-errors';
import type { StudioEvent } from '../../../shared/events/events';
import { isTerminal } from '../../../shared/status/status';
import { compileCondition, conditionSyntaxError } from '../../plugins/expressions/condition';
import type { Supervisor, SupervisorCommand } from './supervisor';

/** Runs whose session the supervisor remembers (their first event names it); the oldest are forgotten. */
const MAX_TRACKED_RUNS = 10_000;

/**
 * The built-in rule supervisor (CTL-07): per session, JSON rules `{when, then}` where `when` is a CEL
 * condition over the event's fields (SEC-02: no code, no globals) and `then` a command sent to the event's
 * run. A condition that fails to evaluate or gives anything but `true` does not match.
 */
export class RuleSupervisor implements Supervisor {
  readonly id = 'rules';
  private readonly rules = new Map<string, SupervisorRule[]>();

  /** Refuses a rule whose condition does not parse, naming it. */
  static check(rules: readonly SupervisorRule[]): void {
    rules.forEach((rule, i) => {
      const problem = conditionSyntaxError(rule.when);
      if (problem) throw new BadInputError(`rules.${i}.when: not a valid CEL condition: ${problem}`, 'BAD_INPUT', `rules.${i}.when`);
    });
  }

  /** Replaces a session's rules; a condition that does not parse is refused naming the rule. */
  setRules(session: string, rules: SupervisorRule[]): void {
    RuleSupervisor.check(rules);
    if (rules.length)
      this.rules.set(
        session,
        rules.map((r) => structuredClone(r)),
      );
    else this.rules.delete(session);
  }

  getRules(session: string): SupervisorRule[] {
    return (this.rules.get(session) ?? []).map((r) => structuredClone(r));
  }

  /** Sessions with rules, with their rule counts. */
  sessions(): Record<string, number> {
    return Object.fromEntries([...this.rules].map(([s, r]) => [s, r.length]));
  }

  /** Without rules only run events matter (they say each run's session, for rules set while it runs). */
  wants(event: StudioEvent): boolean {
    return this.rules.size > 0 || event.type === 'EXECUTION_STATUS';
  }

  async *supervise(events: AsyncIterable<StudioEvent>): AsyncIterable<SupervisorCommand> {
    const sessionOf = new Map<string, string>();
    for await (const event of events) {
      if (event.type === 'EXECUTION_STATUS' && !sessionOf.has(event.executionId)) {
        sessionOf.set(event.executionId, event.session);
        if (sessionOf.size > MAX_TRACKED_RUNS) sessionOf.delete(sessionOf.keys().next().value as string);
      }
      const session = sessionOf.get(event.executionId);
      if (session !== undefined) {
        for (const rule of this.rules.get(session) ?? []) {
          if (holds(rule.when, event)) yield { executionId: event.executionId, command: rule.then };
        }
      }
      if (event.type === 'EXECUTION_STATUS' && isTerminal(event.status)) sessionOf.delete(event.executionId);
    }
  }
}

function holds(condition: string, event: StudioEvent): boolean {
  try {
    return compileCondition(condition)({ event } as never) === true;
  } catch {
    return false;
  }
}
