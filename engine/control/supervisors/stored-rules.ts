import { SupervisorRules, type SupervisorRule } from '../../../shared/api/supervisors.schema';
import type { KeyValueStore } from '../../store/key-value-store';
import { RuleSupervisor } from './rule-supervisor';

/** The key–value namespace of the rule supervisor's rules, one key per session. */
export const RULES_NAMESPACE = 'supervisor-rules';

/**
 * The rule supervisor's rules kept across restarts (DUR-04: key–value state). Built with the other control
 * parts, before the start pipeline, so the engine's `ready` (which starts wait for) includes reading them back.
 */
export class StoredRules {
  readonly supervisor = new RuleSupervisor();
  /** Settles once the stored rules are back; at once without a store. */
  readonly loaded: Promise<void>;

  constructor(private readonly store: KeyValueStore | null) {
    this.loaded = store ? this.load(store) : Promise.resolve();
  }

  /** Stored first when there is a store: refused rules change nothing, stored ones are applied. */
  async save(session: string, rules: SupervisorRule[]): Promise<SupervisorRule[]> {
    RuleSupervisor.check(rules);
    if (this.store) await (rules.length ? this.store.put(RULES_NAMESPACE, session, rules) : this.store.delete(RULES_NAMESPACE, session));
    this.supervisor.setRules(session, rules);
    return this.supervisor.getRules(session);
  }

  /** The stored rules of every session; a stored value that is not a valid rule list is left out. */
  private async load(store: KeyValueStore): Promise<void> {
    for (const [session, value] of await store.entries(RULES_NAMESPACE)) {
      const parsed = SupervisorRules.safeParse(value);
      if (parsed.success) this.supervisor.setRules(session, parsed.data);
    }
  }
}
