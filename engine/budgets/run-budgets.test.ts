import { describe, expect, it } from 'vitest';
import { ManualClock } from '../runtime/clock';
import { RunAbortedError } from '../runtime/errors';
import { ProviderRateLimiter } from './provider-rate-limiter';
import { BudgetExceededError, RunBudgets } from './run-budgets';

describe('EXT-03 run budget ledger', () => {
  it('reserves calls synchronously: of many nodes racing for the last call exactly one gets it', () => {
    const budgets = new RunBudgets();
    const outcomes = Array.from({ length: 10 }, () => {
      try {
        budgets.admit('run-1', 'llm', { maxCalls: 3 });
        return 'ok';
      } catch (error) {
        return error instanceof BudgetExceededError ? 'refused' : 'other';
      }
    });
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(7);
    expect(budgets.use('run-1')).toEqual({ llmCalls: 3, toolCalls: 0, tokens: 0, cost: 0 });
  });

  it('counts runs, agents and call kinds apart; hardStop refuses with RunAbortedError', () => {
    const budgets = new RunBudgets();
    budgets.admit('r1', 'llm', { maxCalls: 1 });
    budgets.admit('r2', 'llm', { maxCalls: 1 });
    budgets.admit('r1', 'llm', { maxCalls: 1, agent: 'a' });
    budgets.admit('r1', 'tool', { maxCalls: 1 });
    expect(() => budgets.admit('r1', 'tool', { maxCalls: 1 })).toThrow(BudgetExceededError);
    expect(() => budgets.admit('r1', 'llm', { maxCalls: 1, hardStop: true })).toThrow(RunAbortedError);
    budgets.record('r1', 'a', { tokens: 100, cost: 0.5 });
    expect(() => budgets.admit('r1', 'llm', { maxTokens: 100, agent: 'a' })).toThrow(/100 of 100 tokens/);
    expect(() => budgets.admit('r1', 'llm', { maxCost: 0.5, agent: 'a' })).toThrow(/cost 0.5 of 0.5/);
    expect(budgets.use('r1')).toMatchObject({ llmCalls: 1, toolCalls: 1, tokens: 0 });
  });

  it('keeps the newest runs only', () => {
    const budgets = new RunBudgets(3);
    for (let i = 0; i < 5; i++) budgets.admit(`r${i}`, 'llm');
    expect(budgets.size).toBe(3);
    expect(budgets.use('r0').llmCalls).toBe(0);
    expect(budgets.use('r4').llmCalls).toBe(1);
  });
});

describe('EXT-03 yukta.llm.rate-limit.<provider> spacing', () => {
  it('hands out slots 60000/rpm apart per provider; a quiet provider starts again at once', () => {
    const clock = new ManualClock(0);
    const limiter = new ProviderRateLimiter(clock, { openai: 120, anthropic: 0 });
    expect([limiter.reserve('openai'), limiter.reserve('openai'), limiter.reserve('openai')]).toEqual([0, 500, 1000]);
    expect(limiter.reserve('anthropic')).toBe(0);
    expect(limiter.reserve('anthropic')).toBe(0);
    clock.advance(10_000);
    expect(limiter.reserve('openai')).toBe(0);
    expect(limiter.reserve('openai')).toBe(500);
  });
});
