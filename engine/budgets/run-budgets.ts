import { BadInputError, RunAbortedError } from '../runtime/errors';

/** What one run (or one agent of a run) has used so far (EXT-03). */
export interface BudgetUse {
  /** LLM_CALL requests sent (each attempt counts: a retry is a call). */
  llmCalls: number;
  /** MCP_TOOL_CALL tool calls sent. */
  toolCalls: number;
  /** Input + output tokens the providers reported. */
  tokens: number;
  /** Cost of those tokens (the node's `prices`, per million tokens). */
  cost: number;
}

/** A node's budget: limits on the use of its run (or of its agent within the run). */
export interface BudgetLimits {
  maxTokens?: number | undefined;
  maxCost?: number | undefined;
  maxCalls?: number | undefined;
  /** At the limit the whole run ends (RunAbortedError) instead of only this call failing. */
  hardStop?: boolean | undefined;
  /** Use is counted apart for each agent; no agent: the run's shared count. */
  agent?: string | undefined;
}

/** Which call counter a node's `maxCalls` reads. */
export type CallKind = 'llm' | 'tool';

/** A call refused because its budget is used up: fails like a failed call, never retried (EXT-03). */
export class BudgetExceededError extends BadInputError {
  constructor(message: string) {
    super(message, 'BUDGET_EXCEEDED');
  }
}

/** Runs remembered (the newest; seeds: RunBudgets keeps the newest 10000 runs). */
export const DEFAULT_MAX_BUDGET_RUNS = 10_000;
const RUN_SCOPE = '';

function emptyUse(): BudgetUse {
  return { llmCalls: 0, toolCalls: 0, tokens: 0, cost: 0 };
}

/**
 * One ledger of LLM and MCP use per run, across its nodes (EXT-03), shared by every run of an engine and
 * reached by plugins as `ctx.services.budgets`. A budget with an `agent` is counted apart from the run's
 * shared count. Admission reserves the call synchronously, so nodes racing for the last call cannot both
 * get it; tokens and cost are added when the answer arrives, so the call that crosses a token or cost
 * limit completes and the next one is refused.
 */
export class RunBudgets {
  private readonly runs = new Map<string, Map<string, BudgetUse>>();

  constructor(private readonly maxRuns = DEFAULT_MAX_BUDGET_RUNS) {}

  /** The use so far of a run (or of one agent of it). */
  use(executionId: string, agent?: string): Readonly<BudgetUse> {
    return { ...(this.runs.get(executionId)?.get(agent ?? RUN_SCOPE) ?? emptyUse()) };
  }

  /**
   * Counts one call of `kind` against the budget, or refuses it: BudgetExceededError (the call fails like
   * a failed call) or, with `hardStop`, RunAbortedError (the whole run ends).
   */
  admit(executionId: string, kind: CallKind, limits: BudgetLimits = {}): Readonly<BudgetUse> {
    const use = this.entry(executionId, limits.agent);
    const refusal = refusalOf(use, kind, limits);
    if (refusal) {
      const scope = limits.agent ? `agent "${limits.agent}" of this run` : 'this run';
      const message = `budget of ${scope} is used up: ${refusal}`;
      throw limits.hardStop ? new RunAbortedError(`${message} (hardStop: the run ends)`) : new BudgetExceededError(message);
    }
    if (kind === 'llm') use.llmCalls++;
    else use.toolCalls++;
    return { ...use };
  }

  /** Adds the tokens and cost of an answered call. */
  record(executionId: string, agent: string | undefined, spent: { tokens: number; cost: number }): Readonly<BudgetUse> {
    const use = this.entry(executionId, agent);
    use.tokens += spent.tokens;
    use.cost += spent.cost;
    return { ...use };
  }

  /** Forgets a run (e.g. once it is long finished). */
  forget(executionId: string): void {
    this.runs.delete(executionId);
  }

  get size(): number {
    return this.runs.size;
  }

  private entry(executionId: string, agent: string | undefined): BudgetUse {
    let run = this.runs.get(executionId);
    if (!run) {
      run = new Map();
      this.runs.set(executionId, run);
      // Maps keep insertion order: the first key is the oldest run.
      if (this.runs.size > this.maxRuns) this.runs.delete(this.runs.keys().next().value!);
    }
    const key = agent ?? RUN_SCOPE;
    let use = run.get(key);
    if (!use) run.set(key, (use = emptyUse()));
    return use;
  }
}

function refusalOf(use: BudgetUse, kind: CallKind, limits: BudgetLimits): string | null {
  const calls = kind === 'llm' ? use.llmCalls : use.toolCalls;
  if (limits.maxCalls !== undefined && calls >= limits.maxCalls)
    return `${calls} of ${limits.maxCalls} ${kind === 'llm' ? 'LLM' : 'tool'} calls made (maxCalls)`;
  if (limits.maxTokens !== undefined && use.tokens >= limits.maxTokens) return `${use.tokens} of ${limits.maxTokens} tokens used (maxTokens)`;
  if (limits.maxCost !== undefined && use.cost >= limits.maxCost) return `cost ${round(use.cost)} of ${limits.maxCost} spent (maxCost)`;
  return null;
}

/** Cost shown with at most 6 decimals (sub-cent prices). */
export function round(cost: number): number {
  return Math.round(cost * 1e6) / 1e6;
}
