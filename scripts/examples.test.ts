import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine, ManualClock } from '../engine/index';

const dir = resolve(import.meta.dirname, '..', 'assets', 'examples');
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('Example workflows in assets/examples', () => {
  it('ships at least two examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples)('%s is valid and runs to SUCCESS', async (file) => {
    const definition: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const clock = new ManualClock(0);
    const engine = new Engine({ clock });
    expect(engine.validate(definition)).toEqual({ valid: true, issues: [] });
    const { workflowId } = await engine.saveWorkflow('examples', definition);
    const { executionId } = await engine.startRun({ session: 'examples', workflowId, payload: { name: 'Ada', orderId: 'A-1', qty: '3', city: 'Oslo' } });
    const done = engine.waitForRun(executionId);
    await clock.advanceAsync(60_000); // virtual time for DELAY nodes
    expect(await done).toBe('SUCCESS');
    expect(engine.getRun(executionId).results.length).toBeGreaterThan(0);
  });
});
