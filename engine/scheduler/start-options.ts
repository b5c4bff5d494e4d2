import { BadInputError } from '../engine-errors';
import {
  FAIRNESS_KEY,
  FAIRNESS_WEIGHT_KEY,
  fairnessKeyProblem,
  fairnessWeightProblem,
  PRIORITY_KEY,
  priorityProblem,
  TIME_BUDGET_KEY,
  timeBudgetProblem,
} from '../../shared/api/scheduler.schema';

/** What a start payload asks of the scheduler (ADM-01 priority, ADM-04 fairness and time budget). */
export interface StartOptions {
  priority: number;
  fairnessKey?: string | undefined;
  fairnessWeight: number;
  /** Bounds every node attempt of the run (and of its sub-workflows). */
  timeBudgetMs?: number | undefined;
}

function check(payload: Record<string, unknown>, key: string, problem: (value: unknown) => string | null): void {
  const value = payload[key];
  if (value === undefined) return;
  const why = problem(value);
  if (why) throw new BadInputError(`payload.${key} ${why}`, 'BAD_INPUT', `payload.${key}`);
}

/** Reads and checks the `yukta.*` scheduling keys of a start payload; bad input names the key. */
export function readStartOptions(payload: Record<string, unknown>): StartOptions {
  check(payload, PRIORITY_KEY, priorityProblem);
  check(payload, FAIRNESS_KEY, fairnessKeyProblem);
  check(payload, FAIRNESS_WEIGHT_KEY, fairnessWeightProblem);
  check(payload, TIME_BUDGET_KEY, timeBudgetProblem);
  return {
    priority: (payload[PRIORITY_KEY] as number | undefined) ?? 0,
    fairnessKey: payload[FAIRNESS_KEY] as string | undefined,
    fairnessWeight: (payload[FAIRNESS_WEIGHT_KEY] as number | undefined) ?? 1,
    timeBudgetMs: payload[TIME_BUDGET_KEY] as number | undefined,
  };
}
